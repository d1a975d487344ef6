/* SPDX-License-Identifier: MPL-2.0 */
/*
 * parse.c — the expression parser (spec/grammar.md, rules gram.*).
 *
 * Recursive descent with one function per grammar production, the binary
 * operators by precedence level (gram.prec).  The parser reproduces
 * upstream's error behaviour, which is part of the language as users see
 * it: which errors are reported, where, and in which order.  That rests on
 * two mechanisms described in spec/grammar.md:
 *
 *   - Newline significance [gram.newlines]: a stack of flags says whether
 *     newline tokens are seen or skipped; object constructors push "seen",
 *     brackets, parentheses, calls, for expressions and interpolations push
 *     "skipped".  A comment ending in a newline counts as a newline.
 *
 *   - Recovery [gram.recovery]: after most syntax errors the parser enters
 *     recovery mode, skips to the bracket that closes the construct, and
 *     reports no further errors of the kinds that are only reported outside
 *     recovery.  A production whose sub-expression had errors while in
 *     recovery returns at once.
 *
 * The template parts of strings, heredocs and bare templates are parsed by
 * parse_template.c through the functions of parse_internal.h.
 */
#include "parse_internal.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "num.h"
#include "text.h"

/* ---------------------------------------------------------------------
 * Memory
 * ------------------------------------------------------------------ */

/* [eval.literal] [num.literal] [value.string.nfc] The value of a number
 * or string literal, worked out once here instead of at every evaluation
 * (eval.c's literal_value takes it): the number read at 512 bits, the
 * string's NFC form.  Both depend on the literal's text alone, and numbers
 * and strings are immutable, so every evaluation of the tree can share
 * them; they live in the parse's arena, which outlives every result
 * evaluated from the tree.  Text of ASCII bytes only is its own NFC form
 * and is shared as it is.  A number that does not read (never so for a
 * literal the lexer accepted) keeps no value; the evaluation then does
 * what it always did. */
void tfx_p_literal_value(parser *p, tfx_literal *lit)
{
    if (lit->kind == TFX_LIT_NUMBER && lit->text != NULL) {
        const tfx_num *num = NULL;
        tfx_num_err err = p->oom ? TFX_NUM_ERR_NOMEM
                                 : tfx_num_parse_n(p->arena, lit->text, lit->ntext, &num);

        if (err == TFX_NUM_ERR_NOMEM)
            p->oom = true;
        lit->value.num = err == TFX_NUM_OK ? num : NULL;
    } else if (lit->kind == TFX_LIT_STRING && lit->text != NULL) {
        const unsigned char *u = (const unsigned char *)lit->text;

        if (u[lit->ntext] == '\0' && tfx_text_is_ascii(u, lit->ntext)) {
            lit->value.nfc.s = lit->text;
            lit->value.nfc.n = lit->ntext;
        } else {
            lit->value.nfc.s = p->oom ? NULL
                               : tfx_text_nfc_profile(p->arena, lit->text, lit->ntext, p->pn,
                                                      &lit->value.nfc.n);
            if (lit->value.nfc.s == NULL)
                p->oom = true;
        }
    }
}

/* Out of memory: the parser's scratch node stands in, so callers need no
 * checks; the parse result is discarded anyway. */
tfx_node *tfx_p_scratch_node(parser *p)
{
    memset(p->scratch, 0, sizeof(*p->scratch));
    return p->scratch;
}

tfx_node *tfx_p_placeholder(parser *p, tfx_range range)
{
    tfx_node *n = tfx_p_node(p, TFX_NODE_LITERAL, range);

    n->as.literal.kind = TFX_LIT_UNKNOWN;
    return n;
}

/* Makes room in the scratch stack for `size` bytes at offset `at` (false,
 * oom set, if it cannot).  It grows fourfold: a bare template's parts lie
 * in it all at once, and realloc copies what it holds at each step (a
 * third of the final size in all, where doubling copies as much as the
 * final size). */
bool tfx_p_grow(parser *p, size_t at, size_t size)
{
    size_t cap = p->stack_cap == 0 ? 4096 : p->stack_cap;
    unsigned char *stack;

    while (at > cap || cap - at < size) {
        if (cap > ((size_t)-1) / 4) {
            p->oom = true;
            return false;
        }
        cap *= 4;
    }
    stack = realloc(p->stack, cap);
    if (stack == NULL) {
        p->oom = true;
        return false;
    }
    p->stack = stack;
    p->stack_cap = cap;
    return true;
}


/* ---------------------------------------------------------------------
 * The token stream [gram.newlines]
 * ------------------------------------------------------------------ */

static bool including_newlines(const parser *p)
{
    return p->nl;
}

/* Sets the newline mode; the next significant token may change with it. */
void tfx_p_set_newlines(parser *p, bool include)
{
    p->nl = include;
    tfx_p_seek(p);
}

/* tfx_p_push_newlines when the stack is full: it grows (or, when malloc
 * refuses, the mode is set without a flag, and the parse fails). */
void tfx_p_push_newlines_slow(parser *p, bool include)
{
    flag_stack *f = &p->newlines;
    size_t cap = f->cap == 0 ? 64 : f->cap * 2;
    bool *items = cap > f->cap ? realloc(f->items, cap * sizeof(bool)) : NULL;

    if (items == NULL) {
        p->oom = true;
        tfx_p_set_newlines(p, include);
        return;
    }
    f->items = items;
    f->cap = cap;
    tfx_p_push_newlines(p, include);
}

/* Finds the next significant token from p->next on, in the current
 * newline mode, and keeps where it is for the inline functions of
 * parse_internal.h.  Comments are skipped; where newlines are seen, a
 * comment that ends with one stands for a newline token. */
/* Whether the window's readable tokens run to the end of the source. */
static bool lexed_all(const parser *p)
{
    return p->toks.n > 0 && p->toks.items[p->toks.n - 1].kind == TFX_TOK_EOF;
}

/* Moves the lexer's window on when the parser has come to its end: the
 * tokens before the one before `next` are dropped (tfx_p_prev_range
 * reads that one), the indices that count from the window's start, `next`
 * and *i, go down with them.  False at the end of the source, or when the
 * lexer runs out of memory (lex_failed, oom). */
static bool more_tokens(parser *p, size_t *i)
{
    size_t drop = p->next > 0 ? p->next - 1 : 0;

    if (p->lex_failed || lexed_all(p))
        return false;
    if (!tfx_lex_step(p->lexer, drop, &p->toks, &p->lexdiags)) {
        p->lex_failed = true;
        p->oom = true;
    }
    p->next -= drop;
    *i -= drop;
    return !p->lex_failed;
}

void tfx_p_seek_slow(parser *p)
{
    bool nl = including_newlines(p);
    size_t i;

    for (i = p->next; i < p->toks.n || more_tokens(p, &i); i++) {
        const tfx_lexeme *l = &p->toks.items[i];
        tfx_token_kind k = (tfx_token_kind)l->kind;

        if (k == TFX_TOK_COMMENT) {
            if (nl && l->end > l->start && p->toks.src[l->end - 1] == '\n')
                break;
            continue;
        }
        if (k == TFX_TOK_NEWLINE && !nl)
            continue;
        break;
    }
    if (i < p->toks.n) {
        p->cache_at = i;
        p->cache_after = i + 1;
    } else {
        p->cache_at = p->toks.n - 1;
        p->cache_after = p->toks.n;
    }
    p->cache_kind = (tfx_token_kind)p->toks.items[p->cache_at].kind;
    if (p->cache_kind == TFX_TOK_COMMENT)
        p->cache_kind = TFX_TOK_NEWLINE;   /* a comment that ends a line */
    if (p->lex_failed)
        p->cache_kind = TFX_TOK_EOF;       /* the parse ends (out of memory) */
}

tfx_range tfx_p_prev_range(parser *p)
{
    if (p->next == 0)
        return tfx_p_peek_range(p);
    return tfx_token_at(&p->toks, p->next - 1).range;
}

bool tfx_p_is_keyword(tfx_token t, const char *kw)
{
    size_t i;

    if (t.kind != TFX_TOK_IDENT)
        return false;
    for (i = 0; i < t.nbytes; i++)
        if (kw[i] == '\0' || t.bytes[i] != (unsigned char)kw[i])
            return false;
    return kw[i] == '\0';
}

/* ---------------------------------------------------------------------
 * Diagnostics and recovery [gram.recovery]
 * ------------------------------------------------------------------ */

