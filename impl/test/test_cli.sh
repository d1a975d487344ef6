#!/bin/sh
# SPDX-License-Identifier: MPL-2.0
# test_cli.sh TFEXPR — checks the tfexpr command line: help on every
# command, exit statuses, and the adapter loop over a pipe.
set -u
real_tfexpr=${1:?usage: test_cli.sh PATH-TO-TFEXPR}
here=$(cd "$(dirname "$0")" && pwd)
# Debian's Python, which tools/install-deps gives python3-jsonschema
py=${PYTHON:-/usr/bin/python3}
passed=0
failed=0

# Every JSON output is kept and validated at the end against its schema
# (impl/schema/cli-*.schema.json, by impl/test/check_cli_json.py): the tests
# run tfexpr through a wrapper that keeps what a `--format json` or
# `--json` run writes on standard output.
jsondir=$(mktemp -d "${TMPDIR:-/tmp}/tfx-cli-json.XXXXXX")
trap 'rm -rf "$jsondir"' EXIT
tfexpr=$jsondir/tfexpr
cat >"$tfexpr" <<WRAPPER
#!/bin/sh
case " \$* " in
    *" --format json "*|*" --json "*)
        out=\$(mktemp "$jsondir/\$1.XXXXXX")
        printf '%s\\0' "\$@" >"\$out.args"
        "$real_tfexpr" "\$@" >"\$out"; rc=\$?
        cat "\$out"; exit \$rc ;;
esac
exec "$real_tfexpr" "\$@"
WRAPPER
chmod +x "$tfexpr"

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "test_cli: FAIL: $*" >&2; }

# expect STATUS CMD...: runs CMD, checks its exit status
expect() {
    want=$1; shift
    "$@" >/tmp/tfx-cli.$$ 2>&1 </dev/null
    got=$?
    if [ "$got" -eq "$want" ]; then ok; else bad "$* exited $got, want $want"; fi
}

expect 0 "$tfexpr" --help
expect 0 "$tfexpr" --version
expect 2 "$tfexpr"
expect 2 "$tfexpr" no-such-command
for c in adapter version parse eval refs check console; do
    expect 0 "$tfexpr" "$c" --help
    expect 2 "$tfexpr" "$c" --no-such-option
    if "$tfexpr" "$c" --help | grep -q "^usage: tfexpr $c"; then ok; else bad "$c --help has no usage line"; fi
done
if "$tfexpr" version | grep -q '^tfexpr [0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*$'; then ok; else bad "version output"; fi

# parse: exit statuses, the tree, errors as file:line:col with a caret,
# JSON output, stdin, templates.
expect 0 "$tfexpr" parse -e '1 + 2'
expect 1 "$tfexpr" parse -e '1 +'
expect 2 "$tfexpr" parse --file /nonexistent/file
expect 2 "$tfexpr" parse
expect 2 "$tfexpr" parse --format nope -e 1
if [ "$("$tfexpr" parse -e 'a + 1')" = "(binary + (scope-traversal a) (literal 1))" ]; then ok; else bad "parse tree"; fi
if [ "$("$tfexpr" parse --format source -e '{a=1,b=[2]}')" = "{ a = 1, b = [2] }" ]; then ok; else bad "parse --format source"; fi
err=$("$tfexpr" parse -e '[1,
  2 3]' 2>&1 >/dev/null)
case "$err" in
    *"<expression>:2:5: error: Missing item separator [syntax.missing-token]"*"  2 3]"*"^"*) ok ;;
    *) bad "parse error rendering: $err" ;;
esac
if "$tfexpr" parse --format json -e '1 +' | grep -q '"ok":false,"diagnostics":\[{"severity":"error","phase":"parse","category":"syntax.missing-token"'; then ok; else bad "parse --format json errors"; fi
if "$tfexpr" parse --format json -e '1' | grep -q '"ok":true,"tree":{"kind":"literal"'; then ok; else bad "parse --format json tree"; fi
if printf 'x.y' | "$tfexpr" parse - | grep -q '^(scope-traversal x .y)$'; then ok; else bad "parse from stdin"; fi
if [ "$("$tfexpr" parse --template -e 'a${b}')" = '(template (literal "a") (scope-traversal b))' ]; then ok; else bad "parse --template"; fi

# The adapter: one answer line per request, none for stop, exit 0.
out=$(printf '%s\n' '{"cmd":"hello","protocol":1,"profile":"P14"}' \
    '{"cmd":"run","seq":1,"case":{"id":"AAAAAAAA","mode":"expression","input":"1"}}' \
    'garbage' '{"cmd":"stop"}' '{"cmd":"hello"}' | "$tfexpr" adapter)
status=$?
if [ "$status" -eq 0 ]; then ok; else bad "adapter exited $status"; fi
if [ "$(printf '%s\n' "$out" | wc -l)" -eq 3 ]; then ok; else bad "adapter answered $(printf '%s\n' "$out" | wc -l) lines, want 3 (nothing after stop)"; fi
if printf '%s\n' "$out" | sed -n 2p | grep -q '"seq":1,.*"value":{"type":"number","v":"1"}'; then ok; else bad "run answer: $(printf '%s\n' "$out" | sed -n 2p)"; fi
if printf '%s\n' "$out" | sed -n 3p | grep -q '"errored":true'; then ok; else bad "garbage answer"; fi
# End of input without stop is a clean end too.
if printf '{"cmd":"hello"}\n' | "$tfexpr" adapter >/dev/null; then ok; else bad "adapter at EOF"; fi


# eval: a value in console form, JSON form, variables, errors and exit codes.
out=$("$tfexpr" eval 'upper("a") == "A" ? [1, "x"] : []' 2>&1); status=$?
if [ "$status" -eq 0 ] && printf '%s' "$out" | grep -q '"x"'; then ok; else bad "eval text: $status $out"; fi
out=$("$tfexpr" eval --format json --var 'v={"a":[1,2]}' 'v.a[1] + 1' 2>&1); status=$?
if [ "$status" -eq 0 ] && printf '%s' "$out" | grep -q '"value":{"type":"number","v":"3"}'; then ok; else bad "eval json: $status $out"; fi
out=$("$tfexpr" eval 'nosuch + 1' 2>&1); status=$?
if [ "$status" -eq 1 ] && printf '%s' "$out" | grep -q 'Unknown variable'; then ok; else bad "eval error: $status $out"; fi
"$tfexpr" eval --var novalue 'x' >/dev/null 2>&1; status=$?
if [ "$status" -eq 2 ]; then ok; else bad "eval usage error exited $status"; fi

# eval limits [limit.eval]: each one is a resource.limit error at the whole
# expression (line 1, column 1), exit 1; bad limit options are usage errors.
e='[for x in [1, 2, 3]: "${x}abc"]'
for lim in "steps 5:Evaluation step limit exceeded" "depth 2:Nesting too deep" \
           "string 3:String length limit exceeded" "items 2:Collection size limit exceeded" \
           "memory 1000:Memory limit exceeded"; do
    opt=${lim%%:*}; summary=${lim#*:}
    out=$("$tfexpr" eval --limit-${opt% *} "${opt#* }" "$e" 2>&1); status=$?
    case "$status $out" in
        "1 <expression>:1:1: error: $summary [resource.limit]"*) ok ;;
        *) bad "eval --limit-$opt: $status $out" ;;
    esac
