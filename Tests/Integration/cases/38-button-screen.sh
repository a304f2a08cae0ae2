#!/usr/bin/env bash
# The on-screen button end to end on a real kernel (issue 38): sway on its
# libinput backend (headless output, pixman, a seatd session, run as an
# unprivileged user of the group input) reads the daemon's ready
# touchscreen and a uinput mouse this case moves (absolute, as QEMU's
# tablet is: sway's cursor lands on the pixel asked for). wev is full
# screen beneath gesturectl-button (GESTURECTL_BUTTON_DEBUG=1: it logs every
# pointer and touch event it gets). The daemon (root, its own socket, the
# group input let in) keeps a touchscreen ready and has two gestures:
# three-finger-swipe-up and slow-three-finger-swipe-up, the same at 2 %
# speed (12.5 s; first in the menu, by its name).
#   1. The mouse taps the button: the menu opens (menu.json: Saved gestures
#      first); it clicks Saved gestures, then three-finger-swipe-up (the
#      sub-menu found on grim's pictures, button_screen.py), then
#      a place on the screen: the button asks the daemon to play it there;
#      wev gets three touch-downs in one frame, every finger lifted, and the
#      box around the touches is centred on the tap (±12 px); the button's
#      process gets no touch event at all.
#   2. The slow one, placed elsewhere: once wev has its three fingers down,
#      a tap on the busy button stops it: the button says so, wev sees every
#      finger lifted (an up for each, or a cancel), the daemon's `jobs` is
#      empty; still no touch event reached the button.
# timeout: 180
# resources: alone
# (alone: sway's libinput reads every input device of the guest, and another
# case's mouse or touchscreen would move its cursor or touch wev.)
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

note "setting up"
((IN_VM)) || skip "runs a compositor on every input device of the machine: runs only inside the VM"
button_binary=${GESTURECTL_BUTTON:-$GESTURECTL_BUILD_DIR/gesturectl-button}
[[ -x $button_binary ]] || skip "no gesturectl-button at $button_binary (swift build --product gesturectl-button)"
for tool in sway wev grim seatd; do
    command -v "$tool" > /dev/null || skip "$tool is missing (scripts/install-deps installs it)"
done
helper="$INTEGRATION/button_screen.py"

# --- the user, its folders, the daemon ------------------------------------------
user_id=61038
input_gid=$(getent group input | cut -d: -f3)
[[ -n $input_gid ]] || fail "the guest has no group 'input' (udev's event nodes are root:input)"
# Outside CASE_WORK (its parent is root's alone): the user's runtime
# folder and home, the daemon's socket folder (root's, open to read).
user_root=$(mktemp -d /run/gesturectl-button-screen.XXXXXX)
chmod 755 "$user_root"
trap 'status=$?; rm -rf "$user_root"; (exit "$status"); _lib_cleanup' EXIT
runtime=$user_root/runtime home=$user_root/home shots=$user_root/shots
mkdir -p "$runtime" "$home/.config/gesturectl" "$shots" "$user_root/daemon" "$user_root/library" "$user_root/builtins"
chown -R "$user_id:$input_gid" "$runtime" "$home" "$shots"
chmod 700 "$runtime"
# Saved gestures first in the button's menu (and the only item with Home).
printf '{"items": [{"menu": "gestures"}, {"press": "home"}]}\n' > "$home/.config/gesturectl/menu.json"
chown "$user_id:$input_gid" "$home/.config/gesturectl/menu.json"

# Two fonts, and a cache of them that sway makes as it starts: the
# system's font cache is stale as the guest sees the host's folders (over
# 9p), so fontconfig scanned every font again in each new process:
# `fc-match sans` took 33 s, the button 26 s to its first frame.
mkdir -p "$user_root/fonts" "$user_root/fontconfig-cache"
chown "$user_id:$input_gid" "$user_root/fontconfig-cache"
ln -s /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf "$user_root/fonts/"
cat > "$user_root/fonts.conf" << FONTS
<?xml version="1.0"?>
<fontconfig>
  <dir>$user_root/fonts</dir>
  <cachedir>$user_root/fontconfig-cache</cachedir>
