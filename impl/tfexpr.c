/* SPDX-License-Identifier: MPL-2.0 */
/*
 * tfexpr.c — the public interface (tfexpr.h) over the modules: sources,
 * limits, dumps and diagnostic rendering.
 */
#include "tfexpr.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "buf.h"
#include "diag.h"
#include "lex.h"
#include "parse.h"
#include "source.h"
#include "text.h"


TFX_API void tfx_limits_init(tfx_limits *limits)
{
    limits->max_source_bytes = (size_t)16 << 20;
    limits->max_depth = TFX_DEFAULT_MAX_DEPTH;
    limits->max_memory_bytes = (size_t)1 << 30;
}

/* The diagnostic for a parse that ran out of memory, when not even the
 * diagnostic itself could be recorded. */
static const tfx_diagnostic out_of_memory = {
    TFX_SEV_ERROR, TFX_PHASE_PARSE, "resource.limit", "Out of memory",
    "The parse needed more memory than its limit allows.", 0, {{0, 1, 1}, {0, 1, 1}},
    0, {{0, 1, 1}, {0, 1, 1}},
};

/* Copies the internal diagnostics into public ones (malloc'd, so that
 * they survive an exhausted arena).  A parse that ran out of memory
 * always ends with a resource.limit diagnostic [limit.memory]. */
static void publish_diags(tfx_source *src, const tfx_diags *d, bool out_of_mem)
{
    size_t i;
    bool have_limit = false;
    tfx_diagnostic *list = malloc((d->n + 1) * sizeof(tfx_diagnostic));

    src->has_errors = tfx_diags_has_errors(d) || out_of_mem;
    if (list == NULL) {
        src->diags = &out_of_memory;
        src->ndiags = 1;
        src->has_errors = 1;
        return;
    }
    for (i = 0; i < d->n; i++) {
        const tfx_diag *in = &d->items[i];
        tfx_diagnostic *out = &list[i];

        out->severity = in->severity;
        out->phase = in->phase;
        out->category = tfx_category_id(in->category);
        out->summary = in->summary;
        out->detail = in->detail;
        out->has_subject = in->has_subject;
        out->subject = in->subject;
        out->has_context = in->has_context;
        out->context = in->context;
        if (in->category == TFX_CAT_RESOURCE_LIMIT)
            have_limit = true;
    }
    src->ndiags = d->n;
    if ((out_of_mem || d->out_of_memory) && !have_limit)
        list[src->ndiags++] = out_of_memory;
    src->diags = list;
    src->owned = list;
}

TFX_API tfx_source *tfx_source_parse(const char *filename, const char *text, size_t nbytes,
                                     tfx_mode mode, const tfx_limits *limits)
{
    return tfx_source_parse_profile(filename, text, nbytes, mode, limits, TFX_PROFILE_DEFAULT);
}

