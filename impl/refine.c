/* SPDX-License-Identifier: MPL-2.0 */
/*
 * refine.c — refinements of unknown values, profile PN (spec/refinements.md,
 * rules refine.*): the builder that puts them together, the ranges that
 * read them, and the rules by which operators, functions, templates,
 * conditionals and conversions give and use them, as cty 1.18.1 and
 * HCL 2.24.0 do.
 */
#include "refine.h"

#include <string.h>

#include <utf8proc.h>

#include "common.h"
#include "funcs_internal.h"
#include "text.h"

void tfx_refinement_init(tfx_refinement *r)
{
    memset(r, 0, sizeof *r);
    r->prefix.s = "";
    r->len_upper = TFX_REFINE_NO_MAX;
}

bool tfx_refinement_empty(const tfx_refinement *r)
{
    return !r->not_null && r->prefix.nbytes == 0 && r->lower == NULL && r->upper == NULL &&
           r->len_lower == 0 && r->len_upper == TFX_REFINE_NO_MAX;
}

/* An exact copy of a number in dst (negating twice keeps signed zeros). */
static const tfx_num *copy_num(tfx_ctx *dst, const tfx_num *n)
{
    const tfx_num *neg;

    if (n == NULL)
        return NULL;
    neg = tfx_num_neg(dst->arena, n);
    neg = neg == NULL ? NULL : tfx_num_neg(dst->arena, neg);
    if (neg == NULL)
        tfx_fn_nomem(dst);
    return neg;
}

const tfx_refinement *tfx_refinement_copy(tfx_ctx *dst, const tfx_refinement *r)
{
    tfx_refinement *c = tfx_ctx_alloc(dst, sizeof *c);

    *c = *r;
    c->prefix.s = tfx_ctx_strndup(dst, r->prefix.s, r->prefix.nbytes);
    c->lower = copy_num(dst, r->lower);
    c->upper = copy_num(dst, r->upper);
    return c;
}

const tfx_refinement *tfx_value_refinement(const tfx_value *v)
{
    if (v->state != TFX_VAL_UNKNOWN || v->type->kind == TFX_TYPE_DYNAMIC)
        return NULL;
    return v->as.refine;
}

/* Whether a value of type t can take each kind of refinement. */
static bool takes_length(const tfx_type *t)
{
    return t->kind == TFX_TYPE_LIST || t->kind == TFX_TYPE_SET || t->kind == TFX_TYPE_MAP;
}

static bool num_equal(tfx_ctx *ctx, const tfx_num *a, const tfx_num *b)
{
    bool eq = false;

    if (tfx_num_equal(a, b, &eq) != TFX_NUM_OK)
        tfx_fn_nomem(ctx);
    return eq;
}

/* [refine.build] a lower bound: kept when it is tighter than the one
 * there (cty: a new inclusive bound must be above an exclusive one, any
 * other new bound at or above the old one).  An absent bound (NULL, cty's
 * own infinity) is never passed here; an infinite number that a value
 * has is kept, as cty keeps it. */
static void add_lower(tfx_ctx *ctx, tfx_refinement *r, const tfx_num *min, bool inclusive)
{
    if (r->lower != NULL) {
        int c = tfx_num_cmp(min, r->lower);
        bool tighter = inclusive && !r->lower_inclusive ? c > 0
                                                         : c > 0 || num_equal(ctx, min, r->lower);

        if (!tighter)
            return;
    }
    r->lower = min;
    r->lower_inclusive = inclusive;
}

static void add_upper(tfx_ctx *ctx, tfx_refinement *r, const tfx_num *max, bool inclusive)
{
    if (r->upper != NULL) {
        int c = tfx_num_cmp(max, r->upper);
        bool tighter = inclusive && !r->upper_inclusive ? c < 0
                                                         : c < 0 || num_equal(ctx, max, r->upper);

        if (!tighter)
            return;
    }
    r->upper = max;
    r->upper_inclusive = inclusive;
}

/* [refine.collapse] cty's NewValue: a value known not to be null whose
 * number bounds are equal and inclusive is that number; a collection
 * whose length bounds are equal is, for length 0, the empty collection,
 * for a list, a list of that many unknowns, for a set of one element, a
 * set of one unknown.  NULL: the value stays unknown. */
