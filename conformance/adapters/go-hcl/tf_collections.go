// SPDX-License-Identifier: MPL-2.0
package main

import (
	"errors"
	"fmt"
	"math/big"
	"sort"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
	"github.com/zclconf/go-cty/cty/gocty"
)

// Terraform's own collection functions (Terraform's
// internal/lang/funcs/collection.go on its main branch): length, alltrue,
// anytrue, coalesce, index, lookup, matchkeys, one, sum, transpose, and
// the removed list and map.
//
// They run on cty 1.12.1's function package, so what belongs to cty
// (argument conversion, the short-circuit of unknown arguments to an
// unknown result, which in cty 1.12.1 drops the argument's marks, the deep
// unmarking of arguments that do not allow marks and the re-marking of the
// result, panics turned into errors) is cty 1.12.1's. Terraform's result
// refinements (never null) need cty 1.13 and do not exist here.

// sensitiveMark is Terraform's sensitive mark as the adapter writes marks:
// the string "sensitive" (values.go).
const sensitiveMark = "sensitive"

// tfLengthFunc is Terraform's length(value): the number of grapheme
// clusters of a string (cty's Strlen, so an unknown string gives an
// unknown number, without marks in cty 1.12.1), the number of elements of
// a list, set or map (cty's Length: unknown when the collection is, and
// for a set with unknown elements), and the number of elements or
// attributes of a tuple or object, taken from the type, so even an unknown
// tuple or object has a known length. An argument of unknown type gives
// an unknown number. The argument's own marks stay on the result. Any
// other type is a call error.
var tfLengthFunc = function.New(&function.Spec{
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowDynamicType: true,
		AllowUnknown:     true,
		AllowMarked:      true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if ty == cty.String || ty == cty.DynamicPseudoType || ty.IsCollectionType() ||
			ty.IsTupleType() || ty.IsObjectType() {
			return cty.Number, nil
		}
		return cty.Number, errors.New("argument must be a string, a collection type, or a structural type")
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v := args[0]
		ty := v.Type()
		switch {
		case ty == cty.DynamicPseudoType:
			return cty.UnknownVal(cty.Number).WithMarks(v.Marks()), nil
		case ty.IsTupleType():
			return cty.NumberIntVal(int64(ty.Length())).WithMarks(v.Marks()), nil
		case ty.IsObjectType():
			return cty.NumberIntVal(int64(len(ty.AttributeTypes()))).WithMarks(v.Marks()), nil
		case ty == cty.String:
			return stdlib.Strlen(v)
		default: // list, set, map: Type let nothing else through
			return v.Length(), nil
		}
	},
})

// tfAllTrueFunc is Terraform's alltrue(list): true when no element is
// false. Elements are visited in order: a null element gives false, an
// unknown one an unknown result, a false one false; the empty list is
// true.
var tfAllTrueFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
	Type:   function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		for it := args[0].ElementIterator(); it.Next(); {
			_, e := it.Element()
			switch {
			case !e.IsKnown():
				return cty.UnknownVal(cty.Bool), nil
			case e.IsNull(), e.False():
				return cty.False, nil
			}
		}
		return cty.True, nil
	},
})

// tfAnyTrueFunc is Terraform's anytrue(list): true as soon as an element is
// true, whatever comes after it; otherwise unknown if an element was
// unknown, else false. Null elements count as false; the empty list is
// false.
var tfAnyTrueFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
	Type:   function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		sawUnknown := false
		for it := args[0].ElementIterator(); it.Next(); {
			_, e := it.Element()
			switch {
			case !e.IsKnown():
				sawUnknown = true
			case !e.IsNull() && e.True():
				return cty.True, nil
			}
		}
		if sawUnknown {
			return cty.UnknownVal(cty.Bool), nil
		}
		return cty.False, nil
	},
})

