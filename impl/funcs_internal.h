/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_internal.h — what func.c and the files of built-in functions
 * (funcs_*.c) share: the function descriptions and small helpers for
 * reporting errors.  Not part of the library's interface.
 */
#ifndef TFX_FUNCS_INTERNAL_H
#define TFX_FUNCS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"
#include "func.h"
#include "num.h"
#include "type.h"
#include "value.h"

/* --- Helpers for implementations and type functions --- */

/* Sets *err to a plain error (cty's errors.New / fmt.Errorf) and returns
 * NULL, so an implementation can `return tfx_fn_error(err, "...")`. */
const void *tfx_fn_error(tfx_func_error *err, const char *message);

/* Sets *err to an argument error (cty's function.NewArgError) of argument
 * `arg` and returns NULL. */
const void *tfx_fn_arg_error(tfx_func_error *err, long arg, const char *message);

/* Fails the evaluation with "Memory limit exceeded" (tfx_ctx_fail), for a
 * number operation that reported TFX_NUM_ERR_NOMEM. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noreturn))
#endif
void tfx_fn_nomem(tfx_ctx *ctx);

/* The number operation's result as a value, or NULL with the plain error
 * of [num.inf-error] (tfx_num_err_reason) in *err; memory exhaustion fails
 * through tfx_ctx_fail. */
const tfx_value *tfx_fn_number_result(tfx_ctx *ctx, tfx_num_err status, const tfx_num *n,
                                      tfx_func_error *err);

/* The message of cty's Type.TestConformance(got, want) (its first error),
 * or NULL when got conforms to want [call.conformance]. */
const char *tfx_fn_conformance(tfx_ctx *ctx, const tfx_type *got, const tfx_type *want);

/* --- The functions, by file ---
 *
 * Each funcs_*.c file defines a table of the built-in functions it
 * registers, sorted by name (bytes) and ended by {NULL, NULL}; a name is
 * in one table only.  func.c searches them in turn. */
extern const tfx_builtin tfx_builtins_cidr[];       /* funcs_cidr.c */
extern const tfx_builtin tfx_builtins_collection[];
extern const tfx_builtin tfx_builtins_conversion[];
extern const tfx_builtin tfx_builtins_crypto[];     /* funcs_crypto.c */
extern const tfx_builtin tfx_builtins_datetime[];
extern const tfx_builtin tfx_builtins_encoding[];
extern const tfx_builtin tfx_builtins_files[];      /* funcs_files.c */
extern const tfx_builtin tfx_builtins_format[];
extern const tfx_builtin tfx_builtins_gzip[];       /* funcs_gzip.c */
extern const tfx_builtin tfx_builtins_maps_sets[];
extern const tfx_builtin tfx_builtins_numeric[];
extern const tfx_builtin tfx_builtins_regex[];      /* funcs_regex.c */
extern const tfx_builtin tfx_builtins_sensitive[];  /* funcs_sensitive.c */
extern const tfx_builtin tfx_builtins_string[];
extern const tfx_builtin tfx_builtins_terraform[];  /* funcs_closure.c: try, can, convert, ... */
extern const tfx_builtin tfx_builtins_yaml[];       /* funcs_yaml.c */
/* OpenTofu's own functions (base64gunzip, cidrcontains, urldecode): not
 * searched by tfx_func_builtin; offered only with OpenTofu's table. */
extern const tfx_builtin tfx_builtins_opentofu[];   /* funcs_opentofu.c */
/* OpenTofu's assume* functions: offered only with OpenTofu's table under
 * profile PN (tfx_func_builtin_opentofu_pn). */
extern const tfx_builtin tfx_builtins_assume[];     /* funcs_assume.c */

/* What funcs_opentofu.c borrows from the other files. */
/* funcs_encoding.c: Go's base64 StdEncoding.DecodeString [fn.base64.decode];
 * NULL when src is not valid base64. */
unsigned char *tfx_base64_std_decode(tfx_ctx *ctx, const unsigned char *src, size_t n,
                                     size_t *out_n);
/* funcs_cidr.c: Terraform's address parser [fn.cidr.parse].  ParseIP
 * (16 bytes, IPv4 addresses in the IPv4-mapped form) and ParseCIDR (the
 * network address and mask, *len bytes each: 4 or 16). */
bool tfx_cidr_parse_ip(const char *s, size_t n, unsigned char ip[16]);
bool tfx_cidr_parse_prefix(tfx_ctx *ctx, const char *s, size_t n, unsigned char ip[16],
                           unsigned char mask[16], size_t *len);


/* funcs_operators.c: cty's stdlib operator functions [op.*]. */
extern const tfx_function tfx_fn_add;
extern const tfx_function tfx_fn_subtract;
extern const tfx_function tfx_fn_multiply;
extern const tfx_function tfx_fn_divide;
extern const tfx_function tfx_fn_modulo;
extern const tfx_function tfx_fn_less_than;
extern const tfx_function tfx_fn_less_than_or_equal_to;
extern const tfx_function tfx_fn_greater_than;
extern const tfx_function tfx_fn_greater_than_or_equal_to;
extern const tfx_function tfx_fn_equal;
extern const tfx_function tfx_fn_not_equal;
extern const tfx_function tfx_fn_and;
extern const tfx_function tfx_fn_or;
extern const tfx_function tfx_fn_not;
extern const tfx_function tfx_fn_negate;

/* funcs_numeric.c */
extern const tfx_function tfx_fn_max;
extern const tfx_function tfx_fn_min;

/* funcs_string.c */
extern const tfx_function tfx_fn_lower;
extern const tfx_function tfx_fn_upper;
extern const tfx_function tfx_fn_strlen;   /* cty's, for length; not registered */

/* funcs_collection.c */
extern const tfx_function tfx_fn_coalesce;
extern const tfx_function tfx_fn_length;

/* funcs_encoding.c */
extern const tfx_function tfx_fn_jsonencode;

/* funcs_conversion.c */
extern const tfx_function tfx_fn_tobool;
extern const tfx_function tfx_fn_tolist;
extern const tfx_function tfx_fn_tomap;
extern const tfx_function tfx_fn_tonumber;
extern const tfx_function tfx_fn_toset;
extern const tfx_function tfx_fn_tostring;

#endif /* TFX_FUNCS_INTERNAL_H */
