/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_closure.c — the functions whose arguments are expressions or type
 * constraints rather than values: try, can, convert, templatestring and
 * type (spec/functions-closures.md, rules fn.try.*, fn.can.*,
 * fn.convert.*, fn.typeexpr.*, fn.templatestring.*, fn.type.*).
 *
 * An argument of a parameter of kind TFX_PARAM_EXPRESSION reaches these
 * functions as an expression closure (eval_internal.h, tfx_ev_closure):
 * the function evaluates it itself, with its diagnostics in a list of its
 * own.  A TFX_PARAM_TYPE argument is decoded by the evaluator, through
 * tfx_ev_decode_type below, before the call.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "common.h"
#include "convert.h"
#include "lex.h"
#include "parse.h"
#include "eval_internal.h"
#include "funcs_internal.h"
#include "host.h"
#include "render.h"

/* ---------------------------------------------------------------------
 * try and can [fn.try.*] [fn.can.*]
 * ------------------------------------------------------------------ */

static const tfx_param try_expressions = {
    .name = "expressions", .type = &tfx_type_dynamic, .kind = TFX_PARAM_EXPRESSION};

/* [fn.try.message] The error when no expression succeeded: every
 * diagnostic of every expression, in order, with its summary, the range
 * of its subject (HCL's Range.String) and its detail. */
static const char *no_success(tfx_ctx *ctx, const tfx_ev *ev, const tfx_diags *all)
{
    tfx_textbuf b;
    size_t i;

    tfx_textbuf_init(&b, ctx);
    tfx_textbuf_puts(&b, "no expression succeeded:\n");
    for (i = 0; i < all->n; i++) {
        const tfx_diag *d = &all->items[i];

        if (d->has_subject)
            tfx_textbuf_printf(&b, "- %s (at %s)\n  %s\n", d->summary,
                               tfx_ev_range_text(ev, &d->subject), d->detail);
        else
            tfx_textbuf_printf(&b, "- %s\n  %s\n", d->summary, d->detail);
    }
    tfx_textbuf_puts(&b, "\nAt least one expression must produce a successful result");
    return tfx_textbuf_text(&b);
}

/* [fn.try.arity] [fn.try.unknowns] [fn.try.first] [fn.try.message]
 * HCL 2.14.1's ext/tryfunc try: the expressions in order; one that refers
 * to a value that is not wholly known makes the result unknown of type
 * dynamic at once; the first that evaluates without errors gives the
 * result, whatever errors came before it; when none does, one error
 * lists all their diagnostics.  Upstream's type function and
 * implementation both run the expressions, with the same outcome; here
 * they run once and the result type is whatever the result is
 * [fn.try.type]. */
static const tfx_value *try_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                 const tfx_value *const *args, size_t nargs,
                                 tfx_func_error *err)
{
    const tfx_ev *ev = NULL;
    tfx_diags all;
    size_t i;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    if (nargs == 0)
        return tfx_fn_error(err, "at least one argument is required");
    tfx_diags_init(&all, ctx->arena);
    for (i = 0; i < nargs; i++) {
        const tfx_ev_closure *c = tfx_ev_closure_of(args[i]);
        tfx_diags mine;
        const tfx_value *v;
        size_t j;

        ev = c->ev;
        if (!ctx->pn && tfx_ev_closure_depends_on_unknowns(c))
            return &tfx_value_dynamic_unknown;
        tfx_diags_init(&mine, ctx->arena);
        v = tfx_ev_closure_value(c, &mine);
        if (!tfx_diags_has_errors(&mine)) {
            /* [fn.try.unknowns.pn] PN looks at the value itself */
            if (ctx->pn && !tfx_value_is_wholly_known(v))
                return &tfx_value_dynamic_unknown;
            return v;
        }
        for (j = 0; j < mine.n; j++) {
            const tfx_diag *d = &mine.items[j];

            if (tfx_diags_add(&all, d->phase, d->category, d->summary,
                              d->has_subject ? &d->subject : NULL,
                              d->has_context ? &d->context : NULL, "%s", d->detail)
                == NULL)
                tfx_fn_nomem(ctx);
        }
    }
    return tfx_fn_error(err, no_success(ctx, ev, &all));
}

static const tfx_function try_function = {
    .name = "try",
    .varparam = &try_expressions,
    .ret_type = &tfx_type_dynamic,
    .impl = try_impl,
};

static const tfx_param can_params[] = {
    {.name = "expression", .type = &tfx_type_dynamic, .kind = TFX_PARAM_EXPRESSION},
};

/* [fn.can] HCL 2.14.1's can: an unknown bool when the expression refers
 * to a value that is not wholly known [fn.try.unknowns], else whether it
 * evaluates without errors (its value is dropped). */
static const tfx_value *can_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                 const tfx_value *const *args, size_t nargs,
                                 tfx_func_error *err)
{
    const tfx_ev_closure *c = tfx_ev_closure_of(args[0]);
    tfx_diags mine;
    const tfx_value *v;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);

    if (!ctx->pn && tfx_ev_closure_depends_on_unknowns(c))
        return tfx_value_unknown(ctx, &tfx_type_bool);
    tfx_diags_init(&mine, ctx->arena);
    v = tfx_ev_closure_value(c, &mine);
    if (tfx_diags_has_errors(&mine))
        return &tfx_value_false;
    /* [fn.try.unknowns.pn] PN: a result not wholly known gives unknown */
    if (ctx->pn && !tfx_value_is_wholly_known(v))
        return tfx_value_unknown(ctx, &tfx_type_bool);
    return &tfx_value_true;
}

static const tfx_function can_function = {
    .name = "can",
    .params = can_params,
    .nparams = 1,
    .ret_type = &tfx_type_bool,
    .impl = can_impl,
};

/* ---------------------------------------------------------------------
 * Type constraints written as expressions [fn.typeexpr.*]
 * ------------------------------------------------------------------ */

/* typeexpr.Defaults: the default values of the optional attributes of an
 * object type, and the defaults of the types inside a type, by key (an
 * attribute name, a tuple index in decimal, "" for a collection's
 * elements).  Built as upstream fills its Go maps: a later entry of a
 * name replaces an earlier one. */
typedef struct defaults defaults;
struct defaults {
    const tfx_type *type;
    size_t nvalues;
    tfx_str *names;
    const tfx_value **values;
    size_t nchildren;
    tfx_str *keys;
    const defaults **children;
};

/* [fn.convert.type] The decoded second argument of convert: the type
 * constraint and its defaults (NULL: none); `value` first, as for
 * closures. */
