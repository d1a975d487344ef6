// SPDX-License-Identifier: MPL-2.0
package main

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Every fn:<name> capability names a function of one of the two tables,
// and type is in the console's only.
func TestCapabilitiesAreRegistered(t *testing.T) {
	for _, name := range terraformSemanticsFunctions() {
		_, inModule := functionsFor(false)[name]
		_, inConsole := functionsFor(true)[name]
		if !inModule && !inConsole {
			t.Errorf("fn:%s is declared but %q is not registered", name, name)
		}
	}
	if _, ok := functionsFor(false)["type"]; ok {
		t.Errorf("type is in the module table")
	}
	if _, ok := functionsFor(true)["type"]; !ok {
		t.Errorf("type is not in the console table")
	}
}

// One session through serve: answers in order, a panic does not end it,
// stop ends it with status 0 and no answer.
func TestSession(t *testing.T) {
	in := strings.Join([]string{
		`{"cmd":"hello","protocol":1,"profile":"P14"}`,
		`{"cmd":"run","seq":1,"case":{"mode":"expression","input":"1 + 2"}}`,
		`{"cmd":"run","seq":2,"case":{"mode":"expression","input":"tolist([\"a\",null])[*][*]"}}`,
		`not json`,
		`{"cmd":"run","seq":3,"case":{"mode":"template","input":"${true}"}}`,
		`{"cmd":"stop"}`,
		`{"cmd":"run","seq":4,"case":{"mode":"expression","input":"1"}}`,
	}, "\n") + "\n"
	var out, errOut bytes.Buffer
	if status := serve(strings.NewReader(in), &out, &errOut); status != 0 {
		t.Fatalf("status %d, stderr %s", status, errOut.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("got %d answers, want 5:\n%s", len(lines), out.String())
	}
	want := []string{
		``,
		`{"seq":1,"value":{"type":"number","v":"3"}}`,
		``,
		`{"errored":true,"message":"the request is not a valid JSON object: invalid character 'o' in literal null (expecting 'u')"}`,
		`{"seq":3,"value":{"type":"bool","v":true}}`,
	}
	for i, w := range want {
		if w != "" && lines[i] != w {
			t.Errorf("answer %d:\n got %s\nwant %s", i, lines[i], w)
		}
	}
	if nestedSplatAnswer != "" {
		// This profile's HCL answers seq 2 without panicking.
		if lines[2] != nestedSplatAnswer {
			t.Errorf("answer 2:\n got %s\nwant %s", lines[2], nestedSplatAnswer)
		}
		return
	}
	var panicked runAnswer
	if err := json.Unmarshal([]byte(lines[2]), &panicked); err != nil || !panicked.Errored || string(panicked.Seq) != "2" {
		t.Errorf("answer 2 is not an errored answer for seq 2: %s", lines[2])
	}
}

// runOne answers one run request given as the JSON of its case.
func runOne(t *testing.T, caseJSON string) runAnswer {
	t.Helper()
	return runRequest(json.RawMessage(caseJSON))
}

// answerJSON is the JSON text of an answer, without seq.
func answerJSON(t *testing.T, a runAnswer) string {
	t.Helper()
	buf, err := json.Marshal(a)
	if err != nil {
		t.Fatalf("cannot encode %#v: %v", a, err)
	}
	return string(buf)
}

// Convert requests: the value of the input converted to convert_to, in
// unsafe mode by default and in safe mode when asked; a failure is one
// "Invalid conversion" error on the whole expression; marks, nulls and
// unknowns go through cty's rules.
func TestConvert(t *testing.T) {
	sub := func(start, end int) string {
		return fmt.Sprintf(`"subject":{"start":{"byte":%d,"line":1,"column":%d},"end":{"byte":%d,"line":1,"column":%d}}`,
			start, start+1, end, end+1)
	}
	str := `"variables":{"s":{"type":"string","v":"1p4"},"sens":{"type":["list","number"],"v":[{"v":"1","marks":["sensitive"]}]},"u":{"type":"dynamic","unknown":true},"n":{"type":["tuple",["number"]],"null":true}}`
	tests := []struct {
		name, caseJSON, want string
	}{
		{"unsafe by default", `{"request":"convert","mode":"expression","input":"s","convert_to":"number",` + str + `}`,
			`{"value":{"type":"number","v":"16"}}`},
		{"unsafe named", `{"request":"convert","mode":"expression","input":"s","convert_to":"number","convert_mode":"unsafe",` + str + `}`,
			`{"value":{"type":"number","v":"16"}}`},
		{"safe refuses string to number", `{"request":"convert","mode":"expression","input":"s","convert_to":"number","convert_mode":"safe",` + str + `}`,
			`{"diagnostics":[{"severity":"error","phase":"eval","summary":"Invalid conversion","detail":"number required",` + sub(0, 1) + `}]}`},
		{"value failure", `{"request":"convert","mode":"expression","input":"\"x\"","convert_to":"bool"}`,
			`{"diagnostics":[{"severity":"error","phase":"eval","summary":"Invalid conversion","detail":"a bool is required",` + sub(0, 3) + `}]}`},
		{"same type is unchanged", `{"request":"convert","mode":"expression","input":"[1]","convert_to":["tuple",["number"]],"convert_mode":"safe"}`,
			`{"value":{"type":["tuple",["number"]],"v":[{"v":"1"}]}}`},
		{"tuple to list of any", `{"request":"convert","mode":"expression","input":"[1, \"a\"]","convert_to":["list","dynamic"]}`,
			`{"value":{"type":["list","string"],"v":[{"v":"1"},{"v":"a"}]}}`},
		{"marks kept", `{"request":"convert","mode":"expression","input":"sens","convert_to":["set","string"],` + str + `}`,
			`{"value":{"type":["set","string"],"v":[{"v":"1"}],"marks":["sensitive"]}}`},
		{"unknown dynamic", `{"request":"convert","mode":"expression","input":"u","convert_to":["map","number"],` + str + `}`,
			`{"value":{"type":["map","number"],"unknown":true}}`},
		{"typed null", `{"request":"convert","mode":"expression","input":"n","convert_to":["list","dynamic"],` + str + `}`,
			`{"value":{"type":["list","number"],"null":true}}`},
		{"evaluation errors come first", `{"request":"convert","mode":"expression","input":"nosuch","convert_to":"number"}`,
			`{"diagnostics":[{"severity":"error","phase":"eval","summary":"Unknown variable","detail":"There is no variable named \"nosuch\".",` + sub(0, 6) + `}]}`},
		{"template mode", `{"request":"convert","mode":"template","input":"${1}","convert_to":"string"}`,
			`{"value":{"type":"string","v":"1"}}`},
		{"optional attribute filled", `{"request":"convert","mode":"expression","input":"{b = 1}","convert_to":["object",{"a":"string","b":"number"},["a"]]}`,
			`{"value":{"type":["object",{"a":"string","b":"number"}],"v":{"a":{"null":true},"b":{"v":"1"}}}}`},
	}
	for _, tc := range tests {
		if got := answerJSON(t, runOne(t, tc.caseJSON)); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// Malformed convert requests are errored answers, never a guess.
func TestConvertMalformed(t *testing.T) {
	for _, caseJSON := range []string{
		`{"request":"convert","mode":"expression","input":"1"}`,
		`{"request":"convert","mode":"expression","input":"1","convert_to":null}`,
		`{"request":"convert","mode":"expression","input":"1","convert_to":"float"}`,
		`{"request":"convert","mode":"expression","input":"1","convert_to":["object",{"a":"number"},["b"]]}`,
		`{"request":"convert","mode":"expression","input":"1","convert_to":"string","convert_mode":"lenient"}`,
		`{"request":"eval","mode":"expression","input":"1","convert_to":"string"}`,
		`{"mode":"expression","input":"1","convert_mode":"safe"}`,
	} {
		if a := runOne(t, caseJSON); !a.Errored || a.Message == "" {
			t.Errorf("%s: not an errored answer: %s", caseJSON, answerJSON(t, a))
		}
	}
}

// A tuple type built from a nil slice is written with [] like any empty
// tuple, never with null (which the protocol's type syntax does not have).
func TestMarshalTypeNilTuple(t *testing.T) {
	for _, ty := range []cty.Type{cty.Tuple(nil), cty.List(cty.Tuple(nil)),
		cty.Object(map[string]cty.Type{"a": cty.Tuple(nil)})} {
		buf, err := marshalType(ty)
		if err != nil {
			t.Fatalf("%#v: %v", ty, err)
		}
		if bytes.Contains(buf, []byte("null")) {
			t.Errorf("%#v: %s", ty, buf)
		}
	}
}

// Refs requests answer the traversals of hclsyntax's Variables(): roots,
// attribute and literal index steps with typed keys, ranges; an empty
// list (not null) when there are none; the parse's errors when it fails.
func TestRefs(t *testing.T) {
	r := func(b0, c0, b1, c1 int) string {
		return fmt.Sprintf(`{"start":{"byte":%d,"line":1,"column":%d},"end":{"byte":%d,"line":1,"column":%d}}`, b0, c0, b1, c1)
	}
	cases := []struct{ input, mode, want string }{
		{`"x"`, "expression", `{"refs":[]}`},
		{`a.b[1.50]`, "expression",
			`{"refs":[{"root":"a","steps":[{"attr":"b","range":` + r(1, 2, 3, 4) + `},{"index":{"type":"number","v":"1.5"},"range":` +
				r(3, 4, 9, 10) + `}],"root_range":` + r(0, 1, 1, 2) + `,"range":` + r(0, 1, 9, 10) + `}]}`},
		{`[for x in a: x + y[null]]`, "expression",
			`{"refs":[{"root":"a","steps":[],"root_range":` + r(10, 11, 11, 12) + `,"range":` + r(10, 11, 11, 12) +
				`},{"root":"y","steps":[{"index":{"type":"dynamic","null":true},"range":` + r(18, 19, 24, 25) +
				`}],"root_range":` + r(17, 18, 18, 19) + `,"range":` + r(17, 18, 24, 25) + `}]}`},
		{`%{ for x in a }${x}%{ endfor }`, "template",
			`{"refs":[{"root":"a","steps":[],"root_range":` + r(12, 13, 13, 14) + `,"range":` + r(12, 13, 13, 14) + `}]}`},
	}
	for _, c := range cases {
		got := answerJSON(t, runOne(t, fmt.Sprintf(`{"request":"refs","mode":%q,"input":%q}`, c.mode, c.input)))
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.input, got, c.want)
		}
	}
	ans := runOne(t, `{"request":"refs","mode":"expression","input":"a."}`)
	if ans.Refs != nil || len(ans.Diagnostics) != 1 || ans.Diagnostics[0].Phase != "parse" {
		t.Errorf("a refs request with a syntax error: %s", answerJSON(t, ans))
	}
	found := false
	for _, c := range capabilities() {
		found = found || c == "request.refs"
	}
	if !found {
		t.Errorf("request.refs is not declared")
	}
}

// evalAnswer answers an eval (or console) request for input with the
// variables vars (a JSON object of typed values, or "").
func evalAnswer(t *testing.T, request, input, vars string) string {
	t.Helper()
	c := fmt.Sprintf(`{"request":%q,"mode":"expression","input":%q`, request, input)
	if vars != "" {
		c += `,"variables":` + vars
	}
	return answerJSON(t, runOne(t, c+"}"))
}

// callError is the detail of an "Error in function call" diagnostic, and
// argError that of an "Invalid function argument" one.
func callError(name, msg string) string {
	return fmt.Sprintf(`"summary":"Error in function call","detail":"Call to function \"%s\" failed: %s."`, name, msg)
}

func argError(param, msg string) string {
	return fmt.Sprintf(`"summary":"Invalid function argument","detail":"Invalid value for \"%s\" parameter: %s."`, param, msg)
}

// tfVars are the variables of the Terraform-function tests.
const tfVars = `{
	"us": {"type": "string", "unknown": true},
	"sens": {"type": "string", "v": "abc", "marks": ["sensitive"]},
	"sensu": {"type": "string", "unknown": true, "marks": ["sensitive"]},
	"dyn": {"type": "dynamic", "unknown": true},
	"uo": {"type": ["object", {"a": "number", "b": "string"}], "unknown": true, "marks": ["sensitive"]},
	"ul": {"type": ["list", "bool"], "v": [{"v": false}, {"unknown": true}]},
	"m": {"type": ["map", "string"], "v": {"a": {"v": "x"}}},
	"sk": {"type": "string", "v": "zz", "marks": ["sensitive"]},
	"tmpl": {"type": "string", "v": "Hello, ${name}!", "marks": ["sensitive"]},
	"eph": {"type": ["object", {"a": "string", "b": "string"}], "v": {"a": {"v": "x", "marks": ["ephemeral", "sensitive"]}, "b": {"v": "y", "marks": ["ephemeral"]}}}
}`

// Terraform's own functions (tf_*.go): results, unknowns, marks and
// errors, each checked against the answer Terraform's function gives on
// cty 1.12.1.
func TestTerraformFunctions(t *testing.T) {
	tests := []struct{ input, want string }{
		// Strings.
		{`startswith("hello", "he")`, `"type":"bool","v":true`},
		{`startswith(us, "")`, `"type":"bool","v":true`},
		{`startswith(us, "a")`, `"type":"bool","unknown":true`},
		{`startswith(sens, "a")`, `"type":"bool","v":true,"marks":["sensitive"]`},
		{`endswith("hello", "lo")`, `"type":"bool","v":true`},
		{`strcontains("hello", "ell")`, `"type":"bool","v":true`},
		{`strcontains("hello", "x")`, `"type":"bool","v":false`},
		{`replace("a-b-c", "-", "+")`, `"type":"string","v":"a+b+c"`},
		{`replace("abc", "", "-")`, `"type":"string","v":"-a-b-c-"`},
		{`replace("hello", "/(l+)/", "<$1>")`, `"type":"string","v":"he\u003cll\u003eo"`},
		{`replace("a/b", "/", "+")`, `"type":"string","v":"a+b"`},
		{`replace("x", "/(/", "")`, callError("replace", "error parsing regexp: missing closing ): `(`")},
		// Collections.
		{`length("👾🕹️")`, `"type":"number","v":"2"`},
		{`length(uo)`, `"type":"number","v":"2","marks":["sensitive"]`},
		{`length(sensu)`, `"type":"number","unknown":true`},
		{`length(dyn)`, `"type":"number","unknown":true`},
		{`length(1)`, callError("length", "argument must be a string, a collection type, or a structural type")},
		{`alltrue([])`, `"type":"bool","v":true`},
		{`alltrue(ul)`, `"type":"bool","v":false`},
		{`alltrue([true, null])`, `"type":"bool","v":false`},
		{`anytrue([null, false])`, `"type":"bool","v":false`},
		{`anytrue([dyn, true])`, `"type":"bool","v":true`},
		{`anytrue(ul)`, `"type":"bool","unknown":true`},
		{`coalesce("", "b")`, `"type":"string","v":"b"`},
		{`coalesce("", null)`, callError("coalesce", "no non-null, non-empty-string arguments")},
		{`coalesce(1, "a")`, `"type":"string","v":"1"`},
		{`coalesce(null, us, "x")`, `"type":"string","unknown":true`},
		{`coalesce()`, callError("coalesce", "all arguments must have the same type")},
		{`index(["a", "b", "c"], "c")`, `"type":"number","v":"2"`},
		{`index([], 1)`, callError("index", "cannot search an empty list")},
		{`index(["a"], "z")`, callError("index", "item not found")},
		{`index({a = 1}, 1)`, callError("index", "argument must be a list or tuple")},
		{`index([us, "a"], "a")`, `"type":"number","unknown":true`},
		{`lookup(m, "a")`, `"type":"string","v":"x"`},
		{`lookup(m, "b", "d")`, `"type":"string","v":"d"`},
		{`lookup(m, "b")`, callError("lookup", `lookup failed to find key \"b\"`)},
		{`lookup(m, sk)`, callError("lookup", "lookup failed to find key (sensitive value)")},
		{`lookup(m, sk, "d")`, `"type":"string","v":"d","marks":["sensitive"]`},
		{`lookup({a = 1}, "b")`, argError("inputMap", `the given object has no attribute \"b\"`)},
		{`lookup({a = 1}, "a", 2, 3)`, callError("lookup", "lookup() takes two or three arguments, got 4")},
		{`lookup(m, "a", [])`, argError("default", "the default value must have the same type as the map elements")},
		{`lookup("s", "a")`, argError("inputMap", "lookup() requires a map as the first argument")},
		{`matchkeys(["a", "b", "c"], ["x", "y", "z"], ["z", "x"])`, `"type":["list","string"],"v":[{"v":"a"},{"v":"c"}]`},
		{`matchkeys(["a"], ["x", "y"], ["x"])`, callError("matchkeys", "length of keys and values should be equal")},
		{`matchkeys(["a"], [us], [])`, `"type":["list","string"],"v":[]`},
		{`matchkeys(["a"], [us], ["x"])`, `"type":["list","string"],"unknown":true`},
		{`matchkeys(["a"], ["x"], [1])`, `"type":["list","string"],"v":[]`},
		{`one([])`, `"type":"dynamic","null":true`},
		{`one(tolist([]))`, `"type":"dynamic","null":true`},
		{`one(["a"])`, `"type":"string","v":"a"`},
		{`one(toset(["a", "a"]))`, `"type":"string","v":"a"`},
		{`one(tolist(["a", "b"]))`, argError("list", "must be a list, set, or tuple value with either zero or one elements")},
		{`one("a")`, argError("list", "must be a list, set, or tuple value with either zero or one elements")},
		{`sum([1, 2.5, "3"])`, `"type":"number","v":"6.5"`},
		{`sum([])`, argError("list", "cannot sum an empty list")},
		{`sum("x")`, argError("list", "cannot sum noniterable")},
		{`sum({a = 1})`, argError("list", "argument must be list, set, or tuple. Received object")},
		{`sum([1, null])`, argError("list", "argument must be list, set, or tuple of number values")},
		{`sum([1, "a"])`, argError("list", "argument must be list, set, or tuple of number values")},
		{`sum([1, us])`, `"type":"number","unknown":true`},
		{`sum([1/0, -1/0])`, callError("sum", "can't compute sum of opposing infinities")},
		{`transpose({a = ["1", "2"], b = ["2", "3"]})`, `"type":["map",["list","string"]],"v":{"1":{"v":[{"v":"a"}]},"2":{"v":[{"v":"a"},{"v":"b"}]},"3":{"v":[{"v":"b"}]}}`},
		{`transpose({a = null})`, callError("transpose", "input must not contain null list")},
		{`transpose({a = [null]})`, callError("transpose", "input list must not contain null string")},
		{`transpose({})`, `"type":["map",["list","string"]],"v":{}`},
		{`list()`, callError("list", `the \"list\" function was deprecated in Terraform v0.12 and is no longer available; use tolist([ ... ]) syntax to write a literal list`)},
		{`map(dyn, null)`, callError("map", `the \"map\" function was deprecated in Terraform v0.12 and is no longer available; use tomap({ ... }) syntax to write a literal map`)},
		// Marks.
		{`sensitive([1])`, `"type":["tuple",["number"]],"v":[{"v":"1"}],"marks":["sensitive"]`},
		{`sensitive(dyn)`, `"type":"dynamic","unknown":true,"marks":["sensitive"]`},
		{`nonsensitive(sens)`, `"type":"string","v":"abc"`},
		{`nonsensitive("a")`, `"type":"string","v":"a"`},
		{`nonsensitive([sens])`, `"type":["tuple",["string"]],"v":[{"v":"abc","marks":["sensitive"]}]`},
		{`issensitive(sensu)`, `"type":"bool","v":true`},
		{`issensitive(us)`, `"type":"bool","unknown":true`},
		{`issensitive([sens])`, `"type":"bool","v":false`},
		{`ephemeralasnull(eph)`, `"type":["object",{"a":"string","b":"string"}],"v":{"a":{"null":true,"marks":["sensitive"]},"b":{"null":true}}`},
		{`ephemeralasnull("a")`, `"type":"string","v":"a"`},
		// Conversions.
		{`tostring(1.5)`, `"type":"string","v":"1.5"`},
		{`tostring(null)`, `"type":"string","null":true`},
		{`tostring(sensu)`, `"type":"string","unknown":true,"marks":["sensitive"]`},
		{`tolist(dyn)`, `"type":["list","dynamic"],"unknown":true`},
		{`tobool("no")`, argError("v", `cannot convert \"no\" to bool; only the strings \"true\" or \"false\" are allowed`)},
		{`tonumber("x")`, argError("v", `cannot convert \"x\" to number; given string must be a decimal representation of a number`)},
		{`tonumber(sens)`, argError("v", "cannot convert this sensitive string to number")},
		{`tostring([])`, argError("v", "cannot convert tuple to string")},
		{`tomap([])`, argError("v", "cannot convert tuple to map of any single type")},
		{`convert({a = 1}, object({a = string, b = optional(number, 5)}))`, `"type":["object",{"a":"string","b":"number"}],"v":{"a":{"v":"1"},"b":{"v":"5"}}`},
		{`convert([1], list(string))`, `"type":["list","string"],"v":[{"v":"1"}]`},
		{`convert(null, number)`, `"type":"number","null":true`},
		{`convert("a", number)`, argError("value", "a number is required")},
		// Numbers and time.
		{`log(8, 2)`, `"type":"number","v":"3"`},
		{`log(-1, 2)`, callError("log", "result is not a number")},
		{`pow(-8, 0.5)`, callError("pow", "result is not a number")},
		{`pow(2, 10)`, `"type":"number","v":"1024"`},
		{`timecmp("2017-11-22T00:00:00Z", "2017-11-22T01:00:00+01:00")`, `"type":"number","v":"0"`},
		{`timecmp("2017-11-22T00:00:00Z", "2017-11-22T00:00:01Z")`, `"type":"number","v":"-1"`},
		{`timecmp("2017-11-22", "2017-11-22T00:00:00Z")`, argError("timestamp_a", "not a valid RFC3339 timestamp: missing required time introducer 'T'")},
		{`timecmp("2017-11-22T00:00:00Z", "2017-13-22T00:00:00Z")`, argError("timestamp_b", `not a valid RFC3339 timestamp: cannot use \"-22T00:00:00Z\" as month`)},
		{`timecmp("2017-11-22T00:00:00Z", "2017-11-22T00:00")`, argError("timestamp_b", `not a valid RFC3339 timestamp: end of string where \":\" is expected`)},
		// Templates.
		{`templatestring(tmpl, {name = "Alex"})`, `"type":"string","v":"Hello, Alex!","marks":["sensitive"]`},
		{`templatestring(tmpl, {})`, argError("vars", `vars map does not contain key \"name\", referenced at \u003ctemplatestring argument\u003e:1,10-14`)},
		{`templatestring("x", {})`, argError("template", errTemplateLiteral)},
		{`templatestring("${tmpl}", {})`, argError("template", errTemplateWrap)},
		{`templatestring(upper(tmpl), {})`, argError("template", errTemplateRef)},
		{`templatestring(tmpl, {name = "x", "a b" = 1})`, argError("vars", `invalid template variable name \"a b\": must start with a letter, followed by zero or more letters, digits, and underscores`)},
		{`type(1)`, `"summary":"Call to unknown function"`},
	}
	for _, tc := range tests {
		got := evalAnswer(t, "eval", tc.input, tfVars)
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.input, got, tc.want)
		}
	}
}

