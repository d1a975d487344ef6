/* SPDX-License-Identifier: MPL-2.0 */
/*
 * ctx.c — the memory and limits of one evaluation [limit.eval].
 */
#include "ctx.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

void tfx_ctx_limits_init(tfx_ctx_limits *limits)
{
    limits->max_steps = 100000000;
    limits->max_depth = 256;
    limits->max_string_bytes = (size_t)64 << 20;
    limits->max_collection_items = 10000000;
    limits->max_memory_bytes = (size_t)1 << 30;
}

bool tfx_ctx_init(tfx_ctx *ctx, const tfx_ctx_limits *limits)
{
    memset(ctx, 0, sizeof(*ctx));
    if (limits != NULL)
        ctx->limits = *limits;
    else
        tfx_ctx_limits_init(&ctx->limits);
    ctx->arena = tfx_arena_new(ctx->limits.max_memory_bytes);
    return ctx->arena != NULL;
}

void tfx_ctx_free(tfx_ctx *ctx)
{
    tfx_arena_free(ctx->arena);
    ctx->arena = NULL;
}

void tfx_ctx_fail(tfx_ctx *ctx, const char *summary, const char *detail_fmt, ...)
{
    va_list ap;

    ctx->fail_summary = summary;
    va_start(ap, detail_fmt);
    vsnprintf(ctx->fail_detail, sizeof(ctx->fail_detail), detail_fmt, ap);
    va_end(ap);
    longjmp(*ctx->escape, 1);
}

void *tfx_ctx_alloc(tfx_ctx *ctx, size_t nbytes)
{
    void *p = tfx_arena_alloc(ctx->arena, nbytes);

    if (p == NULL)
        tfx_ctx_fail(ctx, "Memory limit exceeded",
                     "The evaluation needs more than the memory limit of %zu bytes.",
                     ctx->limits.max_memory_bytes);
    return p;
}

void *tfx_ctx_alloc_array(tfx_ctx *ctx, size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size)
        tfx_ctx_fail(ctx, "Memory limit exceeded", "An array of %zu items of %zu bytes is too large.",
                     n, size);
    return tfx_ctx_alloc(ctx, n * size);
}

char *tfx_ctx_strndup(tfx_ctx *ctx, const char *s, size_t nbytes)
{
    char *p;

    if (nbytes == SIZE_MAX)
        tfx_ctx_fail(ctx, "Memory limit exceeded", "A string is too large.");
    p = tfx_ctx_alloc(ctx, nbytes + 1);
    if (nbytes > 0)
        memcpy(p, s, nbytes);
    return p;
}

