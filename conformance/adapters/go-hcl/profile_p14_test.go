// SPDX-License-Identifier: MPL-2.0

//go:build !pn

// What the tests expect where the profiles differ: P14 (see
// profile_pn_test.go).
package main

// nestedSplatAnswer is the session test's answer to
// tolist(["a", null])[*][*]; empty: HCL 2.14.1 panics, and the adapter
// answers errored.
const nestedSplatAnswer = ""

// consoleTypeAnswers replaces TestConsoleType's answers by input; none
// for P14.
var consoleTypeAnswers = map[string]string{}

// refinementAnswers: cty 1.12.1 has no refinements; a variable that has
// some is refused.
var refinementAnswers = []string{
	`{"errored":true,"message":"malformed variable: variables.s: \"refinements\" need profile PN (cty 1.13 and later)"}`,
	`{"errored":true,"message":"malformed variable: variables.n: \"refinements\" need profile PN (cty 1.13 and later)"}`,
	`{"errored":true,"message":"malformed variable: variables.l: \"refinements\" need profile PN (cty 1.13 and later)"}`,
	`{"errored":true,"message":"malformed variable: variables.n: \"refinements\" need profile PN (cty 1.13 and later)"}`,
	`{"errored":true,"message":"malformed variable: variables.n: a number bound and its \"_inclusive\" flag go together"}`,
}

// tfRefineAnswers: no refinements, so plain unknowns, and startswith
// decides only the empty prefix.
var tfRefineAnswers = []string{
	`{"value":{"type":"string","unknown":true}}`,
	`{"value":{"type":"bool","unknown":true}}`,
	`{"value":{"type":"bool","unknown":true}}`,
	`{"value":{"type":"number","unknown":true}}`,
	`{"value":{"type":"bool","unknown":true}}`,
}

// openTofuOwnCount: the functions only OpenTofu's table has under P14,
// base64gunzip, cidrcontains and urldecode.
const openTofuOwnCount = 3
