// SPDX-License-Identifier: MPL-2.0
package main

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// refJSON is one traversal of a "refs" answer: the root name, the steps
// after it, the range of the root name and of the whole traversal
// (conformance/README.md, "Reference requests").
type refJSON struct {
	Root      string        `json:"root"`
	Steps     []refStepJSON `json:"steps"`
	RootRange *rangeJSON    `json:"root_range"`
	Range     *rangeJSON    `json:"range"`
}

// refStepJSON is an attribute step ({"attr": name}) or an index step with
// a literal key ({"index": typed value}), with its source range.
type refStepJSON struct {
	Attr  *string    `json:"attr,omitempty"`
	Index *node      `json:"index,omitempty"`
	Range *rangeJSON `json:"range"`
}

// expressionRefs lists the traversals hclsyntax's Variables() returns for
// expr, in its order, encoded for the protocol.
func expressionRefs(expr hclsyntax.Expression) ([]refJSON, error) {
	refs := []refJSON{}
	for _, t := range hclsyntax.Variables(expr) {
		if len(t) == 0 {
			return nil, fmt.Errorf("Variables() returned a traversal without a root")
		}
		root, ok := t[0].(hcl.TraverseRoot)
		if !ok {
			return nil, fmt.Errorf("Variables() returned a traversal without a root")
		}
		rootRange := root.SrcRange
		whole := t.SourceRange()
		ref := refJSON{
			Root:      root.Name,
			Steps:     []refStepJSON{},
			RootRange: encodeRange(&rootRange),
			Range:     encodeRange(&whole),
		}
		for _, step := range t[1:] {
			rng := step.SourceRange()
			s := refStepJSON{Range: encodeRange(&rng)}
			switch st := step.(type) {
			case hcl.TraverseAttr:
				name := st.Name
				s.Attr = &name
			case hcl.TraverseIndex:
				key, err := encodeTypedValue(st.Key)
				if err != nil {
					return nil, fmt.Errorf("index key: %v", err)
				}
				s.Index = key
			default:
				return nil, fmt.Errorf("Variables() returned a step of type %T", step)
			}
			ref.Steps = append(ref.Steps, s)
		}
		refs = append(refs, ref)
	}
	return refs, nil
}
