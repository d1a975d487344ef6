// SPDX-License-Identifier: MPL-2.0

//go:build pn

// OpenTofu's assume* functions, which only the PN build has: they set
// refinements of unknown values, and refinements exist from cty 1.13 on.
// OpenTofu added them in 1.13 (opentofu/opentofu#4449, internal/lang/funcs/
// assume.go), built on cty v1.19.0 and OpenTofu's own fork of HCL 2.20;
// here they run on PN's cty 1.18.1 and HCL 2.24.0, whose RefinementBuilder
// behaves alike for everything these functions ask of it. The P14 build
// (cty 1.12.1, no refinements) has none of them, as no OpenTofu on cty
// 1.12 had them: with flavor "opentofu" under P14 a call is HCL's "Call to
// unknown function" (spec/functions-opentofu.md [fn.assume.profile]).
//
// Written here from OpenTofu's behaviour (what each takes, its errors and
// their argument, how marks flow). The rule every one of them shares:
// cty's RefinementBuilder panics when a refinement contradicts the value
// (a known value outside it, a null refined not null, a prefix that
// disagrees with the one known, bounds that cross); OpenTofu recovers from
// any such panic and reports "assumption was not upheld" on the first
// argument, and so does tofuRefine.
package main

import (
	"math"
	"math/big"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

func init() {
	for name, fn := range openTofuAssumeFunctions {
		openTofuFunctions[name] = fn
	}
}

// openTofuAssumeFunctions are added to openTofuFunctions (tf_opentofu.go)
// in this build only.
var openTofuAssumeFunctions = map[string]function.Function{
	"assumeequal":         tofuAssumeEqualFunc,
	"assumenotnull":       tofuAssumeNotNullFunc,
	"assumestringprefix":  tofuAssumeStringPrefixFunc,
	"assumelistlength":    tofuLengthBetween(cty.List),
	"assumelistlengthmin": tofuLengthBound(cty.List, false),
	"assumelistlengthmax": tofuLengthBound(cty.List, true),
	"assumesetlength":     tofuLengthBetween(cty.Set),
	"assumesetlengthmin":  tofuLengthBound(cty.Set, false),
	"assumesetlengthmax":  tofuLengthBound(cty.Set, true),
	"assumemaplength":     tofuLengthBetween(cty.Map),
	"assumemaplengthmin":  tofuLengthBound(cty.Map, false),
	"assumemaplengthmax":  tofuLengthBound(cty.Map, true),
}

// errNotUpheld is the error of every refinement the value contradicts.
const errNotUpheld = "assumption was not upheld"

// tofuAnyParam is a parameter that takes anything, marks included.
func tofuAnyParam(name string) function.Parameter {
	return function.Parameter{
		Name: name, Type: cty.DynamicPseudoType,
		AllowNull: true, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true,
	}
}

// tofuAssumeEqualFunc is assumeequal(actual_value, expected_value): the
// actual value converted to the expected one's type (an error on the first
// argument naming both types when it does not convert); an error on the
// first argument when the two are certainly unequal (cty's Equals known
// false, refinements included); otherwise the expected value, with the
// marks the converted actual value has at each path put on it at the same
// path, less "sensitive" and "ephemeral". The result type is the expected
// value's type.
var tofuAssumeEqualFunc = function.New(&function.Spec{
	Params: []function.Parameter{tofuAnyParam("actual_value"), tofuAnyParam("expected_value")},
	Type: func(args []cty.Value) (cty.Type, error) {
		return args[1].Type(), nil
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		actual, expected := args[0], args[1]
		converted, err := convert.Convert(actual, expected.Type())
		if err != nil {
			return cty.DynamicVal, function.NewArgErrorf(0, "actual value type %s does not match assumed value type %s",
				actual.Type().FriendlyName(), expected.Type().FriendlyName())
		}
		if eq, _ := converted.Equals(expected).Unmark(); eq.IsKnown() && eq.False() {
			return cty.DynamicVal, function.NewArgErrorf(0, "the actual value does not match the assumed value")
		}
		_, found := converted.UnmarkDeepWithPaths()
		var kept []cty.PathValueMarks
		for _, pm := range found {
			marks := cty.ValueMarks{}
			for m := range pm.Marks {
				if m != sensitiveMark && m != ephemeralMark {
					marks[m] = struct{}{}
				}
			}
			if len(marks) > 0 {
				kept = append(kept, cty.PathValueMarks{Path: pm.Path, Marks: marks})
			}
		}
		return expected.MarkWithPaths(kept), nil
	},
})

// tofuRefine applies refine to v with cty's RefineWith; a panic of the
// builder (the refinement contradicts v) is ok == false.
func tofuRefine(v cty.Value, refine func(*cty.RefinementBuilder) *cty.RefinementBuilder) (out cty.Value, ok bool) {
	defer func() {
		if recover() != nil {
			out, ok = cty.DynamicVal, false
		}
	}()
	return v.RefineWith(refine), true
}

// tofuRefineSpec is the spec of a function whose first parameter "value"
// of type ty (null, unknown and dynamic allowed; marks handled by cty's
// machinery, so they stay on the result) is refined with what refine makes
// of the other arguments (params), after check has accepted them.
func tofuRefineSpec(ty cty.Type, check func(v cty.Value, rest []cty.Value) error,
	refine func(rest []cty.Value, b *cty.RefinementBuilder) *cty.RefinementBuilder,
	params ...function.Parameter) *function.Spec {
	return &function.Spec{
		Params: append([]function.Parameter{{
			Name: "value", Type: ty, AllowNull: true, AllowUnknown: true, AllowDynamicType: true,
		}}, params...),
		Type: function.StaticReturnType(ty),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			rest := args[1:]
			if check != nil {
				if err := check(args[0], rest); err != nil {
					return cty.UnknownVal(ty), err
				}
			}
			out, ok := tofuRefine(args[0], func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
				return refine(rest, b)
			})
			if !ok {
				return cty.UnknownVal(ty), function.NewArgErrorf(0, errNotUpheld)
			}
			return out, nil
		},
	}
}

