/* SPDX-License-Identifier: MPL-2.0 */
/*
 * jsonio.c — the JSON boundary (jsonio.h): typed values, types and plain
 * cty JSON, in and out.
 *
 * One small JSON reader serves all three formats.  It keeps what no
 * general JSON library keeps for us: the literal text of every number
 * (cty reads numbers from their text at 512 bits), the raw text of every
 * value (the Go adapter quotes it in messages), duplicate object keys in
 * document order, NUL in strings, and Go's handling of bad text in
 * strings (bytes that are not UTF-8 and lone surrogates become U+FFFD).
 * It reports syntax errors with encoding/json's messages, in one of two
 * manners: json.Unmarshal's (the whole text must be one value) or
 * json.Decoder.Token's, which cty's json package uses.  Everything it
 * makes lives in the ctx's arena, so a resource limit that jumps out
 * leaves nothing behind.
 *
 * jansson is not needed here: its numbers lose their text and it rejects
 * what Go accepts (lone surrogates, \u0000 by default).
 */
#include "jsonio.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "refine.h"
#include "render.h"
#include "text.h"

/* ====================================================================
 * Shared helpers
 * ================================================================== */

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 0)))
#endif
static const char *vformat(tfx_ctx *ctx, const char *fmt, va_list ap)
{
    va_list copy;
    int n;
    char *p;

    va_copy(copy, ap);
    n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        n = 0;
    p = tfx_ctx_alloc(ctx, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

static void fail_memory(tfx_ctx *ctx)
{
    tfx_ctx_fail(ctx, "Memory limit exceeded",
                 "The evaluation needs more than the memory limit of %zu bytes.",
                 ctx->limits.max_memory_bytes);
}

/* Go's %q of a string. */
static const char *quoted(tfx_ctx *ctx, tfx_str s)
{
    return tfx_textbuf_quoted(ctx, s.s, s.nbytes);
}

static bool str_is(tfx_str s, const char *lit)
{
    size_t n = strlen(lit);

    return s.nbytes == n && memcmp(s.s, lit, n) == 0;
}

/* Whether s in lower case is lit (lit is lower-case ASCII; no other
 * code point lowers to an ASCII letter of "true" or "false"). */
static bool ascii_lower_is(tfx_str s, const char *lit)
{
    size_t n = strlen(lit);
    size_t i;

    if (s.nbytes != n)
        return false;
    for (i = 0; i < n; i++) {
        char c = s.s[i];

        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != lit[i])
            return false;
    }
    return true;
}

/* s normalised to NFC, in the arena [value.string.nfc] (semantics S14). */
static tfx_str nfc(tfx_ctx *ctx, tfx_str s)
{
    tfx_str out;

    out.s = tfx_text_nfc_profile(ctx->arena, s.s, s.nbytes, ctx->pn, &out.nbytes);
    if (out.s == NULL)
        fail_memory(ctx);
    return out;
}

/* [fn.jsonencode.string] Appends s[0..nbytes) as a JSON string the way
 * Go's encoding/json writes it with HTML escaping on (json.Marshal): ", \ and the control
 * characters escaped (\n \r \t short, the others \u00xx), <, > and & as
 * \u003c \u003e \u0026, U+2028 and U+2029 as \u2028 \u2029, each byte
 * that is not UTF-8 as \ufffd; DEL and everything else as it is.
 * [fn.jsonencode.string.pn] Profile PN (Go 1.22's encoding/json): \b and
 * \f short too. */
static void put_json_string(tfx_textbuf *b, const char *s, size_t nbytes)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;

    tfx_textbuf_putc(b, '"');
    while (i < nbytes) {
        unsigned char c = u[i];
        int32_t cp;
        size_t len;

        if (c < 0x80) {
            if (c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&') {
                tfx_textbuf_putc(b, (char)c);
            } else if (c == '"' || c == '\\') {
                tfx_textbuf_putc(b, '\\');
                tfx_textbuf_putc(b, (char)c);
            } else if (c == '\n') {
                tfx_textbuf_puts(b, "\\n");
            } else if (c == '\r') {
                tfx_textbuf_puts(b, "\\r");
            } else if (c == '\t') {
                tfx_textbuf_puts(b, "\\t");
            } else if ((c == '\b' || c == '\f') && b->ctx != NULL && b->ctx->pn) {
                tfx_textbuf_puts(b, c == '\b' ? "\\b" : "\\f");
            } else {
                char esc[7] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xF], '\0'};

                tfx_textbuf_puts(b, esc);
            }
            i++;
            continue;
        }
        len = tfx_text_decode(u + i, nbytes - i, &cp);
        if (cp < 0)
            tfx_textbuf_puts(b, "\\ufffd");
        else if (cp == 0x2028 || cp == 0x2029)
            tfx_textbuf_puts(b, cp == 0x2028 ? "\\u2028" : "\\u2029");
        else
            tfx_textbuf_put(b, s + i, len);
        i += len;
    }
    tfx_textbuf_putc(b, '"');
}

/* ====================================================================
 * Reading JSON text
 * ================================================================== */

typedef enum { J_NULL, J_BOOL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT } jkind;

typedef struct jnode jnode;

struct jnode {
    jkind kind;
    bool boolean;                /* BOOL */
    tfx_str text;                /* STRING: the decoded string; NUMBER: the literal */
    size_t start, end;           /* the value's raw text in the source */
    size_t n;                    /* ARRAY, OBJECT: members */
    const jnode *const *items;   /* ARRAY: elements; OBJECT: values */
    const tfx_str *keys;         /* OBJECT: keys, in document order, duplicates kept */
    bool lazy;                   /* ARRAY: items not kept (NULL); n counts them and
                                    the elements are read again from the text at
                                    start (jparser.lazy) */
};

/* An array of more elements than this is lazy when the parser's lazy is
 * set: its elements are checked but not kept. */
#define JSON_LAZY_MIN 16

typedef struct {
    tfx_ctx *ctx;
    const unsigned char *s;
    size_t nbytes;
    size_t pos;
    bool stream;        /* json.Decoder.Token's manner rather than json.Unmarshal's */
    size_t depth;
    size_t max_depth;   /* nesting of arrays and objects */
    const char *error;  /* the syntax error, encoding/json's message */
    bool lazy;          /* long arrays become lazy nodes (JSON_LAZY_MIN) */
    bool general;       /* no fast paths (tfx_json_decode_vars_general) */
    size_t skip;        /* > 0: inside a lazy array, nothing is kept: the text
                           is only checked, with the same messages */
    jnode dummy;        /* what the parser returns for values not kept */
} jparser;

/* A growing list of members, in the arena. */
typedef struct {
    const jnode **items;
    tfx_str *keys;
    size_t n;
    size_t cap;
} jlist;

static void jlist_push(tfx_ctx *ctx, jlist *l, const jnode *item, const tfx_str *key,
                       bool keep)
{
    if (!keep) {
        /* Counted only, with the limit checked at the same lengths as
         * when the list is kept (the checks do not depend on keeping). */
        if (l->n == l->cap) {
            l->cap = l->cap == 0 ? 4 : l->cap * 2;
            tfx_ctx_check_items(ctx, l->n + 1);
        }
        l->n++;
        return;
    }
    if (l->n == l->cap) {
        size_t cap = l->cap == 0 ? 4 : l->cap * 2;
        const jnode **items = tfx_ctx_alloc_array(ctx, cap, sizeof(const jnode *));
        tfx_str *keys = key == NULL ? NULL : tfx_ctx_alloc_array(ctx, cap, sizeof(*keys));

        tfx_ctx_check_items(ctx, l->n + 1);
        if (l->n > 0) {
            memcpy((void *)items, (const void *)l->items, l->n * sizeof(const jnode *));
            if (keys != NULL)
                memcpy(keys, l->keys, l->n * sizeof(*keys));
        }
        l->items = items;
        l->keys = keys;
        l->cap = cap;
    }
    l->items[l->n] = item;
    if (key != NULL)
        l->keys[l->n] = *key;
    l->n++;
}

static bool is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static int hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static void skip_space(jparser *p)
{
    while (p->pos < p->nbytes && is_space(p->s[p->pos]))
        p->pos++;
}

static bool at_end(const jparser *p)
{
    return p->pos >= p->nbytes;
}

/* encoding/json's quoteChar: a byte in single quotes, as the code point
 * of the same number, Go-quoted. */
static const char *quote_char(tfx_ctx *ctx, unsigned char c)
{
    char utf8[2];
    size_t n = 1;
    const char *q;

    if (c == '\'')
        return "'\\''";
    if (c == '"')
        return "'\"'";
    if (c < 0x80) {
        utf8[0] = (char)c;
    } else {
        utf8[0] = (char)(0xC0 | (c >> 6));
        utf8[1] = (char)(0x80 | (c & 0x3F));
        n = 2;
    }
    q = tfx_textbuf_quoted(ctx, utf8, n);
    return tfx_ctx_printf(ctx, "'%.*s'", (int)(strlen(q) - 2), q + 1);
}

/* "invalid character 'x' <context>" at the current byte. */
static const jnode *fail_char(jparser *p, const char *context)
{
    const char *c = quote_char(p->ctx, p->s[p->pos]);

    p->error = context[0] == '\0' ? tfx_ctx_printf(p->ctx, "invalid character %s", c)
                                  : tfx_ctx_printf(p->ctx, "invalid character %s %s", c, context);
    return NULL;
}

/* The end of the text inside a value.  json.Unmarshal says "unexpected
 * end of JSON input"; the Decoder says "unexpected EOF" inside a scalar
 * and "EOF" where it looks for the next token. */
static const jnode *fail_eof(jparser *p, bool in_scalar)
{
    p->error = !p->stream ? "unexpected end of JSON input" : in_scalar ? "unexpected EOF" : "EOF";
    return NULL;
}

static jnode *new_node(jparser *p, jkind kind, size_t start)
{
    jnode *node = p->skip > 0 ? &p->dummy : tfx_ctx_alloc(p->ctx, sizeof(*node));

    node->kind = kind;
    node->start = start;
    node->end = p->pos;
    return node;
}

/* The text of a string being read; b is NULL when the parser keeps
 * nothing (jparser.skip). */
static void text_put(tfx_textbuf *b, const char *s, size_t nbytes)
{
    if (b != NULL)
        tfx_textbuf_put(b, s, nbytes);
}

static void text_putc(tfx_textbuf *b, char c)
{
    if (b != NULL)
        tfx_textbuf_putc(b, c);
}

static void put_utf8(tfx_textbuf *b, int32_t cp)
{
    char out[4];

    if (cp < 0x80) {
        out[0] = (char)cp;
        text_put(b, out, 1);
    } else if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        text_put(b, out, 2);
    } else if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        text_put(b, out, 3);
    } else {
        out[0] = (char)(0xF0 | (cp >> 18));
        out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[3] = (char)(0x80 | (cp & 0x3F));
        text_put(b, out, 4);
    }
}

