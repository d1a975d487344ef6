/* SPDX-License-Identifier: MPL-2.0 */
/*
 * parse_internal.h — what parse.c and parse_template.c share: the parser
 * state and its token, diagnostic and memory helpers.  Not installed.
 */
#ifndef TFX_PARSE_INTERNAL_H
#define TFX_PARSE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "parse.h"

/* The element of a vec of nodes (sizeof(node_ptr)). */
typedef tfx_node *node_ptr;

/* A list being built on the parser's scratch stack, copied into the arena
 * when done (tfx_p_finish).  One stack serves every construct: a list
 * begins at the stack's top with its first item, and a construct's nested
 * lists are finished (or dropped) before it adds its next item, so the
 * lists of one moment lie in the stack one above the other.  An item is
 * written at the list's own place (base + n * size), which stays right
 * even if a nested list was dropped without tidying the top.  Offsets, not
 * pointers: the stack moves when it grows.  `{0}` is an empty list. */
typedef struct {
    size_t base;             /* byte offset of the first item (n > 0) */
    size_t n;
} vec;

/* The parser's newline-significance flags [gram.newlines], a stack of its
 * own: it is pushed and popped across the lists above. */
typedef struct {
    bool *items;
    size_t n;
    size_t cap;
} flag_stack;

typedef struct {
    tfx_arena *arena;
    tfx_lexer *lexer;        /* lexing in step with the parse */
    tfx_tokens toks;         /* the lexer's window: its readable tokens */
    tfx_diags lexdiags;      /* the lexer's reports (tfx_lex_step), which
                              * go before the parser's when it is done */
    bool lex_failed;         /* the lexer ran out of memory */
    size_t next;             /* index in the window of the next unread
                              * token; the tokens before the one before
                              * it are dropped when the window moves on */
    flag_stack newlines;     /* newlines significant? */
    bool nl;                 /* the top of that stack (true when empty) */
    bool recovery;           /* skipping after a syntax error */
    tfx_diags *diags;
    size_t depth;
    size_t max_depth;
    bool depth_reported;
    bool oom;                /* the arena refused memory */
    tfx_node *scratch;       /* handed out when the arena refuses */
    bool general;            /* the general paths only (tfx_parse_general) */
    bool pn;                 /* [profile.syntax] newer HCL's syntax (profile PN) */
    unsigned char *stack;    /* the scratch stack of lists (malloc'd) */
    size_t stack_top;        /* bytes in use */
    size_t stack_cap;
    /* Where the next significant token is for `next` and the newline
     * mode, worked out again (tfx_p_seek) whenever either changes: a token
     * is asked about many times, mostly for its kind alone, and is passed
     * once.  The token itself is read from the lexer's window when
     * wanted.  Indices in the window, which tfx_p_seek_slow moves on. */
    size_t cache_at;         /* index of the significant token */
    size_t cache_after;      /* the index after it */
    tfx_token_kind cache_kind; /* its kind (NEWLINE for a comment ending a line) */
} parser;

/* Memory: allocation in the parse's arena (NULL and oom set when it
 * refuses); nodes (never NULL: the scratch node stands in). */
static inline void *tfx_p_alloc(parser *p, size_t nbytes)
{
    void *mem = p->oom ? NULL : tfx_arena_alloc(p->arena, nbytes);

    if (mem == NULL)
        p->oom = true;
    return mem;
}

/* The same, not cleared: for memory that is written whole at once. */
static inline void *tfx_p_alloc_raw(parser *p, size_t nbytes)
{
    void *mem = p->oom ? NULL : tfx_arena_alloc_raw(p->arena, nbytes);

    if (mem == NULL)
        p->oom = true;
    return mem;
}

/* Bytes a node of each kind takes: the common header and its own member
 * of the union, no more (a literal needs 104 bytes, the largest kind 240).
 * Nodes never change kind and nothing copies a whole node, so the rest of
 * the union is never touched. */
#define TFX_P_NODE_BYTES(member) (offsetof(tfx_node, as) + sizeof(((tfx_node *)NULL)->as.member))

static inline size_t tfx_p_node_bytes(tfx_node_kind kind)
{
    switch (kind) {
    case TFX_NODE_LITERAL: return TFX_P_NODE_BYTES(literal);
    case TFX_NODE_TEMPLATE: return TFX_P_NODE_BYTES(template);
    case TFX_NODE_TEMPLATE_WRAP: return TFX_P_NODE_BYTES(wrap);
    case TFX_NODE_TEMPLATE_JOIN: return TFX_P_NODE_BYTES(join);
    case TFX_NODE_SCOPE_TRAVERSAL:
    case TFX_NODE_RELATIVE_TRAVERSAL: return TFX_P_NODE_BYTES(traversal);
    case TFX_NODE_FUNCTION_CALL: return TFX_P_NODE_BYTES(call);
    case TFX_NODE_CONDITIONAL: return TFX_P_NODE_BYTES(conditional);
    case TFX_NODE_BINARY_OP:
    case TFX_NODE_UNARY_OP: return TFX_P_NODE_BYTES(op);
    case TFX_NODE_TUPLE_CONS: return TFX_P_NODE_BYTES(tuple);
    case TFX_NODE_OBJECT_CONS: return TFX_P_NODE_BYTES(object);
    case TFX_NODE_OBJECT_CONS_KEY: return TFX_P_NODE_BYTES(key);
    case TFX_NODE_FOR: return TFX_P_NODE_BYTES(for_expr);
    case TFX_NODE_INDEX: return TFX_P_NODE_BYTES(index);
    case TFX_NODE_SPLAT: return TFX_P_NODE_BYTES(splat);
    case TFX_NODE_ANON_SYMBOL: return offsetof(tfx_node, as);
    case TFX_NODE_PARENTHESES: return TFX_P_NODE_BYTES(parens);
    case TFX_NODE_COUNT: break;
    }
    return sizeof(tfx_node);
}

