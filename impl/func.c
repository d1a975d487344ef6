/* SPDX-License-Identifier: MPL-2.0 */
/*
 * func.c — the call machinery of functions (cty 1.12.1's function
 * package: Function.Call and Function.ReturnTypeForValues) and the tables
 * of built-in and operator functions [call.*].
 *
 * The function bodies live in funcs_*.c, one file per chapter of
 * spec/functions.md; this file applies the generic rules of parameters
 * (null, unknown, dynamic and marked arguments) once for all of them.
 */
#include "func.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "funcs_internal.h"
#include "refine.h"
#include "render.h"

/* ---- Helpers shared with funcs_*.c ---- */

const void *tfx_fn_error(tfx_func_error *err, const char *message)
{
    err->arg = -1;
    err->message = message;
    return NULL;
}

const void *tfx_fn_arg_error(tfx_func_error *err, long arg, const char *message)
{
    err->arg = arg;
    err->message = message;
    return NULL;
}

void tfx_fn_nomem(tfx_ctx *ctx)
{
    tfx_ctx_fail(ctx, "Memory limit exceeded",
                 "The evaluation needs more than the memory limit of %zu bytes.",
                 ctx->limits.max_memory_bytes);
}

const tfx_value *tfx_fn_number_result(tfx_ctx *ctx, tfx_num_err status, const tfx_num *n,
                                      tfx_func_error *err)
{
    if (status == TFX_NUM_ERR_NOMEM)
        tfx_fn_nomem(ctx);
    if (status != TFX_NUM_OK)
        return tfx_fn_error(err, tfx_num_err_reason(status));
    return tfx_value_number(ctx, n);
}

/* ---- Type conformance [call.conformance] ---- */

/* [call.conformance] cty's Type.TestConformance(got, want), giving its
 * first error: dynamic in `want` accepts anything; equal types conform;
 * objects must have exactly the wanted attributes ("unsupported attribute
 * \"x\"" for an extra one, then "missing required attribute \"x\"", then
 * the attributes' own conformance); tuples need the same length ("N
 * elements are required, but got M") and conforming elements;
 * collections of one kind need conforming element types; anything else
 * is "<want> required, but received <got>" in friendly names.  Upstream
 * lists the errors of an object in Go's map order, which is random; here
 * each group is in the order of the attribute names. */
const char *tfx_fn_conformance(tfx_ctx *ctx, const tfx_type *got, const tfx_type *want)
{
    size_t i;

    if (want->kind == TFX_TYPE_DYNAMIC || tfx_type_equal(got, want))
        return NULL;
    if (got->kind == TFX_TYPE_OBJECT && want->kind == TFX_TYPE_OBJECT) {
        for (i = 0; i < got->n; i++)
            if (tfx_type_attr_index(want, got->names[i].s, got->names[i].nbytes) < 0)
                return tfx_ctx_printf(
                    ctx, "unsupported attribute %s",
                    tfx_textbuf_quoted(ctx, got->names[i].s, got->names[i].nbytes));
        for (i = 0; i < want->n; i++)
            if (tfx_type_attr_index(got, want->names[i].s, want->names[i].nbytes) < 0)
                return tfx_ctx_printf(
                    ctx, "missing required attribute %s",
                    tfx_textbuf_quoted(ctx, want->names[i].s, want->names[i].nbytes));
        for (i = 0; i < want->n; i++) {
            long j = tfx_type_attr_index(got, want->names[i].s, want->names[i].nbytes);
            const char *msg = tfx_fn_conformance(ctx, got->elems[j], want->elems[i]);

            if (msg != NULL)
                return msg;
        }
        return NULL;
    }
    if (got->kind == TFX_TYPE_TUPLE && want->kind == TFX_TYPE_TUPLE) {
        if (got->n != want->n)
            return tfx_ctx_printf(ctx, "%zu elements are required, but got %zu", want->n, got->n);
        for (i = 0; i < want->n; i++) {
            const char *msg = tfx_fn_conformance(ctx, got->elems[i], want->elems[i]);

            if (msg != NULL)
                return msg;
        }
        return NULL;
    }
    if (tfx_type_is_collection(got) && got->kind == want->kind)
        return tfx_fn_conformance(ctx, got->elem, want->elem);
    return tfx_ctx_printf(ctx, "%s required, but received %s", tfx_type_friendly(ctx, want),
                          tfx_type_friendly(ctx, got));
}