done
expect 0 "$tfexpr" eval --limit-string 4 --limit-items 3 --limit-depth 3 "$e"
expect 2 "$tfexpr" eval --limit-steps 0 1
# [fn.format.limits] digits from big-number arithmetic are steps, charged
# before the work: 201 digits of a number past the exact range
expect 1 "$tfexpr" eval --limit-steps 150 'format("%.200e", 1e-9000)'
expect 0 "$tfexpr" eval --limit-steps 400 'format("%.200e", 1e-9000)'
expect 0 "$tfexpr" eval --limit-steps 150 'format("%.200e", 1e-900)'
out=$("$tfexpr" eval 'format("%d", 1e600000000)' 2>&1); status=$?
case "$status $out" in
    '1 '*'step limit'*) ok ;;
    *) bad "format digits past the step limit: $status $out" ;;
esac
expect 2 "$tfexpr" eval --limit-steps -1 1
expect 2 "$tfexpr" eval --limit-nosuch 5 1
# [num.format.compact] a number whose text passes 4096 bytes is written in
# exponent form in JSON; as text, beyond the string limit it cannot be
# shown: exit 2, with a reason
out=$("$tfexpr" eval --format json --limit-string 5000 '1e5000' 2>/dev/null); status=$?
case "$status $out" in
    '0 {"ok":true,"value":{"type":"number","v":"1e+5000"}'*) ok ;;
    *) bad "compact number: $status $out" ;;
esac
out=$("$tfexpr" eval --format json '(-1/3)*1e-5000' 2>/dev/null); status=$?
case "$status $out" in
    '0 {"ok":true,"value":{"type":"number","v":"-3.3333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333336e-5001"}'*) ok ;;
    *) bad "compact negative number: $status $out" ;;
esac
out=$("$tfexpr" eval --limit-string 5000 '1e5000' 2>&1); status=$?
case "$status $out" in
    '2 '*'cannot be shown'*) ok ;;
    *) bad "unshowable value: $status $out" ;;
esac

# refs [refs.result] [refs.text] [refs.parse-errors]: one traversal per
# line with its range; JSON as the protocol's refs answer; syntax errors
# exit 1; usage errors exit 2.
expect 0 "$tfexpr" refs 'a.b'
expect 0 "$tfexpr" refs '1 + 2'
expect 1 "$tfexpr" refs 'a.'
expect 2 "$tfexpr" refs
expect 2 "$tfexpr" refs --format nope a
expect 2 "$tfexpr" refs --file /nonexistent/file
expect 2 "$tfexpr" refs a b
out=$("$tfexpr" refs 'a.b[0]["k"] + [for x in c: x.y + z] + d[*].e + f(g.0)')
want=$(printf 'a.b[0]["k"]\t<expression>:1:1-1:12\nc\t<expression>:1:25-1:26\nz\t<expression>:1:34-1:35\nd\t<expression>:1:39-1:40\ng[0]\t<expression>:1:50-1:53')
if [ "$out" = "$want" ]; then ok; else bad "refs text: $out"; fi
if [ -z "$("$tfexpr" refs '"x"')" ]; then ok; else bad "refs of a literal"; fi
out=$("$tfexpr" refs --format json 'a[1.50]')
case "$out" in
    '{"ok":true,"refs":[{"root":"a","steps":[{"index":{"type":"number","v":"1.5"},"range":{"start":{"byte":1,"line":1,"column":2},"end":{"byte":7,"line":1,"column":8}}}],"root_range":'*'"diagnostics":[]}') ok ;;
    *) bad "refs --format json: $out" ;;
esac
out=$("$tfexpr" refs --format json '{k = v}.' 2>/dev/null); status=$?
case "$status $out" in
    '1 {"ok":false,"diagnostics":[{"severity":"error","phase":"parse"'*) ok ;;
    *) bad "refs --format json with a syntax error: $status $out" ;;
esac
err=$("$tfexpr" refs 'a[' 2>&1 >/dev/null)
case "$err" in
    "<expression>:1:3: error: Missing expression [syntax.missing-token]"*) ok ;;
    *) bad "refs error rendering: $err" ;;
esac
out=$(printf '%%{ for x in a }${x}${y.z}%%{ endfor }' | "$tfexpr" refs --template -)
if [ "$out" = "$(printf 'a\t<stdin>:1:13-1:14\ny.z\t<stdin>:1:22-1:25')" ]; then ok; else bad "refs --template -: $out"; fi
printf 'x.y\n+ w\n' >/tmp/tfx-cli-in.$$
out=$("$tfexpr" refs --file /tmp/tfx-cli-in.$$)
if [ "$out" = "$(printf 'x.y\t/tmp/tfx-cli-in.%s:1:1-1:4\nw\t/tmp/tfx-cli-in.%s:2:3-2:4' $$ $$)" ]; then ok; else bad "refs --file: $out"; fi

# check [check.types] [check.result] [check.errors]: the result type from
# the variables' types; errors that hold for every value exit 1.
printf '{"v": ["object", {"a": "string", "n": ["list", "number"]}], "s": "string"}' >/tmp/tfx-cli-types.$$
types=/tmp/tfx-cli-types.$$
if [ "$("$tfexpr" check --vars-types "$types" 'v.n[0] + 1')" = number ]; then ok; else bad "check number"; fi
if [ "$("$tfexpr" check --vars-types "$types" '{x = v.a, y = [s, "b"]}')" = 'object({x=string,y=tuple([string,string])})' ]; then ok; else bad "check object"; fi
if [ "$("$tfexpr" check --vars-types "$types" 'true ? v.n : [1]')" = 'list(number)' ]; then ok; else bad "check conditional"; fi
if [ "$("$tfexpr" check --vars-types "$types" --template '${s}x')" = string ]; then ok; else bad "check --template"; fi
expect 1 "$tfexpr" check --vars-types "$types" 'v.nope'
expect 1 "$tfexpr" check --vars-types "$types" 'other'
expect 1 "$tfexpr" check --vars-types "$types" 'v.n + 1'
expect 1 "$tfexpr" check 'v'
expect 0 "$tfexpr" check --vars-types "$types" 'v.n[5]'
expect 1 "$tfexpr" check --vars-types "$types" 'v.'
expect 2 "$tfexpr" check --vars-types /nonexistent/file 'v'
expect 2 "$tfexpr" check --vars-types "$types"
printf '{"v": ["object", {"a": "string"}, ["a"]]}' >/tmp/tfx-cli-bad.$$
expect 2 "$tfexpr" check --vars-types /tmp/tfx-cli-bad.$$ 'v'
printf '[1]' >/tmp/tfx-cli-bad.$$
expect 2 "$tfexpr" check --vars-types /tmp/tfx-cli-bad.$$ 'v'
out=$("$tfexpr" check --format json --vars-types "$types" 'v.n')
if [ "$out" = '{"ok":true,"type":["list","number"],"type_text":"list(number)","diagnostics":[]}' ]; then ok; else bad "check --format json: $out"; fi
out=$("$tfexpr" check --format json --vars-types "$types" 'v.nope'); status=$?
case "$status $out" in
    '1 {"ok":false,"diagnostics":[{"severity":"error","phase":"eval","category":"eval.unsupported-attribute"'*) ok ;;
    *) bad "check --format json error: $status $out" ;;
