// SPDX-License-Identifier: MPL-2.0
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"sort"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// node is one node of a typed value (conformance/README.md, "Typed
// values"). Type is set on the top node only. V is nil exactly when the
// node is null or unknown; for a known value it holds a bool, a number or
// string as a Go string, a []*node (list, set, tuple) or a map[string]*node
// (map, object).
type node struct {
	Type    json.RawMessage `json:"type,omitempty"`
	V       interface{}     `json:"v,omitempty"`
	Null    bool            `json:"null,omitempty"`
	Unknown bool            `json:"unknown,omitempty"`
	// Refinements of an unknown value (profile PN only; see
	// refinementsOf and refineUnknown in profile_*.go).
	Refinements *refinements `json:"refinements,omitempty"`
	Marks       []string     `json:"marks,omitempty"`
}

// refinements is an unknown node's "refinements" (conformance/README.md,
// "Refinements"): what cty's Value.Range() knows beyond its defaults.
type refinements struct {
	NotNull              bool    `json:"not_null,omitempty"`
	StringPrefix         string  `json:"string_prefix,omitempty"`
	NumberLower          *string `json:"number_lower,omitempty"`
	NumberLowerInclusive *bool   `json:"number_lower_inclusive,omitempty"`
	NumberUpper          *string `json:"number_upper,omitempty"`
	NumberUpperInclusive *bool   `json:"number_upper_inclusive,omitempty"`
	LengthLower          int     `json:"length_lower,omitempty"`
	LengthUpper          *int    `json:"length_upper,omitempty"`
}

// decodeRefinements reads a node's "refinements" strictly: known members
// only, each bound with its inclusiveness.
func decodeRefinements(raw json.RawMessage, path string) (*refinements, error) {
	var r refinements
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf(`%s: invalid "refinements": %v`, path, err)
	}
	if (r.NumberLower == nil) != (r.NumberLowerInclusive == nil) ||
		(r.NumberUpper == nil) != (r.NumberUpperInclusive == nil) {
		return nil, fmt.Errorf(`%s: a number bound and its "_inclusive" flag go together`, path)
	}
	if r.LengthLower < 0 || (r.LengthUpper != nil && *r.LengthUpper < 0) {
		return nil, fmt.Errorf(`%s: a length bound must not be negative`, path)
	}
	return &r, nil
}

// ---------------------------------------------------------------------------
// Encoding results

// encodeTypedValue encodes a result: the top node with its cty type.
func encodeTypedValue(v cty.Value) (*node, error) {
	tyJSON, err := marshalType(v.Type())
	if err != nil {
		return nil, fmt.Errorf("type %s: %v", v.Type().FriendlyName(), err)
	}
	n, err := encodeNode(v, "value")
	if err != nil {
		return nil, err
	}
	n.Type = tyJSON
	return n, nil
}

// encodeNode encodes v and everything in it. The marks of each level are
// taken off with Unmark before looking inside, so every node reports
// exactly the marks cty keeps at that position.
func encodeNode(v cty.Value, path string) (*node, error) {
	uv, marks := v.Unmark()
	n := &node{Marks: markNames(marks)}
	switch {
	case !uv.IsKnown():
		n.Unknown = true
		n.Refinements = refinementsOf(uv)
		return n, nil
	case uv.IsNull():
		n.Null = true
		return n, nil
	}
	ty := uv.Type()
	switch {
	case ty == cty.Bool:
		n.V = uv.True()
	case ty == cty.Number:
		n.V = numberText(uv.AsBigFloat())
	case ty == cty.String:
		n.V = uv.AsString()
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		// Sets iterate in cty's own order.
		elems := make([]*node, 0, uv.LengthInt())
		i := 0
		for it := uv.ElementIterator(); it.Next(); i++ {
			_, ev := it.Element()
			en, err := encodeNode(ev, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			elems = append(elems, en)
		}
		n.V = elems
	case ty.IsMapType() || ty.IsObjectType():
		attrs := make(map[string]*node, uv.LengthInt())
		for it := uv.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			key := k.AsString()
			en, err := encodeNode(ev, fmt.Sprintf("%s[%q]", path, key))
			if err != nil {
				return nil, err
			}
			attrs[key] = en
		}
		n.V = attrs
	case ty.Equals(typeType):
		// A type() result of a console request (conformance/README.md,
		// "Console requests"): the type as the console prints it.
		n.V = consoleTypeString(*uv.EncapsulatedValue().(*cty.Type))
	default:
		return nil, fmt.Errorf("%s: a known value of type %s has no encoding", path, ty.FriendlyName())
	}
	return n, nil
}

