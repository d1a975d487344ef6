// SPDX-License-Identifier: MPL-2.0
package main

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Terraform's functions on marks (Terraform's internal/lang/funcs/
// sensitive.go and, for ephemeralasnull, conversion.go with
// internal/lang/ephemeral on its main branch): sensitive, nonsensitive,
// issensitive and ephemeralasnull.
//
// Terraform's marks are values of its own type; the adapter's are the
// strings "sensitive" and "ephemeral" (values.go), which changes nothing
// but their names. Each function takes any value: unknown, null, marked,
// of unknown type.

// ephemeralMark is Terraform's ephemeral mark as the adapter writes marks.
const ephemeralMark = "ephemeral"

// markParam is the one parameter of the mark functions: anything at all,
// marks included.
var markParam = []function.Parameter{{
	Name:             "value",
	Type:             cty.DynamicPseudoType,
	AllowUnknown:     true,
	AllowNull:        true,
	AllowMarked:      true,
	AllowDynamicType: true,
}}

// sameTypeAsArgument is the return type of a function that only changes
// marks.
func sameTypeAsArgument(args []cty.Value) (cty.Type, error) {
	return args[0].Type(), nil
}

// tfSensitiveFunc is Terraform's sensitive(value): the value with the
// sensitive mark added at its top level (marks inside are kept).
var tfSensitiveFunc = function.New(&function.Spec{
	Params: markParam,
	Type:   sameTypeAsArgument,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return args[0].Mark(sensitiveMark), nil
	},
})

// tfNonsensitiveFunc is Terraform's nonsensitive(value): the value with
// the sensitive mark taken off its top level only (other marks stay, and
// so do sensitive marks inside it). A value that is not sensitive is
// returned as it is: Terraform's main no longer rejects it.
var tfNonsensitiveFunc = function.New(&function.Spec{
	Params: markParam,
	Type:   sameTypeAsArgument,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v, marks := args[0].Unmark()
		delete(marks, sensitiveMark)
		return v.WithMarks(marks), nil
	},
})

// tfIssensitiveFunc is Terraform's issensitive(value): true when the value
// itself carries the sensitive mark (a sensitive element inside does not
// count), otherwise unknown for an unknown value and false for a known
// one. The result carries no marks.
var tfIssensitiveFunc = function.New(&function.Spec{
	Params: markParam,
	Type:   function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v := args[0]
		switch {
		case v.HasMark(sensitiveMark):
			return cty.True, nil
		case !v.IsKnown():
			return cty.UnknownVal(cty.Bool), nil
		}
		return cty.False, nil
	},
})

// tfEphemeralAsNullFunc is Terraform's ephemeralasnull(value): every part
// of the value that carries the ephemeral mark, the value itself included,
// is replaced by a null of its type (an unknown of its type when it is
// unknown) that keeps its other marks. Parts are visited with cty's
// Transform, innermost first, as Terraform does; cty 1.12.1's Transform
// rebuilds every list, set, tuple, map and object it goes through with the
// container's marks, and leaves null, unknown and empty ones as they are.
var tfEphemeralAsNullFunc = function.New(&function.Spec{
	Params: markParam,
	Type:   sameTypeAsArgument,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		out, err := cty.Transform(args[0], func(_ cty.Path, v cty.Value) (cty.Value, error) {
			if !v.HasMark(ephemeralMark) {
				return v, nil
			}
			_, marks := v.Unmark()
			delete(marks, ephemeralMark)
			if !v.IsKnown() {
				return cty.UnknownVal(v.Type()).WithMarks(marks), nil
			}
			return cty.NullVal(v.Type()).WithMarks(marks), nil
		})
		return out, err
	},
})
