#!/usr/bin/env bash
# The Debian package (scripts/package), installed as a user would on a
# fresh Debian 12: `dpkg --unpack` (the group is there before the udev rule
# lands) and `--configure` of the .deb that scripts/test built once for
# this run (GESTURECTL_DEB), then, as a normal user in the groups (setpriv),
# `gesturectl list` shows the built-ins (no environment variable), `play
# tap` works through uinput, `man gesturectl-play` renders and the bash
# completion completes; the group and the system user exist, the udev rule
# gave /dev/uinput to the group; the installed units' command line, started
# by systemd-socket-activate on the socket unit's path, answers `version`.
# Outputs: the package does not load uhid at boot (its modules-load.d file
# names uinput only) and /dev/uhid has the group; the installed daemon, as
# its own user with the uhid output, makes its HID touchscreen through
# /dev/uhid; `daemon --write-dropin` writes the unit's drop-in (DeviceAllow=
# /dev/uhid for uhid) once; the udev rule gives the group the /dev/hidgN of
# the gadget `gadget up` made and not another gadget's (both looped back by
# dummy_hcd, one after the other). (The unit itself cannot run here: the VM
# has no systemd as PID 1; SystemdUnitsTests checks unit and drop-in with
# systemd-analyze.)
# Then `dpkg -r` leaves none of the package's files; `dpkg --purge` removes
# /etc/gesturectl, the drop-in and the saved bindings but keeps the daemon's
# gestures.
# (Tests/Integration/run overlays /usr and /var in the VM: writable in the
# guest, the host's copies untouched.)
# timeout: 480
# resources: group udev-rules uhid
. "$INTEGRATION/lib.sh"

((IN_VM)) || skip "installs a package into /usr: runs only inside the VM"
[[ -n ${GESTURECTL_DEB:-} ]] || skip "no package given (GESTURECTL_DEB): scripts/test builds it with scripts/package"
[[ -f $GESTURECTL_DEB ]] || fail "GESTURECTL_DEB=$GESTURECTL_DEB is not a file"
touch /usr/.gesturectl-write-test 2>/dev/null && touch /var/lib/dpkg/.gesturectl-write-test 2>/dev/null \
    || fail "/usr or /var is not writable in the guest (Tests/Integration/run should overlay them)"
rm -f /usr/.gesturectl-write-test /var/lib/dpkg/.gesturectl-write-test
! dpkg -s gesturectl > /dev/null 2>&1 || fail "gesturectl is installed already; this case needs a clean system"
! getent group gesturectl > /dev/null || fail "a group 'gesturectl' exists already; this case needs a clean system"

member_uid=61011
original_uinput=$(stat -c '%U %G %a' /dev/uinput)
original_uhid=$(stat -c '%U %G %a' /dev/uhid 2>/dev/null || true)
activator_pid=""
daemon_pid=""
daemon_home=/run/gesturectl-case-40
restore() {
    [[ -z $activator_pid ]] || kill -TERM "$activator_pid" 2>/dev/null || true
    [[ -z $daemon_pid ]] || kill -TERM "$daemon_pid" 2>/dev/null || true
    "$GESTURECTL" gadget down --name other-kbd > /dev/null 2>&1 || true
    "$GESTURECTL" gadget down > /dev/null 2>&1 || true
    rm -rf "$daemon_home" /etc/systemd/system/gesturectl.service.d
    dpkg --purge gesturectl > /dev/null 2>&1 || true
    # Debian keeps a package's system user and group; the next case must not see them.
    userdel gesturectl 2>/dev/null || true
    groupdel gesturectl 2>/dev/null || true
    rm -rf /var/lib/gesturectl /etc/gesturectl /run/gesturectl
    udevadm control --reload || true
    read -r owner group mode <<< "$original_uinput"
    chown "$owner:$group" /dev/uinput || true
    chmod "$mode" /dev/uinput || true
    if [[ -n $original_uhid && -e /dev/uhid ]]; then
        read -r owner group mode <<< "$original_uhid"
        chown "$owner:$group" /dev/uhid || true
        chmod "$mode" /dev/uhid || true
    fi
}
trap 'status=$?; restore; (exit "$status"); _lib_cleanup' EXIT

# man-db's trigger would rebuild its whole database (minutes under emulation).
rm -f /var/lib/man-db/auto-update

