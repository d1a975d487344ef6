/* SPDX-License-Identifier: MPL-2.0 */
/*
 * jsonio.h — the JSON boundary: values and types in and out of JSON text.
 *
 * Three formats:
 *
 *  - Typed values, the encoding of the conformance corpus
 *    (conformance/README.md, "Typed values"): every node says whether it
 *    is known, null or unknown, carries its marks, and the top node its
 *    type.  Decoding accepts exactly what the Go reference adapter
 *    (conformance/adapters/go-hcl/values.go) accepts, with its messages;
 *    encoding writes what it writes, byte for byte.
 *  - Types in cty's JSON type syntax: "string", ["list","string"],
 *    ["object",{"a":"number"}], ["tuple",["bool"]], "dynamic".
 *  - Plain JSON as cty's json package reads and writes it (jsondecode,
 *    jsonencode, values given on the command line): the type is implied
 *    by the text, and no unknowns or marks can be expressed.
 *
 * Every function that takes a tfx_ctx allocates in its arena, may fail
 * through tfx_ctx_fail (resource limits: call it inside tfx_ctx_try), and
 * reports malformed input by returning NULL (or false) and setting
 * *error to a message in the arena.  The JSON texts need not be
 * NUL-terminated.
 */
#ifndef TFX_JSONIO_H
#define TFX_JSONIO_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"
#include "type.h"
#include "value.h"

/* --- Typed values --- */

/* One typed value (a top node with "type").  Error messages begin with
 * the path of the node at fault, "value" for the top one, as the Go
 * adapter writes them: value.attr, value[0], value["key"]. */
const tfx_value *tfx_json_decode_typed(tfx_ctx *ctx, const char *json, size_t nbytes,
                                       const char **error);

/* The same, naming the top node `path` in messages (e.g.
 * "variables.name"). */
const tfx_value *tfx_json_decode_typed_at(tfx_ctx *ctx, const char *json, size_t nbytes,
                                          const char *path, const char **error);

/* The variables of a case: a JSON object of name -> value, sorted by
 * name, a later duplicate name winning (as Go's encoding/json does). */
typedef struct {
    size_t n;
    const tfx_str *names;               /* sorted by bytes, distinct */
    const tfx_value *const *values;
} tfx_json_vars;

/* Decodes a variables object into *out (usable as a tfx_env's variable
 * table).  typed: each value is a typed value (errors name it
 * "variables.NAME"), as in a case; otherwise plain JSON, as
 * tfx_json_decode_plain reads it (errors begin "variables.NAME: "). */
bool tfx_json_decode_vars(tfx_ctx *ctx, const char *json, size_t nbytes, bool typed,
                          tfx_json_vars *out, const char **error);
/* The same without the reader's fast paths (for tests, which compare the
 * two). */
bool tfx_json_decode_vars_general(tfx_ctx *ctx, const char *json, size_t nbytes, bool typed,
                                  tfx_json_vars *out, const char **error);

/* v as a typed value, compact JSON, byte for byte what the Go adapter
 * writes: the top node with "type"; a node's members in the order type,
 * v, null, unknown, marks; object and map members sorted by key; set
 * elements in set order; marks sorted; numbers as text ("1.5", "-0",
 * "inf", "-inf"); strings escaped as Go's encoding/json does (<, >, &,
 * U+2028 and U+2029 as \u escapes).  A node whose enclosing type says
 * dynamic but that has a type of its own carries "type" too.  In the
 * arena; *nbytes its length (may be NULL).  NULL with *error only for a
 * value that breaks the invariants of value.h (a known value of type
 * dynamic). */
const char *tfx_json_encode_typed_in(tfx_ctx *ctx, const tfx_value *v, size_t *nbytes,
                                     const char **error);

/* The same in malloc'd memory (the caller frees it), for callers outside
 * any ctx; NULL if memory runs out or v cannot be encoded. */
char *tfx_json_encode_typed(const tfx_value *v);

/* --- Types --- */

/* A type in cty's JSON type syntax, as cty's Type.UnmarshalJSON reads
 * it; object types with optional attributes are refused (only type
 * constraints have them).  Messages: "invalid type T: <cty's reason>",
 * "type T has optional attributes (in U), which the case format cannot
 * express". */
const tfx_type *tfx_json_decode_type(tfx_ctx *ctx, const char *json, size_t nbytes,
                                     const char **error);

/* A type constraint in cty's JSON type syntax: as tfx_json_decode_type,
 * but object types keep their optional attributes
 * (["object",{...},["a"]], [conv.object.optional]). */
const tfx_type *tfx_json_decode_constraint(tfx_ctx *ctx, const char *json, size_t nbytes,
                                           const char **error);

/* t in cty's JSON type syntax, as Type.MarshalJSON writes it (compact,
 * object attributes sorted, optional attributes as a third element).  In
 * the arena. */
const char *tfx_json_encode_type(tfx_ctx *ctx, const tfx_type *t, size_t *nbytes);

/* --- Plain JSON (cty's json package) --- */

/* A JSON text read as cty's json.ImpliedType and json.Unmarshal read it
 * (what jsondecode does): objects become objects, arrays tuples, numbers
 * are parsed from their literal text at 512 bits, null is a null of type
 * dynamic, strings are NFC.  Go's Decoder rules apply: syntax errors have
 * encoding/json's messages ("invalid character 'x' looking for beginning
 * of value", "unexpected EOF"), data after the value is an error
 * ("extraneous data after JSON object") unless it begins with ] or }.
 * Other messages are cty's ("a number is required", "unsupported
 * attribute \"x\""). */
const tfx_value *tfx_json_decode_plain(tfx_ctx *ctx, const char *json, size_t nbytes,
                                       const char **error);

/* tfx_json_decode_plain under a profile: with pn, cty 1.16.2's
 * json.ImpliedType, where a key given twice in one object with values of
 * other implied types is "duplicate \"KEY\" property in JSON object"
 * ([fn.jsondecode.duplicate.pn]). */
const tfx_value *tfx_json_decode_plain_profile(tfx_ctx *ctx, const char *json, size_t nbytes,
                                               bool pn, const char **error);

/* A wholly known value as compact JSON, as cty's json.Marshal(v,
 * v.Type()) writes it (what jsonencode does): object and map members
 * sorted by key, sets as arrays in set order, lists and tuples as
 * arrays, numbers in Go's Text('f', -1) form, strings escaped as Go's
 * encoding/json does, null as null.  NULL with *error set to cty's
 * message for an unknown value ("value is not known"), a marked one
 * ("value has marks, so it cannot be serialized as JSON") or an infinity
 * ("cannot serialize infinity as JSON"), the first found in document
 * order.  In the arena; *nbytes its length (may be NULL). */
const char *tfx_json_encode_plain(tfx_ctx *ctx, const tfx_value *v, size_t *nbytes,
                                  const char **error);

#endif /* TFX_JSONIO_H */
