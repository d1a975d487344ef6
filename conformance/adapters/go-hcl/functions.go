package main

import (
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// functionTable is the function table of every evaluation: each function of
// cty 1.12.1's function/stdlib that Terraform has a function of the same
// purpose for, under Terraform's name, plus try and can from HCL's
// ext/tryfunc.
//
// A function being here does not claim Terraform's semantics; the fn:<name>
// capabilities do, and only for the names terraformSemanticsFunctions
// lists. The comment of each entry says whether it is Terraform's function
// ("=") or not ("NOT").
//
// Left out on purpose:
//   - index: cty's stdlib.IndexFunc fetches the element at a key, while
//     Terraform's index(list, value) returns the position of a value. Under
//     Terraform's name it would give wrong answers rather than an unknown
//     function, so it is not registered.
//   - cty stdlib functions Terraform has no function for (strlen, int,
//     bytes*, hasindex, sethaselement, setsymmetricdifference, the operator
//     functions add/equal/..., regex_replace): registering them would make
//     calls succeed that fail in Terraform with "Call to unknown function".
//   - Terraform's own functions (base64*, sha*, file*, cidr*, sum, one, ...):
//     not in cty or HCL, so the reference cannot answer for them.
var functionTable = map[string]function.Function{
	// Numeric.
	"abs":      stdlib.AbsoluteFunc, // = Terraform's abs
	"ceil":     stdlib.CeilFunc,     // = Terraform's ceil
	"floor":    stdlib.FloorFunc,    // = Terraform's floor
	"log":      stdlib.LogFunc,      // = Terraform's log up to its later NaN-checking wrapper
	"max":      stdlib.MaxFunc,      // = Terraform's max
	"min":      stdlib.MinFunc,      // = Terraform's min
	"parseint": stdlib.ParseIntFunc, // = Terraform's parseint
	"pow":      stdlib.PowFunc,      // = Terraform's pow up to its later NaN-checking wrapper
	"signum":   stdlib.SignumFunc,   // = Terraform's signum

	// Strings and regular expressions.
	"chomp":      stdlib.ChompFunc,      // = Terraform's chomp
	"format":     stdlib.FormatFunc,     // = Terraform's format
	"formatlist": stdlib.FormatListFunc, // = Terraform's formatlist
	"indent":     stdlib.IndentFunc,     // = Terraform's indent
	"join":       stdlib.JoinFunc,       // = Terraform's join
	"lower":      stdlib.LowerFunc,      // = Terraform's lower
	"regex":      stdlib.RegexFunc,      // = Terraform's regex
	"regexall":   stdlib.RegexAllFunc,   // = Terraform's regexall
	"replace":    terraformReplaceFunc,  // Terraform's replace, put together from cty's two (below)
	"split":      stdlib.SplitFunc,      // = Terraform's split
	"strrev":     stdlib.ReverseFunc,    // cty's ReverseFunc is the string reverse = Terraform's strrev
	"substr":     stdlib.SubstrFunc,     // = Terraform's substr
	"title":      stdlib.TitleFunc,      // = Terraform's title
	"trim":       stdlib.TrimFunc,       // = Terraform's trim
	"trimprefix": stdlib.TrimPrefixFunc, // = Terraform's trimprefix
	"trimspace":  stdlib.TrimSpaceFunc,  // = Terraform's trimspace
	"trimsuffix": stdlib.TrimSuffixFunc, // = Terraform's trimsuffix
	"upper":      stdlib.UpperFunc,      // = Terraform's upper

	// Collections.
	"chunklist":       stdlib.ChunklistFunc,       // = Terraform's chunklist
	"coalesce":        stdlib.CoalesceFunc,        // NOT Terraform's: cty's returns "" where Terraform's skips it
	"coalescelist":    stdlib.CoalesceListFunc,    // = Terraform's coalescelist
	"compact":         stdlib.CompactFunc,         // = Terraform's compact
	"concat":          stdlib.ConcatFunc,          // = Terraform's concat
	"contains":        stdlib.ContainsFunc,        // = Terraform's contains
	"distinct":        stdlib.DistinctFunc,        // = Terraform's distinct
	"element":         stdlib.ElementFunc,         // = Terraform's element
	"flatten":         stdlib.FlattenFunc,         // = Terraform's flatten
	"keys":            stdlib.KeysFunc,            // = Terraform's keys
	"length":          stdlib.LengthFunc,          // NOT Terraform's: cty's rejects strings
	"lookup":          stdlib.LookupFunc,          // NOT Terraform's: cty's needs exactly 3 arguments
	"merge":           stdlib.MergeFunc,           // = Terraform's merge
	"range":           stdlib.RangeFunc,           // = Terraform's range
	"reverse":         stdlib.ReverseListFunc,     // = Terraform's reverse (the list reverse)
	"setintersection": stdlib.SetIntersectionFunc, // = Terraform's setintersection
	"setproduct":      stdlib.SetProductFunc,      // = Terraform's setproduct
	"setsubtract":     stdlib.SetSubtractFunc,     // = Terraform's setsubtract
	"setunion":        stdlib.SetUnionFunc,        // = Terraform's setunion
	"slice":           stdlib.SliceFunc,           // = Terraform's slice
	"sort":            stdlib.SortFunc,            // = Terraform's sort
	"values":          stdlib.ValuesFunc,          // = Terraform's values
	"zipmap":          stdlib.ZipmapFunc,          // = Terraform's zipmap

	// Encoding.
	"csvdecode":  stdlib.CSVDecodeFunc,  // = Terraform's csvdecode
	"jsondecode": stdlib.JSONDecodeFunc, // = Terraform's jsondecode
	"jsonencode": stdlib.JSONEncodeFunc, // = Terraform's jsonencode

	// Date and time.
	"formatdate": stdlib.FormatDateFunc, // = Terraform's formatdate
	"timeadd":    stdlib.TimeAddFunc,    // = Terraform's timeadd

	// Type conversion: cty's MakeToFunc. Terraform has its own (marked
	// arguments allowed with redacted error messages, unknown arguments keep
	// their marks), so none of these is Terraform's.
	"tobool":   stdlib.MakeToFunc(cty.Bool),                        // NOT Terraform's tobool
	"tolist":   stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType)), // NOT Terraform's tolist
	"tomap":    stdlib.MakeToFunc(cty.Map(cty.DynamicPseudoType)),  // NOT Terraform's tomap
	"tonumber": stdlib.MakeToFunc(cty.Number),                      // NOT Terraform's tonumber
	"toset":    stdlib.MakeToFunc(cty.Set(cty.DynamicPseudoType)),  // NOT Terraform's toset
	"tostring": stdlib.MakeToFunc(cty.String),                      // NOT Terraform's tostring

	// HCL's try and can, which Terraform registers as they are.
	"can": tryfunc.CanFunc, // = Terraform's can (with HCL 2.14.1's unknown handling)
	"try": tryfunc.TryFunc, // = Terraform's try (with HCL 2.14.1's unknown handling)
}