esac
err=$("$tfexpr" check --vars-types "$types" 'v.nope' 2>&1 >/dev/null)
case "$err" in
    "<expression>:1:2: error: Unsupported attribute [eval.unsupported-attribute]"*) ok ;;
    *) bad "check error rendering: $err" ;;
esac
rm -f /tmp/tfx-cli-in.$$ /tmp/tfx-cli-types.$$ /tmp/tfx-cli-bad.$$

# functions: the function table, one line per function or Terraform's JSON
# shape (impl/test/check_functions_json.py checks the JSON against
# conformance/schema/functions.schema.json, and against the text form).
expect 0 "$tfexpr" functions
expect 0 "$tfexpr" functions --json
expect 0 "$tfexpr" functions --help
expect 2 "$tfexpr" functions --no-such-option
expect 2 "$tfexpr" functions json
if "$tfexpr" functions --help | grep -q '^usage: tfexpr functions'; then ok; else bad "functions --help has no usage line"; fi
out=$("$tfexpr" functions)
case "$out" in
    'abs(num number) number'*) ok ;;
    *) bad "functions: first line: $(printf '%s\n' "$out" | head -1)" ;;
esac
if printf '%s\n' "$out" | grep -qx 'substr(str string, offset number, length number) string'; then ok; else bad "functions: substr line"; fi
if printf '%s\n' "$out" | grep -qx 'max(numbers number...) number'; then ok; else bad "functions: variadic max line"; fi
if printf '%s\n' "$out" | grep -q '^list(\|^map(\|^type('; then bad "functions lists list, map or type"; else ok; fi
if [ "$(printf '%s\n' "$out" | LC_ALL=C sort)" = "$out" ]; then ok; else bad "functions: lines not sorted"; fi
out=$("$tfexpr" functions --json)
case "$out" in
    '{"format_version":"1.0","function_signatures":{"abs":{"description":"'*'","return_type":"number","parameters":[{"name":"num","description":"'*) ok ;;
    *) bad "functions --json: $(printf '%s' "$out" | head -c 200)" ;;
esac
case "$out" in
    *'"lookup":{"description":"'*'","return_type":"dynamic","parameters":[{"name":"inputMap","description":"'*'","type":"dynamic"},{"name":"key","description":"'*'","type":"string"}],"variadic_parameter":{"name":"default","description":"'*'","is_nullable":true,"type":"dynamic"}}'*) ok ;;
    *) bad "functions --json: lookup's signature" ;;
esac
if "$py" "$here/check_functions_json.py" "$tfexpr" >/tmp/tfx-cli.$$ 2>&1; then ok; else bad "$(cat /tmp/tfx-cli.$$)"; fi
# Profile PN's table lists every function also as core::NAME, as
# `terraform metadata functions -json` does, and no provider function
# ([call.pn.core]); P14's has no namespaced name.
if "$py" "$here/check_functions_json.py" "$tfexpr" --profile PN >/tmp/tfx-cli.$$ 2>&1; then ok; else bad "$(cat /tmp/tfx-cli.$$)"; fi
if "$py" "$here/check_functions_json.py" "$tfexpr" --profile P14 >/tmp/tfx-cli.$$ 2>&1; then ok; else bad "$(cat /tmp/tfx-cli.$$)"; fi
if "$py" "$here/check_functions_json.py" "$tfexpr" --profile PN --flavor opentofu >/tmp/tfx-cli.$$ 2>&1; then ok; else bad "$(cat /tmp/tfx-cli.$$)"; fi
expect 0 "$tfexpr" functions --profile P14
expect 2 "$tfexpr" functions --profile P15
expect 2 "$tfexpr" functions --profile
if "$tfexpr" functions --help | grep -q -- '--profile P'; then ok; else bad "functions --help has no --profile"; fi
out=$("$tfexpr" functions --profile PN)
if printf '%s\n' "$out" | grep -qx 'core::substr(str string, offset number, length number) string'; then ok; else bad "functions --profile PN: core::substr line"; fi
if printf '%s\n' "$out" | grep -q '^provider::\|^core::list(\|^core::map(\|^core::type('; then bad "functions --profile PN lists a provider function or core::list, map, type"; else ok; fi
if [ "$(printf '%s\n' "$out" | wc -l)" -eq "$(( 2 * $("$tfexpr" functions --profile P14 | wc -l) ))" ]; then ok; else bad "functions --profile PN: not each function twice"; fi
if [ "$("$tfexpr" functions)" = "$("$tfexpr" functions --profile PN)" ]; then ok; else bad "functions: the default table is not PN's"; fi

# eval: the console-only type() [fn.type.console] and the functions of
# expressions (spec/functions-closures.md).
expect 0 "$tfexpr" eval 'type(1)'
want='tuple([
    string,
    object({
        a: list(number),
    }),
])'
if [ "$("$tfexpr" eval 'type(["x", {a = tolist([1])}])')" = "$want" ]; then ok; else bad "eval type(): console rendering"; fi
expect 1 "$tfexpr" eval '[type(1)]'
if "$tfexpr" eval '[type(1)]' 2>&1 | grep -q '^<expression>: error: Invalid use of type function \[eval.function-error\]$'; then ok; else bad "eval [type(1)]: the console's error"; fi
if [ "$("$tfexpr" eval --format json 'type({a = 1})')" = '{"ok":true,"value":{"type":"type","v":"object({\n    a: number,\n})"},"type":"type","diagnostics":[]}' ]; then ok; else bad "eval --format json type()"; fi
if [ "$("$tfexpr" eval --format json '"number"')" = '{"ok":true,"value":{"type":"string","v":"number"},"type":"string","diagnostics":[]}' ]; then ok; else bad "eval --format json: a string is not a type"; fi
# (P14: PN's conditional keeps the type() mark of the other result, [cond.marks.pn])
if [ "$("$tfexpr" eval --profile P14 --format json 'false ? type(1) : null')" = '{"ok":true,"value":{"type":"type","null":true},"type":"type","diagnostics":[]}' ]; then ok; else bad "eval --format json: a null of type type"; fi
if [ "$("$tfexpr" eval --profile P14 --format json '[true ? null : type(1), 1]')" = '{"ok":true,"value":{"type":["tuple",["type","number"]],"v":[{"null":true},{"v":"1"}]},"type":"tuple([type,number])","diagnostics":[]}' ]; then ok; else bad "eval --format json: a null of type type in a tuple"; fi
expect 1 "$tfexpr" eval --no-functions 'type(1)'
if [ "$("$tfexpr" eval 'try(type(nope), type(can(nope)))')" = "bool" ]; then ok; else bad "eval try(type(...))"; fi
if [ "$("$tfexpr" eval --var 'v={"a":[1]}' 'try(v.b, v.a[0])')" = "1" ]; then ok; else bad "eval try"; fi
if [ "$("$tfexpr" eval 'convert({}, object({a = optional(number, 1)})).a')" = "1" ]; then ok; else bad "eval convert with a default"; fi
if [ "$("$tfexpr" eval --var 't="<${x}>"' 'templatestring(t, {x = 2})')" = '"<2>"' ]; then ok; else bad "eval templatestring"; fi
err=$("$tfexpr" eval 'try(nope)' 2>&1 >/dev/null)
case "$err" in
    *'Call to function "try" failed: no expression succeeded:'*'- Unknown variable (at <expression>:1,5-9)'*) ok ;;
    *) bad "eval try's listing: $err" ;;
