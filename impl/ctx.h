/* SPDX-License-Identifier: MPL-2.0 */
/*
 * ctx.h — the memory and limits of one evaluation (spec/values.md,
 * rules limit.eval.*).
 *
 * Every type and value an evaluation makes lives in the arena of its
 * tfx_ctx and is freed with it.  Allocation never returns NULL: when the
 * arena refuses memory, or a limit is exceeded, tfx_ctx_fail jumps back to
 * the point that started the work (tfx_ctx_try), which turns it into one
 * resource.limit diagnostic.  This is Lua's error style (luaD_throw); with
 * arenas, nothing is left to clean up on the way out.  The one rule it
 * imposes: code that holds memory outside the arena (malloc'd buffers,
 * jansson objects, MPFR temporaries) must not call anything that may fail
 * while it holds it, or must set up its own tfx_ctx_try first.
 */
#ifndef TFX_CTX_H
#define TFX_CTX_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

/* The limits of one evaluation [limit.eval]; tfx_ctx_limits_init gives
 * defaults that no ordinary input reaches. */
typedef struct {
    size_t max_steps;            /* expression nodes evaluated, function calls and
                                    conversion steps (default 100,000,000) */
    size_t max_depth;            /* nesting of evaluation (default 256) */
    size_t max_string_bytes;     /* longest string made (default 64 MiB) */
    size_t max_collection_items; /* most elements of one collection (default 10,000,000) */
    size_t max_memory_bytes;     /* the arena's budget (default 1 GiB) */
} tfx_ctx_limits;

void tfx_ctx_limits_init(tfx_ctx_limits *limits);

struct tfx_host;

typedef struct tfx_ctx {
    tfx_arena *arena;
    struct tfx_host *host;    /* the outside world (host.h), or NULL: none */
    bool opentofu;            /* [flavor.table] OpenTofu's function table, for the
                                 functions that render templates themselves */
    bool pn;                  /* [profile.option] profile PN's rules (newer HCL and
                                 cty), else P14's */
    tfx_ctx_limits limits;
    size_t steps;
    size_t depth;
    jmp_buf *escape;          /* where tfx_ctx_fail jumps; NULL outside tfx_ctx_try */
    const char *fail_summary; /* set by tfx_ctx_fail */
    char fail_detail[256];
} tfx_ctx;

/* Initializes ctx with a new arena whose budget is limits->max_memory_bytes
 * (limits NULL: the defaults).  Returns false if malloc refuses even that. */
bool tfx_ctx_init(tfx_ctx *ctx, const tfx_ctx_limits *limits);

/* Frees the arena and everything in it. */
void tfx_ctx_free(tfx_ctx *ctx);

/* nbytes of zeroed memory in the ctx's arena; never NULL (fails with
 * "Memory limit exceeded" instead). */
void *tfx_ctx_alloc(tfx_ctx *ctx, size_t nbytes);

/* n * size bytes, failing on overflow as on exhaustion. */
void *tfx_ctx_alloc_array(tfx_ctx *ctx, size_t n, size_t size);

/* A NUL-terminated copy of s[0..nbytes) in the arena. */
char *tfx_ctx_strndup(tfx_ctx *ctx, const char *s, size_t nbytes);

/* printf into the arena. */
char *tfx_ctx_printf(tfx_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Abandons the work in progress: records the summary ("Memory limit
 * exceeded", "Evaluation step limit exceeded", ...) and detail, and jumps
 * to the innermost tfx_ctx_try.  Must only be called inside one. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noreturn, format(printf, 3, 4)))
#endif
void tfx_ctx_fail(tfx_ctx *ctx, const char *summary, const char *detail_fmt, ...);

/* Counts one step of work; fails when limits.max_steps is exceeded. */
void tfx_ctx_step(tfx_ctx *ctx);

/* Checks a string length / collection size against the limits. */
void tfx_ctx_check_string(tfx_ctx *ctx, size_t nbytes);
void tfx_ctx_check_items(tfx_ctx *ctx, size_t nitems);

/* Runs fn(ctx, arg) so that a tfx_ctx_fail inside it returns here: true if
 * fn completed, false if it failed (ctx->fail_summary and fail_detail say
 * why).  Nests: the previous escape point is restored on return. */
bool tfx_ctx_try(tfx_ctx *ctx, void (*fn)(tfx_ctx *ctx, void *arg), void *arg);

/* --- Text in the arena: a growable string for building messages, type
 * names, hash texts and renderings --- */

/* A growable text in the arena of ctx.  Old copies are left behind as
 * it grows (at most as many bytes as the final text). */
typedef struct {
    tfx_ctx *ctx;
    char *s;        /* NUL-terminated when not NULL */
    size_t nbytes;
    size_t cap;
} tfx_textbuf;

void tfx_textbuf_init(tfx_textbuf *b, tfx_ctx *ctx);
void tfx_textbuf_put(tfx_textbuf *b, const char *s, size_t nbytes);
void tfx_textbuf_puts(tfx_textbuf *b, const char *s);
/* One byte.  The common case, room in the buffer for the byte and the
 * NUL, is inline and does what tfx_textbuf_put(b, &c, 1) does then (no
 * growth: the byte, then the NUL after it); anything else goes there. */
static inline void tfx_textbuf_putc(tfx_textbuf *b, char c)
{
    if (b->cap - b->nbytes >= 2) {
        b->s[b->nbytes++] = c;
        b->s[b->nbytes] = '\0';
        return;
    }
    tfx_textbuf_put(b, &c, 1);
}
/* n copies of c. */
void tfx_textbuf_fill(tfx_textbuf *b, char c, size_t n);
void tfx_textbuf_printf(tfx_textbuf *b, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The text so far (never NULL: "" when nothing was put). */
const char *tfx_textbuf_text(tfx_textbuf *b);

/* Appends s[0..nbytes) quoted as Go's strconv.Quote does: in double
 * quotes; \a \b \f \n \r \t \v \\ \" escaped; other code points that are
 * not printable (tfx_text_is_print) as \xNN (below U+0080), \uNNNN or
 * \UNNNNNNNN with lower-case hex; each byte that is not UTF-8 as \xNN. */
void tfx_textbuf_quote(tfx_textbuf *b, const char *s, size_t nbytes);
/* The same, as a string in the arena. */
const char *tfx_textbuf_quoted(tfx_ctx *ctx, const char *s, size_t nbytes);

#endif /* TFX_CTX_H */
