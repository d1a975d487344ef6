/* SPDX-License-Identifier: MPL-2.0 */
/*
 * parse.h — the parser (spec/grammar.md, spec/templates.md).
 *
 * Parses an expression or a bare template into a syntax tree, reporting
 * every syntax error upstream reports, with the same ranges, in the same
 * order.  The tree is always made (with placeholders where the source is
 * broken); a tree whose parse had errors is never evaluated.
 */
#ifndef TFX_PARSE_H
#define TFX_PARSE_H

#include <stddef.h>

#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "lex.h"

/* Default nesting limit: brackets, calls, templates, unary operators and
 * conditionals nested deeper than this end the parse with a resource.limit
 * error [limit.depth]. */
#define TFX_DEFAULT_MAX_DEPTH 256

/* Parses src[0..nbytes) in `mode`.  Diagnostics (lexical ones first) are
 * appended to `diags`.  Returns the root node, or NULL when the arena ran
 * out (then diags holds a resource.limit error). */
tfx_node *tfx_parse(tfx_arena *arena, const unsigned char *src, size_t nbytes,
                    tfx_lex_mode mode, size_t max_depth, tfx_diags *diags);

/* tfx_parse with the syntax of profile PN when `pn` (newer HCL's), of
 * profile P14 otherwise (tfx_parse is this with pn false). */
tfx_node *tfx_parse_profile(tfx_arena *arena, const unsigned char *src, size_t nbytes,
                            tfx_lex_mode mode, size_t max_depth, bool pn, tfx_diags *diags);

/* The same parse by the general paths alone, without the parser's fast
 * paths (the binary operators by the grammar's rule as written, one call
 * per precedence level, instead of tfx_p_binary's single loop; every
 * template literal decoded slice by slice): the reference those are tested
 * against (impl/test/test_parse.c). */
tfx_node *tfx_parse_general(tfx_arena *arena, const unsigned char *src, size_t nbytes,
                            tfx_lex_mode mode, size_t max_depth, tfx_diags *diags);

/* tfx_parse_general with the syntax of profile PN when `pn`. */
tfx_node *tfx_parse_general_profile(tfx_arena *arena, const unsigned char *src, size_t nbytes,
                                    tfx_lex_mode mode, size_t max_depth, bool pn,
                                    tfx_diags *diags);

#endif /* TFX_PARSE_H */
