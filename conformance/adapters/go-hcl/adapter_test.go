package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// Every fn:<name> capability names a registered function.
func TestCapabilitiesAreRegistered(t *testing.T) {
	for _, name := range terraformSemanticsFunctions() {
		if _, ok := functionTable[name]; !ok {
			t.Errorf("fn:%s is declared but %q is not registered", name, name)
		}
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