// The console request: type() results as values of type "type" holding
// the type as the console prints it; any other use of them is an error;
// null and unknown values of the capsule type (without the mark) are
// answered as they are, at any depth.
func TestConsoleType(t *testing.T) {
	tests := []struct{ input, want string }{
		{`type("a")`, `{"value":{"type":"type","v":"string"}}`},
		{`type(type("a"))`, `{"value":{"type":"type","v":"type"}}`},
		{`type(sensu)`, `{"value":{"type":"type","v":"string"}}`},
		{`type({b = [1, "x"], a = tolist([{c = true}])})`, `{"value":{"type":"type","v":` +
			`"object({\n    a: list(\n        object({\n            c: bool,\n        }),\n    ),\n    b: tuple([\n        number,\n        string,\n    ]),\n})"}}`},
		{`[type(1)]`, `{"diagnostics":[{"severity":"error","phase":"eval","summary":"Invalid use of type function","detail":"The console-only \"type\" function cannot be used as part of an expression."}]}`},
		{`"number"`, `{"value":{"type":"string","v":"number"}}`},
		{`false ? type(1) : null`, `{"value":{"type":"type","null":true}}`},
		{`true ? null : type(1)`, `{"value":{"type":"type","null":true}}`},
		{`dyn ? type(1) : null`, `{"value":{"type":"type","unknown":true}}`},
		{`sensitive(false ? type(1) : null)`, `{"value":{"type":"type","null":true,"marks":["sensitive"]}}`},
		{`[false ? type(1) : null, 1]`, `{"value":{"type":["tuple",["type","number"]],"v":[{"null":true},{"v":"1"}]}}`},
		{`{b = tolist([dyn ? type(1) : null]), "<a>" = 1}`, `{"value":{"type":["object",{"\u003ca\u003e":"number","b":["list","type"]}],"v":{"\u003ca\u003e":{"v":"1"},"b":{"v":[{"unknown":true}]}}}}`},
		{`1 + 1`, `{"value":{"type":"number","v":"2"}}`},
	}
	for _, tc := range tests {
		want := tc.want
		if w, ok := consoleTypeAnswers[tc.input]; ok {
			want = w
		}
		if got := evalAnswer(t, "console", tc.input, tfVars); got != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.input, got, want)
		}
	}
}

