// SPDX-License-Identifier: MPL-2.0

//go:build pn

// Terraform's namespaced functions, which only the PN build can call (HCL
// 2.20 and later parse "ns::name(...)"):
//
//   - every function of the table is also "core::NAME" (Terraform 1.8,
//     internal/lang/functions.go: the aliases are made after the whole
//     scope's table is built, so they include type in the console and
//     plantimestamp in a module);
//   - the built-in provider "terraform" contributes three functions under
//     "provider::terraform::" (internal/builtin/providers/terraform):
//     encode_tfvars, decode_tfvars, encode_expr, called as Terraform calls
//     a provider's function (internal/providers/functions.go:
//     FunctionDecl.BuildFunction);
//   - Terraform rewords HCL's "Call to unknown function" errors of
//     namespaced names (internal/lang/eval.go:
//     CheckForUnknownFunctionDiags).
//
// Written again here from Terraform's behaviour, on PN's hclwrite and
// hclsyntax; tf_provider_p14.go is the P14 build's empty counterpart.
package main

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// addNamespacedFunctions adds core::NAME for every NAME of the table t and
// the terraform provider's functions.
func addNamespacedFunctions(t map[string]function.Function) {
	names := make([]string, 0, len(t))
	for name := range t {
		names = append(names, name)
	}
	for _, name := range names {
		t["core::"+name] = t[name]
	}
	for name, fn := range terraformProviderFunctions {
		t["provider::terraform::"+name] = fn
	}
}

// providerParam is a parameter of a provider function as a provider
// declares it; providerFunction makes the cty function Terraform calls.
type providerParam struct {
	name          string
	ty            cty.Type
	allowNull     bool
	allowUnknowns bool
}

// providerFunction is the function Terraform builds from a provider's
// declaration: cty's parameter checks (null refused unless allowed, the
// dynamic type allowed for a dynamic parameter, a top-level unknown passed
// only where allowed), then, unless the parameter allows unknowns, a
// result unknown of the return type for an argument that is not wholly
// known, and the null check again, before the provider's own code runs.
func providerFunction(params []providerParam, ret cty.Type, impl func([]cty.Value) (cty.Value, error)) function.Function {
	specs := make([]function.Parameter, len(params))
	for i, p := range params {
		specs[i] = function.Parameter{
			Name:             p.name,
			Type:             p.ty,
			AllowNull:        p.allowNull,
			AllowDynamicType: p.ty == cty.DynamicPseudoType,
			AllowUnknown:     p.allowUnknowns,
		}
	}
	return function.New(&function.Spec{
		Params: specs,
		Type:   function.StaticReturnType(ret),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			for i, arg := range args {
				if !params[i].allowUnknowns && !arg.IsWhollyKnown() {
					return cty.UnknownVal(retType), nil
				}
				if !params[i].allowNull && arg.IsNull() {
					return cty.UnknownVal(retType), fmt.Errorf("argument %q cannot be null", params[i].name)
				}
			}
			return impl(args)
		},
	})
}

var terraformProviderFunctions = map[string]function.Function{
	"encode_tfvars": providerFunction(
		[]providerParam{{name: "value", ty: cty.DynamicPseudoType, allowUnknowns: true}},
		cty.String, encodeTfvars),
	"decode_tfvars": providerFunction(
		[]providerParam{{name: "src", ty: cty.String}},
		cty.DynamicPseudoType, decodeTfvars),
	"encode_expr": providerFunction(
		[]providerParam{{name: "value", ty: cty.DynamicPseudoType, allowUnknowns: true}},
		cty.String, encodeExpr),
}

// encodeTfvars: an object or map as the text of a .tfvars file, its
// attributes in name order, written by hclwrite.
func encodeTfvars(args []cty.Value) (cty.Value, error) {
	v := args[0]
	if v.IsNull() {
		return cty.NilVal, function.NewArgErrorf(1, "cannot encode a null value in tfvars syntax")
	}
	if !v.IsWhollyKnown() {
		return cty.UnknownVal(cty.String).RefineNotNull(), nil
	}
	ty := v.Type()
	var keys []string
	switch {
	case ty.IsObjectType():
		for key := range ty.AttributeTypes() {
			keys = append(keys, key)
		}
	case ty.IsMapType():
		for it := v.ElementIterator(); it.Next(); {
			k, _ := it.Element()
			keys = append(keys, k.AsString())
		}
	default:
		return cty.NilVal, function.NewArgErrorf(1, "invalid value to encode: must be an object whose attribute names will become the encoded variable names")
	}
	sort.Strings(keys)
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	for _, key := range keys {
		if !hclsyntax.ValidIdentifier(key) {
			return cty.NilVal, function.NewArgErrorf(1, "invalid variable name %q: must be a valid identifier, per Terraform's rules for input variable declarations", key)
		}
		attr, _ := hcl.Index(v, cty.StringVal(key), nil)
		body.SetAttributeValue(key, attr)
	}
	return cty.StringVal(string(f.Bytes())), nil
}

