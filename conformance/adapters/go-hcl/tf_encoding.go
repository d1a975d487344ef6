// SPDX-License-Identifier: MPL-2.0
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"net/url"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/ianaindex"
)

// Terraform's own encoding functions (Terraform's
// internal/lang/funcs/encoding.go on its main branch): base64encode,
// base64decode, base64gzip, textencodebase64, textdecodebase64 and
// urlencode. yamlencode and yamldecode are go-cty-yaml's functions, which
// Terraform registers as they are (functions.go).
//
// Library versions: Go 1.19's encoding/base64, compress/gzip and net/url;
// Debian's golang.org/x/text 0.7.0 for the IANA encoding names (Terraform
// pins a much later x/text, whose ianaindex may know encodings or aliases
// 0.7.0 does not).

// redacted is how Terraform's messages show a value: Go-quoted, or
// "(sensitive value)" when the marks have the sensitive mark.
func redacted(s string, marks ...cty.ValueMarks) string {
	for _, m := range marks {
		if _, ok := m[sensitiveMark]; ok {
			return "(sensitive value)"
		}
	}
	return fmt.Sprintf("%q", s)
}

// tfBase64EncodeFunc is Terraform's base64encode(str): the UTF-8 bytes of
// str in standard base64 with padding.
var tfBase64EncodeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "str", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(base64.StdEncoding.EncodeToString([]byte(args[0].AsString()))), nil
	},
})

// tfBase64DecodeFunc is Terraform's base64decode(str): standard base64
// with padding decoded (Go's decoder: it skips CR and LF), and the bytes
// must be UTF-8. The argument's marks go on the result, also when it is
// unknown. A bad base64 string is a call error quoting it (or saying it is
// sensitive); bytes that are not UTF-8 are a call error.
var tfBase64DecodeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "str", Type: cty.String, AllowMarked: true, AllowUnknown: true}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		str, marks := args[0].Unmark()
		if !str.IsKnown() {
			return cty.UnknownVal(cty.String).WithMarks(marks), nil
		}
		s := str.AsString()
		decoded, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to decode base64 data %s", redacted(s, marks))
		}
		if !utf8.Valid(decoded) {
			return cty.UnknownVal(cty.String), fmt.Errorf("the result of decoding the provided string is not valid UTF-8")
		}
		return cty.StringVal(string(decoded)).WithMarks(marks), nil
	},
})

// tfBase64GzipFunc is Terraform's base64gzip(str): the UTF-8 bytes of str
// compressed by Go's compress/gzip writer at its default level, with an
// explicit Flush before Close (so the stream holds an empty sync block),
// then in standard base64. Go 1.19's DEFLATE gives the bytes.
var tfBase64GzipFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "str", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		if _, err := w.Write([]byte(args[0].AsString())); err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to write gzip raw data: %w", err)
		}
		if err := w.Flush(); err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to flush gzip writer: %w", err)
		}
		if err := w.Close(); err != nil {
			return cty.UnknownVal(cty.String), fmt.Errorf("failed to close gzip writer: %w", err)
		}
		return cty.StringVal(base64.StdEncoding.EncodeToString(buf.Bytes())), nil
	},
})

// ianaEncoding looks an encoding up as Terraform's text functions do:
// x/text's IANA index, by name or alias in any case; one it does not know
// (or knows without an implementation) is an argument error on the
// encoding parameter. The encoding's canonical IANA name comes with it
// (the given name if the index has none).
func ianaEncoding(name string) (encoding.Encoding, string, error) {
	enc, err := ianaindex.IANA.Encoding(name)
	if err != nil || enc == nil {
		return nil, "", function.NewArgErrorf(1, "%q is not a supported IANA encoding name or alias in this Terraform version", name)
	}
	canonical, err := ianaindex.IANA.Name(enc)
	if err != nil {
		canonical = name
	}
	return enc, canonical, nil
}

// tfTextEncodeBase64Func is Terraform's textencodebase64(string,
// encoding): string encoded in the IANA encoding, then in standard base64.
// A character the encoding cannot represent is an argument error on the
// string, naming the encoding's canonical name.
var tfTextEncodeBase64Func = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "string", Type: cty.String},
		{Name: "encoding", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		enc, name, err := ianaEncoding(args[1].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		out, err := enc.NewEncoder().Bytes([]byte(args[0].AsString()))
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the given string contains characters that cannot be represented in %s", name)
		}
		return cty.StringVal(base64.StdEncoding.EncodeToString(out)), nil
	},
})

// tfTextDecodeBase64Func is Terraform's textdecodebase64(source,
// encoding): source decoded from standard base64 (an invalid byte is an
// argument error giving its offset, any other base64 failure one with Go's
// message), then decoded from the IANA encoding; a decoding failure, or a
// U+FFFD in the result (also one that was really in the text), is an
// argument error naming the encoding.
var tfTextDecodeBase64Func = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "source", Type: cty.String},
		{Name: "encoding", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		enc, name, err := ianaEncoding(args[1].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		raw, err := base64.StdEncoding.DecodeString(args[0].AsString())
		if err != nil {
			if offset, ok := err.(base64.CorruptInputError); ok {
				return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the given value has an invalid base64 symbol at offset %d", int(offset))
			}
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "invalid source string: %w", err)
		}
		text, err := enc.NewDecoder().Bytes(raw)
		if err != nil || bytes.ContainsRune(text, utf8.RuneError) {
			return cty.UnknownVal(cty.String), function.NewArgErrorf(0, "the given string contains symbols that are not defined for %s", name)
		}
		return cty.StringVal(string(text)), nil
	},
})

// tfURLEncodeFunc is Terraform's urlencode(str): Go's url.QueryEscape
// (space as "+", every byte outside A-Z a-z 0-9 - _ . ~ as %XX, upper-case
// hex).
var tfURLEncodeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "str", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(url.QueryEscape(args[0].AsString())), nil
	},
})