esac

# --profile: P14 by default, PN on request; anything else is a usage error
# (spec/profiles.md [profile.option] [profile.default]).
expect 0 "$tfexpr" eval --profile PN '1 + 1'
expect 0 "$tfexpr" parse --profile P14 '1 + 1'
expect 0 "$tfexpr" refs --profile PN 'var.a'
expect 0 "$tfexpr" check --profile PN '1'
expect 2 "$tfexpr" eval --profile P15 '1'
expect 2 "$tfexpr" parse '1' --profile
for cmd in parse eval refs check console; do
    if "$tfexpr" "$cmd" --help | grep -q -- '--profile P '; then ok; else bad "$cmd --help has no --profile"; fi
done

# Profile PN's syntax in the dumps: a namespaced call's whole name, source
# that parses back as PN; P14 has no '::' (spec/grammar.md [gram.pn.call]).
out=$("$tfexpr" parse --profile PN --format source 'a :: b(1) + provider::terraform::encode_expr(x)')
if [ "$out" = 'a::b(1) + provider::terraform::encode_expr(x)' ]; then ok; else bad "PN source dump: $out"; fi
out=$("$tfexpr" parse --profile PN --format json 'core::upper(x)')
case $out in *'"name":"core::upper"'*) ok ;; *) bad "PN json dump: $out" ;; esac
expect 0 "$tfexpr" parse --profile PN "$("$tfexpr" parse --profile PN --format source 'a::b(c::d())')"
expect 1 "$tfexpr" parse --profile P14 'a::b(1)'
# [profile.default] PN without --profile, on every command that takes one
expect 0 "$tfexpr" parse 'a::b(1)'
if [ "$("$tfexpr" eval 'core::upper("a")')" = '"A"' ]; then ok; else bad "eval: PN by default"; fi
out=$("$tfexpr" refs 'a["$${x}"]')
case $out in 'a["${x}"]'*) ok ;; *) bad "refs: PN's static key by default: $out" ;; esac
if [ "$("$tfexpr" check 'null || true')" = "bool" ]; then ok; else bad "check: PN by default"; fi
if [ "$(echo 'null || true' | "$tfexpr" console)" = "true" ]; then ok; else bad "console: PN by default"; fi
expect 1 "$tfexpr" eval --profile P14 'null || true'
expect 2 "$tfexpr" eval --profile P15 '1'
out=$("$tfexpr" refs --profile PN 'a["$${x}"]')
case $out in 'a["${x}"]'*) ok ;; *) bad "PN static key: $out" ;; esac
expect 0 "$tfexpr" eval --profile PN 'provider::terraform::encode_expr([1, "a"])'

# The caret under a diagnostic counts the grapheme clusters of the profile
# the source was parsed with, as the diagnostic's column does
# ([lex.pos.column] [lex.pos.column.pn]): U+0898, a combining mark since
# Unicode 14, is a cluster of its own in P14 (go-textseg v13, Unicode 13)
# and joins the "a" before it in PN (v15, Unicode 15).  caret_line N M is
# the caret line of line 1 with N-1 spaces, then M carets.
caret_line() {
    line='   | '
    k=1; while [ "$k" -lt "$1" ]; do line="$line "; k=$((k + 1)); done
    k=0; while [ "$k" -lt "$2" ]; do line="$line^"; k=$((k + 1)); done
    printf '%s\n' "$line"
}
u0898=$(printf '\340\242\230')
for pc in 'P14 7 4' 'PN 6 3'; do
    p=${pc%% *}; col=${pc#* }; col=${col% *}; str=${pc##* }
    err=$("$tfexpr" parse --profile "$p" "\"a$u0898\" +" 2>&1 >/dev/null)
    case $err in
        "<expression>:1:$col: error: Missing expression"*) ok ;;
        *) bad "parse --profile $p: U+0898's column: $err" ;;
    esac
    if printf '%s\n' "$err" | grep -qxF "$(caret_line "$col" 1)"; then ok; else bad "parse --profile $p: the caret after U+0898 is not at column $col: $err"; fi
    err=$("$tfexpr" eval --profile "$p" "\"a$u0898\" + nosuch" 2>&1 >/dev/null)
    case $err in
        *"<expression>:1:$((col + 1)): error: Unknown variable"*) ok ;;
        *) bad "eval --profile $p: U+0898's column: $err" ;;
    esac
    if printf '%s\n' "$err" | grep -qxF "$(caret_line $((col + 1)) 6)"; then ok; else bad "eval --profile $p: the carets of nosuch after U+0898 are not at column $((col + 1)): $err"; fi
    if printf '%s\n' "$err" | grep -qxF "$(caret_line 1 "$str")"; then ok; else bad "eval --profile $p: not $str carets under the string holding U+0898: $err"; fi
    err=$(printf '"a%s" + nosuch\n' "$u0898" | "$tfexpr" console --profile "$p" 2>&1 >/dev/null)
    case $err in
        *"<console-input>:1:$((col + 1)): error: Unknown variable"*) ok ;;
        *) bad "console --profile $p: U+0898's column: $err" ;;
    esac
    if printf '%s\n' "$err" | grep -qxF "$(caret_line $((col + 1)) 6)"; then ok; else bad "console --profile $p: the carets of nosuch after U+0898 are not at column $((col + 1)): $err"; fi
done