// tofuAssumeNotNullFunc is assumenotnull(value): value refined not null. A
// value of type dynamic (an untyped null or unknown) is refused first, on
// the first argument, with a message whose quotes around "convert" are
// written with backslashes.
var tofuAssumeNotNullFunc = function.New(tofuRefineSpec(cty.DynamicPseudoType,
	func(v cty.Value, _ []cty.Value) error {
		if v.Type() == cty.DynamicPseudoType {
			return function.NewArgErrorf(0, `given value must have a known type; consider using the \"convert\" function to specify a type to assume`)
		}
		return nil
	},
	func(_ []cty.Value, b *cty.RefinementBuilder) *cty.RefinementBuilder { return b.NotNull() },
))

// tofuAssumeStringPrefixFunc is assumestringprefix(value, prefix): value
// refined with the prefix as cty's StringPrefix takes it (its safe part:
// the last character is dropped unless nothing can combine with it). A
// known string is only checked: over the shorter of the two lengths, so a
// known string shorter than the prefix passes when it starts the prefix; a
// null string passes.
var tofuAssumeStringPrefixFunc = function.New(tofuRefineSpec(cty.String, nil,
	func(rest []cty.Value, b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.StringPrefix(rest[0].AsString())
	},
	function.Parameter{Name: "prefix", Type: cty.String},
))

// tofuWholeBound is the check of a length bound: a whole number that Go's
// big.Float.Int64 gives exactly and below math.MaxInt. Negative numbers
// pass (the refinement then decides). The error goes on argument index.
func tofuWholeBound(n cty.Value, index int) error {
	if i, acc := n.AsBigFloat().Int64(); acc != big.Exact || i >= math.MaxInt {
		return function.NewArgErrorf(index, "must be a whole number between 0 and %d", math.MaxInt)
	}
	return nil
}

// tofuBound is a bound already checked by tofuWholeBound.
func tofuBound(n cty.Value) int {
	i, _ := n.AsBigFloat().Int64()
	return int(i)
}

// tofuLengthBetween is assume<kind>length(value, min_length, max_length):
// value, of kind(any), refined with the lower then the upper length bound.
// A bound that is not whole is an error on its own argument (1 or 2).
func tofuLengthBetween(kind func(cty.Type) cty.Type) function.Function {
	return function.New(tofuRefineSpec(kind(cty.DynamicPseudoType),
		func(_ cty.Value, rest []cty.Value) error {
			for i, n := range rest {
				if err := tofuWholeBound(n, i+1); err != nil {
					return err
				}
			}
			return nil
		},
		func(rest []cty.Value, b *cty.RefinementBuilder) *cty.RefinementBuilder {
			return b.CollectionLengthLowerBound(tofuBound(rest[0])).CollectionLengthUpperBound(tofuBound(rest[1]))
		},
		function.Parameter{Name: "min_length", Type: cty.Number},
		function.Parameter{Name: "max_length", Type: cty.Number},
	))
}

// tofuLengthBound is assume<kind>lengthmin(value, min_length) or, with
// upper, assume<kind>lengthmax(value, max_length). OpenTofu reports a bound
// that is not whole on argument 0, the value, not on the bound itself; so
// does this.
func tofuLengthBound(kind func(cty.Type) cty.Type, upper bool) function.Function {
	name := "min_length"
	if upper {
		name = "max_length"
	}
	return function.New(tofuRefineSpec(kind(cty.DynamicPseudoType),
		func(_ cty.Value, rest []cty.Value) error { return tofuWholeBound(rest[0], 0) },
		func(rest []cty.Value, b *cty.RefinementBuilder) *cty.RefinementBuilder {
			if upper {
				return b.CollectionLengthUpperBound(tofuBound(rest[0]))
			}
			return b.CollectionLengthLowerBound(tofuBound(rest[0]))
		},
		function.Parameter{Name: name, Type: cty.Number},
	))
}
