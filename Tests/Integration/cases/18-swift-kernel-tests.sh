#!/usr/bin/env bash
# The Swift test suites that need /dev/uinput (InputSystemTests'
# KernelTests, GesturePlaybackTests' KernelPlaybackTests) are skipped on a
# host without it (under CI=true they fail there, and scripts/test leaves
# them to this case); here they run, and every one of their tests must run
# and pass (a skipped one fails this case). HIDOutputTests' UhidKernelTests,
# which need /dev/uhid, run in case 50.
#
# The host-built test binary is run directly with Swift Testing's own
# options, as `swift test --skip-build --filter ...` would run it: that
# saves SwiftPM's ~45 s start-up under emulation and needs no writable
# checkout. It must have been built first (`swift build --build-tests`);
# without it, or when it is older than a Swift source, the case is skipped
# (under CI=true it fails).
# timeout: 240
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

# Beside the gesturectl under test (swift build --show-bin-path).
binary=$GESTURECTL_BUILD_DIR/gesturectlPackageTests.xctest
# Anchored: a bare KernelTests would also match UhidKernelTests.
suites='InputSystemTests\.KernelTests|GesturePlaybackTests\.KernelPlaybackTests'
# Under CI the test build is part of the run (scripts/test): its absence is
# a failure there, not a skip.
not_runnable() { if [[ ${CI:-} == true ]]; then fail "$@"; else skip "$@"; fi; }
[[ -x $binary ]] || not_runnable "no test build ($binary): run 'swift build --build-tests' before the tier"
newer=$(find "$REPO_ROOT/Sources" "$REPO_ROOT/Tests" -name '*.swift' -newer "$binary" -print -quit)
[[ -z $newer ]] || not_runnable "the test build is older than ${newer#"$REPO_ROOT"/}: run 'swift build --build-tests' again"

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
count=$(sed -n 's/.*Test run with \([0-9]*\) tests\{0,1\} .*passed.*/\1/p' "$results")
((${count:-0} >= 7)) || fail "expected at least the 7 uinput kernel tests (5 + 2) to run, the run reports '${count:-none}'"