void tfx_p_error(parser *p, tfx_category cat, const char *summary,
                 const tfx_range *subject, const tfx_range *context,
                 const char *detail_fmt, ...)
{
    char detail[512];
    va_list ap;

    va_start(ap, detail_fmt);
    vsnprintf(detail, sizeof(detail), detail_fmt, ap);
    va_end(ap);
    tfx_diags_add(p->diags, TFX_PHASE_PARSE, cat, summary, subject, context, "%s", detail);
}

/* The bracket that pairs with `k`, TFX_TOK_COUNT if none. */
static tfx_token_kind opposite(tfx_token_kind k)
{
    switch (k) {
    case TFX_TOK_OBRACE: return TFX_TOK_CBRACE;
    case TFX_TOK_OBRACK: return TFX_TOK_CBRACK;
    case TFX_TOK_OPAREN: return TFX_TOK_CPAREN;
    case TFX_TOK_OQUOTE: return TFX_TOK_CQUOTE;
    case TFX_TOK_OHEREDOC: return TFX_TOK_CHEREDOC;
    case TFX_TOK_CBRACE: return TFX_TOK_OBRACE;
    case TFX_TOK_CBRACK: return TFX_TOK_OBRACK;
    case TFX_TOK_CPAREN: return TFX_TOK_OPAREN;
    case TFX_TOK_CQUOTE: return TFX_TOK_OQUOTE;
    case TFX_TOK_CHEREDOC: return TFX_TOK_OHEREDOC;
    case TFX_TOK_TEMPLATE_CONTROL:
    case TFX_TOK_TEMPLATE_INTERP: return TFX_TOK_TEMPLATE_SEQ_END;
    case TFX_TOK_TEMPLATE_SEQ_END: return TFX_TOK_TEMPLATE_INTERP;
    default: return TFX_TOK_COUNT;
    }
}

tfx_token_kind tfx_p_closer(tfx_token_kind open)
{
    return opposite(open);
}

/* Enters recovery and skips tokens up to the `end` that closes the
 * current construct (nested pairs skipped whole), or to the end of input;
 * returns that token.  For a template sequence end, "%{" opens a nested
 * pair just as "${" does. */
tfx_token tfx_p_recover(parser *p, tfx_token_kind end)
{
    tfx_token_kind start = opposite(end);
    int nest = 0;

    p->recovery = true;
    for (;;) {
        tfx_token t = tfx_p_read(p);
        tfx_token_kind k = t.kind;

        if (end == TFX_TOK_TEMPLATE_SEQ_END && k == TFX_TOK_TEMPLATE_CONTROL)
            k = TFX_TOK_TEMPLATE_INTERP;
        if (k == TFX_TOK_EOF)
            return t;
        if (k == start) {
            nest++;
        } else if (k == end) {
            if (nest < 1)
                return t;
            nest--;
        }
    }
}

/* ---------------------------------------------------------------------
 * Nesting limit [limit.depth]
 * ------------------------------------------------------------------ */

bool tfx_p_too_deep(parser *p)
{
    if (!p->depth_reported) {
        tfx_range r = tfx_p_peek_range(p);

        p->depth_reported = true;
        tfx_diags_add(p->diags, TFX_PHASE_PARSE, TFX_CAT_RESOURCE_LIMIT,
                      "Nesting too deep", &r, NULL,
                      "Constructs are nested more than %zu deep here, the limit of this parse.",
                      p->max_depth);
    }
    p->recovery = true;
    return false;
}

/* ---------------------------------------------------------------------
 * Expressions
 * ------------------------------------------------------------------ */

static tfx_node *parse_conditional(parser *p);
static tfx_node *parse_with_traversals(parser *p);
static tfx_node *binary_general(parser *p, int level);
static tfx_node *parse_term(parser *p);
static tfx_node *parse_traversals(parser *p, tfx_node *from);

static tfx_node *conditional_rest(parser *p, const tfx_lexeme *start, size_t mark, tfx_node *cond);

static tfx_node *expression_fast(parser *p);

tfx_node *tfx_p_expression(parser *p)
{
    tfx_node *n;

    if (!tfx_p_enter(p))
        return tfx_p_placeholder(p, tfx_p_peek_range(p));
    n = p->general ? parse_conditional(p) : expression_fast(p);
    tfx_p_leave(p);
    return n;
}

/* [gram.cond] cond ? a : b, the condition at the level of ||, both
 * results whole expressions (tfx_parse_general's path; the other is
 * expression_fast). */
static tfx_node *parse_conditional(parser *p)
{
    tfx_lexeme start = tfx_p_peek_lexeme(p);
    size_t mark = tfx_p_mark(p);
    tfx_node *cond = binary_general(p, 0);

    return conditional_rest(p, &start, mark, cond);
}

/* The rest of parse_conditional after its condition `cond`, which began
 * at `start` with the diagnostics at `mark`. */
static tfx_node *conditional_rest(parser *p, const tfx_lexeme *start, size_t mark, tfx_node *cond)
{
    tfx_node *yes;
    tfx_node *no;
    tfx_node *n;
    tfx_token colon;

    if (p->recovery && tfx_p_errors_since(p, mark))
        return cond;
    if (tfx_p_peek_kind(p) != TFX_TOK_QUESTION)
        return cond;
    tfx_p_skip(p);
    mark = tfx_p_mark(p);
    yes = tfx_p_expression(p);
    if (p->recovery && tfx_p_errors_since(p, mark))
        return cond;
    colon = tfx_p_peek(p);
    if (colon.kind != TFX_TOK_COLON) {
        tfx_range ctx = tfx_p_from(start, colon.range);

        tfx_p_error(p, TFX_CAT_MISSING_TOKEN, "Missing false expression in conditional",
                    &colon.range, &ctx,
                    "A conditional needs a result for the false case, after a colon.");
        return cond;
    }
    tfx_p_skip(p);
    mark = tfx_p_mark(p);
    no = tfx_p_expression(p);
    if (p->recovery && tfx_p_errors_since(p, mark))
        return cond;
    n = tfx_p_node(p, TFX_NODE_CONDITIONAL, tfx_p_from(start, no->range));
    n->as.conditional.cond = cond;
    n->as.conditional.true_result = yes;
    n->as.conditional.false_result = no;
    return n;
}

/* [gram.prec] The binary operators by precedence, lowest first; each
 * level is left-associative.  Indexed by token kind: whether the token is
 * a binary operator, which, and its level; and whether it continues an
 * expression after a term (an operator, '.', '[' or '?'). */
#define NLEVELS 6

typedef struct {
    bool is_op;
    signed char level;
    unsigned char op;    /* a tfx_op */
    bool continues;      /* after a term, continues the expression (continues_term) */
} binary_op_info;

static const binary_op_info binary_ops[TFX_TOK_COUNT] = {
    [TFX_TOK_OR] = {true, 0, TFX_OP_OR, true},
    [TFX_TOK_AND] = {true, 1, TFX_OP_AND, true},
    [TFX_TOK_EQUAL_OP] = {true, 2, TFX_OP_EQUAL, true},
    [TFX_TOK_NOT_EQUAL] = {true, 2, TFX_OP_NOT_EQUAL, true},
    [TFX_TOK_GREATER_THAN] = {true, 3, TFX_OP_GREATER, true},
    [TFX_TOK_GREATER_THAN_EQ] = {true, 3, TFX_OP_GREATER_EQUAL, true},
    [TFX_TOK_LESS_THAN] = {true, 3, TFX_OP_LESS, true},
    [TFX_TOK_LESS_THAN_EQ] = {true, 3, TFX_OP_LESS_EQUAL, true},
    [TFX_TOK_PLUS] = {true, 4, TFX_OP_ADD, true},
    [TFX_TOK_MINUS] = {true, 4, TFX_OP_SUBTRACT, true},
    [TFX_TOK_STAR] = {true, 5, TFX_OP_MULTIPLY, true},
    [TFX_TOK_SLASH] = {true, 5, TFX_OP_DIVIDE, true},
    [TFX_TOK_PERCENT] = {true, 5, TFX_OP_MODULO, true},
    [TFX_TOK_DOT] = {false, -1, 0, true},
    [TFX_TOK_OBRACK] = {false, -1, 0, true},
    [TFX_TOK_QUESTION] = {false, -1, 0, true},
};

/* Whether a token after a term continues the expression: a traversal
 * ('.' or '['), a binary operator or the '?' of a conditional (a flag of
 * binary_ops). */
static bool continues_term(tfx_token_kind k)
{
    return binary_ops[k].continues;
}

