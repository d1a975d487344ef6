/* SPDX-License-Identifier: MPL-2.0 */
/*
 * regex_exec.c — compiling and running Go 1.19 regular expressions
 * (spec/functions-regex.md, rules re.match.*, re.findall, re.replace,
 * re.expand).
 *
 * The parsed tree (regex_parse.c) is simplified as Go's Simplify does
 * (counted repetitions spelled out) and compiled to Go's instruction set;
 * a Pike VM runs the program over the subject, one code point at a time,
 * with the threads of each step in priority order, which gives Go's
 * leftmost-first submatches.  The program's shape matters for what the
 * VM finds when an empty-width loop meets a thread already queued, so the
 * compiler builds the same program Go builds (a nullable x* is (x+)?).
 * The closure over empty-width instructions uses an explicit stack, so no
 * pattern or subject makes the C stack deep.
 */
#include <string.h>

#include "regex_internal.h"
#include "text.h"

enum {
    I_FAIL, I_ALT, I_CAPTURE, I_EMPTY, I_MATCH, I_NOP, I_RUNE, I_RUNE1, I_RUNE_ANY,
    I_RUNE_ANY_NOT_NL
};

/* Empty-width conditions (Go's EmptyOp bits). */
enum {
    E_BEGIN_LINE = 1, E_END_LINE = 2, E_BEGIN_TEXT = 4, E_END_TEXT = 8,
    E_WORD_BOUNDARY = 16, E_NO_WORD_BOUNDARY = 32
};

typedef struct {
    unsigned char op;
    bool fold;               /* I_RUNE with one code point: match its orbit */
    uint32_t out, arg;
    const int32_t *runes;
    uint32_t nrunes;
} re_inst;

struct tfx_regex {
    const tfx_regex_unicode *unicode; /* the profile's tables, for folding and names */
    re_inst *inst;
    uint32_t ninst, start;
    size_t ngroups;
    const char **names;
};

/* ---- Simplify (Go's Regexp.Simplify) [re.match.repeat] ---- */

static re_node *make(tfx_ctx *ctx, int op, unsigned flags, re_node *a, re_node *b)
{
    re_node *re = tfx_ctx_alloc(ctx, sizeof *re);
    tfx_ctx_step(ctx);
    re->op = op;
    re->flags = flags;
    size_t n = (a != NULL) + (b != NULL);
    if (n) {
        re->sub = tfx_ctx_alloc_array(ctx, n, sizeof(re_node *));
        re->sub_cap = n;
        if (a)
            re->sub[re->nsub++] = a;
        if (b)
            re->sub[re->nsub++] = b;
    }
    return re;
}

static void add_sub(tfx_ctx *ctx, re_node *re, re_node *sub)
{
    if (re->nsub == re->sub_cap) {
        size_t ncap = re->sub_cap ? re->sub_cap * 2 : 4;
        re_node **ns = tfx_ctx_alloc_array(ctx, ncap, sizeof(re_node *));
        if (re->nsub)
            memcpy(ns, re->sub, re->nsub * sizeof(re_node *));
        re->sub = ns;
        re->sub_cap = ncap;
    }
    re->sub[re->nsub++] = sub;
}

/* Go's simplify1: op(sub), without stacking an operator on itself. */
static re_node *simplify1(tfx_ctx *ctx, int op, unsigned flags, re_node *sub, re_node *re)
{
    if (sub->op == RE_EMPTY)
        return sub;
    if (op == sub->op && (flags & RE_NON_GREEDY) == (sub->flags & RE_NON_GREEDY))
        return sub;
    if (re != NULL && re->op == op && (re->flags & RE_NON_GREEDY) == (flags & RE_NON_GREEDY) &&
        sub == re->sub[0])
        return re;
    return make(ctx, op, flags, sub, NULL);
}