// terraformFunctionNames are the functions Terraform main registers
// (internal/lang/functions.go): the module table has all but type, the
// console table all but plantimestamp.
var terraformFunctionNames = strings.Fields(`
	abs abspath alltrue anytrue base64decode base64encode base64gzip base64sha256 base64sha512
	basename bcrypt can ceil chomp chunklist cidrhost cidrnetmask cidrsubnet cidrsubnets coalesce
	coalescelist compact concat contains convert csvdecode dirname distinct element endswith
	ephemeralasnull file filebase64 filebase64sha256 filebase64sha512 fileexists filemd5 fileset
	filesha1 filesha256 filesha512 flatten floor format formatdate formatlist indent index
	issensitive join jsondecode jsonencode keys length list log lookup lower map matchkeys max md5
	merge min nonsensitive one parseint pathexpand plantimestamp pow range regex regexall replace
	reverse rsadecrypt sensitive setintersection setproduct setsubtract setunion sha1 sha256 sha512
	signum slice sort split startswith strcontains strrev substr sum templatefile templatestring
	textdecodebase64 textencodebase64 timeadd timecmp timestamp title tobool tolist tomap tonumber
	toset tostring transpose trim trimprefix trimspace trimsuffix try type upper urlencode uuid
	uuidv5 values yamldecode yamlencode zipmap`)