/* The scratch node, cleared: what tfx_p_node gives when the arena refuses. */
tfx_node *tfx_p_scratch_node(parser *p);

/* A node of `kind`, its member of the union cleared, inline (its size is
 * known where the kind is a constant): most of a parse's allocations are
 * nodes.  The header is written whole here, so only the union is cleared. */
static inline tfx_node *tfx_p_node(parser *p, tfx_node_kind kind, tfx_range range)
{
    size_t size = tfx_p_node_bytes(kind);
    tfx_node *n = tfx_p_alloc_raw(p, size);

    if (n == NULL)
        n = tfx_p_scratch_node(p);
    else
        memset(&n->as, 0, size - offsetof(tfx_node, as));
    n->kind = kind;
    n->range = range;
    return n;
}

tfx_node *tfx_p_placeholder(parser *p, tfx_range range);
void tfx_p_literal_value(parser *p, tfx_literal *lit);

/* Lists on the scratch stack (vec): adds an item of `size` bytes (false,
 * oom set, when the stack cannot grow); the address of item i (valid until
 * the next push); the items copied into the arena (NULL for none, or when
 * the arena refuses) and the list emptied; a list given up. */
bool tfx_p_grow(parser *p, size_t at, size_t size);

/* Where a list begins: the stack's top, rounded up so that items of any
 * of the parser's types are aligned. */
#define TFX_P_STACK_ALIGN 16

static inline bool tfx_p_push(parser *p, vec *v, const void *item, size_t size)
{
    size_t at;

    if (v->n == 0)
        v->base = (p->stack_top + TFX_P_STACK_ALIGN - 1) / TFX_P_STACK_ALIGN * TFX_P_STACK_ALIGN;
    at = v->base + v->n * size;
    if ((at > p->stack_cap || p->stack_cap - at < size) && !tfx_p_grow(p, at, size))
        return false;
    memcpy(p->stack + at, item, size);
    v->n++;
    p->stack_top = at + size;
    return true;
}
static inline void *tfx_p_item(const parser *p, const vec *v, size_t size, size_t i)
{
    return p->stack + v->base + i * size;
}
static inline void tfx_p_drop(parser *p, vec *v)
{
    if (v->n > 0)
        p->stack_top = v->base;
    v->n = 0;
}

/* Inline, as most lists are finished where their item size is a constant:
 * a list of one item (a call of one argument, a tuple of one item) is then
 * copied without a call to the library's memcpy (the same bytes). */
static inline void *tfx_p_finish(parser *p, vec *v, size_t size)
{
    void *items = NULL;

    if (v->n > 0) {
        items = tfx_p_alloc_raw(p, v->n * size);
        if (items != NULL && v->n == 1)
            memcpy(items, p->stack + v->base, size);
        else if (items != NULL)
            memcpy(items, p->stack + v->base, v->n * size);
    }
    tfx_p_drop(p, v);
    return items;
}

/* Tokens [gram.newlines].  tfx_p_seek works out the cache for the
 * current position and newline mode; it runs whenever `next` or the mode
 * changes (tfx_p_advance, tfx_p_push_newlines, tfx_p_pop_newlines), and
 * the inline functions below answer from it (the common case: the same
 * token is asked about at every precedence level).  tfx_p_seek_slow is
 * the general search. */
void tfx_p_seek_slow(parser *p);

static inline void tfx_p_seek(parser *p)
{
    /* The token at `next` is the one when it is neither a comment nor a
     * newline: tfx_p_seek_slow would stop at it at once. */
    tfx_token_kind k = p->next < p->toks.n ? (tfx_token_kind)p->toks.items[p->next].kind
                                           : TFX_TOK_COMMENT;

    if (k == TFX_TOK_COMMENT || k == TFX_TOK_NEWLINE) {
        tfx_p_seek_slow(p);
        return;
    }
    p->cache_at = p->next;
    p->cache_after = p->next + 1;
    p->cache_kind = k;
}

/* Passes the next token. */
static inline void tfx_p_advance(parser *p)
{
    p->next = p->cache_after;
    tfx_p_seek(p);
}

/* The kind of the next token. */
static inline tfx_token_kind tfx_p_peek_kind(const parser *p)
{
    return p->cache_kind;
}