/* ---- The call machinery [call.machinery] ---- */

/* The parameter that argument i is for. */
static const tfx_param *param_of(const tfx_function *fn, size_t i)
{
    return i < fn->nparams ? &fn->params[i] : fn->varparam;
}

/* A copy of args[0..nargs) that the machinery may change. */
static const tfx_value **copy_args(tfx_ctx *ctx, const tfx_value *const *args, size_t nargs)
{
    const tfx_value **copy =
        tfx_ctx_alloc_array(ctx, nargs > 0 ? nargs : 1, sizeof(const tfx_value *));

    if (nargs > 0)
        memcpy((void *)copy, (const void *)args, nargs * sizeof(const tfx_value *));
    return copy;
}

/* [call.return-type] (semantics FN5, FN7) cty's ReturnTypeForValues:
 *  1. the number of arguments must match the parameters ("wrong number of
 *     arguments (N required; M given)", "(at least N required; ...)");
 *  2. argument by argument, in order: an argument whose parameter does
 *     not allow marks is deeply unmarked for the type function; a null
 *     one whose parameter does not allow null is the argument error
 *     "argument must not be null"; one of type dynamic whose parameter
 *     does not allow it makes the result type dynamic at once (the later
 *     arguments are not looked at); otherwise its type must conform to
 *     the parameter's (an argument error with the conformance message;
 *     upstream numbers such an error of a variadic argument from the
 *     first variadic argument, not from the first argument, and so do
 *     we);
 *  3. the type function gets the arguments with those marks removed.
 * An argument of a parameter that is not an ordinary value [call.decode]
 * is a known, unmarked capsule of the parameter's own type, which none of
 * these rules changes: it is passed along as it is.
 * The other rules about unknown arguments apply only to calls. */
static const tfx_type *return_type(tfx_ctx *ctx, const tfx_function *fn,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err, bool *dynamic_arg)
{
    const tfx_value **targs;
    const tfx_type *ret;
    size_t i;

    err->arg = -1;
    err->message = NULL;
    *dynamic_arg = false;
    if (fn->varparam == NULL && nargs != fn->nparams)
        return tfx_fn_error(
            err, tfx_ctx_printf(ctx, "wrong number of arguments (%zu required; %zu given)",
                                fn->nparams, nargs));
    if (fn->varparam != NULL && nargs < fn->nparams)
        return tfx_fn_error(
            err, tfx_ctx_printf(ctx, "wrong number of arguments (at least %zu required; %zu given)",
                                fn->nparams, nargs));

    targs = copy_args(ctx, args, nargs);
    for (i = 0; i < nargs; i++) {
        const tfx_param *p = param_of(fn, i);
        const tfx_value *v = args[i];
        const char *msg;

        if (p->kind != TFX_PARAM_VALUE)
            continue; /* [call.decode] a known capsule of the parameter's type */
        if (!p->allow_marked && tfx_value_is_marked_deep(v))
            targs[i] = tfx_value_unmark_deep(ctx, v, NULL);
        if (tfx_value_is_null(v) && !p->allow_null && !(ctx->pn && p->allow_null_pn))
            return tfx_fn_arg_error(err, (long)i, "argument must not be null");
        if (v->type->kind == TFX_TYPE_DYNAMIC) {
            if (!p->allow_dynamic && !(ctx->pn && p->allow_dynamic_pn)) {
                *dynamic_arg = true;
                return &tfx_type_dynamic;
            }
            continue;
        }
        msg = tfx_fn_conformance(ctx, v->type, p->type);
        if (msg != NULL)
            return tfx_fn_arg_error(err, i < fn->nparams ? (long)i : (long)(i - fn->nparams), msg);
    }

    if (fn->type == NULL)
        return fn->ret_type;
    ret = fn->type(ctx, fn, targs, nargs, err);
    if (ret == NULL && err->message == NULL)
        tfx_fn_error(err, "the function's type could not be decided");
    return ret;
}

