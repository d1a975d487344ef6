/* SPDX-License-Identifier: MPL-2.0 */
/*
 * regex_parse.c — Go 1.19's regexp/syntax parser with the Perl flags
 * (spec/functions-regex.md, rules re.syntax.*).
 *
 * The parser is Go's algorithm, written anew: an operand stack with the
 * pseudo-operators "(" and "|", literal runes joined into strings as they
 * come, single-rune classes turned into literals, alternations of
 * single-rune pieces merged into one class, and the factoring of common
 * leading pieces out of alternations.  These rewritings are part of the
 * behaviour, not only of the speed: the limits on size and nesting are
 * measured on the rewritten tree, and the factoring of a leading piece
 * compares literals without their case folding flag, so `(?i:a)b|A\d`
 * matches "a0" in Go and must here [re.syntax.factor].
 *
 * Errors end the parse through a longjmp to tfx_regex_parse (Go panics
 * and returns the first error); everything lives in the ctx's arena, so
 * nothing needs freeing on the way out.
 */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "regex_internal.h"
#include "regex_tables.h"
#include "regex_tables_pn.h"
#include "text.h"

/* Go's ErrorCode texts [re.syntax.errors]. */
#define ERR_INTERNAL "regexp/syntax: internal error"
#define ERR_LARGE "expression too large" /* Go 1.23's (profile PN) [re.syntax.limits.pn] */
#define ERR_INVALID_CHAR_RANGE "invalid character class range"
#define ERR_INVALID_ESCAPE "invalid escape sequence"
#define ERR_INVALID_NAMED_CAPTURE "invalid named capture"
#define ERR_INVALID_PERL_OP "invalid or unsupported Perl syntax"
#define ERR_INVALID_REPEAT_OP "invalid nested repetition operator"
#define ERR_INVALID_REPEAT_SIZE "invalid repeat count"
#define ERR_INVALID_UTF8 "invalid UTF-8"
#define ERR_MISSING_BRACKET "missing closing ]"
#define ERR_MISSING_PAREN "missing closing )"
#define ERR_MISSING_REPEAT_ARGUMENT "missing argument to repetition operator"
#define ERR_TRAILING_BACKSLASH "trailing backslash at end of expression"
#define ERR_UNEXPECTED_PAREN "unexpected )"
#define ERR_NESTING_DEPTH "expression nests too deeply"

/* Go's limits [re.syntax.limits]: the tree's height, the estimated
 * program size (128 MiB of 40-byte instructions) and the code points held
 * by classes (128 MiB of 4-byte runes); repeat counts up to 1000. */
#define MAX_HEIGHT 1000
#define MAX_SIZE ((128LL << 20) / 40)
#define MAX_RUNES ((128LL << 20) / 4)
#define MAX_REPEAT 1000

/* The code points that case folding can change (Go's minFold, maxFold). */
#define MIN_FOLD 0x0041
#define MAX_FOLD 0x1E943

#define NONE ((size_t)-1)

typedef struct {
    tfx_ctx *ctx;
    const tfx_regex_unicode *u;  /* the profile's tables */
    jmp_buf fail;
    tfx_regex_error *err;
    const char *s;           /* the whole pattern */
    size_t n;
    unsigned flags;
    re_node **stack;
    size_t nstack, stack_cap;
    int ncap;
    long long nregexp;       /* nodes made */
    long long nrunes;        /* code points of classes pushed */
    long long repeats;       /* product of repeat counts while size is untracked */
    bool track_size;
    bool track_height;
    const char **names;      /* names[1..ncap] */
    size_t names_cap;
    struct hframe *hstack;   /* calc_height's stack, kept between calls */
    size_t hstack_cap;
} parser;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((noreturn))
#endif
static void fail(parser *p, const char *code, size_t from, size_t to)
{
    p->err->code = code;
    p->err->expr = tfx_ctx_strndup(p->ctx, p->s + from, to - from);
    p->err->expr_nbytes = to - from;
    longjmp(p->fail, 1);
}

/* ---- Unicode data ---- */

/* One set of generated tables: regex_tables.h's or regex_tables_pn.h's. */
struct tfx_regex_unicode {
    const int32_t (*ranges)[2];
    const regex_table *categories;
    size_t ncategories;
    const regex_table *scripts;
    size_t nscripts;
    const int32_t (*fold_next)[2];
    size_t nfold;
    const char *version;
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* [re.unicode] Go 1.19's unicode package (Unicode 13.0.0). */
static const tfx_regex_unicode unicode_p14 = {
    regex_ranges, regex_categories, COUNT(regex_categories), regex_scripts,
    COUNT(regex_scripts), regex_fold_next, COUNT(regex_fold_next), REGEX_UNICODE_VERSION};

/* [re.unicode.pn] Go 1.23's (Unicode 15.0.0). */
static const tfx_regex_unicode unicode_pn = {
    regex_pn_ranges, regex_pn_categories, COUNT(regex_pn_categories), regex_pn_scripts,
    COUNT(regex_pn_scripts), regex_pn_fold_next, COUNT(regex_pn_fold_next),
    REGEX_PN_UNICODE_VERSION};

const tfx_regex_unicode *tfx_regex_unicode_of(const tfx_ctx *ctx)
{
    return ctx->pn ? &unicode_pn : &unicode_p14;
}

int32_t tfx_regex_simple_fold(const tfx_regex_unicode *u, int32_t r)
{
    size_t lo = 0, hi = u->nfold;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (u->fold_next[mid][0] < r)
            lo = mid + 1;
        else if (u->fold_next[mid][0] > r)
            hi = mid;
        else
            return u->fold_next[mid][1];
    }
    return r;
}

static bool in_ranges(const tfx_regex_unicode *u, int32_t off, int32_t n, int32_t r)
{
    int32_t lo = off, hi = off + n;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (u->ranges[mid][1] < r)
            lo = mid + 1;
        else if (u->ranges[mid][0] > r)
            hi = mid;
        else
            return true;
    }
    return false;
}

static const regex_table *find_table(const regex_table *t, size_t count, const char *name,
                                     size_t nbytes)
{
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        /* by length and bytes, as strcmp orders the table: the name may
         * hold a NUL, where strncmp would stop and the table's name end */
        size_t tlen = strlen(t[mid].name);
        int c = memcmp(t[mid].name, name, tlen < nbytes ? tlen : nbytes);
        if (c == 0)
            c = tlen < nbytes ? -1 : tlen > nbytes ? 1 : 0;
        if (c < 0)
            lo = mid + 1;
        else if (c > 0)
            hi = mid;
        else
            return &t[mid];
    }
    return NULL;
}

bool tfx_regex_is_letter_or_digit(const tfx_regex_unicode *u, int32_t r)
{
    const regex_table *l = find_table(u->categories, u->ncategories, "L", 1);
    const regex_table *nd = find_table(u->categories, u->ncategories, "Nd", 2);
    return (l != NULL && in_ranges(u, l->off, l->n, r)) ||
           (nd != NULL && in_ranges(u, nd->off, nd->n, r));
}

const char *tfx_regex_unicode_version(void)
{
    return unicode_p14.version;
}

/* ---- Nodes ---- */

static re_node *new_node(parser *p, int op)
{
    re_node *re = tfx_ctx_alloc(p->ctx, sizeof *re);
    tfx_ctx_step(p->ctx);
    re->op = op;
    re->size = -1;
    p->nregexp++;
    return re;
}

static void add_rune(tfx_ctx *ctx, int32_t **runes, size_t *n, size_t *cap, int32_t r)
{
    if (*n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 8;
        int32_t *nr = tfx_ctx_alloc_array(ctx, ncap, sizeof *nr);
        if (*n)
            memcpy(nr, *runes, *n * sizeof *nr);
        *runes = nr;
        *cap = ncap;
    }
    (*runes)[(*n)++] = r;
}

