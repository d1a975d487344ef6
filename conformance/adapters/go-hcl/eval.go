// SPDX-License-Identifier: MPL-2.0
package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// caseFilename is the file name every case is parsed under.
const caseFilename = "case.hcl"

// caseRequest is the case of a "run" request: what the runner sends of a
// case file entry (never its expectation).
type caseRequest struct {
	ID          string                     `json:"id"`
	Name        string                     `json:"name"`
	Request     *string                    `json:"request"`
	Mode        *string                    `json:"mode"`
	Input       *string                    `json:"input"`
	InputBase64 *string                    `json:"input_base64"`
	Variables   map[string]json.RawMessage `json:"variables"`
	// ConvertTo and ConvertMode belong to a "convert" request (convert.go).
	ConvertTo   json.RawMessage `json:"convert_to"`
	ConvertMode *string         `json:"convert_mode"`
	// Host is the case's host description (host.go).
	Host *hostDescription `json:"host"`
	// Flavor chooses the function table: "terraform" (the default) or
	// "opentofu" (Terraform's plus OpenTofu's own, tf_opentofu.go).
	Flavor *string `json:"flavor"`
}

// posJSON and rangeJSON carry an hcl.Range: byte offsets from 0 (end
// exclusive), lines and grapheme-cluster columns from 1.
type posJSON struct {
	Byte   int `json:"byte"`
	Line   int `json:"line"`
	Column int `json:"column"`
}

type rangeJSON struct {
	Start posJSON `json:"start"`
	End   posJSON `json:"end"`
}

// diagJSON is one diagnostic of an answer. No category: the runner maps
// the summary through categories.json.
type diagJSON struct {
	Severity string     `json:"severity"`
	Phase    string     `json:"phase"`
	Summary  string     `json:"summary"`
	Detail   string     `json:"detail,omitempty"`
	Subject  *rangeJSON `json:"subject,omitempty"`
	Context  *rangeJSON `json:"context,omitempty"`
}

