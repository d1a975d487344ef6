#!/bin/bash
# SPDX-License-Identifier: MPL-2.0
# selftest.sh RUNNER FAKE — the self-tests of the conformance runner
# (make runner-test).
#
# Runs RUNNER (bin/tfexpr-conformance) over the self-test corpus in cases/
# against FAKE (build/fake-adapter, fake-adapter.c), an adapter that
# misbehaves on command, in several configurations, and checks outcomes,
# failed levels, reports and exit statuses (check.py reads the JSON
# reports).  Prints one line per check and ends with "N passed, N failed";
# exits 0 only if every check passed.

set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 RUNNER FAKE-ADAPTER" >&2
    exit 2
fi
abspath() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
RUNNER=$(abspath "$1")
FAKE=$(abspath "$2")
HERE=$(cd "$(dirname "$0")" && pwd)
SUITE=$(cd "$HERE/../.." && pwd)          # conformance/
CASES=$HERE/cases
PY=/usr/bin/python3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

npassed=0
nfailed=0

ok() { echo "ok - $*"; npassed=$((npassed + 1)); }
notok() { echo "not ok - $*"; nfailed=$((nfailed + 1)); }

# check DESCRIPTION COMMAND...: ok if COMMAND succeeds.
check() {
    local what=$1
    shift
    if "$@"; then ok "$what"; else notok "$what"; fi
}

# pycheck ARGS...: runs check.py, echoes and counts its lines.
pycheck() {
    local out line
    out=$("$PY" "$HERE/check.py" "$@" 2>&1)
    if [ $? -ne 0 ] || [ -z "$out" ]; then
        notok "check.py $1 ran: $out"
        return
    fi
    while IFS= read -r line; do
        case $line in
            "ok - "*) ok "${line#ok - }" ;;
            *) notok "${line#not ok - }" ;;
        esac
    done <<<"$out"
}

# run NAME ARGS...: runs the runner on the test suite; stdout in
# $TMP/NAME.out, stderr in $TMP/NAME.err, exit status in $TMP/NAME.rc.
run() {
    local name=$1
    shift
    "$RUNNER" --suite "$SUITE" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
    echo $? >"$TMP/$name.rc"
}

# status NAME WANT: the exit status of run NAME was WANT.
status() {
    local got
    got=$(cat "$TMP/$1.rc")
    if [ "$got" = "$2" ]; then ok "$1: exit status $2"
    else notok "$1: exit status $2 (got $got; stderr: $(head -c 300 "$TMP/$1.err"))"; fi
}

# has NAME STREAM TEXT: run NAME's out or err contains TEXT.
has() {
    if grep -qF -- "$3" "$TMP/$1.$2"; then ok "$1: $2 says '$3'"
    else notok "$1: $2 says '$3' (it says: $(head -c 300 "$TMP/$1.$2"))"; fi
}

q() { printf "'%s'" "$1"; }   # quotes a path for the adapter's shell