char *tfx_ctx_printf(tfx_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    int n;
    char *p;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    p = tfx_ctx_alloc(ctx, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void tfx_ctx_step(tfx_ctx *ctx)
{
    if (++ctx->steps > ctx->limits.max_steps)
        tfx_ctx_fail(ctx, "Evaluation step limit exceeded",
                     "The evaluation takes more than the limit of %zu steps.", ctx->limits.max_steps);
}

void tfx_ctx_check_string(tfx_ctx *ctx, size_t nbytes)
{
    if (nbytes > ctx->limits.max_string_bytes)
        tfx_ctx_fail(ctx, "String length limit exceeded",
                     "A string of %zu bytes is longer than the limit of %zu bytes.", nbytes,
                     ctx->limits.max_string_bytes);
}

void tfx_ctx_check_items(tfx_ctx *ctx, size_t nitems)
{
    if (nitems > ctx->limits.max_collection_items)
        tfx_ctx_fail(ctx, "Collection size limit exceeded",
                     "A collection of %zu elements is larger than the limit of %zu elements.",
                     nitems, ctx->limits.max_collection_items);
}

bool tfx_ctx_try(tfx_ctx *ctx, void (*fn)(tfx_ctx *ctx, void *arg), void *arg)
{
    jmp_buf here;
    jmp_buf *volatile outer = ctx->escape;
    volatile size_t depth = ctx->depth;

    ctx->escape = &here;
    if (setjmp(here) != 0) {
        ctx->escape = outer;
        ctx->depth = depth;
        return false;
    }
    fn(ctx, arg);
    ctx->escape = outer;
    return true;
}

/* ---- Text in an arena ---- */

void tfx_textbuf_init(tfx_textbuf *b, tfx_ctx *ctx)
{
    b->ctx = ctx;
    b->s = NULL;
    b->nbytes = 0;
    b->cap = 0;
}

/* Makes room for `extra` more bytes and the NUL. */
static void reserve(tfx_textbuf *b, size_t extra)
{
    size_t need;
    size_t cap;
    char *p;

    if (extra > SIZE_MAX - b->nbytes - 1)
        tfx_ctx_fail(b->ctx, "Memory limit exceeded", "A text is too large.");
    need = b->nbytes + extra + 1;
    if (need <= b->cap)
        return;
    cap = b->cap == 0 ? 64 : b->cap;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    p = tfx_ctx_alloc(b->ctx, cap);
    if (b->nbytes > 0)
        memcpy(p, b->s, b->nbytes);
    b->s = p;
    b->cap = cap;
}

void tfx_textbuf_put(tfx_textbuf *b, const char *s, size_t nbytes)
{
    reserve(b, nbytes);
    if (nbytes > 0)
        memcpy(b->s + b->nbytes, s, nbytes);
    b->nbytes += nbytes;
    b->s[b->nbytes] = '\0';
}

void tfx_textbuf_puts(tfx_textbuf *b, const char *s)
{
    tfx_textbuf_put(b, s, strlen(s));
}

void tfx_textbuf_fill(tfx_textbuf *b, char c, size_t n)
{
    reserve(b, n);
    memset(b->s + b->nbytes, c, n);
    b->nbytes += n;
    b->s[b->nbytes] = '\0';
}

void tfx_textbuf_printf(tfx_textbuf *b, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->s + b->nbytes, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->nbytes += (size_t)n;
}

const char *tfx_textbuf_text(tfx_textbuf *b)
{
    if (b->s == NULL)
        reserve(b, 0);
    b->s[b->nbytes] = '\0';
    return b->s;
}

/* Appends the escape of one code point that is not printable, as Go's
 * strconv.appendEscapedRune does. */
static void quote_escape(tfx_textbuf *b, int32_t cp)
{
    switch (cp) {
    case '\a': tfx_textbuf_puts(b, "\\a"); return;
    case '\b': tfx_textbuf_puts(b, "\\b"); return;
    case '\f': tfx_textbuf_puts(b, "\\f"); return;
    case '\n': tfx_textbuf_puts(b, "\\n"); return;
    case '\r': tfx_textbuf_puts(b, "\\r"); return;
    case '\t': tfx_textbuf_puts(b, "\\t"); return;
    case '\v': tfx_textbuf_puts(b, "\\v"); return;
    default: break;
    }
    if (cp < 0x20 || cp == 0x7F)
        tfx_textbuf_printf(b, "\\x%02x", (unsigned)cp);
    else if (cp < 0x10000)
        tfx_textbuf_printf(b, "\\u%04x", (unsigned)cp);
    else
        tfx_textbuf_printf(b, "\\U%08x", (unsigned)cp);
}

void tfx_textbuf_quote(tfx_textbuf *b, const char *s, size_t nbytes)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;

    tfx_textbuf_putc(b, '"');
    while (i < nbytes) {
        int32_t cp;
        size_t len = tfx_text_decode(u + i, nbytes - i, &cp);

        if (cp < 0)
            tfx_textbuf_printf(b, "\\x%02x", (unsigned)u[i]);
        else if (cp == '"' || cp == '\\') {
            tfx_textbuf_putc(b, '\\');
            tfx_textbuf_putc(b, (char)cp);
        } else if (tfx_text_is_print_profile(cp, b->ctx->pn)) /* [value.string.print.pn] */
            tfx_textbuf_put(b, s + i, len);
        else
            quote_escape(b, cp);
        i += len;
    }
    tfx_textbuf_putc(b, '"');
}

const char *tfx_textbuf_quoted(tfx_ctx *ctx, const char *s, size_t nbytes)
{
    tfx_textbuf b;

    tfx_textbuf_init(&b, ctx);
    tfx_textbuf_quote(&b, s, nbytes);
    return tfx_textbuf_text(&b);
}