static re_node *simplify(tfx_ctx *ctx, re_node *re)
{
    tfx_ctx_step(ctx);
    switch (re->op) {
    case RE_CAPTURE:
    case RE_CONCAT:
    case RE_ALTERNATE: {
        re_node *nre = re;
        for (size_t i = 0; i < re->nsub; i++) {
            re_node *nsub = simplify(ctx, re->sub[i]);
            if (nre == re && nsub != re->sub[i]) {
                nre = tfx_ctx_alloc(ctx, sizeof *nre);
                *nre = *re;
                nre->sub = NULL;
                nre->nsub = nre->sub_cap = 0;
                for (size_t j = 0; j < i; j++)
                    add_sub(ctx, nre, re->sub[j]);
            }
            if (nre != re)
                add_sub(ctx, nre, nsub);
        }
        return nre;
    }
    case RE_STAR:
    case RE_PLUS:
    case RE_QUEST:
        return simplify1(ctx, re->op, re->flags, simplify(ctx, re->sub[0]), re);
    case RE_REPEAT: {
        if (re->min == 0 && re->max == 0)
            return make(ctx, RE_EMPTY, 0, NULL, NULL);
        re_node *sub = simplify(ctx, re->sub[0]);
        if (re->max == -1) {
            if (re->min == 0)
                return simplify1(ctx, RE_STAR, re->flags, sub, NULL);
            if (re->min == 1)
                return simplify1(ctx, RE_PLUS, re->flags, sub, NULL);
            re_node *nre = make(ctx, RE_CONCAT, 0, NULL, NULL);
            for (int i = 0; i < re->min - 1; i++)
                add_sub(ctx, nre, sub);
            add_sub(ctx, nre, simplify1(ctx, RE_PLUS, re->flags, sub, NULL));
            return nre;
        }
        if (re->min == 1 && re->max == 1)
            return sub;
        re_node *prefix = NULL;
        if (re->min > 0) {
            prefix = make(ctx, RE_CONCAT, 0, NULL, NULL);
            for (int i = 0; i < re->min; i++)
                add_sub(ctx, prefix, sub);
        }
        if (re->max > re->min) {
            re_node *suffix = simplify1(ctx, RE_QUEST, re->flags, sub, NULL);
            for (int i = re->min + 1; i < re->max; i++)
                suffix = simplify1(ctx, RE_QUEST, re->flags,
                                   make(ctx, RE_CONCAT, 0, sub, suffix), NULL);
            if (prefix == NULL)
                return suffix;
            add_sub(ctx, prefix, suffix);
        }
        if (prefix != NULL)
            return prefix;
        return make(ctx, RE_NOMATCH, 0, NULL, NULL);
    }
    default:
        return re;
    }
}

/* ---- Compile (Go's syntax.Compile) ---- */

typedef struct {
    tfx_ctx *ctx;
    re_inst *inst;
    uint32_t n, cap;
    const tfx_regex_unicode *unicode;
} compiler;

/* A fragment: its entry (0: fails), its dangling exits as a list threaded
 * through the instructions (pc << 1 | 1 for arg, | 0 for out; 0: empty),
 * and whether it can match the empty string. */
typedef struct {
    uint32_t i;
    uint32_t head, tail;
    bool nullable;
} frag;

static uint32_t *exit_slot(compiler *c, uint32_t l)
{
    re_inst *in = &c->inst[l >> 1];
    return (l & 1) ? &in->arg : &in->out;
}

static void patch(compiler *c, uint32_t head, uint32_t val)
{
    uint32_t l = head;
    while (l != 0) {
        uint32_t *slot = exit_slot(c, l);
        l = *slot;
        *slot = val;
    }
}

static void append_list(compiler *c, frag *f, uint32_t head2, uint32_t tail2)
{
    if (f->head == 0) {
        f->head = head2;
        f->tail = tail2;
        return;
    }
    if (head2 == 0)
        return;
    *exit_slot(c, f->tail) = head2;
    f->tail = tail2;
}

static frag new_inst(compiler *c, unsigned char op)
{
    if (c->n == c->cap) {
        uint32_t ncap = c->cap ? c->cap * 2 : 16;
        re_inst *ni = tfx_ctx_alloc_array(c->ctx, ncap, sizeof *ni);
        if (c->n)
            memcpy(ni, c->inst, c->n * sizeof *ni);
        c->inst = ni;
        c->cap = ncap;
    }
    tfx_ctx_step(c->ctx);
    frag f = {c->n, 0, 0, true};
    memset(&c->inst[c->n], 0, sizeof c->inst[c->n]);
    c->inst[c->n].op = op;
    c->n++;
    return f;
}

static frag single_exit(compiler *c, unsigned char op)
{
    frag f = new_inst(c, op);
    f.head = f.tail = f.i << 1;
    return f;
}

static frag cat(compiler *c, frag f1, frag f2)
{
    if (f1.i == 0 || f2.i == 0)
        return (frag){0, 0, 0, false};
    patch(c, f1.head, f2.i);
    return (frag){f1.i, f2.head, f2.tail, f1.nullable && f2.nullable};
}

