/*
 * parse_internal.h — what parse.c and parse_template.c share: the parser
 * state and its token, diagnostic and memory helpers.  Not installed.
 */
#ifndef TFX_PARSE_INTERNAL_H
#define TFX_PARSE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "parse.h"

/* The element of a vec of nodes (sizeof(node_ptr)). */
typedef tfx_node *node_ptr;

/* A growable array in malloc'd memory, copied into the arena when done. */
typedef struct {
    void *items;
    size_t n;
    size_t cap;
} vec;

typedef struct {
    tfx_arena *arena;
    tfx_tokens toks;
    size_t next;             /* index of the next unread token */
    vec newlines;            /* stack of bool: newlines significant? */
    bool nl;                 /* the top of that stack (true when empty) */
    bool recovery;           /* skipping after a syntax error */
    tfx_diags *diags;
    size_t depth;
    size_t max_depth;
    bool depth_reported;
    bool oom;                /* the arena refused memory */
    tfx_node *scratch;       /* handed out when the arena refuses */
    /* The last answer of next_token, reused while `next` and the newline
     * mode are the same: a token is peeked many times. */
    size_t cache_next;
    bool cache_newlines;
    bool cache_valid;
    size_t cache_after;
    tfx_token cache_tok;
} parser;

/* Memory: allocation in the parse's arena (NULL and oom set when it
 * refuses); nodes (never NULL: the scratch node stands in). */
void *tfx_p_alloc(parser *p, size_t nbytes);
tfx_node *tfx_p_node(parser *p, tfx_node_kind kind, tfx_range range);
tfx_node *tfx_p_placeholder(parser *p, tfx_range range);
void tfx_p_literal_value(parser *p, tfx_literal *lit);
bool tfx_p_push(parser *p, vec *v, const void *item, size_t size);
void *tfx_p_finish(parser *p, vec *v, size_t size);

/* Tokens. */
tfx_token tfx_p_peek(parser *p);
tfx_token_kind tfx_p_peek_kind_slow(parser *p);

/* The kind of the next token: answered from the cache when it holds (the
 * common case: the same token is asked about at every precedence level). */
static inline tfx_token_kind tfx_p_peek_kind(parser *p)
{
    if (p->cache_valid && p->cache_next == p->next && p->cache_newlines == p->nl)
        return p->cache_tok.kind;
    return tfx_p_peek_kind_slow(p);
}
tfx_token tfx_p_read(parser *p);
tfx_range tfx_p_prev_range(parser *p);
bool tfx_p_is_keyword(tfx_token t, const char *kw);
void tfx_p_push_newlines(parser *p, bool include);
void tfx_p_pop_newlines(parser *p);
tfx_token_kind tfx_p_closer(tfx_token_kind open);

/* Diagnostics and recovery. */
void tfx_p_error(parser *p, tfx_category cat, const char *summary,
                 const tfx_range *subject, const tfx_range *context,
                 const char *detail_fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
size_t tfx_p_mark(const parser *p);
bool tfx_p_errors_since(const parser *p, size_t mark);
tfx_token tfx_p_recover(parser *p, tfx_token_kind end);
bool tfx_p_enter(parser *p);
void tfx_p_leave(parser *p);

/* Productions. */
tfx_node *tfx_p_expression(parser *p);
tfx_node *tfx_p_binary(parser *p, int level);

/* parse_template.c: the template whose parts run up to a token of kind
 * `end` (CQuote, CHeredoc, or EOF for a bare template), flush-trimmed for
 * "<<-" heredocs.  Its range runs from the first part to `end`. */
tfx_node *tfx_p_template(parser *p, tfx_token_kind end, bool flush);

#endif /* TFX_PARSE_INTERNAL_H */
