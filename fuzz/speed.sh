#!/bin/bash
# SPDX-License-Identifier: MPL-2.0
# fuzz/speed.sh — how fast one libFuzzer harness runs, as fuzz/README.md's
# table gives it (make fuzz-speed runs it for every harness).
#
#   fuzz/speed.sh HARNESS SECONDS BINDIR [INPUT-DIR...]
#
# Runs BINDIR/HARNESS with its fuzz/HARNESS.options (max_len, timeout,
# rss_limit_mb, the dictionary) in one process (no fork, no jobs: one core)
# and prints one line:
#
#   HARNESS  seeds: N inputs, R exec/s   fuzzing: R exec/s (M runs, lim L, corpus C inputs of B bytes)
#
# seeds:   one pass over the INPUT-DIRs (seeds and regression inputs),
#          -runs=0: every input once, the same inputs for every build, so
#          that two builds of a harness compare exactly;
# fuzzing: SECONDS of fuzzing after the seed pass (-max_total_time,
#          -seed=1) from the same inputs into a fresh temporary corpus;
#          only the runs after the seed pass count (libFuzzer's "Done N
#          runs" less the seed pass's).  lim is libFuzzer's length limit
#          at the end, corpus its working corpus's size and mean input
#          length: the fuzzing rate follows the length of the inputs tried,
#          which libFuzzer's length control starts at the longest input it
#          kept from the seeds (an input kept because it alone takes some
#          branch) and raises slowly, so two builds' rates compare only at
#          the same lim (fuzz/README.md, "Speed").
# FUZZ_SPEED_FLAGS (environment): more libFuzzer flags for the fuzzing
# run, e.g. -len_control=0 (the length limit at max_len from the start).
# Rates are runs per second of the process's CPU time (user + system, from
# /usr/bin/time), less the CPU time of a start with no input (ASan's and
# libFuzzer's set-up): on a busy machine the wall clock says more about
# the other processes than about the harness.
# A harness that fails on an input makes the line say so; the input and
# the log are kept in BINDIR/speed-artifacts/HARNESS/.
set -u

harness=$1
seconds=$2
bindir=$3
shift 3

bin=$bindir/$harness
. "$(dirname "$0")/options.sh"
harness_options "$harness"
opts+=("-dict=fuzz/$dict")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
art=$bindir/speed-artifacts/$harness
rm -rf "$art"
mkdir -p "$tmp/corpus" "$tmp/empty" "$art"

# run NAME ARGS...: the harness with ARGS; its CPU seconds in $tmp/NAME.cpu
run() {
    local name=$1
    shift
    /usr/bin/time -f '%U %S %e' -o "$tmp/$name.time" \
        "$bin" "${opts[@]}" -artifact_prefix="$art/" "$@" > "$tmp/$name.log" 2>&1
    local status=$?
    tail -1 "$tmp/$name.time" | awk '{ printf "%.3f", $1 + $2 }' > "$tmp/$name.cpu"
    return $status
}
runs() { sed -nE 's/^Done ([0-9]+) runs in.*/\1/p' "$tmp/$1.log"; }
cpu() { cat "$tmp/$1.cpu"; }
wall() { tail -1 "$tmp/$1.time" | awk '{ print $3 }'; }

run start -runs=0 "$tmp/empty"
run seeds -runs=0 "$@"
s1=$?
n1=$(runs seeds)
if [ "$s1" -ne 0 ] || [ -z "$n1" ]; then
    cp "$tmp/seeds.log" "$art/seeds.log"
    printf '%-26s the seed pass FAILED (exit %s); log %s:\n' "$harness" "$s1" "$art/seeds.log"
    tail -20 "$tmp/seeds.log"
    exit 1
fi
# libFuzzer's max_total_time counts the seed pass too
total=$(awk -v s="$seconds" -v w="$(wall seeds)" 'BEGIN { printf "%d", s + w + 1 }')
# shellcheck disable=SC2086 # FUZZ_SPEED_FLAGS: flags, split at spaces
run fuzz -seed=1 -max_total_time="$total" ${FUZZ_SPEED_FLAGS:-} "$tmp/corpus" "$@"
s2=$?
n2=$(runs fuzz)

seedrate=$(awk -v n="$n1" -v c="$(cpu seeds)" -v z="$(cpu start)" \
    'BEGIN { d = c - z; printf "%d", (d > 0 ? n / d : 0) }')
if [ "$s2" -ne 0 ] || [ -z "$n2" ]; then
    cp "$tmp/fuzz.log" "$art/fuzz.log"
    fuzzrate="FAILED (exit $s2: $(grep -m1 -E '^fuzz: |^SUMMARY: |ERROR: ' "$tmp/fuzz.log"); input and log in $art/)"
else
    # the last status line: "... corp: 2541/399Kb lim: 1058 ..."
    status=$(grep -E '^#[0-9]+' "$tmp/fuzz.log" | tail -1)
    lim=$(printf '%s\n' "$status" | sed -nE 's/.* lim: ([0-9]+).*/\1/p')
    units=$(find "$tmp/corpus" -type f | wc -l)
    bytes=$(find "$tmp/corpus" -type f -printf '%s\n' | awk '{ t += $1 } END { print t + 0 }')
    fuzzrate=$(awk -v n="$n2" -v m="$n1" -v c="$(cpu fuzz)" -v s="$(cpu seeds)" \
        -v lim="${lim:-?}" -v u="$units" -v b="$bytes" \
        'BEGIN { d = c - s; printf "%d exec/s (%d runs, lim %s, corpus %d inputs of %d bytes)",
                 (d > 0 ? (n - m) / d : 0), n - m, lim, u, (u > 0 ? b / u : 0) }')
fi
printf '%-26s seeds: %d inputs, %s exec/s   fuzzing: %s\n' "$harness" "$n1" "$seedrate" "$fuzzrate"