static frag alt(compiler *c, frag f1, frag f2)
{
    if (f1.i == 0)
        return f2;
    if (f2.i == 0)
        return f1;
    frag f = new_inst(c, I_ALT);
    c->inst[f.i].out = f1.i;
    c->inst[f.i].arg = f2.i;
    f.head = f1.head;
    f.tail = f1.tail;
    append_list(c, &f, f2.head, f2.tail);
    f.nullable = f1.nullable || f2.nullable;
    return f;
}

static frag quest(compiler *c, frag f1, bool nongreedy)
{
    frag f = new_inst(c, I_ALT);
    if (nongreedy) {
        c->inst[f.i].arg = f1.i;
        f.head = f.tail = f.i << 1;
    } else {
        c->inst[f.i].out = f1.i;
        f.head = f.tail = f.i << 1 | 1;
    }
    append_list(c, &f, f1.head, f1.tail);
    return f;
}

static frag loop(compiler *c, frag f1, bool nongreedy)
{
    frag f = new_inst(c, I_ALT);
    if (nongreedy) {
        c->inst[f.i].arg = f1.i;
        f.head = f.tail = f.i << 1;
    } else {
        c->inst[f.i].out = f1.i;
        f.head = f.tail = f.i << 1 | 1;
    }
    patch(c, f1.head, f.i);
    return f;
}

static frag plus(compiler *c, frag f1, bool nongreedy)
{
    frag l = loop(c, f1, nongreedy);
    return (frag){f1.i, l.head, l.tail, f1.nullable};
}

/* A nullable x* is compiled as (x+)?, Go's fix for golang.org/issue/46123
 * [re.match.star]. */
static frag star(compiler *c, frag f1, bool nongreedy)
{
    if (f1.nullable)
        return quest(c, plus(c, f1, nongreedy), nongreedy);
    return loop(c, f1, nongreedy);
}

static frag rune_inst(compiler *c, const int32_t *r, uint32_t n, unsigned flags)
{
    frag f = single_exit(c, I_RUNE);
    f.nullable = false;
    re_inst *in = &c->inst[f.i];
    in->runes = r;
    in->nrunes = n;
    bool fold = (flags & RE_FOLD_CASE) && n == 1 && tfx_regex_simple_fold(c->unicode, r[0]) != r[0];
    in->fold = fold;
    if (!fold && (n == 1 || (n == 2 && r[0] == r[1])))
        in->op = I_RUNE1;
    else if (n == 2 && r[0] == 0 && r[1] == RE_MAX_RUNE)
        in->op = I_RUNE_ANY;
    else if (n == 4 && r[0] == 0 && r[1] == '\n' - 1 && r[2] == '\n' + 1 && r[3] == RE_MAX_RUNE)
        in->op = I_RUNE_ANY_NOT_NL;
    return f;
}

static const int32_t any_rune[] = {0, RE_MAX_RUNE};
static const int32_t any_rune_not_nl[] = {0, '\n' - 1, '\n' + 1, RE_MAX_RUNE};

static frag empty_inst(compiler *c, uint32_t cond)
{
    frag f = single_exit(c, I_EMPTY);
    c->inst[f.i].arg = cond;
    return f;
}

/* The fragment of a node without operands. */
static frag compile_leaf(compiler *c, const re_node *re)
{
    switch (re->op) {
    case RE_EMPTY:
        return single_exit(c, I_NOP);
    case RE_LITERAL: {
        if (re->nrunes == 0)
            return single_exit(c, I_NOP);
        frag f = {0, 0, 0, false};
        for (size_t j = 0; j < re->nrunes; j++) {
            frag f1 = rune_inst(c, re->runes + j, 1, re->flags);
            f = j == 0 ? f1 : cat(c, f, f1);
        }
        return f;
    }
    case RE_CLASS:
        return rune_inst(c, re->runes, (uint32_t)re->nrunes, re->flags);
    case RE_ANY_NOT_NL:
        return rune_inst(c, any_rune_not_nl, 4, 0);
    case RE_ANY:
        return rune_inst(c, any_rune, 2, 0);
    case RE_BEGIN_LINE:
        return empty_inst(c, E_BEGIN_LINE);
    case RE_END_LINE:
        return empty_inst(c, E_END_LINE);
    case RE_BEGIN_TEXT:
        return empty_inst(c, E_BEGIN_TEXT);
    case RE_END_TEXT:
        return empty_inst(c, E_END_TEXT);
    case RE_WORD_BOUNDARY:
        return empty_inst(c, E_WORD_BOUNDARY);
    case RE_NO_WORD_BOUNDARY:
        return empty_inst(c, E_NO_WORD_BOUNDARY);
    default:
        return (frag){0, 0, 0, false};   /* RE_NOMATCH */
    }
}

