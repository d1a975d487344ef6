// SPDX-License-Identifier: MPL-2.0
package main

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// Terraform's template-rendering functions (Terraform's
// internal/lang/funcs/string.go and filesystem.go on its main branch):
// templatestring here, templatefile in tf_files.go, and what they share.
//
// HCL 2.14.1 has everything templatestring needs: hclsyntax's function
// calls hand an argument whose parameter type is ext/customdecode's
// ExpressionClosureType to the function unevaluated, with the evaluation
// context. The one difference from Terraform is HCL's: an error the
// function returns as hcl.Diagnostics (a failure inside the template) is
// one "Error in function call" diagnostic whose detail embeds
// Diagnostics.Error(), as HCL 2.14.1 does with any error.

// templateFunctions and filesystemFunctions are Terraform's two lists of
// functions that a template may not call: the template functions anywhere
// inside a template (no recursion), the filesystem ones inside a
// templatestring template.
var (
	templateFunctions   = []string{"templatefile", "templatestring"}
	filesystemFunctions = []string{
		"file", "fileexists", "fileset", "filebase64", "filebase64sha256",
		"filebase64sha512", "filemd5", "filesha1", "filesha256",
		"filesha512", "templatefile",
	}
)

// refusingFunc stands in for a function a template may not call: same
// parameters, and a type check that always fails with message, so the
// call is an "Error in function call" once its arguments are good.
func refusingFunc(fn function.Function, message string) function.Function {
	return function.New(&function.Spec{
		Params:   fn.Params(),
		VarParam: fn.VarParam(),
		Type: func([]cty.Value) (cty.Type, error) {
			return cty.NilType, fmt.Errorf("%s", message)
		},
	})
}

// templateRenderer renders a parsed template with the variables of a vars
// argument and the functions of table (the table of the scope the template
// function is called in), as Terraform's template functions do:
//
//   - vars must be a map or an object: otherwise the argument error
//     "invalid vars value: must be a map";
//   - every name in vars must be an HCL identifier (the argument error
//     names the first bad one in sorted order; Terraform takes them in Go's
//     map order, so with two bad names its message varies);
//   - every variable the template refers to must be in vars (argument
//     error naming the first missing one and where the template refers to
//     it, in the order of the template's Variables());
//   - the template is evaluated with those variables and the functions of
//     table, less the template functions (each refuses: "cannot
//     recursively call X from inside another template function") and,
//     unless allowFS, less the filesystem functions ("cannot use
//     filesystem access functions like X in templatestring templates;
//     consider passing the function result as a template variable
//     instead");
//   - evaluation errors are returned as they are (hcl.Diagnostics); a null
//     result is the error "Template result is null" on the template.
func templateRenderer(table func() map[string]function.Function, allowFS bool) func(hcl.Expression, cty.Value) (cty.Value, error) {
	return func(expr hcl.Expression, vars cty.Value) (cty.Value, error) {
		if ty := vars.Type(); !ty.IsMapType() && !ty.IsObjectType() {
			return cty.DynamicVal, function.NewArgErrorf(1, "invalid vars value: must be a map")
		}
		variables := vars.AsValueMap()
		names := make([]string, 0, len(variables))
		for name := range variables {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if !hclsyntax.ValidIdentifier(name) {
				return cty.DynamicVal, function.NewArgErrorf(1, "invalid template variable name %q: must start with a letter, followed by zero or more letters, digits, and underscores", name)
			}
		}
		for _, traversal := range expr.Variables() {
			if _, ok := variables[traversal.RootName()]; !ok {
				return cty.DynamicVal, function.NewArgErrorf(1, "vars map does not contain key %q, referenced at %s", traversal.RootName(), traversal[0].SourceRange())
			}
		}

		given := table()
		funcs := make(map[string]function.Function, len(given))
		for name, fn := range given {
			funcs[name] = fn
		}
		// Each name also under its core:: alias (PN's table has them).
		for _, name := range filesystemFunctions {
			for _, alias := range []string{name, "core::" + name} {
				if fn, ok := funcs[alias]; ok && !allowFS {
					funcs[alias] = refusingFunc(fn, fmt.Sprintf("cannot use filesystem access functions like %s in templatestring templates; consider passing the function result as a template variable instead", name))
				}
			}
		}
		for _, name := range templateFunctions {
			for _, alias := range []string{name, "core::" + name} {
				if fn, ok := funcs[alias]; ok {
					funcs[alias] = refusingFunc(fn, fmt.Sprintf("cannot recursively call %s from inside another template function", name))
				}
			}
		}

		val, diags := expr.Value(&hcl.EvalContext{Variables: variables, Functions: funcs})
		if diags.HasErrors() {
			return cty.DynamicVal, diags
		}
		if val.IsNull() {
			return cty.DynamicVal, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Template result is null",
				Detail:   "The result of the template is null, which is not a valid result for a templatestring call.",
				Subject:  expr.Range().Ptr(),
			}
		}
		return val, nil
	}
}

