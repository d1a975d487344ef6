/* SPDX-License-Identifier: MPL-2.0 */
/*
 * eval.h — the evaluator (spec/evaluation.md, spec/templates.md; rules
 * var.*, index.*, op.*, cond.*, tmpl.*, cons.*, call.*, unknown.*,
 * mark.*).
 *
 * tfx_eval evaluates a syntax tree as HCL's Expression.Value does, in an
 * environment of variables and functions, making every value in the ctx's
 * arena.  It always returns a value (a placeholder, usually an unknown of
 * type dynamic, where an error leaves none) and appends every diagnostic,
 * in upstream's order, to `diags` (which must use the ctx's arena).
 *
 * Comments cite spec rules as [id].  Names in angle brackets, <for.order>,
 * <splat.wrap>, are provisional names of the rules of `for` and splat,
 * whose chapter comes with the collections issue; they become [ids] there.
 */
#ifndef TFX_EVAL_H
#define TFX_EVAL_H

#include <stdbool.h>
#include <stddef.h>

#include "ast.h"
#include "ctx.h"
#include "diag.h"
#include "func.h"
#include "value.h"

/* One scope of an evaluation context (HCL's EvalContext): variables and
 * functions, and the enclosing scope.  A scope whose has_variables is
 * false has no variable table at all (HCL: nil Variables), and likewise
 * for functions; lookups go on to the parent. */
typedef struct tfx_env tfx_env;

struct tfx_env {
    const tfx_env *parent;
    bool has_variables;
    const tfx_str *var_names;          /* sorted by bytes, distinct */
    const tfx_value *const *var_values;
    size_t nvars;
    bool has_functions;
    /* Looks a function up by name; NULL when this scope has none of that
     * name.  tfx_func_builtin fits. */
    const tfx_function *(*function)(const char *name, size_t nbytes);
    /* The names `function` knows: name i for i from 0 up, NULL past the
     * last (tfx_func_builtin_name fits), for the "did you mean" suggestion
     * of an unknown function [call.suggestion]; NULL: no suggestion. */
    const char *(*function_name)(size_t i);
    /* The name of the source's file, for ranges written into messages
     * (try's listing of diagnostics [fn.try.message]); read from the
     * outermost scope; NULL: "case.hcl". */
    const char *filename;
};

/* Evaluates `node` (from a parse without errors) in `env` (NULL: no
 * variables and no functions at all).  Never NULL.  Resource limits
 * (ctx->limits) end the evaluation with one resource.limit diagnostic. */
const tfx_value *tfx_eval(tfx_ctx *ctx, const tfx_node *node, const tfx_env *env,
                          tfx_diags *diags);

#endif /* TFX_EVAL_H */