/* A node being compiled: its operands are compiled one after the other,
 * acc holds what is done. */
typedef struct {
    const re_node *re;
    size_t next;             /* the next operand to compile */
    frag acc;
} cframe;

/* Go's compiler, in the same order of instructions, but with an explicit
 * stack instead of recursion: a simplified tree can be thousands of
 * levels deep (x{1,1000} nests a thousand optional copies). */
static frag compile_tree(compiler *c, const re_node *root)
{
    size_t cap = 64, sp = 0;
    cframe *st = tfx_ctx_alloc_array(c->ctx, cap, sizeof *st);
    frag result = {0, 0, 0, false};
    bool have = false;     /* result is the last operand's fragment */
    st[sp++] = (cframe){root, 0, {0, 0, 0, false}};
    for (;;) {
        cframe *f = &st[sp - 1];
        const re_node *re = f->re;
        bool ng = (re->flags & RE_NON_GREEDY) != 0;
        const re_node *child = NULL;
        bool done = false;
        switch (re->op) {
        case RE_CAPTURE:
            if (!have) {
                f->acc = single_exit(c, I_CAPTURE);
                c->inst[f->acc.i].arg = (uint32_t)re->cap << 1;
                child = re->sub[0];
            } else {
                frag ket = single_exit(c, I_CAPTURE);
                c->inst[ket.i].arg = (uint32_t)re->cap << 1 | 1;
                result = cat(c, cat(c, f->acc, result), ket);
                done = true;
            }
            break;
        case RE_STAR:
        case RE_PLUS:
        case RE_QUEST:
            if (!have) {
                child = re->sub[0];
            } else {
                result = re->op == RE_STAR   ? star(c, result, ng)
                         : re->op == RE_PLUS ? plus(c, result, ng)
                                             : quest(c, result, ng);
                done = true;
            }
            break;
        case RE_CONCAT:
        case RE_ALTERNATE:
            if (have) {
                if (re->op == RE_ALTERNATE)
                    f->acc = alt(c, f->acc, result);
                else
                    f->acc = f->next == 1 ? result : cat(c, f->acc, result);
            } else if (re->nsub == 0) {
                f->acc = re->op == RE_CONCAT ? single_exit(c, I_NOP) : (frag){0, 0, 0, false};
            }
            if (f->next < re->nsub) {
                child = re->sub[f->next++];
            } else {
                result = f->acc;
                done = true;
            }
            break;
        default:
            result = compile_leaf(c, re);
            done = true;
            break;
        }
        have = false;
        if (done) {
            if (--sp == 0)
                return result;
            have = true;
            continue;
        }
        if (sp == cap) {
            cframe *ns = tfx_ctx_alloc_array(c->ctx, cap * 2, sizeof *ns);
            memcpy(ns, st, cap * sizeof *ns);
            st = ns;
            cap *= 2;
        }
        st[sp++] = (cframe){child, 0, {0, 0, 0, false}};
    }
}

tfx_regex *tfx_regex_compile(tfx_ctx *ctx, const char *pattern, size_t nbytes,
                             tfx_regex_error *err)
{
    re_parsed parsed;
    if (!tfx_regex_parse(ctx, pattern, nbytes, &parsed, err))
        return NULL;
    re_node *root = simplify(ctx, parsed.root);
    compiler c = {ctx, NULL, 0, 0, tfx_regex_unicode_of(ctx)};
    (void)new_inst(&c, I_FAIL);
    frag f = compile_tree(&c, root);
    frag m = new_inst(&c, I_MATCH);
    patch(&c, f.head, m.i);
    tfx_regex *re = tfx_ctx_alloc(ctx, sizeof *re);
    re->unicode = c.unicode;
    re->inst = c.inst;
    re->ninst = c.n;
    re->start = f.i;
    re->ngroups = (size_t)parsed.ngroups;
    re->names = parsed.names;
    return re;
}