static const tfx_value *collapse(tfx_ctx *ctx, const tfx_type *t, const tfx_refinement *r)
{
    if (!r->not_null)
        return NULL;
    if (t->kind == TFX_TYPE_NUMBER && r->lower != NULL && r->upper != NULL &&
        r->lower_inclusive && r->upper_inclusive && num_equal(ctx, r->lower, r->upper))
        return tfx_value_number(ctx, r->lower);
    if (takes_length(t) && r->len_lower == r->len_upper) {
        const tfx_value *unk = tfx_value_unknown(ctx, t->elem);

        if (r->len_lower == 0) {
            if (t->kind == TFX_TYPE_MAP)
                return tfx_value_map(ctx, t->elem, NULL, NULL, 0);
            if (t->kind == TFX_TYPE_SET)
                return tfx_value_set(ctx, t->elem, NULL, 0);
            return tfx_value_list(ctx, t->elem, NULL, 0);
        }
        if (t->kind == TFX_TYPE_LIST) {
            const tfx_value **items;

            if ((uint64_t)r->len_lower > (uint64_t)ctx->limits.max_collection_items)
                return NULL; /* too long to make: left unknown */
            items = tfx_ctx_alloc_array(ctx, (size_t)r->len_lower, sizeof(const tfx_value *));
            for (size_t i = 0; i < (size_t)r->len_lower; i++)
                items[i] = unk;
            return tfx_value_list(ctx, t->elem, items, (size_t)r->len_lower);
        }
        if (t->kind == TFX_TYPE_SET && r->len_lower == 1)
            return tfx_value_set(ctx, t->elem, &unk, 1);
    }
    return NULL;
}

const tfx_value *tfx_value_refine(tfx_ctx *ctx, const tfx_value *v, const tfx_refinement *add)
{
    const tfx_refinement *old = tfx_value_refinement(v);
    const tfx_type *t = v->type;
    tfx_refinement *r;
    const tfx_value *known;
    tfx_value *out;

    if (v->state != TFX_VAL_UNKNOWN || t->kind == TFX_TYPE_DYNAMIC)
        return v;
    r = tfx_ctx_alloc(ctx, sizeof *r);
    if (old != NULL)
        *r = *old;
    else
        tfx_refinement_init(r);
    r->not_null = r->not_null || add->not_null;
    if (t->kind == TFX_TYPE_STRING && add->prefix.nbytes > r->prefix.nbytes)
        r->prefix = add->prefix;
    if (t->kind == TFX_TYPE_NUMBER) {
        if (add->lower != NULL)
            add_lower(ctx, r, add->lower, add->lower_inclusive);
        if (add->upper != NULL)
            add_upper(ctx, r, add->upper, add->upper_inclusive);
    }
    if (takes_length(t)) {
        if (add->len_lower > r->len_lower)
            r->len_lower = add->len_lower;
        if (add->len_upper < r->len_upper)
            r->len_upper = add->len_upper;
    }
    /* [refine.number.empty] an unknown number that went through the
     * builder keeps a refinement even when it says nothing: its absent
     * bounds are then exclusive infinities ([refine.eq]) */
    if (tfx_refinement_empty(r) && t->kind != TFX_TYPE_NUMBER)
        return v;
    known = collapse(ctx, t, r);
    if (known != NULL)
        return tfx_value_mark(ctx, known, v->marks);
    out = tfx_ctx_alloc(ctx, sizeof *out);
    *out = *v;
    out->as.refine = r;
    return out;
}

const tfx_value *tfx_value_refine_not_null(tfx_ctx *ctx, const tfx_value *v)
{
    tfx_refinement r;

    tfx_refinement_init(&r);
    r.not_null = true;
    return tfx_value_refine(ctx, v, &r);
}

/* ---- Ranges [refine.range] ---- */

bool tfx_refine_definitely_not_null(const tfx_value *v)
{
    const tfx_refinement *r = tfx_value_refinement(v);

    if (v->state == TFX_VAL_KNOWN)
        return true;
    return r != NULL && r->not_null;
}

/* The number bounds of v's range (cty's NumberLowerBound and
 * NumberUpperBound): a known number is its own inclusive bounds; an
 * unknown has its refinement's; NULL is infinite (exclusive). */
typedef struct {
    const tfx_num *lo, *hi;
    bool lo_inc, hi_inc;
} num_range;

static num_range number_range(const tfx_value *v)
{
    num_range nr = {NULL, NULL, false, false};
    const tfx_refinement *r = tfx_value_refinement(v);

    if (v->state == TFX_VAL_KNOWN && v->type->kind == TFX_TYPE_NUMBER) {
        nr.lo = nr.hi = v->as.number;
        nr.lo_inc = nr.hi_inc = true;
    } else if (r != NULL) {
        nr.lo = r->lower;
        nr.lo_inc = r->lower_inclusive;
        nr.hi = r->upper;
        nr.hi_inc = r->upper_inclusive;
    }
    return nr;
}

/* Whether the upper bound hi is certainly below the lower bound lo
 * (cty compares the bounds as values; infinite ones never are). */
