// SPDX-License-Identifier: MPL-2.0

//go:build pn

// What the tests expect where the profiles differ: PN (see
// profile_p14_test.go).
package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// nestedSplatAnswer: newer HCL reports the nested splat of mixed element
// types as an error instead of panicking.
const nestedSplatAnswer = `{"seq":2,"diagnostics":[{"severity":"error","phase":"eval",` +
	`"summary":"Invalid nested splat expressions","detail":"The second level of splat expression produced elements of different types, so it isn't possible to construct a valid list to represent the top-level result.\n\nConsider using a for expression instead, to produce a tuple-typed result which can therefore have non-homogenous element types.",` +
	`"subject":{"start":{"byte":18,"line":1,"column":19},"end":{"byte":24,"line":1,"column":25}},` +
	`"context":{"start":{"byte":0,"line":1,"column":1},"end":{"byte":24,"line":1,"column":25}}}]}`

// consoleTypeAnswers: newer HCL keeps the marks of both results of a
// conditional, so a null or unknown type() result through one still
// carries the TypeType mark: the console cannot print it (the adapter
// answers errored), and inside a collection it is "Invalid use of type
// function".
var consoleTypeAnswers = map[string]string{
	`false ? type(1) : null`:                          consoleTypeNotPrintable,
	`true ? null : type(1)`:                           consoleTypeNotPrintable,
	`dyn ? type(1) : null`:                            consoleTypeNotPrintable,
	`sensitive(false ? type(1) : null)`:               consoleTypeNotPrintable,
	`[false ? type(1) : null, 1]`:                     consoleTypeInvalidUse,
	`{b = tolist([dyn ? type(1) : null]), "<a>" = 1}`: consoleTypeInvalidUse,
}

const (
	consoleTypeNotPrintable = `{"errored":true,"message":"the console cannot print a null or unknown type() result"}`
	consoleTypeInvalidUse   = `{"diagnostics":[{"severity":"error","phase":"eval","summary":"Invalid use of type function","detail":"The console-only \"type\" function cannot be used as part of an expression."}]}`
)

// refinementAnswers: cty 1.18 keeps a variable's refinements and decides
// with them; a refinement the type cannot have is refused.
var refinementAnswers = []string{
	`{"value":{"type":"string","unknown":true,"refinements":{"not_null":true,"string_prefix":"ab"}}}`,
	`{"value":{"type":"bool","v":false}}`,
	`{"value":{"type":["list","bool"],"unknown":true,"refinements":{"length_lower":1,"length_upper":3}}}`,
	`{"errored":true,"message":"malformed variable: variables.n: invalid refinements for \"number\": cannot refine string prefix for a cty.Number value"}`,
	`{"errored":true,"message":"malformed variable: variables.n: a number bound and its \"_inclusive\" flag go together"}`,
}

// tfRefineAnswers: Terraform's own functions refine their unknown results
// not null (but not strcontains), and startswith reads a known prefix.
var tfRefineAnswers = []string{
	`{"value":{"type":"string","unknown":true,"refinements":{"not_null":true}}}`,
	`{"value":{"type":"bool","v":true}}`,
	`{"value":{"type":"bool","v":false}}`,
	`{"value":{"type":"number","unknown":true,"refinements":{"not_null":true}}}`,
	`{"value":{"type":"bool","unknown":true}}`,
}

// openTofuOwnCount: the functions only OpenTofu's table has under PN, the
// three of P14 and the twelve assume* functions (tf_opentofu_pn.go).
const openTofuOwnCount = 15

// OpenTofu's assume* functions: in OpenTofu's table only, declared, and
// failing as OpenTofu does where cty's RefinementBuilder refuses.
func TestOpenTofuAssume(t *testing.T) {
	if len(openTofuAssumeFunctions) != 12 {
		t.Errorf("%d assume* functions", len(openTofuAssumeFunctions))
	}
	caps := " " + strings.Join(capabilities(), " ") + " "
	for name := range openTofuAssumeFunctions {
		if _, ok := functionsForFlavor(false, false)[name]; ok {
			t.Errorf("%s is in Terraform's table", name)
		}
		if _, ok := functionsForFlavor(true, true)["core::"+name]; !ok {
			t.Errorf("core::%s is not in OpenTofu's console table", name)
		}
		if !strings.Contains(caps, " fn:"+name+" ") {
			t.Errorf("fn:%s is not declared", name)
		}
	}
	notUpheld := `Invalid value for \"value\" parameter: assumption was not upheld.`
	for _, tc := range []struct{ input, want string }{
		{`assumenotnull(u)`, `"value":{"type":"string","unknown":true,"refinements":{"not_null":true}}`},
		{`assumenotnull(tostring(null))`, notUpheld},
		{`assumenotnull(null)`, `consider using the \\\"convert\\\" function`},
		{`assumestringprefix(u, "ami-")`, `"refinements":{"string_prefix":"ami-"}`},
		{`assumestringprefix("abd", "abc")`, `"value":{"type":"string","v":"abd"}`},
		{`assumestringprefix(assumestringprefix(u, "a-"), "b-")`, notUpheld},
		{`assumelistlength(tolist([u]), 1, 1)`, `"value":{"type":["list","string"],"v":[{"unknown":true}]}`},
		{`assumelistlengthmax(["a", "b"], 1)`, notUpheld},
		{`assumesetlengthmax(toset(["a", u, "c"]), 1)`, `"value":{"type":["set","string"]`},
		{`assumemaplengthmin({a = 1}, 1.5)`, `Invalid value for \"value\" parameter: must be a whole number between 0 and 9223372036854775807.`},
		{`assumeequal(u, "x")`, `"value":{"type":"string","v":"x"}`},
		{`assumeequal(sensitive("x"), "x")`, `"value":{"type":"string","v":"x"}}`},
		{`assumeequal("a", 1)`, `actual value type string does not match assumed value type number.`},
		{`assumeequal(1, 2)`, `the actual value does not match the assumed value.`},
	} {
		in, _ := json.Marshal(tc.input)
		line := `{"cmd":"run","seq":1,"case":{"id":"X","name":"x","mode":"expression","flavor":"opentofu",` +
			`"input":` + string(in) + `,"variables":{"u":{"type":"string","unknown":true}}}}`
		answer, _ := handleLine([]byte(line))
		out, _ := json.Marshal(answer)
		if !strings.Contains(string(out), tc.want) {
			t.Errorf("%s: %s, want %s", tc.input, out, tc.want)
		}
	}
}
