#!/usr/bin/env bash
# The Swift test suites that need a kernel device (InputSystemTests'
# KernelTests and GesturePlaybackTests' KernelPlaybackTests: /dev/uinput;
# HIDOutputTests' UhidKernelTests: /dev/uhid) are skipped on a host without
# it (under CI=true they fail there); here they run, and every one of their
# tests must run and pass (a skipped one fails this case).
#
# The host-built test binary is run directly with Swift Testing's own
# options, as `swift test --skip-build --filter ...` would run it: that
# saves SwiftPM's ~45 s start-up under emulation and needs no writable
# checkout. It must have been built first (`swift build --build-tests`);
# without it, or when it is older than a Swift source, the case is skipped
# (under CI=true it fails).
# timeout: 240
# resources: uhid
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

# Beside the gesturectl under test (swift build --show-bin-path).
binary=$GESTURECTL_BUILD_DIR/gesturectlPackageTests.xctest
suites='KernelTests|KernelPlaybackTests|UhidKernelTests'
# Under CI the test build is part of the run (scripts/test): its absence is
# a failure there, not a skip.
not_runnable() { if [[ ${CI:-} == true ]]; then fail "$@"; else skip "$@"; fi; }
[[ -x $binary ]] || not_runnable "no test build ($binary): run 'swift build --build-tests' before the tier"
newer=$(find "$REPO_ROOT/Sources" "$REPO_ROOT/Tests" -name '*.swift' -newer "$binary" -print -quit)
[[ -z $newer ]] || not_runnable "the test build is older than ${newer#"$REPO_ROOT"/}: run 'swift build --build-tests' again"

# UhidKernelTests ("uhid devices") need /dev/uhid: loaded here, so that
# this case does not depend on an earlier one having loaded it (case 50
# runs that suite again, beside its own checks of --to uhid).
modprobe uhid || true
modprobe hid-multitouch || true
run_logged swift-testing env NO_COLOR=1 "$binary" --testing-library swift-testing --filter "$suites"
# Swift Testing reports on standard error.
results=swift-testing.err
grep -E '(passed|failed|skipped)' "$results" > results.txt || true
while IFS= read -r line; do note "$line"; done < results.txt
assert_status 0
assert_log_lacks "$results" 'skipped' "skipped Swift tests"
assert_log_lacks "$results" 'failed|✘' "failed Swift tests"
assert_log_contains "$results" 'Suite "Kernel devices" passed' "KernelTests"
assert_log_contains "$results" 'Suite "Playback on uinput" passed' "KernelPlaybackTests"
assert_log_contains "$results" 'Suite "uhid devices" passed' "UhidKernelTests"
count=$(sed -n 's/.*Test run with \([0-9]*\) tests\{0,1\} .*passed.*/\1/p' "$results")
((${count:-0} >= 9)) || fail "expected at least the 9 kernel tests (5 + 2 + 2) to run, the run reports '${count:-none}'"
