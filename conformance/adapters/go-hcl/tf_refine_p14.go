// SPDX-License-Identifier: MPL-2.0

//go:build !pn

// The P14 build's counterpart of tf_refine_pn.go: cty 1.12.1 has no
// refinements, so no function refines its result and no unknown string
// has a known prefix.
package main

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

func refineTerraformResults(map[string]function.Function) {}

func knownStringPrefix(cty.Value) string { return "" }