static bool bound_below(const tfx_num *hi, const tfx_num *lo)
{
    return hi != NULL && lo != NULL && tfx_num_cmp(hi, lo) < 0;
}

/* [refine.prefix.safe] The ASCII characters that always end a grapheme
 * cluster and never combine with what follows (cty's
 * sequenceMustEndGraphemeCluster). */
static bool ends_cluster(unsigned char c)
{
    return c != '\0' && strchr("-_:;/\\,.(){}[]|?!~ \t@#$%^&*+\"'", c) != NULL;
}

/* [refine.prefix.safe] Whether the code point c is inert under NFC, so
 * that nothing appended after it can change it (x/text's
 * Properties.BoundaryAfter): combining class 0, no canonical
 * decomposition, and no part in a canonical composition, first or second
 * (Hangul syllables decompose; conjoining jamo compose). */
static bool nfc_inert(int32_t c)
{
    const utf8proc_property_t *p = utf8proc_get_property(c);

    if (c < 0) /* not UTF-8: x/text reads an invalid byte as an inert one */
        return true;
    if ((c >= 0x1100 && c <= 0x11FF) || (c >= 0xAC00 && c <= 0xD7A3))
        return false;
    return p->combining_class == 0 && p->comb_index == UINT16_MAX &&
           !(p->decomp_seqindex != UINT16_MAX && p->decomp_type == 0);
}

/* Where the last character of s[0..n) (n > 0) starts. */
static size_t last_start(const unsigned char *s, size_t n)
{
    size_t at = n - 1;

    while (at > 0 && (s[at] & 0xC0) == 0x80)
        at--;
    return at;
}

/* The last code point of s[0..n) (n > 0); -1 when its bytes are not one
 * UTF-8 character (a bad byte, trailing continuation bytes). */
static int32_t last_code_point(const unsigned char *s, size_t n)
{
    int32_t c = -1;
    size_t at = last_start(s, n);

    if (tfx_text_decode(s + at, n - at, &c) != n - at)
        return -1;
    return c;
}

/* Where an incomplete UTF-8 sequence ending s[0..n) (n > 0) starts (a
 * lead byte C0 to F7 short of continuation bytes), or n. */
static size_t incomplete_tail(const unsigned char *s, size_t n)
{
    size_t at = last_start(s, n);
    size_t need;

    if (s[at] < 0xC0 || s[at] > 0xF7)
        return n;
    need = s[at] < 0xE0 ? 2 : s[at] < 0xF0 ? 3 : 4;
    return n - at < need ? at : n;
}

/* Whether s[0..n) (n > 0) starts with what go-textseg's scanner reads as
 * a character: an ASCII byte, or a lead byte C0 to F7 followed by its
 * continuation bytes (overlong forms and surrogates pass; other invalid
 * UTF-8 does not). */
static bool textseg_char(const unsigned char *s, size_t n)
{
    size_t need;

    if (s[0] < 0x80)
        return true;
    if (s[0] < 0xC0 || s[0] > 0xF7)
        return false;
    need = s[0] < 0xE0 ? 1 : s[0] < 0xF0 ? 2 : 3;
    if (n <= need)
        return false;
    for (size_t i = 1; i <= need; i++)
        if ((s[i] & 0xC0) != 0x80)
            return false;
    return true;
}

size_t tfx_refine_safe_prefix(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t at = 0;
    size_t last = 0; /* where the last grapheme cluster starts */
    bool scans;

    if (n == 0)
        return 0;
    /* cty cuts a prefix whose last character is not inert at its last NFC
     * boundary (which the last cluster's start stands for); otherwise it
     * scans clusters with go-textseg's scanner told that more text may
     * follow, which stops at a CR or LF that is not part of a CR LF pair,
     * or at bytes that are not UTF-8, and keeps everything before them.
     * An incomplete sequence at the end is cut first (x/text's
     * LastBoundary), with what precedes it unless that is inert. */
    at = incomplete_tail(u, n);
    if (at < n) {
        if (at == 0 || nfc_inert(last_code_point(u, at)))
            return at;
        n = at;
        scans = false;
    } else
        scans = nfc_inert(last_code_point(u, n));
    at = 0;
    while (at < n) {
        size_t len = tfx_text_grapheme_len_profile(u + at, n - at, true); /* PN's clusters */

        if (len == 0)
            break;
        if (scans && ((len == 1 && (u[at] == '\n' || u[at] == '\r')) || !textseg_char(u + at, n - at)))
            return at;
        last = at;
        at += len;
    }
    /* The last cluster is dropped: text added later could extend it (and
     * for NFC, combine with its last character) — unless it is a single
     * ASCII delimiter, which nothing extends. */
    if (n - last == 1 && ends_cluster(u[last]))
        return n;
    return last;
}