// tfCoalesceFunc is Terraform's coalesce(vals...): the arguments are
// unified (cty's UnifyUnsafe; no common type is the call error "all
// arguments must have the same type", which zero arguments also give), and
// the first argument, converted to that type, that is neither null nor,
// when the type is string, the empty string is the result. An unknown
// argument met before one is found makes the result unknown; none found
// is a call error.
var tfCoalesceFunc = function.New(&function.Spec{
	VarParam: &function.Parameter{
		Name:             "vals",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowDynamicType: true,
		AllowNull:        true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		types := make([]cty.Type, len(args))
		for i, a := range args {
			types[i] = a.Type()
		}
		ty, _ := convert.UnifyUnsafe(types)
		if ty == cty.NilType {
			return cty.NilType, errors.New("all arguments must have the same type")
		}
		return ty, nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		for _, a := range args {
			v, _ := convert.Convert(a, retType) // the unification vouches for it
			switch {
			case !v.IsKnown():
				return cty.UnknownVal(retType), nil
			case v.IsNull():
				continue
			case retType == cty.String && v.RawEquals(cty.StringVal("")):
				continue
			}
			return v, nil
		}
		return cty.NilVal, errors.New("no non-null, non-empty-string arguments")
	},
})

// tfIndexFunc is Terraform's index(list, value): the position of the first
// element equal to value (cty's Equal; an unknown comparison makes the
// result unknown). The first argument must be a list or tuple (checked
// when the call runs, so an unknown argument of any type gives an unknown
// number); an empty one and a missing value are call errors.
var tfIndexFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "list", Type: cty.DynamicPseudoType},
		{Name: "value", Type: cty.DynamicPseudoType},
	},
	Type: function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		list, want := args[0], args[1]
		if ty := list.Type(); !ty.IsListType() && !ty.IsTupleType() {
			return cty.NilVal, errors.New("argument must be a list or tuple")
		}
		if !list.IsKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		if list.LengthInt() == 0 {
			return cty.NilVal, errors.New("cannot search an empty list")
		}
		for it := list.ElementIterator(); it.Next(); {
			pos, e := it.Element()
			eq, err := stdlib.Equal(e, want)
			if err != nil {
				return cty.NilVal, err
			}
			if !eq.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			if eq.True() {
				return pos, nil
			}
		}
		return cty.NilVal, errors.New("item not found")
	},
})

// tfLookupFunc is Terraform's lookup(inputMap, key[, default]): the
// element or attribute named key. It takes two or three arguments (more is
// a call error). Its marks are its own: the map's and the key's marks go
// on the result (the default keeps its own), and a missing key without a
// default is the call error "lookup failed to find key ...", naming the
// key unless the key is sensitive.
//
// The result type: for an object, the attribute's type, or the default's
// type when the attribute is missing (no attribute and no default is an
// argument error), or unknown type when the key is unknown; for a map, the
// element type, the default having to convert to it.
var tfLookupFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "inputMap", Type: cty.DynamicPseudoType, AllowMarked: true, AllowUnknown: true},
		{Name: "key", Type: cty.String, AllowMarked: true, AllowUnknown: true},
	},
	VarParam: &function.Parameter{
		Name:             "default",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowDynamicType: true,
		AllowNull:        true,
		AllowMarked:      true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if n := len(args); n > 3 {
			return cty.NilType, fmt.Errorf("lookup() takes two or three arguments, got %d", n)
		}
		ty := args[0].Type()
		switch {
		case ty.IsObjectType():
			if !args[1].IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			k, _ := args[1].Unmark()
			key := k.AsString()
			switch {
			case ty.HasAttribute(key):
				return ty.AttributeType(key), nil
			case len(args) == 3:
				return args[2].Type(), nil
			}
			return cty.DynamicPseudoType, function.NewArgErrorf(0, "the given object has no attribute %q", key)
		case ty.IsMapType():
			if len(args) == 3 {
				if _, err := convert.Convert(args[2], ty.ElementType()); err != nil {
					return cty.NilType, function.NewArgErrorf(2, "the default value must have the same type as the map elements")
				}
			}
			return ty.ElementType(), nil
		}
		return cty.NilType, function.NewArgErrorf(0, "lookup() requires a map as the first argument")
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		coll, collMarks := args[0].Unmark()
		key, keyMarks := args[1].Unmark()
		marks := []cty.ValueMarks{collMarks, keyMarks}
		if !coll.IsKnown() || !key.IsKnown() {
			return cty.UnknownVal(retType).WithMarks(marks...), nil
		}
		k := key.AsString()
		if coll.Type().IsObjectType() {
			if coll.Type().HasAttribute(k) {
				return coll.GetAttr(k).WithMarks(marks...), nil
			}
		} else if coll.HasIndex(cty.StringVal(k)) == cty.True {
			return coll.Index(cty.StringVal(k)).WithMarks(marks...), nil
		}
		if len(args) == 3 {
			// The default keeps its own marks, and gets the others.
			def, err := convert.Convert(args[2], retType)
			if err != nil {
				return cty.NilVal, err
			}
			return def.WithMarks(marks...), nil
		}
		shown := fmt.Sprintf("%q", k)
		if _, sensitive := keyMarks[sensitiveMark]; sensitive {
			shown = "(sensitive value)"
		}
		return cty.UnknownVal(cty.DynamicPseudoType), fmt.Errorf("lookup failed to find key %s", shown)
	},
})

