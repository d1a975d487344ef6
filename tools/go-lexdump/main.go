// SPDX-License-Identifier: MPL-2.0
// Command go-lexdump prints the tokens upstream HCL's scanner produces,
// one JSON object per line, so that tfexpr's lexer can be compared with it
// (tools/lexdiff).
//
// It reads JSON lines {"what": "tokens"|"parse", "mode":
// "expression"|"template", "input_base64": "..."} on stdin and answers each
// with {"tokens": [[type, start_byte, end_byte, start_line, start_col,
// end_line, end_col], ...]}, where type is the token type's name without
// the "Token" prefix, or for "parse" with {"diagnostics": [[summary,
// start_byte, end_byte, start_line, start_col, end_line, end_col], ...]}
// (the subject of each diagnostic of the parse, in order).
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

type request struct {
	What        string `json:"what"`
	Mode        string `json:"mode"`
	InputBase64 string `json:"input_base64"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<30)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintf(out, "{\"error\":%q}\n", err.Error())
			out.Flush()
			continue
		}
		src, err := base64.StdEncoding.DecodeString(req.InputBase64)
		if err != nil {
			fmt.Fprintf(out, "{\"error\":%q}\n", err.Error())
			out.Flush()
			continue
		}
		start := hcl.Pos{Line: 1, Column: 1, Byte: 0}
		if req.What == "parse" {
			var diags hcl.Diagnostics
			if req.Mode == "template" {
				_, diags = hclsyntax.ParseTemplate(src, "case.hcl", start)
			} else {
				_, diags = hclsyntax.ParseExpression(src, "case.hcl", start)
			}
			rows := make([][]interface{}, 0, len(diags))
			for _, d := range diags {
				row := []interface{}{d.Summary}
				if d.Subject != nil {
					r := *d.Subject
					row = append(row, r.Start.Byte, r.End.Byte, r.Start.Line, r.Start.Column, r.End.Line, r.End.Column)
				}
				rows = append(rows, row)
			}
			b, _ := json.Marshal(map[string]interface{}{"diagnostics": rows})
			out.Write(b)
			out.WriteByte('\n')
			out.Flush()
			continue
		}
		var toks hclsyntax.Tokens
		if req.Mode == "template" {
			toks, _ = hclsyntax.LexTemplate(src, "case.hcl", start)
		} else {
			toks, _ = hclsyntax.LexExpression(src, "case.hcl", start)
		}
		rows := make([][]interface{}, 0, len(toks))
		for _, t := range toks {
			r := t.Range
			rows = append(rows, []interface{}{
				strings.TrimPrefix(t.Type.String(), "Token"),
				r.Start.Byte, r.End.Byte, r.Start.Line, r.Start.Column, r.End.Line, r.End.Column,
			})
		}
		b, _ := json.Marshal(map[string]interface{}{"tokens": rows})
		out.Write(b)
		out.WriteByte('\n')
		out.Flush()
	}
}