# --flavor: Terraform's table by default, OpenTofu's on request
# (spec/functions-opentofu.md [flavor.option] [flavor.default]).
expect 0 "$tfexpr" eval --flavor opentofu 'urldecode("a%20b")'
expect 0 "$tfexpr" eval --flavor terraform 'urlencode("a b")'
expect 1 "$tfexpr" eval 'urldecode("a%20b")'
expect 1 "$tfexpr" eval --flavor terraform 'base64gunzip("")'
expect 2 "$tfexpr" eval --flavor tofu '1'
expect 2 "$tfexpr" eval '1' --flavor
if "$tfexpr" eval --help | grep -q -- '--flavor F'; then ok; else bad "eval --help has no --flavor"; fi
if [ "$("$tfexpr" eval --flavor opentofu 'urldecode("a+b%2F")')" = '"a b/"' ]; then ok; else bad "eval --flavor opentofu urldecode"; fi
if [ "$("$tfexpr" eval --flavor opentofu 'cidrcontains("10.0.0.0/8", "10.1.0.0/16")')" = 'true' ]; then ok; else bad "eval --flavor opentofu cidrcontains"; fi
if [ "$("$tfexpr" eval --flavor opentofu 'base64gunzip(base64gzip("hi"))')" = '"hi"' ]; then ok; else bad "eval --flavor opentofu base64gunzip"; fi
err=$("$tfexpr" eval 'cidrcontains("10.0.0.0/8", "1.2.3.4")' 2>&1 >/dev/null)
case "$err" in
    *"error: Call to unknown function [eval.unknown-function]"*) ok ;;
    *) bad "eval: cidrcontains in Terraform's table: $err" ;;
esac
err=$("$tfexpr" eval --flavor opentofu 'base64gunzip("")' 2>&1 >/dev/null)
case "$err" in
    *'failed to gunzip bytestream: EOF.'*) ok ;;
    *) bad "eval --flavor opentofu base64gunzip(\"\"): $err" ;;
esac
expect 0 "$tfexpr" functions --flavor opentofu
expect 0 "$tfexpr" functions --json --flavor terraform
expect 2 "$tfexpr" functions --flavor nope
if "$tfexpr" functions --help | grep -q -- '--flavor F'; then ok; else bad "functions --help has no --flavor"; fi
out=$("$tfexpr" functions --flavor opentofu)
if printf '%s\n' "$out" | grep -qx 'cidrcontains(containing_prefix string, contained_ip_or_prefix string) bool'; then ok; else bad "functions --flavor opentofu: cidrcontains line"; fi
if printf '%s\n' "$out" | grep -qx 'urldecode(str string) string'; then ok; else bad "functions --flavor opentofu: urldecode line"; fi
if [ "$(printf '%s\n' "$out" | LC_ALL=C sort)" = "$out" ]; then ok; else bad "functions --flavor opentofu: lines not sorted"; fi
if [ "$("$tfexpr" functions --profile P14 --flavor opentofu | wc -l)" -eq "$(( $("$tfexpr" functions --profile P14 | wc -l) + 3 ))" ]; then ok; else bad "functions --flavor opentofu: not Terraform's table plus three"; fi
# (PN, the default: the three and the twelve assume* functions, each also as core::NAME)
if [ "$(printf '%s\n' "$out" | wc -l)" -eq "$(( $("$tfexpr" functions | wc -l) + 30 ))" ]; then ok; else bad "functions --flavor opentofu: not Terraform's PN table plus six"; fi
# [fn.assume.profile] OpenTofu's assume* functions: under profile PN only
expect 0 "$tfexpr" functions --flavor opentofu --profile PN
expect 2 "$tfexpr" functions --profile P15
if "$tfexpr" functions --help | grep -q -- '--profile P'; then ok; else bad "functions --help has no --profile"; fi
if "$tfexpr" functions --flavor opentofu --profile P14 | grep -q 'assume'; then bad "functions --flavor opentofu --profile P14 lists assume*"; else ok; fi
out=$("$tfexpr" functions --flavor opentofu --profile PN)
if [ "$(printf '%s\n' "$out" | grep -c '^assume')" = 12 ]; then ok; else bad "functions --flavor opentofu --profile PN: not 12 assume* lines"; fi
if [ "$(printf '%s\n' "$out" | grep -c '^core::assume')" = 12 ]; then ok; else bad "functions --flavor opentofu --profile PN: not 12 core::assume* lines"; fi
if printf '%s\n' "$out" | grep -qx 'assumesetlengthmin(value set(dynamic), min_length number) set(dynamic)'; then ok; else bad "functions --profile PN: assumesetlengthmin line"; fi
if [ "$("$tfexpr" functions --profile PN | grep -c 'assume')" = 0 ]; then ok; else bad "functions --profile PN (Terraform's table) lists assume*"; fi
if [ "$("$tfexpr" eval --flavor opentofu --profile PN 'assumestringprefix("ami-1", "ami-")')" = '"ami-1"' ]; then ok; else bad "eval --profile PN assumestringprefix"; fi
expect 1 "$tfexpr" eval --flavor opentofu --profile P14 'assumenotnull("a")'
expect 1 "$tfexpr" eval 'assumenotnull("a")'
if "$tfexpr" functions | grep -q '^base64gunzip(\|^urldecode(\|^cidrcontains('; then bad "functions lists OpenTofu's functions by default"; else ok; fi
if "$tfexpr" functions --json --flavor opentofu | grep -q '"base64gunzip":{"description":"'; then ok; else bad "functions --json --flavor opentofu"; fi
out=$(printf '%s\n' '{"cmd":"hello","protocol":1,"profile":"P14"}' \
    '{"cmd":"run","seq":1,"case":{"id":"AAAAAAAA","mode":"expression","flavor":"opentofu","input":"urldecode(\"%41\")"}}' \
    '{"cmd":"run","seq":2,"case":{"id":"AAAAAAAA","mode":"expression","flavor":"terraform","input":"urldecode(\"%41\")"}}' \
    '{"cmd":"run","seq":3,"case":{"id":"AAAAAAAA","mode":"expression","flavor":"tofu","input":"1"}}' | "$tfexpr" adapter)
if printf '%s\n' "$out" | sed -n 1p | grep -q '"flavor.opentofu".*"fn:base64gunzip","fn:cidrcontains","fn:urldecode"'; then ok; else bad "adapter hello: flavor.opentofu"; fi
if printf '%s\n' "$out" | sed -n 2p | grep -q '"value":{"type":"string","v":"A"}'; then ok; else bad "adapter flavor opentofu: $(printf '%s\n' "$out" | sed -n 2p)"; fi
if printf '%s\n' "$out" | sed -n 3p | grep -q '"summary":"Call to unknown function"'; then ok; else bad "adapter flavor terraform"; fi
if printf '%s\n' "$out" | sed -n 4p | grep -q '"errored":true'; then ok; else bad "adapter unknown flavor"; fi

