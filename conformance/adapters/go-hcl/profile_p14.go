// SPDX-License-Identifier: MPL-2.0

//go:build !pn

// The default build: Debian's HCL 2.14.1 and cty 1.12.1, profile P14.
// profile_pn.go is the same for the build with the "pn" tag (make
// reference-pn); what differs between the two builds is only here.
package main

const (
	implVersion = "hcl 2.14.1 / cty 1.12.1"
	profileID   = "P14"
	// libraryLine completes the first sentence of the usage text.
	libraryLine = "upstream HCL 2.14.1\nand cty 1.12.1"
)