typedef struct {
    tfx_value value;
    const tfx_type *type;
    const defaults *defaults;
} constraint;

typedef struct {
    tfx_ev *ev;
    bool failed;     /* an error was reported */
} decoder;

static void type_error(decoder *d, const tfx_range *subject, const tfx_range *context,
                       const char *detail)
{
    d->failed = true;
    tfx_ev_error(d->ev, TFX_CAT_TYPE_CONSTRAINT, "Invalid type specification", subject, context,
                 "%s", detail);
}

static const char TYPE_SPEC_HELP[] =
    "A type specification is either a primitive type keyword (bool, number, string) or a "
    "complex type constructor call, like list(string).";

/* [fn.typeexpr.keyword] hcl.ExprAsKeyword: the name of a variable
 * reference without steps; the words null, true and false of those
 * literals; for an object key not in parentheses, its expression's; else
 * "" (NULL). */
static const char *keyword_of(const tfx_node *n, size_t *len)
{
    if (n->kind == TFX_NODE_OBJECT_CONS_KEY)
        return n->as.key.force_non_literal ? NULL : keyword_of(n->as.key.wrapped, len);
    if (n->kind == TFX_NODE_SCOPE_TRAVERSAL && n->as.traversal.nsteps == 0) {
        *len = n->as.traversal.nroot;
        return n->as.traversal.root;
    }
    if (n->kind == TFX_NODE_LITERAL && n->as.literal.kind == TFX_LIT_NULL) {
        *len = 4;
        return "null";
    }
    if (n->kind == TFX_NODE_LITERAL && n->as.literal.kind == TFX_LIT_BOOL) {
        *len = n->as.literal.boolean ? 4 : 5;
        return n->as.literal.boolean ? "true" : "false";
    }
    return NULL;
}

/* The same of an element of an expanded argument (a literal of any
 * value): null for a null, true and false for those exact values. */
static const char *keyword_of_value(const tfx_value *v, size_t *len)
{
    if (tfx_value_is_null(v)) {
        *len = 4;
        return "null";
    }
    if (v->marks == NULL && tfx_value_is_known(v) && v->type->kind == TFX_TYPE_BOOL) {
        *len = v->as.boolean ? 4 : 5;
        return v->as.boolean ? "true" : "false";
    }
    return NULL;
}

static bool word_is(const char *w, size_t n, const char *s)
{
    return w != NULL && n == strlen(s) && memcmp(w, s, n) == 0;
}

/* A defaults node of `type` with no entries. */
static defaults *new_defaults(tfx_ctx *ctx, const tfx_type *type)
{
    defaults *d = tfx_ctx_alloc(ctx, sizeof(*d));

    memset(d, 0, sizeof(*d));
    d->type = type;
    return d;
}

/* Sets key -> child (replacing an entry of that key).  The arrays have
 * room for `cap` entries. */
static void set_child(defaults *d, tfx_str key, const defaults *child)
{
    size_t i;

    for (i = 0; i < d->nchildren; i++)
        if (tfx_str_cmp(d->keys[i], key) == 0) {
            d->children[i] = child;
            return;
        }
    d->keys[d->nchildren] = key;
    d->children[d->nchildren++] = child;
}

/* [fn.typeexpr.collection] collectionDefaults: the element's defaults
 * under "", or none. */
static const defaults *collection_defaults(tfx_ctx *ctx, const tfx_type *type,
                                           const defaults *elem)
{
    defaults *d;

    if (elem == NULL)
        return NULL;
    d = new_defaults(ctx, type);
    d->keys = tfx_ctx_alloc_array(ctx, 1, sizeof(tfx_str));
    d->children = tfx_ctx_alloc_array(ctx, 1, sizeof(const defaults *));
    set_child(d, (tfx_str){"", 0}, elem);
    return d;
}

static const tfx_type *decode(decoder *d, const tfx_node *expr, const defaults **out);

/* The index of name in names[0..n), or -1. */
static long find_name(const tfx_str *names, size_t n, tfx_str name)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (tfx_str_cmp(names[i], name) == 0)
            return (long)i;
    return -1;
}

/* [fn.typeexpr.object] [fn.typeexpr.optional] [fn.typeexpr.default]
 * object({name = type, ...}): each key must read as a name; a value
 * optional(type) or optional(type, default) makes the attribute optional,
 * the default evaluated with no variables and no functions and converted
 * to the attribute's type.  A name given twice: in P14, the later type
 * wins, the attribute stays optional if either made it so, and a default
 * given earlier is converted to the later type (upstream's Go maps); in
 * PN, an error ([fn.typeexpr.object.pn]). */