static void node_rune(parser *p, re_node *re, int32_t r)
{
    add_rune(p->ctx, &re->runes, &re->nrunes, &re->runes_cap, r);
}

static void node_sub(parser *p, re_node *re, re_node *sub)
{
    if (re->nsub == re->sub_cap) {
        size_t ncap = re->sub_cap ? re->sub_cap * 2 : 2;
        re_node **ns = tfx_ctx_alloc_array(p->ctx, ncap, sizeof(re_node *));
        if (re->nsub)
            memcpy(ns, re->sub, re->nsub * sizeof(re_node *));
        re->sub = ns;
        re->sub_cap = ncap;
    }
    re->sub[re->nsub++] = sub;
}

/* ---- Classes: lists of lo, hi pairs ---- */

/* Go's appendRange: joins [lo, hi] to one of the last two ranges when
 * they touch, else appends it. */
static void class_range(tfx_ctx *ctx, int32_t **r, size_t *n, size_t *cap, int32_t lo, int32_t hi)
{
    for (size_t i = 2; i <= 4; i += 2) {
        if (*n >= i) {
            int32_t rlo = (*r)[*n - i], rhi = (*r)[*n - i + 1];
            if (lo <= rhi + 1 && rlo <= hi + 1) {
                if (lo < rlo)
                    (*r)[*n - i] = lo;
                if (hi > rhi)
                    (*r)[*n - i + 1] = hi;
                return;
            }
        }
    }
    add_rune(ctx, r, n, cap, lo);
    add_rune(ctx, r, n, cap, hi);
}

/* A growable class. */
typedef struct {
    int32_t *r;
    size_t n, cap;
} cls;

static void cls_range(parser *p, cls *c, int32_t lo, int32_t hi)
{
    class_range(p->ctx, &c->r, &c->n, &c->cap, lo, hi);
}

/* Go's appendFoldedRange: the range with every code point's orbit. */
static void cls_folded_range(parser *p, cls *c, int32_t lo, int32_t hi)
{
    if ((lo <= MIN_FOLD && hi >= MAX_FOLD) || hi < MIN_FOLD || lo > MAX_FOLD) {
        cls_range(p, c, lo, hi);
        return;
    }
    if (lo < MIN_FOLD) {
        cls_range(p, c, lo, MIN_FOLD - 1);
        lo = MIN_FOLD;
    }
    if (hi > MAX_FOLD) {
        cls_range(p, c, MAX_FOLD + 1, hi);
        hi = MAX_FOLD;
    }
    for (int32_t x = lo; x <= hi; x++) {
        if ((x & 63) == 0)
            tfx_ctx_step(p->ctx);
        cls_range(p, c, x, x);
        for (int32_t f = tfx_regex_simple_fold(p->u, x); f != x;
             f = tfx_regex_simple_fold(p->u, f))
            cls_range(p, c, f, f);
    }
}

static int cmp_range(const void *a, const void *b)
{
    const int32_t *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    if (x[1] != y[1])
        return x[1] > y[1] ? -1 : 1;
    return 0;
}

/* Go's cleanClass: sorted, overlapping and adjacent ranges joined. */
static void clean_class(tfx_ctx *ctx, int32_t *r, size_t *n)
{
    if (*n < 4)
        return;
    for (size_t i = 0; i < *n / 64; i++)
        tfx_ctx_step(ctx);
    qsort(r, *n / 2, 2 * sizeof *r, cmp_range);
    size_t w = 2;
    for (size_t i = 2; i < *n; i += 2) {
        int32_t lo = r[i], hi = r[i + 1];
        if (lo <= r[w - 1] + 1) {
            if (hi > r[w - 1])
                r[w - 1] = hi;
            continue;
        }
        r[w] = lo;
        r[w + 1] = hi;
        w += 2;
    }
    *n = w;
}

/* Appends the class x[0..nx) (sorted), or its complement. */
static void cls_class(parser *p, cls *c, const int32_t *x, size_t nx, bool negate)
{
    if (!negate) {
        for (size_t i = 0; i < nx; i += 2)
            cls_range(p, c, x[i], x[i + 1]);
        return;
    }
    int32_t next = 0;
    for (size_t i = 0; i < nx; i += 2) {
        if (next <= x[i] - 1)
            cls_range(p, c, next, x[i] - 1);
        next = x[i + 1] + 1;
    }
    if (next <= RE_MAX_RUNE)
        cls_range(p, c, next, RE_MAX_RUNE);
}

static void cls_table(parser *p, cls *c, int32_t off, int32_t n, bool negate)
{
    int32_t next = 0;
    for (int32_t i = off; i < off + n; i++) {
        int32_t lo = p->u->ranges[i][0], hi = p->u->ranges[i][1];
        if (!negate) {
            cls_range(p, c, lo, hi);
            continue;
        }
        if (next <= lo - 1)
            cls_range(p, c, next, lo - 1);
        next = hi + 1;
    }
    if (negate && next <= RE_MAX_RUNE)
        cls_range(p, c, next, RE_MAX_RUNE);
}

/* Go's negateClass of a clean class, in place. */
static void negate_class(parser *p, re_node *re)
{
    cls out = {NULL, 0, 0};
    cls_class(p, &out, re->runes, re->nrunes, true);
    re->runes = out.r;
    re->nrunes = out.n;
    re->runes_cap = out.cap;
}

/* ---- Case folding of literals ---- */

static int32_t min_fold_rune(const tfx_regex_unicode *u, int32_t r)
{
    if (r < MIN_FOLD || r > MAX_FOLD)
        return r;
    int32_t min = r;
    for (int32_t f = tfx_regex_simple_fold(u, r); f != r; f = tfx_regex_simple_fold(u, f))
        if (f < min)
            min = f;
    return min;
}

/* ---- Limits [re.syntax.limits] ---- */

static long long calc_size(re_node *re, bool force);

static long long size_of(re_node *re)
{
    return calc_size(re, false);
}

/* Go's estimate of the instructions re compiles to. */
static long long calc_size(re_node *re, bool force)
{
    if (!force && re->size >= 0)
        return re->size;
    long long size = 0;
    switch (re->op) {
    case RE_LITERAL:
        size = (long long)re->nrunes;
        break;
    case RE_CAPTURE:
    case RE_STAR:
        size = 2 + size_of(re->sub[0]);
        break;
    case RE_PLUS:
    case RE_QUEST:
        size = 1 + size_of(re->sub[0]);
        break;
    case RE_CONCAT:
        for (size_t i = 0; i < re->nsub; i++)
            size += size_of(re->sub[i]);
        break;
    case RE_ALTERNATE:
        for (size_t i = 0; i < re->nsub; i++)
            size += size_of(re->sub[i]);
        if (re->nsub > 1)
            size += (long long)re->nsub - 1;
        break;
    case RE_REPEAT: {
        long long sub = size_of(re->sub[0]);
        if (re->max == -1) {
            size = re->min == 0 ? 2 + sub : 1 + (long long)re->min * sub;
            break;
        }
        size = (long long)re->max * sub + (long long)(re->max - re->min);
        break;
    }
    default:
        break;
    }
    if (size < 1)
        size = 1;
    re->size = size;
    return size;
}

