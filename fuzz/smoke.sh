#!/bin/bash
# SPDX-License-Identifier: MPL-2.0
# fuzz/smoke.sh — one harness of `make fuzz-smoke`: libFuzzer for a while,
# then a report of what it found.
#
#   fuzz/smoke.sh HARNESS SECONDS FUZZDIR [INPUT-DIR...]
#
# Runs FUZZDIR/HARNESS with its fuzz/HARNESS.options (the dictionary the
# options name, a file of fuzz/) for SECONDS, in libFuzzer's fork mode so that it goes
# on after a finding and collects every one: crashes, leaks, sanitizer
# reports, timeouts and out-of-memory inputs land in
# FUZZDIR/artifacts/HARNESS/ (emptied first).  New inputs go to the working
# corpus FUZZDIR/corpus/HARNESS/, kept between runs; the INPUT-DIRs (seeds,
# regressions) are only read.  The log is FUZZDIR/logs/HARNESS.log.
#
# Exit status 0 when nothing was found; 1 otherwise, after printing, for
# each finding, the harness's report, whether it is already a regression
# input (fuzz/regressions/HARNESS/), and how to minimise and keep it.
set -u

harness=$1
seconds=$2
dir=$3
shift 3

bin=$dir/$harness
art=$dir/artifacts/$harness
corpus=$dir/corpus/$harness
log=$dir/logs/$harness.log
regressions=fuzz/regressions/$harness

rm -rf "$art"
mkdir -p "$art" "$corpus" "$dir/logs"

. "$(dirname "$0")/options.sh"
harness_options "$harness"

status=0
"$bin" "${opts[@]}" -dict="fuzz/$dict" -max_total_time="$seconds" \
    -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -artifact_prefix="$art/" "$corpus" "$@" > "$log" 2>&1 || status=$?

found=$(find "$art" -type f | LC_ALL=C sort)
if [ "$status" -eq 0 ] && [ -z "$found" ]; then
    exit 0
fi

echo "fuzz-smoke: $harness FOUND PROBLEMS (libFuzzer exit status $status, log $log)"

# Group the findings by the first line of their report, numbers blanked, and
# show the smallest input of each group.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
declare -A count example
for a in $found; do
    "$bin" -timeout=10 -rss_limit_mb=2560 "$a" > "$tmp/report" 2>&1
    sig=$(grep -m1 -E '^fuzz: |^SUMMARY: |ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)' "$tmp/report" \
          | sed -E 's/0x[0-9a-f]+/X/g; s/[0-9]+/N/g')
    # fuzz_roundtrip: the first complaint about the printed text tells causes apart
    sig2=$(grep -m1 '^reparse diagnostic: ' "$tmp/report" | sed -E 's/ \(.*//; s/[0-9]+/N/g')
    [ -n "$sig2" ] && sig="$sig; $sig2"
    [ -n "$sig" ] || sig="(no report: $(basename "$a" | cut -d- -f1))"
    count[$sig]=$(( ${count[$sig]:-0} + 1 ))
    if [ -z "${example[$sig]:-}" ] || [ "$(stat -c %s "$a")" -lt "$(stat -c %s "${example[$sig]}")" ]; then
        example[$sig]=$a
    fi
done
echo "fuzz-smoke: $(echo "$found" | wc -l) inputs in $art, ${#count[@]} kinds:"
for sig in "${!count[@]}"; do
    a=${example[$sig]}
    known=
    for r in "$regressions"/*; do
        if [ -f "$r" ] && cmp -s "$a" "$r"; then known=$r; break; fi
    done
    echo
    echo "fuzz-smoke: ${count[$sig]} x $sig"
    if [ -n "$known" ]; then
        echo "  smallest: $a (already a regression input: $known)"
    else
        echo "  smallest: $a"
    fi
    "$bin" -timeout=10 -rss_limit_mb=2560 "$a" 2>&1 \
        | grep -E -A14 '^(fuzz|fuzz_roundtrip): |ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|ALARM|out-of-memory' \
        | grep -vE '^ +#[0-9]+ .*(libFuzzer|fuzzer::|libc\.so|_start|pthread_kill|raise|abort)' | head -20 | sed 's/^/    /'
    if [ -z "$known" ]; then
        echo "  minimise: $bin -minimize_crash=1 -runs=100000 -exact_artifact_path=$a.min $a"
        echo "  keep it:  cp $a.min $regressions/<what-it-is>   (make fuzz-replay then replays it;"
        echo "            never name it crash-*, leak-*, timeout-* or oom-*: .gitignore hides those)"
    fi
done
exit 1