FILES=("$CASES"/*.json)
EXP=$HERE/expectations.json

# ---------------------------------------------------------------------------
# A: the whole self-test corpus, with the expectations file.  Every case
# carries its wanted outcome and failed levels in its tags.  One adapter
# at a time (--jobs 1): some protocol cases depend on which cases one
# process got before (count, an extra answer line); section I runs
# several.

run all --adapter "exec $(q "$FAKE") --log $(q "$TMP/all.log")" --timeout 1 --jobs 1 \
    --expectations "$EXP" --format json "$CASES"
status all 1
pycheck wants "$TMP/all.out" "${FILES[@]}"
pycheck totals "$TMP/all.out"
pycheck outcomes "$TMP/all.out" \
    D0000001.summary=pass D0000002.summary=differs D0000006.position=fail \
    D0000003.range=pass D0000003.position=pass D0000007.count=n/a \
    V0000011.value=pass V0000011.marks=fail V0000008.value=pass \
    V0000020.type=n/a P0000028^4096
pycheck log "$TMP/all.log" \
    'first={"cmd":"hello","protocol":1,"profile":"PN"}' 'last={"cmd":"stop"}' \
    hellos\>=10 V0000001 P0000027 '!X0000003' '!A0000002' '!A0000003'
has all err "no loaded case has the id ZZZZZZZZ"
check "all: no progress line when stderr is not a terminal" \
    bash -c "! grep -q $'\r' $(q "$TMP/all.err")"

# Without exec, the adapter runs under /bin/sh, which reports a signal as
# status 128+N.
run shell --adapter "$(q "$FAKE")" --filter id:P0000003 --format json "$CASES"
status shell 1
pycheck outcomes "$TMP/shell.out" "P0000003=crashed" "P0000003~signal 9"

# ---------------------------------------------------------------------------
# B: fewer capabilities: requirements not declared mean skipped; without
# ranges.column the position level is not checked.  A case's mode and
# request are requirements of their own (mode.<mode>, request.<request>),
# listed in "requires" or not.

run caps --adapter "$(q "$FAKE") --caps mode.expression,unknown" --format json \
    --filter 'file:*/applicability.json' --filter 'name:diags/position/*' \
    --filter 'name:values/marks/*' "$CASES"
status caps 0
pycheck outcomes "$TMP/caps.out" A0000001=skipped A0000002=skipped A0000003=skipped \
    A0000004=pass A0000005=skipped D0000006=pass D0000006.position=n/a \
    V0000011=skipped V0000012=skipped V0000013=skipped \
    "A0000001~fn:upper" "A0000005~marks" A0000006=skipped "A0000006~capability mode.template" \
    A0000007=skipped "A0000007~capabilities mode.template, request.parse" \
    A0000008=skipped "A0000008~capability request.parse"
run caps-parse-expr --adapter "$(q "$FAKE") --caps mode.expression,request.parse" --format json \
    --filter 'file:*/applicability.json' "$CASES"
status caps-parse-expr 0
pycheck outcomes "$TMP/caps-parse-expr.out" A0000008=pass A0000007=skipped \
    "A0000007~capability mode.template" A0000006=skipped A0000004=pass
run caps-template --adapter "$(q "$FAKE") --caps mode.template,request.parse" --format json \
    --filter 'file:*/applicability.json' "$CASES"
status caps-template 0
pycheck outcomes "$TMP/caps-template.out" A0000006=pass A0000007=pass A0000008=skipped \
    "A0000008~capability mode.expression" A0000004=skipped
run caps-requests --adapter "$(q "$FAKE") --caps mode.expression" --format json \
    --filter 'file:*/convert.json' --filter 'file:*/refs.json' --filter 'file:*/parse.json' "$CASES"
status caps-requests 1
pycheck outcomes "$TMP/caps-requests.out" C0000001=skipped "C0000001~request.convert" \
    C0000007=skipped T0000001=skipped "T0000001~request.refs" T0000015=skipped \
    R0000001=skipped "R0000001~request.parse" R0000006=crashed

# A case that describes its host applies only to an adapter declaring
# "host", which gets the description in the run request.
run host-none --adapter "$(q "$FAKE") --caps mode.expression" --format json "$HERE/host"
status host-none 0
pycheck outcomes "$TMP/host-none.out" H0000001=skipped H0000002=pass "H0000001~host"
run host --adapter "$(q "$FAKE") --caps mode.expression,host --log $(q "$TMP/host.log")" \
    --format json "$HERE/host"
status host 0
pycheck outcomes "$TMP/host.out" H0000001=pass H0000002=pass
has host log '"a.txt":"eA=="'
has host log '"cwd":"/w"'

# A case asking for OpenTofu's function table applies only to an adapter
# declaring "flavor.opentofu"; the run request carries the case's flavor.
run flavor-none --adapter "$(q "$FAKE") --caps mode.expression" --format json "$HERE/flavor"
status flavor-none 0
pycheck outcomes "$TMP/flavor-none.out" F0000001=skipped F0000002=pass F0000003=pass \
    "F0000001~flavor.opentofu"
run flavor --adapter "$(q "$FAKE") --caps mode.expression,flavor.opentofu --log $(q "$TMP/flavor.log")" \
    --format json "$HERE/flavor"
status flavor 0
pycheck outcomes "$TMP/flavor.out" F0000001=pass F0000002=pass F0000003=pass
has flavor log '"flavor":"opentofu"'
has flavor log '"flavor":"terraform"'

# Convert requests: with request.convert declared, the case that requires
# it runs; a failure's detail names the conversion.
run convert --adapter "$(q "$FAKE") --caps mode.expression,request.convert" --format json \
    --filter 'file:*/convert.json' "$CASES"
status convert 1
pycheck outcomes "$TMP/convert.out" C0000001=pass C0000002=pass C0000005=pass \
    C0000007=pass "C0000004=fail[type,value]" "C0000006=fail[category]"
run convert-text --adapter "$(q "$FAKE")" --filter id:C0000004 "$CASES"
status convert-text 1
has convert-text out "convert to: set(number) (unsafe)"

# Console requests: the request arrives as "console", and the answers are
# compared like eval answers: a wrong text of a type, or a value where the
# console refuses the use of type(), fails; a string where a type value is
# expected (and the reverse) fails the type level; null and unknown values
# of the type "type", nested too, compare as values; a type value in the
# answer to an eval request is malformed; the case that requires
# request.console runs only when the adapter declares it.
run console --adapter "$(q "$FAKE") --caps mode.expression,request.console" --format json \
    --filter 'file:*/console.json' "$CASES"
status console 1
pycheck outcomes "$TMP/console.out" K0000001=pass K0000002=pass K0000005=pass \
    K0000006=pass "K0000003=fail[value]" "K0000004=fail[outcome]" "K0000007=fail[type]" \
    K0000007.value=pass "K0000008=fail[type]" K0000009=pass "K0000010=fail[value]" \
    K0000011=pass K0000012=crashed "K0000012~allowed only in the value of a console request"
run console-nocap --adapter "$(q "$FAKE") --caps mode.expression,unknown,marks" --format json \
    --filter 'file:*/console.json' "$CASES"
status console-nocap 1
pycheck outcomes "$TMP/console-nocap.out" K0000006=skipped "K0000006~request.console" \
    K0000003=skipped "K0000003~request.console" K0000012=crashed

# Refs requests: lists of traversals compared by root, steps and keys (the
# refs level), then every range (range, position); with request.refs
# declared, the case that requires it runs.
run refs --adapter "$(q "$FAKE") --caps mode.expression,request.refs,ranges.column" --format json \
    --filter 'file:*/refs.json' "$CASES"
status refs 1
pycheck outcomes "$TMP/refs.out" T0000001=pass T0000001.refs=pass T0000001.range=pass \
    T0000001.position=pass T0000002=pass T0000015=pass "T0000003=fail[refs]" \
    T0000003.range=n/a "T0000006=fail[range,position]" "T0000007=fail[position]" \
    "T0000009=fail[outcome]" T0000010=pass "T0000012=crashed" "T0000013~steps must be an array"
run refs-text --adapter "$(q "$FAKE")" --filter 'file:*/refs.json' "$CASES"
status refs-text 1
has refs-text out 'a.b[1.5] 0-8'
has refs-text out 'refs: expected 1: a.b[1.5]; got 1: a.c[1.5]'
has refs-text out 'range of step 2 of traversal 1: expected bytes 3-8, got 3-7'
has refs-text out 'outcome: expected references, got diagnostics'
run refs-nocols --adapter "$(q "$FAKE") --caps mode.expression,request.refs" --format json \
    --filter 'id:T0000007' "$CASES"
status refs-nocols 0
pycheck outcomes "$TMP/refs-nocols.out" T0000007=pass T0000007.position=n/a
for fmt in junit tap; do
    run refs-$fmt --adapter "$(q "$FAKE")" --format $fmt --filter 'file:*/refs.json' "$CASES"
    status refs-$fmt 1
done
has refs-junit out 'T0000003'
has refs-tap out 'not ok'

# C: another profile than profiles.json's default (PN).
run profile --adapter "$(q "$FAKE")" --profile P14 --format json \
    --filter 'file:*/applicability.json' "$CASES"
status profile 0
pycheck outcomes "$TMP/profile.out" A0000001=pass A0000002=skipped A0000003=pass \
    A0000004=pass A0000005=pass A0000006=pass A0000007=pass A0000008=pass

# Partial credit: an adapter declaring diagnostics.first-only that answers
# one error where more are expected has it compared with the first, and
# one declaring ranges.start-only has only range starts compared; what
# passes that way is "partial", never "pass", in every report, and does
# not fail the run.  Without the capabilities the same answers fail.
PARTIAL_CAPS=mode.expression,request.refs,ranges.column,diagnostics.first-only,ranges.start-only
run partial --adapter "$(q "$FAKE") --caps $PARTIAL_CAPS" --format json "$HERE/partial"
status partial 1
pycheck outcomes "$TMP/partial.out" "Q0000001=partial[]" Q0000001.count=partial \
    Q0000001.category=pass "Q0000002=fail[category,range,position]" Q0000002.count=partial \
    Q0000003=pass Q0000004=pass "Q0000005=partial[]" Q0000005.range=partial \
    Q0000005.position=partial "Q0000006=fail[range,position]" "Q0000007=partial[]" \
    Q0000007.range=partial Q0000007.position=partial "Q0000008=fail[range,position]" \
    "Q0000009=partial[]" Q0000009.count=partial Q0000009.range=partial
pycheck totals "$TMP/partial.out"
run partial-none --adapter "$(q "$FAKE") --caps mode.expression,request.refs,ranges.column" \
    --format json "$HERE/partial"
status partial-none 1
pycheck outcomes "$TMP/partial-none.out" "Q0000001=fail[count]" "Q0000005=fail[range,position]" \
    "Q0000007=fail[range,position]" "Q0000009=fail[count,range,position]" Q0000003=pass
PARTIAL_ONLY=(--filter id:Q0000001 --filter id:Q0000003 --filter id:Q0000005 --filter id:Q0000007)
run partial-text --adapter "$(q "$FAKE") --caps $PARTIAL_CAPS" --verbose "${PARTIAL_ONLY[@]}" \
    "$HERE/partial"
status partial-text 0
pycheck text "$TMP/partial-text.out" 1 0 "3 partial (passed in the part compared" \
    "PARTIAL Q0000001 partial/first-only/first-of-two" \
    "compared in part (partial credit): count" \
    "count (partial: diagnostics.first-only): expected 2 errors, got 1, compared with the first"
check "partial-text: a partial column in the table" grep -q '^area  *pass partial fail' \
    "$TMP/partial-text.out"
run partial-junit --adapter "$(q "$FAKE") --caps $PARTIAL_CAPS" --format junit \
    "${PARTIAL_ONLY[@]}" "$HERE/partial"
status partial-junit 0
pycheck junit "$TMP/partial-junit.out" 4 0 0
has partial-junit out '<skipped type="partial" message="partial: passed in the part compared; compared in part: count"'
run partial-tap --adapter "$(q "$FAKE") --caps $PARTIAL_CAPS" --format tap \
    "${PARTIAL_ONLY[@]}" "$HERE/partial"
status partial-tap 0
pycheck tap "$TMP/partial-tap.out" 4 0
has partial-tap out "ok 1 - partial/first-only/first-of-two [Q0000001] # SKIP partial: count compared in part"
has partial-tap out "# 3 partial"
has partial-tap out "# 1 passed, 0 failed"
# A known failure that now passes in part is an unexpected pass.
printf '{"format": "tfexpr-expectations/1", "implementation": "x",
 "entries": {"Q0000001": {"status": "fail", "reason": "one error only"}}}\n' >"$TMP/partial-exp.json"