// plainCount counts the names of a table that have no namespace (the PN
// build's table also has core::NAME for each and the provider's functions,
// tf_provider_pn.go).
func plainCount(table map[string]function.Function) int {
	n := 0
	for name := range table {
		if !strings.Contains(name, "::") {
			n++
		}
	}
	return n
}

// The tables hold exactly Terraform's functions, and fn:<name> is
// declared for each.
func TestTerraformFunctionTable(t *testing.T) {
	if n := len(terraformFunctionNames); n != 122 {
		t.Fatalf("the test's list has %d names", n)
	}
	declared := map[string]bool{}
	for _, c := range capabilities() {
		if strings.HasPrefix(c, "fn:") {
			declared[c[3:]] = true
		}
	}
	for _, name := range terraformFunctionNames {
		_, inModule := functionsFor(false)[name]
		_, inConsole := functionsFor(true)[name]
		if inModule != (name != "type") || inConsole != (name != "plantimestamp") {
			t.Errorf("%s: in the module table %v, in the console table %v", name, inModule, inConsole)
		}
		if !declared[name] {
			t.Errorf("fn:%s is not declared", name)
		}
	}
	// OpenTofu's own functions are declared too (with flavor.opentofu),
	// and are only in OpenTofu's tables.
	if plainCount(functionsFor(false)) != 121 || plainCount(functionsFor(true)) != 121 || len(declared) != 122+openTofuOwnCount {
		t.Errorf("%d module functions, %d console functions, %d declared", plainCount(functionsFor(false)), plainCount(functionsFor(true)), len(declared))
	}
}