/* [gram.cond] [gram.binary] An expression read from its first term:
 * parse_conditional with tfx_p_binary for its condition (the same rule as
 * binary_general), the first term read here.  When the token after the term does not continue it
 * (continues_term), tfx_p_binary would return the term (out of recovery
 * no operator is pending; in recovery each level's check returns the term
 * too, as no operator is pending) and parse_conditional would return it as
 * it is (no '?'): the term is the expression, and the two calls and their
 * frames are saved.  Every level of brackets goes through here; test_parse
 * compares it with tfx_parse_general on random inputs. */
static tfx_node *expression_fast(parser *p)
{
    tfx_lexeme start = tfx_p_peek_lexeme(p);
    size_t mark = tfx_p_mark(p);
    tfx_node *term = parse_term(p);

    if (!continues_term(tfx_p_peek_kind(p)))
        return term;
    return conditional_rest(p, &start, mark, tfx_p_binary(p, 0, mark, term));
}

/* The precedence level of the binary operator k, or -1. */
static int binary_level(tfx_token_kind k)
{
    return binary_ops[k].is_op ? binary_ops[k].level : -1;
}

static tfx_node *make_binary(parser *p, tfx_node *lhs, tfx_op op, tfx_node *rhs)
{
    tfx_node *n = tfx_p_node(p, TFX_NODE_BINARY_OP, tfx_p_between(lhs->range, rhs->range));

    n->as.op.op = op;
    n->as.op.lhs = lhs;
    n->as.op.rhs = rhs;
    return n;
}

/* [gram.binary] The grammar's operators by level: an operand of level
 * `level` is an operand of the level above, then any number of operators of
 * this level each with its right operand; the result associates to the
 * left; above the highest level an operand is a term with its traversals.
 * If an operand had errors in recovery, what was built so far at that
 * level is returned at once, without the pending operator.
 *
 * binary_general below is that rule as written, one call per level
 * per operand.  tfx_p_binary does the same in one loop (precedence
 * climbing): a stack holds the levels that have a left operand and an
 * operator pending, lowest first; the levels in between hold no operator
 * and only pass a finished operand down.  After each operand, the levels
 * from the highest down to the next operator's are finished in the order
 * the recursion would return from them, each first making the recursion's
 * check: recovery and an error since its mark, where a level's mark is
 * where its current operand began (a pending level: after its operator;
 * a level in between: the mark of the pending level below it, or of the
 * start).  A check that holds makes every lower level's check hold too
 * (their marks are no later, errors are never taken back), so each of them
 * returns its left operand at once: the result is the lowest pending
 * level's left operand, or the operand itself when none is pending.  The
 * tree, the nodes made and the errors are therefore the general one's;
 * test_parse compares the two on random operator chains.  Its first
 * operand is read already (expression_fast): `first`, read with the
 * diagnostics at base_mark. */
tfx_node *tfx_p_binary(parser *p, int level, size_t base_mark, tfx_node *first)
{
    struct {
        tfx_node *lhs;
        size_t mark;
        int level;
        tfx_op op;
    } stack[NLEVELS];
    int top = 0;                      /* pending levels on the stack */
    /* base_mark: the mark of the levels below the first pending one */

    for (;;) {
        tfx_node *operand = first != NULL ? first : parse_term(p);   /* the next operand */
        int next;
        int at;

        first = NULL;

        /* parse_traversals returns its argument at once unless a '.' or
         * '[' follows: the call is made only then. */
        if (tfx_p_peek_kind(p) == TFX_TOK_DOT || tfx_p_peek_kind(p) == TFX_TOK_OBRACK)
            operand = parse_traversals(p, operand);

        /* The operand is finished at the highest level; it travels down
         * until a level takes the next operator or the base is passed. */
        next = binary_level(tfx_p_peek_kind(p));
        if (next < level)
            next = -1;
        if (!p->recovery) {
            /* Out of recovery no level's check holds, and a level with no
             * operator pending passes the operand on unchanged: only the
             * pending levels above the next operator's have work (each
             * finishes its operation), then that level takes it. */
            while (top > 0 && stack[top - 1].level > next) {
                operand = make_binary(p, stack[top - 1].lhs, stack[top - 1].op, operand);
                top--;
            }
            if (next < 0)
                return operand;
            if (top > 0 && stack[top - 1].level == next) {
                stack[top - 1].lhs = make_binary(p, stack[top - 1].lhs, stack[top - 1].op, operand);
            } else {
                stack[top].lhs = operand;
                stack[top].level = next;
                top++;
            }
            stack[top - 1].op = (tfx_op)binary_ops[tfx_p_peek_kind(p)].op;
            tfx_p_skip(p);
            stack[top - 1].mark = tfx_p_mark(p);
            continue;
        }
        for (at = NLEVELS - 1; at >= level; at--) {
            bool pending = top > 0 && stack[top - 1].level == at;
            size_t mark = top > 0 ? stack[top - 1].mark : base_mark;

            if (p->recovery && tfx_p_errors_since(p, mark))
                return top > 0 ? stack[0].lhs : operand;
            if (at == next) {
                const binary_op_info *b = &binary_ops[tfx_p_peek_kind(p)];

                if (pending) {
                    stack[top - 1].lhs = make_binary(p, stack[top - 1].lhs, stack[top - 1].op, operand);
                } else {
                    stack[top].lhs = operand;
                    stack[top].level = at;
                    top++;
                }
                stack[top - 1].op = (tfx_op)b->op;
                tfx_p_skip(p);
                stack[top - 1].mark = tfx_p_mark(p);
                break;
            }
            if (pending) {
                operand = make_binary(p, stack[top - 1].lhs, stack[top - 1].op, operand);
                top--;
            }
        }
        if (at < level)
            return operand;
    }
}

/* [gram.binary] The same rule as written: one call per level, as the
 * reference tfx_p_binary is checked against (tfx_parse_general). */
static tfx_node *binary_general(parser *p, int level)
{
    size_t mark = tfx_p_mark(p);
    tfx_node *lhs;
    tfx_node *rhs = NULL;
    int op = -1;

    if (level >= NLEVELS)
        return parse_traversals(p, parse_term(p));
    lhs = binary_general(p, level + 1);
    if (p->recovery && tfx_p_errors_since(p, mark))
        return lhs;
    for (;;) {
        tfx_token_kind k = tfx_p_peek_kind(p);
        int next_op = binary_level(k) == level ? (int)binary_ops[k].op : -1;

        if (next_op < 0)
            break;
        if (op >= 0)
            lhs = make_binary(p, lhs, (tfx_op)op, rhs);
        op = next_op;
        tfx_p_skip(p);
        mark = tfx_p_mark(p);
        rhs = binary_general(p, level + 1);
        if (p->recovery && tfx_p_errors_since(p, mark))
            return lhs;
    }
    return op < 0 ? lhs : make_binary(p, lhs, (tfx_op)op, rhs);
}

static tfx_node *parse_with_traversals(parser *p)
{
    return parse_traversals(p, parse_term(p));
}

/* ---------------------------------------------------------------------
 * Traversals [gram.traversal]
 * ------------------------------------------------------------------ */

/* Whether the steps array of a traversal that add_step made, holding n
 * steps, is full: it has room for 2 steps first, then doubles when full
 * (so that a long chain stays linear), so its room follows from n and
 * the node need not keep it. */
static bool steps_full(size_t n)
{
    return n < 2 ? n == 0 : (n & (n - 1)) == 0;
}

/* Appends a step to a traversal node, or wraps `expr` in a relative
 * traversal with that one step. */
static tfx_node *add_step(parser *p, tfx_node *expr, const tfx_step *step)
{
    tfx_node *n = expr;

    if (expr->kind != TFX_NODE_SCOPE_TRAVERSAL && expr->kind != TFX_NODE_RELATIVE_TRAVERSAL) {
        n = tfx_p_node(p, TFX_NODE_RELATIVE_TRAVERSAL, expr->range);
        n->as.traversal.source = expr;
    }
    /* not cleared: a step is written whole before it is read */
    if (steps_full(n->as.traversal.nsteps)) {
        size_t cap = n->as.traversal.nsteps < 2 ? 2 : n->as.traversal.nsteps * 2;
        tfx_step *steps = tfx_p_alloc_raw(p, cap * sizeof(tfx_step));

        if (steps == NULL)
            return n;
        if (n->as.traversal.nsteps > 0)
            memcpy(steps, n->as.traversal.steps, n->as.traversal.nsteps * sizeof(tfx_step));
        n->as.traversal.steps = steps;
    }
    n->as.traversal.steps[n->as.traversal.nsteps++] = *step;
    n->range = tfx_p_between(n->range, step->range);
    return n;
}

