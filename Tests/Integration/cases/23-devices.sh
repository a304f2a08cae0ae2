#!/usr/bin/env bash
# `gesturectl devices` on a real kernel: the fixture touchscreen made by
# evemu-device is listed as a touchscreen with its slots, axis range,
# resolution and size in mm (compared with evemu's description), and
# `--watch --json` reports it being added and removed (udev hotplug).
# `--device` finds it by name and by vendor:product.
# timeout: 150
# resources: alone
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

start_background watch.log "$GESTURECTL" devices --watch --json
WATCH_PID=$BACKGROUND_PID
wait_for_log "$CASE_WORK/watch.log" '^\[|^\]'

create_device touchscreen.evemu
"$GESTURECTL" devices --json > devices.json
python3 - "$DEVICE_NODE" <<'PY' || fail "gesturectl devices --json: $(cat devices.json | head -c 600)"
import json, sys
node = sys.argv[1]
device = next(d for d in json.load(open("devices.json")) if d["node"] == node)
expected = {"name": "gesturectl test touchscreen", "kind": "touchscreen", "slots": 10,
            "x": {"min": 0, "max": 4000, "resolution": 20}, "y": {"min": 0, "max": 2500, "resolution": 20},
            "width_mm": 200, "height_mm": 125}
for key, value in expected.items():
    if device[key] != value:
        sys.exit("%s: expected %r, got %r" % (key, value, device[key]))
print("measured: devices --json matches the fixture:", json.dumps(device))
PY
wait_for_log "$CASE_WORK/watch.log" "\"event\": \"added\".*\"node\": \"$DEVICE_NODE\".*\"kind\": \"touchscreen\""

# --device by name and by vendor:product: the recorder says which device it
# opened, and is interrupted once it has (on its line, not after a fixed
# time: under load a start can take seconds). With no contact it is refused
# with exit 1 and writes nothing.
vendor=$(cat "/sys/class/input/${DEVICE_NODE##*/}/device/id/vendor")
product=$(cat "/sys/class/input/${DEVICE_NODE##*/}/device/id/product")
for spec in "gesturectl test touchscreen" "$vendor:$product"; do
    log="by-spec-${spec//[^a-z0-9]/-}.log"
    start_gesturectl_record "$log" --device "$spec" -o never.json
    assert_log_contains "$CASE_WORK/$log" "recording from $DEVICE_NODE " "--device '$spec'"
    kill -INT "$RECORD_PID"
    wait_background "$RECORD_PID"
    assert_equal 1 "$BACKGROUND_STATUS" "--device '$spec': the exit status of a recording with no contact"
    assert_log_contains "$CASE_WORK/$log" 'no contact was recorded; nothing was written' "--device '$spec'"
    [[ ! -e $CASE_WORK/never.json ]] || fail "--device '$spec': a recording with no contact wrote never.json"
done

stop_background "$DEVICE_PID"
wait_for_log "$CASE_WORK/watch.log" "\"event\": \"removed\".*\"node\": \"$DEVICE_NODE\""
stop_background "$WATCH_PID"