# --- install ------------------------------------------------------------------
# man-db's trigger rebuilds the whole manual index after each dpkg run:
# most of dpkg's time under emulation, and nothing this case checks (man
# finds a page by its path). Its switch is this file (man-db's postinst;
# /var is the VM's own overlay).
rm -f /var/lib/man-db/auto-update
# Unpacked first, then configured (what `dpkg -i` does in one go): the group
# must exist before the udev rule lands, since udevd may load the rule at
# once and drops a GROUP= naming no group; the postinst's reload did not
# load the unchanged file again (a loaded run left /dev/uinput 'root 660').
run_logged install dpkg --unpack "$GESTURECTL_DEB"
assert_status 0
getent group gesturectl > /dev/null \
    || fail "the group gesturectl did not exist when the udev rule was unpacked (the preinst makes it)"
run_logged configure dpkg --configure gesturectl
assert_status 0
dpkg -L gesturectl > files.txt
for path in /usr/bin/gesturectl /usr/share/gesturectl/gestures/tap.gesture.json \
    /usr/lib/udev/rules.d/70-gesturectl-uinput.rules /usr/lib/modules-load.d/gesturectl.conf \
    /usr/lib/sysusers.d/gesturectl.conf /lib/systemd/system/gesturectl.service /lib/systemd/system/gesturectl.socket \
    /usr/share/man/man1/gesturectl-play.1.gz /usr/share/man/man8/gesturectl-daemon.8.gz \
    /usr/share/man/man5/gesturectl-format.5.gz /usr/share/bash-completion/completions/gesturectl \
    /usr/share/doc/gesturectl/copyright /usr/share/doc/gesturectl/README.md; do
    [[ -f $path ]] || fail "the package did not install $path"
done
getent group gesturectl > /dev/null || fail "the group gesturectl was not created"
getent passwd gesturectl > /dev/null || fail "the daemon's user gesturectl was not created"
gid=$(getent group gesturectl | cut -d: -f3)
note "group gesturectl ($gid); user: $(getent passwd gesturectl); in: $(id -nG gesturectl 2>/dev/null)"
assert_equal 'gesturectl 660' "$(stat -c '%G %a' /dev/uinput)" "/dev/uinput after the postinst's udev trigger"
# Not enabled: nothing links to the units.
[[ ! -e /etc/systemd/system/sockets.target.wants/gesturectl.socket ]] || fail "the package enabled gesturectl.socket"

# --- as a normal user in the group ----------------------------------------------
as_member=(setpriv --reuid="$member_uid" --regid="$member_uid" --groups="$gid" env -i HOME=/tmp PATH=/usr/bin:/bin LC_ALL=C.UTF-8)
run_logged list "${as_member[@]}" gesturectl list
assert_status 0
assert_log_contains "$CASE_WORK/list.out" '^tap +built-in ' "the built-in tap, found without GESTURECTL_BUILTINS"
assert_log_contains "$CASE_WORK/list.out" '^three-finger-swipe-left +built-in ' "the built-ins"
run_logged play "${as_member[@]}" gesturectl play tap --lead-in 0 --linger 0
assert_status 0
assert_log_contains "$CASE_WORK/play.err" 'playing on /dev/input/event' "play's note"
run_logged man "${as_member[@]}" MANWIDTH=80 man gesturectl-play
assert_status 0
assert_log_contains "$CASE_WORK/man.out" 'gesturectl play \[options\] gesture' "the page's synopsis"
run_logged completion "${as_member[@]}" bash --norc -c '
    source /usr/share/bash-completion/completions/gesturectl
    COMP_WORDS=(gesturectl play thr); COMP_CWORD=2; _gesturectl; printf "%s\n" "${COMPREPLY[@]}"'
assert_status 0
assert_log_contains "$CASE_WORK/completion.out" '^three-finger-swipe-left$' "the installed bash completion"