static const tfx_type *decode_object(decoder *d, const tfx_node *expr, const tfx_node *arg,
                                     const defaults **out)
{
    tfx_ev *ev = d->ev;
    tfx_ctx *ctx = ev->ctx;
    size_t cap = arg->as.object.nitems;
    size_t n = 0;
    size_t nvalues = 0;
    tfx_str *names = tfx_ctx_alloc_array(ctx, cap + 1, sizeof(tfx_str));
    const tfx_type **types = tfx_ctx_alloc_array(ctx, cap + 1, sizeof(const tfx_type *));
    bool *optional = tfx_ctx_alloc_array(ctx, cap + 1, sizeof(bool));
    tfx_str *vnames = tfx_ctx_alloc_array(ctx, cap + 1, sizeof(tfx_str));
    const tfx_value **values = tfx_ctx_alloc_array(ctx, cap + 1, sizeof(const tfx_value *));
    defaults *node = new_defaults(ctx, &tfx_type_dynamic);
    const tfx_type *type;
    size_t i;

    node->keys = tfx_ctx_alloc_array(ctx, cap + 1, sizeof(tfx_str));
    node->children = tfx_ctx_alloc_array(ctx, cap + 1, sizeof(const defaults *));
    for (i = 0; i < arg->as.object.nitems; i++) {
        const tfx_node *key = arg->as.object.items[i].key;
        const tfx_node *aexpr = arg->as.object.items[i].value;
        const tfx_node *dexpr = NULL;
        const defaults *child = NULL;
        const tfx_type *aty;
        tfx_str name;
        bool opt = false;
        long at;

        name.s = keyword_of(key, &name.nbytes);
        if (name.s == NULL) {
            type_error(d, &key->range, &expr->range,
                       "Object constructor map keys must be attribute names.");
            continue;
        }
        /* [fn.typeexpr.object.pn] PN: a name given twice is an error,
         * and the second declaration is not looked at */
        if (ctx->pn && find_name(names, n, name) >= 0) {
            type_error(d, &key->range, &expr->range,
                       "Object constructor map keys must be unique.");
            continue;
        }
        if (aexpr->kind == TFX_NODE_FUNCTION_CALL
            && word_is(aexpr->as.call.name, aexpr->as.call.nname, "optional")) {
            tfx_range args = tfx_range_between(aexpr->as.call.open_range,
                                               aexpr->as.call.close_range);

            if (aexpr->as.call.nargs < 1) {
                type_error(d, &args, &aexpr->range,
                           "Optional attribute modifier requires the attribute type as its "
                           "argument.");
                continue;
            }
            if (aexpr->as.call.nargs == 2) {
                size_t mark = ev->diags->n;
                const tfx_value *dv;

                dexpr = aexpr->as.call.args[1];
                dv = tfx_ev_node(ev, dexpr, NULL);
                if (tfx_ev_failed_since(ev, mark)) {
                    d->failed = true;
                } else {
                    long k = find_name(vnames, nvalues, name);

                    opt = true;
                    if (k < 0)
                        k = (long)nvalues++;
                    vnames[k] = name;
                    values[k] = dv;
                }
            } else if (aexpr->as.call.nargs == 1) {
                opt = true;
            } else {
                type_error(d, &args, &aexpr->range,
                           "Optional attribute modifier expects at most two arguments: the "
                           "attribute type, and a default value.");
            }
            aexpr = aexpr->as.call.args[0];
        }
        aty = decode(d, aexpr, &child);
        at = find_name(vnames, nvalues, name);
        if (at >= 0) {
            /* [fn.typeexpr.default] the default must suit the type */
            const char *why = NULL;
            const tfx_value *cv = tfx_ev_convert(ev, values[at], aty, &why);

            if (cv == NULL) {
                d->failed = true;
                tfx_ev_error(ev, TFX_CAT_TYPE_CONSTRAINT,
                             "Invalid default value for optional attribute",
                             dexpr != NULL ? &dexpr->range : &aexpr->range, NULL,
                             "This default value is not compatible with the attribute's type "
                             "constraint: %s.", why != NULL ? why : "invalid value");
                vnames[at] = vnames[nvalues - 1];
                values[at] = values[nvalues - 1];
                nvalues--;
            } else {
                values[at] = cv;
            }
        }
        at = find_name(names, n, name);
        if (at < 0) {
            at = (long)n++;
            names[at] = name;
            optional[at] = false;
        }
        types[at] = aty;
        optional[at] = optional[at] || opt;
        if (child != NULL)
            set_child(node, name, child);
    }
    type = tfx_type_object_optional(ctx, names, types, optional, n);
    if (nvalues > 0 || node->nchildren > 0) {
        node->type = type;
        node->nvalues = nvalues;
        node->names = vnames;
        node->values = values;
        *out = node;
    }
    return type;
}

/* [fn.typeexpr.tuple] tuple([type, ...]). */
static const tfx_type *decode_tuple(decoder *d, const tfx_node *arg, const defaults **out)
{
    tfx_ctx *ctx = d->ev->ctx;
    size_t n = arg->as.tuple.nitems;
    const tfx_type **types = tfx_ctx_alloc_array(ctx, n + 1, sizeof(const tfx_type *));
    defaults *node = new_defaults(ctx, &tfx_type_dynamic);
    const tfx_type *type;
    size_t i;

    node->keys = tfx_ctx_alloc_array(ctx, n + 1, sizeof(tfx_str));
    node->children = tfx_ctx_alloc_array(ctx, n + 1, sizeof(const defaults *));
    for (i = 0; i < n; i++) {
        const defaults *child = NULL;

        types[i] = decode(d, arg->as.tuple.items[i], &child);
        if (child != NULL) {
            const char *key = tfx_ctx_printf(ctx, "%zu", i);

            set_child(node, (tfx_str){key, strlen(key)}, child);
        }
    }
    type = tfx_type_tuple(ctx, types, n);
    if (node->nchildren > 0) {
        node->type = type;
        *out = node;
    }
    return type;
}

/* [fn.typeexpr.keyword] [fn.typeexpr.call]
 * typeexpr's getType for a type constraint with defaults: a keyword (bool,
 * number, string, any), or a call of list, set, map (one element type),
 * object (one object constructor) or tuple (one tuple constructor); every
 * other form is an "Invalid type specification" error.  *out gets the
 * defaults, if any. */