run partial-exp --adapter "$(q "$FAKE") --caps $PARTIAL_CAPS" --format json \
    --expectations "$TMP/partial-exp.json" --filter id:Q0000001 "$HERE/partial"
status partial-exp 1
pycheck outcomes "$TMP/partial-exp.out" Q0000001=xpass

# Answers beyond the corpus's own forms (cases/answers.json, also in A):
# the differences name NaN and strings that are not UTF-8.
run answers-text --adapter "$(q "$FAKE")" --filter 'file:*/answers.json' "$CASES"
status answers-text 1
has answers-text out 'value at (top): expected 1, got NaN (not a number: no cty number is NaN)'
has answers-text out 'outcome: got the value NaN (not a number), which no cty number is'
has answers-text out 'value at (top): expected "hÿ", got a string that is not valid UTF-8: "h\xFF" (not UTF-8)'
has answers-text out 'value at [1]: expected "b" (sensitive), got a string that is not valid UTF-8'

# ---------------------------------------------------------------------------
# D: the four report formats over the same cases.

VD=("$CASES/values.json" "$CASES/diagnostics.json")
run fmt-json --adapter "$(q "$FAKE")" --format json "${VD[@]}"
read -r NCASES NPASS NFAIL < <("$PY" -c '
import json, sys
t = json.load(open(sys.argv[1]))["totals"]
print(t["total"], t["pass"], t["fail"] + t["crashed"] + t["xpass"])' "$TMP/fmt-json.out" 2>/dev/null)
check "fmt-json: parses, 40 cases" [ "${NCASES:-0}" = 40 ]
run fmt-text --adapter "$(q "$FAKE")" "${VD[@]}"
status fmt-text 1
pycheck text "$TMP/fmt-text.out" "${NPASS:-0}" "${NFAIL:-0}" \
    '["a", (unknown)] :: list(string)' \
    'eval eval.invalid-index 4-7 (1:5-1:8) "Invalid index"' \
    'eval eval.unsupported-attribute 4-7 (1:5-1:8) "Unsupported attribute"' \
    '"s" (sensitive) :: string' 'failed levels: type' \
    'value at [1]: expected (unknown), got "b"' \
    'FAIL V0000002 values/number/negative-zero (runner/test/cases/values.json)' \
    '    value {"type":"number","v":"-0"}'
run fmt-junit --adapter "$(q "$FAKE")" --format junit "${VD[@]}"
status fmt-junit 1
pycheck junit "$TMP/fmt-junit.out" 40 "${NFAIL:-0}" 0
run fmt-tap --adapter "$(q "$FAKE")" --format tap "${VD[@]}"
status fmt-tap 1
pycheck tap "$TMP/fmt-tap.out" 40 "${NFAIL:-0}"

# The same with crashes, stderr tails and skips in them (one adapter, as
# in A).
run prot-junit --adapter "exec $(q "$FAKE")" --timeout 1 --jobs 1 --format junit \
    --expectations "$EXP" "$CASES/protocol.json" "$CASES/expectations.json"
pycheck junit "$TMP/prot-junit.out" 33 3 15
run prot-tap --adapter "exec $(q "$FAKE")" --timeout 1 --jobs 1 --format tap \
    --expectations "$EXP" "$CASES/protocol.json" "$CASES/expectations.json"
pycheck tap "$TMP/prot-tap.out" 33 18

# --max-failures and --output
run maxfail --adapter "$(q "$FAKE")" --max-failures 2 --output "$TMP/maxfail.txt" \
    "${VD[@]}"
status maxfail 1
check "maxfail: nothing on stdout with --output" [ ! -s "$TMP/maxfail.out" ]
check "maxfail: two cases detailed" \
    [ "$(grep -c '^FAIL ' "$TMP/maxfail.txt")" = 2 ]
check "maxfail: the rest counted" grep -q "^\.\.\. and $((${NFAIL:-0} - 2)) more failing cases" \
    "$TMP/maxfail.txt"

# ---------------------------------------------------------------------------
# E: exit statuses.

run pass-only --adapter "$(q "$FAKE")" --filter id:V0000001 "$CASES"
status pass-only 0
has pass-only out "1 passed, 0 failed"
run unsupported --adapter "$(q "$FAKE")" --filter id:P0000015 "$CASES"
status unsupported 0
run unsupported-fails --adapter "$(q "$FAKE")" --filter id:P0000015 \
    --fail-on-unsupported "$CASES"
status unsupported-fails 1
has unsupported-fails out "0 passed, 1 failed"

run no-adapter "$CASES"
status no-adapter 2
has no-adapter err "--adapter is required"
run bad-option --adapter "$(q "$FAKE")" --frobnicate "$CASES"
status bad-option 2
run bad-format --adapter "$(q "$FAKE")" --format xml "$CASES"
status bad-format 2
run bad-filter --adapter "$(q "$FAKE")" --filter bogus:x "$CASES"
status bad-filter 2
run bad-timeout --adapter "$(q "$FAKE")" --timeout 0 "$CASES"
status bad-timeout 2
run bad-profile --adapter "$(q "$FAKE")" --profile P99 "$CASES"
status bad-profile 2
has bad-profile err "unknown profile 'P99'"
run no-path --adapter "$(q "$FAKE")" "$TMP/nonexistent"
status no-path 2
"$RUNNER" --suite "$TMP/nonexistent" --list >"$TMP/no-suite.out" 2>"$TMP/no-suite.err"
echo $? >"$TMP/no-suite.rc"
status no-suite 2
run bad-output --adapter "$(q "$FAKE")" --output "$TMP/nonexistent/report" "$CASES"
status bad-output 2
run help --help
status help 0
has help out "--adapter CMD"
run version --version
status version 0
has version out "tfexpr-conformance "

# Malformed case files: exit 2, naming the file and the case.
run bad-syntax --list "$HERE/bad/syntax.json"
status bad-syntax 2
has bad-syntax err "bad/syntax.json:"
run bad-mode --list "$HERE/bad/missing-mode.json"
status bad-mode 2
has bad-mode err "missing-mode.json: case 2 (B0000002 bad/no-mode): \"mode\""
run bad-value --list "$HERE/bad/bad-value.json"
status bad-value 2
has bad-value err "bad-value.json: case 1 (B0000003 bad/number-payload): expect.value: at .v[0]"
run bad-console-type --list "$HERE/bad/console-type.json"
status bad-console-type 2
has bad-console-type err "console-type.json: case 1 (B0000010 bad/type-in-eval): expect.value: the type \"type\" (of a type() result) is allowed only in the value of a console request"
run bad-fileformat --list "$HERE/bad/bad-format.json"
status bad-fileformat 2
has bad-fileformat err "bad-format.json: \"format\" must be \"tfexpr-cases/1\""
run bad-id --list "$HERE/bad/bad-id.json"
status bad-id 2
has bad-id err "bad-id.json: case 1"
run bad-refs-stray --list "$HERE/bad/refs-stray.json"
status bad-refs-stray 2
has bad-refs-stray err "refs-stray.json: case 1 (B0000008 bad/refs-stray): only a refs case expects \"refs\""
run bad-refs-step --list "$HERE/bad/refs-bad-step.json"
status bad-refs-step 2
has bad-refs-step err "refs-bad-step.json: case 1 (B0000009 bad/refs-bad-step): expect.refs[0].steps[0] has exactly one of \"attr\" and \"index\""
run bad-host --list "$HERE/bad/host.json"
status bad-host 2
has bad-host err "host.json: case 1 (B0000011 bad/host-files): host.files.a.txt must be a base64 string"

# What only an answer may hold: NaN, and strings as v_base64.
for bad in 'nan:B0000014 bad/nan): expect.value: NaN is no cty number' \
    'v-base64:B0000015 bad/v-base64): expect.value: unexpected member "v_base64"'; do
    run "bad-${bad%%:*}" --list "$HERE/bad/${bad%%:*}.json"
    status "bad-${bad%%:*}" 2
    has "bad-${bad%%:*}" err "${bad%%:*}.json: case 1 (${bad#*:}"
done

run bad-flavor --list "$HERE/bad/flavor.json"
status bad-flavor 2
has bad-flavor err "flavor.json: case 1 (B0000013 bad/flavor): \"flavor\" must be \"terraform\" or \"opentofu\""

run bad-dup --list "$HERE/bad/dup-a.json" "$HERE/bad/dup-b.json"
status bad-dup 2
has bad-dup err "duplicate case id B0000004"

run bad-convert-no-type --list "$HERE/bad/convert-no-type.json"
status bad-convert-no-type 2
has bad-convert-no-type err "convert-no-type.json: case 1 (B0000005 bad/convert-no-type): a \"convert\" request needs \"convert_to\""
run bad-convert-type --list "$HERE/bad/convert-bad-type.json"
status bad-convert-type 2
has bad-convert-type err "convert-bad-type.json: case 1 (B0000006 bad/convert-bad-type): convert_to: "
run bad-convert-stray --list "$HERE/bad/convert-stray.json"
status bad-convert-stray 2
has bad-convert-stray err "\"convert_to\" and \"convert_mode\" belong to a \"convert\" request"

# A malformed expectations file.
printf '{"format": "tfexpr-expectations/1", "implementation": "x",
 "entries": {"V0000001": {"status": "maybe", "reason": "?"}}}\n' >"$TMP/bad-exp.json"
