/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_meta.h — the descriptions of the built-in functions and the
 * function table that `tfexpr functions` prints (funcs_meta.c).  Not part
 * of the library's interface: the command line tool, which links the
 * static library, and the unit tests use it.
 *
 * Includes nothing of the library's internals, so that main.c can use it
 * beside tfexpr.h.
 */
#ifndef TFX_FUNCS_META_H
#define TFX_FUNCS_META_H

#include <stddef.h>

/* The most parameters (fixed ones and the variadic one) a description
 * has room for. */
#define TFX_FN_META_PARAMS 4

typedef struct {
    const char *name;   /* the parameter's name, as the function registers it */
    const char *text;   /* one sentence */
} tfx_fn_param_meta;

/* The description of one function: a sentence for the function and one
 * per parameter, the fixed parameters in order and then the variadic
 * one; the entries after the last have a NULL name. */
typedef struct {
    const char *name;
    const char *text;
    tfx_fn_param_meta params[TFX_FN_META_PARAMS];
} tfx_fn_meta;

/* The description of the function `name`, or NULL. */
const tfx_fn_meta *tfx_fn_meta_find(const char *name);

/* Description i, for i from 0 up, in the order of the names (bytes);
 * NULL when i is the number of descriptions or more. */
const tfx_fn_meta *tfx_fn_meta_at(size_t i);

/* Whether the function table leaves out the built-in function `name`, as
 * `terraform metadata functions` does: list and map (removed functions,
 * whose every call is an error) and type (for the console only). */
int tfx_fn_table_omits(const char *name);

/* The table of the built-in functions, sorted by name (bytes), in
 * malloc'd memory (free it with free or tfx_free):
 *  - json == 0: one line per function, "NAME(PARAM TYPE, ..., VAR TYPE...)
 *    RETURN-TYPE", types in type-constraint notation;
 *  - json != 0: one line of JSON in the shape of `terraform metadata
 *    functions -json` (format_version, function_signatures).
 * NULL when memory runs out (*error NULL) or a function's return type
 * cannot be worked out (*error a malloc'd message). */
char *tfx_fn_table(int json, char **error);

/* The same for a flavor's table [flavor.table]: Terraform's (opentofu 0,
 * what tfx_fn_table gives) or OpenTofu's (opentofu 1: Terraform's plus
 * base64gunzip, cidrcontains and urldecode). */
char *tfx_fn_table_flavor(int json, int opentofu, char **error);

/* The same for a profile's table: P14's (pn 0, what tfx_fn_table_flavor
 * gives) or PN's (pn 1), which also lists every function as core::NAME,
 * as `terraform metadata functions -json` does [call.pn.core], and whose
 * OpenTofu table has the assume* functions too [fn.assume.profile]. */
char *tfx_fn_table_profile(int json, int opentofu, int pn, char **error);

#endif /* TFX_FUNCS_META_H */