/* [profile.option] [profile.default] */
TFX_API tfx_source *tfx_source_parse_profile(const char *filename, const char *text,
                                             size_t nbytes, tfx_mode mode,
                                             const tfx_limits *limits, tfx_profile profile)
{
    tfx_limits defaults;
    tfx_arena *arena;
    tfx_source *src;
    tfx_diags diags;

    if (limits == NULL) {
        tfx_limits_init(&defaults);
        limits = &defaults;
    }
    arena = tfx_arena_new(limits->max_memory_bytes);
    if (arena == NULL)
        return NULL;
    src = tfx_arena_alloc(arena, sizeof(*src));
    if (src == NULL) {
        tfx_arena_free(arena);
        return NULL;
    }
    src->arena = arena;
    src->profile = profile == TFX_PROFILE_P14 ? TFX_PROFILE_P14 : TFX_PROFILE_PN;
    if (filename == NULL)
        filename = "case.hcl";
    src->filename = tfx_arena_strndup(arena, filename, strlen(filename));
    tfx_diags_init(&diags, arena);
    if (nbytes > limits->max_source_bytes || nbytes > TFX_LEX_MAX_BYTES) {
        size_t limit = limits->max_source_bytes < TFX_LEX_MAX_BYTES ? limits->max_source_bytes
                                                                   : TFX_LEX_MAX_BYTES;
        tfx_range at = tfx_range_at((tfx_pos){0, 1, 1});

        src->filename = src->filename != NULL ? src->filename : "case.hcl";
        src->text = (const unsigned char *)"";
        tfx_diags_add(&diags, TFX_PHASE_PARSE, TFX_CAT_RESOURCE_LIMIT, "Input too large", &at, NULL,
                      "The input is %zu bytes, more than the limit of %zu.", nbytes,
                      limit);
        publish_diags(src, &diags, false);
        return src;
    }
    src->text = (const unsigned char *)tfx_arena_strndup(arena, text, nbytes);
    src->nbytes = nbytes;
    if (src->filename == NULL || src->text == NULL) {
        /* The budget does not even hold the text. */
        tfx_arena_free(arena);
        return NULL;
    }
    src->root = tfx_parse_profile(arena, src->text, nbytes,
                                  mode == TFX_MODE_TEMPLATE ? TFX_LEX_TEMPLATE : TFX_LEX_EXPRESSION,
                                  limits->max_depth, src->profile == TFX_PROFILE_PN, &diags);
    publish_diags(src, &diags, src->root == NULL || tfx_arena_exhausted(arena));
    return src;
}

TFX_API void tfx_source_free(tfx_source *src)
{
    if (src == NULL)
        return;
    free(src->owned);
    tfx_arena_free(src->arena);
}

TFX_API int tfx_source_has_errors(const tfx_source *src)
{
    return src->has_errors || src->root == NULL;
}

TFX_API size_t tfx_source_diagnostic_count(const tfx_source *src)
{
    return src->ndiags;
}

TFX_API const tfx_diagnostic *tfx_source_diagnostic(const tfx_source *src, size_t i)
{
    return i < tfx_source_diagnostic_count(src) ? &src->diags[i] : NULL;
}

TFX_API char *tfx_source_dump(const tfx_source *src, tfx_dump_format format)
{
    if (tfx_source_has_errors(src))
        return NULL;
    switch (format) {
    case TFX_DUMP_SEXPR: return tfx_ast_sexpr(src->root, false);
    case TFX_DUMP_SEXPR_RANGES: return tfx_ast_sexpr(src->root, true);
    case TFX_DUMP_JSON: return tfx_ast_json(src->root);
    case TFX_DUMP_SOURCE: return tfx_ast_print(src->root);
    }
    return NULL;
}

/* ---------------------------------------------------------------------
 * Rendering
 * ------------------------------------------------------------------ */

/* How much of a long line is shown on each side of the subject. */
#define CONTEXT_BYTES 80

/* Moves p forward to the start of a UTF-8 sequence (at most 3 bytes). */
static size_t to_char_start(const unsigned char *t, size_t p, size_t limit)
{
    size_t k;

    for (k = 0; k < 3 && p < limit && (t[p] & 0xC0) == 0x80; k++)
        p++;
    return p;
}

/* The part of the subject's line to show: the whole line, or at most
 * CONTEXT_BYTES before and after the subject (so that rendering stays
 * linear however long the line and however many diagnostics it has). */
static void window(const tfx_source *src, size_t at, size_t until, size_t *ws, size_t *we,
                   int *cut_before, int *cut_after)
{
    const unsigned char *t = src->text;
    size_t n = src->nbytes;
    size_t s = at > n ? n : at;
    size_t e = until < s ? s : until > n ? n : until;
    size_t lo = s > CONTEXT_BYTES ? s - CONTEXT_BYTES : 0;
    size_t hi = n - e > CONTEXT_BYTES ? e + CONTEXT_BYTES : n;

    while (s > lo && t[s - 1] != '\n')
        s--;
    *cut_before = s > 0 && t[s - 1] != '\n';
    if (*cut_before)
        s = to_char_start(t, s, at);
    /* the subject may run over lines: show up to its first line's end */
    e = at > n ? n : at;
    while (e < hi && t[e] != '\n')
        e++;
    *cut_after = e < n && t[e] != '\n';
    if (*cut_after)
        while (e > at && (t[e] & 0xC0) == 0x80)
            e--;
    if (!*cut_after && e > s && t[e - 1] == '\r')
        e--;
    *ws = s;
    *we = e;
}