run bad-exp --adapter "$(q "$FAKE")" --expectations "$TMP/bad-exp.json" "$CASES"
status bad-exp 2
has bad-exp err "entry V0000001: \"status\" must be \"fail\" or \"skip\""

# Adapters that fail at hello.
run no-hello --adapter "$(q "$FAKE") --no-hello" "$CASES"
status no-hello 2
has no-hello err "not saying hello"
run bad-hello --adapter "$(q "$FAKE") --bad-hello" "$CASES"
status bad-hello 2
has bad-hello err "\"protocol\": 1"
run no-program --adapter "$(q "$TMP/nonexistent-adapter")" "$CASES"
status no-program 2

# ---------------------------------------------------------------------------
# F: selection.

list() {
    local name=$1
    shift
    run "$name" --list "$@" "$CASES"
    status "$name" 0
}
list f-id --filter id:V0000001
pycheck list "$TMP/f-id.out" V0000001
list f-idglob --filter 'id:V000000?'
pycheck list "$TMP/f-idglob.out" V0000001 V0000002 V0000003 V0000004 V0000005 \
    V0000006 V0000007 V0000008 V0000009
list f-name --filter 'name:values/number/*'
pycheck list "$TMP/f-name.out" V0000001 V0000002 V0000003 V0000004 V0000005 V0000006
list f-tag --filter tag:summary-differs
pycheck list "$TMP/f-tag.out" D0000002
list f-rule --filter rule:runner.number
pycheck list "$TMP/f-rule.out" V0000001 V0000002
list f-ruleglob --filter 'rule:runner.*'
pycheck list "$TMP/f-ruleglob.out" V0000001 V0000002 X0000001 X0000002 X0000003 X0000004
list f-file --filter 'file:runner/test/cases/diag*'
pycheck list "$TMP/f-file.out" D0000001 D0000002 D0000003 D0000004 D0000005 D0000006 \
    D0000007 D0000008 D0000009 D0000010 D0000011 D0000012 D0000013