// numberText writes a cty number exactly: the shortest decimal that
// identifies the big.Float at its own precision, never in exponent form
// (as cty itself prints numbers), "inf"/"-inf" for the infinities and "-0"
// for negative zero.
func numberText(f *big.Float) string {
	switch {
	case f.IsInf():
		if f.Signbit() {
			return "-inf"
		}
		return "inf"
	case f.Sign() == 0:
		if f.Signbit() {
			return "-0"
		}
		return "0"
	}
	return f.Text('f', -1)
}

// markNames lists the marks of a value as strings, sorted. Marks the
// adapter puts on are strings already (Terraform's sensitive mark is
// "sensitive"); anything else is printed with fmt.
func markNames(marks cty.ValueMarks) []string {
	if len(marks) == 0 {
		return nil
	}
	names := make([]string, 0, len(marks))
	for m := range marks {
		if s, ok := m.(string); ok {
			names = append(names, s)
		} else {
			names = append(names, fmt.Sprint(m))
		}
	}
	sort.Strings(names)
	return names
}

// ---------------------------------------------------------------------------
// Decoding variables

// numberPattern is the number syntax of conformance/README.md (besides
// "inf" and "-inf").
var numberPattern = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// decodeTypedValue decodes a typed value (a top node, which must carry
// "type"). path names the value in error messages.
func decodeTypedValue(raw json.RawMessage, path string) (cty.Value, error) {
	fields, err := nodeFields(raw, path)
	if err != nil {
		return cty.NilVal, err
	}
	if _, ok := fields["type"]; !ok {
		return cty.NilVal, fmt.Errorf(`%s: a typed value needs "type"`, path)
	}
	return decodeNode(fields, cty.DynamicPseudoType, path)
}

// nodeFields splits a node into its fields and rejects fields the format
// does not have.
func nodeFields(raw json.RawMessage, path string) (map[string]json.RawMessage, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, fmt.Errorf("%s: a node must be a JSON object", path)
	}
	for k := range fields {
		switch k {
		case "type", "v", "null", "unknown", "marks", "refinements":
		default:
			return nil, fmt.Errorf("%s: unknown node field %q", path, k)
		}
	}
	return fields, nil
}

// decodeNode decodes one node whose enclosing type says ty. ty is dynamic
// for the top node and where a collection or structure says dynamic; only
// there may the node carry its own "type", and a known value must.
func decodeNode(fields map[string]json.RawMessage, ty cty.Type, path string) (cty.Value, error) {
	if rawTy, ok := fields["type"]; ok {
		own, err := ctyjson.UnmarshalType(rawTy)
		if err != nil {
			return cty.NilVal, fmt.Errorf("%s: invalid type %s: %v", path, string(rawTy), err)
		}
		if bad := optionalAttrsPath(own); bad != "" {
			return cty.NilVal, fmt.Errorf("%s: type %s has optional attributes (in %s); only type constraints may have them", path, string(rawTy), bad)
		}
		if ty != cty.DynamicPseudoType {
			return cty.NilVal, fmt.Errorf(`%s: "type" is allowed on an inner node only where the enclosing type says dynamic (here it says %s)`, path, typeString(ty))
		}
		ty = own
	}

	var marks []string
	if rawMarks, ok := fields["marks"]; ok {
		if err := json.Unmarshal(rawMarks, &marks); err != nil || marks == nil {
			return cty.NilVal, fmt.Errorf(`%s: "marks" must be an array of strings`, path)
		}
		for _, m := range marks {
			if m == "" {
				return cty.NilVal, fmt.Errorf(`%s: a mark name must not be empty`, path)
			}
		}
	}

	_, hasV := fields["v"]
	isNull, err := trueFlag(fields, "null", path)
	if err != nil {
		return cty.NilVal, err
	}
	isUnknown, err := trueFlag(fields, "unknown", path)
	if err != nil {
		return cty.NilVal, err
	}
	count := 0
	for _, b := range []bool{hasV, isNull, isUnknown} {
		if b {
			count++
		}
	}
	if count != 1 {
		return cty.NilVal, fmt.Errorf(`%s: a node has exactly one of "v", "null": true and "unknown": true`, path)
	}
	if _, ok := fields["refinements"]; ok && !isUnknown {
		return cty.NilVal, fmt.Errorf(`%s: only an unknown node has "refinements"`, path)
	}

	var val cty.Value
	switch {
	case isNull:
		val = cty.NullVal(ty)
	case isUnknown:
		val = cty.UnknownVal(ty)
		if rawRef, ok := fields["refinements"]; ok {
			ref, err := decodeRefinements(rawRef, path)
			if err != nil {
				return cty.NilVal, err
			}
			if val, err = refineUnknown(val, ref, path); err != nil {
				return cty.NilVal, err
			}
		}
	default:
		val, err = decodePayload(fields["v"], ty, path)
		if err != nil {
			return cty.NilVal, err
		}
	}

	if len(marks) > 0 {
		ms := make([]interface{}, len(marks))
		for i, m := range marks {
			ms[i] = m
		}
		val = val.WithMarks(cty.NewValueMarks(ms...))
	}
	return val, nil
}