// templateStringErrors are templatestring's argument errors for template
// arguments that are not a reference to a template kept elsewhere.
const (
	errTemplateWrap    = "invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere; to treat the inner expression as template syntax, write the reference expression directly without any template interpolation syntax"
	errTemplateLiteral = "invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere, and so does not support providing a literal template; consider using a template string expression instead"
	errTemplateInline  = "invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere; to render an inline template, consider using a plain template string expression"
	errTemplateRef     = "invalid template expression: must be a direct reference to a single string from elsewhere, containing valid Terraform template syntax"
)

// makeTemplateStringFunc is Terraform's templatestring(template, vars).
// The template argument is not evaluated by HCL but handed over as an
// expression closure, and it must be a reference: a "${...}" wrap, a
// literal string and any other template expression each have their own
// argument error, and otherwise only a variable reference, possibly
// followed by attribute and index steps or a splat (isTemplateReference),
// is taken. Then the reference is evaluated (errors become the argument
// error "invalid template expression: " and the diagnostics); an unknown
// template gives an unknown string; anything but a non-null string is the
// argument error "invalid template value: a string is required" (no
// conversion); the string is parsed as a template (file name
// "<templatestring argument>"; errors are the argument error "invalid
// template: " and the diagnostics), rendered (templateRenderer, without
// filesystem functions), converted to a string ("invalid template result:
// " and cty's message), and given the template string's own marks.
func makeTemplateStringFunc(table func() map[string]function.Function) function.Function {
	render := templateRenderer(table, false)
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "template", Type: customdecode.ExpressionClosureType},
			{Name: "vars", Type: cty.DynamicPseudoType},
		},
		Type: function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			closure := customdecode.ExpressionClosureFromVal(args[0])
			switch e := closure.Expression.(type) {
			case *hclsyntax.TemplateWrapExpr:
				return cty.UnknownVal(retType), function.NewArgErrorf(0, errTemplateWrap)
			case *hclsyntax.TemplateExpr:
				if len(e.Parts) == 1 {
					if _, literal := e.Parts[0].(*hclsyntax.LiteralValueExpr); literal {
						return cty.UnknownVal(retType), function.NewArgErrorf(0, errTemplateLiteral)
					}
				}
				return cty.UnknownVal(retType), function.NewArgErrorf(0, errTemplateInline)
			default:
				if !isTemplateReference(e) {
					return cty.UnknownVal(retType), function.NewArgErrorf(0, errTemplateRef)
				}
			}

			tmpl, diags := closure.Value()
			if diags.HasErrors() {
				return cty.UnknownVal(retType), function.NewArgErrorf(0, "invalid template expression: %s", diags.Error())
			}
			if !tmpl.IsKnown() {
				return cty.UnknownVal(retType), nil
			}
			if tmpl.Type() != cty.String || tmpl.IsNull() {
				return cty.UnknownVal(retType), function.NewArgErrorf(0, "invalid template value: a string is required")
			}
			tmpl, marks := tmpl.Unmark()
			expr, diags := hclsyntax.ParseTemplate([]byte(tmpl.AsString()), "<templatestring argument>", hcl.Pos{Line: 1, Column: 1})
			if diags.HasErrors() {
				return cty.UnknownVal(retType), function.NewArgErrorf(0, "invalid template: %s", diags.Error())
			}
			out, err := render(expr, args[1])
			if err != nil {
				return cty.UnknownVal(retType), err
			}
			if out, err = convert.Convert(out, cty.String); err != nil {
				return cty.UnknownVal(retType), fmt.Errorf("invalid template result: %s", err)
			}
			return out.WithMarks(marks), nil
		},
	})
}

// isTemplateReference is Terraform's test of templatestring's template
// argument: a variable reference (a scope traversal), or an attribute or
// index step, an index (whatever its key) or a splat applied to something
// that passes the same test.
func isTemplateReference(expr hcl.Expression) bool {
	switch e := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		return true
	case *hclsyntax.RelativeTraversalExpr:
		return isTemplateReference(e.Source)
	case *hclsyntax.IndexExpr:
		return isTemplateReference(e.Collection)
	case *hclsyntax.SplatExpr:
		return isTemplateReference(e.Source)
	}
	return false
}