static const tfx_type *decode(decoder *d, const tfx_node *expr, const defaults **out)
{
    tfx_ev *ev = d->ev;
    size_t len = 0;
    const char *kw = keyword_of(expr, &len);
    const char *name;
    size_t nname;
    size_t nargs;
    tfx_range args;

    tfx_ctx_step(ev->ctx);
    *out = NULL;
    if (kw != NULL) {
        if (word_is(kw, len, "bool"))
            return &tfx_type_bool;
        if (word_is(kw, len, "string"))
            return &tfx_type_str;
        if (word_is(kw, len, "number"))
            return &tfx_type_number;
        if (word_is(kw, len, "any"))
            return &tfx_type_dynamic;
        if (word_is(kw, len, "list") || word_is(kw, len, "map") || word_is(kw, len, "set"))
            type_error(d, &expr->range, NULL,
                       tfx_ctx_printf(ev->ctx,
                                      "The %.*s type constructor requires one argument "
                                      "specifying the element type.", (int)len, kw));
        else if (word_is(kw, len, "object"))
            type_error(d, &expr->range, NULL,
                       "The object type constructor requires one argument specifying the "
                       "attribute types and values as a map.");
        else if (word_is(kw, len, "tuple"))
            type_error(d, &expr->range, NULL,
                       "The tuple type constructor requires one argument specifying the "
                       "element types as a list.");
        else
            type_error(d, &expr->range, NULL,
                       tfx_ctx_printf(ev->ctx, "The keyword %s is not a valid type specification.",
                                      tfx_ev_quote(ev, kw, len)));
        return &tfx_type_dynamic;
    }
    if (expr->kind != TFX_NODE_FUNCTION_CALL) {
        type_error(d, &expr->range, NULL, TYPE_SPEC_HELP);
        return &tfx_type_dynamic;
    }
    name = expr->as.call.name;
    nname = expr->as.call.nname;
    nargs = expr->as.call.nargs;
    args = tfx_range_between(expr->as.call.open_range, expr->as.call.close_range);
    if (word_is(name, nname, "bool") || word_is(name, nname, "string")
        || word_is(name, nname, "number") || word_is(name, nname, "any")) {
        type_error(d, &args, NULL,
                   tfx_ctx_printf(ev->ctx, "%s keyword %s does not expect arguments.",
                                  word_is(name, nname, "any") ? "Type constraint"
                                                              : "Primitive type",
                                  tfx_ev_quote(ev, name, nname)));
        return &tfx_type_dynamic;
    }
    if (nargs != 1 && (word_is(name, nname, "list") || word_is(name, nname, "set")
                       || word_is(name, nname, "map") || word_is(name, nname, "object")
                       || word_is(name, nname, "tuple"))) {
        tfx_range subject = args;

        if (nargs > 1)
            subject = tfx_range_between(expr->as.call.args[1]->range,
                                        expr->as.call.args[nargs - 1]->range);
        if (word_is(name, nname, "object"))
            type_error(d, &subject, &args,
                       "The object type constructor requires one argument specifying the "
                       "attribute types and values as a map.");
        else if (word_is(name, nname, "tuple"))
            type_error(d, &subject, &args,
                       "The tuple type constructor requires one argument specifying the "
                       "element types as a list.");
        else
            type_error(d, &subject, &args,
                       tfx_ctx_printf(ev->ctx,
                                      "The %.*s type constructor requires one argument "
                                      "specifying the element type.", (int)nname, name));
        return &tfx_type_dynamic;
    }
    if (word_is(name, nname, "list") || word_is(name, nname, "set")
        || word_is(name, nname, "map")) {
        const defaults *elem = NULL;
        const tfx_type *ety = decode(d, expr->as.call.args[0], &elem);
        tfx_type_kind kind = name[0] == 'l' ? TFX_TYPE_LIST
                             : name[0] == 's' ? TFX_TYPE_SET : TFX_TYPE_MAP;
        const tfx_type *type = tfx_type_collection(ev->ctx, kind, ety);

        *out = collection_defaults(ev->ctx, type, elem);
        return type;
    }
    if (word_is(name, nname, "object")) {
        const tfx_node *arg = expr->as.call.args[0];

        if (arg->kind != TFX_NODE_OBJECT_CONS) {
            type_error(d, &arg->range, &expr->range,
                       "Object type constructor requires a map whose keys are attribute names "
                       "and whose values are the corresponding attribute types.");
            return &tfx_type_dynamic;
        }
        return decode_object(d, expr, arg, out);
    }
    if (word_is(name, nname, "tuple")) {
        const tfx_node *arg = expr->as.call.args[0];

        if (arg->kind != TFX_NODE_TUPLE_CONS) {
            type_error(d, &arg->range, &expr->range,
                       "Tuple type constructor requires a list of element types.");
            return &tfx_type_dynamic;
        }
        return decode_tuple(d, arg, out);
    }
    if (word_is(name, nname, "optional")) {
        type_error(d, &expr->as.call.name_range, NULL,
                   tfx_ctx_printf(ev->ctx,
                                  "Keyword %s is valid only as a modifier for object type "
                                  "attributes.", tfx_ev_quote(ev, name, nname)));
        return &tfx_type_dynamic;
    }
    type_error(d, &expr->range, NULL,
               tfx_ctx_printf(ev->ctx, "Keyword %s is not a valid type constructor.",
                              tfx_ev_quote(ev, name, nname)));
    return &tfx_type_dynamic;
}

const tfx_value *tfx_ev_decode_type(tfx_ev *ev, const tfx_node *expr, const tfx_value *literal,
                                    const tfx_range *literal_range)
{
    decoder d;
    constraint *c;
    const defaults *defs = NULL;
    const tfx_type *type;

    d.ev = ev;
    d.failed = false;
    if (expr == NULL) {
        /* [call.decode] an element of an expanded argument: a literal */
        size_t len = 0;
        const char *kw = keyword_of_value(literal, &len);

        type_error(&d, literal_range, NULL,
                   kw != NULL ? tfx_ctx_printf(ev->ctx,
                                               "The keyword %s is not a valid type "
                                               "specification.", tfx_ev_quote(ev, kw, len))
                              : TYPE_SPEC_HELP);
        return NULL;
    }
    type = decode(&d, expr, &defs);
    if (d.failed)
        return NULL;
    c = tfx_ctx_alloc(ev->ctx, sizeof(*c));
    memset(c, 0, sizeof(*c));
    c->value.type = &tfx_type_dynamic;
    c->value.state = TFX_VAL_KNOWN;
    c->type = type;
    c->defaults = defs;
    return &c->value;
}

/* ---------------------------------------------------------------------
 * convert [fn.convert.*]
 * ------------------------------------------------------------------ */

/* The defaults node for the step to child `key` of a value at node d
 * (typeexpr's Defaults.traverse): an attribute of an object type goes to
 * the attribute's entry, of a map type to ""; an index of a tuple type to
 * the index's entry, of a list, set or map type to "".  NULL: none. */
static const defaults *step_defaults(const defaults *d, bool attr, tfx_str key)
{
    tfx_str blank = {"", 0};
    tfx_type_kind k;
    long i;

    if (d == NULL)
        return NULL;
    k = d->type->kind;
    if ((attr && k == TFX_TYPE_MAP)
        || (!attr && (k == TFX_TYPE_LIST || k == TFX_TYPE_SET || k == TFX_TYPE_MAP)))
        key = blank;
    else if (!(attr && k == TFX_TYPE_OBJECT) && !(!attr && k == TFX_TYPE_TUPLE))
        return NULL;
    i = find_name(d->keys, d->nchildren, key);
    return i < 0 ? NULL : d->children[i];
}

/* The common type of items[0..n) (n >= 1), or NULL when they differ (a
 * cty collection of them panics). */
static const tfx_type *same_type(const tfx_value *const *items, size_t n)
{
    size_t i;

    for (i = 1; i < n; i++)
        if (!tfx_type_equal(items[i]->type, items[0]->type))
            return NULL;
    return items[0]->type;
}

/* [fn.convert.defaults] typeexpr 2.14.1's Defaults.Apply on v (with no
 * marks), a pre-order walk: where the node of v's path has default
 * values and v is a known object or map, each default whose attribute is
 * absent or null is put in, the result an object of whatever attributes
 * there then are (a null object becomes one of its defaults alone); then
 * the same in the elements of the result, rebuilt as a collection of the
 * same kind.  NULL with *err set when the elements no longer have one
 * type (upstream's collection constructors panic). */