list f-bare --filter 'protocol/crash/*'
pycheck list "$TMP/f-bare.out" P0000001 P0000002 P0000003 P0000028
list f-or --filter id:V0000001 --filter id:D0000001
pycheck list "$TMP/f-or.out" V0000001 D0000001

# The default cases directory: SUITE/cases, recursively, paths shown
# relative to the suite.
mkdir -p "$TMP/suite/cases/sub"
cp "$SUITE/categories.json" "$SUITE/profiles.json" "$TMP/suite/"
cp "$CASES/values.json" "$TMP/suite/cases/"
cp "$CASES/diagnostics.json" "$TMP/suite/cases/sub/"
"$RUNNER" --suite "$TMP/suite" --list >"$TMP/default.out" 2>"$TMP/default.err"
echo $? >"$TMP/default.rc"
status default 0
check "default: all 40 cases of SUITE/cases found" [ "$(wc -l <"$TMP/default.out")" = 40 ]
has default out "cases/sub/diagnostics.json"

# ---------------------------------------------------------------------------
# G: writing an expectations file, and running with it.

run update --adapter "$(q "$FAKE")" --expectations "$EXP" \
    --update-expectations "$TMP/updated.json" --format json "$CASES/expectations.json"
status update 1
pycheck expfile "$TMP/updated.json" "X0000001:fail~known: the fake answers 2" \
    '!X0000002' "X0000003:skip~would crash the adapter" \
    "X0000004:fail~crashes, a known failure" "X0000005:fail~fails at value" \
    "ZZZZZZZZ:fail~no case has this id"