</fontconfig>
FONTS
chmod -R a+rX "$user_root/fonts" "$user_root/fonts.conf"
as_user=(setpriv --reuid="$user_id" --regid="$input_gid" --clear-groups env -i
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME="$home" XDG_RUNTIME_DIR="$runtime"
    XDG_STATE_HOME="$home/state" FONTCONFIG_FILE="$user_root/fonts.conf" XCURSOR_PATH="$user_root/no-cursors")
# GTK without a session bus, AT-SPI, dconf, gvfs, GIO's modules or input
# methods, and (above) sway and GTK without a cursor theme (their built-in
# arrow): nothing to look for, each a cost under emulation.
mkdir -p "$user_root/no-cursors" "$user_root/no-modules"
gtk_quiet=(NO_AT_BRIDGE=1 DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent GSETTINGS_BACKEND=memory GIO_USE_VFS=local
    GIO_MODULE_DIR="$user_root/no-modules" GTK_IM_MODULE=gtk-im-context-simple)

# --- sway as the user, on libinput, started first (it takes seconds); it adds the
# daemon's touchscreen and the mouse as udev announces them -------------------------
cat > "$user_root/sway.config" << 'CONFIG'
output HEADLESS-1 resolution 1280x720 position 0,0
default_border none
default_floating_border none
for_window [app_id="wev"] fullscreen enable
seat * hide_cursor 0
CONFIG
chmod 644 "$user_root/sway.config"
# The session: seatd (root) opens the event nodes for sway. libseat's
# "noop" backend never says the session is active to wlroots 0.15 (sway
# waited 10 s and gave up). No VT: the guest's console is a serial line.
rm -f /run/seatd.sock
start_background seatd.log env SEATD_VTBOUND=0 seatd -g input -l info
wait_for_path -S /run/seatd.sock
start_background sway.log "${as_user[@]}" WLR_BACKENDS=headless,libinput WLR_RENDERER=pixman LIBSEAT_BACKEND=seatd \
    sway -V -c "$user_root/sway.config"
sway_pid=$BACKGROUND_PID

# --- the daemon: a touchscreen kept ready, the two gestures ---------------------------
cp "$REPO_ROOT/Recordings/three-finger-swipe-up.gesture.json" "$user_root/library/"
# The slow one is made meanwhile (the daemon reads its library at each list).
start_background save-slow.log env GESTURECTL_LIBRARY="$user_root/library" "$GESTURECTL" transform \
    "$REPO_ROOT/Recordings/three-finger-swipe-up.gesture.json" --speed 0.02 --save slow-three-finger-swipe-up
save_slow_pid=$BACKGROUND_PID
printf '{"devices": ["touchscreen"], "group": "input"}\n' > "$CASE_WORK/daemon.json"
socket=$user_root/daemon/gesturectl.sock
# No built-ins: the menu lists the two gestures alone.
start_background daemon.log env GESTURECTL_BUILTINS="$user_root/builtins" \
    "$GESTURECTL" daemon --socket "$socket" --config "$CASE_WORK/daemon.json" --library "$user_root/library"

# --- the mouse: absolute, 1 unit a pixel of the 1280 x 720 output ----------------
{
    echo '# EVEMU 1.3'
    echo 'N: gesturectl button-test mouse'
    echo 'I: 0003 1d6b 7a38 0100'
    echo 'P: 00 00 00 00 00 00 00 00'
    echo 'B: 00 0b 00 00 00 00 00 00 00'
    for line in 0 1 2 3; do echo 'B: 01 00 00 00 00 00 00 00 00'; done
    echo 'B: 01 00 00 07 00 00 00 00 00'
    echo 'B: 03 03 00 00 00 00 00 00 00'
    echo 'A: 00 0 1279 0 0 4'
    echo 'A: 01 0 719 0 0 4'
} > "$CASE_WORK/mouse.evemu"
start_uinput_source "$CASE_WORK/mouse.evemu"

# click X Y : the pointer there, the left button down and up.
click() {
    note "click at $1,$2"
    source_command "frame 3:0:$1 3:1:$2" frame
    pause 0.15
    source_command 'frame 1:0x110:1' frame
    pause 0.08
    source_command 'frame 1:0x110:0' frame
}

