// SPDX-License-Identifier: MPL-2.0

//go:build pn

// The build with the "pn" tag (make reference-pn): the HCL and cty versions
// that current Terraform pins, profile PN. See profile_p14.go; the versions
// must match conformance/profiles.json and tools/pn-fetch.
package main

import (
	"fmt"
	"math"

	"github.com/zclconf/go-cty/cty"
)

const (
	implVersion = "hcl 2.24.0 / cty 1.18.1"
	profileID   = "PN"
	// libraryLine completes the first sentence of the usage text.
	libraryLine = "upstream HCL 2.24.0\nand cty 1.18.1"
)

// profileCapabilities: cty 1.13 and later refine unknown values.
var profileCapabilities = []string{"value.refinements"}

// refinementsOf writes what cty's Value.Range() knows about the unknown v
// beyond its defaults (no bound, no prefix, lengths 0 to MaxInt), or nil
// (conformance/README.md, "Refinements").
func refinementsOf(v cty.Value) *refinements {
	ty := v.Type()
	if ty == cty.DynamicPseudoType {
		return nil
	}
	rng := v.Range()
	r := &refinements{NotNull: rng.DefinitelyNotNull()}
	switch {
	case ty == cty.String:
		r.StringPrefix = rng.StringPrefix()
	case ty == cty.Number:
		if lo, inc := rng.NumberLowerBound(); lo.IsKnown() && (inc || !lo.AsBigFloat().IsInf()) {
			text := numberText(lo.AsBigFloat())
			r.NumberLower, r.NumberLowerInclusive = &text, &inc
		}
		if hi, inc := rng.NumberUpperBound(); hi.IsKnown() && (inc || !hi.AsBigFloat().IsInf()) {
			text := numberText(hi.AsBigFloat())
			r.NumberUpper, r.NumberUpperInclusive = &text, &inc
		}
	case ty.IsCollectionType():
		r.LengthLower = rng.LengthLowerBound()
		if hi := rng.LengthUpperBound(); hi != math.MaxInt {
			r.LengthUpper = &hi
		}
	}
	if *r == (refinements{}) {
		return nil
	}
	return r
}

// refineUnknown applies a variable's refinements to the unknown val with
// cty's RefinementBuilder; a refinement cty refuses (it panics: a prefix
// on a number, not_null on dynamic, inconsistent bounds) is an error.
// Refinements that pin the value make cty return it known.
func refineUnknown(val cty.Value, r *refinements, path string) (ret cty.Value, err error) {
	defer func() {
		if p := recover(); p != nil {
			ret, err = cty.NilVal, fmt.Errorf("%s: invalid refinements for %s: %v", path, typeString(val.Type()), p)
		}
	}()
	if val.Type() == cty.DynamicPseudoType && *r != (refinements{}) {
		return cty.NilVal, fmt.Errorf("%s: an unknown value of type dynamic cannot be refined", path)
	}
	b := val.Refine()
	if r.NotNull {
		b = b.NotNull()
	}
	if r.StringPrefix != "" {
		b = b.StringPrefixFull(r.StringPrefix)
	}
	for _, bound := range []struct {
		text  *string
		inc   *bool
		upper bool
	}{{r.NumberLower, r.NumberLowerInclusive, false}, {r.NumberUpper, r.NumberUpperInclusive, true}} {
		if bound.text == nil {
			continue
		}
		n, err := decodeNumber(*bound.text)
		if err != nil {
			return cty.NilVal, fmt.Errorf("%s: invalid number bound %q: %v", path, *bound.text, err)
		}
		if bound.upper {
			b = b.NumberRangeUpperBound(n, *bound.inc)
		} else {
			b = b.NumberRangeLowerBound(n, *bound.inc)
		}
	}
	if r.LengthLower != 0 {
		b = b.CollectionLengthLowerBound(r.LengthLower)
	}
	if r.LengthUpper != nil {
		b = b.CollectionLengthUpperBound(*r.LengthUpper)
	}
	return b.NewValue(), nil
}
