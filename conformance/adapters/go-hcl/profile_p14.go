// SPDX-License-Identifier: MPL-2.0

//go:build !pn

// The default build: Debian's HCL 2.14.1 and cty 1.12.1, profile P14.
// profile_pn.go is the same for the build with the "pn" tag (make
// reference-pn); what differs between the two builds is only here.
package main

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
)

const (
	implVersion = "hcl 2.14.1 / cty 1.12.1"
	profileID   = "P14"
	// libraryLine completes the first sentence of the usage text.
	libraryLine = "upstream HCL 2.14.1\nand cty 1.12.1"
)

// profileCapabilities: cty 1.12.1 has no refinements of unknown values.
var profileCapabilities = []string(nil)

// refinementsOf: none before cty 1.13.
func refinementsOf(cty.Value) *refinements { return nil }

// refineUnknown: a variable's refinements cannot be honoured before cty
// 1.13, so a node that has them is refused.
func refineUnknown(_ cty.Value, _ *refinements, path string) (cty.Value, error) {
	return cty.NilVal, fmt.Errorf(`%s: "refinements" need profile PN (cty 1.13 and later)`, path)
}