tfx_regex *tfx_regex_syntax(tfx_ctx *ctx, const char *pattern, size_t nbytes,
                            tfx_regex_error *err)
{
    re_parsed parsed;
    if (!tfx_regex_parse(ctx, pattern, nbytes, &parsed, err))
        return NULL;
    tfx_regex *re = tfx_ctx_alloc(ctx, sizeof *re);
    re->unicode = tfx_regex_unicode_of(ctx);
    re->ngroups = (size_t)parsed.ngroups;
    re->names = parsed.names;
    return re;
}

const char *tfx_regex_error_text(tfx_ctx *ctx, const tfx_regex_error *err)
{
    tfx_textbuf b;
    tfx_textbuf_init(&b, ctx);
    tfx_textbuf_puts(&b, "error parsing regexp: ");
    tfx_textbuf_puts(&b, err->code);
    tfx_textbuf_puts(&b, ": `");
    tfx_textbuf_put(&b, err->expr, err->expr_nbytes);
    tfx_textbuf_puts(&b, "`");
    return tfx_textbuf_text(&b);
}

size_t tfx_regex_ngroups(const tfx_regex *re)
{
    return re->ngroups;
}

const char *tfx_regex_group_name(const tfx_regex *re, size_t i)
{
    if (i == 0 || i > re->ngroups || re->names[i] == NULL)
        return "";
    return re->names[i];
}

/* ---- The Pike VM [re.match.leftmost-first] ---- */

#define END_OF_TEXT (-1)

typedef struct {
    uint32_t pc;
    long *cap;               /* NULL unless the instruction consumes or matches */
} entry;

typedef struct {
    uint32_t *sparse;
    entry *dense;
    uint32_t n;
} queue;

/* An item of the closure's explicit stack: visit pc, or (restore) put
 * back cap[slot] = old. */
typedef struct {
    uint32_t pc;
    bool restore;
    uint32_t slot;
    long old;
} work;

typedef struct {
    tfx_ctx *ctx;
    const tfx_regex *re;
    const unsigned char *s;
    size_t n;
    size_t ncap;
    queue q0, q1;
    long **pool;             /* free capture arrays */
    size_t npool;
    work *stack;
    size_t units;
    bool matched;
    long *matchcap;
} machine;

static void charge(machine *m)
{
    if (++m->units >= 64) {
        m->units = 0;
        tfx_ctx_step(m->ctx);
    }
}

/* The code point at pos and its width (0 at the end; U+FFFD width 1 for
 * a byte that is not UTF-8) [re.match.utf8]. */
static int32_t step_rune(const machine *m, size_t pos, size_t *width)
{
    if (pos >= m->n) {
        *width = 0;
        return END_OF_TEXT;
    }
    if (m->s[pos] < 0x80) {
        *width = 1;
        return m->s[pos];
    }
    int32_t c;
    *width = tfx_text_decode(m->s + pos, m->n - pos, &c);
    return c < 0 ? 0xFFFD : c;
}