// decodeTfvars: the attributes of a .tfvars text as an object, each
// expression evaluated with no variables and no functions; HCL's errors
// become the function's, in the text of Diagnostics.Error().
func decodeTfvars(args []cty.Value) (cty.Value, error) {
	if args[0].IsNull() {
		return cty.NilVal, fmt.Errorf("cannot decode tfvars from a null value")
	}
	if !args[0].IsKnown() {
		return cty.DynamicVal, nil
	}
	f, diags := hclsyntax.ParseConfig([]byte(args[0].AsString()), "<decode_tfvars argument>", hcl.InitialPos)
	if diags.HasErrors() {
		return cty.NilVal, fmt.Errorf("invalid tfvars syntax: %s", diags.Error())
	}
	attrs, diags := f.Body.JustAttributes()
	if diags.HasErrors() {
		return cty.NilVal, fmt.Errorf("invalid tfvars content: %s", diags.Error())
	}
	vals := make(map[string]cty.Value, len(attrs))
	for name, attr := range attrs {
		v, diags := attr.Expr.Value(nil)
		if diags.HasErrors() {
			return cty.NilVal, fmt.Errorf("invalid expression for variable %q: %s", name, diags.Error())
		}
		vals[name] = v
	}
	return cty.ObjectVal(vals), nil
}

// encodeExpr: any value as expression text, written by hclwrite; an
// unknown value gives an unknown string, refined by its first character
// where the value is known not to be null.
func encodeExpr(args []cty.Value) (cty.Value, error) {
	v := args[0]
	if !v.IsWhollyKnown() {
		ret := cty.UnknownVal(cty.String).RefineNotNull()
		if !v.Range().CouldBeNull() {
			ty := v.Type()
			switch {
			case ty.IsObjectType() || ty.IsMapType():
				ret = ret.Refine().StringPrefixFull("{").NewValue()
			case ty.IsTupleType() || ty.IsListType() || ty.IsSetType():
				ret = ret.Refine().StringPrefixFull("[").NewValue()
			case ty == cty.String:
				ret = ret.Refine().StringPrefixFull(`"`).NewValue()
			}
		}
		return ret, nil
	}
	return cty.StringVal(string(bytes.TrimSpace(hclwrite.TokensForValue(v).Bytes()))), nil
}

// checkUnknownFunctionDiags rewords HCL's "Call to unknown function" errors
// as Terraform does after every evaluation: a name without a namespace gets
// a suggestion of a namespaced function of that name; a namespaced one
// becomes "Unknown provider function" with a detail saying what is wrong
// with the namespace.
func checkUnknownFunctionDiags(diags hcl.Diagnostics, ctx *hcl.EvalContext) hcl.Diagnostics {
	for _, d := range diags {
		extra, ok := hcl.DiagnosticExtra[hclsyntax.FunctionCallUnknownDiagExtra](d)
		if !ok {
			continue
		}
		name, namespace := extra.CalledFunctionName(), extra.CalledFunctionNamespace()
		parts := strings.Split(namespace, "::")
		if len(parts) < 2 {
			// Terraform takes the first match in map order; the sorted
			// names make it one answer here.
			var matches []string
			for fn := range ctx.Functions {
				if strings.HasSuffix(fn, "::"+name) {
					matches = append(matches, fn)
				}
			}
			sort.Strings(matches)
			if len(matches) > 0 {
				d.Detail = fmt.Sprintf("%s Did you mean %q?", d.Detail, matches[0])
			}
			continue
		}
		d.Summary = "Unknown provider function"
		switch {
		case parts[0] != "provider":
			d.Detail = fmt.Sprintf(`The function namespace %q is not valid. Provider function calls must use the "provider::" namespace prefix.`, parts[0])
		case parts[1] == "":
			d.Detail = `The function call must include the provider name after the "provider::" prefix.`
		default:
			others := false
			for fn := range ctx.Functions {
				if strings.HasPrefix(fn, namespace) {
					others = true
					break
				}
			}
			if others {
				d.Detail = fmt.Sprintf("The function %q is not available from the provider %q.", name, parts[1])
			} else {
				d.Detail = fmt.Sprintf(`There is no function named "%s%s". Ensure that provider name %q is declared in this module's required_providers block, and that this provider offers a function named %q.`, namespace, name, parts[1], name)
			}
		}
	}
	return diags
}