/* [refine.eq] */
tfx_tri tfx_refine_equals(tfx_ctx *ctx, const tfx_value *a, const tfx_value *b)
{
    const tfx_value *unk;
    const tfx_value *known;
    const tfx_refinement *r;

    if ((a->state == TFX_VAL_NULL && tfx_refine_definitely_not_null(b)) ||
        (b->state == TFX_VAL_NULL && tfx_refine_definitely_not_null(a)))
        return TFX_TRI_FALSE;
    if ((a->state == TFX_VAL_UNKNOWN) == (b->state == TFX_VAL_UNKNOWN))
        return TFX_TRI_UNKNOWN;
    unk = a->state == TFX_VAL_UNKNOWN ? a : b;
    known = unk == a ? b : a;
    /* [refine.eq.type.pn] a known value whose type cannot become the
     * unknown's (dynamic inside the unknown's type matches anything) */
    if (known->state == TFX_VAL_KNOWN && tfx_fn_conformance(ctx, known->type, unk->type) != NULL)
        return TFX_TRI_FALSE;
    r = tfx_value_refinement(unk);
    if (r == NULL || known->state != TFX_VAL_KNOWN || !tfx_type_equal(known->type, unk->type))
        return TFX_TRI_UNKNOWN;
    switch (unk->type->kind) {
    case TFX_TYPE_STRING:
        if (known->as.string.nbytes < r->prefix.nbytes ||
            memcmp(known->as.string.s, r->prefix.s, r->prefix.nbytes) != 0)
            return TFX_TRI_FALSE;
        break;
    case TFX_TYPE_NUMBER: {
        const tfx_num *n = known->as.number;
        int lo = r->lower == NULL ? 1 : tfx_num_cmp(n, r->lower);
        int hi = r->upper == NULL ? -1 : tfx_num_cmp(n, r->upper);

        /* an absent bound is an exclusive infinity: an infinite n is
         * outside it */
        if (r->lower == NULL && tfx_num_is_inf(n) && tfx_num_sign(n) < 0)
            return TFX_TRI_FALSE;
        if (r->upper == NULL && tfx_num_is_inf(n) && tfx_num_sign(n) > 0)
            return TFX_TRI_FALSE;
        if (r->lower != NULL && !(lo > 0 || (r->lower_inclusive && num_equal(ctx, n, r->lower))))
            return TFX_TRI_FALSE;
        if (r->upper != NULL && !(hi < 0 || (r->upper_inclusive && num_equal(ctx, n, r->upper))))
            return TFX_TRI_FALSE;
        break;
    }
    case TFX_TYPE_LIST:
    case TFX_TYPE_MAP:
    case TFX_TYPE_SET: {
        /* a set with unknowns and several elements may shrink: its length
         * is only known to be between 1 and its number of elements */
        int64_t n = (int64_t)tfx_value_length(known);
        int64_t least = known->type->kind == TFX_TYPE_SET && n > 1 &&
                                !tfx_value_is_wholly_known(known)
                            ? 1
                            : n;

        if (n < r->len_lower || least > r->len_upper)
            return TFX_TRI_FALSE;
        break;
    }
    default:
        break;
    }
    return TFX_TRI_UNKNOWN;
}

/* ---- Function calls [refine.call] ---- */

/* [refine.cmp] cty's LessThan / GreaterThan of operands one of which is
 * unknown: true or false when the operands' number bounds are apart
 * (every bound treated as exclusive), unknown otherwise.  lt: a < b. */
static tfx_tri compare_ranges(const tfx_value *a, const tfx_value *b, bool lt)
{
    num_range ra = number_range(a);
    num_range rb = number_range(b);

    if (a->type->kind != TFX_TYPE_NUMBER || b->type->kind != TFX_TYPE_NUMBER)
        return TFX_TRI_UNKNOWN;
    if (lt) {
        if (bound_below(ra.hi, rb.lo))
            return TFX_TRI_TRUE;
        if (bound_below(rb.hi, ra.lo))
            return TFX_TRI_FALSE;
    } else {
        if (bound_below(rb.hi, ra.lo))
            return TFX_TRI_TRUE;
        if (bound_below(ra.hi, rb.lo))
            return TFX_TRI_FALSE;
    }
    return TFX_TRI_UNKNOWN;
}