# One argument convention (issue 14): every command that reads an
# expression takes EXPR, -e EXPR, -- EXPR, - and --file FILE, with the same
# output; --template, --format and --limit-* where they apply; the same
# exit statuses; each --help says so.
printf 'a.b + 1' >/tmp/tfx-cli-in.$$
for c in parse eval refs check; do
    want=$("$tfexpr" "$c" --format json 'a.b + 1' 2>&1)
    for form in "-e" "--" "--file"; do
        if [ "$form" = --file ]; then arg=/tmp/tfx-cli-in.$$; else arg='a.b + 1'; fi
        got=$("$tfexpr" "$c" --format json "$form" "$arg" 2>&1)
        if [ "$got" = "$want" ]; then ok; else bad "$c $form: $got, want $want"; fi
    done
    got=$(printf 'a.b + 1' | "$tfexpr" "$c" --format json - 2>&1)
    if [ "$got" = "$want" ]; then ok; else bad "$c -: $got, want $want"; fi
    expect 0 "$tfexpr" "$c" --template 'x${1}'
    expect 1 "$tfexpr" "$c" --template 'x${'
    expect 0 "$tfexpr" "$c" --limit-depth 10 '[[1]]'
    expect 1 "$tfexpr" "$c" --limit-depth 2 '[[[[[[1]]]]]]'
    expect 2 "$tfexpr" "$c" --limit-depth 0 '1'
    expect 2 "$tfexpr" "$c" --format nope '1'
    expect 2 "$tfexpr" "$c" '1' '2'
    expect 2 "$tfexpr" "$c" --file /nonexistent/file
    expect 2 "$tfexpr" "$c"
    help=$("$tfexpr" "$c" --help)
    case "$help" in
        *"(EXPR | - | --file FILE)"*"Exit status: 0 "*", 1 the input has errors, 2 usage or I/O error."*) ok ;;
        *) bad "$c --help: no input forms or exit statuses" ;;
    esac
done
for c in eval check; do
    expect 0 "$tfexpr" "$c" --var 'v={"a":1}' 'v.a'
    printf '{"w": {"type": "string", "v": "x"}}' >/tmp/tfx-cli-vars.$$
    expect 0 "$tfexpr" "$c" --vars /tmp/tfx-cli-vars.$$ 'upper(w)'
    expect 1 "$tfexpr" "$c" --vars /tmp/tfx-cli-vars.$$ 'w.x'
    expect 0 "$tfexpr" "$c" --flavor opentofu 'urldecode("a")'
    expect 1 "$tfexpr" "$c" --no-functions 'upper("a")'
done
rm -f /tmp/tfx-cli-vars.$$
# check takes the values' types: the value of v is unknown to it
if [ "$("$tfexpr" check --var 'v={"a":[1,"x"]}' 'v.a')" = 'tuple([number,string])' ]; then ok; else bad "check --var: the value's type"; fi
if [ "$("$tfexpr" check --var 'v=1' 'v + 1')" = 'number' ]; then ok; else bad "check --var: an unknown number"; fi
if "$tfexpr" --help | grep -q 'EXPR | -\|  -             read it from standard input'; then ok; else bad "tfexpr --help: the input forms"; fi
expect 0 "$tfexpr" functions --format json
expect 0 "$tfexpr" functions --format text
expect 2 "$tfexpr" functions --format nope
if [ "$("$tfexpr" functions --format json)" = "$("$tfexpr" functions --json)" ]; then ok; else bad "functions --format json is not --json"; fi

# Variable definitions files (spec/cli-varfiles.md): --var-file for eval
# and check, under var.
vf=$(mktemp -d "${TMPDIR:-/tmp}/tfx-cli-vf.XXXXXX")
cat >"$vf/a.tfvars" <<'TFVARS'
# [varfile.hcl] attributes, comments, values over several lines
region = "us-east-1"   # a comment
count_ = 1 + 2
tags = {
  Name  = "x"   // another
  "a b" = [1, 2,
    3]
}
doc = <<-EOT
  hello ${"world"}
  EOT
/* a block
   comment */ n = 1.50
nothing = null
TFVARS
# [varfile.hcl.value] values as their expressions give them
if [ "$("$tfexpr" eval --var-file "$vf/a.tfvars" 'var.region')" = '"us-east-1"' ]; then ok; else bad "var-file: a string"; fi
if [ "$("$tfexpr" eval --var-file "$vf/a.tfvars" 'var.count_')" = '3' ]; then ok; else bad "var-file: an operator"; fi
if [ "$("$tfexpr" eval --var-file "$vf/a.tfvars" 'var.tags["a b"][2] + var.n')" = '4.5' ]; then ok; else bad "var-file: an object over lines"; fi
if [ "$("$tfexpr" eval --var-file "$vf/a.tfvars" 'var.doc')" = "$(printf '<<EOT\nhello world\n\nEOT')" ]; then ok; else bad "var-file: a heredoc"; fi
if [ "$("$tfexpr" eval --var-file "$vf/a.tfvars" 'var.nothing == null')" = 'true' ]; then ok; else bad "var-file: null"; fi
out=$("$tfexpr" eval --format json --var-file "$vf/a.tfvars" 'var.tags')
case "$out" in
    '{"ok":true,"value":{"type":["object",{"Name":"string","a b":["tuple",["number","number","number"]]}]'*) ok ;;
    *) bad "var-file: the object's type: $out" ;;
esac
# [varfile.check] check takes the types
if [ "$("$tfexpr" check --var-file "$vf/a.tfvars" 'var.tags')" = 'object({Name=string,"a b"=tuple([number,number,number])})' ]; then ok; else bad "check --var-file"; fi
expect 1 "$tfexpr" check --var-file "$vf/a.tfvars" 'var.nosuch'
# [profile.option] a file's values in the command's profile: PN's || takes
# null as false, P14's refuses it; P14 does not parse '::'
printf 'b = null || true\n' >"$vf/p.tfvars"
if [ "$("$tfexpr" eval --var-file "$vf/p.tfvars" 'var.b')" = 'true' ]; then ok; else bad "var-file: PN by default"; fi
expect 1 "$tfexpr" eval --profile P14 --var-file "$vf/p.tfvars" 'var.b'
expect 1 "$tfexpr" check --profile P14 --var-file "$vf/p.tfvars" 'var.b'
printf '{"u":{"type":"string","unknown":true,"refinements":{"not_null":true}}}' >"$vf/r.json"
expect 0 "$tfexpr" check --vars "$vf/r.json" 'u'
expect 2 "$tfexpr" check --profile P14 --vars "$vf/r.json" 'u'
printf 'c = core::upper("x")\n' >"$vf/q.tfvars"
err=$("$tfexpr" eval --profile P14 --var-file "$vf/q.tfvars" 'var.c' 2>&1 >/dev/null)
case $err in *'Extra characters after expression'*) ok ;; *) bad "var-file: P14's syntax: $err" ;; esac
# [varfile.order] the later of --var-file and --var var.NAME wins
printf 'region = "eu-west-1"\nzone = "b"\n' >"$vf/b.tfvars"
if [ "$("$tfexpr" eval --var-file "$vf/a.tfvars" --var-file "$vf/b.tfvars" 'var.region')" = '"eu-west-1"' ]; then ok; else bad "var-file order: later file"; fi
if [ "$("$tfexpr" eval --var-file "$vf/b.tfvars" --var-file "$vf/a.tfvars" 'var.region')" = '"us-east-1"' ]; then ok; else bad "var-file order: earlier file"; fi
if [ "$("$tfexpr" eval --var-file "$vf/b.tfvars" --var 'var.region="x"' '[var.region, var.zone]')" = "$(printf '[\n  "x",\n  "b",\n]')" ]; then ok; else bad "var-file order: --var after"; fi
if [ "$("$tfexpr" eval --var 'var.region="x"' --var-file "$vf/b.tfvars" 'var.region')" = '"eu-west-1"' ]; then ok; else bad "var-file order: --var before"; fi
# [varfile.var] --var NAME stays a root outside the console
if [ "$("$tfexpr" eval --var 'region="r"' --var-file "$vf/b.tfvars" '"${region} ${var.region}"')" = '"r eu-west-1"' ]; then ok; else bad "var-file: --var NAME is a root"; fi
# varfile_error FILE CONTENT PATTERN: eval --var-file FILE, CONTENT (printf
# %b) written there, exits 1 with standard error matching the glob PATTERN
varfile_error() {
    printf '%b' "$2" >"$vf/$1"
    err=$("$tfexpr" eval --var-file "$vf/$1" '1' 2>&1); status=$?
    case "$status $err" in
        "1 $vf/$1:"$3) ok ;;
        *) bad "var-file $1: $status $err" ;;
    esac
}
# [varfile.hcl.value] no references, no calls, with HCL's errors; exit 1
varfile_error bad.tfvars 'a = upper("x")\nb = foo.bar\n' \
    "1:5: error: Function calls not allowed"*'Functions may not be called here.'*"$vf/bad.tfvars:2:5: error: Variables not allowed"*' 2 | b = foo.bar'*'   |     ^^^'*'Variables may not be used here.'*