const tfx_type *tfx_func_return_type(tfx_ctx *ctx, const tfx_function *fn,
                                     const tfx_value *const *args, size_t nargs,
                                     tfx_func_error *err)
{
    bool dynamic_arg;

    return return_type(ctx, fn, args, nargs, err, &dynamic_arg);
}

/* [call.unknown.pn] Profile PN (cty 1.15.1+): every argument is looked
 * at; the marks of those whose parameter does not accept marks are
 * gathered (at every depth), and when one of them is an unknown its
 * parameter does not accept, the result is the unknown of ret carrying
 * all those marks, and the implementation does not run; so it does when
 * the result type was decided by a dynamic argument to a parameter that
 * does not accept one (dynamic_arg, [call.dynamic.pn]).  NULL when the
 * call is to go on. */
static const tfx_value *unknown_result_pn(tfx_ctx *ctx, const tfx_function *fn,
                                          const tfx_value *const *args, size_t nargs,
                                          const tfx_type *ret, bool dynamic_arg)
{
    const tfx_marks *marks = NULL;
    bool unknown = dynamic_arg;
    size_t i;

    for (i = 0; i < nargs; i++) {
        const tfx_param *p = param_of(fn, i);

        if (p->kind != TFX_PARAM_VALUE)
            continue;
        if (!p->allow_marked)
            marks = tfx_marks_union(ctx, marks, tfx_value_marks_deep(ctx, args[i]));
        if (tfx_value_is_unknown(args[i]) && !p->allow_unknown && !p->allow_unknown_pn)
            unknown = true;
    }
    if (!unknown)
        return NULL;
    return tfx_value_mark(ctx, tfx_value_unknown(ctx, ret), marks);
}

/* [call.machinery] (semantics FN5–FN8, O5, O6, O22, M9, M10) cty's
 * Function.Call:
 *  1. the result type, as tfx_func_return_type decides it (its errors are
 *     the call's);
 *  2. argument by argument, in order: an unknown one whose parameter
 *     does not allow unknowns ends the call with an unknown of the result
 *     type, and WITHOUT marks — neither its own nor those of the
 *     arguments before it [call.unknown] (P14 loses them; cty 1.15.1
 *     keeps them); an argument whose parameter does not allow marks is
 *     deeply unmarked and its marks are kept aside [call.marks];
 *  3. the implementation gets the arguments so changed and the result
 *     type; its error is the call's;
 *  4. the marks kept aside are put on the result (its top level);
 *  5. the result's type must conform to the result type; upstream
 *     panics if not, which its recovery reports as an error, and so do we
 *     (no built-in function gets there). */
const tfx_value *tfx_func_call(tfx_ctx *ctx, const tfx_function *fn,
                               const tfx_value *const *args, size_t nargs,
                               tfx_func_error *err)
{
    const tfx_type *ret;
    const tfx_value **cargs;
    const tfx_marks *result_marks = NULL;
    const tfx_value *result;
    const char *msg;
    bool dynamic_arg;
    size_t i;

    tfx_ctx_step(ctx);
    ret = return_type(ctx, fn, args, nargs, err, &dynamic_arg);
    if (ret == NULL)
        return NULL;
    if (ctx->pn) {
        /* [refine.cmp] comparisons of unknowns decided by their bounds */
        result = tfx_refine_call_decide(ctx, fn, args, nargs);
        if (result == NULL)
            result = unknown_result_pn(ctx, fn, args, nargs, ret, dynamic_arg);
        /* [refine.call.result] (not for a dynamic argument's early unknown) */
        if (result != NULL)
            return dynamic_arg ? result : tfx_refine_call_result(ctx, fn, args, nargs, result);
    }

    cargs = copy_args(ctx, args, nargs);
    for (i = 0; i < nargs; i++) {
        const tfx_param *p = param_of(fn, i);

        if (p->kind != TFX_PARAM_VALUE)
            continue; /* [call.decode] */
        if (tfx_value_is_unknown(args[i]) && !p->allow_unknown
            && !(ctx->pn && p->allow_unknown_pn))
            return tfx_value_unknown(ctx, ret); /* [call.unknown]: no marks */
        if (!p->allow_marked) {
            const tfx_marks *m = NULL;

            cargs[i] = tfx_value_unmark_deep(ctx, args[i], &m);
            result_marks = tfx_marks_union(ctx, result_marks, m);
        }
    }

    err->arg = -1;
    err->message = NULL;
    result = fn->impl(ctx, fn, ret, cargs, nargs, err);
    if (result == NULL) {
        if (err->message == NULL)
            tfx_fn_error(err, "the function returned no result");
        return NULL;
    }
    if (result_marks != NULL)
        result = tfx_value_mark(ctx, result, result_marks);
    if (ctx->pn)
        result = tfx_refine_call_result(ctx, fn, args, nargs, result); /* [refine.call.result] */

    msg = tfx_fn_conformance(ctx, result->type, ret);
    if (msg != NULL)
        return tfx_fn_error(
            err, tfx_ctx_printf(ctx,
                                "panic in function implementation: returned value does not "
                                "conform to expected return type: %s",
                                msg));
    return result;
}