// OpenTofu's table: Terraform's plus base64gunzip, cidrcontains and
// urldecode, in module and console scopes, and in the templates that
// templatestring renders; the case's flavor chooses it.
func TestOpenTofuFlavor(t *testing.T) {
	for _, console := range []bool{false, true} {
		tf, tofu := functionsForFlavor(console, false), functionsForFlavor(console, true)
		if plainCount(tofu) != plainCount(tf)+openTofuOwnCount {
			t.Errorf("console %v: %d OpenTofu functions, %d Terraform functions", console, plainCount(tofu), plainCount(tf))
		}
		for name := range tf {
			if _, ok := tofu[name]; !ok {
				t.Errorf("console %v: %s is not in OpenTofu's table", console, name)
			}
		}
		for _, name := range []string{"base64gunzip", "cidrcontains", "urldecode"} {
			if _, ok := tf[name]; ok {
				t.Errorf("console %v: %s is in Terraform's table", console, name)
			}
			if _, ok := tofu[name]; !ok {
				t.Errorf("console %v: %s is not in OpenTofu's table", console, name)
			}
		}
	}
	caps := strings.Join(capabilities(), " ")
	if !strings.Contains(caps, "flavor.opentofu") {
		t.Errorf("flavor.opentofu is not declared: %s", caps)
	}
	for _, tc := range []struct{ flavor, input, want string }{
		{`"opentofu"`, `urldecode("a+b%2F")`, `"value":{"type":"string","v":"a b/"}`},
		{`"opentofu"`, `cidrcontains("10.0.0.0/8", "10.1.0.0/16")`, `"value":{"type":"bool","v":true}`},
		{`"opentofu"`, `base64gunzip(base64gzip("hi"))`, `"value":{"type":"string","v":"hi"}`},
		{`"opentofu"`, `templatestring(t, {x = "%41"})`, `"value":{"type":"string","v":"A"}`},
		{`"opentofu"`, `base64gunzip("")`, `failed to gunzip bytestream: EOF.`},
		{`"opentofu"`, `urldecode("%zz")`, `failed to decode URL '': invalid URL escape \"%zz\".`},
		{`"opentofu"`, `cidrcontains("10.0.0.0/8", "::1")`, `address family mismatch: 10.0.0.0/8 vs. ::1.`},
		{`"terraform"`, `urldecode("a")`, `"summary":"Call to unknown function"`},
		{`null`, `cidrcontains("10.0.0.0/8", "10.0.0.1")`, `"summary":"Call to unknown function"`},
		{`"tofu"`, `1`, `"errored":true`},
	} {
		in, _ := json.Marshal(tc.input)
		line := `{"cmd":"run","seq":1,"case":{"id":"X","name":"x","mode":"expression","flavor":` + tc.flavor +
			`,"input":` + string(in) + `,"variables":{"t":{"type":"string","v":"${urldecode(x)}"}}}}`
		answer, _ := handleLine([]byte(line))
		out, _ := json.Marshal(answer)
		if !strings.Contains(string(out), tc.want) {
			t.Errorf("%s with flavor %s: %s, want %s", tc.input, tc.flavor, out, tc.want)
		}
	}
}