static tfx_step attr_step(tfx_token name, tfx_range range)
{
    tfx_step s;

    memset(&s, 0, sizeof(s));
    s.is_attr = true;
    s.name = (const char *)name.bytes;
    s.nname = name.nbytes;
    s.range = range;
    return s;
}

/* The literal of a number token: its text, or an unknown number with an
 * "Invalid number literal" error [lex.number.value]. */
static tfx_literal number_literal(parser *p, tfx_token tok)
{
    tfx_literal lit;
    char *text;

    memset(&lit, 0, sizeof(lit));
    if (!tfx_num_literal_ok((const char *)tok.bytes, tok.nbytes)) {
        tfx_p_error(p, TFX_CAT_INVALID_NUMBER, "Invalid number literal", &tok.range, NULL,
                    "This number cannot be read as a decimal number: it has more than one "
                    "point or exponent, or its exponent is out of range.");
        lit.kind = TFX_LIT_UNKNOWN_NUMBER;
        return lit;
    }
    lit.kind = TFX_LIT_NUMBER;
    text = tfx_p_alloc(p, tok.nbytes + 1);
    if (text != NULL)
        memcpy(text, tok.bytes, tok.nbytes);
    lit.text = text;
    lit.ntext = tok.nbytes;
    tfx_p_literal_value(p, &lit);
    return lit;
}

/* A legacy index `.N` whose number has a point (`.1.2`): an error; the
 * step becomes an index by an unknown key [gram.traversal.legacy]. */
static bool legacy_index_chained(parser *p, tfx_token num, tfx_range subject, bool in_splat,
                                 tfx_step *step, tfx_range dot)
{
    const unsigned char *pt = memchr(num.bytes, '.', num.nbytes);
    int first;

    if (pt == NULL)
        return false;
    first = (int)(pt - num.bytes);
    tfx_p_error(p, TFX_CAT_INVALID_EXPRESSION, "Invalid legacy index syntax", &subject, NULL,
                "Two legacy indices cannot be chained; write the index in brackets%s, "
                "as [%.*s][%.*s].", in_splat ? " with a full splat [*]" : "",
                first, (const char *)num.bytes,
                (int)(num.nbytes - (size_t)first - 1), (const char *)pt + 1);
    memset(step, 0, sizeof(*step));
    step->key.kind = TFX_LIT_UNKNOWN;
    step->legacy = true;
    step->range = tfx_p_between(dot, num.range);
    return true;
}

static tfx_step legacy_index_step(parser *p, tfx_token num, tfx_range dot)
{
    tfx_step s;

    memset(&s, 0, sizeof(s));
    s.key = number_literal(p, num);
    s.legacy = true;
    s.range = tfx_p_between(dot, num.range);
    return s;
}

/* `.*` then any run of `.name` and `.N` (legacy splat) [gram.splat.attr]. */
static tfx_node *parse_attr_splat(parser *p, tfx_node *ret, tfx_node *from, tfx_token dot,
                                  tfx_token attr_tok, bool *restart)
{
    tfx_token marker = tfx_p_read(p);
    vec steps = {0};
    tfx_range first_range = tfx_p_peek_range(p);
    tfx_range last_range = marker.range;
    tfx_node *item;
    tfx_node *each;
    tfx_node *n;

    *restart = false;
    while (tfx_p_peek_kind(p) == TFX_TOK_DOT) {
        tfx_token sdot = tfx_p_read(p);
        tfx_token next = tfx_p_peek(p);
        tfx_step step;

        if (next.kind == TFX_TOK_NUMBER_LIT) {
            tfx_token num = tfx_p_read(p);

            if (!legacy_index_chained(p, num, attr_tok.range, true, &step, sdot.range))
                step = legacy_index_step(p, num, sdot.range);
            tfx_p_push(p, &steps, &step, sizeof(step));
            last_range = num.range;
            continue;
        }
        if (next.kind != TFX_TOK_IDENT) {
            if (!p->recovery) {
                if (next.kind == TFX_TOK_STAR)
                    tfx_p_error(p, TFX_CAT_SPLAT, "Nested splat expression not allowed",
                                &next.range, NULL,
                                "An attribute-only splat (.*) cannot contain another splat.");
                else
                    tfx_p_error(p, TFX_CAT_INVALID_EXPRESSION, "Invalid attribute name",
                                &attr_tok.range, NULL, "A dot must be followed by an attribute name.");
            }
            p->recovery = true;
            tfx_p_drop(p, &steps);
            *restart = true;
            return ret;
        }
        tfx_p_skip(p);
        step = attr_step(next, tfx_p_between(sdot.range, next.range));
        tfx_p_push(p, &steps, &step, sizeof(step));
        last_range = next.range;
    }
    item = tfx_p_node(p, TFX_NODE_ANON_SYMBOL, tfx_p_between(dot.range, marker.range));
    if (steps.n == 0) {
        each = item;
    } else {
        size_t nsteps = steps.n;

        each = tfx_p_node(p, TFX_NODE_RELATIVE_TRAVERSAL, tfx_p_between(first_range, last_range));
        each->as.traversal.source = item;
        each->as.traversal.steps = tfx_p_finish(p, &steps, sizeof(tfx_step));
        each->as.traversal.nsteps = each->as.traversal.steps != NULL ? nsteps : 0;
    }
    n = tfx_p_node(p, TFX_NODE_SPLAT, tfx_p_between(from->range, last_range));
    n->as.splat.source = ret;
    n->as.splat.each = each;
    n->as.splat.item = item;
    n->as.splat.marker_range = tfx_p_between(dot.range, marker.range);
    n->as.splat.legacy = true;
    return n;
}

/* `[*]` and the traversal that follows it (full splat) [gram.splat.full]. */
static tfx_node *parse_full_splat(parser *p, tfx_node *ret, tfx_node *from, tfx_token open)
{
    tfx_token close;
    tfx_node *item;
    tfx_node *each;
    tfx_node *n;

    tfx_p_skip(p); /* the star */
    close = tfx_p_read(p);
    if (close.kind != TFX_TOK_CBRACK && !p->recovery) {
        /* [gram.splat.full.close] The error's subject is the token that
         * recovery stops at (upstream reports the recovered bracket). */
        close = tfx_p_recover(p, TFX_TOK_CBRACK);
        tfx_p_error(p, TFX_CAT_MISSING_TOKEN, "Missing close bracket on splat index",
                    &close.range, NULL, "A full splat is written [*], the star then a closing bracket.");
    }
    item = tfx_p_node(p, TFX_NODE_ANON_SYMBOL, tfx_p_between(open.range, close.range));
    if (!tfx_p_enter(p)) {
        each = item;
    } else {
        each = parse_traversals(p, item);
        tfx_p_leave(p);
    }
    n = tfx_p_node(p, TFX_NODE_SPLAT, tfx_p_between(from->range, each->range));
    n->as.splat.source = ret;
    n->as.splat.each = each;
    n->as.splat.item = item;
    n->as.splat.marker_range = tfx_p_between(open.range, close.range);
    return n;
}

/* Whether a key expression is a constant usable as a traversal step: a
 * literal, or a template that is one literal string [gram.traversal.index]. */
static bool static_key(const tfx_node *key, tfx_literal *lit)
{
    if (key->kind == TFX_NODE_LITERAL) {
        *lit = key->as.literal;
        return true;
    }
    if (key->kind == TFX_NODE_TEMPLATE && key->as.template.nparts == 1
        && key->as.template.parts[0]->kind == TFX_NODE_LITERAL
        && key->as.template.parts[0]->as.literal.kind == TFX_LIT_STRING) {
        *lit = key->as.template.parts[0]->as.literal;
        return true;
    }
    if (key->kind == TFX_NODE_TEMPLATE && key->as.template.nparts == 0) {
        memset(lit, 0, sizeof(*lit));
        lit->kind = TFX_LIT_STRING;
        lit->text = "";
        lit->value.nfc.s = "";     /* its own NFC form (tfx_p_literal_value) */
        return true;
    }
    return false;
}

/* `[key]`: a step when the key is a constant, else an index node
 * [gram.traversal.index] (in PN a template of literal text alone is one
 * literal, tfx_p_template's [tmpl.pn.meld]: [gram.pn.static-key]). */
