// SPDX-License-Identifier: MPL-2.0
package main

import (
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	ctyyaml "github.com/zclconf/go-cty-yaml"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// The function table: Terraform's, as Terraform's internal/lang/functions.go
// (main branch) registers it for a module, or for `terraform console`.
//
// Each name is either the very cty 1.12.1 stdlib function (or HCL 2.14.1
// ext/tryfunc function) Terraform registers under it, or Terraform's own
// function (internal/lang/funcs) written again here from Terraform's
// behaviour, in the tf_*.go files, on the libraries Terraform uses. So
// every registered function has Terraform's semantics, with what belongs
// to the libraries (cty's function calls, unknowns, marks, conversions;
// HCL's argument handling) as cty 1.12.1 and HCL 2.14.1 have it: profile
// P14. Where a later cty changed a stdlib function (element with a
// negative index, contains with a null value, merge with null objects,
// jsondecode with duplicate keys, the formatdate/timeadd timestamp parser,
// format/formatlist with unknowns), that is a difference between profiles,
// not between implementations.
//
// What Terraform has and this table does not:
//   - the "core::" aliases of every name (core::abs, ...): HCL 2.14.1's
//     parser has no namespaced function names, so no call could reach
//     them;
//   - provider-defined functions (provider::NAME::fn);
//   - in P14, the result refinements of Terraform's own functions, which
//     need cty 1.13 (the PN build has them: tf_refine_pn.go).
//
// And the scopes: `type` is only in the console table (Terraform registers
// it only in `terraform console`), plantimestamp only in the module table
// (Terraform leaves it out of the console).

// tableKey names one of the four tables: module or console, Terraform's
// or OpenTofu's.
type tableKey struct{ console, opentofu bool }

// functionTables caches the tables.
var (
	functionTablesMu sync.Mutex
	functionTables   = map[tableKey]map[string]function.Function{}
)

// functionsFor returns Terraform's function table of a module evaluation
// (console false) or of a console one.
func functionsFor(console bool) map[string]function.Function {
	return functionsForFlavor(console, false)
}

// functionsForFlavor returns the table of a module or console evaluation,
// Terraform's or, with opentofu, OpenTofu's: Terraform's plus OpenTofu's
// own functions (tf_opentofu.go), whose templatefile and templatestring
// render with that same table.
func functionsForFlavor(console, opentofu bool) map[string]function.Function {
	functionTablesMu.Lock()
	defer functionTablesMu.Unlock()
	key := tableKey{console, opentofu}
	if t, ok := functionTables[key]; ok {
		return t
	}
	t := buildFunctionTable(console)
	if opentofu {
		for name, f := range openTofuFunctions {
			t[name] = f
		}
	}
	refineTerraformResults(t) // result refinements (PN only, tf_refine_pn.go)
	addNamespacedFunctions(t) // core:: and provider:: names (PN only, tf_provider_pn.go)
	functionTables[key] = t
	return t
}

// buildFunctionTable builds one scope's table. The comment of each entry
// says where the function comes from: "cty" (the stdlib function
// Terraform registers), "HCL" (ext/tryfunc), "TF" (Terraform's own,
// written here).
func buildFunctionTable(console bool) map[string]function.Function {
	table := map[string]function.Function{
		// Numbers.
		"abs":      stdlib.AbsoluteFunc, // cty
		"ceil":     stdlib.CeilFunc,     // cty
		"floor":    stdlib.FloorFunc,    // cty
		"log":      tfLogFunc,           // TF: cty's LogFunc with a NaN check (tf_numbers.go)
		"max":      stdlib.MaxFunc,      // cty
		"min":      stdlib.MinFunc,      // cty
		"parseint": stdlib.ParseIntFunc, // cty
		"pow":      tfPowFunc,           // TF: cty's PowFunc with a NaN check (tf_numbers.go)
		"signum":   stdlib.SignumFunc,   // cty
		"sum":      tfSumFunc,           // TF (tf_collections.go)

		// Strings and regular expressions.
		"chomp":       stdlib.ChompFunc,      // cty
		"endswith":    tfEndsWithFunc,        // TF (tf_strings.go)
		"format":      stdlib.FormatFunc,     // cty
		"formatlist":  stdlib.FormatListFunc, // cty
		"indent":      stdlib.IndentFunc,     // cty
		"join":        stdlib.JoinFunc,       // cty
		"lower":       stdlib.LowerFunc,      // cty
		"regex":       stdlib.RegexFunc,      // cty
		"regexall":    stdlib.RegexAllFunc,   // cty
		"replace":     tfReplaceFunc,         // TF (tf_strings.go)
		"split":       stdlib.SplitFunc,      // cty
		"startswith":  tfStartsWithFunc,      // TF (tf_strings.go)
		"strcontains": tfStrContainsFunc,     // TF (tf_strings.go)
		"strrev":      stdlib.ReverseFunc,    // cty (the string reverse)
		"substr":      stdlib.SubstrFunc,     // cty
		"title":       stdlib.TitleFunc,      // cty
		"trim":        stdlib.TrimFunc,       // cty
		"trimprefix":  stdlib.TrimPrefixFunc, // cty
		"trimspace":   stdlib.TrimSpaceFunc,  // cty
		"trimsuffix":  stdlib.TrimSuffixFunc, // cty
		"upper":       stdlib.UpperFunc,      // cty

		// Collections.
		"alltrue":         tfAllTrueFunc,              // TF (tf_collections.go)
		"anytrue":         tfAnyTrueFunc,              // TF
		"chunklist":       stdlib.ChunklistFunc,       // cty
		"coalesce":        tfCoalesceFunc,             // TF: skips "" (tf_collections.go)
		"coalescelist":    stdlib.CoalesceListFunc,    // cty
		"compact":         stdlib.CompactFunc,         // cty
		"concat":          stdlib.ConcatFunc,          // cty
		"contains":        stdlib.ContainsFunc,        // cty
		"distinct":        stdlib.DistinctFunc,        // cty
		"element":         stdlib.ElementFunc,         // cty
		"flatten":         stdlib.FlattenFunc,         // cty
		"index":           tfIndexFunc,                // TF: the position of a value, not cty's IndexFunc
		"keys":            stdlib.KeysFunc,            // cty
		"length":          tfLengthFunc,               // TF: strings, structural types
		"list":            tfListFunc,                 // TF: removed, always an error
		"lookup":          tfLookupFunc,               // TF: two or three arguments
		"map":             tfMapFunc,                  // TF: removed, always an error
		"matchkeys":       tfMatchkeysFunc,            // TF
		"merge":           stdlib.MergeFunc,           // cty
		"one":             tfOneFunc,                  // TF
		"range":           stdlib.RangeFunc,           // cty
		"reverse":         stdlib.ReverseListFunc,     // cty (the list reverse)
		"setintersection": stdlib.SetIntersectionFunc, // cty
		"setproduct":      stdlib.SetProductFunc,      // cty
		"setsubtract":     stdlib.SetSubtractFunc,     // cty
		"setunion":        stdlib.SetUnionFunc,        // cty
		"slice":           stdlib.SliceFunc,           // cty
		"sort":            stdlib.SortFunc,            // cty
		"transpose":       tfTransposeFunc,            // TF
		"values":          stdlib.ValuesFunc,          // cty
		"zipmap":          stdlib.ZipmapFunc,          // cty

		// Encoding.
		"base64decode":     tfBase64DecodeFunc,     // TF (tf_encoding.go)
		"base64encode":     tfBase64EncodeFunc,     // TF
		"base64gzip":       tfBase64GzipFunc,       // TF
		"csvdecode":        stdlib.CSVDecodeFunc,   // cty
		"jsondecode":       stdlib.JSONDecodeFunc,  // cty
		"jsonencode":       stdlib.JSONEncodeFunc,  // cty
		"textdecodebase64": tfTextDecodeBase64Func, // TF
		"textencodebase64": tfTextEncodeBase64Func, // TF
		"urlencode":        tfURLEncodeFunc,        // TF
		"yamldecode":       ctyyaml.YAMLDecodeFunc, // go-cty-yaml (P14: Debian's 1.0.2; PN: 1.1.0, Terraform's)
		"yamlencode":       ctyyaml.YAMLEncodeFunc, // go-cty-yaml (idem)

		// Hashes and crypto (tf_crypto.go).
		"base64sha256": tfBase64Sha256Func, // TF
		"base64sha512": tfBase64Sha512Func, // TF
		"bcrypt":       tfBcryptFunc,       // TF, random salt
		"md5":          tfMd5Func,          // TF
		"rsadecrypt":   tfRsaDecryptFunc,   // TF
		"sha1":         tfSha1Func,         // TF
		"sha256":       tfSha256Func,       // TF
		"sha512":       tfSha512Func,       // TF
		"uuid":         tfUUIDFunc,         // TF, random
		"uuidv5":       tfUUIDv5Func,       // TF

		// IP networks (tf_cidr.go).
		"cidrhost":    tfCidrHostFunc,    // TF
		"cidrnetmask": tfCidrNetmaskFunc, // TF
		"cidrsubnet":  tfCidrSubnetFunc,  // TF
		"cidrsubnets": tfCidrSubnetsFunc, // TF

		// Files and paths (tf_files.go).
		"abspath":          tfAbsPathFunc,          // TF
		"basename":         tfBasenameFunc,         // TF
		"dirname":          tfDirnameFunc,          // TF
		"file":             tfFileFunc,             // TF
		"filebase64":       tfFileBase64Func,       // TF
		"filebase64sha256": tfFileBase64Sha256Func, // TF
		"filebase64sha512": tfFileBase64Sha512Func, // TF
		"fileexists":       tfFileExistsFunc,       // TF
		"filemd5":          tfFileMd5Func,          // TF
		"fileset":          tfFileSetFunc,          // TF
		"filesha1":         tfFileSha1Func,         // TF
		"filesha256":       tfFileSha256Func,       // TF
		"filesha512":       tfFileSha512Func,       // TF
		"pathexpand":       tfPathExpandFunc,       // TF

		// Date and time.
		"formatdate": stdlib.FormatDateFunc, // cty
		"timeadd":    stdlib.TimeAddFunc,    // cty
		"timecmp":    tfTimeCmpFunc,         // TF (tf_datetime.go)
		"timestamp":  tfTimestampFunc,       // TF, the clock (tf_datetime.go)

		// Types, conversions and marks.
		"convert":         tfConvertFunc,                             // TF: type-constraint argument (tf_conversion.go)
		"ephemeralasnull": tfEphemeralAsNullFunc,                     // TF (tf_sensitive.go)
		"issensitive":     tfIssensitiveFunc,                         // TF
		"nonsensitive":    tfNonsensitiveFunc,                        // TF
		"sensitive":       tfSensitiveFunc,                           // TF
		"tobool":          tfToFunc(cty.Bool),                        // TF's MakeToFunc (tf_conversion.go)
		"tolist":          tfToFunc(cty.List(cty.DynamicPseudoType)), // TF
		"tomap":           tfToFunc(cty.Map(cty.DynamicPseudoType)),  // TF
		"tonumber":        tfToFunc(cty.Number),                      // TF
		"toset":           tfToFunc(cty.Set(cty.DynamicPseudoType)),  // TF
		"tostring":        tfToFunc(cty.String),                      // TF

		// Errors: HCL's try and can, which Terraform registers as they are
		// (HCL 2.14.1's unknown handling).
		"can": tryfunc.CanFunc, // HCL
		"try": tryfunc.TryFunc, // HCL
	}

	// Templates: templatefile and templatestring render with this very
	// table (less what a template may not call), so they get it through a
	// callback.
	self := func() map[string]function.Function { return table }
	table["templatefile"] = makeTemplateFileFunc(self)     // TF (tf_files.go)
	table["templatestring"] = makeTemplateStringFunc(self) // TF (tf_template.go)

	if console {
		table["type"] = tfTypeFunc // TF, console only (tf_conversion.go)
	} else {
		table["plantimestamp"] = tfPlanTimestampFunc // TF, not in the console (tf_datetime.go)
	}
	return table
}

// terraformSemanticsFunctions lists the functions whose fn:<name>
// capability the adapter declares: every function of either table, since
// each is Terraform's (see above). A case calling `type` needs a console
// request: in an eval request, as in a Terraform module, it is an unknown
// function.
func terraformSemanticsFunctions() []string {
	seen := map[string]bool{}
	var names []string
	for _, console := range []bool{false, true} {
		for name := range functionsFor(console) {
			// core::NAME and provider::...::NAME (PN) are NAME's or the
			// provider's: no capability of their own
			if !seen[name] && !strings.Contains(name, "::") {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	sort.Strings(names)
	return names
}

// openTofuOnlyFunctions lists the functions only OpenTofu's table has,
// whose fn:<name> capability the adapter declares too (with
// flavor.opentofu): fn:<name> of such a function means the function with
// OpenTofu's semantics, offered under flavor "opentofu".
func openTofuOnlyFunctions() []string {
	names := make([]string, 0, len(openTofuFunctions))
	for name := range openTofuFunctions {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