static void check_size(parser *p, re_node *re)
{
    if (!p->track_size) {
        if (p->repeats == 0)
            p->repeats = 1;
        if (re->op == RE_REPEAT) {
            long long n = re->max == -1 ? re->min : re->max;
            if (n <= 0)
                n = 1;
            if (n > MAX_SIZE / p->repeats)
                p->repeats = MAX_SIZE;
            else
                p->repeats *= n;
        }
        if (p->nregexp < MAX_SIZE / p->repeats)
            return;
        p->track_size = true;
        for (size_t i = 0; i < p->nstack; i++)
            check_size(p, p->stack[i]);
    }
    if (calc_size(re, true) > MAX_SIZE)
        fail(p, p->ctx->pn ? ERR_LARGE : ERR_INTERNAL, 0, p->n);
}

/* A node of calc_height's walk. */
typedef struct hframe {
    re_node *re;
    size_t next;
    int h;
} hframe;

/* Go's calcHeight: 1 + the largest height of the operands, remembered in
 * each node (computed afresh for re itself when force).  Iterative: the
 * trees checked can be a thousand levels deep. */
static int calc_height(parser *p, re_node *re, bool force)
{
    if (!force && re->height > 0)
        return re->height;
    size_t cap = p->hstack_cap, sp = 0;
    hframe *st = p->hstack;
    if (cap == 0) {
        cap = 64;
        st = tfx_ctx_alloc_array(p->ctx, cap, sizeof *st);
        p->hstack = st;
        p->hstack_cap = cap;
    }
    st[sp++] = (hframe){re, 0, 1};
    int result = 0;
    for (;;) {
        hframe *f = &st[sp - 1];
        if (f->next < f->re->nsub) {
            re_node *sub = f->re->sub[f->next++];
            if (sub->height > 0) {
                if (f->h < 1 + sub->height)
                    f->h = 1 + sub->height;
                continue;
            }
            if (sp == cap) {
                hframe *ns = tfx_ctx_alloc_array(p->ctx, cap * 2, sizeof *ns);
                memcpy(ns, st, cap * sizeof *ns);
                st = ns;
                cap *= 2;
                p->hstack = st;
                p->hstack_cap = cap;
            }
            st[sp++] = (hframe){sub, 0, 1};
            continue;
        }
        f->re->height = f->h;
        result = f->h;
        if (--sp == 0)
            return result;
        if (st[sp - 1].h < 1 + result)
            st[sp - 1].h = 1 + result;
    }
}

static void check_height(parser *p, re_node *re)
{
    if (p->nregexp < MAX_HEIGHT)
        return;
    if (!p->track_height) {
        p->track_height = true;
        for (size_t i = 0; i < p->nstack; i++)
            check_height(p, p->stack[i]);
    }
    if (calc_height(p, re, true) > MAX_HEIGHT)
        fail(p, ERR_NESTING_DEPTH, 0, p->n);
}

static void check_limits(parser *p, re_node *re)
{
    if (p->nrunes > MAX_RUNES)
        fail(p, p->ctx->pn ? ERR_LARGE : ERR_INTERNAL, 0, p->n);
    check_size(p, re);
    check_height(p, re);
}

/* ---- The stack ---- */

static void stack_push(parser *p, re_node *re)
{
    if (p->nstack == p->stack_cap) {
        size_t ncap = p->stack_cap ? p->stack_cap * 2 : 16;
        re_node **ns = tfx_ctx_alloc_array(p->ctx, ncap, sizeof(re_node *));
        if (p->nstack)
            memcpy(ns, p->stack, p->nstack * sizeof(re_node *));
        p->stack = ns;
        p->stack_cap = ncap;
    }
    p->stack[p->nstack++] = re;
}

/* Go's maybeConcat: joins the two literals on top of the stack when their
 * folding agrees; with r >= 0, reuses the top node for the literal r and
 * reports it. */
static bool maybe_concat(parser *p, int32_t r, unsigned flags)
{
    size_t n = p->nstack;
    if (n < 2)
        return false;
    re_node *re1 = p->stack[n - 1], *re2 = p->stack[n - 2];
    if (re1->op != RE_LITERAL || re2->op != RE_LITERAL ||
        (re1->flags & RE_FOLD_CASE) != (re2->flags & RE_FOLD_CASE))
        return false;
    for (size_t i = 0; i < re1->nrunes; i++)
        node_rune(p, re2, re1->runes[i]);
    re2->size = -1;
    if (r >= 0) {
        re1->nrunes = 0;
        node_rune(p, re1, r);
        re1->flags = flags;
        re1->size = -1;
        return true;
    }
    p->nstack--;
    return false;
}

/* Go's push [re.syntax.literal-class]: a class of one code point, or of
 * one code point and its only case variant, becomes a literal. */
static re_node *push(parser *p, re_node *re)
{
    p->nrunes += (long long)re->nrunes;
    const int32_t *r = re->runes;
    if (re->op == RE_CLASS && re->nrunes == 2 && r[0] == r[1]) {
        if (maybe_concat(p, r[0], p->flags & ~(unsigned)RE_FOLD_CASE))
            return NULL;
        re->op = RE_LITERAL;
        re->nrunes = 1;
        re->flags = p->flags & ~(unsigned)RE_FOLD_CASE;
    } else if (re->op == RE_CLASS &&
               ((re->nrunes == 4 && r[0] == r[1] && r[2] == r[3] &&
                 tfx_regex_simple_fold(p->u, r[0]) == r[2] &&
                 tfx_regex_simple_fold(p->u, r[2]) == r[0]) ||
                (re->nrunes == 2 && r[0] + 1 == r[1] && tfx_regex_simple_fold(p->u, r[0]) == r[1] &&
                 tfx_regex_simple_fold(p->u, r[1]) == r[0]))) {
        if (maybe_concat(p, r[0], p->flags | RE_FOLD_CASE))
            return NULL;
        re->op = RE_LITERAL;
        re->nrunes = 1;
        re->flags = p->flags | RE_FOLD_CASE;
    } else {
        maybe_concat(p, -1, 0);
    }
    stack_push(p, re);
    check_limits(p, re);
    return re;
}

static void literal(parser *p, int32_t r)
{
    re_node *re = new_node(p, RE_LITERAL);
    re->flags = p->flags;
    if (p->flags & RE_FOLD_CASE)
        r = min_fold_rune(p->u, r);
    node_rune(p, re, r);
    push(p, re);
}

static re_node *op(parser *p, int o)
{
    re_node *re = new_node(p, o);
    re->flags = p->flags;
    return push(p, re);
}

/* ---- Text ---- */

/* Go's nextRune: the code point at *t (U+FFFD and no advance at the end);
 * a byte that is not UTF-8 is the error "invalid UTF-8" with the rest of
 * the text from there up to `end`. */
static int32_t next_rune(parser *p, size_t *t, size_t end)
{
    if (*t >= end)
        return 0xFFFD;
    int32_t c;
    size_t w = tfx_text_decode((const unsigned char *)p->s + *t, end - *t, &c);
    if (c < 0)
        fail(p, ERR_INVALID_UTF8, *t, end);
    *t += w;
    return c;
}

static void check_utf8(parser *p, size_t from, size_t to)
{
    size_t t = from;
    while (t < to)
        (void)next_rune(p, &t, to);
}

