/* SPDX-License-Identifier: MPL-2.0 */
/*
 * lexdump.c — prints tfexpr's tokens or parse diagnostics in go-lexdump's
 * format, for tools/lexdiff: reads JSON lines {"what", "mode",
 * "input_base64"} on stdin and answers each with {"tokens": [[type,
 * start_byte, end_byte, start_line, start_col, end_line, end_col], ...]}
 * or, for "what": "parse", {"diagnostics": [[summary, ...subject], ...]};
 * with "profile": "PN", as profile PN lexes and parses.
 * A test tool, not installed.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lex.h"
#include "tfexpr.h"

static int b64val(int c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* Decodes base64 text into a malloc'd buffer. */
static unsigned char *b64decode(const char *s, size_t *n)
{
    size_t len = strlen(s);
    unsigned char *out = malloc(len / 4 * 3 + 3);
    unsigned int acc = 0;
    int bits = 0;
    size_t i;

    *n = 0;
    if (out == NULL)
        return NULL;
    for (i = 0; i < len; i++) {
        int v = b64val((unsigned char)s[i]);

        if (v < 0)
            continue;
        acc = (acc << 6) | (unsigned int)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[(*n)++] = (unsigned char)((acc >> bits) & 0xFF);
        }
    }
    return out;
}

int main(void)
{
    char *line = NULL;
    size_t cap = 0;

    while (getline(&line, &cap, stdin) > 0) {
        json_t *req = json_loads(line, 0, NULL);
        const char *mode = json_string_value(json_object_get(req, "mode"));
        const char *b64 = json_string_value(json_object_get(req, "input_base64"));
        const char *profile = json_string_value(json_object_get(req, "profile"));
        bool pn = profile != NULL && strcmp(profile, "PN") == 0;
        tfx_arena *arena = tfx_arena_new(0);
        tfx_tokens toks;
        size_t n;
        unsigned char *src = b64decode(b64 ? b64 : "", &n);
        json_t *rows = json_array();
        json_t *answer;
        char *text;
        size_t i;

        if (arena == NULL || src == NULL || rows == NULL) {
            tfx_arena_free(arena);
            free(src);
            json_decref(rows);
            json_decref(req);
            free(line);
            return 2;
        }
        if (json_string_value(json_object_get(req, "what")) != NULL
            && strcmp(json_string_value(json_object_get(req, "what")), "parse") == 0) {
            tfx_source *ps = tfx_source_parse_profile("case.hcl", (const char *)src, n,
                                                      mode && strcmp(mode, "template") == 0
                                                      ? TFX_MODE_TEMPLATE : TFX_MODE_EXPRESSION,
                                                      NULL, pn ? TFX_PROFILE_PN : TFX_PROFILE_P14);

            for (i = 0; ps != NULL && i < tfx_source_diagnostic_count(ps); i++) {
                const tfx_diagnostic *d = tfx_source_diagnostic(ps, i);

                if (d->has_subject)
                    json_array_append_new(rows, json_pack("[sIIIIII]", d->summary,
                        (json_int_t)d->subject.start.byte, (json_int_t)d->subject.end.byte,
                        (json_int_t)d->subject.start.line, (json_int_t)d->subject.start.column,
                        (json_int_t)d->subject.end.line, (json_int_t)d->subject.end.column));
                else
                    json_array_append_new(rows, json_pack("[s]", d->summary));
            }
            tfx_source_free(ps);
            answer = json_pack("{so}", "diagnostics", rows);
            goto reply;
        }
        if (!tfx_lex_profile(arena, src, n, mode && strcmp(mode, "template") == 0
                             ? TFX_LEX_TEMPLATE : TFX_LEX_EXPRESSION, pn, &toks)) {
            toks.n = 0;
            json_array_append_new(rows, json_string("(out of memory)"));
        } else if (pn) {
            /* [lex.pn.double-colon] */
            tfx_lex_join_double_colons(&toks);
        }
        for (i = 0; i < toks.n; i++) {
            const tfx_token tok = tfx_token_at(&toks, i);
            const tfx_token *t = &tok;

            json_array_append_new(rows, json_pack("[sIIIIII]", tfx_token_name(t->kind),
                (json_int_t)t->range.start.byte, (json_int_t)t->range.end.byte,
                (json_int_t)t->range.start.line, (json_int_t)t->range.start.column,
                (json_int_t)t->range.end.line, (json_int_t)t->range.end.column));
        }
        answer = json_pack("{so}", "tokens", rows);
reply:
        text = json_dumps(answer, JSON_COMPACT);
        puts(text);
        fflush(stdout);
        free(text);
        json_decref(answer);
        json_decref(req);
        free(src);
        tfx_arena_free(arena);
    }
    free(line);
    return 0;
}