wait_for_log "$CASE_WORK/daemon.log" 'ready: listening on'
touchscreen=$(grep -m 1 -o 'ready: touchscreen at /dev/input/event[0-9]*' "$CASE_WORK/daemon.log" | awk '{print $4}')
[[ -n $touchscreen ]] || fail "the daemon did not say where its touchscreen is"
note "the daemon's touchscreen: $touchscreen; the mouse: $SOURCE_NODE"

deadline=$((SECONDS + WAIT_TIMEOUT))
until display=$(compgen -G "$runtime/wayland-*" | grep -v lock | head -n 1); do
    running "$sway_pid" || fail "sway ended: $(tail -n 5 "$CASE_WORK/sway.log" | tr '\n' '|')"
    ((SECONDS < deadline)) || fail "sway made no Wayland socket within ${WAIT_TIMEOUT}s: $(tail -n 5 "$CASE_WORK/sway.log" | tr '\n' '|')"
    pause 0.1
done
as_user+=(WAYLAND_DISPLAY="${display##*/}")
note "sway listens on ${display##*/}"

# --- wev beneath, full screen (it says the seat has a pointer and touch), and the
# button; both started at once (each takes seconds under emulation) -----------------
start_background wev.log "${as_user[@]}" stdbuf -oL wev
start_background button.log "${as_user[@]}" "${gtk_quiet[@]}" GESTURECTL_BUTTON_DEBUG=1 "$button_binary" --socket "$socket"
button_pid=$BACKGROUND_PID
wait_for_log "$CASE_WORK/wev.log" 'wl_seat.*capabilities.*pointer.*touch|wl_seat.*capabilities.*touch.*pointer'
wait_for_log "$CASE_WORK/wev.log" 'xdg_toplevel.*configure'
wait_for_log "$CASE_WORK/button.log" '^gesturectl-button: ready:'
wait_for_log "$CASE_WORK/button.log" "daemon .* at $socket"
wait_background "$save_slow_pid"
assert_equal 0 "$BACKGROUND_STATUS" "gesturectl transform --save slow-three-finger-swipe-up ($(tail -n 2 "$CASE_WORK/save-slow.log" | tr '\n' '|'))"
ready=$(grep -m 1 '^gesturectl-button: ready:' "$CASE_WORK/button.log")
[[ $ready =~ ([0-9]+)\ px\ at\ (-?[0-9]+),(-?[0-9]+) ]] || fail "no size and place in the button's line: $ready"
size=${BASH_REMATCH[1]} x0=${BASH_REMATCH[2]} y0=${BASH_REMATCH[3]}
centre_x=$((x0 + size / 2)) centre_y=$((y0 + size / 2))
note "the button: $size px at $x0,$y0"
((x0 + size >= 1270)) || fail "the button is not on the right edge at start: $ready"

# check NAME COMMAND ARGUMENT... : button_screen.py COMMAND, its output in
# check-NAME.log and its `measured:` lines in the case's output; fails the
# case with its reason.
check() {
    local name=$1 log="$CASE_WORK/check-$1.log" status=0 line
    shift
    python3 "$helper" "$@" > "$log" 2>&1 || status=$?
    while IFS= read -r line; do
        if [[ $line == measured:* ]]; then note "$name: ${line#measured: }"; fi
    done < "$log"
    ((status == 0)) || fail "$name: $(grep -m 1 '^CHECK FAILED:' "$log" | sed 's/^CHECK FAILED: //' || tail -n 1 "$log")"
}

# shot NAME : the screen as a PPM (grim, as the user).
shot() {
    "${as_user[@]}" grim -t ppm "$shots/$1.ppm" || fail "grim could not take a picture"
}
# The menu's first item (Saved gestures) is 30 px below its top, which is
# the button's top (the menu opens to its left).
item_y=$((y0 + 30))

