/* SPDX-License-Identifier: MPL-2.0 */
/*
 * func.h — functions and the call machinery (spec/functions.md, rules
 * call.*, fn.*).
 *
 * A function is described as cty describes one (cty/function.Spec): fixed
 * parameters, an optional variadic parameter, a type function computing
 * the return type from the arguments, and an implementation.  tfx_func_call
 * is cty's Function.Call: it handles null, unknown, dynamic and marked
 * arguments per the parameters' Allow* flags before the function sees
 * them.  HCL's side of a call (arity, `...` expansion, converting each
 * argument to its parameter's type, diagnostics with ranges) is in eval.c.
 *
 * The operators of the language are functions too (cty's stdlib Add,
 * Equal, And, ...): tfx_func_operator gives them.
 */
#ifndef TFX_FUNC_H
#define TFX_FUNC_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"
#include "type.h"
#include "value.h"

/* What a parameter takes [call.decode].  An ordinary parameter takes the
 * argument's value.  The others are cty capsule types that HCL decodes
 * from the argument's expression instead of evaluating it (HCL's
 * ext/customdecode): the argument is then a placeholder value that
 * carries what the decoding made (eval_internal.h: tfx_ev_closure,
 * tfx_ev_constraint); the machinery passes it along untouched, since
 * none of cty's parameter rules changes a known capsule value. */
typedef enum {
    TFX_PARAM_VALUE = 0,
    TFX_PARAM_EXPRESSION,     /* customdecode.ExpressionClosureType: the
                                 expression and its scope, unevaluated */
    TFX_PARAM_TYPE            /* a type constraint written as an expression
                                 (ext/typeexpr, with defaults) */
} tfx_param_kind;

typedef struct {
    const char *name;
    const tfx_type *type;     /* the parameter's type constraint; dynamic = any */
    bool allow_null;
    bool allow_unknown;
    bool allow_dynamic;       /* AllowDynamicType */
    bool allow_dynamic_pn;    /* AllowDynamicType from cty 1.18 on (profile PN)
                                 where 1.12.1 did not set it [call.dynamic.pn] */
    bool allow_null_pn;       /* the same for AllowNull [fn.contains.pn] */
    bool allow_unknown_pn;    /* the same for AllowUnknown [fn.setproduct.pn] */
    bool allow_marked;
    tfx_param_kind kind;      /* 0: an ordinary value */
} tfx_param;

/* An error from a type function or an implementation.  arg >= 0 makes it
 * an argument error (HCL: "Invalid function argument", at that argument);
 * arg < 0 a plain one ("Error in function call"). */
typedef struct {
    long arg;
    const char *message;
} tfx_func_error;

typedef struct tfx_function tfx_function;

/* Both return NULL and fill *err on failure.  args[0..nargs) are the
 * arguments after tfx_func_call's processing (see tfx_func_call). */
typedef const tfx_type *(*tfx_func_type_fn)(tfx_ctx *ctx, const tfx_function *fn,
                                             const tfx_value *const *args, size_t nargs,
                                             tfx_func_error *err);
typedef const tfx_value *(*tfx_func_impl_fn)(tfx_ctx *ctx, const tfx_function *fn,
                                              const tfx_type *ret,
                                              const tfx_value *const *args, size_t nargs,
                                              tfx_func_error *err);

struct tfx_function {
    const char *name;
    const tfx_param *params;
    size_t nparams;
    const tfx_param *varparam;     /* NULL: not variadic */
    tfx_func_type_fn type;         /* NULL: returns ret_type */
    const tfx_type *ret_type;      /* the static return type when type is NULL */
    tfx_func_impl_fn impl;
};

/* Calls fn with args[0..nargs), which the caller has already converted
 * to the parameters' types (nargs >= nparams; the extra ones are for the
 * variadic parameter).  Returns the result, or NULL with *err set.
 * Follows cty's Function.Call of cty 1.12.1 exactly [call.machinery]. */
