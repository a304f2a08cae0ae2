# shellcheck shell=bash
# shellcheck disable=SC2034 # variables are for the scripts that source this
# The on-screen button's session on a real kernel, shared by the case
# 38-button-screen and benchmarks/button-place-guest; sourced after lib.sh
# and gesturectl-lib.sh (it needs their CASE_WORK, REPO_ROOT, GESTURECTL,
# INTEGRATION). It starts seatd, sway on its libinput backend (headless
# output 1280 x 720, pixman) as an unprivileged user of the group input,
# the daemon (root, its own socket, a ready touchscreen, the gestures
# three-finger-swipe-up and slow-three-finger-swipe-up: the same at 2 %
# speed, first in the menu), an absolute uinput mouse (uinput_source.py, 1
# unit a pixel), wev full screen and gesturectl-button (GESTURECTL_BUTTON,
# else GESTURECTL_BUILD_DIR's), and returns once the button is ready.
# Set BUTTON_SESSION_DEBUG=0 first for a button without
# GESTURECTL_BUTTON_DEBUG (a benchmark: no line per pointer event), and
# BUTTON_SESSION_TIMING=1 for its GESTURECTL_BUTTON_TIMING lines.
# Sets: socket, touchscreen (the daemon's node), SOURCE_NODE (the mouse),
# as_user (a command prefix: the user, its environment, WAYLAND_DISPLAY),
# button_pid, size x0 y0 centre_x centre_y (the button), helper; defines
# click X Y, shot NAME and open_saved_gestures ROUND (sets SUB_X,
# SUB_FIRST_Y, SUB_SECOND_Y: the sub-menu's two items).

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
    # The release 80 ms after the press, not after a wait for the press's
    # answer (tail, grep, timeout: process starts, slow under emulation on
    # a loaded host): the button times a press from when it handles it, and
    # took such a click for a long press (no action: the button got both
    # events and did nothing; benchmarks/button-place lost a tap so, twice).
    source_send 'frame 1:0x110:1' frame
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
start_background button.log "${as_user[@]}" "${gtk_quiet[@]}" GESTURECTL_BUTTON_DEBUG="${BUTTON_SESSION_DEBUG:-1}" \
    GESTURECTL_BUTTON_TIMING="${BUTTON_SESSION_TIMING:-0}" "$button_binary" --socket "$socket"
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
