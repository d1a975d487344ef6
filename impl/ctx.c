/*
 * ctx.c — the memory and limits of one evaluation [limit.eval].
 */
#include "ctx.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void tfx_ctx_limits_init(tfx_ctx_limits *limits)
{
    limits->max_steps = 10000000;
    limits->max_depth = 256;
    limits->max_string_bytes = (size_t)64 << 20;
    limits->max_collection_items = 1000000;
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