# open_saved_gestures ROUND : taps the button, then Saved gestures; sets
# SUB_X, SUB_FIRST_Y and SUB_SECOND_Y: the middle of the sub-menu's two
# items, found on grim's pictures before the tap and after (the first
# time: the same menu opens at the same place again).
open_saved_gestures() {
    if [[ -n ${SUB_X:-} ]]; then
        click "$centre_x" "$centre_y"
        wait_for_lines "$CASE_WORK/button.log" '^gesturectl-button: saved gestures: 2 listed' "$1"
        click $((x0 - 40)) "$item_y"
        pause 0.3
        return
    fi
    # The pointer on the button first: where it is is the same on both pictures.
    source_command "frame 3:0:$centre_x 3:1:$centre_y" frame
    pause 0.15
    shot "$1-base"
    click "$centre_x" "$centre_y"
    wait_for_lines "$CASE_WORK/button.log" '^gesturectl-button: saved gestures: 2 listed' "$1"
    click $((x0 - 40)) "$item_y"
    pause 0.3
    shot "$1-sub"
    local found sub_left top bottom
    found=$(python3 "$helper" submenu "$shots/$1-base.ppm" "$shots/$1-sub.ppm" "$item_y" $((x0 - 60))) \
        || fail "round $1: $found"
    read -r sub_left SUB_X top bottom <<< "$found"
    SUB_FIRST_Y=$((top + (bottom - top) / 4)) SUB_SECOND_Y=$((top + (bottom - top) * 3 / 4))
    note "round $1: the sub-menu from x $sub_left, y $top to $bottom"
    rm -f "$shots/$1-"*.ppm
}

# --- 1. tap, Saved gestures, three-finger-swipe-up, a place: wev gets the touches ---
open_saved_gestures 1
click "$SUB_X" "$SUB_SECOND_Y"
wait_for_log "$CASE_WORK/button.log" "^gesturectl-button: placing 'three-finger-swipe-up'"
pause 0.3
tap_x=640 tap_y=400
click "$tap_x" "$tap_y"
wait_for_log "$CASE_WORK/button.log" "^gesturectl-button: playing 'three-finger-swipe-up' at 50%, 55.56% of monitor 0"
wait_for_log "$CASE_WORK/button.log" "^gesturectl-button: played 'three-finger-swipe-up'|Could not play|failed while it played"
assert_log_contains "$CASE_WORK/button.log" "^gesturectl-button: played 'three-finger-swipe-up'" "the button's log"
wait_for_lines "$CASE_WORK/wev.log" 'wl_touch\] up' 3 10
wev_lines=$(wc -l < "$CASE_WORK/wev.log")

# --- 2. the slow one, stopped by a tap on the busy button ------------------------------
open_saved_gestures 2
click "$SUB_X" "$SUB_FIRST_Y"
wait_for_log "$CASE_WORK/button.log" "^gesturectl-button: placing 'slow-three-finger-swipe-up'"
pause 0.3
slow_x=400 slow_y=250
click "$slow_x" "$slow_y"
wait_for_log "$CASE_WORK/button.log" "^gesturectl-button: job [0-9]+ is 'slow-three-finger-swipe-up'"
wait_for_lines "$CASE_WORK/wev.log" 'wl_touch\] down' 6 20
click "$centre_x" "$centre_y"
wait_for_log "$CASE_WORK/button.log" '^gesturectl-button: stopping job [0-9]+'
wait_for_log "$CASE_WORK/button.log" 'Stopped .*slow-three-finger-swipe-up.*every finger lifted'
# (The first play's three ups, then at least one of this one's.)
wait_for_lines "$CASE_WORK/wev.log" 'wl_touch\] (cancel|up)' 4 10
pause 0.5
# What wev got (1 and 2) and the daemon's jobs, in one Python.
check wev-and-jobs touches "$CASE_WORK/wev.log" 1 "$wev_lines" "$tap_x" "$tap_y" whole \
    -- touches "$CASE_WORK/wev.log" $((wev_lines + 1)) 0 "$slow_x" "$slow_y" cut -- jobs "$socket"

# --- the button got pointer events, and never a touch ------------------------------------
assert_log_contains "$CASE_WORK/button.log" '^gesturectl-button: debug: 4 local' "the button's debug lines (a button press)"
assert_log_lacks "$CASE_WORK/button.log" '^gesturectl-button: debug: (37|38|39|40) local' "the button's debug lines (touch events)"
stop_background "$button_pid"
