// SPDX-License-Identifier: MPL-2.0

//go:build !pn

// The P14 build's counterpart of tf_provider_pn.go: HCL 2.14.1 parses no
// namespaced function name, so the table has no namespaced functions and no
// diagnostic needs Terraform's rewording of them.
package main

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty/function"
)

func addNamespacedFunctions(map[string]function.Function) {}

func checkUnknownFunctionDiags(diags hcl.Diagnostics, _ *hcl.EvalContext) hcl.Diagnostics {
	return diags
}
