// SPDX-License-Identifier: MPL-2.0
package main

import (
	"errors"
	"math"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
)

// Terraform's own log and pow (Terraform's internal/lang/funcs/number.go
// on its main branch). They compute what cty 1.12.1's LogFunc and PowFunc
// compute, in float64 (math.Log(num) / math.Log(base), math.Pow), but a
// NaN result is the call error "result is not a number" where cty's
// functions hand the NaN to cty.NumberFloatVal, which panics (and cty's
// function package then reports the panic).

// float64Args converts the two number arguments to float64 as gocty does:
// the nearest float64; infinities stay infinities, but a finite number
// beyond float64's range is an error ("value must be between ...").
func float64Args(args []cty.Value) (a, b float64, err error) {
	if err = gocty.FromCtyValue(args[0], &a); err != nil {
		return 0, 0, err
	}
	if err = gocty.FromCtyValue(args[1], &b); err != nil {
		return 0, 0, err
	}
	return a, b, nil
}

// errNotANumber is log's and pow's error for a NaN result.
var errNotANumber = errors.New("result is not a number")

// numberResult is a float64 result, or errNotANumber for NaN.
func numberResult(r float64) (cty.Value, error) {
	if math.IsNaN(r) {
		return cty.UnknownVal(cty.Number), errNotANumber
	}
	return cty.NumberFloatVal(r), nil
}

// tfLogFunc is Terraform's log(num, base).
var tfLogFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "num", Type: cty.Number},
		{Name: "base", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		num, base, err := float64Args(args)
		if err != nil {
			return cty.UnknownVal(cty.Number), err
		}
		return numberResult(math.Log(num) / math.Log(base))
	},
})

// tfPowFunc is Terraform's pow(num, power).
var tfPowFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "num", Type: cty.Number},
		{Name: "power", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		num, power, err := float64Args(args)
		if err != nil {
			return cty.UnknownVal(cty.Number), err
		}
		return numberResult(math.Pow(num, power))
	},
})