# [varfile.hcl.duplicate]
varfile_error dup.tfvars 'c = 1\nc = 2\n' \
    "2:1: error: Attribute redefined"*"The argument \"c\" was already set at $vf/dup.tfvars:1,1-2. Each argument may be set only once."*
# [varfile.hcl.variable-block] [varfile.hcl.block]
varfile_error decl.tfvars 'variable "x" {\n  default = 1\n}\n' \
    "1:1: error: Variable declaration in .tfvars file"*'To declare variable "x", place this block'*'    x = <value>'*
varfile_error blk.tfvars 'x = 1\nlocals {\n  a = 1\n}\n' \
    "2:1: error: Unexpected \"locals\" block"*'Blocks are not allowed here.'*
# [varfile.hcl.syntax]
varfile_error syn.tfvars '= 1\n' "1:1: error: Argument or block definition required"*
# [varfile.errors] with --format json, the file's diagnostics in the report
printf 'a = 1\na = f(x)\n' >"$vf/j.tfvars"
for c in eval check; do
    out=$("$tfexpr" "$c" --format json --var-file "$vf/j.tfvars" '1' 2>/dev/null); status=$?
    case "$status $out" in
        '1 {"ok":false,"diagnostics":[{"severity":"error","phase":"parse","category":"varfile.duplicate","summary":"Attribute redefined"'*'"subject":{"start":{"byte":6,"line":2,"column":1}'*) ok ;;
        *) bad "$c --format json: a var-file's errors: $status $out" ;;
    esac
done
# [varfile.read] [varfile.errors]
err=$("$tfexpr" eval --var-file "$vf/none.tfvars" '1' 2>&1); status=$?
case "$status $err" in
    "2 tfexpr eval: Failed to read variables file: Given variables file $vf/none.tfvars does not exist"*) ok ;;
    *) bad "var-file: missing file: $status $err" ;;
esac
# [varfile.json] [varfile.json.value] [varfile.json.comment]: strings verbatim
printf '{"region": "us", "n": 1.50, "l": [1, "a", {"k": null}], "//": "c", "s": "${x}"}' >"$vf/c.tfvars.json"
if [ "$("$tfexpr" eval --var-file "$vf/c.tfvars.json" '[var.region, var.n, var.l[2].k, var.s]')" = "$(printf '[\n  "us",\n  1.5,\n  null,\n  "${x}",\n]')" ]; then ok; else bad "var-file json: values"; fi
expect 1 "$tfexpr" eval --var-file "$vf/c.tfvars.json" 'var["//"]'
if [ "$("$tfexpr" check --var-file "$vf/c.tfvars.json" 'var.l')" = 'tuple([number,string,object({k=dynamic})])' ]; then ok; else bad "check --var-file json"; fi
# [varfile.format] JSON by the name alone
cp "$vf/c.tfvars.json" "$vf/c.tfvars"
expect 1 "$tfexpr" eval --var-file "$vf/c.tfvars" 'var.region'
# [varfile.json.duplicate] [varfile.json.object] [varfile.json.syntax]
varfile_error dup.tfvars.json '{"a": 1,\n "a": 2}' \
    "2:2: error: Duplicate attribute definition"*"The argument \"a\" was already set at $vf/dup.tfvars.json:1,2-8."*
varfile_error arr.tfvars.json '[1]' "1:1: error: Incorrect JSON value type"*
varfile_error crlf.tfvars.json '{"a": 1,\r\n "a": 2}' \
    "2:2: error: Duplicate attribute definition"*"The argument \"a\" was already set at $vf/crlf.tfvars.json:1,2-8."*
# [varfile.errors] a file's columns count the clusters of the command's
# profile, as an expression's do, and the caret lines up with them: U+0898
# is a cluster of its own in P14 and joins the "a" before it in PN.
printf '{"a%s": 1, "a%s": 2}' "$u0898" "$u0898" >"$vf/u.tfvars.json"
for pc in 'P14 11 9 4' 'PN 10 8 3'; do
    p=${pc%% *}; col=${pc#* }; col=${col%% *}; end=${pc#* * }; end=${end% *}; key=${pc##* }
    err=$("$tfexpr" eval --profile "$p" --var-file "$vf/u.tfvars.json" '1' 2>&1 >/dev/null)
    case $err in
        "$vf/u.tfvars.json:1:$col: error: Duplicate attribute definition"*"was already set at $vf/u.tfvars.json:1,2-$end."*) ok ;;
        *) bad "var-file json --profile $p: U+0898's column: $err" ;;
    esac
    if printf '%s\n' "$err" | grep -qxF "$(caret_line "$col" "$key")"; then ok; else bad "var-file json --profile $p: not $key carets at column $col after U+0898: $err"; fi
done
for text in '{"a": tru}' '{"a": 1,}' '{"a": 1' '{"a" 1}' '{"a": 1} x'; do
    printf '%s' "$text" >"$vf/syn.tfvars.json"
    expect 1 "$tfexpr" eval --var-file "$vf/syn.tfvars.json" '1'
done
rm -rf "$vf"

# tfexpr console (issue 14).  Without a terminal: one result per
# expression, multi-line while open, exit 1 if any failed, no prompt.
out=$(printf '1 + 1\n\n[for x in [1, 2]:\n  x * 2]\ntype({a = [1]})\n<<EOT\nhi ${"there"}\nEOT\n' | "$tfexpr" console 2>&1); status=$?
want=$(printf '2\n[\n  2,\n  4,\n]\nobject({\n    a: tuple([\n        number,\n    ]),\n})\n<<EOT\nhi there\n\nEOT')
if [ "$status $out" = "0 $want" ]; then ok; else bad "console from a pipe: $status $out"; fi
out=$(printf 'nosuch\n1\n' | "$tfexpr" console 2>/dev/null); status=$?
if [ "$status $out" = "1 1" ]; then ok; else bad "console: an error exits 1 and goes on: $status $out"; fi
err=$(printf 'nosuch\n' | "$tfexpr" console 2>&1 >/dev/null)
case "$err" in
    '<console-input>:1:1: error: Unknown variable [eval.unknown-variable]'*' 1 | nosuch'*'   | ^^^^^^'*) ok ;;
    *) bad "console: the error's rendering: $err" ;;