static tfx_node *parse_index(parser *p, tfx_node *ret, tfx_node *from, tfx_token open)
{
    tfx_token close;
    tfx_node *key;
    tfx_literal lit;
    tfx_range rng;
    size_t mark;

    tfx_p_push_newlines(p, false);
    mark = tfx_p_mark(p);
    key = tfx_p_expression(p);
    if (p->recovery && tfx_p_errors_since(p, mark)) {
        close = tfx_p_recover(p, TFX_TOK_CBRACK);
    } else {
        close = tfx_p_read(p);
        if (close.kind != TFX_TOK_CBRACK && !p->recovery) {
            /* [gram.traversal.index.close] subject: where recovery stops */
            close = tfx_p_recover(p, TFX_TOK_CBRACK);
            tfx_p_error(p, TFX_CAT_MISSING_TOKEN, "Missing close bracket on index",
                        &close.range, NULL, "An index ends with a closing bracket (\"]\").");
        }
    }
    tfx_p_pop_newlines(p);
    rng = tfx_p_between(open.range, close.range);
    if (static_key(key, &lit)) {
        tfx_step step;

        memset(&step, 0, sizeof(step));
        step.key = lit;
        step.range = rng;
        return add_step(p, ret, &step);
    }
    {
        tfx_node *n = tfx_p_node(p, TFX_NODE_INDEX, tfx_p_between(from->range, rng));

        n->as.index.collection = ret;
        n->as.index.key = key;
        n->as.index.open_range = open.range;
        n->as.index.bracket_range = rng;
        return n;
    }
}

/* Any run of `.name`, `.N`, `.*`, `[key]` and `[*]` after a term. */
static tfx_node *parse_traversals(parser *p, tfx_node *from)
{
    tfx_node *ret = from;

    for (;;) {
        tfx_token_kind next = tfx_p_peek_kind(p);

        if (next == TFX_TOK_DOT) {
            tfx_token dot = tfx_p_read(p);
            tfx_token attr = tfx_p_peek(p);

            if (attr.kind == TFX_TOK_IDENT) {
                tfx_step step = attr_step(attr, tfx_p_between(dot.range, attr.range));

                tfx_p_skip(p);
                ret = add_step(p, ret, &step);
            } else if (attr.kind == TFX_TOK_NUMBER_LIT) {
                tfx_step step;

                tfx_p_skip(p);
                if (!legacy_index_chained(p, attr, attr.range, false, &step, dot.range))
                    step = legacy_index_step(p, attr, dot.range);
                ret = add_step(p, ret, &step);
            } else if (attr.kind == TFX_TOK_STAR) {
                bool restart;

                ret = parse_attr_splat(p, ret, from, dot, attr, &restart);
                if (restart)
                    continue;
            } else {
                tfx_p_error(p, TFX_CAT_INVALID_EXPRESSION, "Invalid attribute name",
                            &attr.range, NULL, "A dot must be followed by an attribute name.");
                p->recovery = true;
            }
        } else if (next == TFX_TOK_OBRACK) {
            tfx_token open = tfx_p_read(p);

            if (tfx_p_peek_kind(p) == TFX_TOK_STAR)
                ret = parse_full_splat(p, ret, from, open);
            else
                ret = parse_index(p, ret, from, open);
        } else {
            return ret;
        }
    }
}

/* ---------------------------------------------------------------------
 * Terms [gram.term]
 * ------------------------------------------------------------------ */

static tfx_node *parse_call(parser *p, tfx_token name);
static tfx_node *parse_tuple(parser *p);
static tfx_node *parse_object(parser *p);
static tfx_node *parse_for(parser *p, tfx_token open);

static tfx_node *literal_node(parser *p, tfx_range range, tfx_literal_kind kind)
{
    tfx_node *n = tfx_p_node(p, TFX_NODE_LITERAL, range);

    n->as.literal.kind = kind;
    return n;
}

/* `(` expression `)` [gram.term.parens] */
static tfx_node *parse_parens(parser *p)
{
    tfx_lexeme open = tfx_p_peek_lexeme(p);   /* the range is wanted at the end */
    tfx_range close;
    tfx_node *expr;
    tfx_node *n;
    size_t mark;

    tfx_p_skip(p);
    mark = tfx_p_mark(p);
    tfx_p_push_newlines(p, false);
    expr = tfx_p_expression(p);
    if (tfx_p_errors_since(p, mark)) {
        tfx_p_recover(p, TFX_TOK_CPAREN);
        tfx_p_pop_newlines(p);
        return expr;
    }
    close = tfx_p_peek_range(p);
    if (tfx_p_peek_kind(p) != TFX_TOK_CPAREN) {
        tfx_range ctx = tfx_p_from(&open, close);

        tfx_p_error(p, TFX_CAT_UNTERMINATED, "Unbalanced parentheses", &close, &ctx,
                    "The expression in parentheses must end with a closing parenthesis.");
        p->recovery = true;
    }
    tfx_p_skip(p);
    tfx_p_pop_newlines(p);
    n = tfx_p_node(p, TFX_NODE_PARENTHESES, tfx_p_from(&open, close));
    n->as.parens.expr = expr;
    return n;
}

/* `-` or `!` applied to a term with its traversals [gram.term.unary]. */
static tfx_node *parse_unary(parser *p, tfx_op op)
{
    tfx_token tok = tfx_p_read(p);
    tfx_node *operand;
    tfx_node *n;

    if (!tfx_p_enter(p))
        operand = tfx_p_placeholder(p, tfx_p_peek_range(p));
    else {
        operand = parse_with_traversals(p);
        tfx_p_leave(p);
    }
    n = tfx_p_node(p, TFX_NODE_UNARY_OP, tfx_p_between(tok.range, operand->range));
    n->as.op.op = op;
    n->as.op.lhs = operand;
    return n;
}

/* A quoted string or heredoc [gram.term.template]. */
static tfx_node *parse_template_term(parser *p)
{
    tfx_token open = tfx_p_read(p);
    bool flush = open.kind == TFX_TOK_OHEREDOC && open.nbytes >= 3 && open.bytes[2] == '-';
    tfx_node *n = tfx_p_template(p, opposite(open.kind), flush);

    n->range = tfx_p_between(open.range, tfx_p_prev_range(p));
    return n;
}

static tfx_node *parse_term(parser *p)
{
    tfx_token start;

    switch (tfx_p_peek_kind(p)) {
    case TFX_TOK_OPAREN:
        return parse_parens(p);
    case TFX_TOK_NUMBER_LIT: {
        tfx_token tok = tfx_p_read(p);
        tfx_node *n = tfx_p_node(p, TFX_NODE_LITERAL, tok.range);

        n->as.literal = number_literal(p, tok);
        return n;
    }
    case TFX_TOK_IDENT: {
        tfx_token tok = tfx_p_read(p);
        tfx_node *n;

        /* [gram.call], [gram.pn.call] (DoubleColon exists only in PN) */
        if (tfx_p_peek_kind(p) == TFX_TOK_OPAREN || tfx_p_peek_kind(p) == TFX_TOK_DOUBLE_COLON)
            return parse_call(p, tok);
        /* [gram.term.keywords] true, false and null, as whole names (of
         * 4 or 5 bytes: other names are none of them) */
        if (tok.nbytes == 4 || tok.nbytes == 5) {
            if (tfx_p_is_keyword(tok, "true") || tfx_p_is_keyword(tok, "false")) {
                n = literal_node(p, tok.range, TFX_LIT_BOOL);
                n->as.literal.boolean = tok.bytes[0] == 't';
                return n;
            }
            if (tfx_p_is_keyword(tok, "null"))
                return literal_node(p, tok.range, TFX_LIT_NULL);
        }
        n = tfx_p_node(p, TFX_NODE_SCOPE_TRAVERSAL, tok.range);
        n->as.traversal.root = (const char *)tok.bytes;
        n->as.traversal.nroot = tok.nbytes;
        n->as.traversal.root_range = tok.range;
        return n;
    }
    case TFX_TOK_OQUOTE:
    case TFX_TOK_OHEREDOC:
        return parse_template_term(p);
    case TFX_TOK_MINUS:
        return parse_unary(p, TFX_OP_NEGATE);
    case TFX_TOK_BANG:
        return parse_unary(p, TFX_OP_NOT);
    case TFX_TOK_OBRACK:
        return parse_tuple(p);
    case TFX_TOK_OBRACE:
        return parse_object(p);
    default:
        /* [gram.term.missing] */
        start = tfx_p_peek(p);
        if (!p->recovery) {
            if (start.kind == TFX_TOK_EOF)
                tfx_p_error(p, TFX_CAT_MISSING_TOKEN, "Missing expression", &start.range, NULL,
                            "An expression was expected here, but the input ends.");
            else
                tfx_p_error(p, TFX_CAT_INVALID_EXPRESSION, "Invalid expression", &start.range, NULL,
                            "An expression was expected here, but this token cannot start one.");
        }
        p->recovery = true;
        return tfx_p_placeholder(p, start.range);
    }
}