// tfMatchkeysFunc is Terraform's matchkeys(values, keys, searchset): the
// elements of values whose key (the element of keys at the same position)
// equals some element of searchset, in order. keys and searchset are
// unified (no common type is a call error); values and keys must have the
// same length; an empty searchset gives an empty list before anything is
// compared; values or keys not wholly known give an unknown list; an
// unknown comparison gives an empty list. The result has values' type.
var tfMatchkeysFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "values", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "keys", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "searchset", Type: cty.List(cty.DynamicPseudoType)},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if ty, _ := convert.UnifyUnsafe([]cty.Type{args[1].Type(), args[2].Type()}); ty == cty.NilType {
			return cty.NilType, errors.New("keys and searchset must be of the same type")
		}
		return args[0].Type(), nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		ety := retType.ElementType()
		values := args[0]
		if !values.IsKnown() {
			return cty.UnknownVal(cty.List(ety)), nil
		}
		if values.LengthInt() != args[1].LengthInt() {
			return cty.ListValEmpty(ety), errors.New("length of keys and values should be equal")
		}
		ty, _ := convert.UnifyUnsafe([]cty.Type{args[1].Type(), args[2].Type()})
		keys, _ := convert.Convert(args[1], ty)
		search, _ := convert.Convert(args[2], ty)
		if search.LengthInt() == 0 {
			return cty.ListValEmpty(ety), nil
		}
		if !values.IsWhollyKnown() || !keys.IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		var picked []cty.Value
		pos := int64(0)
		for it := keys.ElementIterator(); it.Next(); pos++ {
			_, key := it.Element()
			for s := search.ElementIterator(); s.Next(); {
				_, candidate := s.Element()
				eq, err := stdlib.Equal(key, candidate)
				if err != nil {
					return cty.NilVal, err
				}
				if !eq.IsKnown() {
					return cty.ListValEmpty(ety), nil
				}
				if eq.True() {
					picked = append(picked, values.Index(cty.NumberIntVal(pos)))
					break
				}
			}
		}
		if len(picked) == 0 {
			return cty.ListValEmpty(ety), nil
		}
		return cty.ListVal(picked), nil
	},
})

// errOneShape is one's argument error.
const errOneShape = "must be a list, set, or tuple value with either zero or one elements"

// tfOneFunc is Terraform's one(list): the only element of a list, set or
// tuple of one element, a null of the element type for none (of unknown
// type for the empty tuple), an argument error for more (for a tuple,
// already from its type) or any other type. A list or set whose length is
// unknown gives an unknown result.
var tfOneFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		switch {
		case ty.IsListType() || ty.IsSetType():
			return ty.ElementType(), nil
		case ty.IsTupleType() && ty.Length() == 0:
			return cty.DynamicPseudoType, nil
		case ty.IsTupleType() && ty.Length() == 1:
			return ty.TupleElementType(0), nil
		}
		return cty.NilType, function.NewArgErrorf(0, errOneShape)
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		v := args[0]
		if ty := v.Type(); ty.IsTupleType() {
			if ty.Length() == 0 {
				return cty.NullVal(retType), nil
			}
			return v.Index(cty.NumberIntVal(0)), nil
		}
		n := v.Length()
		if !n.IsKnown() {
			return cty.UnknownVal(retType), nil
		}
		var count int
		if err := gocty.FromCtyValue(n, &count); err != nil {
			return cty.NilVal, fmt.Errorf("invalid collection length: %s", err)
		}
		switch count {
		case 0:
			return cty.NullVal(retType), nil
		case 1:
			var only cty.Value
			for it := v.ElementIterator(); it.Next(); {
				_, only = it.Element()
			}
			return only, nil
		}
		return cty.NilVal, function.NewArgErrorf(0, errOneShape)
	},
})