# --- the installed units' command line, socket-activated ------------------------
listen=$(sed -n 's/^ListenStream=//p' /lib/systemd/system/gesturectl.socket)
read -r -a exec_start <<< "$(sed -n 's/^ExecStart=//p' /lib/systemd/system/gesturectl.service)"
note "socket $listen; command line ${exec_start[*]}"
[[ -n $listen && ${#exec_start[@]} -gt 0 ]] || fail "cannot read ListenStream= and ExecStart= from the installed units"
mkdir -p "$(dirname "$listen")"
start_background activate.log env -i PATH=/usr/bin:/bin systemd-socket-activate -l "$listen" "${exec_start[@]}"
activator_pid=$BACKGROUND_PID
wait_for_path -S "$listen"
# What gesturectl.socket does with it: root and the group only.
chgrp gesturectl "$listen" && chmod 0660 "$listen"
run_logged version "${as_member[@]}" python3 -c '
import json, socket, sys
with socket.socket(socket.AF_UNIX) as s:
    s.settimeout(120)
    s.connect(sys.argv[1])
    s.sendall(b"{\"id\": 1, \"op\": \"version\"}\n")
    print(json.loads(s.makefile().readline()))' "$listen"
assert_status 0
assert_log_contains "$CASE_WORK/version.out" "'ok': True" "the activated daemon's reply"
assert_log_contains "$CASE_WORK/version.out" "'protocol': 1" "the protocol version"
assert_log_contains "$CASE_WORK/activate.log" 'listening on the socket systemd handed over' "the daemon took the handed socket"
kill -TERM "$activator_pid" 2>/dev/null || true
wait_background "$activator_pid" 30
activator_pid=""

# --- outputs: uhid on demand, the drop-in, gesturectl's gadget only ------------
modules_load=/usr/lib/modules-load.d/gesturectl.conf
note "modules-load.d: $(grep -v '^#' "$modules_load" | tr '\n' ' ')"
# Module names only (the file's comments say why uhid is not there).
loaded_at_boot=$(grep -hv '^[[:space:]]*#' $(grep '/modules-load\.d/' files.txt) | tr '\n' ' ')
[[ " $loaded_at_boot " != *' uhid '* ]] || fail "the package loads uhid at boot (modules-load.d: $loaded_at_boot)"
grep -qx uinput "$modules_load" || fail "$modules_load does not load uinput"
rules=/usr/lib/udev/rules.d/70-gesturectl-uinput.rules
hidg_rules=$(grep -v '^#' "$rules" | grep hidg)
note "hidg rule: $hidg_rules"
[[ $(wc -l <<< "$hidg_rules") == 1 && $hidg_rules == 'SUBSYSTEM=="hidg", '*'PROGRAM="'*'/sys/kernel/config/usb_gadget/gesturectl/functions/'*'GROUP="gesturectl"'* ]] \
    || fail "the hidg rule does not ask configfs for gesturectl's gadget: $hidg_rules"

# /dev/uhid: the group has it after the postinst (uhid loaded by an earlier
# case, or the kernel's static node); else loading it applies the rule.
if [[ ! -e /dev/uhid ]]; then
    modprobe uhid || skip "no uhid module in this kernel"
fi
udevadm settle --timeout 30 || true
assert_equal 'gesturectl 660' "$(stat -c '%G %a' /dev/uhid)" "/dev/uhid after the postinst"

# The installed daemon as its own user (the unit's User= and groups), with
# the uhid output: its HID touchscreen is made through /dev/uhid.
install -d -o gesturectl -g gesturectl -m 0750 "$daemon_home" "$daemon_home/gestures"
printf '%s\n' '{"devices": ["touchscreen"], "outputs": ["uinput", "uhid"]}' > "$daemon_home/daemon.json"
chown gesturectl:gesturectl "$daemon_home/daemon.json"
start_background daemon-user.log setpriv --reuid=gesturectl --regid=gesturectl --init-groups \
    env -i PATH=/usr/bin:/bin HOME="$daemon_home" gesturectl daemon --socket "$daemon_home/d.sock" \
    --config "$daemon_home/daemon.json" --library "$daemon_home/gestures" --bindings "$daemon_home/bindings.json"
daemon_pid=$BACKGROUND_PID
wait_for_log "$CASE_WORK/daemon-user.log" 'ready: listening on|error'
assert_log_contains "$CASE_WORK/daemon-user.log" 'ready: touchscreen \(uhid\) at /dev/input/event' "the daemon's uhid touchscreen, made as the user gesturectl"
kill -TERM "$daemon_pid" 2>/dev/null || true
wait_background "$daemon_pid" 30
daemon_pid=""

# The drop-in for the configured outputs, written once.
mkdir -p /etc/gesturectl
printf '%s\n' '{"outputs": ["uinput", "uhid"]}' > /etc/gesturectl/daemon.json
dropin=/etc/systemd/system/gesturectl.service.d/outputs.conf
run_logged dropin gesturectl daemon --write-dropin
assert_status 0
assert_log_contains "$CASE_WORK/dropin.out" "^wrote $dropin \\(outputs: uinput, uhid\\)" "--write-dropin's report"
assert_log_contains "$CASE_WORK/dropin.out" 'systemctl daemon-reload && systemctl restart gesturectl.service' "what to run next"
assert_equal '[Service]|DeviceAllow=/dev/uhid rw|' "$(grep -v '^#' "$dropin" | grep . | tr '\n' '|')" "the drop-in's settings"
run_logged dropin-again gesturectl daemon --write-dropin
assert_status 0
assert_log_contains "$CASE_WORK/dropin-again.out" "is up to date" "a second --write-dropin"
rm /etc/gesturectl/daemon.json

# The gadget rule: another gadget's HID function stays root's, the one of
# the gadget named gesturectl goes to the group.
hidg_node() { # NAME: the touchscreen function's /dev/hidgN
    "$GESTURECTL" gadget status --name "$1" --json | python3 -c '
import json, sys
print([f for f in json.load(sys.stdin)["functions"] if f["name"] == "touchscreen"][0]["devnode"])'
}
if modprobe dummy_hcd && modprobe libcomposite && modprobe usb_f_hid; then
    run_logged gadget-other "$GESTURECTL" gadget up --name other-kbd
    assert_status 0
    udevadm settle --timeout 30 || true
    node=$(hidg_node other-kbd)
    [[ -c $node ]] || fail "no $node for the gadget other-kbd"
    assert_equal 'root 600' "$(stat -c '%G %a' "$node")" "$node of another gadget (other-kbd)"
    run_logged gadget-other-down "$GESTURECTL" gadget down --name other-kbd
    assert_status 0
    run_logged gadget-ours "$GESTURECTL" gadget up
    assert_status 0
    udevadm settle --timeout 30 || true
    node=$(hidg_node gesturectl)
    [[ -c $node ]] || fail "no $node for the gadget gesturectl"
    assert_equal 'gesturectl 660' "$(stat -c '%G %a' "$node")" "$node of gesturectl's gadget"
    run_logged gadget-ours-down "$GESTURECTL" gadget down
    assert_status 0
else
    note "no dummy_hcd, libcomposite or usb_f_hid: the gadget rule is checked by its text only"
fi

# --- remove, then purge ---------------------------------------------------------
mkdir -p /etc/gesturectl /var/lib/gesturectl/gestures
echo '{}' > /etc/gesturectl/daemon.json
echo '{}' > /var/lib/gesturectl/bindings.json
cp /usr/share/gesturectl/gestures/tap.gesture.json /var/lib/gesturectl/gestures/mine.gesture.json
run_logged remove dpkg -r gesturectl
assert_status 0
left=()
while IFS= read -r path; do
    [[ -d $path ]] && continue
    [[ -e $path || -L $path ]] && left+=("$path")
done < files.txt
((${#left[@]} == 0)) || fail "dpkg -r left files of the package: ${left[*]}"
[[ -f /var/lib/gesturectl/gestures/mine.gesture.json && -f /etc/gesturectl/daemon.json ]] \
    || fail "dpkg -r removed the configuration or the users' gestures"
run_logged purge dpkg --purge gesturectl
assert_status 0
[[ ! -e /etc/gesturectl ]] || fail "purge left /etc/gesturectl"
[[ ! -e /etc/systemd/system/gesturectl.service.d ]] || fail "purge left the drop-in $dropin"
[[ ! -e /var/lib/gesturectl/bindings.json ]] || fail "purge left the saved bindings"
[[ -f /var/lib/gesturectl/gestures/mine.gesture.json ]] || fail "purge removed the daemon's gestures"
! dpkg -s gesturectl > /dev/null 2>&1 || fail "dpkg still knows gesturectl after the purge"
note "removed and purged; kept: $(find /var/lib/gesturectl | tr '\n' ' ')"