/* The next token, spelled out from the lexer's array.  Comments are
 * skipped; where newlines are seen, a comment that ends with one stands
 * for a newline token (its last byte; the comment's range). */
static inline tfx_token tfx_p_peek(const parser *p)
{
    tfx_token t = tfx_token_at(&p->toks, p->cache_at);

    if (t.kind != p->cache_kind) {
        t.kind = p->cache_kind;
        t.bytes += t.nbytes - 1;
        t.nbytes = 1;
    }
    return t;
}

/* Reads the next token, spelled out. */
static inline tfx_token tfx_p_read(parser *p)
{
    tfx_token t = tfx_p_peek(p);

    tfx_p_advance(p);
    return t;
}

/* The range from the start of a to the end of b: tfx_range_between,
 * inline, as the parser makes one for nearly every node. */
static inline tfx_range tfx_p_between(tfx_range a, tfx_range b)
{
    a.end = b.end;
    return a;
}

/* The range of the next token. */
static inline tfx_range tfx_p_peek_range(const parser *p)
{
    return tfx_token_at(&p->toks, p->cache_at).range;
}

/* The next token as the lexer stored it, and the range from its start to
 * the end of b: for a construct whose start is wanted after its parts
 * are read, when the token may have left the lexer's window (a copy of
 * the 20 bytes costs less than spelling the token out). */
static inline tfx_lexeme tfx_p_peek_lexeme(const parser *p)
{
    return p->toks.items[p->cache_at];
}

static inline tfx_range tfx_p_from(const tfx_lexeme *start, tfx_range b)
{
    b.start.byte = start->start;
    b.start.line = start->line;
    b.start.column = start->column;
    return b;
}

/* Reads the next token without spelling it out. */
static inline void tfx_p_skip(parser *p)
{
    tfx_p_advance(p);
}

tfx_range tfx_p_prev_range(parser *p);
bool tfx_p_is_keyword(tfx_token t, const char *kw);

/* Whether the next token is the keyword kw (spelled out only when it is
 * an identifier). */
static inline bool tfx_p_peek_keyword(const parser *p, const char *kw)
{
    return tfx_p_peek_kind(p) == TFX_TOK_IDENT && tfx_p_is_keyword(tfx_p_peek(p), kw);
}

/* The newline-significance stack [gram.newlines]: a flag pushed, and the
 * top one popped.  Only a change of mode moves the next significant
 * token (tfx_p_set_newlines); the stack grows in tfx_p_push_newlines_slow. */
void tfx_p_set_newlines(parser *p, bool include);
void tfx_p_push_newlines_slow(parser *p, bool include);

static inline void tfx_p_push_newlines(parser *p, bool include)
{
    flag_stack *f = &p->newlines;

    if (f->n == f->cap) {
        tfx_p_push_newlines_slow(p, include);
        return;
    }
    f->items[f->n++] = include;
    if (p->nl != include)
        tfx_p_set_newlines(p, include);
}

static inline void tfx_p_pop_newlines(parser *p)
{
    flag_stack *f = &p->newlines;
    bool include;

    if (f->n > 0)
        f->n--;
    include = f->n == 0 || f->items[f->n - 1];
    if (p->nl != include)
        tfx_p_set_newlines(p, include);
}
tfx_token_kind tfx_p_closer(tfx_token_kind open);

/* Diagnostics and recovery. */
void tfx_p_error(parser *p, tfx_category cat, const char *summary,
                 const tfx_range *subject, const tfx_range *context,
                 const char *detail_fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
/* A mark of the diagnostics so far, and whether any error (or a refusal
 * of memory) came after it: inline, as every construct asks. */
static inline size_t tfx_p_mark(const parser *p)
{
    return p->diags->n;
}

static inline bool tfx_p_errors_since(const parser *p, size_t mark)
{
    return p->diags->n > mark || p->diags->out_of_memory;
}

tfx_token tfx_p_recover(parser *p, tfx_token_kind end);

/* The nesting limit [limit.depth]: tfx_p_enter is false, the limit
 * reported once and recovery entered (tfx_p_too_deep), when a construct
 * would nest deeper than max_depth; else it counts one more level, which
 * tfx_p_leave gives back. */
bool tfx_p_too_deep(parser *p);

static inline bool tfx_p_enter(parser *p)
{
    if (p->depth >= p->max_depth)
        return tfx_p_too_deep(p);
    p->depth++;
    return true;
}

static inline void tfx_p_leave(parser *p)
{
    p->depth--;
}

/* Productions. */
tfx_node *tfx_p_expression(parser *p);
/* The binary operators of level `level` and above, their first operand
 * `first` read already (the diagnostics at base_mark before it). */
tfx_node *tfx_p_binary(parser *p, int level, size_t base_mark, tfx_node *first);

/* parse_template.c: the template whose parts run up to a token of kind
 * `end` (CQuote, CHeredoc, or EOF for a bare template), flush-trimmed for
 * "<<-" heredocs.  Its range runs from the first part to `end`. */
tfx_node *tfx_p_template(parser *p, tfx_token_kind end, bool flush);

#endif /* TFX_PARSE_INTERNAL_H */