static bool is_alnum(int32_t c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static int32_t unhex(int32_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static size_t find_byte(const parser *p, size_t from, char b)
{
    const char *q = memchr(p->s + from, b, p->n - from);
    return q ? (size_t)(q - p->s) : NONE;
}

/* ---- Repetition [re.syntax.repeat] ---- */

/* Go's repeatIsValid: no path through nested counted repetitions makes
 * more than n copies. */
static bool repeat_is_valid(parser *p, const re_node *re, int n)
{
    tfx_ctx_step(p->ctx);
    if (re->op == RE_REPEAT) {
        int m = re->max;
        if (m == 0)
            return true;
        if (m < 0)
            m = re->min;
        if (m > n)
            return false;
        if (m > 0)
            n /= m;
    }
    for (size_t i = 0; i < re->nsub; i++)
        if (!repeat_is_valid(p, re->sub[i], n))
            return false;
    return true;
}

/* Applies a repetition to the top of the stack; before is where the
 * operator starts, after where it ends.  Returns the new after. */
static size_t repeat(parser *p, int o, int min, int max, size_t before, size_t after,
                     size_t last_repeat)
{
    unsigned flags = p->flags;
    if (p->flags & RE_PERL_X) {
        if (after < p->n && p->s[after] == '?') {
            after++;
            flags ^= RE_NON_GREEDY;
        }
        if (last_repeat != NONE)
            fail(p, ERR_INVALID_REPEAT_OP, last_repeat, after);
    }
    if (p->nstack == 0 || p->stack[p->nstack - 1]->op >= RE_PSEUDO)
        fail(p, ERR_MISSING_REPEAT_ARGUMENT, before, after);
    re_node *sub = p->stack[p->nstack - 1];
    re_node *re = new_node(p, o);
    re->min = min;
    re->max = max;
    re->flags = flags;
    node_sub(p, re, sub);
    p->stack[p->nstack - 1] = re;
    check_limits(p, re);
    if (o == RE_REPEAT && (min >= 2 || max >= 2) && !repeat_is_valid(p, re, MAX_REPEAT))
        fail(p, ERR_INVALID_REPEAT_SIZE, before, after);
    return after;
}

/* Go's parseInt: digits without a leading zero; -1 past 10^8. */
static bool parse_int(const parser *p, size_t *t, int *out)
{
    size_t u = *t;
    if (u >= p->n || p->s[u] < '0' || p->s[u] > '9')
        return false;
    if (p->n - u >= 2 && p->s[u] == '0' && p->s[u + 1] >= '0' && p->s[u + 1] <= '9')
        return false;
    int v = 0;
    bool big = false;
    while (u < p->n && p->s[u] >= '0' && p->s[u] <= '9') {
        if (!big) {
            if (v >= 100000000) {
                v = -1;
                big = true;
            } else {
                v = v * 10 + (p->s[u] - '0');
            }
        }
        u++;
    }
    *t = u;
    *out = v;
    return true;
}

/* Go's parseRepeat: {n}, {n,} or {n,m} at t; false when it is none of
 * them (the brace is then a literal). */
static bool parse_repeat(const parser *p, size_t t, int *min, int *max, size_t *after)
{
    size_t u = t + 1;
    if (!parse_int(p, &u, min) || u >= p->n)
        return false;
    if (p->s[u] != ',') {
        *max = *min;
    } else {
        u++;
        if (u >= p->n)
            return false;
        if (p->s[u] == '}') {
            *max = -1;
        } else if (!parse_int(p, &u, max)) {
            return false;
        } else if (*max < 0) {
            *min = -1;
        }
    }
    if (u >= p->n || p->s[u] != '}')
        return false;
    *after = u + 1;
    return true;
}

/* ---- Alternation and concatenation ---- */

static bool is_char_class(const re_node *re)
{
    return (re->op == RE_LITERAL && re->nrunes == 1) || re->op == RE_CLASS ||
           re->op == RE_ANY_NOT_NL || re->op == RE_ANY;
}

static bool match_rune(const re_node *re, int32_t r)
{
    switch (re->op) {
    case RE_LITERAL:
        return re->nrunes == 1 && re->runes[0] == r;
    case RE_CLASS:
        for (size_t i = 0; i < re->nrunes; i += 2)
            if (re->runes[i] <= r && r <= re->runes[i + 1])
                return true;
        return false;
    case RE_ANY_NOT_NL:
        return r != '\n';
    case RE_ANY:
        return true;
    default:
        return false;
    }
}

static void append_literal(parser *p, re_node *dst, int32_t x, unsigned flags)
{
    cls c = {dst->runes, dst->nrunes, dst->runes_cap};
    if (flags & RE_FOLD_CASE)
        cls_folded_range(p, &c, x, x);
    else
        cls_range(p, &c, x, x);
    dst->runes = c.r;
    dst->nrunes = c.n;
    dst->runes_cap = c.cap;
}

/* Go's mergeCharClass: dst becomes dst | src (dst's operator is the
 * larger). */
static void merge_char_class(parser *p, re_node *dst, const re_node *src)
{
    switch (dst->op) {
    case RE_ANY_NOT_NL:
        if (match_rune(src, '\n'))
            dst->op = RE_ANY;
        break;
    case RE_CLASS:
        if (src->op == RE_LITERAL) {
            append_literal(p, dst, src->runes[0], src->flags);
        } else {
            cls c = {dst->runes, dst->nrunes, dst->runes_cap};
            cls_class(p, &c, src->runes, src->nrunes, false);
            dst->runes = c.r;
            dst->nrunes = c.n;
            dst->runes_cap = c.cap;
        }
        break;
    case RE_LITERAL: {
        if (src->runes[0] == dst->runes[0] && src->flags == dst->flags)
            break;
        int32_t r0 = dst->runes[0];
        unsigned f0 = dst->flags;
        dst->op = RE_CLASS;
        dst->runes = NULL;
        dst->nrunes = dst->runes_cap = 0;
        append_literal(p, dst, r0, f0);
        append_literal(p, dst, src->runes[0], src->flags);
        break;
    }
    default:
        break;
    }
    dst->size = -1;
}

/* Go's cleanAlt: a class about to join an alternation is cleaned, and
 * the classes of everything (but \n) become the any operators. */
static void clean_alt(parser *p, re_node *re)
{
    if (re->op != RE_CLASS)
        return;
    clean_class(p->ctx, re->runes, &re->nrunes);
    const int32_t *r = re->runes;
    if (re->nrunes == 2 && r[0] == 0 && r[1] == RE_MAX_RUNE) {
        re->op = RE_ANY;
        re->nrunes = 0;
    } else if (re->nrunes == 4 && r[0] == 0 && r[1] == '\n' - 1 && r[2] == '\n' + 1 &&
               r[3] == RE_MAX_RUNE) {
        re->op = RE_ANY_NOT_NL;
        re->nrunes = 0;
    }
}

static re_node *collapse(parser *p, re_node **subs, size_t n, int o);

/* Go's Regexp.Equal (which ignores the folding flag of literals). */
static bool node_equal(const re_node *x, const re_node *y)
{
    if (x == NULL || y == NULL)
        return x == y;
    if (x->op != y->op)
        return false;
    switch (x->op) {
    case RE_END_TEXT:
        return (x->flags & RE_WAS_DOLLAR) == (y->flags & RE_WAS_DOLLAR);
    case RE_LITERAL:
    case RE_CLASS:
        return x->nrunes == y->nrunes &&
               (x->nrunes == 0 || memcmp(x->runes, y->runes, x->nrunes * sizeof *x->runes) == 0);
    case RE_ALTERNATE:
    case RE_CONCAT:
        if (x->nsub != y->nsub)
            return false;
        for (size_t i = 0; i < x->nsub; i++)
            if (!node_equal(x->sub[i], y->sub[i]))
                return false;
        return true;
    case RE_STAR:
    case RE_PLUS:
    case RE_QUEST:
        return (x->flags & RE_NON_GREEDY) == (y->flags & RE_NON_GREEDY) &&
               node_equal(x->sub[0], y->sub[0]);
    case RE_REPEAT:
        return (x->flags & RE_NON_GREEDY) == (y->flags & RE_NON_GREEDY) && x->min == y->min &&
               x->max == y->max && node_equal(x->sub[0], y->sub[0]);
    case RE_CAPTURE:
        return x->cap == y->cap &&
               ((x->name == NULL && y->name == NULL) ||
                (x->name != NULL && y->name != NULL && strcmp(x->name, y->name) == 0)) &&
               node_equal(x->sub[0], y->sub[0]);
    default:
        return true;
    }
}

/* The literal string that re starts with, and its folding flag. */
static const re_node *leading_string(const re_node *re)
{
    if (re->op == RE_CONCAT && re->nsub > 0)
        re = re->sub[0];
    return re->op == RE_LITERAL ? re : NULL;
}

static re_node *remove_leading_string(parser *p, re_node *re, size_t n)
{
    if (re->op == RE_CONCAT && re->nsub > 0) {
        re_node *sub = remove_leading_string(p, re->sub[0], n);
        re->sub[0] = sub;
        re->size = -1;
        if (sub->op == RE_EMPTY) {
            if (re->nsub <= 1) {
                re->op = RE_EMPTY;
                re->nsub = 0;
            } else if (re->nsub == 2) {
                re = re->sub[1];
            } else {
                memmove(re->sub, re->sub + 1, (re->nsub - 1) * sizeof(re_node *));
                re->nsub--;
            }
        }
        return re;
    }
    if (re->op == RE_LITERAL) {
        memmove(re->runes, re->runes + n, (re->nrunes - n) * sizeof *re->runes);
        re->nrunes -= n;
        re->size = -1;
        if (re->nrunes == 0)
            re->op = RE_EMPTY;
    }
    return re;
}

static re_node *leading_regexp(re_node *re)
{
    if (re->op == RE_EMPTY)
        return NULL;
    if (re->op == RE_CONCAT && re->nsub > 0) {
        if (re->sub[0]->op == RE_EMPTY)
            return NULL;
        return re->sub[0];
    }
    return re;
}

static re_node *remove_leading_regexp(parser *p, re_node *re)
{
    if (re->op == RE_CONCAT && re->nsub > 0) {
        memmove(re->sub, re->sub + 1, (re->nsub - 1) * sizeof(re_node *));
        re->nsub--;
        re->size = -1;
        if (re->nsub == 0) {
            re->op = RE_EMPTY;
        } else if (re->nsub == 1) {
            re = re->sub[0];
        }
        return re;
    }
    return new_node(p, RE_EMPTY);
}

static re_node *concat_of(parser *p, re_node *prefix, re_node *suffix)
{
    re_node *re = new_node(p, RE_CONCAT);
    node_sub(p, re, prefix);
    node_sub(p, re, suffix);
    return re;
}

/* Go's factor [re.syntax.factor]: common leading literal strings, then
 * common leading single-rune pieces (or fixed repetitions of them) are
 * taken out of runs of alternatives; runs of single-rune alternatives
 * become one class; runs of empty alternatives become one.  Works in
 * sub[0..*n) and shortens *n. */
static void factor(parser *p, re_node **sub, size_t *nsub)
{
    size_t n = *nsub;
    if (n < 2)
        return;

    /* Round 1: common literal prefixes. */
    const int32_t *str = NULL;
    size_t nstr = 0;
    unsigned strflags = 0;
    size_t start = 0, nout = 0;
    for (size_t i = 0; i <= n; i++) {
        const int32_t *istr = NULL;
        size_t nistr = 0;
        unsigned iflags = 0;
        if (i < n) {
            tfx_ctx_step(p->ctx);
            const re_node *lead = leading_string(sub[i]);
            if (lead != NULL) {
                istr = lead->runes;
                nistr = lead->nrunes;
                iflags = lead->flags & RE_FOLD_CASE;
            }
            if (iflags == strflags) {
                size_t same = 0;
                while (same < nstr && same < nistr && str[same] == istr[same])
                    same++;
                if (same > 0) {
                    nstr = same;
                    continue;
                }
            }
        }
        if (i == start) {
            /* nothing */
        } else if (i == start + 1) {
            sub[nout++] = sub[start];
        } else {
            re_node *prefix = new_node(p, RE_LITERAL);
            prefix->flags = strflags;
            for (size_t k = 0; k < nstr; k++)
                node_rune(p, prefix, str[k]);
            for (size_t j = start; j < i; j++) {
                sub[j] = remove_leading_string(p, sub[j], nstr);
                check_limits(p, sub[j]);
            }
            re_node *suffix = collapse(p, sub + start, i - start, RE_ALTERNATE);
            sub[nout++] = concat_of(p, prefix, suffix);
        }
        start = i;
        /* istr points into sub[i]'s literal, which is shortened only when
         * its run is factored, after the prefix has been copied. */
        str = istr;
        nstr = nistr;
        strflags = iflags;
    }
    n = nout;

    /* Round 2: common leading single-rune pieces. */
    start = 0;
    nout = 0;
    re_node *first = NULL;
    for (size_t i = 0; i <= n; i++) {
        re_node *ifirst = NULL;
        if (i < n) {
            tfx_ctx_step(p->ctx);
            ifirst = leading_regexp(sub[i]);
            if (first != NULL && node_equal(first, ifirst) &&
                (is_char_class(first) || (first->op == RE_REPEAT && first->min == first->max &&
                                          is_char_class(first->sub[0]))))
                continue;
        }
        if (i == start) {
            /* nothing */
        } else if (i == start + 1) {
            sub[nout++] = sub[start];
        } else {
            re_node *prefix = first;
            for (size_t j = start; j < i; j++) {
                sub[j] = remove_leading_regexp(p, sub[j]);
                check_limits(p, sub[j]);
            }
            re_node *suffix = collapse(p, sub + start, i - start, RE_ALTERNATE);
            sub[nout++] = concat_of(p, prefix, suffix);
        }
        start = i;
        first = ifirst;
    }
    n = nout;

    /* Round 3: runs of single-rune alternatives into one class. */
    start = 0;
    nout = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && is_char_class(sub[i]))
            continue;
        if (i == start) {
            /* nothing */
        } else if (i == start + 1) {
            sub[nout++] = sub[start];
        } else {
            size_t max = start;
            for (size_t j = start + 1; j < i; j++)
                if (sub[max]->op < sub[j]->op ||
                    (sub[max]->op == sub[j]->op && sub[max]->nrunes < sub[j]->nrunes))
                    max = j;
            re_node *tmp = sub[start];
            sub[start] = sub[max];
            sub[max] = tmp;
            for (size_t j = start + 1; j < i; j++)
                merge_char_class(p, sub[start], sub[j]);
            clean_alt(p, sub[start]);
            sub[nout++] = sub[start];
        }
        if (i < n)
            sub[nout++] = sub[i];
        start = i + 1;
    }
    n = nout;

    /* Round 4: runs of empty alternatives into one. */
    nout = 0;
    for (size_t i = 0; i < n; i++) {
        if (i + 1 < n && sub[i]->op == RE_EMPTY && sub[i + 1]->op == RE_EMPTY)
            continue;
        sub[nout++] = sub[i];
    }
    *nsub = nout;
}