/* Four hex digits at s[at..), or -1 (Go's getu4 after the "\u"). */
static int32_t hex4(const jparser *p, size_t at)
{
    int32_t v = 0;
    size_t i;

    if (at > p->nbytes || p->nbytes - at < 4)
        return -1;
    for (i = 0; i < 4; i++) {
        int h = hex_value(p->s[at + i]);

        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

/* The escape at p->pos (a backslash), decoded into out as Go does: a
 * high surrogate followed by \u and a low one is one code point; any
 * other surrogate is U+FFFD. */
static bool read_escape(jparser *p, tfx_textbuf *out)
{
    int32_t cp = 0;
    size_t i;

    p->pos++;
    if (at_end(p))
        return fail_eof(p, true) != NULL;
    switch (p->s[p->pos]) {
    case '"': case '\\': case '/':
        text_putc(out, (char)p->s[p->pos++]);
        return true;
    case 'b': text_putc(out, '\b'); p->pos++; return true;
    case 'f': text_putc(out, '\f'); p->pos++; return true;
    case 'n': text_putc(out, '\n'); p->pos++; return true;
    case 'r': text_putc(out, '\r'); p->pos++; return true;
    case 't': text_putc(out, '\t'); p->pos++; return true;
    case 'u':
        break;
    default:
        return fail_char(p, "in string escape code") != NULL;
    }
    p->pos++;
    for (i = 0; i < 4; i++) {
        int h;

        if (at_end(p))
            return fail_eof(p, true) != NULL;
        h = hex_value(p->s[p->pos]);
        if (h < 0)
            return fail_char(p, "in \\u hexadecimal character escape") != NULL;
        cp = cp * 16 + h;
        p->pos++;
    }
    if (cp >= 0xD800 && cp < 0xE000) {
        int32_t low = -1;

        if (p->nbytes - p->pos >= 6 && p->s[p->pos] == '\\' && p->s[p->pos + 1] == 'u')
            low = hex4(p, p->pos + 2);
        if (cp < 0xDC00 && low >= 0xDC00 && low < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            p->pos += 6;
        } else {
            cp = 0xFFFD;
        }
    }
    put_utf8(out, cp);
    return true;
}

/* 1 for the ASCII bytes a string's text holds as they are (plain_run_end):
 * 0x20 to 0x7F but '"' (22) and '\\' (5C). */
static const unsigned char plain_ascii[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* 00 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* 10 */
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* 20 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* 30 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* 40 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,  /* 50 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* 60 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  /* 70 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* 80 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* 90 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* A0 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* B0 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* C0 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* D0 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* E0 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* F0 */
};

/* The end of the plain run of a string's text from s[at]: the bytes
 * parse_string_general copies as they are — ASCII from 0x20 other than
 * '"' and '\\', and whole valid UTF-8 sequences (tfx_text_decode, the
 * decoder of the general path).  It stops at a quote, a backslash, a
 * control character, a byte that is not UTF-8 or the end of the text. */
static size_t plain_run_end(const jparser *p, size_t at)
{
    const unsigned char *s = p->s;
    size_t n = p->nbytes;

    for (;;) {
        int32_t cp;
        size_t len;

        while (at < n && plain_ascii[s[at]])
            at++;
        if (at >= n || s[at] < 0x80)
            return at;
        len = tfx_text_decode(s + at, n - at, &cp);
        if (cp < 0)
            return at;
        at += len;
    }
}

/* [fn.jsondecode.result] Fast path of parse_string for a string whose
 * whole text is one plain run (no escape, no control character, no bad
 * UTF-8), as nearly all are: found in one scan, copied with one memcpy
 * (nothing is copied when the parser keeps nothing).  parse_string_general
 * would copy each of those bytes unchanged into its buffer and stop at
 * the same closing quote, so the node is the same.  NULL (p untouched)
 * when the string is not of that kind. */
static const jnode *parse_plain_string(jparser *p)
{
    size_t start = p->pos;
    size_t end = plain_run_end(p, start + 1);
    size_t n = end - (start + 1);
    jnode *node;

    if (end >= p->nbytes || p->s[end] != '"')
        return NULL;
    p->pos = end + 1;
    node = new_node(p, J_STRING, start);
    if (p->skip == 0) {
        node->text.s = tfx_ctx_strndup(p->ctx, (const char *)p->s + start + 1, n);
        node->text.nbytes = n;
    }
    return node;
}

static const jnode *parse_string_general(jparser *p);

/* A string at p->pos (the opening quote). */
static const jnode *parse_string(jparser *p)
{
    const jnode *node = p->general ? NULL : parse_plain_string(p);

    return node != NULL ? node : parse_string_general(p);
}

/* The same, a byte or an escape at a time: every string. */
static const jnode *parse_string_general(jparser *p)
{
    size_t start = p->pos;
    tfx_textbuf text;
    tfx_textbuf *out;
    jnode *node;

    tfx_textbuf_init(&text, p->ctx);
    out = p->skip > 0 ? NULL : &text;
    p->pos++;
    for (;;) {
        unsigned char c;

        if (at_end(p))
            return fail_eof(p, true);
        c = p->s[p->pos];
        if (c == '"')
            break;
        if (c == '\\') {
            if (!read_escape(p, out))
                return NULL;
        } else if (c < 0x20) {
            return fail_char(p, "in string literal");
        } else if (c < 0x80) {
            text_putc(out, (char)c);
            p->pos++;
        } else {
            int32_t cp;
            size_t len = tfx_text_decode(p->s + p->pos, p->nbytes - p->pos, &cp);

            if (cp < 0)
                text_put(out, "\xEF\xBF\xBD", 3);
            else
                text_put(out, (const char *)p->s + p->pos, len);
            p->pos += len;
        }
    }
    p->pos++;
    node = new_node(p, J_STRING, start);
    if (out != NULL) {
        node->text.s = tfx_textbuf_text(out);
        node->text.nbytes = out->nbytes;
    }
    return node;
}

/* Digits at p->pos after a sign, point or exponent that needs one. */
static bool need_digit(jparser *p, const char *context)
{
    if (at_end(p))
        return fail_eof(p, true) != NULL;
    if (!is_digit(p->s[p->pos]))
        return fail_char(p, context) != NULL;
    while (!at_end(p) && is_digit(p->s[p->pos]))
        p->pos++;
    return true;
}

/* A number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, kept as text. */
static const jnode *parse_number(jparser *p)
{
    size_t start = p->pos;
    jnode *node;

    if (p->s[p->pos] == '-')
        p->pos++;
    if (!at_end(p) && p->s[p->pos] == '0') {
        p->pos++;
    } else if (!need_digit(p, "in numeric literal")) {
        return NULL;
    }
    if (!at_end(p) && p->s[p->pos] == '.') {
        p->pos++;
        if (!need_digit(p, "after decimal point in numeric literal"))
            return NULL;
    }
    if (!at_end(p) && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
        p->pos++;
        if (!at_end(p) && (p->s[p->pos] == '+' || p->s[p->pos] == '-'))
            p->pos++;
        if (!need_digit(p, "in exponent of numeric literal"))
            return NULL;
    }
    node = new_node(p, J_NUMBER, start);
    node->text.s = (const char *)p->s + start;
    node->text.nbytes = p->pos - start;
    return node;
}

/* true, false or null, whose first letter is at p->pos. */
static const jnode *parse_literal(jparser *p, const char *word, jkind kind)
{
    size_t start = p->pos;
    size_t i;
    jnode *node;

    p->pos++;
    for (i = 1; word[i] != '\0'; i++) {
        if (at_end(p))
            return fail_eof(p, true);
        if (p->s[p->pos] != (unsigned char)word[i])
            return fail_char(p, tfx_ctx_printf(p->ctx, "in literal %s (expecting '%c')", word,
                                               word[i]));
        p->pos++;
    }
    node = new_node(p, kind, start);
    node->boolean = word[0] == 't';
    return node;
}

static const jnode *parse_value(jparser *p);

static void enter(jparser *p)
{
    if (++p->depth > p->max_depth)
        tfx_ctx_fail(p->ctx, "Nesting too deep",
                     "The JSON text nests arrays and objects deeper than the limit of %zu levels.",
                     p->max_depth);
}

static const jnode *parse_array(jparser *p)
{
    size_t start = p->pos;
    jlist items = {NULL, NULL, 0, 0};
    bool lazy = false;
    jnode *node;

    enter(p);
    p->pos++;
    skip_space(p);
    if (at_end(p))
        return fail_eof(p, false);
    if (p->s[p->pos] == ']') {
        p->pos++;
    } else {
        for (;;) {
            const jnode *item = parse_value(p);

            if (item == NULL)
                return NULL;
            jlist_push(p->ctx, &items, item, NULL, p->skip == 0);
            if (p->lazy && p->skip == 0 && items.n == JSON_LAZY_MIN) {
                lazy = true;   /* the rest is only checked */
                p->skip++;
            }
            skip_space(p);
            if (at_end(p))
                return fail_eof(p, false);
            if (p->s[p->pos] == ']') {
                p->pos++;
                break;
            }
            if (p->s[p->pos] != ',')
                return fail_char(p, "after array element");
            p->pos++;
        }
    }
    p->depth--;
    if (lazy)
        p->skip--;
    node = new_node(p, J_ARRAY, start);
    node->n = items.n;
    node->items = lazy ? NULL : items.items;
    node->lazy = lazy;
    return node;
}

static const jnode *parse_object(jparser *p)
{
    size_t start = p->pos;
    jlist members = {NULL, NULL, 0, 0};
    jnode *node;

    enter(p);
    p->pos++;
    skip_space(p);
    if (at_end(p))
        return fail_eof(p, false);
    if (p->s[p->pos] == '}') {
        p->pos++;
    } else {
        bool first = true;

        for (;;) {
            const jnode *key;
            const jnode *value;

            /* The Decoder's token state right after '{' has no context
             * in its message. */
            if (p->s[p->pos] != '"')
                return fail_char(p, first && p->stream ? ""
                                                       : "looking for beginning of object key string");
            key = parse_string(p);
            if (key == NULL)
                return NULL;
            skip_space(p);
            if (at_end(p))
                return fail_eof(p, false);
            if (p->s[p->pos] != ':')
                return fail_char(p, "after object key");
            p->pos++;
            value = parse_value(p);
            if (value == NULL)
                return NULL;
            jlist_push(p->ctx, &members, value, &key->text, p->skip == 0);
            skip_space(p);
            if (at_end(p))
                return fail_eof(p, false);
            if (p->s[p->pos] == '}') {
                p->pos++;
                break;
            }
            if (p->s[p->pos] != ',')
                return fail_char(p, "after object key:value pair");
            p->pos++;
            skip_space(p);
            if (at_end(p))
                return fail_eof(p, false);
            first = false;
        }
    }
    p->depth--;
    node = new_node(p, J_OBJECT, start);
    node->n = members.n;
    node->items = members.items;
    node->keys = members.keys;
    return node;
}

static const jnode *parse_value(jparser *p)
{
    skip_space(p);
    if (at_end(p))
        return fail_eof(p, false);
    switch (p->s[p->pos]) {
    case '{': return parse_object(p);
    case '[': return parse_array(p);
    case '"': return parse_string(p);
    case 't': return parse_literal(p, "true", J_BOOL);
    case 'f': return parse_literal(p, "false", J_BOOL);
    case 'n': return parse_literal(p, "null", J_NULL);
    default:
        if (p->s[p->pos] == '-' || is_digit(p->s[p->pos]))
            return parse_number(p);
        return fail_char(p, "looking for beginning of value");
    }
}

/* One JSON value filling the text.  stream: read as cty's json package
 * reads with a Decoder: after the value, data that begins with ] or } is
 * ignored, other data is "extraneous data after JSON object". */
static const jnode *parse_json_lazy(tfx_ctx *ctx, const char *json, size_t nbytes, bool stream,
                                    size_t max_depth, bool lazy, bool general,
                                    const char **error)
{
    jparser p;
    const jnode *v;

    memset(&p, 0, sizeof(p));
    p.lazy = lazy;
    p.general = general;
    p.ctx = ctx;
    p.s = (const unsigned char *)json;
    p.nbytes = nbytes;
    p.stream = stream;
    p.max_depth = max_depth;
    v = parse_value(&p);
    if (v != NULL) {
        skip_space(&p);
        if (!at_end(&p)) {
            if (!stream)
                v = fail_char(&p, "after top-level value");
            else if (p.s[p.pos] != ']' && p.s[p.pos] != '}') {
                p.error = "extraneous data after JSON object";
                v = NULL;
            }
        }
    }
    if (v == NULL)
        *error = stream ? p.error
                        : tfx_ctx_printf(ctx, "invalid JSON at byte %zu: %s", p.pos, p.error);
    return v;
}

/* The same, every array kept. */
static const jnode *parse_json(tfx_ctx *ctx, const char *json, size_t nbytes, bool stream,
                               size_t max_depth, const char **error)
{
    return parse_json_lazy(ctx, json, nbytes, stream, max_depth, false, false, error);
}

/* The nesting of arrays and objects allowed in a JSON text [limit.depth]:
 * the depth limit for plain JSON (a level of JSON is a level of value);
 * for a typed value two levels for each level of value (the node and its
 * payload) and some for types.  Upstream has no limit (Go's decoder
 * stops at 10000 levels); ours keeps the recursion over the text and the
 * values it makes bounded. */
static size_t json_max_depth(const tfx_ctx *ctx, bool typed)
{
    size_t d = ctx->limits.max_depth == 0 ? 256 : ctx->limits.max_depth;

    if (!typed)
        return d;
    return d > (SIZE_MAX - 2) / 2 ? SIZE_MAX : 2 * d + 2;
}

/* The member `key` of an object node (the last one, as Go's maps keep
 * it), or NULL. */
static const jnode *member(const jnode *obj, const char *key)
{
    size_t i = obj->n;

    while (i > 0) {
        i--;
        if (str_is(obj->keys[i], key))
            return obj->items[i];
    }
    return NULL;
}

/* The members of an object as Go's map[string]T holds them: sorted by
 * key bytes, the last of duplicate keys winning. */
typedef struct {
    tfx_str key;
    const jnode *value;
    size_t index;
} jmember;

static int member_cmp(const void *a, const void *b)
{
    const jmember *x = a;
    const jmember *y = b;
    int c = tfx_str_cmp(x->key, y->key);

    if (c != 0)
        return c;
    return x->index < y->index ? -1 : x->index > y->index ? 1 : 0;
}

static size_t unique_members(tfx_ctx *ctx, const jnode *obj, const jmember **out)
{
    jmember *m = tfx_ctx_alloc_array(ctx, obj->n + 1, sizeof(*m));
    size_t i;
    size_t n = 0;

    for (i = 0; i < obj->n; i++) {
        m[i].key = obj->keys[i];
        m[i].value = obj->items[i];
        m[i].index = i;
    }
    if (obj->n > 1)
        qsort(m, obj->n, sizeof(*m), member_cmp);
    for (i = 0; i < obj->n; i++) {
        if (i + 1 < obj->n && tfx_str_cmp(m[i].key, m[i + 1].key) == 0)
            continue;
        m[n++] = m[i];
    }
    *out = m;
    return n;
}

/* The name encoding/json gives the kind of a JSON value in its type
 * errors. */
static const char *kind_name(const jnode *n)
{
    switch (n->kind) {
    case J_BOOL: return "bool";
    case J_NUMBER: return "number";
    case J_STRING: return "string";
    case J_ARRAY: return "array";
    case J_OBJECT: return "object";
    default: return "null";
    }
}

/* ====================================================================
 * Types in cty's JSON type syntax
 * ================================================================== */

/* A type as the JSON spells it, optional attributes included (tfx_type
 * has none: they exist only to be refused with the right message). */
typedef struct jtype jtype;

struct jtype {
    tfx_type_kind kind;
    const jtype *elem;            /* LIST, SET, MAP */
    size_t n;                     /* TUPLE, OBJECT */
    const jtype **elems;
    const tfx_str *names;         /* OBJECT: NFC, sorted, distinct */
    size_t nopt;
    const tfx_str *opt;           /* OBJECT: optional names, NFC, sorted, distinct */
};

/* What a decoding needs: the ctx, the source text (for raw fragments in
 * messages) and the first error. */
typedef struct {
    tfx_ctx *ctx;
    const char *src;
    size_t nsrc;
    tfx_ctx *tmp;         /* for what the decoding needs only while it reads
                             the current element (the ctx itself, or the
                             scratch of the lazy array being read) */
    bool general;         /* its parsers take no fast path */
    struct leaf_cache *leaves;   /* leaf_value's cache, made for the first
                                    lazy array; NULL before and on the
                                    general path */
    bool pn;              /* profile PN's json.ImpliedType (duplicate keys) */
    const char *error;
} decoder;

static bool fail(decoder *d, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static bool fail(decoder *d, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    d->error = vformat(d->ctx, fmt, ap);
    va_end(ap);
    return false;
}

static void decoder_init(decoder *d, tfx_ctx *ctx, const char *json, size_t nbytes)
{
    d->ctx = ctx;
    d->src = json;
    d->nsrc = nbytes;
    d->tmp = ctx;
    d->general = false;
    d->leaves = NULL;
    d->pn = false;
    d->error = NULL;
}

/* The raw text of a value. */
static const char *raw_text(decoder *d, const jnode *n)
{
    return tfx_ctx_strndup(d->ctx, d->src + n->start, n->end - n->start);
}

/* The raw text of a value cut to 60 bytes (the Go adapter's
 * abbreviate). */
static const char *abbreviated(decoder *d, const jnode *n)
{
    size_t len = n->end - n->start;

    if (len <= 60)
        return raw_text(d, n);
    return tfx_ctx_printf(d->ctx, "%.60s\xE2\x80\xA6", d->src + n->start);
}

/* A lazy array node (jnode.lazy) read again with its elements kept, in
 * d->tmp; any other node as it is.  For the small arrays of types and
 * marks, which the decoder reads by index. */
static const jnode *kept(decoder *d, const jnode *n)
{
    jparser p;
    const jnode *v;

    if (!n->lazy)
        return n;
    memset(&p, 0, sizeof(p));
    p.ctx = d->tmp;
    p.general = d->general;
    p.s = (const unsigned char *)d->src;
    p.nbytes = d->nsrc;
    p.pos = n->start;
    p.max_depth = SIZE_MAX;   /* the text was checked with the limit */
    v = parse_value(&p);
    return v != NULL ? v : n; /* not reached: the text was checked */
}

static jtype *jtype_new(decoder *d, tfx_type_kind kind)
{
    jtype *t = tfx_ctx_alloc(d->ctx, sizeof(*t));

    t->kind = kind;
    return t;
}

static const jtype *decode_jtype(decoder *d, const jnode *node);

/* A sorted, distinct list of NFC names; a later duplicate replaces an
 * earlier one (its index is kept in order[] when given). */
typedef struct {
    tfx_str name;
    size_t index;
} named;

static int named_cmp(const void *a, const void *b)
{
    const named *x = a;
    const named *y = b;
    int c = tfx_str_cmp(x->name, y->name);

    if (c != 0)
        return c;
    return x->index < y->index ? -1 : x->index > y->index ? 1 : 0;
}

/* Sorts names[0..n) by name, keeping for each name its last occurrence;
 * returns the new count. */
static size_t sort_distinct(named *names, size_t n)
{
    size_t i;
    size_t out = 0;

    if (n > 1)
        qsort(names, n, sizeof(*names), named_cmp);
    for (i = 0; i < n; i++) {
        if (i + 1 < n && tfx_str_cmp(names[i].name, names[i + 1].name) == 0)
            continue;
        names[out++] = names[i];
    }
    return out;
}

/* ["object", {name: type, ...}, [optional names]?]: the attribute map
 * decoded as encoding/json decodes a map[string]cty.Type (null: none),
 * the optional names as a []string (null elements are ""). */
static const jtype *decode_jtype_object(decoder *d, const jnode *arr)
{
    const jnode *atys = arr->items[1];
    jtype *t = jtype_new(d, TFX_TYPE_OBJECT);
    named *names = NULL;
    const jtype **types = NULL;
    const jtype **sorted_types;
    tfx_str *sorted_names;
    size_t n = 0;
    size_t i;

    if (atys->kind == J_OBJECT) {
        names = tfx_ctx_alloc_array(d->ctx, atys->n + 1, sizeof(*names));
        types = tfx_ctx_alloc_array(d->ctx, atys->n + 1, sizeof(const jtype *));
        for (i = 0; i < atys->n; i++) {
            types[i] = decode_jtype(d, atys->items[i]);
            if (types[i] == NULL)
                return NULL;
            names[i].name = nfc(d->ctx, atys->keys[i]);
            names[i].index = i;
        }
        n = sort_distinct(names, atys->n);
    } else if (atys->kind != J_NULL) {
        fail(d, "json: cannot unmarshal %s into Go value of type map[string]cty.Type",
             kind_name(atys));
        return NULL;
    }
    sorted_names = tfx_ctx_alloc_array(d->ctx, n + 1, sizeof(*sorted_names));
    sorted_types = tfx_ctx_alloc_array(d->ctx, n + 1, sizeof(const jtype *));
    for (i = 0; i < n; i++) {
        sorted_names[i] = names[i].name;
        sorted_types[i] = types[names[i].index];
    }
    t->n = n;
    t->names = sorted_names;
    t->elems = sorted_types;
    if (arr->n >= 3) {
        const jnode *opt = kept(d, arr->items[2]);
        named *on;
        tfx_str *sorted_opt;

        if (opt->kind != J_ARRAY && opt->kind != J_NULL) {
            fail(d, "json: cannot unmarshal %s into Go value of type []string", kind_name(opt));
            return NULL;
        }
        on = tfx_ctx_alloc_array(d->ctx, opt->n + 1, sizeof(*on));
        for (i = 0; i < opt->n; i++) {
            const jnode *o = opt->items[i];

            if (o->kind != J_STRING && o->kind != J_NULL) {
                fail(d, "json: cannot unmarshal %s into Go value of type string", kind_name(o));
                return NULL;
            }
            on[i].name = o->kind == J_STRING ? nfc(d->ctx, o->text) : (tfx_str){"", 0};
            on[i].index = i;
        }
        /* cty's ObjectWithOptionalAttrs panics on an optional name that
         * is not an attribute. */
        for (i = 0; i < opt->n; i++) {
            size_t j;
            bool found = false;

            for (j = 0; j < n && !found; j++)
                found = tfx_str_cmp(on[i].name, sorted_names[j]) == 0;
            if (!found) {
                fail(d, "optional contains undeclared attribute %s", quoted(d->ctx, on[i].name));
                return NULL;
            }
        }
        t->nopt = sort_distinct(on, opt->n);
        sorted_opt = tfx_ctx_alloc_array(d->ctx, t->nopt + 1, sizeof(*sorted_opt));
        for (i = 0; i < t->nopt; i++)
            sorted_opt[i] = on[i].name;
        t->opt = sorted_opt;
    }
    return t;
}

/* ["tuple", [type, ...]]: a []cty.Type (null: no elements). */
static const jtype *decode_jtype_tuple(decoder *d, const jnode *arr)
{
    const jnode *etys = kept(d, arr->items[1]);
    jtype *t = jtype_new(d, TFX_TYPE_TUPLE);
    size_t i;

    if (etys->kind != J_ARRAY && etys->kind != J_NULL) {
        fail(d, "json: cannot unmarshal %s into Go value of type []cty.Type", kind_name(etys));
        return NULL;
    }
    t->n = etys->n;
    t->elems = tfx_ctx_alloc_array(d->ctx, etys->n + 1, sizeof(const jtype *));
    for (i = 0; i < etys->n; i++) {
        t->elems[i] = decode_jtype(d, etys->items[i]);
        if (t->elems[i] == NULL)
            return NULL;
    }
    return t;
}

/* [kind, ...]: cty's Type.UnmarshalJSON on an array. */
static const jtype *decode_jtype_complex(decoder *d, const jnode *arr)
{
    tfx_str kind;
    const jtype *t;
    size_t max = 2;

    if (arr->n == 0 || arr->items[0]->kind != J_STRING) {
        fail(d, "invalid complex type kind name");
        return NULL;
    }
    kind = arr->items[0]->text;
    if (!str_is(kind, "list") && !str_is(kind, "map") && !str_is(kind, "set")
        && !str_is(kind, "object") && !str_is(kind, "tuple")) {
        fail(d, "invalid complex type kind name");
        return NULL;
    }
    if (arr->n < 2) {
        fail(d, "expected comma after array element");
        return NULL;
    }
    if (str_is(kind, "object")) {
        t = decode_jtype_object(d, arr);
        max = 3;
    } else if (str_is(kind, "tuple")) {
        t = decode_jtype_tuple(d, arr);
    } else {
        jtype *c = jtype_new(d, str_is(kind, "list") ? TFX_TYPE_LIST
                                : str_is(kind, "map") ? TFX_TYPE_MAP : TFX_TYPE_SET);

        c->elem = decode_jtype(d, arr->items[1]);
        if (c->elem == NULL)
            return NULL;
        t = c;
    }
    if (t == NULL)
        return NULL;
    if (arr->n > max) {
        fail(d, "unexpected extra data in type description");
        return NULL;
    }
    return t;
}

/* A type: cty's Type.UnmarshalJSON, with its messages.  Object
 * attribute names are normalised to NFC [type.object.names]. */
static const jtype *decode_jtype(decoder *d, const jnode *node)
{
    switch (node->kind) {
    case J_STRING:
        if (str_is(node->text, "bool"))
            return jtype_new(d, TFX_TYPE_BOOL);
        if (str_is(node->text, "number"))
            return jtype_new(d, TFX_TYPE_NUMBER);
        if (str_is(node->text, "string"))
            return jtype_new(d, TFX_TYPE_STRING);
        if (str_is(node->text, "dynamic"))
            return jtype_new(d, TFX_TYPE_DYNAMIC);
        fail(d, "invalid primitive type name %s", quoted(d->ctx, node->text));
        return NULL;
    case J_ARRAY:
        return decode_jtype_complex(d, kept(d, node));
    case J_OBJECT:
        fail(d, "invalid complex type description");
        return NULL;
    default:
        fail(d, "invalid type description");
        return NULL;
    }
}

/* The tfx_type of a decoded type, optional attributes included when
 * `optional` (else dropped). */
static const tfx_type *jtype_type(tfx_ctx *ctx, const jtype *t, bool optional)
{
    const tfx_type **elems;
    bool *opt = NULL;
    size_t i;

    switch (t->kind) {
    case TFX_TYPE_DYNAMIC: return &tfx_type_dynamic;
    case TFX_TYPE_BOOL: return &tfx_type_bool;
    case TFX_TYPE_NUMBER: return &tfx_type_number;
    case TFX_TYPE_STRING: return &tfx_type_str;
    case TFX_TYPE_CAPSULE: return &tfx_type_type; /* not reached: never decoded */
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_MAP:
        return tfx_type_collection(ctx, t->kind, jtype_type(ctx, t->elem, optional));
    case TFX_TYPE_TUPLE:
    case TFX_TYPE_OBJECT:
        break;
    }
    elems = tfx_ctx_alloc_array(ctx, t->n + 1, sizeof(const tfx_type *));
    for (i = 0; i < t->n; i++)
        elems[i] = jtype_type(ctx, t->elems[i], optional);
    if (t->kind == TFX_TYPE_TUPLE)
        return tfx_type_tuple(ctx, elems, t->n);
    if (optional && t->nopt > 0) {
        /* both name lists are sorted: a merge */
        size_t k = 0;

        opt = tfx_ctx_alloc_array(ctx, t->n + 1, sizeof *opt);
        for (i = 0; i < t->n; i++) {
            while (k < t->nopt && tfx_str_cmp(t->opt[k], t->names[i]) < 0)
                k++;
            opt[i] = k < t->nopt && tfx_str_cmp(t->opt[k], t->names[i]) == 0;
        }
    }
    return tfx_type_object_optional(ctx, t->names, elems, opt, t->n);
}

/* The first object type with optional attributes in t, searching as the
 * Go adapter's optionalAttrsPath does (an object, then its attributes in
 * name order; tuple elements in order; a collection's element). */
static const jtype *find_optional(const jtype *t)
{
    size_t i;

    switch (t->kind) {
    case TFX_TYPE_OBJECT:
        if (t->nopt > 0)
            return t;
        /* fall through */
    case TFX_TYPE_TUPLE:
        for (i = 0; i < t->n; i++) {
            const jtype *found = find_optional(t->elems[i]);

            if (found != NULL)
                return found;
        }
        return NULL;
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_MAP:
        return find_optional(t->elem);
    default:
        return NULL;
    }
}

static const char *primitive_json(tfx_type_kind kind)
{
    switch (kind) {
    case TFX_TYPE_BOOL: return "\"bool\"";
    case TFX_TYPE_NUMBER: return "\"number\"";
    case TFX_TYPE_STRING: return "\"string\"";
    default: return "\"dynamic\"";
    }
}

static const char *collection_json(tfx_type_kind kind)
{
    return kind == TFX_TYPE_LIST ? "[\"list\"," : kind == TFX_TYPE_SET ? "[\"set\"," : "[\"map\",";
}

/* Type.MarshalJSON: "string", ["list",T], ["object",{...}] with the
 * attributes in byte order [type.object.names], ["tuple",[...]].  cty
 * cannot marshal a capsule type; tfexpr writes its name ("type"), which
 * its readers refuse [type.capsule]. */
static void put_type(tfx_textbuf *b, const tfx_type *t)
{
    size_t i;

    switch (t->kind) {
    case TFX_TYPE_CAPSULE:
        put_json_string(b, t->name, strlen(t->name));
        return;
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_MAP:
        tfx_textbuf_puts(b, collection_json(t->kind));
        put_type(b, t->elem);
        tfx_textbuf_putc(b, ']');
        return;
    case TFX_TYPE_TUPLE:
        tfx_textbuf_puts(b, "[\"tuple\",[");
        for (i = 0; i < t->n; i++) {
            if (i > 0)
                tfx_textbuf_putc(b, ',');
            put_type(b, t->elems[i]);
        }
        tfx_textbuf_puts(b, "]]");
        return;
    case TFX_TYPE_OBJECT:
        tfx_textbuf_puts(b, "[\"object\",{");
        for (i = 0; i < t->n; i++) {
            if (i > 0)
                tfx_textbuf_putc(b, ',');
            put_json_string(b, t->names[i].s, t->names[i].nbytes);
            tfx_textbuf_putc(b, ':');
            put_type(b, t->elems[i]);
        }
        tfx_textbuf_putc(b, '}');
        if (t->optional != NULL) {
            /* a type constraint's optional attributes, as a third element */
            bool first = true;

            tfx_textbuf_puts(b, ",[");
            for (i = 0; i < t->n; i++) {
                if (!t->optional[i])
                    continue;
                if (!first)
                    tfx_textbuf_putc(b, ',');
                put_json_string(b, t->names[i].s, t->names[i].nbytes);
                first = false;
            }
            tfx_textbuf_putc(b, ']');
        }
        tfx_textbuf_putc(b, ']');
        return;
    default:
        tfx_textbuf_puts(b, primitive_json(t->kind));
        return;
    }
}

/* The same for a decoded type, with its optional attributes, for
 * messages. */
static void put_jtype(tfx_textbuf *b, const jtype *t)
{
    size_t i;

    switch (t->kind) {
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_MAP:
        tfx_textbuf_puts(b, collection_json(t->kind));
        put_jtype(b, t->elem);
        tfx_textbuf_putc(b, ']');
        return;
    case TFX_TYPE_TUPLE:
        tfx_textbuf_puts(b, "[\"tuple\",[");
        for (i = 0; i < t->n; i++) {
            if (i > 0)
                tfx_textbuf_putc(b, ',');
            put_jtype(b, t->elems[i]);
        }
        tfx_textbuf_puts(b, "]]");
        return;
    case TFX_TYPE_OBJECT:
        tfx_textbuf_puts(b, "[\"object\",{");
        for (i = 0; i < t->n; i++) {
            if (i > 0)
                tfx_textbuf_putc(b, ',');
            put_json_string(b, t->names[i].s, t->names[i].nbytes);
            tfx_textbuf_putc(b, ':');
            put_jtype(b, t->elems[i]);
        }
        tfx_textbuf_putc(b, '}');
        if (t->nopt > 0) {
            tfx_textbuf_puts(b, ",[");
            for (i = 0; i < t->nopt; i++) {
                if (i > 0)
                    tfx_textbuf_putc(b, ',');
                put_json_string(b, t->opt[i].s, t->opt[i].nbytes);
            }
            tfx_textbuf_putc(b, ']');
        }
        tfx_textbuf_putc(b, ']');
        return;
    default:
        tfx_textbuf_puts(b, primitive_json(t->kind));
        return;
    }
}

static const char *type_json(tfx_ctx *ctx, const tfx_type *t)
{
    tfx_textbuf b;

    tfx_textbuf_init(&b, ctx);
    put_type(&b, t);
    return tfx_textbuf_text(&b);
}

static const char *jtype_json(tfx_ctx *ctx, const jtype *t)
{
    tfx_textbuf b;

    tfx_textbuf_init(&b, ctx);
    put_jtype(&b, t);
    return tfx_textbuf_text(&b);
}

const char *tfx_json_encode_type(tfx_ctx *ctx, const tfx_type *t, size_t *nbytes)
{
    tfx_textbuf b;

    tfx_textbuf_init(&b, ctx);
    put_type(&b, t);
    if (nbytes != NULL)
        *nbytes = b.nbytes;
    return tfx_textbuf_text(&b);
}

const tfx_type *tfx_json_decode_type(tfx_ctx *ctx, const char *json, size_t nbytes,
                                     const char **error)
{
    decoder d;
    const jnode *node = parse_json(ctx, json, nbytes, false, json_max_depth(ctx, true), error);
    const jtype *t;
    const jtype *opt;

    if (node == NULL)
        return NULL;
    decoder_init(&d, ctx, json, nbytes);
    t = decode_jtype(&d, node);
    if (t == NULL) {
        *error = tfx_ctx_printf(ctx, "invalid type %s: %s", abbreviated(&d, node), d.error);
        return NULL;
    }
    opt = find_optional(t);
    if (opt != NULL) {
        *error = tfx_ctx_printf(ctx,
                                "type %s has optional attributes (in %s), which the case format "
                                "cannot express",
                                abbreviated(&d, node), jtype_json(ctx, opt));
        return NULL;
    }
    return jtype_type(ctx, t, false);
}

const tfx_type *tfx_json_decode_constraint(tfx_ctx *ctx, const char *json, size_t nbytes,
                                           const char **error)
{
    decoder d;
    const jnode *node = parse_json(ctx, json, nbytes, false, json_max_depth(ctx, true), error);
    const jtype *t;

    if (node == NULL)
        return NULL;
    decoder_init(&d, ctx, json, nbytes);
    t = decode_jtype(&d, node);
    if (t == NULL) {
        *error = tfx_ctx_printf(ctx, "invalid type %s: %s", abbreviated(&d, node), d.error);
        return NULL;
    }
    return jtype_type(ctx, t, true);
}

/* ====================================================================
 * Typed values in: the Go adapter's decodeTypedValue
 * ================================================================== */

/* Where a node is, for messages ("variables.x[3].name"): made as the
 * decoder descends, on the stack, and written out only when a message
 * needs it. */
typedef struct jpath jpath;

struct jpath {
    const jpath *parent;    /* NULL: the root */
    const char *root;       /* the root's text */
    char step;              /* '[': [index]; 'k': [quoted key]; '.': .key */
    size_t index;
    tfx_str key;
};

static void jpath_put(decoder *d, tfx_textbuf *b, const jpath *p)
{
    if (p->parent == NULL) {
        tfx_textbuf_puts(b, p->root);
        return;
    }
    jpath_put(d, b, p->parent);
    if (p->step == '[')
        tfx_textbuf_printf(b, "[%zu]", p->index);
    else if (p->step == 'k')
        tfx_textbuf_printf(b, "[%s]", quoted(d->ctx, p->key));
    else
        tfx_textbuf_printf(b, ".%.*s", (int)p->key.nbytes, p->key.s);
}

static const char *jpath_text(decoder *d, const jpath *p)
{
    tfx_textbuf b;

    tfx_textbuf_init(&b, d->ctx);
    jpath_put(d, &b, p);
    return tfx_textbuf_text(&b);
}

static jpath jpath_child(const jpath *parent, char step, size_t index, tfx_str key)
{
    jpath c;

    c.parent = parent;
    c.root = NULL;
    c.step = step;
    c.index = index;
    c.key = key;
    return c;
}

static const tfx_value *decode_node(decoder *d, const jnode *node, const tfx_type *ty,
                                    const jpath *path);

/* A node must be an object of the fields the format has (nodeFields). */
static bool node_fields(decoder *d, const jnode *node, const jpath *path)
{
    size_t i;

    if (node->kind != J_OBJECT)
        return fail(d, "%s: a node must be a JSON object", jpath_text(d, path));
    for (i = 0; i < node->n; i++) {
        tfx_str k = node->keys[i];

        if (!str_is(k, "type") && !str_is(k, "v") && !str_is(k, "null")
            && !str_is(k, "unknown") && !str_is(k, "marks") && !str_is(k, "refinements"))
            return fail(d, "%s: unknown node field %s", jpath_text(d, path), quoted(d->ctx, k));
    }
    return true;
}

static const tfx_value *decode_child(decoder *d, const jnode *node, const tfx_type *ty,
                                     const jpath *path)
{
    if (!node_fields(d, node, path))
        return NULL;
    return decode_node(d, node, ty, path);
}

/* "null" or "unknown": absent is 0, true is 1, anything else malformed
 * (-1). */
static int true_flag(decoder *d, const jnode *node, const char *name, const jpath *path)
{
    const jnode *flag = member(node, name);
    tfx_str s;

    if (flag == NULL)
        return 0;
    if (flag->kind == J_BOOL && flag->boolean)
        return 1;
    s.s = name;
    s.nbytes = strlen(name);
    fail(d, "%s: %s must be true when present", jpath_text(d, path), quoted(d->ctx, s));
    return -1;
}

/* "marks": an array of non-empty strings (a null element reads as ""). */
static bool decode_marks(decoder *d, const jnode *node, const jpath *path,
                         const tfx_marks **out)
{
    const jnode *marks = member(node, "marks");
    const tfx_marks *set = NULL;
    size_t i;

    *out = NULL;
    if (marks == NULL)
        return true;
    marks = kept(d, marks);
    if (marks->kind != J_ARRAY)
        return fail(d, "%s: \"marks\" must be an array of strings", jpath_text(d, path));
    for (i = 0; i < marks->n; i++)
        if (marks->items[i]->kind != J_STRING && marks->items[i]->kind != J_NULL)
            return fail(d, "%s: \"marks\" must be an array of strings", jpath_text(d, path));
    for (i = 0; i < marks->n; i++) {
        const jnode *m = marks->items[i];

        if (m->kind == J_NULL || m->text.nbytes == 0)
            return fail(d, "%s: a mark name must not be empty", jpath_text(d, path));
        set = tfx_marks_union(d->ctx, set, tfx_marks_one(d->ctx, m->text.s, m->text.nbytes));
    }
    *out = set;
    return true;
}

/* The README's number syntax: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool number_syntax(tfx_str s)
{
    size_t i = 0;
    size_t start;

    if (i < s.nbytes && s.s[i] == '-')
        i++;
    if (i < s.nbytes && s.s[i] == '0') {
        i++;
    } else {
        if (i >= s.nbytes || s.s[i] < '1' || s.s[i] > '9')
            return false;
        while (i < s.nbytes && is_digit((unsigned char)s.s[i]))
            i++;
    }
    if (i < s.nbytes && s.s[i] == '.') {
        start = ++i;
        while (i < s.nbytes && is_digit((unsigned char)s.s[i]))
            i++;
        if (i == start)
            return false;
    }
    if (i < s.nbytes && (s.s[i] == 'e' || s.s[i] == 'E')) {
        i++;
        if (i < s.nbytes && (s.s[i] == '+' || s.s[i] == '-'))
            i++;
        start = i;
        while (i < s.nbytes && is_digit((unsigned char)s.s[i]))
            i++;
        if (i == start)
            return false;
    }
    return i == s.nbytes;
}

/* A number from text as cty.ParseNumberVal reads it (512 bits,
 * [num.parse]); NULL if it cannot. */
static const tfx_value *parse_number_value(tfx_ctx *ctx, tfx_str text)
{
    const tfx_num *num = NULL;
    tfx_num_err err = tfx_num_parse_n(ctx->arena, text.s, text.nbytes, &num);

    if (err == TFX_NUM_ERR_NOMEM)
        fail_memory(ctx);
    if (err != TFX_NUM_OK)
        return NULL;
    return tfx_value_number(ctx, num);
}

static const tfx_value *infinity(tfx_ctx *ctx, bool negative)
{
    const tfx_num *num = tfx_num_from_double(ctx->arena, negative ? -HUGE_VAL : HUGE_VAL);

    if (num == NULL)
        fail_memory(ctx);
    return tfx_value_number(ctx, num);
}

/* A number payload: "inf", "-inf" or the decimal syntax, rounded to 512
 * bits; "-0" is a negative zero (decodeNumber). */
static const tfx_value *decode_number(decoder *d, tfx_str s, const jpath *path)
{
    const tfx_value *v;

    if (str_is(s, "inf"))
        return infinity(d->ctx, false);
    if (str_is(s, "-inf"))
        return infinity(d->ctx, true);
    if (!number_syntax(s)) {
        fail(d,
             "%s: %s is not a number (decimal digits, optional fraction and exponent, or "
             "inf/-inf)",
             jpath_text(d, path), quoted(d->ctx, s));
        return NULL;
    }
    v = parse_number_value(d->ctx, s);
    if (v == NULL)
        fail(d, "%s: %s cannot be read as a number: a number is required", jpath_text(d, path),
             quoted(d->ctx, s));
    return v;
}

/* Whether two types are equal, the same one first (the decoder gives the
 * values it makes the types of the type it reads). */
static bool same_type(const tfx_type *a, const tfx_type *b)
{
    return a == b || tfx_type_equal(a, b);
}

/* The elements of a list, set or map under a dynamic element type may
 * give themselves types; they must agree (sameTypes).  Returns the
 * common type. */
static const tfx_type *same_types(decoder *d, const tfx_value *const *items, size_t n,
                                  const jpath *path)
{
    size_t i;

    for (i = 1; i < n; i++) {
        if (!same_type(items[i]->type, items[0]->type)) {
            fail(d, "%s: the elements have different types (%s, then %s at element %zu)", jpath_text(d, path),
                 type_json(d->ctx, items[0]->type), type_json(d->ctx, items[i]->type), i);
            return NULL;
        }
    }
    return items[0]->type;
}

/* Where a lazy array's elements are read: an arena of their own, freed
 * and made again every LAZY_SCRATCH_BYTES, so that the text of a long
 * array is never held as nodes all at once.  A finalizer of the ctx's
 * arena frees it when the decoding stops half-way. */
#define LAZY_SCRATCH_BYTES ((size_t)1 << 20)

typedef struct {
    tfx_arena *arena;
} scratch_box;

static void scratch_free(void *p)
{
    scratch_box *box = p;

    tfx_arena_free(box->arena);
    box->arena = NULL;
}

/* What is left of the ctx's memory budget (0: no budget), for the
 * scratch arena. */
static size_t scratch_budget(const tfx_ctx *ctx)
{
    size_t max = ctx->limits.max_memory_bytes;
    size_t used = tfx_arena_used(ctx->arena);

    if (max == 0)
        return 0;
    return max > used ? max - used : 1;
}

/* The next element of a lazy array, read by parse_value in the parser's
 * ctx (tfx_ctx_try: the scratch ctx has a failure message of its own). */
typedef struct {
    jparser *p;
    const jnode *node;
} next_job;

static void parse_next(tfx_ctx *ctx, void *arg)
{
    next_job *job = arg;

    (void)ctx;
    skip_space(job->p);
    if (!at_end(job->p) && job->p->s[job->p->pos] == ',')
        job->p->pos++;
    job->node = parse_value(job->p);
}

/* Whether the text at *at is lit; if so, *at moves past it. */
static bool text_is(const jparser *p, size_t *at, const char *lit)
{
    size_t n = strlen(lit);

    if (p->nbytes - *at < n || memcmp(p->s + *at, lit, n) != 0)
        return false;
    *at += n;
    return true;
}

static const tfx_value *collection_value(decoder *d, const tfx_type *ty, const tfx_value **items,
                                         size_t n, bool one_type, const jpath *path);
static const tfx_value *object_value(decoder *d, const tfx_type *ty, const tfx_value **vals);
static bool decode_direct(decoder *d, const jparser *p, size_t *at, const tfx_type *ty,
                          const jpath *path, const tfx_value **out);

/* A leaf value decode_direct made, by its payload's text. */
typedef struct leaf_entry {
    tfx_type_kind kind;       /* TFX_TYPE_STRING or TFX_TYPE_NUMBER */
    const char *text;         /* the payload's bytes, in the source text */
    size_t nbytes;
    const tfx_value *value;   /* NULL: an empty slot */
} leaf_entry;

/* Slots of the cache (a power of two), and the longest payload kept: the
 * values that repeat in long arrays are short (names, tags, small
 * numbers). */
#define LEAF_CACHE_SLOTS 4096
#define LEAF_CACHE_MAX_BYTES 64

/* The cache is tried on this many payloads of a kind; it goes on for
 * that kind only if at least one in LEAF_CACHE_MIN_HIT of them was found
 * there (else its hashing costs more than it saves). */
#define LEAF_CACHE_TRIAL 4096
#define LEAF_CACHE_MIN_HIT 8

/* The entries, and per kind (0 string, 1 number) the payloads looked up
 * and found. */
typedef struct leaf_cache {
    leaf_entry slots[LEAF_CACHE_SLOTS];
    size_t tries[2];
    size_t hits[2];
} leaf_cache;

/* A payload's slot: FNV-1a of its bytes and kind. */
static size_t leaf_slot(tfx_type_kind kind, tfx_str text)
{
    uint64_t h = 1469598103934665603u ^ (uint64_t)kind;

    for (size_t i = 0; i < text.nbytes; i++) {
        h ^= (unsigned char)text.s[i];
        h *= 1099511628211u;
    }
    return (size_t)(h ^ (h >> 32)) & (LEAF_CACHE_SLOTS - 1);
}

/* [value.string.nfc] [num.parse] direct_leaf's value of a string or number
 * payload text, as decode_payload decodes a JSON string of those bytes. */
static const tfx_value *leaf_value_general(decoder *d, const tfx_type *ty, tfx_str text,
                                           const jpath *path)
{
    if (ty->kind == TFX_TYPE_NUMBER)
        return decode_number(d, text, path);
    return tfx_value_string(d->ctx, text.s, text.nbytes);
}

/* [value.string.nfc] [num.parse] Fast path of leaf_value_general: the
 * value made earlier in this decoding from the same payload bytes for
 * the same kind of leaf, when the cache (one entry per slot, the latest)
 * holds it; a kind of leaf that seldom repeats stops using the cache after
 * LEAF_CACHE_TRIAL payloads.  decode_number and tfx_value_string make a value from the
 * text alone (the ctx's profile and limits do not change during a
 * decoding), unmarked and immutable, so the value made earlier is equal
 * in every respect to the one they would make again; sharing it saves its
 * memory where values repeat.  Failures are not cached: they are made
 * again, with their messages.  test_jsonio compares the decoder with its
 * general path, which has no cache, on random arrays whose leaves
 * repeat. */
static const tfx_value *leaf_value(decoder *d, const tfx_type *ty, tfx_str text,
                                   const jpath *path)
{
    leaf_cache *c = d->leaves;
    size_t k = ty->kind == TFX_TYPE_NUMBER;
    leaf_entry *e;
    const tfx_value *v;

    if (c == NULL || text.nbytes > LEAF_CACHE_MAX_BYTES
        || (c->tries[k] >= LEAF_CACHE_TRIAL && c->hits[k] * LEAF_CACHE_MIN_HIT < c->tries[k]))
        return leaf_value_general(d, ty, text, path);
    c->tries[k]++;
    e = &c->slots[leaf_slot(ty->kind, text)];
    if (e->value != NULL && e->kind == ty->kind && e->nbytes == text.nbytes
        && memcmp(e->text, text.s, text.nbytes) == 0) {
        c->hits[k]++;
        return e->value;
    }
    v = leaf_value_general(d, ty, text, path);
    if (v != NULL) {
        e->kind = ty->kind;
        e->text = text.s;
        e->nbytes = text.nbytes;
        e->value = v;
    }
    return v;
}

/* decode_direct's payload of a string or a number: "TEXT", TEXT a plain
 * run (plain_run_end), decoded as decode_payload decodes a JSON string of
 * those bytes.  A string over the length limit is left to the general
 * path, which may find another error first. */
static bool direct_leaf(decoder *d, const jparser *p, size_t *at, const tfx_type *ty,
                        const jpath *path, const tfx_value **out)
{
    size_t end;
    tfx_str text;

    if (!text_is(p, at, "\""))
        return false;
    end = plain_run_end(p, *at);
    text.s = (const char *)p->s + *at;
    text.nbytes = end - *at;
    if (!text_is(p, &end, "\"") || text.nbytes > d->ctx->limits.max_string_bytes)
        return false;
    *at = end;
    *out = leaf_value(d, ty, text, path);
    return *out != NULL;
}

/* decode_direct's payload of a list or set: [NODE,NODE,...] with no
 * spaces, each element decoded directly, in order as decode_array does;
 * then the value as decode_collection makes it. */
static bool direct_collection(decoder *d, const jparser *p, size_t *at, const tfx_type *ty,
                              const jpath *path, const tfx_value **out)
{
    const tfx_value **items = NULL;
    size_t n = 0;
    size_t cap = 0;

    if (!text_is(p, at, "["))
        return false;
    while (!text_is(p, at, "]")) {
        jpath child = jpath_child(path, '[', n, (tfx_str){"", 0});

        if (n > 0 && !text_is(p, at, ","))
            return false;
        if (n == cap) {
            const tfx_value **grown;

            cap = cap == 0 ? 4 : cap * 2;
            grown = tfx_ctx_alloc_array(d->tmp, cap + 1, sizeof(const tfx_value *));
            if (n > 0)
                memcpy((void *)grown, (const void *)items, n * sizeof(const tfx_value *));
            items = grown;
        }
        if (!decode_direct(d, p, at, ty->elem, &child, &items[n]))
            return false;
        n++;
    }
    *out = collection_value(d, ty, items, n, false, path);
    return *out != NULL;
}

/* decode_direct's payload of an object: {"NAME":NODE,...} with no spaces,
 * the type's attributes each once in the type's (byte) order, every name a
 * plain run equal to the attribute's; decode_object would find every key
 * an attribute and none missing, and decode the values in the same order;
 * then the value as decode_object makes it. */
static bool direct_object(decoder *d, const jparser *p, size_t *at, const tfx_type *ty,
                          const jpath *path, const tfx_value **out)
{
    const tfx_value **vals;
    size_t i;

    if (!text_is(p, at, "{"))
        return false;
    vals = tfx_ctx_alloc_array(d->tmp, ty->n + 1, sizeof(const tfx_value *));
    for (i = 0; i < ty->n; i++) {
        jpath child = jpath_child(path, '.', 0, ty->names[i]);
        size_t end;

        if ((i > 0 && !text_is(p, at, ",")) || !text_is(p, at, "\""))
            return false;
        end = plain_run_end(p, *at);
        if (end - *at != ty->names[i].nbytes
            || memcmp(p->s + *at, ty->names[i].s, ty->names[i].nbytes) != 0)
            return false;
        *at = end;
        if (!text_is(p, at, "\":") || !decode_direct(d, p, at, ty->elems[i], &child, &vals[i]))
            return false;
    }
    if (!text_is(p, at, "}"))
        return false;
    *out = object_value(d, ty, vals);
    return true;
}

/* [value.string.nfc] [num.parse] Fast path of decode_child for a node at
 * *at written exactly {"v":PAYLOAD} (no "type", marks, "null" or
 * "unknown", no spaces, no escapes in its strings) whose type ty is a
 * string, a number, a list or set of such, or an object of such, its
 * attributes in the type's order: decoded straight from the text, with no
 * nodes made.  decode_child would read the same members and strings from
 * that text, find the node's fields in order, and decode the payload with
 * the same calls in the same order (direct_leaf, direct_collection,
 * direct_object say which), so the value is the same.  false when the
 * node is not of that form or its decoding fails (*at is then anywhere in
 * it, and what was decoded is dropped): the caller reads the node again by
 * the general path, which reports the error it finds first (an object's
 * unknown attribute, say, before an earlier attribute's bad number). */
static bool decode_direct(decoder *d, const jparser *p, size_t *at, const tfx_type *ty,
                          const jpath *path, const tfx_value **out)
{
    bool ok;

    if (!text_is(p, at, "{\"v\":"))
        return false;
    switch (ty->kind) {
    case TFX_TYPE_STRING:
    case TFX_TYPE_NUMBER:
        ok = direct_leaf(d, p, at, ty, path, out);
        break;
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
        ok = direct_collection(d, p, at, ty, path, out);
        break;
    case TFX_TYPE_OBJECT:
        ok = direct_object(d, p, at, ty, path, out);
        break;
    default:
        return false;
    }
    return ok && text_is(p, at, "}");
}

/* An element of a lazy array by decode_direct, after the spaces and the
 * comma before it; p moves past it when it was decoded. */
static bool decode_element_direct(decoder *d, jparser *p, const tfx_type *ty, const jpath *path,
                                  const tfx_value **out)
{
    size_t at = p->pos;

    while (at < p->nbytes && is_space(p->s[at]))
        at++;
    if (at < p->nbytes && p->s[at] == ',')
        at++;
    while (at < p->nbytes && is_space(p->s[at]))
        at++;
    if (!decode_direct(d, p, &at, ty, path, out))
        return false;
    p->pos = at;
    return true;
}

/* [value.list] Keeps *one_type true while items[i] has the type of
 * items[0] by address: checked as each item is made, while it is in the
 * cache, rather than by a later pass over every item (same_types). */
static void note_type(const tfx_value **items, size_t i, bool *one_type)
{
    if (items[i]->type != items[0]->type)
        *one_type = false;
}

/* Decodes the elements of a lazy array (jnode.lazy) into items, reading
 * them one at a time from the text into scratch nodes; *one_type tells
 * whether they all have the type of the first by address (note_type).  The text was
 * checked by the parse that made raw, so reading it again gives the same
 * elements as a kept array holds (only memory can run out). */
static bool decode_lazy_items(decoder *d, const jnode *raw, const tfx_type *ty,
                              const jpath *path, const tfx_value **items, bool *one_type)
{
    bool tuple = ty->kind == TFX_TYPE_TUPLE;
    scratch_box *box = tfx_ctx_alloc(d->ctx, sizeof(*box));
    tfx_ctx *outer = d->tmp;
    tfx_ctx scratch;
    jparser p;
    size_t i;
    bool ok = true;

    box->arena = NULL;
    if (!tfx_arena_finalizer(d->ctx->arena, scratch_free, box))
        fail_memory(d->ctx);
    if (d->leaves == NULL && !d->general)
        d->leaves = tfx_ctx_alloc(d->ctx, sizeof(leaf_cache));
    memset(&p, 0, sizeof(p));
    memset(&scratch, 0, sizeof(scratch));
    p.s = (const unsigned char *)d->src;
    p.nbytes = d->nsrc;
    p.pos = raw->start + 1;
    p.lazy = true;
    p.general = d->general;
    p.max_depth = SIZE_MAX;   /* the text was checked with the limit */
    for (i = 0; i < raw->n && ok; i++) {
        jpath child = jpath_child(path, '[', i, (tfx_str){"", 0});
        const tfx_type *elem = tuple ? ty->elems[i] : ty->elem;
        next_job job;
        bool direct;

        if (box->arena == NULL || tfx_arena_used(box->arena) > LAZY_SCRATCH_BYTES) {
            tfx_arena_free(box->arena);
            box->arena = NULL;
            box->arena = tfx_arena_new(scratch_budget(d->ctx));
            if (box->arena == NULL)
                fail_memory(d->ctx);
            scratch = *d->ctx;
            scratch.arena = box->arena;
        }
        /* what the element needs only meanwhile goes to the scratch */
        d->tmp = &scratch;
        direct = !d->general && decode_element_direct(d, &p, elem, &child, &items[i]);
        d->tmp = outer;
        if (direct) {
            note_type(items, i, one_type);
            continue;
        }
        p.ctx = &scratch;
        job.p = &p;
        job.node = NULL;
        if (!tfx_ctx_try(&scratch, parse_next, &job))
            tfx_ctx_fail(d->ctx, scratch.fail_summary, "%s", scratch.fail_detail);
        if (job.node == NULL) {   /* not reached: the text was checked */
            fail(d, "%s: the JSON text changed while it was read", jpath_text(d, &child));
            ok = false;
            break;
        }
        d->tmp = &scratch;
        items[i] = decode_child(d, job.node, elem, &child);
        d->tmp = outer;
        ok = items[i] != NULL;
        if (ok)
            note_type(items, i, one_type);
    }
    scratch_free(box);
    return ok;
}

/* A list, set or tuple payload: a JSON array of nodes; want is the
 * number of elements of a tuple type ((size_t)-1: any). */
static const tfx_value **decode_array(decoder *d, const jnode *raw, const tfx_type *ty,
                                      const jpath *path, bool *one_type)
{
    bool tuple = ty->kind == TFX_TYPE_TUPLE;
    const tfx_value **items;
    size_t i;

    if (raw->kind != J_ARRAY) {
        fail(d, "%s: a list, set or tuple must be a JSON array, got %s", jpath_text(d, path),
             abbreviated(d, raw));
        return NULL;
    }
    if (tuple && raw->n != ty->n) {
        fail(d, "%s: the tuple type has %zu elements, the value %zu", jpath_text(d, path), ty->n, raw->n);
        return NULL;
    }
    /* The constructors copy the array: it is needed only meanwhile. */
    items = tfx_ctx_alloc_array(d->tmp, raw->n + 1, sizeof(const tfx_value *));
    *one_type = raw->lazy;
    if (raw->lazy)
        return decode_lazy_items(d, raw, ty, path, items, one_type) ? items : NULL;
    for (i = 0; i < raw->n; i++) {
        jpath child = jpath_child(path, '[', i, (tfx_str){"", 0});

        items[i] = decode_child(d, raw->items[i], tuple ? ty->elems[i] : ty->elem, &child);
        if (items[i] == NULL)
            return NULL;
    }
    return items;
}

/* [value.set] [mark.set] cty's SetVal moves the marks of the elements,
 * at any depth, onto the set (semantics M11). */
static const tfx_value *make_set(tfx_ctx *ctx, const tfx_type *elem, const tfx_value **items,
                                 size_t n)
{
    const tfx_marks *marks = NULL;
    size_t i;

    for (i = 0; i < n; i++) {
        const tfx_marks *m = NULL;

        items[i] = tfx_value_unmark_deep(ctx, items[i], &m);
        if (m != NULL)
            marks = tfx_marks_union(ctx, marks, m);
    }
    if (marks == NULL)
        return tfx_value_set(ctx, elem, items, n);
    return tfx_value_mark(ctx, tfx_value_set(ctx, elem, items, n), marks);
}

/* [value.list] The element type of a collection of the decoded
 * items[0..n), n >= 1, or NULL (same_types's error).  Fast path: when
 * every item has the type of items[0] by address (one_type, note_type's),
 * same_types would find each of them the same type as items[0]'s and
 * return that type; it is returned without the pass over the items. */
static const tfx_type *items_type(decoder *d, const tfx_value *const *items, size_t n,
                                  bool one_type, const jpath *path)
{
    return one_type && !d->general ? items[0]->type : same_types(d, items, n, path);
}

/* The list or set of type ty of the decoded items[0..n); one_type as
 * items_type's. */
static const tfx_value *collection_value(decoder *d, const tfx_type *ty, const tfx_value **items,
                                         size_t n, bool one_type, const jpath *path)
{
    const tfx_type *elem;

    if (n == 0)
        return ty->kind == TFX_TYPE_LIST ? tfx_value_list(d->ctx, ty->elem, NULL, 0)
                                         : tfx_value_set(d->ctx, ty->elem, NULL, 0);
    elem = items_type(d, items, n, one_type, path);
    if (elem == NULL)
        return NULL;
    if (ty->kind == TFX_TYPE_LIST && same_type(elem, ty->elem))
        return tfx_value_list_of_type(d->ctx, ty, items, n);
    if (ty->kind == TFX_TYPE_LIST)
        return tfx_value_list(d->ctx, elem, items, n);
    return make_set(d->ctx, elem, items, n);
}

static const tfx_value *decode_collection(decoder *d, const jnode *raw, const tfx_type *ty,
                                          const jpath *path)
{
    bool one_type;
    const tfx_value **items = decode_array(d, raw, ty, path, &one_type);

    if (items == NULL)
        return NULL;
    return collection_value(d, ty, items, raw->n, one_type, path);
}

static const tfx_value *decode_map(decoder *d, const jnode *raw, const tfx_type *ty,
                                   const jpath *path)
{
    const jmember *m;
    const tfx_value **vals;
    tfx_str *keys;
    const tfx_type *elem;
    size_t n;
    size_t i;

    if (raw->kind != J_OBJECT) {
        fail(d, "%s: a map must be a JSON object, got %s", jpath_text(d, path), abbreviated(d, raw));
        return NULL;
    }
    n = unique_members(d->ctx, raw, &m);
    if (n == 0)
        return tfx_value_map(d->ctx, ty->elem, NULL, NULL, 0);
    vals = tfx_ctx_alloc_array(d->ctx, n, sizeof(const tfx_value *));
    keys = tfx_ctx_alloc_array(d->ctx, n, sizeof(*keys));
    for (i = 0; i < n; i++) {
        jpath child = jpath_child(path, 'k', 0, m[i].key);

        vals[i] = decode_child(d, m[i].value, ty->elem, &child);
        if (vals[i] == NULL)
            return NULL;
        keys[i] = nfc(d->ctx, m[i].key);
    }
    elem = same_types(d, vals, n, path);
    if (elem == NULL)
        return NULL;
    return tfx_value_map(d->ctx, elem, keys, vals, n);
}

/* An object payload: every attribute of the type, no other key.  The
 * type's names are NFC, so a key that is not never matches. */
static const tfx_value *decode_object(decoder *d, const jnode *raw, const tfx_type *ty,
                                      const jpath *path)
{
    const jmember *m;
    const tfx_value **vals;
    size_t n;
    size_t i;
    size_t j = 0;

    if (raw->kind != J_OBJECT) {
        fail(d, "%s: an object must be a JSON object, got %s", jpath_text(d, path), abbreviated(d, raw));
        return NULL;
    }
    n = unique_members(d->tmp, raw, &m);
    for (i = 0; i < n; i++) {
        if (tfx_type_attr_index(ty, m[i].key.s, m[i].key.nbytes) < 0) {
            fail(d, "%s: attribute %s is not in the object type", jpath_text(d, path), quoted(d->ctx, m[i].key));
            return NULL;
        }
    }
    vals = tfx_ctx_alloc_array(d->tmp, ty->n + 1, sizeof(const tfx_value *));
    for (i = 0; i < ty->n; i++) {
        jpath child = jpath_child(path, '.', 0, ty->names[i]);

        /* Both lists are sorted by bytes. */
        while (j < n && tfx_str_cmp(m[j].key, ty->names[i]) < 0)
            j++;
        if (j == n || tfx_str_cmp(m[j].key, ty->names[i]) != 0) {
            fail(d, "%s: attribute %s of the object type has no value", jpath_text(d, path),
                 quoted(d->ctx, ty->names[i]));
            return NULL;
        }
        vals[i] = decode_child(d, m[j].value, ty->elems[i], &child);
        if (vals[i] == NULL)
            return NULL;
    }
    return object_value(d, ty, vals);
}

/* The object of type ty of the decoded vals (one per attribute). */
static const tfx_value *object_value(decoder *d, const tfx_type *ty, const tfx_value **vals)
{
    bool exact = true;
    size_t i;

    for (i = 0; i < ty->n; i++)
        if (!same_type(vals[i]->type, ty->elems[i]))
            exact = false;
    /* ty is a value's type (no optional attributes): when every value has
     * its attribute's type, the object's type is ty. */
    if (exact && !tfx_type_has_optional(ty))
        return tfx_value_object_of_type(d->ctx, ty, vals);
    return tfx_value_object(d->ctx, ty->names, vals, ty->n);
}

/* The "v" of a known node of type ty (decodePayload). */
static const tfx_value *decode_payload(decoder *d, const jnode *raw, const tfx_type *ty,
                                       const jpath *path)
{
    const tfx_value **items;
    bool one_type;

    switch (ty->kind) {
    case TFX_TYPE_DYNAMIC:
        fail(d,
             "%s: a known value needs a concrete type, but the type here is dynamic (give the "
             "node its own \"type\")",
             jpath_text(d, path));
        return NULL;
    case TFX_TYPE_BOOL:
        if (raw->kind != J_BOOL) {
            fail(d, "%s: a bool must be true or false, got %s", jpath_text(d, path), abbreviated(d, raw));
            return NULL;
        }
        return tfx_value_bool(raw->boolean);
    case TFX_TYPE_NUMBER:
        if (raw->kind != J_STRING) {
            fail(d, "%s: a number must be a JSON string holding a decimal number, got %s", jpath_text(d, path),
                 abbreviated(d, raw));
            return NULL;
        }
        return decode_number(d, raw->text, path);
    case TFX_TYPE_STRING:
        if (raw->kind != J_STRING) {
            fail(d, "%s: a string must be a JSON string, got %s", jpath_text(d, path), abbreviated(d, raw));
            return NULL;
        }
        tfx_ctx_check_string(d->ctx, raw->text.nbytes);
        return tfx_value_string(d->ctx, raw->text.s, raw->text.nbytes);
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
        return decode_collection(d, raw, ty, path);
    case TFX_TYPE_TUPLE:
        items = decode_array(d, raw, ty, path, &one_type);
        return items == NULL ? NULL : tfx_value_tuple(d->ctx, items, raw->n);
    case TFX_TYPE_MAP:
        return decode_map(d, raw, ty, path);
    case TFX_TYPE_OBJECT:
        return decode_object(d, raw, ty, path);
    case TFX_TYPE_CAPSULE:
        break; /* not reached: the type syntax has no capsule [type.capsule] */
    }
    fail(d, "%s: a value of a capsule type has no JSON encoding", jpath_text(d, path));
    return NULL;
}

/* A length bound: a JSON integer from 0 to 2^63-1. */
static bool length_bound(const jnode *n, int64_t *out)
{
    int64_t v = 0;

    if (n->kind != J_NUMBER || n->text.nbytes == 0 || n->text.nbytes > 19)
        return false;
    for (size_t i = 0; i < n->text.nbytes; i++) {
        if (!is_digit((unsigned char)n->text.s[i]))
            return false;
        if (v > (INT64_MAX - (n->text.s[i] - '0')) / 10)
            return false;
        v = v * 10 + (n->text.s[i] - '0');
    }
    *out = v;
    return true;
}

/* [refine.json] An unknown node's "refinements" (conformance/README.md,
 * "Refinements"), put on the unknown v of type ty with tfx_value_refine
 * as the PN reference does with cty's builder; profile P14 (cty 1.12.1)
 * has none and refuses them. */
static const tfx_value *decode_refinements(decoder *d, const jnode *node, const tfx_value *v,
                                           const tfx_type *ty, const jpath *path)
{
    tfx_refinement r;
    const jnode *lo = NULL, *lo_inc = NULL, *hi = NULL, *hi_inc = NULL;
    bool number = ty->kind == TFX_TYPE_NUMBER;
    bool coll = ty->kind == TFX_TYPE_LIST || ty->kind == TFX_TYPE_SET || ty->kind == TFX_TYPE_MAP;

    if (!d->ctx->pn) {
        fail(d, "%s: \"refinements\" need profile PN (cty 1.13 and later)", jpath_text(d, path));
        return NULL;
    }
    node = kept(d, node);
    if (node->kind != J_OBJECT) {
        fail(d, "%s: \"refinements\" must be an object", jpath_text(d, path));
        return NULL;
    }
    tfx_refinement_init(&r);
    for (size_t i = 0; i < node->n; i++) {
        tfx_str k = node->keys[i];
        const jnode *item = kept(d, node->items[i]);
        bool ok;

        if (str_is(k, "not_null")) {
            ok = ty->kind != TFX_TYPE_DYNAMIC && item->kind == J_BOOL && item->boolean;
            r.not_null = true;
        } else if (str_is(k, "string_prefix")) {
            ok = ty->kind == TFX_TYPE_STRING && item->kind == J_STRING;
            if (ok)
                r.prefix = tfx_value_string(d->ctx, item->text.s, item->text.nbytes)->as.string;
        } else if (str_is(k, "number_lower") || str_is(k, "number_upper")) {
            ok = number && item->kind == J_STRING;
            *(str_is(k, "number_lower") ? &lo : &hi) = item;
        } else if (str_is(k, "number_lower_inclusive") || str_is(k, "number_upper_inclusive")) {
            ok = number && item->kind == J_BOOL;
            *(str_is(k, "number_lower_inclusive") ? &lo_inc : &hi_inc) = item;
        } else if (str_is(k, "length_lower")) {
            ok = coll && length_bound(item, &r.len_lower);
        } else if (str_is(k, "length_upper")) {
            ok = coll && length_bound(item, &r.len_upper);
        } else {
            ok = false;
        }
        if (!ok) {
            fail(d, "%s: invalid refinement %s for a value of type %s", jpath_text(d, path),
                 quoted(d->ctx, k), type_json(d->ctx, ty));
            return NULL;
        }
    }
    if ((lo == NULL) != (lo_inc == NULL) || (hi == NULL) != (hi_inc == NULL)) {
        fail(d, "%s: a number bound and its \"_inclusive\" flag go together", jpath_text(d, path));
        return NULL;
    }
    /* "-inf" as the lower bound and "inf" as the upper one are cty's own
     * infinities, which say nothing: the builder keeps no such bound */
    if (lo != NULL) {
        const tfx_value *n = decode_number(d, lo->text, path);

        if (n == NULL)
            return NULL;
        if (!(tfx_num_is_inf(n->as.number) && tfx_num_sign(n->as.number) < 0)) {
            r.lower = n->as.number;
            r.lower_inclusive = lo_inc->boolean;
        }
    }
    if (hi != NULL) {
        const tfx_value *n = decode_number(d, hi->text, path);

        if (n == NULL)
            return NULL;
        if (!(tfx_num_is_inf(n->as.number) && tfx_num_sign(n->as.number) > 0)) {
            r.upper = n->as.number;
            r.upper_inclusive = hi_inc->boolean;
        }
    }
    return tfx_value_refine(d->ctx, v, &r);
}

/* One node whose enclosing type says ty (decodeNode): its own "type"
 * where ty is dynamic, its marks, then exactly one of "v", "null": true
 * and "unknown": true. */
static const tfx_value *decode_node(decoder *d, const jnode *node, const tfx_type *ty,
                                    const jpath *path)
{
    const jnode *type_node = member(node, "type");
    const tfx_marks *marks;
    const tfx_value *v;
    int is_null;
    int is_unknown;
    int count;

    if (type_node != NULL) {
        const jtype *own = decode_jtype(d, type_node);
        const jtype *opt;

        if (own == NULL) {
            fail(d, "%s: invalid type %s: %s", jpath_text(d, path), raw_text(d, type_node), d->error);
            return NULL;
        }
        opt = find_optional(own);
        if (opt != NULL) {
            fail(d,
                 "%s: type %s has optional attributes (in %s); only type constraints may have "
                 "them",
                 jpath_text(d, path), raw_text(d, type_node), jtype_json(d->ctx, opt));
            return NULL;
        }
        if (ty->kind != TFX_TYPE_DYNAMIC) {
            fail(d,
                 "%s: \"type\" is allowed on an inner node only where the enclosing type says "
                 "dynamic (here it says %s)",
                 jpath_text(d, path), type_json(d->ctx, ty));
            return NULL;
        }
        ty = jtype_type(d->ctx, own, false);
    }
    if (!decode_marks(d, node, path, &marks))
        return NULL;
    is_null = true_flag(d, node, "null", path);
    if (is_null < 0)
        return NULL;
    is_unknown = true_flag(d, node, "unknown", path);
    if (is_unknown < 0)
        return NULL;
    count = (member(node, "v") != NULL) + is_null + is_unknown;
    if (count != 1) {
        fail(d, "%s: a node has exactly one of \"v\", \"null\": true and \"unknown\": true",
             jpath_text(d, path));
        return NULL;
    }
    if (member(node, "refinements") != NULL && !is_unknown) {
        fail(d, "%s: only an unknown node has \"refinements\"", jpath_text(d, path));
        return NULL;
    }
    if (is_null)
        v = tfx_value_null(d->ctx, ty);
    else if (is_unknown && member(node, "refinements") != NULL)
        v = decode_refinements(d, member(node, "refinements"), tfx_value_unknown(d->ctx, ty), ty,
                               path);
    else if (is_unknown)
        v = tfx_value_unknown(d->ctx, ty);
    else
        v = decode_payload(d, member(node, "v"), ty, path);
    if (v == NULL)
        return NULL;
    return marks == NULL ? v : tfx_value_mark(d->ctx, v, marks);
}

/* A top node: it must carry "type" (decodeTypedValue). */
static const tfx_value *decode_top(decoder *d, const jnode *node, const jpath *path)
{
    if (!node_fields(d, node, path))
        return NULL;
    if (member(node, "type") == NULL) {
        fail(d, "%s: a typed value needs \"type\"", jpath_text(d, path));
        return NULL;
    }
    return decode_node(d, node, &tfx_type_dynamic, path);
}

const tfx_value *tfx_json_decode_typed_at(tfx_ctx *ctx, const char *json, size_t nbytes,
                                          const char *path, const char **error)
{
    decoder d;
    const jnode *node = parse_json_lazy(ctx, json, nbytes, false, json_max_depth(ctx, true), true,
                                        false, error);
    const tfx_value *v;
    jpath root;

    if (node == NULL)
        return NULL;
    decoder_init(&d, ctx, json, nbytes);
    root = jpath_child(NULL, 0, 0, (tfx_str){"", 0});
    root.root = path;
    v = decode_top(&d, node, &root);
    if (v == NULL)
        *error = d.error;
    return v;
}

const tfx_value *tfx_json_decode_typed(tfx_ctx *ctx, const char *json, size_t nbytes,
                                       const char **error)
{
    return tfx_json_decode_typed_at(ctx, json, nbytes, "value", error);
}

/* ====================================================================
 * Plain JSON in: cty's json.ImpliedType and json.Unmarshal
 * ================================================================== */

/* [fn.jsondecode.duplicate.pn] The first member of obj, in document
 * order, among its first k, whose key an earlier member has (the same
 * bytes, before NFC) with another implied type; -1 if none.  The members
 * sorted by key, then position, put each key's members together in
 * document order; all those before a group's first mismatch have the
 * type of the group's first member. */
static long duplicate_mismatch(tfx_ctx *ctx, const jnode *obj, const tfx_type *const *types,
                               size_t k)
{
    jmember *m = tfx_ctx_alloc_array(ctx, k + 1, sizeof(*m));
    long found = -1;
    size_t first = 0;
    size_t i;

    for (i = 0; i < k; i++) {
        m[i].key = obj->keys[i];
        m[i].value = obj->items[i];
        m[i].index = i;
    }
    if (k > 1)
        qsort(m, k, sizeof(*m), member_cmp);
    for (i = 1; i < k; i++) {
        if (tfx_str_cmp(m[i].key, m[first].key) != 0) {
            first = i;
            continue;
        }
        if (tfx_type_equal(types[m[i].index], types[m[first].index]))
            continue;
        if (found < 0 || (size_t)found > m[i].index)
            found = (long)m[i].index;
        /* the rest of this key's members come later */
        while (i + 1 < k && tfx_str_cmp(m[i + 1].key, m[first].key) == 0)
            i++;
    }
    return found;
}

/* The type a JSON value implies (cty's json.ImpliedType): null is
 * dynamic, an array a tuple, an object an object whose names are NFC (a
 * later duplicate key wins, [type.object.names]).  With d->pn, a key given
 * twice with values of other types fails ([fn.jsondecode.duplicate.pn]):
 * NULL with d->error. */
static const tfx_type *implied_type(decoder *d, const jnode *n)
{
    tfx_ctx *ctx = d->ctx;
    const tfx_type **types;
    tfx_str *names;
    size_t i;

    switch (n->kind) {
    case J_NULL: return &tfx_type_dynamic;
    case J_BOOL: return &tfx_type_bool;
    case J_NUMBER: return &tfx_type_number;
    case J_STRING: return &tfx_type_str;
    case J_ARRAY:
    case J_OBJECT:
        break;
    }
    types = tfx_ctx_alloc_array(ctx, n->n + 1, sizeof(const tfx_type *));
    for (i = 0; i < n->n; i++) {
        types[i] = implied_type(d, n->items[i]);
        if (types[i] == NULL)
            break;
    }
    if (d->pn && n->kind == J_OBJECT) {
        /* upstream checks each key as it reads it, after its value: a
         * mismatch before the member that failed comes first */
        long dup = duplicate_mismatch(ctx, n, types, i);

        if (dup >= 0) {
            fail(d, "duplicate %s property in JSON object", quoted(ctx, n->keys[dup]));
            return NULL;
        }
    }
    if (i < n->n)
        return NULL;
    if (n->kind == J_ARRAY)
        return tfx_type_tuple(ctx, types, n->n);
    names = tfx_ctx_alloc_array(ctx, n->n + 1, sizeof(*names));
    for (i = 0; i < n->n; i++)
        names[i] = nfc(ctx, n->keys[i]);
    return tfx_type_object(ctx, names, types, n->n);
}

static const tfx_value *unmarshal(decoder *d, const jnode *n, const tfx_type *t);

/* A value whose type is dynamic: {"type": T, "value": V}
 * (unmarshalDynamic). */
static const tfx_value *unmarshal_dynamic(decoder *d, const jnode *n)
{
    const tfx_type *t = NULL;
    const jnode *body = NULL;
    size_t i;

    if (n->kind != J_OBJECT) {
        fail(d, "missing expected {");
        return NULL;
    }
    for (i = 0; i < n->n; i++) {
        if (str_is(n->keys[i], "type")) {
            const jtype *jt = decode_jtype(d, n->items[i]);

            if (jt == NULL) {
                fail(d, "failed to decode type for dynamic value: %s", d->error);
                return NULL;
            }
            t = jtype_type(d->ctx, jt, false);
        } else if (str_is(n->keys[i], "value")) {
            body = n->items[i];
        } else {
            fail(d, "invalid key %s in dynamically-typed value", quoted(d->ctx, n->keys[i]));
            return NULL;
        }
    }
    if (t == NULL) {
        fail(d, "missing type in dynamically-typed value");
        return NULL;
    }
    if (body == NULL) {
        fail(d, "missing value in dynamically-typed value");
        return NULL;
    }
    return unmarshal(d, body, t);
}

/* A primitive (unmarshalPrimitive): JSON of another primitive kind is
 * converted as cty's convert package would. */
static const tfx_value *unmarshal_primitive(decoder *d, const jnode *n, const tfx_type *t)
{
    const tfx_value *v;

    switch (t->kind) {
    case TFX_TYPE_BOOL:
        if (n->kind == J_BOOL)
            return tfx_value_bool(n->boolean);
        if (n->kind != J_STRING) {
            fail(d, "bool is required");
            return NULL;
        }
        /* conv.prim.str-bool */
        if (str_is(n->text, "true") || str_is(n->text, "1"))
            return tfx_value_bool(true);
        if (str_is(n->text, "false") || str_is(n->text, "0"))
            return tfx_value_bool(false);
        if (ascii_lower_is(n->text, "true"))
            fail(d, "a bool is required; to convert from string, use lowercase \"true\"");
        else if (ascii_lower_is(n->text, "false"))
            fail(d, "a bool is required; to convert from string, use lowercase \"false\"");
        else
            fail(d, "a bool is required");
        return NULL;
    case TFX_TYPE_NUMBER:
        if (n->kind != J_NUMBER && n->kind != J_STRING) {
            fail(d, "number is required");
            return NULL;
        }
        v = parse_number_value(d->ctx, n->text);
        if (v == NULL)
            fail(d, "a number is required");
        return v;
    default:
        if (n->kind == J_BOOL)
            return tfx_value_string_raw(d->ctx, n->boolean ? "true" : "false",
                                        n->boolean ? 4 : 5);
        if (n->kind != J_STRING && n->kind != J_NUMBER) {
            fail(d, "string is required");
            return NULL;
        }
        tfx_ctx_check_string(d->ctx, n->text.nbytes);
        return tfx_value_string(d->ctx, n->text.s, n->text.nbytes);
    }
}

/* The elements of a list or set (unmarshalList, unmarshalSet). */
static const tfx_value *unmarshal_collection(decoder *d, const jnode *n, const tfx_type *t)
{
    const tfx_value **items;
    size_t i;

    if (n->kind != J_ARRAY) {
        fail(d, "missing expected [");
        return NULL;
    }
    if (n->n == 0)
        return t->kind == TFX_TYPE_LIST ? tfx_value_list(d->ctx, t->elem, NULL, 0)
                                        : tfx_value_set(d->ctx, t->elem, NULL, 0);
    items = tfx_ctx_alloc_array(d->ctx, n->n, sizeof(const tfx_value *));
    for (i = 0; i < n->n; i++) {
        items[i] = unmarshal(d, n->items[i], t->elem);
        if (items[i] == NULL)
            return NULL;
        /* Only values decoded under a dynamic element type can differ;
         * cty would panic. */
        if (!tfx_type_equal(items[i]->type, items[0]->type)) {
            fail(d, "inconsistent %s element types", t->kind == TFX_TYPE_LIST ? "list" : "set");
            return NULL;
        }
    }
    if (t->kind == TFX_TYPE_LIST)
        return tfx_value_list(d->ctx, items[0]->type, items, n->n);
    return tfx_value_set(d->ctx, items[0]->type, items, n->n);
}

static const tfx_value *unmarshal_map(decoder *d, const jnode *n, const tfx_type *t)
{
    const tfx_value **vals;
    tfx_str *keys;
    size_t i;

    if (n->kind != J_OBJECT) {
        fail(d, "missing expected {");
        return NULL;
    }
    if (n->n == 0)
        return tfx_value_map(d->ctx, t->elem, NULL, NULL, 0);
    vals = tfx_ctx_alloc_array(d->ctx, n->n, sizeof(const tfx_value *));
    keys = tfx_ctx_alloc_array(d->ctx, n->n, sizeof(*keys));
    for (i = 0; i < n->n; i++) {
        vals[i] = unmarshal(d, n->items[i], t->elem);
        if (vals[i] == NULL)
            return NULL;
        if (!tfx_type_equal(vals[i]->type, vals[0]->type)) {
            fail(d, "inconsistent map element types");
            return NULL;
        }
        keys[i] = nfc(d->ctx, n->keys[i]);
    }
    return tfx_value_map(d->ctx, vals[0]->type, keys, vals, n->n);
}

static const tfx_value *unmarshal_tuple(decoder *d, const jnode *n, const tfx_type *t)
{
    const tfx_value **items;
    size_t i;

    if (n->kind != J_ARRAY) {
        fail(d, "missing expected [");
        return NULL;
    }
    items = tfx_ctx_alloc_array(d->ctx, n->n + 1, sizeof(const tfx_value *));
    for (i = 0; i < n->n; i++) {
        if (i >= t->n) {
            fail(d, "too many tuple elements (need %zu)", t->n);
            return NULL;
        }
        items[i] = unmarshal(d, n->items[i], t->elems[i]);
        if (items[i] == NULL)
            return NULL;
    }
    if (n->n != t->n) {
        fail(d, "not enough tuple elements (need %zu)", t->n);
        return NULL;
    }
    return tfx_value_tuple(d->ctx, items, n->n);
}

/* An object: every key must be an attribute (compared as written with
 * the type's NFC names); missing attributes are null. */
static const tfx_value *unmarshal_object(decoder *d, const jnode *n, const tfx_type *t)
{
    const tfx_value **vals;
    size_t i;

    if (n->kind != J_OBJECT) {
        fail(d, "missing expected {");
        return NULL;
    }
    vals = tfx_ctx_alloc_array(d->ctx, t->n + 1, sizeof(const tfx_value *));
    for (i = 0; i < n->n; i++) {
        long at = tfx_type_attr_index(t, n->keys[i].s, n->keys[i].nbytes);

        if (at < 0) {
            fail(d, "unsupported attribute %s", quoted(d->ctx, n->keys[i]));
            return NULL;
        }
        vals[at] = unmarshal(d, n->items[i], t->elems[at]);
        if (vals[at] == NULL)
            return NULL;
    }
    for (i = 0; i < t->n; i++)
        if (vals[i] == NULL)
            vals[i] = tfx_value_null(d->ctx, t->elems[i]);
    return tfx_value_object(d->ctx, t->names, vals, t->n);
}

/* A JSON value read as type t (cty's json.Unmarshal). */
static const tfx_value *unmarshal(decoder *d, const jnode *n, const tfx_type *t)
{
    if (n->kind == J_NULL)
        return tfx_value_null(d->ctx, t);
    switch (t->kind) {
    case TFX_TYPE_DYNAMIC: return unmarshal_dynamic(d, n);
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET: return unmarshal_collection(d, n, t);
    case TFX_TYPE_MAP: return unmarshal_map(d, n, t);
    case TFX_TYPE_TUPLE: return unmarshal_tuple(d, n, t);
    case TFX_TYPE_OBJECT: return unmarshal_object(d, n, t);
    default: return unmarshal_primitive(d, n, t);
    }
}

/* A parsed plain JSON value: its implied type, then the value read as
 * that type. */
static const tfx_value *decode_plain_node(decoder *d, const jnode *n)
{
    const tfx_type *t = implied_type(d, n);

    return t != NULL ? unmarshal(d, n, t) : NULL;
}

const tfx_value *tfx_json_decode_plain(tfx_ctx *ctx, const char *json, size_t nbytes,
                                       const char **error)
{
    return tfx_json_decode_plain_profile(ctx, json, nbytes, false, error);
}

const tfx_value *tfx_json_decode_plain_profile(tfx_ctx *ctx, const char *json, size_t nbytes,
                                               bool pn, const char **error)
{
    decoder d;
    const jnode *node = parse_json(ctx, json, nbytes, true, json_max_depth(ctx, false), error);
    const tfx_value *v;

    if (node == NULL)
        return NULL;
    decoder_init(&d, ctx, json, nbytes);
    d.pn = pn;
    v = decode_plain_node(&d, node);
    if (v == NULL)
        *error = d.error;
    return v;
}

static bool decode_vars(tfx_ctx *ctx, const char *json, size_t nbytes, bool typed,
                        bool general, tfx_json_vars *out, const char **error)
{
    decoder d;
    /* One more level of JSON for the variables object itself. */
    size_t depth = json_max_depth(ctx, typed);
    const jnode *node = parse_json_lazy(ctx, json, nbytes, false,
                                        depth < SIZE_MAX ? depth + 1 : depth, typed, general,
                                        error);
    const jmember *m;
    tfx_str *names;
    const tfx_value **values;
    size_t n;
    size_t i;

    if (node == NULL)
        return false;
    if (node->kind != J_OBJECT) {
        *error = "variables: the variables must be a JSON object of name: value";
        return false;
    }
    decoder_init(&d, ctx, json, nbytes);
    d.general = general;
    n = unique_members(ctx, node, &m);
    names = tfx_ctx_alloc_array(ctx, n + 1, sizeof(*names));
    values = tfx_ctx_alloc_array(ctx, n + 1, sizeof(const tfx_value *));
    for (i = 0; i < n; i++) {
        const char *path = tfx_ctx_printf(ctx, "variables.%.*s", (int)m[i].key.nbytes,
                                          m[i].key.s);
        jpath root = jpath_child(NULL, 0, 0, (tfx_str){"", 0});

        root.root = path;
        names[i] = m[i].key;
        values[i] = typed ? decode_top(&d, m[i].value, &root) : decode_plain_node(&d, m[i].value);
        if (values[i] == NULL) {
            *error = typed ? d.error : tfx_ctx_printf(ctx, "%s: %s", path, d.error);
            return false;
        }
    }
    out->n = n;
    out->names = names;
    out->values = values;
    return true;
}

bool tfx_json_decode_vars(tfx_ctx *ctx, const char *json, size_t nbytes, bool typed,
                          tfx_json_vars *out, const char **error)
{
    return decode_vars(ctx, json, nbytes, typed, false, out, error);
}

bool tfx_json_decode_vars_general(tfx_ctx *ctx, const char *json, size_t nbytes, bool typed,
                                  tfx_json_vars *out, const char **error)
{
    return decode_vars(ctx, json, nbytes, typed, true, out, error);
}

/* ====================================================================
 * Typed values out: the Go adapter's encodeTypedValue
 * ================================================================== */

typedef struct {
    tfx_textbuf b;
    const char *error;
} encoder;

/* Positional number text longer than this is written in exponent form
 * [num.format.compact]: a number's text can be hundreds of megabytes. */
#define TYPED_NUMBER_POSITIONAL_MAX 4096

/* A number as the Go adapter writes it (numberText): "inf", "-inf", "0",
 * "-0", or Go's Text('f', -1) — in exponent form past
 * TYPED_NUMBER_POSITIONAL_MAX bytes, where the Go adapter goes on. */
static void put_number_text(encoder *e, const tfx_num *num)
{
    const char *text;
    size_t len;

    if (tfx_num_is_inf(num)) {
        tfx_textbuf_puts(&e->b, tfx_num_signbit(num) ? "-inf" : "inf");
        return;
    }
    if (tfx_num_sign(num) == 0) {
        tfx_textbuf_puts(&e->b, tfx_num_signbit(num) ? "-0" : "0");
        return;
    }
    text = tfx_num_format_compact(e->b.ctx->arena, num, TYPED_NUMBER_POSITIONAL_MAX, &len);
    if (text == NULL)
        fail_memory(e->b.ctx);
    tfx_textbuf_put(&e->b, text, len);
}

static bool encode_node(encoder *e, const tfx_value *v, const tfx_type *expected);

/* Whether an infinite number bound is left out of the encoding: an
 * exclusive one says nothing, as the reference's reading of cty's
 * Range() has it. */
static bool bound_unwritten(const tfx_num *b, bool inclusive)
{
    return b == NULL || (!inclusive && tfx_num_is_inf(b));
}

/* Whether r (NULL: none) has something to write. */
static bool refinement_written(const tfx_refinement *r)
{
    return r != NULL &&
           (r->not_null || r->prefix.nbytes > 0 || r->len_lower > 0 ||
            r->len_upper != TFX_REFINE_NO_MAX || !bound_unwritten(r->lower, r->lower_inclusive) ||
            !bound_unwritten(r->upper, r->upper_inclusive));
}

/* [refine.json] ,"refinements":{...}: what r says, in the README's
 * member order. */
static void put_refinements(encoder *e, const tfx_refinement *r)
{
    const char *sep = "";

    tfx_textbuf_puts(&e->b, ",\"refinements\":{");
    if (r->not_null) {
        tfx_textbuf_puts(&e->b, "\"not_null\":true");
        sep = ",";
    }
    if (r->prefix.nbytes > 0) {
        tfx_textbuf_puts(&e->b, sep);
        tfx_textbuf_puts(&e->b, "\"string_prefix\":");
        put_json_string(&e->b, r->prefix.s, r->prefix.nbytes);
        sep = ",";
    }
    /* an infinite exclusive bound says nothing and is not written, as the
     * reference's encoding reads cty's Range() */
    if (!bound_unwritten(r->lower, r->lower_inclusive)) {
        tfx_textbuf_puts(&e->b, sep);
        tfx_textbuf_puts(&e->b, "\"number_lower\":\"");
        put_number_text(e, r->lower);
        tfx_textbuf_puts(&e->b, r->lower_inclusive ? "\",\"number_lower_inclusive\":true"
                                                   : "\",\"number_lower_inclusive\":false");
        sep = ",";
    }
    if (!bound_unwritten(r->upper, r->upper_inclusive)) {
        tfx_textbuf_puts(&e->b, sep);
        tfx_textbuf_puts(&e->b, "\"number_upper\":\"");
        put_number_text(e, r->upper);
        tfx_textbuf_puts(&e->b, r->upper_inclusive ? "\",\"number_upper_inclusive\":true"
                                                   : "\",\"number_upper_inclusive\":false");
        sep = ",";
    }
    if (r->len_lower > 0) {
        tfx_textbuf_puts(&e->b, sep);
        tfx_textbuf_puts(&e->b, tfx_ctx_printf(e->b.ctx, "\"length_lower\":%lld",
                                               (long long)r->len_lower));
        sep = ",";
    }
    if (r->len_upper != TFX_REFINE_NO_MAX) {
        tfx_textbuf_puts(&e->b, sep);
        tfx_textbuf_puts(&e->b, tfx_ctx_printf(e->b.ctx, "\"length_upper\":%lld",
                                               (long long)r->len_upper));
    }
    tfx_textbuf_putc(&e->b, '}');
}

static bool encode_payload(encoder *e, const tfx_value *v)
{
    const tfx_type *t = v->type;
    size_t i;

    switch (t->kind) {
    case TFX_TYPE_BOOL:
        tfx_textbuf_puts(&e->b, v->as.boolean ? "true" : "false");
        return true;
    case TFX_TYPE_NUMBER:
        tfx_textbuf_putc(&e->b, '"');
        put_number_text(e, v->as.number);
        tfx_textbuf_putc(&e->b, '"');
        return true;
    case TFX_TYPE_STRING:
        put_json_string(&e->b, v->as.string.s, v->as.string.nbytes);
        return true;
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_TUPLE:
        tfx_textbuf_putc(&e->b, '[');
        for (i = 0; i < v->as.elems.n; i++) {
            if (i > 0)
                tfx_textbuf_putc(&e->b, ',');
            if (!encode_node(e, v->as.elems.items[i],
                             t->kind == TFX_TYPE_TUPLE ? t->elems[i] : t->elem))
                return false;
        }
        tfx_textbuf_putc(&e->b, ']');
        return true;
    case TFX_TYPE_MAP:
    case TFX_TYPE_OBJECT:
        tfx_textbuf_putc(&e->b, '{');
        for (i = 0; i < v->as.attrs.n; i++) {
            if (i > 0)
                tfx_textbuf_putc(&e->b, ',');
            put_json_string(&e->b, v->as.attrs.keys[i].s, v->as.attrs.keys[i].nbytes);
            tfx_textbuf_putc(&e->b, ':');
            if (!encode_node(e, v->as.attrs.vals[i],
                             t->kind == TFX_TYPE_OBJECT ? t->elems[i] : t->elem))
                return false;
        }
        tfx_textbuf_putc(&e->b, '}');
        return true;
    case TFX_TYPE_CAPSULE: {
        /* [fn.type.text] a type() result: the text the console prints */
        size_t n;
        const char *text = tfx_render_type_in(e->b.ctx, v->as.capsule, &n);

        put_json_string(&e->b, text, n);
        return true;
    }
    case TFX_TYPE_DYNAMIC:
        break;
    }
    e->error = "a known value of type dynamic has no encoding";
    return false;
}

/* One node: {"type"?, "v" | "null" | "unknown", "marks"?}.  expected is
 * the type the enclosing type gives the node (NULL for the top node,
 * which always carries "type"). */
static bool encode_node(encoder *e, const tfx_value *v, const tfx_type *expected)
{
    bool own_type = expected == NULL
                    || (expected->kind == TFX_TYPE_DYNAMIC && v->type->kind != TFX_TYPE_DYNAMIC);

    tfx_textbuf_putc(&e->b, '{');
    if (own_type) {
        tfx_textbuf_puts(&e->b, "\"type\":");
        put_type(&e->b, v->type);
        tfx_textbuf_putc(&e->b, ',');
    }
    if (v->state == TFX_VAL_UNKNOWN) {
        tfx_textbuf_puts(&e->b, "\"unknown\":true");
        if (refinement_written(tfx_value_refinement(v)))
            put_refinements(e, tfx_value_refinement(v));
    } else if (v->state == TFX_VAL_NULL) {
        tfx_textbuf_puts(&e->b, "\"null\":true");
    } else {
        tfx_textbuf_puts(&e->b, "\"v\":");
        if (!encode_payload(e, v))
            return false;
    }
    if (v->marks != NULL) {
        size_t i;

        tfx_textbuf_puts(&e->b, ",\"marks\":[");
        for (i = 0; i < v->marks->n; i++) {
            if (i > 0)
                tfx_textbuf_putc(&e->b, ',');
            put_json_string(&e->b, v->marks->names[i].s, v->marks->names[i].nbytes);
        }
        tfx_textbuf_putc(&e->b, ']');
    }
    tfx_textbuf_putc(&e->b, '}');
    return true;
}

const char *tfx_json_encode_typed_in(tfx_ctx *ctx, const tfx_value *v, size_t *nbytes,
                                     const char **error)
{
    encoder e;

    tfx_textbuf_init(&e.b, ctx);
    e.error = NULL;
    if (!encode_node(&e, v, NULL)) {
        *error = e.error;
        return NULL;
    }
    if (nbytes != NULL)
        *nbytes = e.b.nbytes;
    return tfx_textbuf_text(&e.b);
}

typedef struct {
    const tfx_value *value;
    char *text;         /* malloc'd */
} encode_job;

static void run_encode(tfx_ctx *ctx, void *arg)
{
    encode_job *job = arg;
    const char *error = NULL;
    size_t nbytes;
    const char *text = tfx_json_encode_typed_in(ctx, job->value, &nbytes, &error);

    if (text == NULL)
        return;
    job->text = malloc(nbytes + 1);
    if (job->text != NULL)
        memcpy(job->text, text, nbytes + 1);
}

char *tfx_json_encode_typed(const tfx_value *v)
{
    tfx_ctx scratch;
    encode_job job;

    job.value = v;
    job.text = NULL;
    if (!tfx_ctx_init(&scratch, NULL))
        return NULL;
    (void)tfx_ctx_try(&scratch, run_encode, &job);
    tfx_ctx_free(&scratch);
    return job.text;
}

/* ====================================================================
 * Plain JSON out: cty's json.Marshal (jsonencode)
 * ================================================================== */

/* [fn.type.jsonencode] How many of Go's "error calling MarshalJSON"
 * wrappings Type.MarshalJSON's failure on the first capsule type inside t
 * gets: one per object or tuple on the way (their attribute and element
 * types are marshalled through encoding/json, object attributes in name
 * order), none for a collection (its element type is marshalled
 * directly).  -1 when t holds no capsule type. */
static long capsule_depth(const tfx_type *t)
{
    switch (t->kind) {
    case TFX_TYPE_CAPSULE:
        return 0;
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_MAP:
        return capsule_depth(t->elem);
    case TFX_TYPE_TUPLE:
    case TFX_TYPE_OBJECT:
        for (size_t i = 0; i < t->n; i++) {
            long d = capsule_depth(t->elems[i]);

            if (d >= 0)
                return d + 1;
        }
        return -1;
    default:
        return -1;
    }
}

/* [fn.type.jsonencode] cty's json.Marshal of a capsule value: Go's
 * json.Marshal of the encapsulated *cty.Type, which is the type's JSON
 * syntax, unless the type holds a capsule type, which Type.MarshalJSON
 * refuses ("type not allowed: type"), wrapped by encoding/json. */
static bool encode_plain_capsule(encoder *e, const tfx_value *v)
{
    long depth = capsule_depth(v->as.capsule);
    tfx_textbuf msg;

    if (depth < 0) {
        put_type(&e->b, v->as.capsule);
        return true;
    }
    tfx_textbuf_init(&msg, e->b.ctx);
    tfx_textbuf_puts(&msg, "json: error calling MarshalJSON for type *cty.Type: ");
    for (long i = 0; i < depth; i++)
        tfx_textbuf_puts(&msg, "json: error calling MarshalJSON for type cty.Type: ");
    tfx_textbuf_puts(&msg, "type not allowed: type");
    e->error = tfx_textbuf_text(&msg);
    return false;
}

/* [fn.jsonencode.result] [fn.jsonencode.number] cty's json.Marshal of v
 * at its own type: marks, unknowns and infinities are errors (the first
 * in document order); null anywhere is null; sets in set order; map and
 * object keys in byte order. */
static bool encode_plain(encoder *e, const tfx_value *v)
{
    const tfx_type *t = v->type;
    const char *text;
    size_t len;
    size_t i;

    if (v->marks != NULL) {
        e->error = "value has marks, so it cannot be serialized as JSON";
        return false;
    }
    if (v->state == TFX_VAL_NULL) {
        tfx_textbuf_puts(&e->b, "null");
        return true;
    }
    if (v->state == TFX_VAL_UNKNOWN) {
        e->error = "value is not known";
        return false;
    }
    switch (t->kind) {
    case TFX_TYPE_STRING:
        put_json_string(&e->b, v->as.string.s, v->as.string.nbytes);
        return true;
    case TFX_TYPE_NUMBER:
        if (tfx_num_is_inf(v->as.number)) {
            e->error = "cannot serialize infinity as JSON";
            return false;
        }
        text = tfx_num_format(e->b.ctx->arena, v->as.number, &len);
        if (text == NULL)
            fail_memory(e->b.ctx);
        tfx_textbuf_put(&e->b, text, len);
        return true;
    case TFX_TYPE_BOOL:
        tfx_textbuf_puts(&e->b, v->as.boolean ? "true" : "false");
        return true;
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_TUPLE:
        tfx_textbuf_putc(&e->b, '[');
        for (i = 0; i < v->as.elems.n; i++) {
            if (i > 0)
                tfx_textbuf_putc(&e->b, ',');
            if (!encode_plain(e, v->as.elems.items[i]))
                return false;
        }
        tfx_textbuf_putc(&e->b, ']');
        return true;
    case TFX_TYPE_MAP:
    case TFX_TYPE_OBJECT:
        tfx_textbuf_putc(&e->b, '{');
        for (i = 0; i < v->as.attrs.n; i++) {
            if (i > 0)
                tfx_textbuf_putc(&e->b, ',');
            put_json_string(&e->b, v->as.attrs.keys[i].s, v->as.attrs.keys[i].nbytes);
            tfx_textbuf_putc(&e->b, ':');
            if (!encode_plain(e, v->as.attrs.vals[i]))
                return false;
        }
        tfx_textbuf_putc(&e->b, '}');
        return true;
    case TFX_TYPE_CAPSULE:
        return encode_plain_capsule(e, v);
    case TFX_TYPE_DYNAMIC:
        break;
    }
    e->error = "a known value of type dynamic has no encoding";
    return false;
}

const char *tfx_json_encode_plain(tfx_ctx *ctx, const tfx_value *v, size_t *nbytes,
                                  const char **error)
{
    encoder e;

    tfx_textbuf_init(&e.b, ctx);
    e.error = NULL;
    if (!encode_plain(&e, v)) {
        *error = e.error;
        return NULL;
    }
    if (nbytes != NULL)
        *nbytes = e.b.nbytes;
    return tfx_textbuf_text(&e.b);
}
