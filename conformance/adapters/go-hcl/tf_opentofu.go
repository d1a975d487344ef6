// SPDX-License-Identifier: MPL-2.0
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/url"

	"github.com/apparentlymart/go-cidr/cidr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// OpenTofu's own pure functions: base64gunzip, urldecode and cidrcontains,
// which OpenTofu (1.7 and later; internal/lang/funcs/encoding.go and
// cidr.go) registers and Terraform does not. They are in the table only
// when a case asks for OpenTofu's ("flavor": "opentofu"): OpenTofu's table
// is Terraform's (every shared function keeps Terraform's semantics, see
// functions.go) plus these three (spec/functions-opentofu.md).
//
// Written here from OpenTofu's behaviour (its latest release, 1.11): what
// each takes, the errors it gives and their text, how marks flow. Like the
// rest of the table, they run on cty 1.12.1, which has no result
// refinements: an unknown argument gives a plain unknown result.

// openTofuFunctions are the functions only OpenTofu's table has.
var openTofuFunctions = map[string]function.Function{
	"base64gunzip": tofuBase64GunzipFunc,
	"cidrcontains": tofuCidrContainsFunc,
	"urldecode":    tofuURLDecodeFunc,
}

// redactedTofu is how OpenTofu's messages show a value: Go-quoted, or a
// placeholder naming the ephemeral and sensitive marks it has.
func redactedTofu(s string, marks cty.ValueMarks) string {
	_, eph := marks[ephemeralMark]
	_, sens := marks[sensitiveMark]
	switch {
	case eph && sens:
		return "(ephemeral sensitive value)"
	case eph:
		return "(ephemeral value)"
	case sens:
		return "(sensitive value)"
	}
	return fmt.Sprintf("%q", s)
}

// tofuBase64GunzipFunc is OpenTofu's base64gunzip(str): str decoded as
// standard base64 with padding (Go's decoder, which skips CR and LF), the
// bytes read as gzip with Go's compress/gzip reader (several members
// concatenated are read one after the other), the result the bytes as a
// string, with no UTF-8 check, and with str's marks. Marked arguments are
// the function's own: a base64 failure shows str redacted.
var tofuBase64GunzipFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "str", Type: cty.String, AllowMarked: true}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		str, marks := args[0].Unmark()
		s := str.AsString()
		raw, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to decode base64 data %s", redactedTofu(s, marks))
		}
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to gunzip bytestream: %w", err)
		}
		out, err := io.ReadAll(zr)
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to read gunzip raw data: %w", err)
		}
		return cty.StringVal(string(out)).WithMarks(marks), nil
	},
})

// tofuURLDecodeFunc is OpenTofu's urldecode(str): Go's url.QueryUnescape
// ("+" is a space, %XX a byte, no UTF-8 check). On a bad escape the error
// quotes what QueryUnescape returned with it, which is always "".
var tofuURLDecodeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "str", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		decoded, err := url.QueryUnescape(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to decode URL '%s': %v", decoded, err)
		}
		return cty.StringVal(decoded), nil
	},
})

// parseIPLenient is Terraform's (and OpenTofu's) ipaddr.ParseIP, Go 1.16's
// net.ParseIP: the first '.' or ':' decides IPv4 (leading zeros allowed)
// or IPv6; anything else is nil.
func parseIPLenient(s string) net.IP {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.':
			return parseIPv4Lenient(s)
		case ':':
			return parseIPv6Lenient(s)
		}
	}
	return nil
}

// tofuCidrContainsFunc is OpenTofu's cidrcontains(containing_prefix,
// contained_ip_or_prefix): whether an address, or every address of a
// prefix, lies in the prefix. The first argument must be a prefix
// (parseCIDR's error as it is); the second is an address or else a prefix
// ("invalid IP address or prefix: <s>"). The two must be of one family,
// judged by whether the first argument's network address and the second's
// address (its network address, for a prefix) have a 4-byte form:
// "address family mismatch: <a> vs. <b>" otherwise.
var tofuCidrContainsFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "containing_prefix", Type: cty.String},
		{Name: "contained_ip_or_prefix", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		prefix := args[0].AsString()
		addr := args[1].AsString()
		containing, err := parseCIDR(prefix)
		if err != nil {
			return cty.UnknownVal(cty.Bool), err
		}
		first := parseIPLenient(addr)
		var last net.IP
		if first == nil {
			contained, err := parseCIDR(addr)
			if err != nil {
				return cty.UnknownVal(cty.Bool), fmt.Errorf("invalid IP address or prefix: %s", addr)
			}
			first, last = cidr.AddressRange(contained)
		}
		if (first.To4() == nil) != (containing.IP.To4() == nil) {
			return cty.UnknownVal(cty.Bool), fmt.Errorf("address family mismatch: %s vs. %s", prefix, addr)
		}
		in := containing.Contains(first)
		if last != nil {
			in = in && containing.Contains(last)
		}
		return cty.BoolVal(in), nil
	},
})