const tfx_value *tfx_refine_call_decide(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_value *const *args, size_t nargs)
{
    const tfx_marks *ma = NULL, *mb = NULL;
    const tfx_value *a;
    const tfx_value *b;
    bool lt;
    bool or_equal;
    tfx_tri t;

    if (fn == &tfx_fn_less_than || fn == &tfx_fn_less_than_or_equal_to)
        lt = true;
    else if (fn == &tfx_fn_greater_than || fn == &tfx_fn_greater_than_or_equal_to)
        lt = false;
    else
        return NULL;
    if (nargs != 2)
        return NULL;
    a = tfx_value_unmark(ctx, args[0], &ma);
    b = tfx_value_unmark(ctx, args[1], &mb);
    if (!tfx_value_is_unknown(a) && !tfx_value_is_unknown(b))
        return NULL;
    if (tfx_value_is_null(a) || tfx_value_is_null(b))
        return NULL; /* the machinery's error */
    or_equal = fn == &tfx_fn_less_than_or_equal_to || fn == &tfx_fn_greater_than_or_equal_to;
    t = compare_ranges(a, b, lt);
    /* <= and >= are cty's "< or ==": false only when both are */
    if (or_equal && t == TFX_TRI_FALSE && tfx_refine_equals(ctx, a, b) != TFX_TRI_FALSE)
        t = TFX_TRI_UNKNOWN;
    return tfx_value_mark(ctx,
                          t == TFX_TRI_UNKNOWN ? tfx_value_unknown(ctx, &tfx_type_bool)
                                               : tfx_value_bool(t == TFX_TRI_TRUE),
                          tfx_marks_union(ctx, ma, mb));
}

/* [refine.call.result] The functions whose result cty's RefineResult
 * declares not null (refineNonNull), as the PN reference's table maps
 * names to them: the operators and cty's stdlib functions.  Sorted. */
static const char *const not_null_results[] = {
    "abs",          "add",          "and",
    "ceil",         "chomp",        "chunklist",
    "coalescelist", "compact",      "concat",
    "contains",     "csvdecode",    "distinct",
    "divide",       "equal",        "flatten",
    "floor",        "format",       "formatdate",
    "formatlist",   "greaterthan",  "greaterthanorequalto",
    "indent",       "join",         "jsonencode",
    "keys",         "lessthan",     "lessthanorequalto",
    "lower",        "max",          "merge",
    "min",          "modulo",       "multiply",
    "negate",       "not",          "notequal",
    "or",           "parseint",     "range",
    "regex",        "regexall",     "reverse",
    "setintersection", "setproduct", "setsubtract",
    "setunion",     "signum",       "slice",
    "sort",         "split",        "strrev",
    "substr",       "subtract",     "title",
    "trim",         "trimprefix",   "trimspace",
    "trimsuffix",   "upper",        "values",
    "zipmap",
};

/* [refine.fn.terraform] The functions Terraform defines itself (and
 * OpenTofu's own base64gunzip and urldecode) whose result their
 * RefineResult declares not null (Terraform 1.6.0 and later).  length is
 * handled on its own ([refine.length]).  Sorted. */
static const char *const tf_not_null_results[] = {
    "abspath", "alltrue", "anytrue", "base64decode", "base64encode", "base64gunzip", "base64gzip",
    "base64sha256", "base64sha512", "basename", "bcrypt", "cidrhost", "cidrnetmask", "cidrsubnet",
    "cidrsubnets", "coalesce", "dirname", "endswith", "file", "filebase64", "filebase64sha256",
    "filebase64sha512", "fileexists", "filemd5", "fileset", "filesha1", "filesha256", "filesha512",
    "index", "log", "matchkeys", "md5", "pathexpand", "pow", "replace", "rsadecrypt", "sha1",
    "sha256", "sha512", "startswith", "sum", "templatestring", "textdecodebase64",
    "textencodebase64", "timecmp", "timestamp", "transpose", "urldecode", "urlencode", "uuid",
    "uuidv5",
};

/* Whether name is one of the n sorted names. */
static bool name_in(const char *name, const char *const *names, size_t n)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(name, names[mid]);

        if (c == 0)
            return true;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return false;
}

static bool refines_not_null(const char *name)
{
    return name_in(name, not_null_results, TFX_COUNTOF(not_null_results)) ||
           name_in(name, tf_not_null_results, TFX_COUNTOF(tf_not_null_results));
}

/* [refine.strlen] cty's Strlen of an unknown string: not null, at least
 * as many grapheme clusters as its known prefix has. */
static const tfx_value *strlen_result(tfx_ctx *ctx, const tfx_value *arg,
                                      const tfx_value *result)
{
    const tfx_refinement *ar = tfx_value_refinement(arg);
    tfx_refinement r;
    size_t n = 0;

    if (arg->type->kind != TFX_TYPE_STRING || !tfx_value_is_unknown(arg))
        return tfx_value_refine_not_null(ctx, result);
    if (ar != NULL)
        n = tfx_text_count_graphemes_profile((const unsigned char *)ar->prefix.s,
                                             ar->prefix.nbytes, true);
    tfx_refinement_init(&r);
    r.not_null = true;
    r.lower = tfx_num_from_int64(ctx->arena, (int64_t)n);
    if (r.lower == NULL)
        tfx_fn_nomem(ctx);
    r.lower_inclusive = true;
    return tfx_value_refine(ctx, result, &r);
}