static const tfx_value *apply_defaults(tfx_ctx *ctx, const defaults *d, const tfx_value *v,
                                       tfx_func_error *err)
{
    tfx_type_kind kind;
    const tfx_value **items;
    size_t n;
    size_t i;

    tfx_ctx_step(ctx);
    if (tfx_value_is_unknown(v))
        return v;
    if (d != NULL && d->nvalues > 0
        && (v->type->kind == TFX_TYPE_OBJECT || v->type->kind == TFX_TYPE_MAP)) {
        size_t have = tfx_value_is_null(v) ? 0 : tfx_value_length(v);
        tfx_str *keys;

        keys = tfx_ctx_alloc_array(ctx, have + d->nvalues + 1, sizeof(tfx_str));
        items = tfx_ctx_alloc_array(ctx, have + d->nvalues + 1, sizeof(const tfx_value *));
        for (n = 0; n < have; n++) {
            keys[n] = v->as.attrs.keys[n];
            items[n] = v->as.attrs.vals[n];
        }
        for (i = 0; i < d->nvalues; i++) {
            long at = find_name(keys, have, d->names[i]);

            if (at < 0) {
                keys[n] = d->names[i];
                items[n++] = d->values[i];
            } else if (tfx_value_is_null(items[at])) {
                items[at] = d->values[i];
            }
        }
        v = tfx_value_object(ctx, keys, items, n);
    }
    if (tfx_value_is_null(v) || tfx_value_is_unknown(v))
        return v;
    kind = v->type->kind;
    if (kind != TFX_TYPE_LIST && kind != TFX_TYPE_SET && kind != TFX_TYPE_TUPLE
        && kind != TFX_TYPE_MAP && kind != TFX_TYPE_OBJECT)
        return v;
    n = tfx_value_length(v);
    if (n == 0)
        return v;
    items = tfx_ctx_alloc_array(ctx, n, sizeof(const tfx_value *));
    for (i = 0; i < n; i++) {
        bool attrs = kind == TFX_TYPE_MAP || kind == TFX_TYPE_OBJECT;
        const tfx_value *item = attrs ? v->as.attrs.vals[i] : tfx_value_item(v, i);
        tfx_str key = {"", 0};

        if (attrs) {
            key = v->as.attrs.keys[i];
        } else if (kind == TFX_TYPE_TUPLE) {
            const char *k = tfx_ctx_printf(ctx, "%zu", i);

            key.s = k;
            key.nbytes = strlen(k);
        }
        items[i] = apply_defaults(ctx, step_defaults(d, kind == TFX_TYPE_OBJECT, key), item, err);
        if (items[i] == NULL)
            return NULL;
    }
    switch (kind) {
    case TFX_TYPE_TUPLE:
        return tfx_value_tuple(ctx, items, n);
    case TFX_TYPE_OBJECT:
        return tfx_value_object(ctx, v->as.attrs.keys, items, n);
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_MAP: {
        const tfx_type *elem = same_type(items, n);

        if (elem == NULL)
            return tfx_fn_error(
                err, tfx_ctx_printf(ctx, "panic in function implementation: inconsistent %s "
                                         "element types",
                                    kind == TFX_TYPE_LIST ? "list"
                                    : kind == TFX_TYPE_SET ? "set" : "map"));
        if (kind == TFX_TYPE_LIST)
            return tfx_value_list(ctx, elem, items, n);
        if (kind == TFX_TYPE_SET)
            return tfx_value_set(ctx, elem, items, n);
        return tfx_value_map(ctx, elem, v->as.attrs.keys, items, n);
    }
    default:
        break;
    }
    return v;
}

/* [fn.convert.defaults.pn] typeexpr 2.24's Defaults.getChild: the
 * defaults of the element at `key` (a name when named, else an index
 * written in decimal): an object type's (a tuple type's) own entry for
 * it, any other type's "" entry.  NULL: none. */
static const defaults *child_defaults_pn(const defaults *d, bool named, tfx_str key)
{
    tfx_str blank = {"", 0};
    long i;

    if (!((named && d->type->kind == TFX_TYPE_OBJECT)
          || (!named && d->type->kind == TFX_TYPE_TUPLE)))
        key = blank;
    i = find_name(d->keys, d->nchildren, key);
    return i < 0 ? NULL : d->children[i];
}

/* items[0..n) unified (unsafe) and converted to the common type, in
 * place; false when there is none or a conversion fails (typeexpr 2.24's
 * unifyAsSlice / unifyAsMap). */
static bool unify_items_pn(tfx_ctx *ctx, const tfx_value **items, size_t n)
{
    const tfx_type **types = tfx_ctx_alloc_array(ctx, n, sizeof(const tfx_type *));
    tfx_unification u;
    const char *why = NULL;
    size_t i;

    for (i = 0; i < n; i++)
        types[i] = items[i]->type;
    if (tfx_unify_plan(ctx, types, n, TFX_CONVERT_UNSAFE, &u) == NULL)
        return false;
    for (i = 0; i < n; i++) {
        items[i] = tfx_unify_convert(ctx, &u, i, items[i], &why);
        if (items[i] == NULL)
            return false;
    }
    return true;
}

static const tfx_value *apply_defaults_pn(tfx_ctx *ctx, const defaults *d, const tfx_value *v,
                                          tfx_func_error *err);

/* The elements of the known sequence or mapping v with their defaults
 * applied, and with the defaults of the missing or null attributes put
 * in (a mapping's); *n their number, keys[] their names (mappings).
 * NULL with *err set when applying defaults inside failed. */
static const tfx_value **defaulted_items_pn(tfx_ctx *ctx, const defaults *d, const tfx_value *v,
                                            bool named, tfx_str **keys, size_t *n,
                                            tfx_func_error *err)
{
    size_t have = tfx_value_length(v), cap = have + (named ? d->nvalues : 0) + 1, i;
    const tfx_value **items = tfx_ctx_alloc_array(ctx, cap, sizeof(const tfx_value *));

    *keys = tfx_ctx_alloc_array(ctx, cap, sizeof(tfx_str));
    for (i = 0; i < have; i++) {
        tfx_str key;
        const tfx_value *item = named ? v->as.attrs.vals[i] : tfx_value_item(v, i);
        const defaults *child;

        if (named) {
            key = v->as.attrs.keys[i];
        } else {
            key.s = tfx_ctx_printf(ctx, "%zu", i);
            key.nbytes = strlen(key.s);
        }
        (*keys)[i] = key;
        child = child_defaults_pn(d, named, key);
        items[i] = child != NULL ? apply_defaults_pn(ctx, child, item, err) : item;
        if (items[i] == NULL)
            return NULL;
    }
    *n = have;
    for (i = 0; named && i < d->nvalues; i++) {
        long at = find_name(*keys, have, d->names[i]);
        long c = find_name(d->keys, d->nchildren, d->names[i]);
        const tfx_value *dv = c >= 0 ? apply_defaults_pn(ctx, d->children[c], d->values[i], err)
                                     : d->values[i];

        if (dv == NULL)
            return NULL;
        if (at < 0) {
            (*keys)[*n] = d->names[i];
            items[(*n)++] = dv;
        } else if (tfx_value_is_null(items[at])) {
            items[at] = dv;
        }
    }
    return items;
}