// runCase parses and evaluates one case the way the corpus defines it:
// hclsyntax.ParseExpression or hclsyntax.ParseTemplate from line 1,
// column 1, byte 0, then Value with the case's variables and Terraform's
// function table for a module (functions.go); for a "convert" request, the
// value is then converted (convert.go). A "console" request
// (conformance/README.md, "Console requests") evaluates as an "eval" one
// but with the table of `terraform console` (with type, without
// plantimestamp) and answers a type() result as a value of type "type"
// holding the type as the console prints it (consoleResult).
func runCase(c *caseRequest) runAnswer {
	request := "eval"
	if c.Request != nil {
		request = *c.Request
	}
	switch request {
	case "eval", "parse", "convert", "refs", "console":
	default:
		return runAnswer{Unsupported: true, Message: fmt.Sprintf("request %q is not supported (only \"eval\", \"parse\", \"convert\", \"refs\" and \"console\")", request)}
	}
	var conv *conversionRequest
	if request == "convert" {
		var err error
		if conv, err = decodeConversionRequest(c); err != nil {
			return runAnswer{Errored: true, Message: err.Error()}
		}
	} else if len(c.ConvertTo) > 0 || c.ConvertMode != nil {
		return runAnswer{Errored: true, Message: fmt.Sprintf(`"convert_to" and "convert_mode" belong to a "convert" request, not %q`, request)}
	}
	opentofu := false
	if c.Flavor != nil {
		switch *c.Flavor {
		case "terraform":
		case "opentofu":
			opentofu = true
		default:
			return runAnswer{Errored: true, Message: fmt.Sprintf(`unknown "flavor" %q (only "terraform" and "opentofu")`, *c.Flavor)}
		}
	}
	if c.Mode == nil {
		return runAnswer{Errored: true, Message: `the case has no "mode"`}
	}
	var parse func([]byte, string, hcl.Pos) (hclsyntax.Expression, hcl.Diagnostics)
	switch *c.Mode {
	case "expression":
		parse = hclsyntax.ParseExpression
	case "template":
		parse = hclsyntax.ParseTemplate
	default:
		return runAnswer{Unsupported: true, Message: fmt.Sprintf("mode %q is not supported (only \"expression\" and \"template\")", *c.Mode)}
	}

	src, err := caseSource(c)
	if err != nil {
		return runAnswer{Errored: true, Message: err.Error()}
	}
	if c.Host != nil {
		undo, err := applyHost(c.Host)
		if err != nil {
			return runAnswer{Errored: true, Message: "malformed host: " + err.Error()}
		}
		defer undo()
	}

	vars := make(map[string]cty.Value, len(c.Variables))
	names := make([]string, 0, len(c.Variables))
	for name := range c.Variables {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		v, err := decodeTypedValue(c.Variables[name], "variables."+name)
		if err != nil {
			return runAnswer{Errored: true, Message: "malformed variable: " + err.Error()}
		}
		vars[name] = v
	}

	expr, parseDiags := parse(src, caseFilename, hcl.Pos{Line: 1, Column: 1, Byte: 0})
	if request == "parse" {
		// A parse request: every diagnostic of the parse, none when the
		// input parses cleanly; nothing is evaluated.
		diags := encodeDiagnostics([]diagJSON{}, parseDiags, "parse")
		return runAnswer{Parsed: &diags}
	}
	if parseDiags.HasErrors() {
		return runAnswer{Diagnostics: encodeDiagnostics(nil, parseDiags, "parse")}
	}
	if request == "refs" {
		// A refs request: the traversals Variables() lists; nothing is
		// evaluated (refs.go).
		refs, err := expressionRefs(expr)
		if err != nil {
			return runAnswer{Errored: true, Message: err.Error()}
		}
		return runAnswer{Refs: &refs}
	}

	ctx := &hcl.EvalContext{
		Variables: vars,
		Functions: functionsForFlavor(request == "console", opentofu),
	}
	val, evalDiags := expr.Value(ctx)
	evalDiags = checkUnknownFunctionDiags(evalDiags, ctx) // Terraform's wording (PN only)
	diags := encodeDiagnostics(nil, parseDiags, "parse")
	diags = encodeDiagnostics(diags, evalDiags, "eval")
	if evalDiags.HasErrors() {
		return runAnswer{Diagnostics: diags}
	}

	if request == "console" {
		// A console request: what `terraform console` makes of the
		// result (a type() result is answered as a value of type "type").
		shown, consoleDiag, err := consoleResult(val)
		if err != nil {
			return runAnswer{Errored: true, Message: err.Error()}
		}
		if consoleDiag != nil {
			return runAnswer{Diagnostics: append(diags, *consoleDiag)}
		}
		val = shown
	}

	if conv != nil {
		// A convert request: the value is converted as the case says,
		// and a failure is one error diagnostic on the whole expression.
		converted, convDiag := conv.apply(val, expr.Range())
		if convDiag != nil {
			return runAnswer{Diagnostics: append(diags, *convDiag)}
		}
		val = converted
	}

	encoded, err := encodeTypedValue(val)
	if err != nil {
		return runAnswer{Errored: true, Message: "cannot encode the result: " + err.Error()}
	}
	return runAnswer{Value: encoded, Diagnostics: diags}
}

// caseSource returns the source bytes of a case: input, or input_base64
// decoded.
func caseSource(c *caseRequest) ([]byte, error) {
	switch {
	case c.Input != nil && c.InputBase64 != nil:
		return nil, fmt.Errorf(`the case has both "input" and "input_base64"`)
	case c.Input != nil:
		return []byte(*c.Input), nil
	case c.InputBase64 != nil:
		src, err := base64.StdEncoding.DecodeString(*c.InputBase64)
		if err != nil {
			// Tolerate a missing padding; nothing else.
			if src2, err2 := base64.RawStdEncoding.DecodeString(*c.InputBase64); err2 == nil {
				return src2, nil
			}
			return nil, fmt.Errorf("input_base64 is not valid base64: %v", err)
		}
		return src, nil
	default:
		return nil, fmt.Errorf(`the case has neither "input" nor "input_base64"`)
	}
}

// encodeDiagnostics appends every diagnostic of diags, tagged with phase.
func encodeDiagnostics(out []diagJSON, diags hcl.Diagnostics, phase string) []diagJSON {
	for _, d := range diags {
		if d == nil {
			continue
		}
		severity := "error"
		if d.Severity == hcl.DiagWarning {
			severity = "warning"
		}
		out = append(out, diagJSON{
			Severity: severity,
			Phase:    phase,
			Summary:  d.Summary,
			Detail:   d.Detail,
			Subject:  encodeRange(d.Subject),
			Context:  encodeRange(d.Context),
		})
	}
	return out
}

func encodeRange(r *hcl.Range) *rangeJSON {
	if r == nil {
		return nil
	}
	return &rangeJSON{
		Start: posJSON{Byte: r.Start.Byte, Line: r.Start.Line, Column: r.Start.Column},
		End:   posJSON{Byte: r.End.Byte, Line: r.End.Line, Column: r.End.Column},
	}
}