/* Go's collapse: op applied to subs, nested nodes of the same operator
 * flattened; alternations factored. */
static re_node *collapse(parser *p, re_node **subs, size_t n, int o)
{
    if (n == 1)
        return subs[0];
    re_node *re = new_node(p, o);
    for (size_t i = 0; i < n; i++) {
        if (subs[i]->op == o) {
            for (size_t j = 0; j < subs[i]->nsub; j++)
                node_sub(p, re, subs[i]->sub[j]);
        } else {
            node_sub(p, re, subs[i]);
        }
    }
    if (o == RE_ALTERNATE) {
        factor(p, re->sub, &re->nsub);
        if (re->nsub == 1)
            re = re->sub[0];
    }
    return re;
}

static size_t pseudo_bottom(const parser *p)
{
    size_t i = p->nstack;
    while (i > 0 && p->stack[i - 1]->op < RE_PSEUDO)
        i--;
    return i;
}

static void concat(parser *p)
{
    maybe_concat(p, -1, 0);
    size_t i = pseudo_bottom(p);
    size_t n = p->nstack - i;
    p->nstack = i;
    if (n == 0) {
        push(p, new_node(p, RE_EMPTY));
        return;
    }
    push(p, collapse(p, p->stack + i, n, RE_CONCAT));
}

