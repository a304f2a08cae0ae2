#!/usr/bin/env bash
# The per-frame cost of playing and of recording, on the host, without the
# VM (issue 9): CPU time a frame, heap allocations a frame and system calls
# a frame of the player's path (ten fingers at 1 kHz, written through the
# uinput write path to /dev/null) and of the recorder's (the same frames
# read from a pipe through a RecordingSession); and the daemon's request →
# first frame written beside its `version` round trip, on a real socket over
# the real engine with a sink in place of the kernel, and the instructions one
# inline tap costs it (callgrind, to watch for regressions). Not part of scripts/test;
# about 2 minutes. The figures that matter under emulation are in
# benchmarks/timing (benchmarks/README.md); this one shows where the time
# goes.
#
# Usage: benchmarks/hotpath.sh [--no-valgrind] [--vm] [--binary PATH]
#   --binary PATH  a gesturectl-hotpath built elsewhere (default: the
#                  release build of this checkout, built first)
#   --vm           also run the CPU-time figures in the VM (scripts/vm-run:
#                  qemu without KVM, as benchmarks/timing; ~2 minutes more),
#                  where they are 20-90 times the host's
#
# Allocations a frame: valgrind's malloc count (memcheck's "total heap
# usage") of a run of 2N frames minus a run of N, over N, so set-up is not
# counted. System calls a frame: strace -c -f of the 1 kHz runs, over the
# frames. Both are left out when valgrind or strace is missing.
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
binary="" valgrind=1 vm=0
while (($# > 0)); do
    case "$1" in
        --binary) binary=${2:?--binary needs a path}; shift 2 ;;
        --no-valgrind) valgrind=0; shift ;;
        --vm) vm=1; shift ;;
        -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "hotpath: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
done
if [[ -z $binary ]]; then
    swift build -c release --product gesturectl-hotpath 2>&1 | grep -E "error|warning: |Compiling|Build" >&2 || true
    binary=$(swift build -c release --show-bin-path)/gesturectl-hotpath
fi
[[ -x $binary ]] || { echo "hotpath: no binary at $binary" >&2; exit 1; }

echo "## CPU time (host: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
"$binary" play 2
"$binary" play-nowait 10000
"$binary" record 2
"$binary" record-burst 10000
echo "## The daemon's request → first frame, beside its version round trip (host CPU)"
"$binary" daemon 500
if ((vm)); then
    echo "## CPU time in the VM (TCG)"
    scripts/vm-run --timeout 900 -- bash -c '
        echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
        "$0" play 2; "$0" play-nowait 2000; "$0" record 2; "$0" record-burst 5000; "$0" daemon 200' "$binary" \
        || echo "(the VM run failed: status $?)"
fi

allocations() { # MODE N: heap allocations of one run
    valgrind --tool=memcheck "$binary" "$1" "$2" 1 2>&1 >/dev/null | sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,
}
if ((valgrind)) && command -v valgrind > /dev/null; then
    echo "## Heap allocations a frame (valgrind: 2N frames minus N frames, over N)"
    for mode in play-nowait record-burst; do
        small=$(allocations "$mode" 1000) large=$(allocations "$mode" 2000)
        echo "$mode: $(( (large - small) / 1000 )) allocations a frame ($small for 1000 frames, $large for 2000)"
    done
fi
instructions() { # MODE N: instructions of one run, every thread (callgrind's "Collected")
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" "$1" "$2" 2>&1 >/dev/null \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
if ((valgrind)) && command -v valgrind > /dev/null; then
    echo "## Instructions a daemon inline tap (callgrind: 40 taps minus 20, over 20; every thread)"
    small=$(instructions daemon-taps 20) large=$(instructions daemon-taps 40)
    echo "daemon inline tap: $(( (large - small) / 20 )) instructions ($small for 20 taps, $large for 40)"
fi
if command -v strace > /dev/null; then
    echo "## System calls a frame at 1 kHz (strace -c -f, 2,002 frames)"
    for mode in play record; do
        summary=$(strace -f -c -o /dev/stdout "$binary" "$mode" 2 2>/dev/null | grep -E "^ *[0-9]" || true)
        calls=$(awk '$NF != "total" { calls[$NF] += $4 } END { for (c in calls) if (calls[c] >= 200) printf "%s %.2f, ", c, calls[c] / 2002 }' <<< "$summary")
        [[ $mode == record ]] && calls+="(the writer thread's one write and one clock_nanosleep a frame included), "
        echo "$mode: ${calls%, }"
    done
fi
