// SPDX-License-Identifier: MPL-2.0

//go:build pn

// What the tests expect where the profiles differ: PN (see
// profile_p14_test.go).
package main

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