static void alternate(parser *p)
{
    size_t i = pseudo_bottom(p);
    size_t n = p->nstack - i;
    p->nstack = i;
    if (n > 0)
        clean_alt(p, p->stack[i + n - 1]);
    if (n == 0) {
        push(p, new_node(p, RE_NOMATCH));
        return;
    }
    /* collapse may rewrite the slots it is given: they are above the
     * stack's top now, and push only writes at the top. */
    re_node **subs = tfx_ctx_alloc_array(p->ctx, n, sizeof(re_node *));
    memcpy(subs, p->stack + i, n * sizeof(re_node *));
    push(p, collapse(p, subs, n, RE_ALTERNATE));
}

/* Go's swapVerticalBar: merges two single-rune alternatives around a
 * "|" on the stack, or moves the "|" above the expression just parsed. */
static bool swap_vertical_bar(parser *p)
{
    size_t n = p->nstack;
    if (n >= 3 && p->stack[n - 2]->op == RE_VERTICAL_BAR && is_char_class(p->stack[n - 1]) &&
        is_char_class(p->stack[n - 3])) {
        re_node *re1 = p->stack[n - 1], *re3 = p->stack[n - 3];
        if (re1->op > re3->op) {
            re_node *t = re1;
            re1 = re3;
            re3 = t;
            p->stack[n - 3] = re3;
        }
        merge_char_class(p, re3, re1);
        p->nstack--;
        return true;
    }
    if (n >= 2) {
        re_node *re1 = p->stack[n - 1], *re2 = p->stack[n - 2];
        if (re2->op == RE_VERTICAL_BAR) {
            if (n >= 3)
                clean_alt(p, p->stack[n - 3]);
            p->stack[n - 2] = re1;
            p->stack[n - 1] = re2;
            return true;
        }
    }
    return false;
}

static void parse_vertical_bar(parser *p)
{
    concat(p);
    if (!swap_vertical_bar(p))
        op(p, RE_VERTICAL_BAR);
}

static void parse_right_paren(parser *p)
{
    concat(p);
    if (swap_vertical_bar(p))
        p->nstack--;
    alternate(p);
    size_t n = p->nstack;
    if (n < 2)
        fail(p, ERR_UNEXPECTED_PAREN, 0, p->n);
    re_node *re1 = p->stack[n - 1], *re2 = p->stack[n - 2];
    p->nstack -= 2;
    if (re2->op != RE_LEFT_PAREN)
        fail(p, ERR_UNEXPECTED_PAREN, 0, p->n);
    p->flags = re2->flags;
    if (re2->cap == 0) {
        push(p, re1);
    } else {
        re2->op = RE_CAPTURE;
        re2->nsub = 0;
        node_sub(p, re2, re1);
        push(p, re2);
    }
}

/* ---- Groups and flags [re.syntax.flags], [re.syntax.named] ---- */

static void set_name(parser *p, int cap, const char *name)
{
    if ((size_t)cap >= p->names_cap) {
        size_t ncap = p->names_cap ? p->names_cap * 2 : 16;
        while (ncap <= (size_t)cap)
            ncap *= 2;
        const char **nn = tfx_ctx_alloc_array(p->ctx, ncap, sizeof(const char *));
        if (p->names_cap)
            memcpy(nn, p->names, p->names_cap * sizeof(const char *));
        p->names = nn;
        p->names_cap = ncap;
    }
    p->names[cap] = name;
}

static void left_paren(parser *p, const char *name)
{
    p->ncap++;
    re_node *re = op(p, RE_LEFT_PAREN);
    re->cap = p->ncap;
    re->name = name;
    set_name(p, p->ncap, name ? name : "");
}

/* At "(?": a named group (?P<name>, or flags (?flags) / (?flags:.
 * [re.syntax.named.pn] Profile PN (Go 1.22's regexp/syntax): (?<name> too. */
static size_t parse_perl_flags(parser *p, size_t t)
{
    bool with_p = p->n - t > 4 && p->s[t + 2] == 'P' && p->s[t + 3] == '<';
    bool bare = p->ctx->pn && p->n - t > 3 && p->s[t + 2] == '<';

    if (with_p || bare) {
        size_t start = with_p ? t + 4 : t + 3; /* the name's first byte */
        size_t end = find_byte(p, t, '>');
        if (end == NONE) {
            check_utf8(p, t, p->n);
            fail(p, ERR_INVALID_NAMED_CAPTURE, t, p->n);
        }
        check_utf8(p, start, end);
        bool valid = end > start;
        for (size_t i = start; i < end; i++)
            if (p->s[i] != '_' && !is_alnum((unsigned char)p->s[i]))
                valid = false;
        if (!valid)
            fail(p, ERR_INVALID_NAMED_CAPTURE, t, end + 1);
        left_paren(p, tfx_ctx_strndup(p->ctx, p->s + start, end - start));
        return end + 1;
    }
    size_t u = t + 2;
    unsigned flags = p->flags;
    int sign = 1;
    bool saw_flag = false;
    while (u < p->n) {
        int32_t c = next_rune(p, &u, p->n);
        switch (c) {
        case 'i':
            flags |= RE_FOLD_CASE;
            saw_flag = true;
            continue;
        case 'm':
            flags &= ~(unsigned)RE_ONE_LINE;
            saw_flag = true;
            continue;
        case 's':
            flags |= RE_DOT_NL;
            saw_flag = true;
            continue;
        case 'U':
            flags |= RE_NON_GREEDY;
            saw_flag = true;
            continue;
        case '-':
            if (sign < 0)
                break;
            sign = -1;
            flags = ~flags;
            saw_flag = false;
            continue;
        case ':':
        case ')':
            if (sign < 0) {
                if (!saw_flag)
                    break;
                flags = ~flags;
            }
            if (c == ':') {
                re_node *re = op(p, RE_LEFT_PAREN);
                (void)re;
            }
            p->flags = flags;
            return u;
        default:
            break;
        }
        break;
    }
    fail(p, ERR_INVALID_PERL_OP, t, u);
}

/* ---- Escapes [re.syntax.escape] ---- */

