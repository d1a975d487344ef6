// SPDX-License-Identifier: MPL-2.0

//go:build pn

// The result refinements of Terraform's own functions, which only the PN
// build has (cty 1.13 added Spec.RefineResult; cty 1.12.1 has no such
// field, so the tf_*.go specs cannot name it). tf_refine_p14.go is the P14
// build's counterpart.
//
// Read from Terraform 883c7221 (internal/lang/funcs): every function listed
// in tfNotNullResults declares that its result is never null, the only
// refinement Terraform's functions declare; cty applies it to whatever
// unknown the call returns (the early unknown of an unknown argument or the
// implementation's own), unless an argument of unknown type ended the call
// before the implementation ran. OpenTofu 1.11 declares the same for its
// own base64gunzip and urldecode. spec/refinements.md [refine.fn.terraform].
package main

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// tfNotNullResults names the functions of the tables whose result is
// refined not null. Sorted.
var tfNotNullResults = []string{
	"abspath", "alltrue", "anytrue", "base64decode", "base64encode",
	"base64gunzip", "base64gzip", "base64sha256", "base64sha512", "basename",
	"bcrypt", "cidrhost", "cidrnetmask", "cidrsubnet", "cidrsubnets",
	"coalesce", "dirname", "endswith", "file", "filebase64",
	"filebase64sha256", "filebase64sha512", "fileexists", "filemd5",
	"fileset", "filesha1", "filesha256", "filesha512", "index", "length",
	"log", "matchkeys", "md5", "pathexpand", "pow", "replace", "rsadecrypt",
	"sha1", "sha256", "sha512", "startswith", "sum", "templatestring",
	"textdecodebase64", "textencodebase64", "timecmp", "timestamp",
	"transpose", "urldecode", "urlencode", "uuid", "uuidv5",
}

// refineTerraformResults replaces, in the table t, every function of
// tfNotNullResults by one that refines its result.
func refineTerraformResults(t map[string]function.Function) {
	for _, name := range tfNotNullResults {
		if fn, ok := t[name]; ok {
			t[name] = withNotNullResult(fn)
		}
	}
}

// withNotNullResult is fn with a RefineResult of not null: the same
// parameters and result type, and a call that is fn's own call. The outer
// call's checks (argument count and types, unknown and marked arguments)
// are those fn's call repeats, so the inner call sees unmarked arguments
// where fn would have unmarked them, and the outer call adds the marks back
// as fn's would; what changes is only cty's refinement of an unknown
// result.
func withNotNullResult(fn function.Function) function.Function {
	return function.New(&function.Spec{
		Description:  fn.Description(),
		Params:       fn.Params(),
		VarParam:     fn.VarParam(),
		Type:         fn.ReturnTypeForValues,
		RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder { return b.NotNull() },
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return fn.Call(args)
		},
	})
}

// knownStringPrefix is what is known of the beginning of the unknown
// string v (cty's Value.Range().StringPrefix()).
func knownStringPrefix(v cty.Value) string {
	return v.Range().StringPrefix()
}