run updated --adapter "$(q "$FAKE")" --expectations "$TMP/updated.json" --format json \
    "$CASES/expectations.json"
status updated 0
pycheck outcomes "$TMP/updated.out" X0000001=xfail X0000002=pass X0000003=skipped \
    X0000004=xfail X0000005=xfail
run fresh --adapter "$(q "$FAKE")" --update-expectations "$TMP/fresh.json" \
    --format json "$CASES/expectations.json"
pycheck expfile "$TMP/fresh.json" "X0000003:fail~crashed: crash: the adapter" \
    '!X0000002'

# ---------------------------------------------------------------------------
# H: process handling.

# An adapter that ignores stop is killed after 2 s.
start=$(date +%s%N)
run ignore-stop --adapter "$(q "$FAKE") --ignore-stop" --filter id:V0000001 "$CASES"
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
status ignore-stop 0
check "ignore-stop: killed after about 2 s (took ${elapsed_ms} ms)" \
    [ "$elapsed_ms" -ge 1900 -a "$elapsed_ms" -lt 6000 ]

# An adapter that cannot be restarted: the next case is crashed, and the
# run goes on.
run restart --jobs 1 --adapter "if [ -e $(q "$TMP/started") ]; then exec $(q "$FAKE") --no-hello; \
else touch $(q "$TMP/started"); exec $(q "$FAKE"); fi" --format json \
    --filter id:P0000001 --filter id:P0000002 --filter id:V0000001 "$CASES"
