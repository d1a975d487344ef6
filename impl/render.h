/* SPDX-License-Identifier: MPL-2.0 */
/*
 * render.h — values as text for people: the output of `terraform
 * console`, and the one-line notation of the design notes (semantics.md
 * 0.3) used in tests and messages.  Also the text building blocks that
 * jsonio.c shares: a growable text in an arena, and Go's quoting of
 * strings (strconv.Quote, which fmt's %q uses).
 *
 * The functions that take a tfx_ctx allocate in its arena and may fail
 * through tfx_ctx_fail (call them inside tfx_ctx_try); the ones without
 * a ctx make their own and return malloc'd text.
 */
#ifndef TFX_RENDER_H
#define TFX_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"
#include "type.h"
#include "value.h"



/* --- terraform console --- */

/* v as `terraform console` prints it (Terraform's repl.FormatValue at
 * indent 0, the release that goes with HCL 2.14.1 / cty 1.12.1):
 * "(known after apply)" for an unknown, "(sensitive value)" for a value
 * marked sensitive, tostring(null) and the like for nulls, quoted
 * strings, heredocs for strings of several lines, tolist([...]),
 * toset([...]), tomap({...}), one element per line with an indent of
 * two spaces.  In the arena; *nbytes its length (may be NULL). */
const char *tfx_render_console_in(tfx_ctx *ctx, const tfx_value *v, size_t *nbytes);

/* The same in malloc'd memory (the caller frees it); NULL if memory
 * runs out. */
char *tfx_render_console(const tfx_value *v);

/* [fn.type.text] The type t as `terraform console` prints a type() result
 * ("object({\n    a: number,\n})").  In the arena; *nbytes its length
 * (may be NULL). */
const char *tfx_render_type_in(tfx_ctx *ctx, const tfx_type *t, size_t *nbytes);

/* --- The notation of the design notes --- */

/* v in the notation of semantics.md 0.3, on one line: "s" (Go-quoted),
 * 1.5, true, [a,b] (tuple), list[a], set[a], map{"k"=v}, {"k"=v}
 * (object), null(T), unknown(T), type(T) for a capsule of type `type`
 * holding T, and a suffix @name for each mark. */
const char *tfx_render_debug_value(tfx_ctx *ctx, const tfx_value *v);

/* "VALUE :: TYPE", e.g. `list["a",unknown(string)] :: list(string)`. */
const char *tfx_render_debug(tfx_ctx *ctx, const tfx_value *v);

#endif /* TFX_RENDER_H */