// The functions of files, hashes, encodings, networks and time, in a
// scratch base directory with the clock fixed.
func TestHostFunctions(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"a.txt": "abc", "bin.dat": "\xff", "sub/b.txt": "x", "sub/c.md": "y",
		"t.tmpl": "Hello ${name}!", "rec.tmpl": `${templatefile("t.tmpl", {name = "x"})}`,
		"typed.tmpl": "${n}", "fs.tmpl": `${file("a.txt")}`,
	} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	oldDir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := applyOption("--base-dir", dir); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = os.Chdir(oldDir) }()
	if err := applyOption("--now", "2024-05-06T07:08:09+02:00"); err != nil {
		t.Fatal(err)
	}
	defer func() { fixedNow = time.Time{} }()

	key, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := rsa.EncryptPKCS1v15(rand.Reader, &key.PublicKey, []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	keyPEM := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	vars := fmt.Sprintf(`{"ct": {"type": "string", "v": %q}, "key": {"type": "string", "v": %q},
		"sp": {"type": "string", "v": "a.txt", "marks": ["sensitive"]}, "up": {"type": "string", "unknown": true},
		"tmpl": {"type": "string", "v": "${file(\"a.txt\")}"}}`,
		base64.StdEncoding.EncodeToString(sealed), keyPEM)

	tests := []struct{ input, want string }{
		// Files.
		{`file("a.txt")`, `"type":"string","v":"abc"`},
		{`file(sp)`, `"type":"string","v":"abc","marks":["sensitive"]`},
		{`file(up)`, `"type":"string","unknown":true`},
		{`file("nope")`, argError("path", `no file exists at \"nope\"; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource`)},
		{`file("bin.dat")`, `contents of \"bin.dat\" are not valid UTF-8`},
		{`filebase64("bin.dat")`, `"type":"string","v":"/w=="`},
		{`fileexists("a.txt")`, `"type":"bool","v":true`},
		{`fileexists("zz")`, `"type":"bool","v":false`},
		{`fileexists("sub")`, callError("fileexists", `\"sub\" is a directory, not a file`)},
		{`fileset(".", "**/*.txt")`, `"type":["set","string"],"v":[{"v":"a.txt"},{"v":"sub/b.txt"}]`},
		{`fileset("sub", "*.{md,txt}")`, `"type":["set","string"],"v":[{"v":"b.txt"},{"v":"c.md"}]`},
		{`fileset(".", "none*")`, `"type":["set","string"],"v":[]`},
		{`filemd5("a.txt")`, `"v":"900150983cd24fb0d6963f7d28e17f72"`},
		{`filesha1("a.txt")`, `"v":"a9993e364706816aba3e25717850c26c9cd0d89d"`},
		{`filesha256("a.txt")`, `"v":"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"`},
		{`filebase64sha256("a.txt")`, `"v":"ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="`},
		{`filesha512("nope")`, callError("filesha512", "open nope: no such file or directory")},
		{`templatefile("t.tmpl", {name = "X"})`, `"type":"string","v":"Hello X!"`},
		{`templatefile("typed.tmpl", {n = 1})`, `"type":"number","v":"1"`},
		{`templatefile("fs.tmpl", {})`, `"type":"string","v":"abc"`},
		{`templatefile("rec.tmpl", {})`, `cannot recursively call templatefile from inside another template function`},
		{`templatestring(tmpl, {})`, `cannot use filesystem access functions like file in templatestring templates; consider passing the function result as a template variable instead`},
		{`abspath("a.txt")`, `"v":"` + filepath.ToSlash(filepath.Join(dir, "a.txt")) + `"`},
		{`dirname("/a/b/c")`, `"v":"/a/b"`},
		{`basename("a/b/")`, `"v":"b"`},
		{`pathexpand("~u")`, callError("pathexpand", "cannot expand user-specific home dir")},
		// Time.
		{`timestamp()`, `"type":"string","v":"2024-05-06T05:08:09Z"`},
		{`plantimestamp()`, `"type":"string","v":"2024-05-06T07:08:09+02:00"`},
		// Hashes, crypto, uuids.
		{`md5("hi")`, `"v":"49f68a5c8493ec2c0bf489821c21fc3b"`},
		{`sha1("hi")`, `"v":"c22b5f9178342609428d6f51b2c5af4c0bde6a42"`},
		{`sha256("hi")`, `"v":"8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4"`},
		{`base64sha256("hi")`, `"v":"j0NDRmSPa5bfid2pAcUXaxCm2Dlh3TwayItZstwyeqQ="`},
		{`base64sha512("")`, `"v":"z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg=="`},
		{`length(regexall("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", uuid()))`, `"v":"1"`},
		{`uuidv5("dns", "example.com")`, `"v":"cfbff0d1-9375-5685-968c-48ce8b15ae17"`},
		{`uuidv5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "example.com")`, `"v":"cfbff0d1-9375-5685-968c-48ce8b15ae17"`},
		{`uuidv5("zz", "x")`, callError("uuidv5", "uuidv5() doesn't support namespace zz (invalid UUID length: 2)")},
		{`length(regexall("^\\$2a\\$04\\$.{53}$", bcrypt("x", 4)))`, `"v":"1"`},
		{`length(regexall("^\\$2a\\$10\\$", bcrypt("x", 1)))`, `"v":"1"`},
		{`bcrypt("x", 32)`, callError("bcrypt", "error occured generating password crypto/bcrypt: cost 32 is outside allowed range (4,31)")},
		{`bcrypt("x", 4, 5)`, callError("bcrypt", "bcrypt() takes no more than two arguments")},
		{`bcrypt(join("", [for i in range(73) : "a"]), 4)`, callError("bcrypt", "error occured generating password bcrypt: password length exceeds 72 bytes")},
		{`rsadecrypt(ct, key)`, `"type":"string","v":"secret"`},
		{`rsadecrypt("!", key)`, argError("ciphertext", `failed to decode input \"!\": cipher text must be base64-encoded`)},
		{`rsadecrypt(ct, "x")`, argError("privatekey", "invalid private key: ssh: no key found")},
		// Encodings.
		{`base64encode("hi")`, `"v":"aGk="`},
		{`base64decode("aGk=")`, `"v":"hi"`},
		{`base64decode(sensitive("!"))`, callError("base64decode", "failed to decode base64 data (sensitive value)")},
		{`base64decode("/w==")`, callError("base64decode", "the result of decoding the provided string is not valid UTF-8")},
		{`base64gzip("hello")`, `"v":"H4sIAAAAAAAA/8pIzcnJBwAAAP//AQAA//+GphA2BQAAAA=="`},
		{`textencodebase64("Hello", "UTF-16LE")`, `"v":"SABlAGwAbABvAA=="`},
		{`textencodebase64("€", "ISO-8859-1")`, argError("string", "the given string contains characters that cannot be represented in ISO_8859-1:1987")},
		{`textdecodebase64("SABlAGwAbABvAA==", "utf-16le")`, `"v":"Hello"`},
		{`textdecodebase64("a", "UTF-8")`, argError("source", "the given value has an invalid base64 symbol at offset 0")},
		{`textencodebase64("x", "nope")`, argError("encoding", `\"nope\" is not a supported IANA encoding name or alias in this Terraform version`)},
		{`urlencode("a b/c?é")`, `"v":"a+b%2Fc%3F%C3%A9"`},
		{`yamldecode("a: 1")`, `"type":["object",{"a":"number"}],"v":{"a":{"v":"1"}}`},
		{`yamlencode(["x"])`, `"v":"- \"x\"\n"`},
		// IP networks.
		{`cidrhost("010.000.0.0/8", -1)`, `"v":"10.255.255.255"`},
		{`cidrhost("fd00::/64", 300)`, `"v":"fd00::12c"`},
		// go-cidr on an IPv4-mapped IPv6 prefix: its IPv4 arithmetic on
		// the IPv6 host bits.
		{`cidrhost("::ffff:1.2.3.0/120", 5)`, `"v":"0:5::ffff:102:300"`},
		{`cidrhost("x", 1)`, callError("cidrhost", "invalid CIDR expression: invalid CIDR address: x")},
		{`cidrhost("10.0.0.0/33", 1)`, callError("cidrhost", "invalid CIDR expression: invalid CIDR address: 10.0.0.0/33")},
		{`cidrhost("1:2::3::4/64", 1)`, callError("cidrhost", "invalid CIDR expression: invalid CIDR address: 1:2::3::4/64")},
		{`cidrnetmask("172.16.0.0/012")`, `"v":"255.240.0.0"`},
		{`cidrnetmask("::/0")`, callError("cidrnetmask", "IPv6 addresses cannot have a netmask: ::/0")},
		{`cidrsubnet("10.0.0.0/8", 8, 2)`, `"v":"10.2.0.0/16"`},
		{`cidrsubnet("10.0.0.0/8", 30, 2)`, callError("cidrsubnet", "insufficient address space to extend prefix of 8 by 30")},
		{`cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)`, `"v":[{"v":"10.1.0.0/20"},{"v":"10.1.16.0/20"},{"v":"10.1.32.0/24"},{"v":"10.1.48.0/20"}]`},
		{`cidrsubnets("10.1.0.0/16")`, `"type":["list","string"],"v":[]`},
		{`cidrsubnets("10.1.0.0/16", 33)`, argError("newbits", "may not extend prefix by more than 32 bits")},
		{`cidrsubnets("10.1.0.0/30", 1, 1, 1)`, argError("newbits", "not enough remaining address space for a subnet with a prefix of 31 bits after 10.1.0.2/31")},
		{`cidrsubnets("10.1.0.0/30", 3)`, argError("newbits", "would extend prefix to 33 bits, which is too long for an IPv4 address")},
	}
	for _, tc := range tests {
		got := evalAnswer(t, "eval", tc.input, vars)
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.input, got, tc.want)
		}
	}
}

