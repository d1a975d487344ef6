// SPDX-License-Identifier: MPL-2.0

//go:build pn

// The build with the "pn" tag (make reference-pn): the HCL and cty versions
// that current Terraform pins, profile PN. See profile_p14.go; the versions
// must match conformance/profiles.json and tools/pn-fetch.
package main

const (
	implVersion = "hcl 2.24.0 / cty 1.18.1"
	profileID   = "PN"
	// libraryLine completes the first sentence of the usage text.
	libraryLine = "upstream HCL 2.24.0\nand cty 1.18.1"
)