/* Skips to the next `open` (or the end of input), then to the token that
 * closes it, recovery entered (upstream's recoverOver). */
static void recover_over(parser *p, tfx_token_kind open)
{
    tfx_token_kind k;

    do {
        k = tfx_p_read(p).kind;
    } while (k != open && k != TFX_TOK_EOF);
    tfx_p_recover(p, opposite(open));
}

/* A namespaced name: Ident { "::" Ident } [gram.pn.call], its first name
 * read and the next token a "::".  Sets *name to the whole name, its
 * parts joined by "::" (pointing into the source when they are written
 * so there, else copied into the arena) and its range from the first part
 * to the last; returns NULL, or the placeholder that takes the call's
 * place after "Missing function name" (whose range it has). */
static tfx_node *parse_call_namespace(parser *p, tfx_token *name)
{
    tfx_token first = *name;
    size_t nbytes = first.nbytes;
    tfx_buf joined = {0};

    tfx_buf_put(&joined, (const char *)first.bytes, first.nbytes);
    while (tfx_p_peek_kind(p) == TFX_TOK_DOUBLE_COLON) {
        tfx_token part;

        tfx_p_skip(p);
        part = tfx_p_read(p);
        if (part.kind != TFX_TOK_IDENT) {
            /* [gram.pn.call.name] reported even in recovery */
            tfx_range ctx = tfx_p_between(first.range, part.range);

            tfx_p_error(p, TFX_CAT_MISSING_TOKEN, "Missing function name", &part.range, &ctx,
                        "A function name must follow the namespace separator ::.");
            free(joined.data);
            recover_over(p, TFX_TOK_OPAREN);
            return tfx_p_placeholder(p, ctx);
        }
        tfx_buf_put(&joined, "::", 2);
        tfx_buf_put(&joined, (const char *)part.bytes, part.nbytes);
        nbytes = (size_t)(part.bytes - first.bytes) + part.nbytes;
        name->range = tfx_p_between(first.range, part.range);
    }
    if (joined.failed) {
        p->oom = true;
    } else if (nbytes == joined.len && memcmp(first.bytes, joined.data, nbytes) == 0) {
        /* written without spaces or comments: the source's own bytes */
        name->nbytes = nbytes;
    } else {
        unsigned char *copy = tfx_p_alloc_raw(p, joined.len);

        if (copy != NULL) {
            memcpy(copy, joined.data, joined.len);
            name->bytes = copy;
            name->nbytes = joined.len;
        }
    }
    free(joined.data);
    return NULL;
}

/* name `(` arguments `)`, the last argument optionally followed by `...`
 * [gram.call]; in profile PN the name may be namespaced [gram.pn.call]. */
static tfx_node *parse_call(parser *p, tfx_token name)
{
    tfx_token open;
    tfx_token close;
    vec args = {0};
    bool expand = false;
    tfx_node *n;
    size_t nargs;

    if (tfx_p_peek_kind(p) == TFX_TOK_DOUBLE_COLON) {
        tfx_range first = name.range;

        n = parse_call_namespace(p, &name);
        if (n != NULL)
            return n;
        if (tfx_p_peek_kind(p) != TFX_TOK_OPAREN) {
            /* [gram.pn.call.open] reported even in recovery; the token is
             * passed */
            tfx_token next = tfx_p_read(p);
            tfx_range ctx = tfx_p_between(first, next.range);

            tfx_p_error(p, TFX_CAT_MISSING_TOKEN, "Missing open parenthesis", &next.range, &ctx,
                        "A namespaced function name must be followed by the parenthesis of its call.");
            recover_over(p, TFX_TOK_OPAREN);
            return tfx_p_placeholder(p, ctx);
        }
    }
    open = tfx_p_read(p);
    memset(&close, 0, sizeof(close));
    tfx_p_push_newlines(p, false);
    for (;;) {
        tfx_token sep;
        tfx_node *arg;
        size_t mark;

        if (tfx_p_peek_kind(p) == TFX_TOK_CPAREN) {
            close = tfx_p_read(p);
            break;
        }
        mark = tfx_p_mark(p);
        arg = tfx_p_expression(p);
        tfx_p_push(p, &args, &arg, sizeof(node_ptr));
        if (p->recovery && tfx_p_errors_since(p, mark)) {
            close = tfx_p_recover(p, TFX_TOK_CPAREN);
            break;
        }
        if (tfx_p_peek_kind(p) == TFX_TOK_COMMA) {
            /* a comma, then the next argument or the closing parenthesis */
            tfx_p_skip(p);
            if (tfx_p_peek_kind(p) == TFX_TOK_CPAREN) {
                close = tfx_p_read(p);
                break;
            }
            continue;
        }
        sep = tfx_p_read(p);
        if (sep.kind == TFX_TOK_CPAREN) {
            close = sep;
            break;
        }
        if (sep.kind == TFX_TOK_ELLIPSIS) {
            expand = true;
            if (tfx_p_peek_kind(p) != TFX_TOK_CPAREN) {
                if (!p->recovery) {
                    tfx_range ctx = tfx_p_between(name.range, sep.range);

                    tfx_p_error(p, TFX_CAT_UNTERMINATED, "Missing closing parenthesis",
                                &sep.range, &ctx,
                                "An argument expanded with ... must be the last one.");
                }
                close = tfx_p_recover(p, TFX_TOK_CPAREN);
            } else {
                close = tfx_p_read(p);
            }
            break;
        }
        if (sep.kind == TFX_TOK_EOF) {
            tfx_range subj = tfx_p_between(name.range, open.range);

            tfx_p_error(p, TFX_CAT_UNTERMINATED, "Unterminated function call", &subj, NULL,
                        "The input ends before the closing parenthesis of this call.");
        } else {
            tfx_range ctx = tfx_p_between(name.range, sep.range);

            tfx_p_error(p, TFX_CAT_MISSING_TOKEN, "Missing argument separator",
                        &sep.range, &ctx, "Arguments are separated by commas.");
        }
        close = tfx_p_recover(p, TFX_TOK_CPAREN);
        break;
    }
    tfx_p_pop_newlines(p);
    nargs = args.n;
    n = tfx_p_node(p, TFX_NODE_FUNCTION_CALL, tfx_p_between(name.range, close.range));
    n->as.call.name = (const char *)name.bytes;
    n->as.call.nname = name.nbytes;
    n->as.call.args = tfx_p_finish(p, &args, sizeof(node_ptr));
    n->as.call.nargs = n->as.call.args != NULL ? nargs : 0;
    n->as.call.expand_final = expand;
    n->as.call.name_range = name.range;
    n->as.call.open_range = open.range;
    n->as.call.close_range = close.range;
    return n;
}

/* `[` items `]`, or a tuple for expression [gram.tuple]. */
static tfx_node *parse_tuple(parser *p)
{
    tfx_token open = tfx_p_read(p);
    tfx_token close;
    vec items = {0};
    tfx_node *n;
    size_t nitems;

    tfx_p_push_newlines(p, false);
    if (tfx_p_peek_keyword(p, "for")) {
        n = parse_for(p, open);
        tfx_p_pop_newlines(p);
        return n;
    }
    for (;;) {
        tfx_token next;
        tfx_node *item;
        size_t mark;

        if (tfx_p_peek_kind(p) == TFX_TOK_CBRACK) {
            close = tfx_p_read(p);
            break;
        }
        mark = tfx_p_mark(p);
        item = tfx_p_expression(p);
        tfx_p_push(p, &items, &item, sizeof(node_ptr));
        if (p->recovery && tfx_p_errors_since(p, mark)) {
            close = tfx_p_recover(p, TFX_TOK_CBRACK);
            break;
        }
        if (tfx_p_peek_kind(p) == TFX_TOK_CBRACK) {
            close = tfx_p_read(p);
            break;
        }
        if (tfx_p_peek_kind(p) != TFX_TOK_COMMA) {
            next = tfx_p_peek(p);
            if (!p->recovery) {
                if (next.kind == TFX_TOK_EOF) {
                    tfx_p_error(p, TFX_CAT_UNTERMINATED, "Unterminated tuple constructor expression",
                                &open.range, NULL, "The input ends before the closing bracket of this tuple.");
                } else {
                    tfx_range ctx = tfx_p_between(open.range, next.range);

                    tfx_p_error(p, TFX_CAT_MISSING_TOKEN, "Missing item separator", &next.range, &ctx,
                                "Items of a tuple are separated by commas.");
                }
            }
            close = tfx_p_recover(p, TFX_TOK_CBRACK);
            break;
        }
        tfx_p_skip(p);
    }
    tfx_p_pop_newlines(p);
    nitems = items.n;
    n = tfx_p_node(p, TFX_NODE_TUPLE_CONS, tfx_p_between(open.range, close.range));
    n->as.tuple.items = tfx_p_finish(p, &items, sizeof(node_ptr));
    n->as.tuple.nitems = n->as.tuple.items != NULL ? nitems : 0;
    return n;
}