esac
out=$(printf '1\nexit\n2\n' | "$tfexpr" console 2>&1); status=$?
if [ "$status $out" = "0 1" ]; then ok; else bad "console: exit: $status $out"; fi
out=$(printf 'help\n' | "$tfexpr" console 2>&1)
case "$out" in *"'exit' or Ctrl-D leaves"*) ok ;; *) bad "console: help: $out" ;; esac
# an input that ends open is answered with the parser's error
out=$(printf '[1,\n' | "$tfexpr" console 2>&1); status=$?
case "$status $out" in '1 '*'Missing expression'*) ok ;; *) bad "console: open at the end: $status $out" ;; esac
# a quoted string ends at its line: no endless wait
expect 0 "$tfexpr" console
printf '"a\n' >/tmp/tfx-cli-in.$$
"$tfexpr" console </tmp/tfx-cli-in.$$ >/dev/null 2>&1; status=$?
if [ "$status" -eq 1 ]; then ok; else bad "console: an unterminated quote exited $status"; fi
# [varfile.var] [varfile.env] [varfile.order] var.NAME from TF_VAR_ (strings,
# lowest), then --var and --var-file in the order given; --vars roots;
# [varfile.cli-var] a --var value is JSON (n=[1] a tuple, TF_VAR_n=1 a string)
printf 'region = "file"\n' >/tmp/tfx-cli-vf.$$.tfvars
printf '{"local": {"type": ["object", {"a": "number"}], "v": {"a": {"v": "1"}}}}' >/tmp/tfx-cli-vars.$$
out=$(printf 'var.region\nvar.n\nvar.s\nlocal.a\nvar\n' | TF_VAR_region=env TF_VAR_n=1 TF_VAR_s=str \
    "$tfexpr" console --var 'n=[1]' --var-file /tmp/tfx-cli-vf.$$.tfvars --vars /tmp/tfx-cli-vars.$$ 2>&1)
want=$(printf '"file"\n[\n  1,\n]\n"str"\n1\n{\n  "n" = [\n    1,\n  ]\n  "region" = "file"\n  "s" = "str"\n}')
if [ "$out" = "$want" ]; then ok; else bad "console: variables: $out"; fi
out=$(printf 'var.region\n' | TF_VAR_region=env "$tfexpr" console --var-file /tmp/tfx-cli-vf.$$.tfvars --var 'region="flag"' 2>&1)
if [ "$out" = '"flag"' ]; then ok; else bad "console: --var after --var-file: $out"; fi
out=$(printf 'var.region\n' | TF_VAR_region=env "$tfexpr" console 2>&1)
if [ "$out" = '"env"' ]; then ok; else bad "console: TF_VAR_: $out"; fi
out=$(printf 'var\n' | "$tfexpr" console 2>&1)
if [ "$out" = '{}' ]; then ok; else bad "console: var with nothing: $out"; fi
printf 'x = foo\n' >/tmp/tfx-cli-vf.$$.tfvars
expect 1 "$tfexpr" console --var-file /tmp/tfx-cli-vf.$$.tfvars
expect 2 "$tfexpr" console --var-file /nonexistent/file.tfvars
expect 2 "$tfexpr" console 'an expression'
expect 0 "$tfexpr" console --flavor opentofu --limit-steps 100 --now 2024-01-01T00:00:00Z
rm -f /tmp/tfx-cli-vf.$$.tfvars /tmp/tfx-cli-vars.$$
# On a terminal: a prompt, editing, history, multi-line input, errors,
# Ctrl-D (impl/test/test_console_pty.py, through a pseudo-terminal).
if "$py" "$here/test_console_pty.py" "$real_tfexpr" >/tmp/tfx-cli.$$ 2>&1; then
    ok; cat /tmp/tfx-cli.$$
else
    bad "$(cat /tmp/tfx-cli.$$)"
fi

# Always-valid output (issue 14): a type name with quoted attribute names
# is escaped in eval's "type" and check's "type_text"; invalid UTF-8 in the
# input comes out as U+FFFD, in JSON and in text.
out=$("$tfexpr" eval --format json '{"a b" = 1}')
if [ "$out" = '{"ok":true,"value":{"type":["object",{"a b":"number"}],"v":{"a b":{"v":"1"}}},"type":"object({\"a b\"=number})","diagnostics":[]}' ]; then ok; else bad "eval --format json: quoted attribute in type: $out"; fi
out=$("$tfexpr" check --format json '{"x\"y" = [1], "\\" = {"c d" = "\u0001"}}')
case "$out" in
    *'"type_text":"object({\"\\\\\"=object({\"c d\"=string}),\"x\\\"y\"=tuple([number])})"'*) ok ;;
    *) bad "check --format json: escaped type_text: $out" ;;
esac
for e in '{"a b" = 1}' '{"\"" = "\n\t\u0007"}' '["\u00ff", "\U0001F600"]' 'tomap({"a\\b" = 1})' \
         '[for k, v in {"x y" = 1}: {(k) = v}]' 'type({"q\"" = 1})' 'nosuch.x' '"${' '{a = 1}.' \
         'tolist([{"s p" = true}])' 'jsondecode("{\"k k\":[1,\"x\"]}")' 'sensitive({"a b" = 1})' \
         "$(printf '"\377\376"')" "$(printf '{"k\300" = 1}')" "$(printf 'a.\355\240\200')"; do
    for c in eval parse refs check; do
        "$tfexpr" "$c" --format json "$e" >/dev/null 2>&1
        printf '%s' "$e" | "$tfexpr" "$c" --format json - >/dev/null 2>&1
    done
done
err=$("$tfexpr" eval "$(printf '"a\377"')" 2>&1)
case "$err" in
    *"$(printf '"a\357\277\275"')"*) ok ;;
    *) bad "eval: an invalid byte in a diagnostic's source line: $err" ;;
esac
if printf '%s' "$err" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1; then ok; else bad "eval: diagnostics not valid UTF-8"; fi
err=$("$tfexpr" parse --file "$(printf '/nonexistent/\377')" 2>&1)
if printf '%s' "$err" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1; then ok; else bad "parse: message not valid UTF-8: $err"; fi

# Every JSON output above, against its schema.
if "$py" "$here/check_cli_json.py" "$jsondir" >/tmp/tfx-cli.$$ 2>&1; then
    ok; cat /tmp/tfx-cli.$$
else
    bad "$(cat /tmp/tfx-cli.$$)"
fi

rm -f /tmp/tfx-cli.$$
echo "test_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
