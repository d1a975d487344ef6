/* SPDX-License-Identifier: MPL-2.0 */
/*
 * eval_internal.h — what eval.c and eval_template.c share: the state of
 * one evaluation and its helpers.  Not installed.
 *
 * Every function here may fail through tfx_ctx_fail (memory, limits); the
 * evaluation runs inside the tfx_ctx_try of tfx_eval.
 */
#ifndef TFX_EVAL_INTERNAL_H
#define TFX_EVAL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "eval.h"

/* The value a splat gives its anonymous symbol while it evaluates the
 * per-element expression (upstream keeps it in the symbol, keyed by the
 * evaluation context).  A list, innermost first. */
typedef struct tfx_ev_binding tfx_ev_binding;

struct tfx_ev_binding {
    const tfx_ev_binding *next;
    const tfx_node *item;       /* the ANON_SYMBOL node */
    const tfx_value *value;
};

/* The values of literals made so far in one evaluation and the functions
 * its calls found (eval.c). */
typedef struct tfx_ev_cache tfx_ev_cache;

typedef struct {
    tfx_ctx *ctx;
    tfx_diags *diags;              /* where diagnostics go now */
    const tfx_ev_binding *bindings;
    const char *filename;          /* the source's, for ranges written in messages */
    tfx_ev_cache *cache;           /* NULL until first needed (made by eval.c) */
    int nested;                    /* > 0 while a function evaluates an expression of
                                    * its own (try, can, templatestring, templatefile),
                                    * whose diagnostics become the function's message
                                    * [call.pn.unknown] */
} tfx_ev;

/* The value of node n in env (NULL: no scope at all), its diagnostics
 * appended to ev->diags.  Counts a step and a level of depth. */
const tfx_value *tfx_ev_node(tfx_ev *ev, const tfx_node *n, const tfx_env *env);

/* tfx_func_call of an operator or built-in function, straight to its
 * implementation when the arguments leave the generic steps nothing to do
 * (eval.c). */
const tfx_value *tfx_ev_func_call(tfx_ctx *ctx, const tfx_function *fn,
                                  const tfx_value *const *args, size_t nargs,
                                  tfx_func_error *err);

/* [attr.step] The attribute `name` of the object v, its type's attribute
 * ai: tfx_value_lookup(v, name, nname), found at ai first (eval.c). */
const tfx_value *tfx_ev_object_attr(const tfx_value *v, long ai, const char *name, size_t nname);

/* Appends an error to ev->diags (failing the evaluation if the memory for
 * it is refused, so that "an error was reported" can be told from the
 * count of diagnostics). */
void tfx_ev_error(tfx_ev *ev, tfx_category cat, const char *summary, const tfx_range *subject,
                  const tfx_range *context, const char *detail_fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* Whether an error has been reported since ev->diags held `mark` items. */
bool tfx_ev_failed_since(const tfx_ev *ev, size_t mark);

/* Go's %q of s[0..nbytes) (strconv.Quote), in the arena. */
const char *tfx_ev_quote(tfx_ev *ev, const char *s, size_t nbytes);

/* The start range of an expression [eval.start-range]. */
tfx_range tfx_ev_start_range(const tfx_node *n);

/* v converted to `want` as HCL's convert.Convert does (cty's unsafe
 * conversion); NULL with *error set on failure. */
const tfx_value *tfx_ev_convert(tfx_ev *ev, const tfx_value *v, const tfx_type *want,
                                const char **error);

/* [call.decode] The argument of a parameter of kind TFX_PARAM_EXPRESSION:
 * HCL's expression closure, the argument's expression with the scope it
 * was written in, not evaluated.  `value` comes first, so that the
 * placeholder tfx_func_call passes to the function is a pointer to the
 * closure (tfx_ev_closure_of). */
typedef struct {
    tfx_value value;            /* the placeholder: known, of type dynamic */
    tfx_ev *ev;                 /* the evaluation it belongs to */
    const tfx_node *expr;       /* NULL for an element of an expanded argument, */
    const tfx_value *literal;   /* which is this value (HCL: a literal expression) */
    const tfx_env *env;
} tfx_ev_closure;

/* [for.group] The object of a grouping `for` (eval_template.c): under
 * each distinct key of names[0..count), the tuple of the vals[i] of that
 * key in order of i; the general path sorts all the keys (stably), the
 * other hashes them and sorts the distinct ones only.  Both give the same
 * value; tests compare them. */
const tfx_value *tfx_ev_group(tfx_ctx *ctx, const tfx_str *names,
                              const tfx_value *const *vals, size_t count);
const tfx_value *tfx_ev_group_general(tfx_ctx *ctx, const tfx_str *names,
                                      const tfx_value *const *vals, size_t count);

/* The closure behind a placeholder argument of an expression parameter. */
const tfx_ev_closure *tfx_ev_closure_of(const tfx_value *arg);

/* [call.decode] The closure's value, its diagnostics appended to
 * *diags (which must use the ctx's arena), as HCL's
 * ExpressionClosure.Value. */
const tfx_value *tfx_ev_closure_value(const tfx_ev_closure *c, tfx_diags *diags);

/* [fn.try.unknowns] Whether a variable the closure's expression refers
 * to (HCL's Variables()) has, in the closure's scope, a value that is not
 * wholly known (tryfunc's dependsOnUnknowns). */
bool tfx_ev_closure_depends_on_unknowns(const tfx_ev_closure *c);

/* [refs.walk] Calls visit(data, t) for each traversal t (a
 * SCOPE_TRAVERSAL node) that HCL's Variables() lists for n, in its order,
 * until a call returns true; returns whether one did. */
bool tfx_ev_each_reference(tfx_ev *ev, const tfx_node *n,
                           bool (*visit)(void *data, const tfx_node *traversal), void *data);

/* HCL's Range.String of r in the evaluation's file, "case.hcl:1,5-8". */
const char *tfx_ev_range_text(const tfx_ev *ev, const tfx_range *r);

/* funcs_closure.c [fn.convert.type]: the argument of a parameter of kind
 * TFX_PARAM_TYPE, decoded from its expression (or, for an element of an
 * expanded argument, from that value) as typeexpr.TypeConstraintWithDefaults
 * does; NULL after its errors, appended to ev->diags. */
const tfx_value *tfx_ev_decode_type(tfx_ev *ev, const tfx_node *expr, const tfx_value *literal,
                                    const tfx_range *literal_range);

/* eval_template.c: the template nodes and `for` expressions. */
const tfx_value *tfx_ev_template(tfx_ev *ev, const tfx_node *n, const tfx_env *env);
const tfx_value *tfx_ev_template_join(tfx_ev *ev, const tfx_node *n, const tfx_env *env);
const tfx_value *tfx_ev_for(tfx_ev *ev, const tfx_node *n, const tfx_env *env);

#endif /* TFX_EVAL_INTERNAL_H */