/* `{` key = value ... `}` with newlines significant, or an object for
 * expression [gram.object]. */
static tfx_node *parse_object(parser *p)
{
    tfx_token open = tfx_p_read(p);
    tfx_token close;
    vec items = {0};
    tfx_node *n;
    bool is_for;
    size_t nitems;

    tfx_p_push_newlines(p, false);
    is_for = tfx_p_peek_keyword(p, "for");
    tfx_p_pop_newlines(p);
    if (is_for) {
        tfx_p_push_newlines(p, false);
        n = parse_for(p, open);
        tfx_p_pop_newlines(p);
        return n;
    }
    tfx_p_push_newlines(p, true);
    for (;;) {
        tfx_token_kind next_kind = tfx_p_peek_kind(p);
        tfx_token next;
        tfx_object_item item;
        tfx_node *key;
        bool force;
        size_t mark;

        if (next_kind == TFX_TOK_NEWLINE) {
            tfx_p_skip(p);
            continue;
        }
        if (next_kind == TFX_TOK_CBRACE) {
            close = tfx_p_read(p);
            break;
        }
        force = next_kind == TFX_TOK_OPAREN;
        mark = tfx_p_mark(p);
        key = tfx_p_expression(p);
        if (p->recovery && tfx_p_errors_since(p, mark)) {
            close = tfx_p_recover(p, TFX_TOK_CBRACE);
            break;
        }
        item.key = tfx_p_node(p, TFX_NODE_OBJECT_CONS_KEY, key->range);
        item.key->as.key.wrapped = key;
        item.key->as.key.force_non_literal = force;
        next_kind = tfx_p_peek_kind(p);
        if (next_kind != TFX_TOK_EQUAL && next_kind != TFX_TOK_COLON) {
            next = tfx_p_peek(p);
            if (!p->recovery) {
                tfx_range ctx = tfx_p_between(open.range, next.range);

                if (next.kind == TFX_TOK_NEWLINE || next.kind == TFX_TOK_COMMA)
                    tfx_p_error(p, TFX_CAT_MISSING_TOKEN, "Missing attribute value", &next.range, &ctx,
                                "An attribute's value follows an equals sign (\"=\").");
                else if (next.kind == TFX_TOK_IDENT)
                    tfx_p_error(p, TFX_CAT_MISSING_TOKEN, "Missing key/value separator", &next.range, &ctx,
                                "An equals sign (\"=\") must come between a key and its value; a key "
                                "with spaces or dots in it must be quoted.");
                else if (next.kind == TFX_TOK_EOF)
                    tfx_p_error(p, TFX_CAT_UNTERMINATED, "Unterminated object constructor expression",
                                &open.range, NULL, "The input ends before the closing brace of this object.");
                else
                    tfx_p_error(p, TFX_CAT_MISSING_TOKEN, "Missing key/value separator", &next.range, &ctx,
                                "An equals sign (\"=\") must come between a key and its value.");
            }
            close = tfx_p_recover(p, TFX_TOK_CBRACE);
            break;
        }
        tfx_p_skip(p);
        mark = tfx_p_mark(p);
        item.value = tfx_p_expression(p);
        if (p->recovery && tfx_p_errors_since(p, mark)) {
            close = tfx_p_recover(p, TFX_TOK_CBRACE);
            break;
        }
        tfx_p_push(p, &items, &item, sizeof(tfx_object_item));
        next_kind = tfx_p_peek_kind(p);
        if (next_kind == TFX_TOK_CBRACE) {
            close = tfx_p_read(p);
            break;
        }
        if (next_kind != TFX_TOK_COMMA && next_kind != TFX_TOK_NEWLINE) {
            next = tfx_p_peek(p);
            if (!p->recovery) {
                if (next.kind == TFX_TOK_EOF) {
                    tfx_p_error(p, TFX_CAT_UNTERMINATED, "Unterminated object constructor expression",
                                &open.range, NULL, "The input ends before the closing brace of this object.");
                } else {
                    tfx_range ctx = tfx_p_between(open.range, next.range);

                    tfx_p_error(p, TFX_CAT_MISSING_TOKEN, "Missing attribute separator", &next.range, &ctx,
                                "Attributes are separated by newlines or commas.");
                }
            }
            close = tfx_p_recover(p, TFX_TOK_CBRACE);
            break;
        }
        tfx_p_skip(p);
    }
    tfx_p_pop_newlines(p);
    nitems = items.n;
    n = tfx_p_node(p, TFX_NODE_OBJECT_CONS, tfx_p_between(open.range, close.range));
    n->as.object.items = tfx_p_finish(p, &items, sizeof(tfx_object_item));
    n->as.object.nitems = n->as.object.items != NULL ? nitems : 0;
    return n;
}

/* An error in a for expression's head: reported outside recovery, then
 * the whole expression is skipped and becomes a placeholder. */
static tfx_node *for_head_error(parser *p, tfx_token open, tfx_token_kind close_kind,
                                const char *detail)
{
    tfx_token next = tfx_p_peek(p);
    tfx_token close;

    if (!p->recovery) {
        tfx_range ctx = tfx_p_between(open.range, next.range);

        tfx_p_error(p, TFX_CAT_FOR_EXPRESSION, "Invalid 'for' expression", &next.range, &ctx,
                    "%s", detail);
    }
    close = tfx_p_recover(p, close_kind);
    return tfx_p_placeholder(p, tfx_p_between(open.range, close.range));
}

/* [ for k, v in coll : value if cond ] and
 * { for k, v in coll : key => value... if cond } [gram.for]. */
