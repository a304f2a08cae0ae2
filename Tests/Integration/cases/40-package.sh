#!/usr/bin/env bash
# The Debian package (scripts/package), installed as a user would on a
# fresh Debian 12: `dpkg -i` of the .deb that scripts/test built once for
# this run (GESTURECTL_DEB), then, as a normal user in the groups (setpriv),
# `gesturectl list` shows the built-ins (no environment variable), `play
# tap` works through uinput, `man gesturectl-play` renders and the bash
# completion completes; the group and the system user exist, the udev rule
# gave /dev/uinput to the group; the installed units' command line, started
# by systemd-socket-activate on the socket unit's path, answers `version`.
# Then `dpkg -r` leaves none of the package's files; `dpkg --purge` removes
# /etc/gesturectl and the saved bindings but keeps the daemon's gestures.
# (Tests/Integration/run overlays /usr and /var in the VM: writable in the
# guest, the host's copies untouched.)
# timeout: 300
# resources: group udev-rules
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
activator_pid=""
restore() {
    [[ -z $activator_pid ]] || kill -TERM "$activator_pid" 2>/dev/null || true
    dpkg --purge gesturectl > /dev/null 2>&1 || true
    # Debian keeps a package's system user and group; the next case must not see them.
    userdel gesturectl 2>/dev/null || true
    groupdel gesturectl 2>/dev/null || true
    rm -rf /var/lib/gesturectl /etc/gesturectl /run/gesturectl
    udevadm control --reload || true
    read -r owner group mode <<< "$original_uinput"
    chown "$owner:$group" /dev/uinput || true
    chmod "$mode" /dev/uinput || true
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
run_logged install dpkg -i "$GESTURECTL_DEB"
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
[[ ! -e /var/lib/gesturectl/bindings.json ]] || fail "purge left the saved bindings"
[[ -f /var/lib/gesturectl/gestures/mine.gesture.json ]] || fail "purge removed the daemon's gestures"
! dpkg -s gesturectl > /dev/null 2>&1 || fail "dpkg still knows gesturectl after the purge"
note "removed and purged; kept: $(find /var/lib/gesturectl | tr '\n' ' ')"