static bool is_word(int32_t r)
{
    return (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '_';
}

/* Go's EmptyOpContext: the conditions between r1 and r2 [re.match.assert]. */
static uint32_t context(int32_t r1, int32_t r2)
{
    uint32_t op = E_NO_WORD_BOUNDARY;
    bool boundary = false;
    if (is_word(r1))
        boundary = true;
    else if (r1 == '\n')
        op |= E_BEGIN_LINE;
    else if (r1 < 0)
        op |= E_BEGIN_TEXT | E_BEGIN_LINE;
    if (is_word(r2))
        boundary = !boundary;
    else if (r2 == '\n')
        op |= E_END_LINE;
    else if (r2 < 0)
        op |= E_END_TEXT | E_END_LINE;
    if (boundary)
        op ^= E_WORD_BOUNDARY | E_NO_WORD_BOUNDARY;
    return op;
}

/* The code point that ends just before pos (only whether it is a word
 * character or \n matters). */
static int32_t rune_before(const machine *m, size_t pos)
{
    if (pos == 0)
        return END_OF_TEXT;
    unsigned char b = m->s[pos - 1];
    return b < 0x80 ? b : 0xFFFD;
}

static long *new_cap(machine *m)
{
    if (m->npool > 0)
        return m->pool[--m->npool];
    return tfx_ctx_alloc_array(m->ctx, m->ncap, sizeof(long));
}

static void free_cap(machine *m, long *cap)
{
    m->pool[m->npool++] = cap;
}

/* Adds pc and everything reachable from it through empty-width
 * instructions whose conditions hold to q, in priority order; cap is
 * the thread's captures (changed and restored on the way). */
static void add(machine *m, queue *q, uint32_t pc0, size_t pos, long *cap, uint32_t cond)
{
    size_t sp = 0;
    m->stack[sp++] = (work){pc0, false, 0, 0};
    while (sp > 0) {
        work w = m->stack[--sp];
        if (w.restore) {
            cap[w.slot] = w.old;
            continue;
        }
        uint32_t pc = w.pc;
        charge(m);
        if (pc == 0)
            continue;
        uint32_t j = q->sparse[pc];
        if (j < q->n && q->dense[j].pc == pc)
            continue;
        j = q->n++;
        q->dense[j].pc = pc;
        q->dense[j].cap = NULL;
        q->sparse[pc] = j;
        const re_inst *in = &m->re->inst[pc];
        switch (in->op) {
        case I_ALT:
            m->stack[sp++] = (work){in->arg, false, 0, 0};
            m->stack[sp++] = (work){in->out, false, 0, 0};
            break;
        case I_EMPTY:
            if ((in->arg & ~cond) == 0)
                m->stack[sp++] = (work){in->out, false, 0, 0};
            break;
        case I_NOP:
            m->stack[sp++] = (work){in->out, false, 0, 0};
            break;
        case I_CAPTURE:
            if (in->arg < m->ncap) {
                m->stack[sp++] = (work){0, true, in->arg, cap[in->arg]};
                cap[in->arg] = (long)pos;
            }
            m->stack[sp++] = (work){in->out, false, 0, 0};
            break;
        case I_MATCH:
        case I_RUNE:
        case I_RUNE1:
        case I_RUNE_ANY:
        case I_RUNE_ANY_NOT_NL: {
            long *t = new_cap(m);
            memcpy(t, cap, m->ncap * sizeof *t);
            q->dense[j].cap = t;
            break;
        }
        default:
            break;
        }
    }
}

static bool match_rune(const tfx_regex_unicode *u, const re_inst *in, int32_t r)
{
    if (in->nrunes == 1) {
        int32_t r0 = in->runes[0];
        if (r == r0)
            return true;
        if (in->fold)
            for (int32_t f = tfx_regex_simple_fold(u, r0); f != r0; f = tfx_regex_simple_fold(u, f))
                if (f == r)
                    return true;
        return false;
    }
    uint32_t lo = 0, hi = in->nrunes / 2;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (in->runes[2 * (size_t)mid] <= r) {
            if (r <= in->runes[2 * (size_t)mid + 1])
                return true;
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return false;
}

static void clear_queue(machine *m, queue *q)
{
    for (uint32_t j = 0; j < q->n; j++)
        if (q->dense[j].cap != NULL)
            free_cap(m, q->dense[j].cap);
    q->n = 0;
}

/* One step: the threads of runq consume c (at pos, ending at next_pos);
 * the survivors go to nextq in order. */
static void step(machine *m, queue *runq, queue *nextq, size_t pos, size_t next_pos, int32_t c,
                 uint32_t next_cond)
{
    for (uint32_t j = 0; j < runq->n; j++) {
        long *t = runq->dense[j].cap;
        if (t == NULL)
            continue;
        charge(m);
        const re_inst *in = &m->re->inst[runq->dense[j].pc];
        bool ok = false;
        switch (in->op) {
        case I_MATCH:
            t[1] = (long)pos;
            memcpy(m->matchcap, t, m->ncap * sizeof *t);
            for (uint32_t k = j + 1; k < runq->n; k++)
                if (runq->dense[k].cap != NULL)
                    free_cap(m, runq->dense[k].cap);
            runq->n = 0;
            m->matched = true;
            break;
        case I_RUNE:
            ok = c != END_OF_TEXT && match_rune(m->re->unicode, in, c);
            break;
        case I_RUNE1:
            ok = c == in->runes[0];
            break;
        case I_RUNE_ANY:
            ok = true;
            break;
        case I_RUNE_ANY_NOT_NL:
            ok = c != '\n';
            break;
        default:
            break;
        }
        if (ok)
            add(m, nextq, in->out, next_pos, t, next_cond);
        free_cap(m, t);
    }
    runq->n = 0;
}

static void machine_init(machine *m, tfx_ctx *ctx, const tfx_regex *re, const char *s, size_t n)
{
    memset(m, 0, sizeof *m);
    m->ctx = ctx;
    m->re = re;
    m->s = (const unsigned char *)s;
    m->n = n;
    m->ncap = 2 * (re->ngroups + 1);
    uint32_t ni = re->ninst;
    m->q0.sparse = tfx_ctx_alloc_array(ctx, ni, sizeof(uint32_t));
    m->q0.dense = tfx_ctx_alloc_array(ctx, ni, sizeof(entry));
    m->q1.sparse = tfx_ctx_alloc_array(ctx, ni, sizeof(uint32_t));
    m->q1.dense = tfx_ctx_alloc_array(ctx, ni, sizeof(entry));
    /* Every queued entry holds at most one array, plus the one in hand. */
    m->pool = tfx_ctx_alloc_array(ctx, 2 * (size_t)ni + 2, sizeof(long *));
    m->stack = tfx_ctx_alloc_array(ctx, 2 * (size_t)ni + 2, sizeof(work));
    m->matchcap = tfx_ctx_alloc_array(ctx, m->ncap, sizeof(long));
}

/* Go's machine.match from pos: the leftmost-first match into m->matchcap. */
static bool run(machine *m, size_t pos)
{
    m->matched = false;
    for (size_t i = 0; i < m->ncap; i++)
        m->matchcap[i] = -1;
    queue *runq = &m->q0, *nextq = &m->q1;
    size_t width, width1 = 0;
    int32_t r = step_rune(m, pos, &width), r1 = END_OF_TEXT;
    if (r != END_OF_TEXT)
        r1 = step_rune(m, pos + width, &width1);
    uint32_t cond = context(rune_before(m, pos), r);
    for (;;) {
        if (runq->n == 0 && m->matched)
            break;
        if (!m->matched) {
            m->matchcap[0] = (long)pos;
            add(m, runq, m->re->start, pos, m->matchcap, cond);
        }
        cond = context(r, r1);
        step(m, runq, nextq, pos, pos + width, r, cond);
        if (width == 0)
            break;
        pos += width;
        r = r1;
        width = width1;
        if (r != END_OF_TEXT)
            r1 = step_rune(m, pos + width, &width1);
        queue *tq = runq;
        runq = nextq;
        nextq = tq;
    }
    clear_queue(m, nextq);
    clear_queue(m, runq);
    return m->matched;
}

bool tfx_regex_match(tfx_ctx *ctx, const tfx_regex *re, const char *s, size_t nbytes, size_t pos,
                     long *caps)
{
    machine m;
    machine_init(&m, ctx, re, s, nbytes);
    if (!run(&m, pos))
        return false;
    memcpy(caps, m.matchcap, m.ncap * sizeof *caps);
    return true;
}

/* Go's allMatches [re.findall]: after a match the search goes on at its
 * end; an empty match that touches the previous match is dropped, and
 * after an empty match the search moves one code point on. */
size_t tfx_regex_find_all(tfx_ctx *ctx, const tfx_regex *re, const char *s, size_t nbytes,
                          long **caps)
{
    machine m;
    machine_init(&m, ctx, re, s, nbytes);
    long *out = NULL;
    size_t nout = 0, cap = 0;
    long prev_end = -1;
    size_t pos = 0;
    while (pos <= nbytes) {
        if (!run(&m, pos))
            break;
        bool accept = true;
        if (m.matchcap[1] == (long)pos) {
            if (m.matchcap[0] == prev_end)
                accept = false;
            size_t width;
            (void)step_rune(&m, pos, &width);
            pos = width > 0 ? pos + width : nbytes + 1;
        } else {
            pos = (size_t)m.matchcap[1];
        }
        prev_end = m.matchcap[1];
        if (accept) {
            tfx_ctx_check_items(ctx, nout + 1);
            if (nout == cap) {
                size_t ncap = cap ? cap * 2 : 8;
                long *no = tfx_ctx_alloc_array(ctx, ncap * m.ncap, sizeof *no);
                if (nout)
                    memcpy(no, out, nout * m.ncap * sizeof *no);
                out = no;
                cap = ncap;
            }
            memcpy(out + nout * m.ncap, m.matchcap, m.ncap * sizeof *out);
            nout++;
        }
    }
    *caps = out;
    return nout;
}

/* ---- Expand [re.expand] ---- */

/* Go's extract: a name or {name} after a "$"; num >= 0 for a number
 * (no leading zero, below 10^8).  Returns false when there is none. */
static bool extract(const tfx_regex_unicode *u, const char *t, size_t n, size_t *name_from,
                    size_t *name_to, long *num, size_t *rest)
{
    if (n == 0)
        return false;
    size_t i = 0;
    bool brace = false;
    if (t[0] == '{') {
        brace = true;
        i = 1;
    }
    size_t from = i;
    while (i < n) {
        int32_t c;
        size_t w = tfx_text_decode((const unsigned char *)t + i, n - i, &c);
        if (c < 0)
            c = 0xFFFD;
        if (c != '_' && !tfx_regex_is_letter_or_digit(u, c))
            break;
        i += w;
    }
    if (i == from)
        return false;
    size_t to = i;
    if (brace) {
        if (i >= n || t[i] != '}')
            return false;
        i++;
    }
    long v = 0;
    for (size_t k = from; k < to; k++) {
        if (t[k] < '0' || t[k] > '9' || v >= 100000000) {
            v = -1;
            break;
        }
        v = v * 10 + (t[k] - '0');
    }
    if (t[from] == '0' && to - from > 1)
        v = -1;
    *name_from = from;
    *name_to = to;
    *num = v;
    *rest = i;
    return true;
}

static void put_group(tfx_textbuf *b, const char *s, const long *caps, size_t ncap, size_t g)
{
    if (2 * g + 1 < ncap && caps[2 * g] >= 0)
        tfx_textbuf_put(b, s + caps[2 * g], (size_t)(caps[2 * g + 1] - caps[2 * g]));
}

static void expand(tfx_textbuf *b, const tfx_regex *re, const char *tmpl, size_t n, const char *s,
                   const long *caps, size_t ncap)
{
    size_t t = 0;
    while (t < n) {
        const char *d = memchr(tmpl + t, '$', n - t);
        if (d == NULL)
            break;
        size_t at = (size_t)(d - tmpl);
        tfx_textbuf_put(b, tmpl + t, at - t);
        t = at + 1;
        if (t < n && tmpl[t] == '$') {
            tfx_textbuf_putc(b, '$');
            t++;
            continue;
        }
        size_t from, to, rest;
        long num;
        if (!extract(re->unicode, tmpl + t, n - t, &from, &to, &num, &rest)) {
            tfx_textbuf_putc(b, '$');
            continue;
        }
        if (num >= 0) {
            put_group(b, s, caps, ncap, (size_t)num);
        } else {
            for (size_t g = 1; g <= re->ngroups; g++) {
                const char *name = tfx_regex_group_name(re, g);
                if (strlen(name) == to - from && memcmp(name, tmpl + t + from, to - from) == 0 &&
                    caps[2 * g] >= 0) {
                    put_group(b, s, caps, ncap, g);
                    break;
                }
            }
        }
        t += rest;
        tfx_ctx_check_string(b->ctx, b->nbytes);
    }
    tfx_textbuf_put(b, tmpl + t, n - t);
    tfx_ctx_check_string(b->ctx, b->nbytes);
}

/* Go's replaceAll [re.replace]: the text between matches is kept; each
 * match is replaced by the expanded template, but for an empty match
 * right after the previous match (unless at 0). */
const char *tfx_regex_replace_all(tfx_ctx *ctx, const tfx_regex *re, const char *s, size_t nbytes,
                            const char *tmpl, size_t tmpl_nbytes, size_t *out_nbytes)
{
    machine m;
    machine_init(&m, ctx, re, s, nbytes);
    tfx_textbuf b;
    tfx_textbuf_init(&b, ctx);
    size_t last_end = 0, search = 0;
    while (search <= nbytes) {
        if (!run(&m, search))
            break;
        size_t a0 = (size_t)m.matchcap[0], a1 = (size_t)m.matchcap[1];
        tfx_textbuf_put(&b, s + last_end, a0 - last_end);
        if (a1 > last_end || a0 == 0)
            expand(&b, re, tmpl, tmpl_nbytes, s, m.matchcap, m.ncap);
        last_end = a1;
        size_t width;
        (void)step_rune(&m, search, &width);
        if (search + width > a1)
            search += width;
        else if (search + 1 > a1)
            search++;
        else
            search = a1;
        tfx_ctx_check_string(ctx, b.nbytes);
    }
    tfx_textbuf_put(&b, s + last_end, nbytes - last_end);
    tfx_ctx_check_string(ctx, b.nbytes);
    *out_nbytes = b.nbytes;
    return tfx_textbuf_text(&b);
}