static tfx_node *parse_for(parser *p, tfx_token open)
{
    bool make_obj = open.kind == TFX_TOK_OBRACE;
    tfx_token_kind close_kind = make_obj ? TFX_TOK_CBRACE : TFX_TOK_CBRACK;
    tfx_token key_var;
    tfx_token val_var;
    bool has_key_var = false;
    tfx_node *coll;
    tfx_node *key = NULL;
    tfx_node *value;
    tfx_node *cond = NULL;
    bool group = false;
    tfx_token ellipsis;
    tfx_token close;
    tfx_node *n;
    size_t mark;
    size_t key_errors;

    memset(&key_var, 0, sizeof(key_var));
    memset(&ellipsis, 0, sizeof(ellipsis));
    tfx_p_push_newlines(p, false);
    tfx_p_skip(p); /* "for" */
    if (tfx_p_peek_kind(p) != TFX_TOK_IDENT) {
        n = for_head_error(p, open, close_kind, "The word for must be followed by a variable name.");
        goto done;
    }
    val_var = tfx_p_read(p);
    if (tfx_p_peek_kind(p) == TFX_TOK_COMMA) {
        key_var = val_var;
        has_key_var = true;
        tfx_p_skip(p);
        if (tfx_p_peek_kind(p) != TFX_TOK_IDENT) {
            n = for_head_error(p, open, close_kind, "The comma must be followed by the value's variable name.");
            goto done;
        }
        val_var = tfx_p_read(p);
    }
    if (!tfx_p_peek_keyword(p, "in")) {
        n = for_head_error(p, open, close_kind, "The variable names must be followed by the word in.");
        goto done;
    }
    tfx_p_skip(p);
    mark = tfx_p_mark(p);
    coll = tfx_p_expression(p);
    if (p->recovery && tfx_p_errors_since(p, mark)) {
        close = tfx_p_recover(p, close_kind);
        n = tfx_p_placeholder(p, tfx_p_between(open.range, close.range));
        goto done;
    }
    if (tfx_p_peek_kind(p) != TFX_TOK_COLON) {
        n = for_head_error(p, open, close_kind, "The collection must be followed by a colon.");
        goto done;
    }
    tfx_p_skip(p);
    mark = tfx_p_mark(p);
    value = tfx_p_expression(p);
    key_errors = 0;
    if (tfx_p_peek_kind(p) == TFX_TOK_FAT_ARROW) {
        tfx_p_skip(p);
        key = value;
        key_errors = tfx_p_errors_since(p, mark);
        mark = tfx_p_mark(p);
        value = tfx_p_expression(p);
    }
    if (p->recovery && (key_errors || tfx_p_errors_since(p, mark))) {
        close = tfx_p_recover(p, close_kind);
        n = tfx_p_placeholder(p, tfx_p_between(open.range, close.range));
        goto done;
    }
    if (tfx_p_peek_kind(p) == TFX_TOK_ELLIPSIS) {
        ellipsis = tfx_p_read(p);
        group = true;
    }
    if (tfx_p_peek_keyword(p, "if")) {
        tfx_p_skip(p);
        mark = tfx_p_mark(p);
        cond = tfx_p_expression(p);
        if (p->recovery && tfx_p_errors_since(p, mark)) {
            close = tfx_p_recover(p, close_kind);
            n = tfx_p_placeholder(p, tfx_p_between(open.range, close.range));
            goto done;
        }
    }
    if (tfx_p_peek_kind(p) == close_kind) {
        close = tfx_p_read(p);
    } else {
        if (!p->recovery) {
            tfx_token next = tfx_p_peek(p);
            tfx_range ctx = tfx_p_between(open.range, next.range);

            tfx_p_error(p, TFX_CAT_FOR_EXPRESSION, "Invalid 'for' expression", &next.range, &ctx,
                        "Something follows the end of the for expression.");
        }
        close = tfx_p_recover(p, close_kind);
    }
    {
        tfx_range whole = tfx_p_between(open.range, close.range);

        if (!make_obj) {
            if (key != NULL)
                tfx_p_error(p, TFX_CAT_FOR_EXPRESSION, "Invalid 'for' expression", &key->range, &whole,
                            "A tuple for expression has no key expression (=>).");
            if (group)
                tfx_p_error(p, TFX_CAT_FOR_EXPRESSION, "Invalid 'for' expression", &ellipsis.range,
                            &whole, "Grouping (...) applies to object for expressions only.");
        } else if (key == NULL) {
            tfx_p_error(p, TFX_CAT_FOR_EXPRESSION, "Invalid 'for' expression", &value->range, &whole,
                        "An object for expression needs a key expression: key => value.");
        }
    }
    n = tfx_p_node(p, TFX_NODE_FOR, tfx_p_between(open.range, close.range));
    if (has_key_var) {
        n->as.for_expr.key_var = (const char *)key_var.bytes;
        n->as.for_expr.nkey_var = key_var.nbytes;
    }
    n->as.for_expr.val_var = (const char *)val_var.bytes;
    n->as.for_expr.nval_var = val_var.nbytes;
    n->as.for_expr.coll = coll;
    n->as.for_expr.key = key;
    n->as.for_expr.value = value;
    n->as.for_expr.cond = cond;
    n->as.for_expr.group = group;
    n->as.for_expr.open_range = open.range;
    n->as.for_expr.close_range = close.range;
done:
    tfx_p_pop_newlines(p);
    return n;
}

/* ---------------------------------------------------------------------
 * Entry
 * ------------------------------------------------------------------ */

/* The lexer's reports put before the parser's, at `at`, the list's
 * length when the parse began: where tfx_lex_check made them when the
 * whole source was lexed before the parse. */
static void put_lex_diags_first(tfx_diags *diags, size_t at, const tfx_diags *lex)
{
    size_t n = diags->n + lex->n;
    tfx_diag *items;

    if (lex->out_of_memory)
        diags->out_of_memory = true;
    if (lex->n == 0)
        return;
    items = n <= SIZE_MAX / sizeof(*items) ? tfx_arena_alloc(diags->arena, n * sizeof(*items)) : NULL;
    if (items == NULL) {
        diags->out_of_memory = true;
        return;
    }
    if (at > 0)
        memcpy(items, diags->items, at * sizeof(*items));
    memcpy(items + at, lex->items, lex->n * sizeof(*items));
    if (diags->n > at)
        memcpy(items + at + lex->n, diags->items + at, (diags->n - at) * sizeof(*items));
    diags->items = items;
    diags->n = n;
    diags->cap = n;
}

static void out_of_memory(tfx_diags *diags)
{
    tfx_diags_add(diags, TFX_PHASE_PARSE, TFX_CAT_RESOURCE_LIMIT, "Out of memory", NULL, NULL,
                  "The input is too large for the memory this parse may use.");
}

static tfx_node *parse(tfx_arena *arena, const unsigned char *src, size_t nbytes,
                       tfx_lex_mode mode, size_t max_depth, tfx_diags *diags, bool general,
                       bool pn)
{
    parser p;
    tfx_node *root;
    size_t first_diag = diags->n;

    memset(&p, 0, sizeof(p));
    tfx_diags_init(&p.lexdiags, arena);
    p.lexer = tfx_lex_start(src, nbytes, mode, pn);
    if (p.lexer == NULL || !tfx_lex_step(p.lexer, 0, &p.toks, &p.lexdiags)) {
        tfx_lex_free(p.lexer);
        out_of_memory(diags);
        return NULL;
    }
    p.nl = true;
    p.general = general;
    p.pn = pn;
    p.arena = arena;
    p.scratch = tfx_arena_alloc(arena, sizeof(tfx_node));
    tfx_p_seek(&p);
    p.diags = diags;
    p.max_depth = max_depth == 0 ? TFX_DEFAULT_MAX_DEPTH : max_depth;
    root = NULL;
    if (p.scratch == NULL) {
        p.oom = true;
    } else if (mode == TFX_LEX_TEMPLATE) {
        /* [gram.template.bare] a bare template runs to the end of input */
        root = tfx_p_template(&p, TFX_TOK_EOF, false);
    } else {
        tfx_token next;

        /* [gram.top] a whole expression, newlines insignificant, and
         * nothing after it */
        tfx_p_push_newlines(&p, false);
        root = tfx_p_expression(&p);
        next = tfx_p_peek(&p);
        if (next.kind != TFX_TOK_EOF && !p.recovery)
            tfx_p_error(&p, TFX_CAT_TRAILING_INPUT, "Extra characters after expression", &next.range,
                        NULL, "A complete expression is followed by more input.");
        tfx_p_pop_newlines(&p);
    }
    /* the rest of the source, which the parse did not read, lexed for the
     * tokens that are errors in themselves */
    while (!p.lex_failed && !lexed_all(&p))
        if (!tfx_lex_step(p.lexer, p.toks.n, &p.toks, &p.lexdiags))
            p.lex_failed = true;
    tfx_lex_free(p.lexer);
    free(p.newlines.items);
    free(p.stack);
    if (p.lex_failed) {
        /* as when the source could not be lexed before the parse */
        diags->n = first_diag;
        out_of_memory(diags);
        return NULL;
    }
    put_lex_diags_first(diags, first_diag, &p.lexdiags);
    if (p.oom || diags->out_of_memory) {
        if (!diags->out_of_memory)
            out_of_memory(diags);
        return NULL;
    }
    return root;
}

tfx_node *tfx_parse(tfx_arena *arena, const unsigned char *src, size_t nbytes,
                    tfx_lex_mode mode, size_t max_depth, tfx_diags *diags)
{
    return parse(arena, src, nbytes, mode, max_depth, diags, false, false);
}

tfx_node *tfx_parse_profile(tfx_arena *arena, const unsigned char *src, size_t nbytes,
                            tfx_lex_mode mode, size_t max_depth, bool pn, tfx_diags *diags)
{
    return parse(arena, src, nbytes, mode, max_depth, diags, false, pn);
}

tfx_node *tfx_parse_general(tfx_arena *arena, const unsigned char *src, size_t nbytes,
                            tfx_lex_mode mode, size_t max_depth, tfx_diags *diags)
{
    return parse(arena, src, nbytes, mode, max_depth, diags, true, false);
}

tfx_node *tfx_parse_general_profile(tfx_arena *arena, const unsigned char *src, size_t nbytes,
                                    tfx_lex_mode mode, size_t max_depth, bool pn,
                                    tfx_diags *diags)
{
    return parse(arena, src, nbytes, mode, max_depth, diags, true, pn);
}