/* The bounds of v's length as cty's Range() reads them: a known
 * collection of known length has it as both; an unknown one its
 * refinement's; otherwise 0 and no limit. */
static void length_range(const tfx_value *v, int64_t *lo, int64_t *hi)
{
    const tfx_refinement *r = tfx_value_refinement(v);

    *lo = 0;
    *hi = TFX_REFINE_NO_MAX;
    if (v->state == TFX_VAL_KNOWN && (v->type->kind != TFX_TYPE_SET || tfx_value_length(v) <= 1 ||
                                      tfx_value_is_wholly_known(v)))
        *lo = *hi = (int64_t)tfx_value_length(v);
    else if (r != NULL) {
        *lo = r->len_lower;
        *hi = r->len_upper;
    }
}

/* [refine.fn.format] format with a known format string and an argument
 * not wholly known: the text before its first % (when there is some) is
 * the result's prefix, shortened by [refine.prefix.safe]. */
static void format_prefix(tfx_ctx *ctx, const tfx_value *f, tfx_refinement *r)
{
    const char *pct;
    const tfx_value *s;

    if (f->state != TFX_VAL_KNOWN || f->type->kind != TFX_TYPE_STRING)
        return;
    pct = memchr(f->as.string.s, '%', f->as.string.nbytes);
    if (pct == NULL || pct == f->as.string.s)
        return;
    s = tfx_value_string(ctx, f->as.string.s, (size_t)(pct - f->as.string.s));
    r->prefix.s = s->as.string.s;
    r->prefix.nbytes = tfx_refine_safe_prefix(s->as.string.s, s->as.string.nbytes);
}

/* [refine.fn.jsonencode] jsonencode of a value certainly not null but not
 * wholly known starts with `"` (a string), `{` (an object or map) or `[`
 * (a tuple, list or set). */
static void jsonencode_prefix(const tfx_value *v, tfx_refinement *r)
{
    switch (tfx_refine_definitely_not_null(v) ? v->type->kind : TFX_TYPE_DYNAMIC) {
    case TFX_TYPE_STRING: r->prefix.s = "\""; break;
    case TFX_TYPE_OBJECT:
    case TFX_TYPE_MAP: r->prefix.s = "{"; break;
    case TFX_TYPE_TUPLE:
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET: r->prefix.s = "["; break;
    default: return;
    }
    r->prefix.nbytes = 1;
}

/* [refine.fn.setproduct] setproduct with an argument of unknown length:
 * at most the product of the arguments' length upper bounds (tuples:
 * their element count) and at least 1, or exactly 0 when that product is
 * 0; nothing when a bound passes 1024 or the product 2048. */
static void setproduct_length(const tfx_value *const *args, size_t nargs, tfx_refinement *r)
{
    int64_t product = 1;

    for (size_t i = 0; i < nargs; i++) {
        const tfx_value *a = args[i];
        int64_t lo, hi;

        if (a->type->kind == TFX_TYPE_TUPLE)
            hi = (int64_t)a->type->n;
        else if (takes_length(a->type))
            length_range(a, &lo, &hi);
        else
            return;
        if (hi > 1024)
            return;
        product *= hi;
        if (product > 2048)
            return;
    }
    r->len_lower = product == 0 ? 0 : 1;
    r->len_upper = product;
}

/* [refine.fn.format] [refine.fn.jsonencode] [refine.fn.sort]
 * [refine.fn.setproduct] What cty's stdlib implementations add to their
 * unknown results, besides RefineResult's not null; args unmarked. */
static void function_refinement(tfx_ctx *ctx, const char *name, const tfx_value *const *args,
                                size_t nargs, tfx_refinement *r)
{
    if (strcmp(name, "format") == 0 && nargs >= 1)
        format_prefix(ctx, args[0], r);
    else if (strcmp(name, "jsonencode") == 0 && nargs == 1)
        jsonencode_prefix(args[0], r);
    else if (strcmp(name, "sort") == 0 && nargs == 1 && args[0]->type->kind == TFX_TYPE_LIST &&
             !tfx_value_is_wholly_known(args[0]))
        length_range(args[0], &r->len_lower, &r->len_upper);
    else if (strcmp(name, "setproduct") == 0)
        setproduct_length(args, nargs, r);
}