/* [fn.convert.defaults.pn] Profile PN: typeexpr 2.24's Defaults.Apply
 * (HCL 2.15 to 2.16.2): null and unknown values are left alone (no
 * defaults go into a null object); a node with neither defaults nor
 * children leaves v; the top-level marks are set aside and put back;
 * elements get their children's defaults, an object or map the defaults
 * of its missing or null attributes (a default itself completed by the
 * attribute's own defaults); a list, set or map is rebuilt of one unified
 * element type when there is one, else becomes a tuple or object.  NULL
 * with *err set when the unified elements still differ in type (dynamic
 * in the unified type keeps each its own): cty's collection constructor
 * panics. */
static const tfx_value *apply_defaults_pn(tfx_ctx *ctx, const defaults *d, const tfx_value *v,
                                          tfx_func_error *err)
{
    const tfx_marks *marks = NULL;
    tfx_type_kind kind = v->type->kind;
    const tfx_value **items;
    const tfx_value **unified = NULL;
    tfx_str *keys;
    size_t n;
    bool named = kind == TFX_TYPE_OBJECT || kind == TFX_TYPE_MAP;

    tfx_ctx_step(ctx);
    if (!tfx_value_is_known(v) || (d->nvalues == 0 && d->nchildren == 0))
        return v;
    if (!named && kind != TFX_TYPE_LIST && kind != TFX_TYPE_SET && kind != TFX_TYPE_TUPLE)
        return v;
    v = tfx_value_unmark(ctx, v, &marks);
    items = defaulted_items_pn(ctx, d, v, named, &keys, &n, err);
    if (items == NULL)
        return NULL;
    if (n > 0 && (kind == TFX_TYPE_LIST || kind == TFX_TYPE_SET || kind == TFX_TYPE_MAP)) {
        /* converted in a copy: when unification fails, the tuple or
         * object is made of the elements as they were */
        unified = tfx_ctx_alloc_array(ctx, n, sizeof(const tfx_value *));
        memcpy((void *)unified, (const void *)items, n * sizeof(const tfx_value *));
        if (!unify_items_pn(ctx, unified, n))
            unified = NULL;
        else if (same_type(unified, n) == NULL)
            return tfx_fn_error(
                err, tfx_ctx_printf(ctx, "panic in function implementation: inconsistent %s "
                                         "element types",
                                    kind == TFX_TYPE_LIST  ? "list"
                                    : kind == TFX_TYPE_SET ? "set"
                                                           : "map"));
    }
    if (n == 0 && kind == TFX_TYPE_LIST)
        v = tfx_value_list(ctx, v->type->elem, NULL, 0);
    else if (n == 0 && kind == TFX_TYPE_SET)
        v = tfx_value_set(ctx, v->type->elem, NULL, 0);
    else if (n == 0 && kind == TFX_TYPE_MAP)
        v = tfx_value_map(ctx, v->type->elem, NULL, NULL, 0);
    else if (kind == TFX_TYPE_LIST && unified != NULL)
        v = tfx_value_list(ctx, unified[0]->type, unified, n);
    else if (kind == TFX_TYPE_SET && unified != NULL)
        v = tfx_value_set(ctx, unified[0]->type, unified, n);
    else if (kind == TFX_TYPE_MAP && unified != NULL)
        v = tfx_value_map(ctx, unified[0]->type, keys, unified, n);
    else if (named)
        v = tfx_value_object(ctx, keys, items, n);
    else
        v = tfx_value_tuple(ctx, items, n);
    return tfx_value_mark(ctx, v, marks);
}

static const tfx_param convert_params[] = {
    {.name = "value", .type = &tfx_type_dynamic, .allow_null = true, .allow_dynamic = true},
    {.name = "type", .type = &tfx_type_dynamic, .kind = TFX_PARAM_TYPE},
};

/* [fn.convert.return] The result type: the constraint without its
 * optional-attribute markers. */
static const tfx_type *convert_type(tfx_ctx *ctx, const tfx_function *fn,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    const constraint *c = (const constraint *)(const void *)args[1];

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return tfx_type_without_optional(ctx, c->type);
}

/* [fn.convert] [fn.convert.error] [fn.convert.defaults] Terraform's
 * convert: the value converted to the constraint as cty's Convert does
 * (an error is an argument error of "value" with cty's message), then the
 * defaults applied to the result. */
static const tfx_value *convert_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                     const tfx_value *const *args, size_t nargs,
                                     tfx_func_error *err)
{
    const constraint *c = (const constraint *)(const void *)args[1];
    const char *why = NULL;
    const tfx_value *v;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    v = tfx_convert(ctx, args[0], c->type, TFX_CONVERT_UNSAFE, &why);
    if (v == NULL)
        return tfx_fn_arg_error(err, 0, why != NULL ? why : "invalid value");
    if (c->defaults != NULL && ctx->pn)
        return apply_defaults_pn(ctx, c->defaults, v, err);
    if (c->defaults != NULL)
        v = apply_defaults(ctx, c->defaults, v, err);
    return v;
}

static const tfx_function convert_function = {
    .name = "convert",
    .params = convert_params,
    .nparams = 2,
    .type = convert_type,
    .impl = convert_impl,
};

/* ---------------------------------------------------------------------
 * templatestring [fn.templatestring.*]
 * ------------------------------------------------------------------ */

/* The file name of a templatestring template in ranges written into
 * messages. */
static const char TEMPLATE_FILE[] = "<templatestring argument>";

/* HCL's Diagnostics.Error(): the first diagnostic as "RANGE: SUMMARY;
 * DETAIL", and ", and N other diagnostic(s)" after it when there are
 * more.  Ranges in `file`. */
const char *tfx_template_diags_error(tfx_ev *ev, const tfx_diags *d, const char *file)
{
    const char *saved = ev->filename;
    const tfx_diag *first = &d->items[0];
    const char *where;
    const char *text;

    ev->filename = file;
    where = first->has_subject ? tfx_ev_range_text(ev, &first->subject) : "<nil>";
    ev->filename = saved;
    text = tfx_ctx_printf(ev->ctx, "%s: %s; %s", where, first->summary, first->detail);
    if (d->n > 1)
        text = tfx_ctx_printf(ev->ctx, "%s, and %zu other diagnostic(s)", text, d->n - 1);
    return text;
}

