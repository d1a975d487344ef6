// SPDX-License-Identifier: MPL-2.0
package main

import (
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// Conversion requests (conformance/README.md, "Conversion requests"): the
// case's input is evaluated as for "eval", then its value is converted with
// cty's convert package to the type "convert_to", in mode "convert_mode".

// conversionSummary is the summary of the one diagnostic a failed
// conversion gives. Upstream has no diagnostic of its own for a bare
// conversion (HCL wraps conversion errors in the summary of whatever
// construct converted); categories.json maps it to eval.conversion.
const conversionSummary = "Invalid conversion"

// conversionRequest is what a convert request asks for.
type conversionRequest struct {
	want   cty.Type
	unsafe bool
}

// decodeConversionRequest reads "convert_to" (cty's JSON type syntax,
// required; a type constraint, so object types may have optional
// attributes) and "convert_mode" ("unsafe", the default, or "safe").
func decodeConversionRequest(c *caseRequest) (*conversionRequest, error) {
	if len(c.ConvertTo) == 0 || string(c.ConvertTo) == "null" {
		return nil, errors.New(`a "convert" request needs "convert_to", a type`)
	}
	want, err := ctyjson.UnmarshalType(c.ConvertTo)
	if err != nil {
		return nil, fmt.Errorf("convert_to: invalid type %s: %v", abbreviate(c.ConvertTo), err)
	}
	req := &conversionRequest{want: want, unsafe: true}
	if c.ConvertMode != nil {
		switch *c.ConvertMode {
		case "unsafe":
		case "safe":
			req.unsafe = false
		default:
			return nil, fmt.Errorf(`convert_mode must be "unsafe" or "safe", not %q`, *c.ConvertMode)
		}
	}
	return req, nil
}

// apply converts v as convert.Convert does (a value already of the wanted
// type is returned as it is; otherwise the conversion of
// GetConversionUnsafe, or of GetConversion in safe mode, and when there is
// none, MismatchMessage's text). A failure is an error diagnostic whose
// detail is cty's message and whose subject is the expression's range.
func (r *conversionRequest) apply(v cty.Value, rng hcl.Range) (cty.Value, *diagJSON) {
	out, err := r.convert(v)
	if err == nil {
		return out, nil
	}
	return cty.NilVal, &diagJSON{
		Severity: "error",
		Phase:    "eval",
		Summary:  conversionSummary,
		Detail:   err.Error(),
		Subject:  encodeRange(&rng),
	}
}

func (r *conversionRequest) convert(v cty.Value) (cty.Value, error) {
	if r.unsafe {
		return convert.Convert(v, r.want)
	}
	if v.Type().Equals(r.want.WithoutOptionalAttributesDeep()) {
		return v, nil
	}
	conv := convert.GetConversion(v.Type(), r.want)
	if conv == nil {
		return cty.NilVal, errors.New(convert.MismatchMessage(v.Type(), r.want))
	}
	return conv(v)
}
