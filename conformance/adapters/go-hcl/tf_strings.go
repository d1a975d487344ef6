// SPDX-License-Identifier: MPL-2.0
package main

import (
	"regexp"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Terraform's own string functions (Terraform's internal/lang/funcs/string.go
// on its main branch): startswith, endswith, strcontains and replace.
// templatestring is in tf_template.go.
//
// Terraform's versions also declare a result refinement (never null): the
// PN build adds it (tf_refine_pn.go); cty 1.12.1 has no refinements, so P14
// has nothing of it. The parameter names are Terraform's, because HCL puts
// them in its argument error messages.

// tfStartsWithFunc is Terraform's startswith(str, prefix): whether str
// begins with prefix, byte for byte. str may be unknown: the empty prefix
// is then true, and so is a prefix that the known beginning of str
// (knownStringPrefix, a refinement) starts with; a prefix no longer than
// that known beginning and not at its start is false; anything else is an
// unknown bool. In P14 (cty 1.12.1, no refinements) no unknown string has
// a known beginning.
var tfStartsWithFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "str", Type: cty.String, AllowUnknown: true},
		{Name: "prefix", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		prefix := args[1].AsString()
		if !args[0].IsKnown() {
			known := knownStringPrefix(args[0])
			switch {
			case strings.HasPrefix(known, prefix): // also the empty prefix
				return cty.True, nil
			case len(known) >= len(prefix):
				return cty.False, nil
			}
			return cty.UnknownVal(cty.Bool), nil
		}
		return cty.BoolVal(strings.HasPrefix(args[0].AsString(), prefix)), nil
	},
})

// tfEndsWithFunc is Terraform's endswith(str, suffix): whether str ends
// with suffix, byte for byte. Unknown arguments give an unknown bool.
var tfEndsWithFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "suffix", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.BoolVal(strings.HasSuffix(args[0].AsString(), args[1].AsString())), nil
	},
})

// tfStrContainsFunc is Terraform's strcontains(str, substr): whether substr
// occurs in str, byte for byte (the empty substr always does).
var tfStrContainsFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "substr", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.BoolVal(strings.Contains(args[0].AsString(), args[1].AsString())), nil
	},
})

// tfReplaceFunc is Terraform's replace(str, substr, replace). A substr of
// at least two bytes that starts and ends with "/" is a Go regular
// expression (the bytes between the slashes): every match is replaced by
// Go's ReplaceAllString, with $1 / ${name} expansion in the replacement,
// and a pattern Go does not compile is a plain call error carrying Go's
// message (not an argument error). Any other substr is literal: every
// non-overlapping occurrence, left to right, as strings.Replace with n = -1
// (an empty substr inserts replace before every UTF-8 sequence and at the
// end).
var tfReplaceFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "substr", Type: cty.String},
		{Name: "replace", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		str, substr, repl := args[0].AsString(), args[1].AsString(), args[2].AsString()
		if n := len(substr); n >= 2 && substr[0] == '/' && substr[n-1] == '/' {
			re, err := regexp.Compile(substr[1 : n-1])
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(re.ReplaceAllString(str, repl)), nil
		}
		return cty.StringVal(strings.Replace(str, substr, repl, -1)), nil
	},
})