// errSumElements is sum's argument error for an element that is not a
// number.
const errSumElements = "argument must be list, set, or tuple of number values"

// tfSumFunc is Terraform's sum(list). In this order: a value without
// elements to iterate is an argument error, so is an empty one; one that
// is not a list, set or tuple (a map or object) is an argument error naming
// its type; one not wholly known gives an unknown number; then the
// elements are added left to right, each converted to a number (a null or
// an element that does not convert is an argument error); adding opposite
// infinities is the call error "can't compute sum of opposing infinities".
var tfSumFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (ret cty.Value, err error) {
		list := args[0]
		if !list.CanIterateElements() {
			return cty.NilVal, function.NewArgErrorf(0, "cannot sum noniterable")
		}
		if list.LengthInt() == 0 {
			return cty.NilVal, function.NewArgErrorf(0, "cannot sum an empty list")
		}
		elems := list.AsValueSlice()
		if ty := list.Type(); !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() {
			return cty.NilVal, function.NewArgErrorf(0, "argument must be list, set, or tuple. Received %s", ty.FriendlyName())
		}
		if !list.IsWhollyKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		defer func() {
			// big.Float panics on +Inf + -Inf; any other panic is not ours.
			if r := recover(); r != nil {
				if _, nan := r.(big.ErrNaN); !nan {
					panic(r)
				}
				ret, err = cty.NilVal, errors.New("can't compute sum of opposing infinities")
			}
		}()
		var total cty.Value
		for i, e := range elems {
			if e.IsNull() {
				return cty.NilVal, function.NewArgErrorf(0, errSumElements)
			}
			n, err := convert.Convert(e, cty.Number)
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(0, errSumElements)
			}
			if i == 0 {
				total = n
			} else {
				total = total.Add(n)
			}
		}
		return total, nil
	},
})

// tfTransposeFunc is Terraform's transpose(values): a map of lists of
// strings turned inside out, each string of the lists becoming a key whose
// list holds the keys it appeared under, sorted. Not wholly known gives an
// unknown map; a null list or a null string is a call error.
var tfTransposeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "values", Type: cty.Map(cty.List(cty.String))}},
	Type:   function.StaticReturnType(cty.Map(cty.List(cty.String))),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		in := args[0]
		if !in.IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		empty := cty.MapValEmpty(cty.List(cty.String))
		inverted := map[string][]string{}
		for it := in.ElementIterator(); it.Next(); {
			key, list := it.Element()
			if list.IsNull() {
				return empty, errors.New("input must not contain null list")
			}
			for li := list.ElementIterator(); li.Next(); {
				_, s := li.Element()
				if s.IsNull() {
					return empty, errors.New("input list must not contain null string")
				}
				if !s.Type().Equals(cty.String) {
					return empty, errors.New("input must be a map of lists of strings")
				}
				inverted[s.AsString()] = append(inverted[s.AsString()], key.AsString())
			}
		}
		if len(inverted) == 0 {
			return empty, nil
		}
		out := make(map[string]cty.Value, len(inverted))
		for k, froms := range inverted {
			sort.Strings(froms)
			elems := make([]cty.Value, len(froms))
			for i, f := range froms {
				elems[i] = cty.StringVal(f)
			}
			out[k] = cty.ListVal(elems)
		}
		return cty.MapVal(out), nil
	},
})

// removedFunc is a function Terraform removed in v0.12 but still
// registers, so that a call fails with a message saying what to write
// instead: any arguments (unknown, null, of any type) and always the call
// error message, from the type check.
func removedFunc(message string) function.Function {
	return function.New(&function.Spec{
		VarParam: &function.Parameter{
			Name:             "vals",
			Type:             cty.DynamicPseudoType,
			AllowUnknown:     true,
			AllowDynamicType: true,
			AllowNull:        true,
		},
		Type: func([]cty.Value) (cty.Type, error) {
			return cty.DynamicPseudoType, errors.New(message)
		},
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			return cty.DynamicVal, errors.New(message)
		},
	})
}

// tfListFunc and tfMapFunc are Terraform's list and map.
var (
	tfListFunc = removedFunc(`the "list" function was deprecated in Terraform v0.12 and is no longer available; use tolist([ ... ]) syntax to write a literal list`)
	tfMapFunc  = removedFunc(`the "map" function was deprecated in Terraform v0.12 and is no longer available; use tomap({ ... }) syntax to write a literal map`)
)