status restart 1
pycheck outcomes "$TMP/restart.out" P0000001=crashed P0000002=crashed \
    "P0000002~could not be restarted" V0000001=crashed

# The progress line: only when stderr is a terminal (script(1) gives it
# one), and never with --quiet.
if command -v script >/dev/null 2>&1; then
    script -qec "$(q "$RUNNER") --suite $(q "$SUITE") --adapter $(q "$FAKE") \
--filter 'values/number/*' $(q "$CASES") >/dev/null" /dev/null >"$TMP/tty.err" 2>&1
    check "tty: a progress line on a terminal" grep -qF $'\r[6/6] pass 3 fail 3' "$TMP/tty.err"
    script -qec "$(q "$RUNNER") --suite $(q "$SUITE") --adapter $(q "$FAKE") --quiet \
--filter 'values/number/*' $(q "$CASES") >/dev/null" /dev/null >"$TMP/quiet.err" 2>&1
    check "tty: no progress line with --quiet" bash -c "! grep -qF '[6/6]' $(q "$TMP/quiet.err")"
fi

# ---------------------------------------------------------------------------
# I: several adapters at once (--jobs).  The reports are the same as with
# one, in every format; each case gets the seq it gets with one adapter.

JOBS_FILES=("$CASES/values.json" "$CASES/diagnostics.json" "$CASES/refs.json" \
    "$CASES/convert.json" "$CASES/console.json" "$CASES/parse.json" \
    "$CASES/applicability.json")
for fmt in json text junit tap; do
    run jobs1-$fmt --adapter "$(q "$FAKE") --log $(q "$TMP/jobs1.log")" --jobs 1 \
        --format $fmt "${JOBS_FILES[@]}"
    run jobs3-$fmt --adapter "$(q "$FAKE") --log $(q "$TMP/jobs3.log")" --jobs 3 \
        --format $fmt "${JOBS_FILES[@]}"
    status jobs3-$fmt "$(cat "$TMP/jobs1-$fmt.rc")"
    check "jobs3-$fmt: the same report as with --jobs 1" \
        cmp -s "$TMP/jobs1-$fmt.out" "$TMP/jobs3-$fmt.out"
done
check "jobs3: three adapters said hello" \
    [ "$(grep -c '"cmd":"hello"' "$TMP/jobs3.log")" -ge 12 ]