const tfx_value *tfx_refine_call_result(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_value *const *args, size_t nargs,
                                        const tfx_value *result)
{
    if (!tfx_value_is_unknown(result) || result->type->kind == TFX_TYPE_DYNAMIC)
        return result;
    if (fn == &tfx_fn_strlen && nargs == 1)
        return strlen_result(ctx, tfx_value_unmark(ctx, args[0], NULL), result);
    if (fn == &tfx_fn_length && nargs == 1) {
        const tfx_value *arg = tfx_value_unmark(ctx, args[0], NULL);

        if (takes_length(arg->type))
            return tfx_value_mark(ctx, tfx_refine_length(ctx, arg), result->marks);
        /* [refine.fn.terraform] Terraform's length: not null, also of a
         * value of unknown type */
        return tfx_value_refine_not_null(ctx, result);
    }
    if (refines_not_null(fn->name)) {
        tfx_refinement r;
        const tfx_value **plain = tfx_ctx_alloc_array(ctx, nargs, sizeof(const tfx_value *));

        for (size_t i = 0; i < nargs; i++)
            plain[i] = tfx_value_unmark_deep(ctx, args[i], NULL);
        tfx_refinement_init(&r);
        r.not_null = true;
        function_refinement(ctx, fn->name, plain, nargs, &r);
        return tfx_value_refine(ctx, result, &r);
    }
    return result;
}

/* ---- Lengths [refine.length] ---- */

const tfx_value *tfx_refine_length(tfx_ctx *ctx, const tfx_value *v)
{
    tfx_refinement r;
    const tfx_refinement *vr = tfx_value_refinement(v);
    int64_t lo = 0, hi = TFX_REFINE_NO_MAX;

    if (v->state == TFX_VAL_KNOWN) {
        /* a set with unknowns: between 1 and its number of elements */
        lo = 1;
        hi = (int64_t)tfx_value_length(v);
    } else if (vr != NULL) {
        lo = vr->len_lower;
        hi = vr->len_upper;
    }
    tfx_refinement_init(&r);
    r.not_null = true;
    r.lower = tfx_num_from_int64(ctx->arena, lo);
    r.upper = tfx_num_from_int64(ctx->arena, hi);
    if (r.lower == NULL || r.upper == NULL)
        tfx_fn_nomem(ctx);
    r.lower_inclusive = r.upper_inclusive = true;
    return tfx_value_refine(ctx, tfx_value_unknown(ctx, &tfx_type_number), &r);
}

/* ---- jsondecode [refine.fn.jsondecode] ---- */

/* Go's unicode.IsSpace. */
static bool go_space(int32_t c)
{
    return (c >= 0x09 && c <= 0x0D) || c == ' ' || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
           c == 0x205F || c == 0x3000;
}

/* c quoted as Go's %q quotes a rune: 'x', '\n', '\x01', '\''. */
static const char *quote_rune(tfx_ctx *ctx, int32_t c)
{
    static const char escapes[] = "abtnvfr"; /* \a to \r, in order */

    if (c >= 0x07 && c <= 0x0D)
        return tfx_ctx_printf(ctx, "'\\%c'", escapes[c - 0x07]);
    if (c == '\'' || c == '\\')
        return tfx_ctx_printf(ctx, "'\\%c'", (char)c);
    if (c < 0x20 || c == 0x7F)
        return tfx_ctx_printf(ctx, "'\\x%02x'", (unsigned)c);
    if (c < 0x80)
        return tfx_ctx_printf(ctx, "'%c'", (char)c);
    {
        unsigned char u[4];
        int n = (int)utf8proc_encode_char(c, u);

        return tfx_ctx_printf(ctx, "'%.*s'", n, (const char *)u);
    }
}

const tfx_type *tfx_refine_jsondecode_type(tfx_ctx *ctx, const tfx_value *str,
                                           tfx_func_error *err)
{
    const tfx_refinement *r = tfx_value_refinement(str);
    const unsigned char *p;
    size_t n;
    int32_t c = -1;

    if (r == NULL)
        return &tfx_type_dynamic;
    p = (const unsigned char *)r->prefix.s;
    n = r->prefix.nbytes;
    while (n > 0) {
        size_t len = tfx_text_decode(p, n, &c);

        if (len == 0 || !go_space(c))
            break;
        p += len;
        n -= len;
        c = -1;
    }
    if (n == 0 || c < 0)
        return &tfx_type_dynamic;
    if (c == '{' || c == '[' || c == 'n')
        return &tfx_type_dynamic;
    if (c == '"')
        return &tfx_type_str;
    if (c == 't' || c == 'f')
        return &tfx_type_bool;
    if (c == '-' || c == '.' || (c >= '0' && c <= '9'))
        return &tfx_type_number;
    return tfx_fn_arg_error(err, 0,
                            tfx_ctx_printf(ctx, "a JSON document cannot begin with the character %s",
                                           quote_rune(ctx, c)));
}

