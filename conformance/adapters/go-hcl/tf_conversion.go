// SPDX-License-Identifier: MPL-2.0
package main

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// Terraform's own conversion functions (Terraform's
// internal/lang/funcs/conversion.go on its main branch): the to* family,
// convert and the console-only type. ephemeralasnull, which is in the same
// file upstream, is in tf_sensitive.go.

// tfToFunc is Terraform's MakeToFunc: the function that converts its one
// argument to want (a type constraint: list(any) and the like unify the
// elements of a tuple). Unlike cty's own MakeToFunc, it takes the argument
// as it is (marked, unknown, null, of unknown type) and does the checks
// itself, with messages meant for an explicit conversion:
//
//   - type check: an argument already of type want passes; otherwise
//     there must be a conversion (cty's unsafe one). No conversion is an
//     argument error: for a tuple to a tuple type or an object to an
//     object type, "incompatible tuple/object type for conversion: " and
//     cty's mismatch message; otherwise "cannot convert <got> to <want>".
//   - an unknown argument gives an unknown of the result type, with the
//     argument's top-level marks.
//   - otherwise cty's Convert (marks go through it as cty moves them). A
//     failure is an argument error: if the argument has a sensitive mark
//     anywhere, "cannot convert this sensitive <type> to <want>"; a string
//     to bool or to number names the string (Go's %q quoting) and says
//     what is allowed; anything else "cannot convert <got> to <want>".
func tfToFunc(want cty.Type) function.Function {
	wantName := want.FriendlyNameForConstraint()
	return function.New(&function.Spec{
		Params: []function.Parameter{{
			Name:             "v",
			Type:             cty.DynamicPseudoType,
			AllowNull:        true,
			AllowMarked:      true,
			AllowDynamicType: true,
			AllowUnknown:     true,
		}},
		Type: func(args []cty.Value) (cty.Type, error) {
			got := args[0].Type()
			if got.Equals(want) || convert.GetConversionUnsafe(got, want) != nil {
				return want, nil
			}
			switch {
			case got.IsTupleType() && want.IsTupleType():
				return cty.NilType, function.NewArgErrorf(0, "incompatible tuple type for conversion: %s", convert.MismatchMessage(got, want))
			case got.IsObjectType() && want.IsObjectType():
				return cty.NilType, function.NewArgErrorf(0, "incompatible object type for conversion: %s", convert.MismatchMessage(got, want))
			}
			return cty.NilType, function.NewArgErrorf(0, "cannot convert %s to %s", got.FriendlyName(), wantName)
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			arg := args[0]
			if !arg.IsKnown() {
				return cty.UnknownVal(retType).WithSameMarks(arg), nil
			}
			out, err := convert.Convert(arg, retType)
			if err == nil {
				return out, nil
			}
			plain, _ := arg.UnmarkDeep()
			got := plain.Type()
			quoted := func() string {
				if plain.IsNull() {
					return "string"
				}
				return strconv.Quote(plain.AsString())
			}
			switch {
			case containsMark(arg, sensitiveMark):
				return cty.NilVal, function.NewArgErrorf(0, "cannot convert this sensitive %s to %s", got.FriendlyName(), wantName)
			case got == cty.String && want == cty.Bool:
				return cty.NilVal, function.NewArgErrorf(0, `cannot convert %s to bool; only the strings "true" or "false" are allowed`, quoted())
			case got == cty.String && want == cty.Number:
				return cty.NilVal, function.NewArgErrorf(0, `cannot convert %s to number; given string must be a decimal representation of a number`, quoted())
			}
			return cty.NilVal, function.NewArgErrorf(0, "cannot convert %s to %s", got.FriendlyName(), wantName)
		},
	})
}

// containsMark reports whether v or anything inside it carries mark.
func containsMark(v cty.Value, mark string) bool {
	found := false
	_ = cty.Walk(v, func(_ cty.Path, inner cty.Value) (bool, error) {
		if inner.HasMark(mark) {
			found = true
		}
		return !found, nil
	})
	return found
}

// typeConstraintArg is what convert's second argument decodes to: a type
// constraint (optional attributes allowed) and its defaults.
type typeConstraintArg struct {
	Type     cty.Type
	Defaults *typeexpr.Defaults
}

// typeConstraintType is the capsule type of convert's second parameter.
// Its extension data gives HCL (hclsyntax's function calls, through
// ext/customdecode) a decoder that reads the argument expression as a type
// constraint with defaults instead of evaluating it:
// typeexpr.TypeConstraintWithDefaults, which HCL 2.14.1 has. Its
// diagnostics (e.g. "Invalid type specification") are the call's, and the
// function then is not called.
var typeConstraintType cty.Type

func init() {
	typeConstraintType = cty.CapsuleWithOps("type_constraint", reflect.TypeOf(typeConstraintArg{}), &cty.CapsuleOps{
		ExtensionData: func(key interface{}) interface{} {
			if key != customdecode.CustomExpressionDecoder {
				return nil
			}
			return customdecode.CustomExpressionDecoderFunc(func(expr hcl.Expression, _ *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
				ty, defaults, diags := typeexpr.TypeConstraintWithDefaults(expr)
				if diags.HasErrors() {
					return cty.NilVal, diags
				}
				return cty.CapsuleVal(typeConstraintType, &typeConstraintArg{Type: ty, Defaults: defaults}), nil
			})
		},
	})
	tfConvertFunc = makeConvertFunc()
}