/* ---- The tables ---- */

/* [fn.*] The built-in functions: the tables of the funcs_*.c files. */
static const tfx_builtin *const tables[] = {
    tfx_builtins_cidr,      tfx_builtins_collection, tfx_builtins_conversion,
    tfx_builtins_crypto,    tfx_builtins_datetime,   tfx_builtins_encoding,
    tfx_builtins_files,     tfx_builtins_format,     tfx_builtins_gzip,
    tfx_builtins_maps_sets, tfx_builtins_numeric,    tfx_builtins_regex,
    tfx_builtins_sensitive, tfx_builtins_string,     tfx_builtins_terraform,
    tfx_builtins_yaml,
};

/* Binary search of one sorted table (ended by a NULL name). */
static const tfx_function *table_lookup(const tfx_builtin *table, const char *name, size_t nbytes)
{
    size_t lo = 0, hi = 0;

    while (table[hi].name != NULL)
        hi++;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *key = table[mid].name;
        size_t keylen = strlen(key);
        int c = memcmp(key, name, keylen < nbytes ? keylen : nbytes);

        if (c == 0)
            c = keylen < nbytes ? -1 : keylen > nbytes ? 1 : 0;
        if (c == 0)
            return table[mid].fn;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const tfx_function *tfx_func_builtin_general(const char *name, size_t nbytes)
{
    size_t i;

    for (i = 0; i < TFX_COUNTOF(tables); i++) {
        const tfx_function *fn = table_lookup(tables[i], name, nbytes);

        if (fn != NULL)
            return fn;
    }
    return NULL;
}

const tfx_function *tfx_func_builtin_opentofu_general(const char *name, size_t nbytes)
{
    const tfx_function *fn = tfx_func_builtin_general(name, nbytes);

    return fn != NULL ? fn : table_lookup(tfx_builtins_opentofu, name, nbytes);
}

/* ---- The name index: a fast path of the lookups above ----
 *
 * [call.lookup] [flavor.table] A call names its function on every
 * evaluation, and the lookup above counts and searches 16 tables (a
 * strlen per probe) for it: ~2,400 instructions a call.  The index is
 * every name of the tables (and, for OpenTofu's table, of
 * tfx_builtins_opentofu after them) with its length, in one array sorted
 * the way the tables are (bytes, then length), made once per process.
 * It gives the general path's answer: it holds exactly the tables'
 * names; where two tables held one name the general path takes the
 * earlier table, and so does the index (a stable sort keeps the first of
 * equal names, the later ones are dropped); a name in no table is found
 * in neither.  test_eval_funcs compares both on every name and on random
 * ones.
 *
 * The first lookup builds it; the state word makes that safe when
 * several threads look up at once: one thread wins 0 -> 1 and builds,
 * the others take the general path until it reads 2 (release/acquire).
 * Nothing is allocated (a fixed array; more names than it holds leave
 * the state at 3 and every lookup on the general path). */
enum { INDEX_MAX = 512, INDEX_NONE = 0, INDEX_BUILDING = 1, INDEX_READY = 2, INDEX_UNUSABLE = 3 };

typedef struct {
    const char *name;
    size_t nbytes;
    size_t seq;            /* the place in the tables, for a stable sort */
    const tfx_function *fn;
} index_entry;

typedef struct {
    atomic_int state;
    size_t n;
    index_entry e[INDEX_MAX];
} name_index;

static name_index terraform_index;
static name_index opentofu_index;

/* The tables' order: bytes, then the shorter first. */
static int name_cmp(const char *a, size_t na, const char *b, size_t nb)
{
    int c = memcmp(a, b, na < nb ? na : nb);

    if (c != 0)
        return c;
    return na < nb ? -1 : na > nb ? 1 : 0;
}

static int entry_cmp(const void *pa, const void *pb)
{
    const index_entry *a = pa, *b = pb;
    int c = name_cmp(a->name, a->nbytes, b->name, b->nbytes);

    if (c != 0)
        return c;
    return a->seq < b->seq ? -1 : a->seq > b->seq ? 1 : 0;
}

/* Adds a table's names; false when the index is full. */
static bool index_add(name_index *ix, const tfx_builtin *table)
{
    size_t j;

    for (j = 0; table[j].name != NULL; j++) {
        index_entry *e;

        if (ix->n == INDEX_MAX)
            return false;
        e = &ix->e[ix->n];
        e->name = table[j].name;
        e->nbytes = strlen(table[j].name);
        e->seq = ix->n;
        e->fn = table[j].fn;
        ix->n++;
    }
    return true;
}

/* Fills ix from the tables (and extra after them unless NULL); false
 * when they do not fit. */
static bool index_fill(name_index *ix, const tfx_builtin *extra)
{
    size_t i, out;

    ix->n = 0;
    for (i = 0; i < TFX_COUNTOF(tables); i++)
        if (!index_add(ix, tables[i]))
            return false;
    if (extra != NULL && !index_add(ix, extra))
        return false;
    qsort(ix->e, ix->n, sizeof(ix->e[0]), entry_cmp);
    for (i = 0, out = 0; i < ix->n; i++)
        if (out == 0
            || name_cmp(ix->e[out - 1].name, ix->e[out - 1].nbytes, ix->e[i].name,
                        ix->e[i].nbytes)
                   != 0)
            ix->e[out++] = ix->e[i];
    ix->n = out;
    return true;
}

/* The index, built on first use; NULL while another thread builds it or
 * when it cannot hold the names. */
static const name_index *index_ready(name_index *ix, const tfx_builtin *extra)
{
    int state = atomic_load_explicit(&ix->state, memory_order_acquire);

    if (state == INDEX_READY)
        return ix;
    if (state != INDEX_NONE
        || !atomic_compare_exchange_strong_explicit(&ix->state, &state, INDEX_BUILDING,
                                                    memory_order_acq_rel, memory_order_acquire))
        return NULL;
    state = index_fill(ix, extra) ? INDEX_READY : INDEX_UNUSABLE;
    atomic_store_explicit(&ix->state, state, memory_order_release);
    return state == INDEX_READY ? ix : NULL;
}

/* Binary search of the index. */
static const tfx_function *index_lookup(const name_index *ix, const char *name, size_t nbytes)
{
    size_t lo = 0, hi = ix->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = name_cmp(ix->e[mid].name, ix->e[mid].nbytes, name, nbytes);

        if (c == 0)
            return ix->e[mid].fn;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const tfx_function *tfx_func_builtin(const char *name, size_t nbytes)
{
    const name_index *ix = index_ready(&terraform_index, NULL);

    return ix != NULL ? index_lookup(ix, name, nbytes) : tfx_func_builtin_general(name, nbytes);
}

const char *tfx_func_builtin_name(size_t i)
{
    size_t t;

    for (t = 0; t < TFX_COUNTOF(tables); t++) {
        size_t j;

        for (j = 0; tables[t][j].name != NULL; j++) {
            if (i == 0)
                return tables[t][j].name;
            i--;
        }
    }
    return NULL;
}

/* [flavor.table] OpenTofu's table: Terraform's, then OpenTofu's own
 * functions (funcs_opentofu.c). */
const tfx_function *tfx_func_builtin_opentofu(const char *name, size_t nbytes)
{
    const name_index *ix = index_ready(&opentofu_index, tfx_builtins_opentofu);

    return ix != NULL ? index_lookup(ix, name, nbytes)
                      : tfx_func_builtin_opentofu_general(name, nbytes);
}

const char *tfx_func_opentofu_only_name(size_t i)
{
    for (size_t j = 0; tfx_builtins_opentofu[j].name != NULL; j++)
        if (j == i)
            return tfx_builtins_opentofu[j].name;
    return NULL;
}

/* The number of names tfx_func_builtin_name gives. */
static size_t builtin_name_count(void)
{
    size_t n = 0;

    for (size_t t = 0; t < TFX_COUNTOF(tables); t++)
        for (size_t j = 0; tables[t][j].name != NULL; j++)
            n++;
    return n;
}

/* (The names are counted in one walk of the tables, not by asking
 * tfx_func_builtin_name for each: the suggestion of an unknown function
 * asks for every name in turn, and that was quadratic, 6.7 % of
 * fuzz_eval_fast's time.) */
const char *tfx_func_builtin_opentofu_name(size_t i)
{
    const char *name = tfx_func_builtin_name(i);

    if (name != NULL)
        return name;
    return tfx_func_opentofu_only_name(i - builtin_name_count());
}

/* [fn.assume.profile] OpenTofu's table under profile PN: OpenTofu's,
 * then the assume* functions.  (A name in neither costs one more binary
 * search of 12 names, only on the way to an unknown-function error.) */
const tfx_function *tfx_func_builtin_opentofu_pn(const char *name, size_t nbytes)
{
    const tfx_function *fn = tfx_func_builtin_opentofu(name, nbytes);

    return fn != NULL ? fn : table_lookup(tfx_builtins_assume, name, nbytes);
}

const char *tfx_func_opentofu_pn_only_name(size_t i)
{
    for (size_t j = 0; tfx_builtins_assume[j].name != NULL; j++)
        if (j == i)
            return tfx_builtins_assume[j].name;
    return NULL;
}

const char *tfx_func_builtin_opentofu_pn_name(size_t i)
{
    size_t n = builtin_name_count();

    if (i < n)
        return tfx_func_builtin_name(i);
    for (size_t j = 0; tfx_func_opentofu_only_name(j) != NULL; j++, n++)
        if (i == n)
            return tfx_func_opentofu_only_name(j);
    return tfx_func_opentofu_pn_only_name(i - n);
}

void tfx_func_table_for(bool opentofu, bool pn, tfx_func_lookup_fn *lookup,
                        tfx_func_name_fn *name_at)
{
    tfx_func_lookup_fn l = tfx_func_builtin_opentofu_pn;
    tfx_func_name_fn n = tfx_func_builtin_opentofu_pn_name;

    if (!opentofu) {
        l = tfx_func_builtin;
        n = tfx_func_builtin_name;
    } else if (!pn) {
        l = tfx_func_builtin_opentofu;
        n = tfx_func_builtin_opentofu_name;
    }
    if (lookup != NULL)
        *lookup = l;
    if (name_at != NULL)
        *name_at = n;
}

/* [op.*] (semantics O1) The operator functions, in the order of
 * tfx_func_op. */
const tfx_function *tfx_func_operator(tfx_func_op op)
{
    switch (op) {
    case TFX_FOP_ADD: return &tfx_fn_add;
    case TFX_FOP_SUBTRACT: return &tfx_fn_subtract;
    case TFX_FOP_MULTIPLY: return &tfx_fn_multiply;
    case TFX_FOP_DIVIDE: return &tfx_fn_divide;
    case TFX_FOP_MODULO: return &tfx_fn_modulo;
    case TFX_FOP_LESS: return &tfx_fn_less_than;
    case TFX_FOP_LESS_EQUAL: return &tfx_fn_less_than_or_equal_to;
    case TFX_FOP_GREATER: return &tfx_fn_greater_than;
    case TFX_FOP_GREATER_EQUAL: return &tfx_fn_greater_than_or_equal_to;
    case TFX_FOP_EQUAL: return &tfx_fn_equal;
    case TFX_FOP_NOT_EQUAL: return &tfx_fn_not_equal;
    case TFX_FOP_AND: return &tfx_fn_and;
    case TFX_FOP_OR: return &tfx_fn_or;
    case TFX_FOP_NOT: return &tfx_fn_not;
    case TFX_FOP_NEGATE: return &tfx_fn_negate;
    }
    return NULL;
}