/* The escape at t (a backslash); returns its code point. */
static int32_t parse_escape(parser *p, size_t *tp)
{
    size_t start = *tp, t = start + 1;
    if (t >= p->n)
        fail(p, ERR_TRAILING_BACKSLASH, p->n, p->n);
    int32_t c = next_rune(p, &t, p->n);
    switch (c) {
    case '1': case '2': case '3': case '4': case '5': case '6': case '7':
        if (t >= p->n || p->s[t] < '0' || p->s[t] > '7')
            break;
        /* fall through */
    case '0': {
        int32_t r = c - '0';
        for (int i = 1; i < 3; i++) {
            if (t >= p->n || p->s[t] < '0' || p->s[t] > '7')
                break;
            r = r * 8 + (p->s[t] - '0');
            t++;
        }
        *tp = t;
        return r;
    }
    case 'x': {
        if (t >= p->n)
            break;
        c = next_rune(p, &t, p->n);
        if (c == '{') {
            int nhex = 0;
            int32_t r = 0;
            bool ok = false;
            for (;;) {
                if (t >= p->n)
                    break;
                c = next_rune(p, &t, p->n);
                if (c == '}') {
                    ok = nhex > 0;
                    break;
                }
                int32_t v = unhex(c);
                if (v < 0)
                    break;
                r = r * 16 + v;
                if (r > RE_MAX_RUNE)
                    break;
                nhex++;
            }
            if (!ok)
                break;
            *tp = t;
            return r;
        }
        int32_t x = unhex(c);
        c = next_rune(p, &t, p->n);
        int32_t y = unhex(c);
        if (x < 0 || y < 0)
            break;
        *tp = t;
        return x * 16 + y;
    }
    case 'a':
        *tp = t;
        return '\a';
    case 'f':
        *tp = t;
        return '\f';
    case 'n':
        *tp = t;
        return '\n';
    case 'r':
        *tp = t;
        return '\r';
    case 't':
        *tp = t;
        return '\t';
    case 'v':
        *tp = t;
        return '\v';
    default:
        if (c < 0x80 && !is_alnum(c)) {
            *tp = t;
            return c;
        }
        break;
    }
    fail(p, ERR_INVALID_ESCAPE, start, t);
}

/* ---- Named classes [re.syntax.class] ---- */

typedef struct {
    const char *name;
    const int32_t *ranges;
    size_t n;
} group_def;

static const int32_t digit_ranges[] = {'0', '9'};
static const int32_t space_ranges[] = {'\t', '\n', '\f', '\r', ' ', ' '};
static const int32_t word_ranges[] = {'0', '9', 'A', 'Z', '_', '_', 'a', 'z'};
static const int32_t alnum_ranges[] = {'0', '9', 'A', 'Z', 'a', 'z'};
static const int32_t alpha_ranges[] = {'A', 'Z', 'a', 'z'};
static const int32_t ascii_ranges[] = {0, 0x7F};
static const int32_t blank_ranges[] = {'\t', '\t', ' ', ' '};
static const int32_t cntrl_ranges[] = {0, 0x1F, 0x7F, 0x7F};
static const int32_t graph_ranges[] = {0x21, 0x7E};
static const int32_t lower_ranges[] = {'a', 'z'};
static const int32_t print_ranges[] = {0x20, 0x7E};
static const int32_t punct_ranges[] = {0x21, 0x2F, 0x3A, 0x40, 0x5B, 0x60, 0x7B, 0x7E};
static const int32_t pspace_ranges[] = {'\t', '\r', ' ', ' '};
static const int32_t upper_ranges[] = {'A', 'Z'};
static const int32_t xdigit_ranges[] = {'0', '9', 'A', 'F', 'a', 'f'};

#define GROUP(name, r) {(name), (r), sizeof(r) / sizeof((r)[0])}

/* \d \s \w: ASCII only; \s has no \v [re.syntax.perl-class]. */
static const group_def perl_groups[] = {
    GROUP("d", digit_ranges), GROUP("s", space_ranges), GROUP("w", word_ranges),
};

/* [[:name:]] [re.syntax.posix-class]. */
static const group_def posix_groups[] = {
    GROUP("alnum", alnum_ranges), GROUP("alpha", alpha_ranges), GROUP("ascii", ascii_ranges),
    GROUP("blank", blank_ranges), GROUP("cntrl", cntrl_ranges), GROUP("digit", digit_ranges),
    GROUP("graph", graph_ranges), GROUP("lower", lower_ranges), GROUP("print", print_ranges),
    GROUP("punct", punct_ranges), GROUP("space", pspace_ranges), GROUP("upper", upper_ranges),
    GROUP("word", word_ranges), GROUP("xdigit", xdigit_ranges),
};

/* Go's appendGroup: the group, folded under (?i), or its complement. */
static void append_group(parser *p, cls *c, const group_def *g, bool negate)
{
    if (!(p->flags & RE_FOLD_CASE)) {
        cls_class(p, c, g->ranges, g->n, negate);
        return;
    }
    cls tmp = {NULL, 0, 0};
    for (size_t i = 0; i < g->n; i += 2)
        cls_folded_range(p, &tmp, g->ranges[i], g->ranges[i + 1]);
    clean_class(p->ctx, tmp.r, &tmp.n);
    cls_class(p, c, tmp.r, tmp.n, negate);
}

/* \d \D \s \S \w \W at t; false when it is not one. */
static bool parse_perl_class_escape(parser *p, size_t *t, cls *c)
{
    if (!(p->flags & RE_PERL_X) || p->n - *t < 2 || p->s[*t] != '\\')
        return false;
    char e = p->s[*t + 1];
    const group_def *g = NULL;
    switch (e) {
    case 'd': case 'D':
        g = &perl_groups[0];
        break;
    case 's': case 'S':
        g = &perl_groups[1];
        break;
    case 'w': case 'W':
        g = &perl_groups[2];
        break;
    default:
        return false;
    }
    append_group(p, c, g, e == 'D' || e == 'S' || e == 'W');
    *t += 2;
    return true;
}

/* [:name:] or [:^name:] at t (inside brackets); false when there is no
 * ":]" further on. */
static bool parse_named_class(parser *p, size_t *t, cls *c)
{
    size_t u = *t;
    if (p->n - u < 2 || p->s[u] != '[' || p->s[u + 1] != ':')
        return false;
    size_t i;
    for (i = u + 2; i + 1 < p->n; i++)
        if (p->s[i] == ':' && p->s[i + 1] == ']')
            break;
    if (i + 1 >= p->n)
        return false;
    size_t end = i + 2;   /* past ":]" */
    const char *name = p->s + u + 2;
    size_t nbytes = i - (u + 2);
    bool negate = false;
    if (nbytes > 0 && name[0] == '^') {
        negate = true;
        name++;
        nbytes--;
    }
    for (size_t k = 0; k < sizeof posix_groups / sizeof posix_groups[0]; k++) {
        const group_def *g = &posix_groups[k];
        if (strlen(g->name) == nbytes && memcmp(g->name, name, nbytes) == 0) {
            append_group(p, c, g, negate);
            *t = end;
            return true;
        }
    }
    fail(p, ERR_INVALID_CHAR_RANGE, u, end);
}

/* \pN, \p{Name}, \PN, \P{Name}, \p{^Name} at t [re.syntax.unicode-class];
 * false when t is not at one. */
static bool parse_unicode_class(parser *p, size_t *tp, cls *c)
{
    size_t u = *tp;
    if (!(p->flags & RE_UNICODE_GROUPS) || p->n - u < 2 || p->s[u] != '\\' ||
        (p->s[u + 1] != 'p' && p->s[u + 1] != 'P'))
        return false;
    bool negate = p->s[u + 1] == 'P';
    size_t t = u + 2;
    int32_t ch = next_rune(p, &t, p->n);
    size_t seq_end, name_from, name_to;
    if (ch != '{') {
        seq_end = t;
        name_from = u + 2;
        name_to = t;
    } else {
        size_t end = find_byte(p, u, '}');
        if (end == NONE) {
            check_utf8(p, u, p->n);
            fail(p, ERR_INVALID_CHAR_RANGE, u, p->n);
        }
        seq_end = end + 1;
        t = end + 1;
        name_from = u + 3;
        name_to = end;
        check_utf8(p, name_from, name_to);
    }
    if (name_to > name_from && p->s[name_from] == '^') {
        negate = !negate;
        name_from++;
    }
    const char *name = p->s + name_from;
    size_t nbytes = name_to - name_from;
    int32_t off, n, foff = 0, fn = -1;
    bool any = nbytes == 3 && memcmp(name, "Any", 3) == 0;
    if (any) {
        off = n = 0;
    } else {
        const regex_table *tab = find_table(p->u->categories, p->u->ncategories, name, nbytes);
        if (tab == NULL)
            tab = find_table(p->u->scripts, p->u->nscripts, name, nbytes);
        if (tab == NULL || memchr(name, '\0', nbytes) != NULL)
            fail(p, ERR_INVALID_CHAR_RANGE, u, seq_end);
        off = tab->off;
        n = tab->n;
        foff = tab->fold_off;
        fn = tab->fold_n;
    }
    if (any) {
        if (!negate)
            cls_range(p, c, 0, RE_MAX_RUNE);
    } else if (!(p->flags & RE_FOLD_CASE) || fn < 0) {
        cls_table(p, c, off, n, negate);
    } else {
        cls tmp = {NULL, 0, 0};
        cls_table(p, &tmp, off, n, false);
        cls_table(p, &tmp, foff, fn, false);
        clean_class(p->ctx, tmp.r, &tmp.n);
        cls_class(p, c, tmp.r, tmp.n, negate);
    }
    *tp = t;
    return true;
}