/* [fn.templatestring.reference] Terraform's isValidTemplateStringExpr: a
 * variable reference, or an attribute, index or splat of one. */
static bool is_reference(const tfx_node *n)
{
    switch (n->kind) {
    case TFX_NODE_SCOPE_TRAVERSAL:
        return true;
    case TFX_NODE_RELATIVE_TRAVERSAL:
        return is_reference(n->as.traversal.source);
    case TFX_NODE_INDEX:
        return is_reference(n->as.index.collection);
    case TFX_NODE_SPLAT:
        return is_reference(n->as.splat.source);
    default:
        return false;
    }
}

/* [fn.templatestring.reference] The argument error for a template
 * expression that is not a reference, or NULL. */
static const char *template_expr_error(const tfx_node *n)
{
    if (n->kind == TFX_NODE_TEMPLATE_WRAP)
        return "invalid template expression: templatestring is only for rendering templates "
               "retrieved dynamically from elsewhere; to treat the inner expression as template "
               "syntax, write the reference expression directly without any template "
               "interpolation syntax";
    if (n->kind == TFX_NODE_TEMPLATE) {
        /* upstream's `""` is one empty literal part */
        bool literal = n->as.template.nparts == 0
                       || (n->as.template.nparts == 1
                           && n->as.template.parts[0]->kind == TFX_NODE_LITERAL);

        if (literal)
            return "invalid template expression: templatestring is only for rendering "
                   "templates retrieved dynamically from elsewhere, and so does not support "
                   "providing a literal template; consider using a template string expression "
                   "instead";
        return "invalid template expression: templatestring is only for rendering templates "
               "retrieved dynamically from elsewhere; to render an inline template, consider "
               "using a plain template string expression";
    }
    if (!is_reference(n))
        return "invalid template expression: must be a direct reference to a single string "
               "from elsewhere, containing valid Terraform template syntax";
    return NULL;
}

/* hclsyntax.ValidIdentifier: the name lexes as one identifier and
 * nothing else. */
static bool valid_identifier(tfx_ctx *ctx, tfx_str name)
{
    tfx_tokens toks;

    if (!tfx_lex(ctx->arena, (const unsigned char *)name.s, name.nbytes, TFX_LEX_EXPRESSION,
                 &toks))
        tfx_fn_nomem(ctx);
    return toks.n == 2 && toks.items[0].kind == TFX_TOK_IDENT;
}

typedef struct {
    const tfx_value *vars;
    const tfx_node *missing;    /* the first reference to a name not in vars */
} vars_check;

static bool not_in_vars(void *data, const tfx_node *traversal)
{
    vars_check *c = data;

    if (tfx_value_lookup(c->vars, traversal->as.traversal.root, traversal->as.traversal.nroot)
        != NULL)
        return false;
    c->missing = traversal;
    return true;
}

static const tfx_type *refuse_type(tfx_ctx *ctx, const tfx_function *fn,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    TFX_UNUSED(args);
    TFX_UNUSED(nargs);
    return tfx_fn_error(err, tfx_ctx_printf(ctx, "cannot recursively call %s from inside "
                                                 "another template function", fn->name));
}

static const tfx_value *refuse_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    TFX_UNUSED(ret);
    return (const tfx_value *)refuse_type(ctx, fn, args, nargs, err);
}

static const tfx_param templatestring_params[] = {
    {.name = "template", .type = &tfx_type_dynamic, .kind = TFX_PARAM_EXPRESSION},
    {.name = "vars", .type = &tfx_type_dynamic},
};

/* [fn.templatestring.recursion] templatestring inside a template: the
 * same parameters, and a type function that always fails. */
static const tfx_function templatestring_refused = {
    .name = "templatestring",
    .params = templatestring_params,
    .nparams = 2,
    .type = refuse_type,
    .impl = refuse_impl,
};

/* [fn.templatestring.recursion] [fn.templatestring.files] The function
 * table of a templatestring template's own scope: the template functions
 * refused (recursion), the file functions refused (filesystem access),
 * every other name looked up in the enclosing scope. */
static const tfx_function *template_functions(const char *name, size_t nbytes)
{
    if (word_is(name, nbytes, "templatestring"))
        return &templatestring_refused;
    return tfx_files_refused(name, nbytes, true);
}

/* [fn.templatefile.recursion] The function table of a templatefile
 * template's own scope: only the template functions refused. */
static const tfx_function *templatefile_functions(const char *name, size_t nbytes)
{
    if (word_is(name, nbytes, "templatestring"))
        return &templatestring_refused;
    return tfx_files_refused(name, nbytes, false);
}

/* [fn.templatestring.vars] [fn.templatestring.render] Terraform's
 * template rendering: vars must be a map or an object whose names are
 * identifiers and that has every variable the template refers to; the
 * template is evaluated with those variables alone and the functions of
 * the calling scope (less the template functions, and less the file
 * functions unless allow_fs); its errors are the call's, as HCL's
 * Diagnostics.Error() words them (ranges in `file`); a null result is an
 * error.  NULL with *err set on failure. */
