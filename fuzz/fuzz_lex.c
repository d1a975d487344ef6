/* SPDX-License-Identifier: MPL-2.0 */
/*
 * fuzz_lex.c — the lexer (impl/lex.h) on raw bytes, in both modes.
 *
 * Input: any bytes, lexed once as an expression and once as a bare
 * template.  Properties (abort on violation):
 *   - the tokens tile the input in order: each starts where the previous
 *     one ended or after a run of spaces and tabs (the only bytes the
 *     lexer skips; before the first token also the byte order mark), and
 *     its `bytes` pointer and length agree with its range;
 *   - the last token, and only it, is EOF, empty, at the end of the input;
 *   - positions are consistent: a token starts on the line its
 *     predecessor ended on, at its end column plus the skipped bytes; it
 *     ends as many lines further as it holds LF bytes; a cluster is at
 *     least one byte, so a token spans no more columns than bytes;
 *   - tfx_lex_check's diagnostics have known categories and ranges in
 *     bounds.
 */
#include <stdbool.h>
#include <string.h>

#include "arena.h"
#include "diag.h"
#include "fuzz_common.h"
#include "lex.h"

/* Bytes of the byte order mark the lexer skips at the start, if any. */
static size_t bom_bytes(const uint8_t *data, size_t size)
{
    return size >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF ? 3 : 0;
}

static void check_token(const uint8_t *data, size_t size, const tfx_tokens *toks, size_t i,
                        tfx_pos *prev_end)
{
    const tfx_token tok = tfx_token_at(toks, i);
    const tfx_token *t = &tok;
    const tfx_range *r = &t->range;
    size_t gap;
    size_t newlines = 0;
    size_t after_last_newline = t->nbytes;
    size_t k;

    if ((size_t)t->kind >= TFX_TOK_COUNT)
        fuzz_fail("token %zu has kind %d", i, (int)t->kind);
    fuzz_check_range(r, size, "a token's range");
    if (r->start.byte < prev_end->byte)
        fuzz_fail("token %zu (%s) starts at byte %zu, inside the previous token (ends at %zu)",
                  i, tfx_token_name(t->kind), r->start.byte, prev_end->byte);
    for (k = prev_end->byte; k < r->start.byte; k++)
        if (data[k] != ' ' && data[k] != '\t')
            fuzz_fail("byte %zu (0x%02x) before token %zu (%s) is in no token", k, data[k], i,
                      tfx_token_name(t->kind));
    gap = r->start.byte - prev_end->byte;
    if (t->bytes != data + r->start.byte || t->nbytes != r->end.byte - r->start.byte)
        fuzz_fail("token %zu (%s): its bytes (offset %td, %zu bytes) disagree with its range "
                  "%zu..%zu", i, tfx_token_name(t->kind), t->bytes - data, t->nbytes,
                  r->start.byte, r->end.byte);
    if (r->start.line != prev_end->line || r->start.column != prev_end->column + gap)
        fuzz_fail("token %zu (%s) starts at %zu:%zu, expected %zu:%zu", i,
                  tfx_token_name(t->kind), r->start.line, r->start.column, prev_end->line,
                  prev_end->column + gap);
    for (k = 0; k < t->nbytes; k++)
        if (t->bytes[k] == '\n') {
            newlines++;
            after_last_newline = t->nbytes - k - 1;
        }
    if (r->end.line - r->start.line != newlines)
        fuzz_fail("token %zu (%s) holds %zu LF bytes but spans lines %zu..%zu", i,
                  tfx_token_name(t->kind), newlines, r->start.line, r->end.line);
    if (newlines == 0) {
        size_t cols = r->end.column - r->start.column;

        if (cols > t->nbytes || (cols == 0 && t->nbytes > 0))
            fuzz_fail("token %zu (%s) of %zu bytes spans %zu columns", i,
                      tfx_token_name(t->kind), t->nbytes, cols);
    } else if (r->end.column - 1 > after_last_newline) {
        fuzz_fail("token %zu (%s) ends at column %zu, %zu bytes after its last LF", i,
                  tfx_token_name(t->kind), r->end.column, after_last_newline);
    }
    *prev_end = r->end;
}

static void lex_one(const uint8_t *data, size_t size, tfx_lex_mode mode)
{
    tfx_arena *arena = tfx_arena_new(FUZZ_MAX_MEMORY);
    tfx_tokens toks;
    tfx_diags diags;
    tfx_pos prev_end;
    size_t i;

    if (arena == NULL)
        return;
    if (!tfx_lex(arena, data, size, mode, &toks)) {
        /* only when memory runs out */
        tfx_arena_free(arena);
        return;
    }
    if (toks.n == 0)
        fuzz_fail("no tokens (not even EOF)");
    prev_end.byte = bom_bytes(data, size);
    prev_end.line = 1;
    prev_end.column = 1;
    for (i = 0; i < toks.n; i++) {
        tfx_token_kind kind = (tfx_token_kind)toks.items[i].kind;

        check_token(data, size, &toks, i, &prev_end);
        if ((kind == TFX_TOK_EOF) != (i == toks.n - 1))
            fuzz_fail("token %zu of %zu is %s", i, toks.n, tfx_token_name(kind));
    }
    if (toks.items[toks.n - 1].start != size || toks.items[toks.n - 1].end != size)
        fuzz_fail("EOF is not an empty token at the end (byte %u of %zu)",
                  (unsigned)toks.items[toks.n - 1].start, size);

    tfx_diags_init(&diags, arena);
    tfx_lex_check(&toks, &diags);
    for (i = 0; i < diags.n; i++) {
        const tfx_diag *d = &diags.items[i];

        if ((size_t)d->category >= TFX_CAT_COUNT || !fuzz_known_category(tfx_category_id(d->category)))
            fuzz_fail("lexical diagnostic %zu has an unknown category (%d)", i, (int)d->category);
        if (d->phase != TFX_PHASE_PARSE || d->severity != TFX_SEV_ERROR)
            fuzz_fail("lexical diagnostic %zu is not a parse error", i);
        if (d->has_subject)
            fuzz_check_range(&d->subject, size, "a lexical diagnostic's subject");
        if (d->has_context)
            fuzz_check_range(&d->context, size, "a lexical diagnostic's context");
    }
    tfx_arena_free(arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lex_one(data, size, TFX_LEX_EXPRESSION);
    lex_one(data, size, TFX_LEX_TEMPLATE);
    return 0;
}
