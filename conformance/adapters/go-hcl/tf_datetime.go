// SPDX-License-Identifier: MPL-2.0
package main

import (
	"fmt"
	"time"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Terraform's own date and time functions (Terraform's
// internal/lang/funcs/datetime.go on its main branch). The timestamps are
// parsed by Go 1.19's time package, the reference's Go.

// tfTimeCmpFunc is Terraform's timecmp(timestamp_a, timestamp_b): -1, 0 or
// 1 as the instant of a is before, the same as or after that of b (UTC
// offsets taken into account). Each must be an RFC 3339 timestamp as Go's
// time.Parse(time.RFC3339) reads it; one that is not is an argument error
// on that argument (parseRFC3339's message).
var tfTimeCmpFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "timestamp_a", Type: cty.String},
		{Name: "timestamp_b", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var ts [2]time.Time
		for i := range ts {
			t, err := parseRFC3339(args[i].AsString())
			if err != nil {
				return cty.UnknownVal(cty.Number), function.NewArgError(i, err)
			}
			ts[i] = t
		}
		switch {
		case ts[0].Equal(ts[1]):
			return cty.NumberIntVal(0), nil
		case ts[0].Before(ts[1]):
			return cty.NumberIntVal(-1), nil
		}
		return cty.NumberIntVal(1), nil
	},
})

// rfc3339Parts names the elements of Go's RFC 3339 layout for the error
// messages of parseRFC3339.
var rfc3339Parts = map[string]string{
	"2006":   "year",
	"01":     "month",
	"02":     "day of month",
	"15":     "hour",
	"04":     "minute",
	"05":     "second",
	"Z07:00": "UTC offset",
}

// parseRFC3339 is Terraform's timestamp parser: time.Parse with the
// RFC3339 layout, whose *time.ParseError is reworded to name the part of
// the timestamp instead of Go's reference-date layout element:
//
//   - a bare message (no layout or value element): "not a valid RFC3339
//     timestamp" followed by Go's message, which begins with ": ";
//   - the "T" separator: "missing required time introducer 'T'";
//   - a ":" or "-" separator: "end of string where %q is expected" when
//     nothing is left, else "found %q where %q is expected";
//   - a number or the offset: "end of string before <part>" when nothing
//     is left, else "cannot use %q as <part>" (an unnamed part is a
//     "timestamp segment").
//
// Every message starts with "not a valid RFC3339 timestamp". Other errors
// are returned as they are.
func parseRFC3339(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	if err == nil {
		return t, nil
	}
	pe, ok := err.(*time.ParseError)
	if !ok {
		return time.Time{}, err
	}
	const prefix = "not a valid RFC3339 timestamp"
	if pe.LayoutElem == "" && pe.ValueElem == "" && pe.Message != "" {
		return time.Time{}, fmt.Errorf("%s%s", prefix, pe.Message)
	}
	switch pe.LayoutElem {
	case "T":
		return time.Time{}, fmt.Errorf("%s: missing required time introducer 'T'", prefix)
	case ":", "-":
		if pe.ValueElem == "" {
			return time.Time{}, fmt.Errorf("%s: end of string where %q is expected", prefix, pe.LayoutElem)
		}
		return time.Time{}, fmt.Errorf("%s: found %q where %q is expected", prefix, pe.ValueElem, pe.LayoutElem)
	}
	part, named := rfc3339Parts[pe.LayoutElem]
	if !named {
		part = "timestamp segment"
	}
	if pe.ValueElem == "" {
		return time.Time{}, fmt.Errorf("%s: end of string before %s", prefix, part)
	}
	return time.Time{}, fmt.Errorf("%s: cannot use %q as %s", prefix, pe.ValueElem, part)
}

// fixedNow is the adapter's clock when --now fixes it (main.go); the zero
// time means the real clock (for timestamp) and no plan time (for
// plantimestamp).
var fixedNow time.Time

// tfTimestampFunc is Terraform's timestamp(): the current time in UTC as
// RFC 3339 with whole seconds ("2006-01-02T15:04:05Z"). Terraform returns
// an unknown string while planning (it is impure) and the time otherwise;
// the adapter answers as in apply or console: the --now time when given,
// else the real clock, which cases can check only by shape.
var tfTimestampFunc = function.New(&function.Spec{
	Type: function.StaticReturnType(cty.String),
	Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
		now := fixedNow
		if now.IsZero() {
			now = time.Now()
		}
		return cty.StringVal(now.UTC().Format(time.RFC3339)), nil
	},
})

// tfPlanTimestampFunc is Terraform's plantimestamp(): the time the plan was
// made, as RFC 3339 in that time's own offset, and an unknown string when
// there is none (as in `terraform validate`). The adapter's plan time is
// the --now time; without it there is none.
var tfPlanTimestampFunc = function.New(&function.Spec{
	Type: function.StaticReturnType(cty.String),
	Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
		if hostPlan.active {
			// a case's host (host.go): its plan_timestamp, or none
			if hostPlan.t.IsZero() {
				return cty.UnknownVal(cty.String), nil
			}
			return cty.StringVal(hostPlan.t.Format(time.RFC3339)), nil
		}
		if fixedNow.IsZero() {
			return cty.UnknownVal(cty.String), nil
		}
		return cty.StringVal(fixedNow.Format(time.RFC3339)), nil
	},
})