has jobs3-json err "3 at a time"
has jobs1-json err "1 at a time"
# The timing line: wall time, the runner's and the adapters' CPU time.
has jobs3-text err "s wall; runner "
has jobs3-text err "s CPU (loading the corpus "
has jobs3-text err "adapter "
run jobs-quiet --adapter "$(q "$FAKE")" --jobs 2 --quiet --filter id:V0000001 "$CASES"
check "jobs-quiet: no timing line with --quiet" bash -c "! grep -q 'wall' $(q "$TMP/jobs-quiet.err")"
# Crashes, hangs and malformed answers with several adapters: each is
# recorded against its own case, and the others run on.  The extra-line
# cases are left out: which case meets an extra answer depends on which
# adapter takes the next case, which under --jobs 3 is a matter of timing
# (--jobs 1 checks them above).
run jobs-prot --adapter "exec $(q "$FAKE")" --timeout 1 --jobs 3 --format json \
    --filter 'name:protocol/[!e]*' --filter 'name:protocol/errored/*' "$CASES/protocol.json"
status jobs-prot 1
pycheck outcomes "$TMP/jobs-prot.out" P0000001=crashed "P0000001~exited with status 5" \
    "P0000019=fail[value]" P0000025=pass P0000027=pass P0000028=crashed
# The case files are parsed on --jobs threads: the same cases in the same
# order, and a bad file among good ones reported as with one thread.
run list-jobs1 --list --jobs 1 "$CASES" "$HERE/host" "$HERE/flavor"
run list-jobs3 --list --jobs 3 "$CASES" "$HERE/host" "$HERE/flavor"
status list-jobs3 0
check "list-jobs3: the same list as with --jobs 1" \
    cmp -s "$TMP/list-jobs1.out" "$TMP/list-jobs3.out"
run bad-jobs3 --list --jobs 3 "$CASES/values.json" "$HERE/bad/syntax.json" "$CASES/refs.json"
status bad-jobs3 2
has bad-jobs3 err "bad/syntax.json:"
# One adapter per case at most; a bad --jobs is a usage error.
run jobs-one --adapter "$(q "$FAKE")" --jobs 8 --filter id:V0000001 "$CASES"
status jobs-one 0
has jobs-one err "(1 process, 1 at a time)"
run bad-jobs --adapter "$(q "$FAKE")" --jobs 0 "$CASES"
status bad-jobs 2
has bad-jobs err "invalid number of jobs"
# An adapter that cannot start beside the first: the run goes on with
# fewer, with a warning.
run jobs-nostart --jobs 2 --format json --adapter "if [ -e $(q "$TMP/jobs-started") ]; then \
exec $(q "$FAKE") --no-hello; else touch $(q "$TMP/jobs-started"); exec $(q "$FAKE"); fi" \
    --filter 'values/number/*' "$CASES"
status jobs-nostart 1
has jobs-nostart err "adapter 2 of 2 could not start, running with 1"
pycheck outcomes "$TMP/jobs-nostart.out" V0000001=pass

# ---------------------------------------------------------------------------
# Nothing the runner said on stderr anywhere came from a sanitizer (for
# builds with -fsanitize=address,undefined).

# Refinements of unknown values: with value.refinements declared they are a
# level of their own, compared exactly (bounds by value, an empty object as
# none, set elements as multisets); without it the level is n/a where the
# expectation has refinements, answers' refinements are ignored, and the
# text report counts the cases compared without them.  A refinement the
# type does not allow makes the answer malformed either way.
run refine --adapter "$(q "$FAKE") --caps mode.expression,unknown,value.refinements" \
    --format json "$HERE/refine"
status refine 1
pycheck outcomes "$TMP/refine.out" G0000001=pass G0000001.refinements=pass \
    "G0000002=fail[refinements]" G0000002.value=pass G0000003=pass \
    "G0000004=fail[refinements]" "G0000005=fail[refinements]" "G0000006=fail[refinements]" \
    G0000006.marks=pass G0000007=crashed "G0000007~string_prefix" G0000008=pass \
    "G0000009=fail[refinements]"
run refine-none --adapter "$(q "$FAKE") --caps mode.expression,unknown" --format json \
    "$HERE/refine"
status refine-none 1
pycheck outcomes "$TMP/refine-none.out" G0000001=pass G0000001.refinements=n/a G0000002=pass \
    G0000002.refinements=n/a G0000003=pass G0000004=pass G0000005=pass G0000006=pass \
    G0000007=crashed G0000008=pass G0000009=pass
run refine-text --adapter "$(q "$FAKE") --caps mode.expression,unknown" "$HERE/refine"
has refine-text out "5 cases compared without the refinements of unknown values"
run refine-diff --adapter "$(q "$FAKE") --caps mode.expression,unknown,value.refinements" \
    --filter id:G0000002 "$HERE/refine"
has refine-diff out 'refinements at (top): expected (unknown, not null, prefix "ab"), got (unknown)'

check "no sanitizer report on any stderr" \
    bash -c "! grep -lE 'Sanitizer|runtime error:' $(q "$TMP")/*.err"

echo "$npassed passed, $nfailed failed"
[ "$nfailed" -eq 0 ]