/* ---- Conditionals [refine.cond] ---- */

const tfx_value *tfx_refine_conditional(tfx_ctx *ctx, const tfx_type *rt, const tfx_value *a,
                                        const tfx_value *b)
{
    tfx_refinement r;
    const tfx_value *plain = tfx_value_unknown(ctx, rt);

    tfx_refinement_init(&r);
    r.not_null = tfx_refine_definitely_not_null(a) && tfx_refine_definitely_not_null(b);
    if (a->type->kind == TFX_TYPE_NUMBER && b->type->kind == TFX_TYPE_NUMBER) {
        num_range ra = number_range(a);
        num_range rb = number_range(b);

        /* the wider of the two bounds; equal ones inclusive if either is */
        if (ra.lo != NULL && rb.lo != NULL) {
            int c = tfx_num_cmp(ra.lo, rb.lo);

            r.lower = c < 0 ? ra.lo : rb.lo;
            r.lower_inclusive = c < 0 ? ra.lo_inc : rb.lo_inc;
            if (c >= 0 && num_equal(ctx, ra.lo, rb.lo))
                r.lower_inclusive = ra.lo_inc || rb.lo_inc;
        }
        if (ra.hi != NULL && rb.hi != NULL) {
            int c = tfx_num_cmp(ra.hi, rb.hi);

            r.upper = c > 0 ? ra.hi : rb.hi;
            r.upper_inclusive = c > 0 ? ra.hi_inc : rb.hi_inc;
            if (c <= 0 && num_equal(ctx, ra.hi, rb.hi))
                r.upper_inclusive = ra.hi_inc || rb.hi_inc;
        }
        return tfx_value_refine(ctx, plain, &r);
    }
    if (takes_length(a->type) && takes_length(b->type) && tfx_type_equal(a->type, b->type)) {
        int64_t alo = 0, ahi = TFX_REFINE_NO_MAX, blo = 0, bhi = TFX_REFINE_NO_MAX;
        const tfx_refinement *ar = tfx_value_refinement(a);
        const tfx_refinement *br = tfx_value_refinement(b);

        if (a->state == TFX_VAL_KNOWN && (a->type->kind != TFX_TYPE_SET ||
                                          tfx_value_length(a) <= 1 ||
                                          tfx_value_is_wholly_known(a)))
            alo = ahi = (int64_t)tfx_value_length(a);
        else if (ar != NULL) {
            alo = ar->len_lower;
            ahi = ar->len_upper;
        }
        if (b->state == TFX_VAL_KNOWN && (b->type->kind != TFX_TYPE_SET ||
                                          tfx_value_length(b) <= 1 ||
                                          tfx_value_is_wholly_known(b)))
            blo = bhi = (int64_t)tfx_value_length(b);
        else if (br != NULL) {
            blo = br->len_lower;
            bhi = br->len_upper;
        }
        r.len_lower = alo < blo ? alo : blo;
        r.len_upper = ahi > bhi ? ahi : bhi;
    }
    if (tfx_refinement_empty(&r))
        return plain; /* cty refines only a result known not to be null */
    return tfx_value_refine(ctx, plain, &r);
}

/* ---- Conversions [refine.convert] ---- */

const tfx_value *tfx_refine_convert_unknown(tfx_ctx *ctx, const tfx_value *v,
                                            const tfx_value *plain)
{
    const tfx_type *from = v->type;
    const tfx_type *to = plain->type;
    const tfx_refinement *vr = tfx_value_refinement(v);
    tfx_refinement r;

    tfx_refinement_init(&r);
    r.not_null = vr != NULL && vr->not_null;
    if ((from->kind == TFX_TYPE_OBJECT && to->kind == TFX_TYPE_MAP) ||
        (from->kind == TFX_TYPE_TUPLE && to->kind == TFX_TYPE_LIST)) {
        r.len_lower = r.len_upper = (int64_t)from->n;
    } else if (from->kind == TFX_TYPE_TUPLE && to->kind == TFX_TYPE_SET) {
        r.len_lower = from->n == 0 ? 0 : 1;
        r.len_upper = (int64_t)from->n;
    } else if (takes_length(from) && takes_length(to) && vr != NULL) {
        r.len_lower = vr->len_lower;
        if (to->kind == TFX_TYPE_SET && r.len_lower > 0)
            r.len_lower = 1; /* set elements may coalesce, never to none */
        r.len_upper = vr->len_upper;
    }
    if (tfx_refinement_empty(&r))
        return plain; /* cty refines a number or string only when not null */
    return tfx_value_refine(ctx, plain, &r);
}
