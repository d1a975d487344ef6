/* SPDX-License-Identifier: MPL-2.0 */
/*
 * source.h — the parsed-source object behind the public tfx_source, shared
 * by the facade files (tfexpr.c, api_eval.c).
 */
#ifndef TFX_SOURCE_H
#define TFX_SOURCE_H

#include "arena.h"
#include "ast.h"
#include "tfexpr.h"

struct tfx_source {
    tfx_arena *arena;
    const char *filename;
    const unsigned char *text;
    size_t nbytes;
    tfx_node *root;             /* NULL when the parse ran out of memory */
    const tfx_diagnostic *diags; /* public copies of the diagnostics (malloc'd) */
    size_t ndiags;
    tfx_diagnostic *owned;      /* the malloc'd array behind diags, or NULL */
    int has_errors;
    tfx_profile profile;        /* the profile it was parsed with: its columns
                                 * count that profile's clusters ([lex.pos.column],
                                 * [lex.pos.column.pn]), and so does the caret
                                 * of tfx_diagnostic_render */
};

#endif /* TFX_SOURCE_H */