TFX_API char *tfx_diagnostic_render(const tfx_source *src, const tfx_diagnostic *d)
{
    tfx_buf b = {0};

    if (d->has_subject)
        tfx_buf_printf(&b, "%s:%zu:%zu: ", src->filename, d->subject.start.line,
                       d->subject.start.column);
    else
        tfx_buf_printf(&b, "%s: ", src->filename);
    tfx_buf_printf(&b, "%s: %s [%s]\n", d->severity == TFX_SEV_ERROR ? "error" : "warning",
                   d->summary, d->category);
    if (d->has_subject && src->nbytes > 0) {
        size_t ws;
        size_t we;
        int cut_before;
        int cut_after;
        size_t i;
        size_t w;
        size_t carets = 0;
        size_t sub_start = d->subject.start.byte;
        size_t sub_end = d->subject.end.byte;
        bool pn = src->profile == TFX_PROFILE_PN;
        char num[32];

        window(src, sub_start, sub_end, &ws, &we, &cut_before, &cut_after);
        w = (size_t)snprintf(num, sizeof(num), "%zu", d->subject.start.line);
        tfx_buf_printf(&b, " %s | %s", num, cut_before ? "..." : "");
        tfx_buf_put(&b, (const char *)src->text + ws, we - ws);
        tfx_buf_printf(&b, "%s\n %*s | %s", cut_after ? "..." : "", (int)w, "",
                       cut_before ? "   " : "");
        /* spaces (tabs where the line has tabs) up to the subject, then
         * one caret per grapheme cluster of the subject on this line: the
         * clusters of the source's profile, as its columns count them
         * ([lex.pos.column], [lex.pos.column.pn]) */
        for (i = ws; i < we && i < sub_start;) {
            tfx_buf_putc(&b, src->text[i] == '\t' ? '\t' : ' ');
            i += tfx_text_grapheme_len_profile(src->text + i, we - i, pn);
        }
        for (; i < we && i < sub_end; carets++)
            i += tfx_text_grapheme_len_profile(src->text + i, we - i, pn);
        for (i = 0; i < carets || i == 0; i++)
            tfx_buf_putc(&b, '^');
        tfx_buf_putc(&b, '\n');
    }
    if (d->detail != NULL && d->detail[0] != '\0')
        tfx_buf_printf(&b, "%s\n", d->detail);
    return tfx_buf_take(&b);
}

static void json_range(tfx_buf *b, const char *key, tfx_range r)
{
    tfx_buf_printf(b, ",\"%s\":{\"start\":{\"byte\":%zu,\"line\":%zu,\"column\":%zu},"
                   "\"end\":{\"byte\":%zu,\"line\":%zu,\"column\":%zu}}", key,
                   r.start.byte, r.start.line, r.start.column, r.end.byte, r.end.line, r.end.column);
}

TFX_API char *tfx_diagnostic_json(const tfx_diagnostic *d)
{
    tfx_buf b = {0};

    tfx_buf_printf(&b, "{\"severity\":\"%s\",\"phase\":\"%s\",\"category\":\"%s\",\"summary\":\"",
                   d->severity == TFX_SEV_ERROR ? "error" : "warning",
                   d->phase == TFX_PHASE_PARSE ? "parse" : "eval", d->category);
    tfx_buf_json_escape(&b, d->summary, strlen(d->summary));
    tfx_buf_puts(&b, "\",\"detail\":\"");
    if (d->detail != NULL)
        tfx_buf_json_escape(&b, d->detail, strlen(d->detail));
    tfx_buf_putc(&b, '"');
    if (d->has_subject)
        json_range(&b, "subject", d->subject);
    if (d->has_context)
        json_range(&b, "context", d->context);
    tfx_buf_putc(&b, '}');
    return tfx_buf_take(&b);
}