const tfx_value *tfx_template_render(tfx_ev *ev, const tfx_env *caller, const tfx_node *tmpl,
                                     const tfx_value *vars, const char *file, bool allow_fs,
                                     tfx_func_error *err)
{
    tfx_ctx *ctx = ev->ctx;
    const char *saved_file = ev->filename;
    vars_check check;
    tfx_env outer;
    tfx_env scope;
    tfx_diags mine;
    const tfx_value *v;
    size_t i;

    if (vars->type->kind != TFX_TYPE_MAP && vars->type->kind != TFX_TYPE_OBJECT)
        return tfx_fn_arg_error(err, 1, "invalid vars value: must be a map");
    for (i = 0; i < vars->as.attrs.n; i++)
        if (!valid_identifier(ctx, vars->as.attrs.keys[i]))
            return tfx_fn_arg_error(
                err, 1,
                tfx_ctx_printf(ctx, "invalid template variable name %s: must start with a letter, "
                                    "followed by zero or more letters, digits, and underscores",
                               tfx_ev_quote(ev, vars->as.attrs.keys[i].s,
                                            vars->as.attrs.keys[i].nbytes)));
    check.vars = vars;
    check.missing = NULL;
    if (tfx_ev_each_reference(ev, tmpl, not_in_vars, &check)) {
        const tfx_node *t = check.missing;

        ev->filename = file;
        v = tfx_fn_arg_error(
            err, 1,
            tfx_ctx_printf(ctx, "vars map does not contain key %s, referenced at %s",
                           tfx_ev_quote(ev, t->as.traversal.root, t->as.traversal.nroot),
                           tfx_ev_range_text(ev, &t->as.traversal.root_range)));
        ev->filename = saved_file;
        return v;
    }

    while (caller != NULL && !caller->has_functions)
        caller = caller->parent;
    memset(&outer, 0, sizeof(outer));
    if (caller != NULL) {
        outer.has_functions = true;
        outer.function = caller->function;
        outer.function_name = caller->function_name;
    }
    memset(&scope, 0, sizeof(scope));
    scope.parent = &outer;
    scope.has_variables = true;
    scope.var_names = vars->as.attrs.keys;
    scope.var_values = vars->as.attrs.vals;
    scope.nvars = vars->as.attrs.n;
    scope.has_functions = true;
    scope.function = allow_fs ? templatefile_functions : template_functions;
    scope.function_name = outer.function_name;

    tfx_diags_init(&mine, ctx->arena);
    {
        tfx_diags *saved = ev->diags;

        ev->diags = &mine;
        ev->filename = file;
        ev->nested++;
        v = tfx_ev_node(ev, tmpl, &scope);
        ev->nested--;
        ev->filename = saved_file;
        ev->diags = saved;
    }
    if (tfx_diags_has_errors(&mine))
        return tfx_fn_error(err, tfx_template_diags_error(ev, &mine, file));
    if (tfx_value_is_null(v)) {
        ev->filename = file;
        v = tfx_fn_error(
            err, tfx_ctx_printf(ctx, "%s: Template result is null; The result of the template "
                                     "is null, which is not a valid result for a "
                                     "templatestring call.",
                                tfx_ev_range_text(ev, &tmpl->range)));
        ev->filename = saved_file;
        return v;
    }
    return v;
}

/* templatestring's rendering: in the closure's evaluation and scope. */
static const tfx_value *render(const tfx_ev_closure *c, const tfx_node *tmpl,
                               const tfx_value *vars, tfx_func_error *err)
{
    return tfx_template_render(c->ev, c->env, tmpl, vars, TEMPLATE_FILE, false, err);
}

/* [fn.templatestring] [fn.templatestring.reference]
 * [fn.templatestring.value] [fn.templatestring.parse]
 * Terraform's templatestring(template, vars):
 * the template argument must be a reference to a string kept elsewhere;
 * its value (evaluated in the call's scope) must be a known, non-null
 * string, parsed as a bare template and rendered with vars; the result
 * converted to a string, with the template value's marks. */
static const tfx_value *templatestring_impl(tfx_ctx *ctx, const tfx_function *fn,
                                            const tfx_type *ret, const tfx_value *const *args,
                                            size_t nargs, tfx_func_error *err)
{
    const tfx_ev_closure *c = tfx_ev_closure_of(args[0]);
    const tfx_marks *marks = NULL;
    const char *why;
    const tfx_node *tmpl;
    tfx_diags mine;
    const tfx_value *v;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (c->expr == NULL || template_expr_error(c->expr) != NULL)
        return tfx_fn_arg_error(err, 0,
                                c->expr != NULL
                                    ? template_expr_error(c->expr)
                                    : "invalid template expression: must be a direct reference "
                                      "to a single string from elsewhere, containing valid "
                                      "Terraform template syntax");
    tfx_diags_init(&mine, ctx->arena);
    v = tfx_ev_closure_value(c, &mine);
    if (tfx_diags_has_errors(&mine))
        return tfx_fn_arg_error(err, 0,
                                tfx_ctx_printf(ctx, "invalid template expression: %s",
                                               tfx_template_diags_error(c->ev, &mine, c->ev->filename)));
    if (tfx_value_is_unknown(v))
        return tfx_value_unknown(ctx, &tfx_type_str);
    if (v->type->kind != TFX_TYPE_STRING || tfx_value_is_null(v))
        return tfx_fn_arg_error(err, 0, "invalid template value: a string is required");
    v = tfx_value_unmark(ctx, v, &marks);
    tfx_diags_init(&mine, ctx->arena);
    tmpl = tfx_parse_profile(ctx->arena, (const unsigned char *)v->as.string.s,
                             v->as.string.nbytes, TFX_LEX_TEMPLATE, ctx->limits.max_depth,
                             ctx->pn, &mine);
    if (tmpl == NULL)
        tfx_fn_nomem(ctx);
    if (tfx_diags_has_errors(&mine))
        return tfx_fn_arg_error(err, 0,
                                tfx_ctx_printf(ctx, "invalid template: %s",
                                               tfx_template_diags_error(c->ev, &mine, TEMPLATE_FILE)));
    v = render(c, tmpl, args[1], err);
    if (v == NULL)
        return NULL;
    why = NULL;
    v = tfx_convert(ctx, v, &tfx_type_str, TFX_CONVERT_UNSAFE, &why);
    if (v == NULL)
        return tfx_fn_error(err, tfx_ctx_printf(ctx, "invalid template result: %s",
                                                why != NULL ? why : "invalid value"));
    return tfx_value_mark(ctx, v, marks);
}

static const tfx_function templatestring_function = {
    .name = "templatestring",
    .params = templatestring_params,
    .nparams = 2,
    .ret_type = &tfx_type_str,
    .impl = templatestring_impl,
};

/* ---------------------------------------------------------------------
 * type [fn.type.*]
 * ------------------------------------------------------------------ */

static const tfx_param type_params[] = {
    {.name = "value", .type = &tfx_type_dynamic, .allow_null = true, .allow_unknown = true,
     .allow_dynamic = true},
};

/* [fn.type] [fn.type.value] Terraform's console-only type(value): the
 * argument's type (null, unknown and dynamic-typed arguments allowed;
 * marks taken off and put on the result), as a known value of the
 * capsule type `type` (tfx_type_type) marked TFX_TYPE_MARK. */
static const tfx_value *type_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                  const tfx_value *const *args, size_t nargs,
                                  tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return tfx_value_mark(ctx, tfx_value_type(ctx, args[0]->type),
                          tfx_marks_one(ctx, TFX_TYPE_MARK, strlen(TFX_TYPE_MARK)));
}

const tfx_function tfx_fn_type = {
    .name = "type",
    .params = type_params,
    .nparams = 1,
    .ret_type = &tfx_type_type,
    .impl = type_impl,
};

/* ---------------------------------------------------------------------
 * The table
 * ------------------------------------------------------------------ */

const tfx_builtin tfx_builtins_terraform[] = {
    {"can", &can_function},
    {"convert", &convert_function},
    {"templatestring", &templatestring_function},
    {"try", &try_function},
    {NULL, NULL},
};