const tfx_value *tfx_func_call(tfx_ctx *ctx, const tfx_function *fn,
                               const tfx_value *const *args, size_t nargs,
                               tfx_func_error *err);

/* The result type fn would give for these arguments (cty's
 * Function.ReturnTypeForValues), or NULL with *err set. */
const tfx_type *tfx_func_return_type(tfx_ctx *ctx, const tfx_function *fn,
                                     const tfx_value *const *args, size_t nargs,
                                     tfx_func_error *err);

/* One entry of a table of built-in functions. */
typedef struct {
    const char *name;
    const tfx_function *fn;
} tfx_builtin;

/* The built-in function named name[0..nbytes), or NULL. */
const tfx_function *tfx_func_builtin(const char *name, size_t nbytes);

/* The same by the general path, the tables searched one by one (for
 * tests of tfx_func_builtin's index: the same answer for every name). */
const tfx_function *tfx_func_builtin_general(const char *name, size_t nbytes);

/* The name of built-in function i, for i from 0 up; NULL when i is the
 * number of built-in functions or more.  The order is not alphabetical. */
const char *tfx_func_builtin_name(size_t i);

/* [flavor.table] The same for OpenTofu's table: Terraform's functions,
 * then OpenTofu's own (base64gunzip, cidrcontains, urldecode). */
const tfx_function *tfx_func_builtin_opentofu(const char *name, size_t nbytes);
const char *tfx_func_builtin_opentofu_name(size_t i);
const tfx_function *tfx_func_builtin_opentofu_general(const char *name, size_t nbytes);
/* The name of OpenTofu's own function i (those only its table has), for
 * i from 0 up; NULL past the last. */
const char *tfx_func_opentofu_only_name(size_t i);

/* [fn.assume.profile] OpenTofu's table under profile PN: the same, plus
 * OpenTofu's assume* functions (funcs_assume.c), which need refinements
 * (cty 1.13 and later) and so are in no P14 table. */
const tfx_function *tfx_func_builtin_opentofu_pn(const char *name, size_t nbytes);
const char *tfx_func_builtin_opentofu_pn_name(size_t i);
/* The name of assume* function i, for i from 0 up; NULL past the last. */
const char *tfx_func_opentofu_pn_only_name(size_t i);

/* The lookup and the names of the table of a flavor (OpenTofu's or
 * Terraform's) under a profile (PN or P14) [flavor.table]; either
 * pointer may be NULL. */
typedef const tfx_function *(*tfx_func_lookup_fn)(const char *name, size_t nbytes);
typedef const char *(*tfx_func_name_fn)(size_t i);
void tfx_func_table_for(bool opentofu, bool pn, tfx_func_lookup_fn *lookup,
                        tfx_func_name_fn *name_at);

/* [fn.provider] In profile PN, the functions of Terraform's built-in
 * provider "terraform" by their names after "provider::terraform::"
 * (funcs_provider.c); NULL for another name. */
const tfx_function *tfx_func_provider(const char *name, size_t nbytes);

/* [fn.type] Terraform's console-only type(value), in no table: a
 * context offers it when asked (tfx_context_allow_type_function). */
extern const tfx_function tfx_fn_type;

/* [fn.type.value] The mark type() puts on its result, a value of the
 * capsule type tfx_type_type. */
#define TFX_TYPE_MARK "TypeType"

/* The operator functions [op.*]. */
typedef enum {
    TFX_FOP_ADD, TFX_FOP_SUBTRACT, TFX_FOP_MULTIPLY, TFX_FOP_DIVIDE, TFX_FOP_MODULO,
    TFX_FOP_LESS, TFX_FOP_LESS_EQUAL, TFX_FOP_GREATER, TFX_FOP_GREATER_EQUAL,
    TFX_FOP_EQUAL, TFX_FOP_NOT_EQUAL, TFX_FOP_AND, TFX_FOP_OR,
    TFX_FOP_NOT, TFX_FOP_NEGATE
} tfx_func_op;
const tfx_function *tfx_func_operator(tfx_func_op op);

#endif /* TFX_FUNC_H */
