#!/usr/bin/env bash
# `gesturectl play --to uhid`: the HID path through /dev/uhid, driven by the
# kernel's own HID drivers. First UhidDevice's own Swift suite ("uhid
# devices": a boot mouse bound, its node found by uniq, its reports read
# back). Then (once the descriptors are in) a two-finger drag played --to
# uhid on a touchscreen that hid-multitouch binds.
# timeout: 240
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

modprobe uhid || skip "no uhid module in this kernel"
modprobe hid-multitouch || skip "no hid-multitouch module in this kernel"
[[ -c /dev/uhid ]] || fail "/dev/uhid is missing after 'modprobe uhid'"

binary=$(dirname "$GESTURECTL")/gesturectlPackageTests.xctest
not_runnable() { if [[ ${CI:-} == true ]]; then fail "$@"; else skip "$@"; fi; }
[[ -x $binary ]] || not_runnable "no test build ($binary): run 'swift build --build-tests' before the tier"
run_logged swift-testing env NO_COLOR=1 "$binary" --testing-library swift-testing --filter 'UhidKernelTests'
grep -E '(passed|failed|skipped)' swift-testing.err > results.txt || true
while IFS= read -r line; do note "$line"; done < results.txt
assert_status 0
assert_log_lacks swift-testing.err 'skipped' "skipped Swift tests"
assert_log_contains swift-testing.err 'Suite "uhid devices" passed' "UhidKernelTests"