// trueFlag reads "null" or "unknown": absent is false, true is true,
// anything else is malformed.
func trueFlag(fields map[string]json.RawMessage, name, path string) (bool, error) {
	raw, ok := fields[name]
	if !ok {
		return false, nil
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err != nil || !b || string(raw) == "null" {
		return false, fmt.Errorf(`%s: %q must be true when present`, path, name)
	}
	return true, nil
}

// decodePayload decodes the "v" of a known node of type ty.
func decodePayload(raw json.RawMessage, ty cty.Type, path string) (cty.Value, error) {
	switch {
	case ty == cty.DynamicPseudoType:
		return cty.NilVal, fmt.Errorf(`%s: a known value needs a concrete type, but the type here is dynamic (give the node its own "type")`, path)
	case ty == cty.Bool:
		var b bool
		if err := json.Unmarshal(raw, &b); err != nil || string(raw) == "null" {
			return cty.NilVal, fmt.Errorf("%s: a bool must be true or false, got %s", path, abbreviate(raw))
		}
		return cty.BoolVal(b), nil
	case ty == cty.Number:
		var s string
		if err := json.Unmarshal(raw, &s); err != nil || string(raw) == "null" {
			return cty.NilVal, fmt.Errorf("%s: a number must be a JSON string holding a decimal number, got %s", path, abbreviate(raw))
		}
		n, err := decodeNumber(s)
		if err != nil {
			return cty.NilVal, fmt.Errorf("%s: %v", path, err)
		}
		return n, nil
	case ty == cty.String:
		var s string
		if err := json.Unmarshal(raw, &s); err != nil || string(raw) == "null" {
			return cty.NilVal, fmt.Errorf("%s: a string must be a JSON string, got %s", path, abbreviate(raw))
		}
		return cty.StringVal(s), nil
	case ty.IsListType() || ty.IsSetType():
		elems, err := decodeArray(raw, path, -1, func(i int) cty.Type { return ty.ElementType() })
		if err != nil {
			return cty.NilVal, err
		}
		if len(elems) == 0 {
			if ty.IsListType() {
				return cty.ListValEmpty(ty.ElementType()), nil
			}
			return cty.SetValEmpty(ty.ElementType()), nil
		}
		if err := sameTypes(elems, path); err != nil {
			return cty.NilVal, err
		}
		if ty.IsListType() {
			return cty.ListVal(elems), nil
		}
		// cty moves the marks of set elements onto the set itself.
		return cty.SetVal(elems), nil
	case ty.IsTupleType():
		etys := ty.TupleElementTypes()
		elems, err := decodeArray(raw, path, len(etys), func(i int) cty.Type { return etys[i] })
		if err != nil {
			return cty.NilVal, err
		}
		if len(elems) == 0 {
			return cty.EmptyTupleVal, nil
		}
		return cty.TupleVal(elems), nil
	case ty.IsMapType():
		var raws map[string]json.RawMessage
		if err := json.Unmarshal(raw, &raws); err != nil || raws == nil {
			return cty.NilVal, fmt.Errorf("%s: a map must be a JSON object, got %s", path, abbreviate(raw))
		}
		if len(raws) == 0 {
			return cty.MapValEmpty(ty.ElementType()), nil
		}
		elems := make(map[string]cty.Value, len(raws))
		list := make([]cty.Value, 0, len(raws))
		for _, k := range sortedKeys(raws) {
			ev, err := decodeChild(raws[k], ty.ElementType(), fmt.Sprintf("%s[%q]", path, k))
			if err != nil {
				return cty.NilVal, err
			}
			elems[k] = ev
			list = append(list, ev)
		}
		if err := sameTypes(list, path); err != nil {
			return cty.NilVal, err
		}
		return cty.MapVal(elems), nil
	case ty.IsObjectType():
		var raws map[string]json.RawMessage
		if err := json.Unmarshal(raw, &raws); err != nil || raws == nil {
			return cty.NilVal, fmt.Errorf("%s: an object must be a JSON object, got %s", path, abbreviate(raw))
		}
		atys := ty.AttributeTypes()
		for k := range raws {
			if _, ok := atys[k]; !ok {
				return cty.NilVal, fmt.Errorf("%s: attribute %q is not in the object type", path, k)
			}
		}
		if len(atys) == 0 {
			return cty.EmptyObjectVal, nil
		}
		attrs := make(map[string]cty.Value, len(atys))
		for _, k := range sortedKeys(atys) {
			r, ok := raws[k]
			if !ok {
				return cty.NilVal, fmt.Errorf("%s: attribute %q of the object type has no value", path, k)
			}
			av, err := decodeChild(r, atys[k], fmt.Sprintf("%s.%s", path, k))
			if err != nil {
				return cty.NilVal, err
			}
			attrs[k] = av
		}
		return cty.ObjectVal(attrs), nil
	default:
		return cty.NilVal, fmt.Errorf("%s: values of type %s cannot be given", path, ty.FriendlyName())
	}
}

// decodeArray decodes the elements of a list, set or tuple payload; ety
// gives the enclosing type of element i, and want the number of elements a
// tuple type has (-1: any number).
func decodeArray(raw json.RawMessage, path string, want int, ety func(int) cty.Type) ([]cty.Value, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(raw, &raws); err != nil || raws == nil {
		return nil, fmt.Errorf("%s: a list, set or tuple must be a JSON array, got %s", path, abbreviate(raw))
	}
	if want >= 0 && len(raws) != want {
		return nil, fmt.Errorf("%s: the tuple type has %d elements, the value %d", path, want, len(raws))
	}
	elems := make([]cty.Value, len(raws))
	for i, r := range raws {
		ev, err := decodeChild(r, ety(i), fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return nil, err
		}
		elems[i] = ev
	}
	return elems, nil
}

func decodeChild(raw json.RawMessage, ty cty.Type, path string) (cty.Value, error) {
	fields, err := nodeFields(raw, path)
	if err != nil {
		return cty.NilVal, err
	}
	return decodeNode(fields, ty, path)
}

// sameTypes checks that the elements of a list, set or map agree on one
// type. Only nodes under a dynamic element type can break that, by giving
// themselves different types; cty would panic on it.
func sameTypes(elems []cty.Value, path string) error {
	first := elems[0].Type()
	for i, e := range elems[1:] {
		if !e.Type().Equals(first) {
			return fmt.Errorf("%s: the elements have different types (%s, then %s at element %d)", path, typeString(first), typeString(e.Type()), i+1)
		}
	}
	return nil
}

// decodeNumber parses a number string: the README's decimal syntax, rounded
// to 512 bits as cty does for literals, or "inf"/"-inf". "-0" stays a
// negative zero.
func decodeNumber(s string) (cty.Value, error) {
	switch s {
	case "inf":
		return cty.PositiveInfinity, nil
	case "-inf":
		return cty.NegativeInfinity, nil
	}
	if !numberPattern.MatchString(s) {
		return cty.NilVal, fmt.Errorf("%q is not a number (decimal digits, optional fraction and exponent, or inf/-inf)", s)
	}
	v, err := cty.ParseNumberVal(s)
	if err != nil {
		return cty.NilVal, fmt.Errorf("%q cannot be read as a number: %v", s, err)
	}
	return v, nil
}

// optionalAttrsPath returns where ty has an object type with optional
// attributes, or "".
func optionalAttrsPath(ty cty.Type) string {
	switch {
	case ty.IsObjectType():
		if len(ty.OptionalAttributes()) > 0 {
			return typeString(ty)
		}
		for _, k := range sortedKeys(ty.AttributeTypes()) {
			if p := optionalAttrsPath(ty.AttributeType(k)); p != "" {
				return p
			}
		}
	case ty.IsTupleType():
		for _, ety := range ty.TupleElementTypes() {
			if p := optionalAttrsPath(ety); p != "" {
				return p
			}
		}
	case ty.IsCollectionType():
		return optionalAttrsPath(ty.ElementType())
	}
	return ""
}

// marshalType is cty's type JSON with one difference: a tuple type made
// from a nil slice of element types (cty.Tuple(nil), which some functions
// build) is written ["tuple",[]] as the protocol requires, not with the
// null that encoding/json gives a nil slice. cty.Tuple(nil) and
// cty.EmptyTuple are the same type. The pattern cannot occur inside a JSON
// string, where quotes are escaped.
func marshalType(ty cty.Type) ([]byte, error) {
	if holdsTypeType(ty) {
		return marshalConsoleType(ty)
	}
	buf, err := ctyjson.MarshalType(ty)
	if err != nil {
		return nil, err
	}
	return bytes.ReplaceAll(buf, []byte(`["tuple",null]`), []byte(`["tuple",[]]`)), nil
}

// holdsTypeType reports whether ty is, or holds anywhere, the capsule type
// of type() results.
func holdsTypeType(ty cty.Type) bool {
	switch {
	case ty.Equals(typeType):
		return true
	case ty.IsCollectionType():
		return holdsTypeType(ty.ElementType())
	case ty.IsTupleType():
		for _, e := range ty.TupleElementTypes() {
			if holdsTypeType(e) {
				return true
			}
		}
	case ty.IsObjectType():
		for _, a := range ty.AttributeTypes() {
			if holdsTypeType(a) {
				return true
			}
		}
	}
	return false
}

// marshalConsoleType writes a type that holds the capsule type of type()
// results, which cty's type JSON refuses, with that capsule type written
// "type" (conformance/README.md, "Typed values"): a console request's
// result may be a type() result, or hold a null or unknown one.
func marshalConsoleType(ty cty.Type) ([]byte, error) {
	var b bytes.Buffer
	switch {
	case ty.Equals(typeType):
		b.WriteString(`"type"`)
	case ty.IsCollectionType():
		elem, err := marshalConsoleType(ty.ElementType())
		if err != nil {
			return nil, err
		}
		kind := "list"
		if ty.IsSetType() {
			kind = "set"
		} else if ty.IsMapType() {
			kind = "map"
		}
		fmt.Fprintf(&b, `[%q,%s]`, kind, elem)
	case ty.IsTupleType():
		b.WriteString(`["tuple",[`)
		for i, e := range ty.TupleElementTypes() {
			elem, err := marshalConsoleType(e)
			if err != nil {
				return nil, err
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(elem)
		}
		b.WriteString(`]]`)
	case ty.IsObjectType():
		attrs := ty.AttributeTypes()
		names := make([]string, 0, len(attrs))
		for name := range attrs {
			names = append(names, name)
		}
		sort.Strings(names)
		b.WriteString(`["object",{`)
		for i, name := range names {
			key, _ := json.Marshal(name)
			attr, err := marshalConsoleType(attrs[name])
			if err != nil {
				return nil, err
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(key)
			b.WriteByte(':')
			b.Write(attr)
		}
		b.WriteString(`}`)
		if optional := ty.OptionalAttributes(); len(optional) > 0 {
			opt := make([]string, 0, len(optional))
			for name := range optional {
				opt = append(opt, name)
			}
			sort.Strings(opt)
			list, _ := json.Marshal(opt)
			b.WriteByte(',')
			b.Write(list)
		}
		b.WriteString(`]`)
	default:
		return marshalType(ty)
	}
	return b.Bytes(), nil
}

// typeString writes a type in the JSON type syntax, for messages.
func typeString(ty cty.Type) string {
	buf, err := marshalType(ty)
	if err != nil {
		return ty.FriendlyName()
	}
	return string(buf)
}

// abbreviate shortens a raw JSON fragment for an error message.
func abbreviate(raw json.RawMessage) string {
	const max = 60
	if len(raw) > max {
		return string(raw[:max]) + "…"
	}
	return string(raw)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