/* A bracketed class at t [re.syntax.class]; returns where it ends. */
static size_t parse_class(parser *p, size_t start)
{
    size_t t = start + 1;
    re_node *re = new_node(p, RE_CLASS);
    re->flags = p->flags;
    cls c = {NULL, 0, 0};
    bool negate = false;
    if (t < p->n && p->s[t] == '^') {
        negate = true;
        t++;
        if (!(p->flags & RE_CLASS_NL))
            cls_range(p, &c, '\n', '\n');
    }
    bool first = true;
    while (t >= p->n || p->s[t] != ']' || first) {
        first = false;
        if (t + 2 < p->n && p->s[t] == '[' && p->s[t + 1] == ':' && parse_named_class(p, &t, &c))
            continue;
        if (parse_unicode_class(p, &t, &c))
            continue;
        if (parse_perl_class_escape(p, &t, &c))
            continue;
        size_t rng = t;
        if (t >= p->n)
            fail(p, ERR_MISSING_BRACKET, start, p->n);
        int32_t lo = p->s[t] == '\\' ? parse_escape(p, &t) : next_rune(p, &t, p->n);
        int32_t hi = lo;
        if (p->n - t >= 2 && p->s[t] == '-' && p->s[t + 1] != ']') {
            t++;
            if (t >= p->n)
                fail(p, ERR_MISSING_BRACKET, start, p->n);
            hi = p->s[t] == '\\' ? parse_escape(p, &t) : next_rune(p, &t, p->n);
            if (hi < lo)
                fail(p, ERR_INVALID_CHAR_RANGE, rng, t);
        }
        if (p->flags & RE_FOLD_CASE)
            cls_folded_range(p, &c, lo, hi);
        else
            cls_range(p, &c, lo, hi);
    }
    t++;
    clean_class(p->ctx, c.r, &c.n);
    re->runes = c.r;
    re->nrunes = c.n;
    re->runes_cap = c.cap;
    if (negate)
        negate_class(p, re);
    push(p, re);
    return t;
}

/* ---- The main loop ---- */

static void parse_all(parser *p)
{
    size_t t = 0, last_repeat = NONE;
    while (t < p->n) {
        size_t rep = NONE;
        unsigned char ch = (unsigned char)p->s[t];
        switch (ch) {
        case '(':
            if ((p->flags & RE_PERL_X) && t + 1 < p->n && p->s[t + 1] == '?') {
                t = parse_perl_flags(p, t);
                break;
            }
            left_paren(p, NULL);
            t++;
            break;
        case '|':
            parse_vertical_bar(p);
            t++;
            break;
        case ')':
            parse_right_paren(p);
            t++;
            break;
        case '^':
            op(p, (p->flags & RE_ONE_LINE) ? RE_BEGIN_TEXT : RE_BEGIN_LINE);
            t++;
            break;
        case '$':
            if (p->flags & RE_ONE_LINE)
                op(p, RE_END_TEXT)->flags |= RE_WAS_DOLLAR;
            else
                op(p, RE_END_LINE);
            t++;
            break;
        case '.':
            op(p, (p->flags & RE_DOT_NL) ? RE_ANY : RE_ANY_NOT_NL);
            t++;
            break;
        case '[':
            t = parse_class(p, t);
            break;
        case '*':
        case '+':
        case '?': {
            int o = ch == '*' ? RE_STAR : ch == '+' ? RE_PLUS : RE_QUEST;
            size_t before = t;
            t = repeat(p, o, 0, 0, before, t + 1, last_repeat);
            rep = before;
            break;
        }
        case '{': {
            size_t before = t, after = 0;
            int min = 0, max = 0;
            if (!parse_repeat(p, t, &min, &max, &after)) {
                literal(p, '{');
                t++;
                break;
            }
            if (min < 0 || min > MAX_REPEAT || max > MAX_REPEAT || (max >= 0 && min > max))
                fail(p, ERR_INVALID_REPEAT_SIZE, before, after);
            t = repeat(p, RE_REPEAT, min, max, before, after, last_repeat);
            rep = before;
            break;
        }
        case '\\': {
            if ((p->flags & RE_PERL_X) && t + 1 < p->n) {
                char e = p->s[t + 1];
                if (e == 'A' || e == 'b' || e == 'B' || e == 'z') {
                    op(p, e == 'A'   ? RE_BEGIN_TEXT
                          : e == 'b' ? RE_WORD_BOUNDARY
                          : e == 'B' ? RE_NO_WORD_BOUNDARY
                                     : RE_END_TEXT);
                    t += 2;
                    break;
                }
                if (e == 'C')
                    fail(p, ERR_INVALID_ESCAPE, t, t + 2);
                if (e == 'Q') {
                    size_t from = t + 2, to = p->n;
                    size_t next = to;
                    for (size_t i = from; i + 1 < p->n; i++) {
                        if (p->s[i] == '\\' && p->s[i + 1] == 'E') {
                            to = i;
                            next = i + 2;
                            break;
                        }
                    }
                    size_t u = from;
                    while (u < to)
                        literal(p, next_rune(p, &u, to));
                    t = next;
                    break;
                }
            }
            cls c = {NULL, 0, 0};
            size_t u = t;
            if (parse_unicode_class(p, &u, &c) || parse_perl_class_escape(p, &u, &c)) {
                re_node *re = new_node(p, RE_CLASS);
                re->flags = p->flags;
                re->runes = c.r;
                re->nrunes = c.n;
                re->runes_cap = c.cap;
                push(p, re);
                t = u;
                break;
            }
            literal(p, parse_escape(p, &t));
            break;
        }
        default:
            literal(p, next_rune(p, &t, p->n));
            break;
        }
        last_repeat = rep;
    }
    concat(p);
    if (swap_vertical_bar(p))
        p->nstack--;
    alternate(p);
    if (p->nstack != 1)
        fail(p, ERR_MISSING_PAREN, 0, p->n);
}

bool tfx_regex_parse(tfx_ctx *ctx, const char *pattern, size_t nbytes, re_parsed *out,
                     tfx_regex_error *err)
{
    parser *p = tfx_ctx_alloc(ctx, sizeof *p);
    p->ctx = ctx;
    p->u = tfx_regex_unicode_of(ctx);
    p->err = err;
    p->s = pattern;
    p->n = nbytes;
    p->flags = RE_PERL;
    if (setjmp(p->fail) != 0)
        return false;
    parse_all(p);
    out->root = p->stack[0];
    out->ngroups = p->ncap;
    set_name(p, p->ncap + 1, "");
    out->names = p->names;
    return true;
}