// terraformSemanticsFunctions lists the functions whose fn:<name>
// capability the adapter declares: those for which the table above holds
// the very function Terraform registered under that name while Terraform
// was built on cty 1.12.1 / HCL 2.14.x, which is what profile P14 pins.
//
// Where a later cty changed one of these functions (element with a
// negative index, contains with a null value, merge with null objects,
// jsondecode with duplicate keys, the formatdate/timeadd timestamp parser,
// format/formatlist with unknowns), that is a difference between profiles,
// not between implementations: a case that depends on it holds in P14 or
// in PN only, and its "profiles" say which.
//
// Not declared, because Terraform's function of that name has never been
// cty's (the function stays callable, but a case requiring fn:<name> is
// not sent to this adapter):
//   - coalesce: Terraform skips "" arguments when the unified type is
//     string (cty 1.12.1 returns the first non-null argument).
//   - length: Terraform counts string grapheme clusters and takes the
//     length of tuples and objects from their type, even when unknown.
//   - lookup: Terraform takes two or three arguments and fails on a
//     missing key without a default.
//   - tobool, tolist, tomap, tonumber, toset, tostring: Terraform's own
//     MakeToFunc (marked arguments allowed with redacted error messages,
//     unknown arguments keep their marks).
func terraformSemanticsFunctions() []string {
	return []string{
		"abs", "can", "ceil", "chomp", "chunklist", "coalescelist",
		"compact", "concat", "contains", "csvdecode", "distinct",
		"element", "flatten", "floor", "format", "formatdate",
		"formatlist", "indent", "join", "jsondecode", "jsonencode",
		"keys", "log", "lower", "max", "merge", "min", "parseint", "pow",
		"range", "regex", "regexall", "replace", "reverse",
		"setintersection", "setproduct", "setsubtract", "setunion",
		"signum", "slice", "sort", "split", "strrev", "substr",
		"timeadd", "title", "trim", "trimprefix", "trimspace",
		"trimsuffix", "try", "upper", "values", "zipmap",
	}
}

// terraformReplaceFunc is Terraform's replace: when substr is longer than
// one byte and both starts and ends with "/", the text between the slashes
// is a Go regular expression and the call is cty's RegexReplaceFunc (all
// matches, "$" expansion in the replacement, a compile error is a plain
// function error); otherwise it is cty's literal ReplaceFunc (all
// non-overlapping occurrences). Same parameter names and flags as
// Terraform's, so argument errors read the same.
var terraformReplaceFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "substr", Type: cty.String},
		{Name: "replace", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		substr := args[1].AsString()
		if n := len(substr); n > 1 && substr[0] == '/' && substr[n-1] == '/' {
			pattern := cty.StringVal(substr[1 : n-1])
			return stdlib.RegexReplaceFunc.Call([]cty.Value{args[0], pattern, args[2]})
		}
		return stdlib.ReplaceFunc.Call(args)
	},
})