// tfConvertFunc is Terraform's convert(value, type): value converted to the
// type constraint written as the second argument (a type expression, not a
// value), then the constraint's optional(type, default) defaults applied
// (HCL 2.14.1's Defaults.Apply) — Terraform's order, convert first. The
// result type is the constraint without optional attributes. value may be
// null or of unknown type, not unknown (cty then gives an unknown result,
// and in 1.12.1 drops its marks) and not marked (cty takes its marks off
// everywhere and puts them all on the result). A failed conversion is an
// argument error on value with cty's message.
var tfConvertFunc function.Function

func makeConvertFunc() function.Function {
	constraintOf := func(v cty.Value) *typeConstraintArg {
		return v.EncapsulatedValue().(*typeConstraintArg)
	}
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "value", Type: cty.DynamicPseudoType, AllowNull: true, AllowDynamicType: true},
			{Name: "type", Type: typeConstraintType},
		},
		Type: func(args []cty.Value) (cty.Type, error) {
			return constraintOf(args[1]).Type.WithoutOptionalAttributesDeep(), nil
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			c := constraintOf(args[1])
			out, err := convert.Convert(args[0], c.Type)
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			if c.Defaults != nil {
				out = c.Defaults.Apply(out)
			}
			return out, nil
		},
	})
}

// typeTypeMark is the mark Terraform puts on type's result, so that the
// console can tell a type() result from any other value.
const typeTypeMark = "TypeType"

// typeType is the capsule type of type's result: a cty.Type.
var typeType = cty.Capsule("type", reflect.TypeOf(cty.Type{}))

// tfTypeFunc is Terraform's type(value), which Terraform registers only in
// `terraform console`: the argument's type, as a capsule marked TypeType.
// The argument may be unknown, null or of unknown type; its marks are
// taken off and put on the result (cty's rule for a parameter that does
// not allow marks). Only the console request registers it (eval.go), and
// consoleResult shows what the console prints of its result.
var tfTypeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowDynamicType: true,
		AllowUnknown:     true,
		AllowNull:        true,
	}},
	Type: function.StaticReturnType(typeType),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		ty := args[0].Type()
		return cty.CapsuleVal(typeType, &ty).Mark(typeTypeMark), nil
	},
})

// consoleResult is what `terraform console` makes of a result (Terraform's
// internal/repl/session.go): a value with a TypeType mark anywhere is
// either exactly a type() result, which the console prints as a type, or
// the error "Invalid use of type function". The adapter answers a type()
// result as the capsule value without its marks, which encodeTypedValue
// writes as a value of type "type" holding the printed type
// (consoleTypeString); any other value is answered as it is (the
// console's own printing of values is not reproduced). A marked null or
// unknown capsule, which the console crashes on, is an error of the
// adapter (the answer errored).
func consoleResult(v cty.Value) (cty.Value, *diagJSON, error) {
	if !containsMark(v, typeTypeMark) {
		return v, nil, nil
	}
	plain, _ := v.UnmarkDeep()
	if !plain.Type().Equals(typeType) {
		return cty.NilVal, &diagJSON{
			Severity: "error",
			Phase:    "eval",
			Summary:  "Invalid use of type function",
			Detail:   `The console-only "type" function cannot be used as part of an expression.`,
		}, nil
	}
	if !plain.IsKnown() || plain.IsNull() {
		return cty.NilVal, nil, fmt.Errorf("the console cannot print a null or unknown type() result")
	}
	return plain, nil, nil
}

// consoleTypeString is how the console prints a type: type-expression
// syntax, object attributes sorted, one attribute or tuple element per
// line with a trailing comma and four spaces of indentation per level; a
// list, set or map of an object or tuple puts its element on a line of its
// own, one level deeper. Primitive types, "dynamic" and capsules print as
// their friendly names ("string", "dynamic", "type").
func consoleTypeString(ty cty.Type) string {
	var b strings.Builder
	writeConsoleType(&b, ty, 0)
	return b.String()
}

func writeConsoleType(b *strings.Builder, ty cty.Type, level int) {
	pad := func(l int) string { return strings.Repeat("    ", l) }
	switch {
	case ty == cty.NilType:
		b.WriteString("nil")
	case ty.IsObjectType():
		attrs := ty.AttributeTypes()
		if len(attrs) == 0 {
			b.WriteString("object({})")
			return
		}
		names := make([]string, 0, len(attrs))
		for n := range attrs {
			names = append(names, n)
		}
		sort.Strings(names)
		b.WriteString("object({\n")
		for _, n := range names {
			fmt.Fprintf(b, "%s%s: ", pad(level+1), n)
			writeConsoleType(b, attrs[n], level+1)
			b.WriteString(",\n")
		}
		b.WriteString(pad(level) + "})")
	case ty.IsTupleType():
		elems := ty.TupleElementTypes()
		if len(elems) == 0 {
			b.WriteString("tuple([])")
			return
		}
		b.WriteString("tuple([\n")
		for _, e := range elems {
			b.WriteString(pad(level + 1))
			writeConsoleType(b, e, level+1)
			b.WriteString(",\n")
		}
		b.WriteString(pad(level) + "])")
	case ty.IsListType() || ty.IsSetType() || ty.IsMapType():
		kind := "list("
		if ty.IsSetType() {
			kind = "set("
		} else if ty.IsMapType() {
			kind = "map("
		}
		b.WriteString(kind)
		ety := ty.ElementType()
		if ety.IsObjectType() || ety.IsTupleType() {
			b.WriteString("\n" + pad(level+1))
			writeConsoleType(b, ety, level+1)
			b.WriteString(",\n" + pad(level))
		} else {
			writeConsoleType(b, ety, level)
		}
		b.WriteString(")")
	default:
		b.WriteString(ty.FriendlyName())
	}
}
