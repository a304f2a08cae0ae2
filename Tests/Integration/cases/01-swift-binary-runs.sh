#!/usr/bin/env bash
# The host-built gesturectl binary runs inside the guest unchanged (same
# toolchain and /usr/lib through the shared root file system).
# timeout: 120
. "$INTEGRATION/lib.sh"

[[ -x $GESTURECTL ]] || fail "GESTURECTL ($GESTURECTL) is not an executable file"
run_logged version "$GESTURECTL" --version
assert_status 0
[[ -s version.out ]] || fail "gesturectl --version printed nothing on stdout"
note "gesturectl --version: $(head -n 1 version.out)"