// refinementInputs: unknown variables with refinements, read and written
// back (conformance/README.md, "Refinements"); refinementAnswers (in
// profile_*_test.go) gives each profile's answers: PN keeps and uses
// them, P14's cty has none and refuses them.
var refinementInputs = []struct{ input, vars string }{
	{`s`, `{"s":{"type":"string","unknown":true,"refinements":{"not_null":true,"string_prefix":"ab"}}}`},
	{`n == null`, `{"n":{"type":"number","unknown":true,"refinements":{"not_null":true,"number_lower":"0","number_lower_inclusive":true}}}`},
	{`l`, `{"l":{"type":["list","bool"],"unknown":true,"refinements":{"length_lower":1,"length_upper":3}}}`},
	{`n`, `{"n":{"type":"number","unknown":true,"refinements":{"string_prefix":"a"}}}`},
	{`n`, `{"n":{"type":"number","unknown":true,"refinements":{"number_upper":"1"}}}`},
}

func TestRefinements(t *testing.T) {
	for i, c := range refinementInputs {
		got := evalAnswer(t, "eval", c.input, c.vars)
		if got != refinementAnswers[i] {
			t.Errorf("%s with %s:\n got %s\nwant %s", c.input, c.vars, got, refinementAnswers[i])
		}
	}
}

// tfRefineInputs: Terraform's own functions with unknown arguments;
// tfRefineAnswers (in profile_*_test.go) gives each profile's answers: in
// PN the results are refined not null and startswith reads the known
// prefix of a template (tf_refine_pn.go); P14 has no refinements.
var tfRefineInputs = []struct{ input, vars string }{
	{`sha256(u)`, `{"u":{"type":"string","unknown":true}}`},
	{`startswith("ab${u}", "a")`, `{"u":{"type":"string","unknown":true}}`},
	{`startswith("ab${u}", "b")`, `{"u":{"type":"string","unknown":true}}`},
	{`length(d)`, `{"d":{"type":"dynamic","unknown":true}}`},
	{`strcontains(u, "a")`, `{"u":{"type":"string","unknown":true}}`},
}

func TestTerraformResultRefinements(t *testing.T) {
	for i, c := range tfRefineInputs {
		got := evalAnswer(t, "eval", c.input, c.vars)
		if got != tfRefineAnswers[i] {
			t.Errorf("%s with %s:\n got %s\nwant %s", c.input, c.vars, got, tfRefineAnswers[i])
		}
	}
}
