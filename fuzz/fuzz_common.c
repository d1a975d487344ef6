/* SPDX-License-Identifier: MPL-2.0 */
/*
 * fuzz_common.c — checks shared by the harnesses (fuzz_common.h).
 */
#include "fuzz_common.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "ast.h"
#include "categories.h"
#include "diag.h"
#include "parse.h"
#include "source.h"

/* Whether tfx_ast_check must also hold for the tree of a parse with
 * errors (the partial tree with placeholders that the parser always
 * makes).  On by default; build with -DFUZZ_CHECK_ERROR_TREES=0 to check
 * only trees of parses without errors. */
#ifndef FUZZ_CHECK_ERROR_TREES
#define FUZZ_CHECK_ERROR_TREES 1
#endif

/* How many diagnostics of a source the deep parse check renders and
 * writes as JSON: the first FUZZ_RENDER_DIAGS and the last (rendering
 * scans the line of the subject, which is the whole input for a one-line
 * one; every diagnostic gets the cheap checks). */
#define FUZZ_RENDER_DIAGS 8

/* Checking code, not the library under test: clang leaves it without
 * libFuzzer's coverage and comparison hooks (FUZZ_NO_COVERAGE), which
 * would cost a call per value compared and make inputs that only vary
 * what is checked (the shape of a JSON text, the number of diagnostics)
 * look new.  The JSON scanner below and the per-diagnostic checks of
 * every harness are such code. */
#if defined(__clang__)
#define FUZZ_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define FUZZ_NO_COVERAGE
#endif

tfx_limits fuzz_limits(void)
{
    tfx_limits limits;

    tfx_limits_init(&limits);
    limits.max_source_bytes = FUZZ_MAX_SOURCE;
    limits.max_depth = FUZZ_MAX_DEPTH;
    limits.max_memory_bytes = FUZZ_MAX_MEMORY;
    return limits;
}

void fuzz_fail(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fputs("fuzz: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    abort();
}

void fuzz_print_bytes(const char *label, const void *data, size_t size)
{
    const unsigned char *s = data;
    size_t i;

    fprintf(stderr, "%s (%zu bytes): \"", label, size);
    for (i = 0; i < size; i++) {
        unsigned char c = s[i];

        if (c == '"' || c == '\\')
            fprintf(stderr, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", stderr);
        else if (c == '\t')
            fputs("\\t", stderr);
        else if (c >= 0x20 && c < 0x7F)
            fputc(c, stderr);
        else
            /* octal, so that a following hex digit is not swallowed */
            fprintf(stderr, "\\%03o", c);
    }
    fputs("\"\n", stderr);
}

/* Whether the strings a and b are equal: strcmp's answer, compared here
 * byte by byte because ASan intercepts strcmp and libFuzzer hooks the
 * interceptor for its comparison feedback (a call per compare, and
 * entries of checking strings in its tables), for every diagnostic. */
FUZZ_NO_COVERAGE
static int same_text(const char *a, const char *b)
{
    while (*a != '\0' && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

/* The category the last call found, tried first: the diagnostics of one
 * input mostly share a few categories, and the parse ones share the
 * prefix "syntax.". */
static size_t last_category;

FUZZ_NO_COVERAGE
int fuzz_known_category(const char *id)
{
    size_t i;

    if (id == NULL)
        return 0;
    if (same_text(id, fuzz_categories[last_category]))
        return 1;
    for (i = 0; i < sizeof(fuzz_categories) / sizeof(fuzz_categories[0]); i++)
        if (same_text(id, fuzz_categories[i])) {
            last_category = i;
            return 1;
        }
    return 0;
}

FUZZ_NO_COVERAGE
void fuzz_check_range(const tfx_range *r, size_t nbytes, const char *what)
{
    const char *err = NULL;

    if (r->start.byte > r->end.byte)
        err = "ends before it starts (bytes)";
    else if (r->end.byte > nbytes)
        err = "runs past the end of the source";
    else if (r->start.line < 1 || r->start.column < 1 || r->end.line < 1 || r->end.column < 1)
        err = "has a line or column 0";
    else if (r->start.line > r->end.line
             || (r->start.line == r->end.line && r->start.column > r->end.column))
        err = "runs backwards (lines and columns)";
    else if (r->end.line - 1 > r->end.byte || r->end.column - 1 > r->end.byte)
        err = "has a line or column beyond its byte offset";
    if (err != NULL)
        fuzz_fail("%s %s: %zu:%zu:%zu-%zu:%zu:%zu in a source of %zu bytes", what, err,
                  r->start.byte, r->start.line, r->start.column,
                  r->end.byte, r->end.line, r->end.column, nbytes);
}

/* ---------------------------------------------------------------------
 * JSON validity without building a value
 *
 * The deep harnesses check that every JSON text the library writes is
 * valid JSON (RFC 8259).  Building it with jansson and freeing it again
 * was most of their work (a malloc per node); this scanner walks the text
 * once, keeping only a stack of the open containers.  It accepts what
 * jansson's json_loads accepts with JSON_DECODE_ANY | JSON_ALLOW_NUL: any
 * value at the top, surrounding white space, strict UTF-8 (no overlong
 * forms, surrogates or code points above U+10FFFF), the escapes of RFC
 * 8259 with \u surrogates only in pairs, \u0000 anywhere, nesting up to
 * 2048.  It is more lenient in two points where jansson refuses valid
 * JSON: a number too large for a double or a long long, and \u0000 in an
 * object key.  Builds with -DFUZZ_JSON_CROSSCHECK (make fuzz-replay) also
 * run jansson on every text and fail when the two disagree otherwise.
 * ------------------------------------------------------------------ */

#define FUZZ_JSON_MAX_DEPTH 2048

FUZZ_NO_COVERAGE
static size_t scan_ws(const unsigned char *s, size_t n, size_t i)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        i++;
    return i;
}

/* The length of the UTF-8 sequence at s[i] (i < n), 0 if it is not one. */
FUZZ_NO_COVERAGE
static size_t scan_utf8(const unsigned char *s, size_t n, size_t i)
{
    unsigned c = s[i];
    unsigned long cp;
    unsigned long min;
    size_t len;
    size_t k;

    if (c < 0x80)
        return 1;
    if (c < 0xC2)
        return 0;   /* a continuation byte, or an overlong two-byte form */
    if (c < 0xE0) {
        len = 2;
        cp = c & 0x1F;
        min = 0x80;
    } else if (c < 0xF0) {
        len = 3;
        cp = c & 0x0F;
        min = 0x800;
    } else if (c < 0xF5) {
        len = 4;
        cp = c & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n - i < len)
        return 0;
    for (k = 1; k < len; k++) {
        if ((s[i + k] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

/* The four hex digits at s[i..i+4) as *v; 0 if there are not four. */
FUZZ_NO_COVERAGE
static int scan_hex4(const unsigned char *s, size_t n, size_t i, unsigned *v)
{
    size_t k;

    *v = 0;
    if (i > n || n - i < 4)
        return 0;
    for (k = 0; k < 4; k++) {
        unsigned c = s[i + k];

        if (c >= '0' && c <= '9')
            *v = *v * 16 + (c - '0');
        else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
            *v = *v * 16 + ((c | 0x20) - 'a' + 10);
        else
            return 0;
    }
    return 1;
}

/* The string starting at s[i] (a '"'): the index after its closing quote,
 * or 0 with *why set. */
FUZZ_NO_COVERAGE
static size_t scan_string(const unsigned char *s, size_t n, size_t i, const char **why)
{
    for (i++; i < n;) {
        unsigned c = s[i];
        size_t len;

        if (c == '"')
            return i + 1;
        if (c < 0x20) {
            *why = "a control character in a string";
            return 0;
        }
        if (c != '\\') {
            if ((len = scan_utf8(s, n, i)) == 0) {
                *why = "a string that is not UTF-8";
                return 0;
            }
            i += len;
            continue;
        }
        if (i + 1 >= n)
            break;
        c = s[i + 1];
        if (c == 'u') {
            unsigned u;
            unsigned lo;

            if (!scan_hex4(s, n, i + 2, &u)) {
                *why = "a \\u escape without four hex digits";
                return 0;
            }
            i += 6;
            if (u >= 0xDC00 && u <= 0xDFFF) {
                *why = "a low surrogate escape without its high half";
                return 0;
            }
            if (u >= 0xD800 && u <= 0xDBFF) {
                if (i + 1 >= n || s[i] != '\\' || s[i + 1] != 'u' || !scan_hex4(s, n, i + 2, &lo)
                    || lo < 0xDC00 || lo > 0xDFFF) {
                    *why = "a high surrogate escape without its low half";
                    return 0;
                }
                i += 6;
            }
        } else if (c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' || c == 'n'
                   || c == 'r' || c == 't') {
            i += 2;
        } else {
            *why = "an unknown escape in a string";
            return 0;
        }
    }
    *why = "an unterminated string";
    return 0;
}

FUZZ_NO_COVERAGE
static size_t scan_digits(const unsigned char *s, size_t n, size_t i)
{
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    return i;
}

/* The number starting at s[i]: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?;
 * the index after it, or 0 with *why set. */
FUZZ_NO_COVERAGE
static size_t scan_number(const unsigned char *s, size_t n, size_t i, const char **why)
{
    size_t j;

    if (s[i] == '-')
        i++;
    if (i < n && s[i] == '0')
        i++;
    else if (i < n && s[i] >= '1' && s[i] <= '9')
        i = scan_digits(s, n, i);
    else
        goto bad;
    if (i < n && s[i] == '.') {
        j = scan_digits(s, n, i + 1);
        if (j == i + 1)
            goto bad;
        i = j;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        j = scan_digits(s, n, i);
        if (j == i)
            goto bad;
        i = j;
    }
    /* "01", "1x": the number must end here */
    if (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == 'e' || s[i] == 'E'
                  || s[i] == '+' || s[i] == '-' || (s[i] | 0x20) == 'x'))
        goto bad;
    return i;
bad:
    *why = "a malformed number";
    return 0;
}

/* An object member's key and colon at s[i]: the index of its value, or 0
 * with *why set. */
FUZZ_NO_COVERAGE
static size_t scan_key(const unsigned char *s, size_t n, size_t i, const char **why)
{
    if (i >= n || s[i] != '"') {
        *why = "an object member without a string key";
        return 0;
    }
    if ((i = scan_string(s, n, i, why)) == 0)
        return 0;
    i = scan_ws(s, n, i);
    if (i >= n || s[i] != ':') {
        *why = "an object key without a colon";
        return 0;
    }
    return scan_ws(s, n, i + 1);
}

FUZZ_NO_COVERAGE
const char *fuzz_json_scan(const char *text, size_t nbytes, size_t *where)
{
    const unsigned char *s = (const unsigned char *)text;
    static unsigned char open[FUZZ_JSON_MAX_DEPTH];   /* '[' or '{' per open container */
    size_t depth = 0;
    const char *why = NULL;
    size_t i = scan_ws(s, nbytes, 0);

    for (;;) {
        /* a value starts at s[i] */
        unsigned c = i < nbytes ? s[i] : 0;
        size_t next = 0;

        if (c == '[' || c == '{') {
            if (depth == FUZZ_JSON_MAX_DEPTH) {
                why = "nesting deeper than 2048";
                break;
            }
            open[depth++] = (unsigned char)c;
            i = scan_ws(s, nbytes, i + 1);
            if (i < nbytes && s[i] == (c == '[' ? ']' : '}')) {
                depth--;
                i++;
            } else {
                if (c == '{' && (next = scan_key(s, nbytes, i, &why)) == 0)
                    break;
                i = c == '{' ? next : i;
                continue;
            }
        } else if (c == '"') {
            if ((next = scan_string(s, nbytes, i, &why)) == 0)
                break;
            i = next;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            if ((next = scan_number(s, nbytes, i, &why)) == 0)
                break;
            i = next;
        } else if (nbytes - i >= 4
                   && (memcmp(s + i, "true", 4) == 0 || memcmp(s + i, "null", 4) == 0)) {
            i += 4;
        } else if (nbytes - i >= 5 && memcmp(s + i, "false", 5) == 0) {
            i += 5;
        } else {
            why = i < nbytes ? "no value where one must be" : "the text ends where a value must be";
            break;
        }
        /* after a value: close containers, or go on to the next element */
        for (;;) {
            i = scan_ws(s, nbytes, i);
            if (depth == 0) {
                if (i != nbytes)
                    why = "text after the value";
                break;
            }
            if (i < nbytes && s[i] == ',') {
                i = scan_ws(s, nbytes, i + 1);
                if (open[depth - 1] == '{' && (next = scan_key(s, nbytes, i, &why)) != 0)
                    i = next;
                break;
            }
            if (i < nbytes && s[i] == (open[depth - 1] == '[' ? ']' : '}')) {
                depth--;
                i++;
                continue;
            }
            why = open[depth - 1] == '[' ? "no ',' or ']' after an array element"
                                         : "no ',' or '}' after an object member";
            break;
        }
        if (why != NULL || depth == 0)
            break;
    }
    if (where != NULL)
        *where = i;
    return why;
}

#ifdef FUZZ_JSON_CROSSCHECK
/* jansson's verdict on the same text, for the cross-check. */
static void json_crosscheck(const char *text, const char *why, const char *what)
{
    json_error_t error;
    json_t *v = json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &error);

    if (v != NULL && why != NULL)
        fuzz_fail("%s: the scanner refuses (%s) what jansson accepts: %s", what, why, text);
    /* valid JSON that jansson refuses: numbers beyond double and long long, NUL in keys */
    if (v == NULL && why == NULL && strstr(error.text, "NUL byte in object key") == NULL
        && strstr(error.text, "overflow") == NULL && strstr(error.text, "too big") == NULL)
        fuzz_fail("%s: the scanner accepts what jansson refuses (%s at %d): %s", what,
                  error.text, error.position, text);
    json_decref(v);
}
#endif

void fuzz_check_json(const char *text, int one_line, const char *what)
{
    size_t n;
    size_t at;
    const char *why;

    if (text == NULL)
        fuzz_fail("%s is NULL", what);
    n = strlen(text);
    if (one_line && (memchr(text, '\n', n) != NULL || memchr(text, '\r', n) != NULL))
        fuzz_fail("%s is not one line: %s", what, text);
    why = fuzz_json_scan(text, n, &at);
#ifdef FUZZ_JSON_CROSSCHECK
    json_crosscheck(text, why, what);
#endif
    if (why != NULL)
        fuzz_fail("%s is not valid JSON (%s at byte %zu): %s", what, why, at, text);
}

FUZZ_NO_COVERAGE
void fuzz_check_diagnostic(const tfx_diagnostic *d, size_t i, size_t nbytes, tfx_phase phase)
{
    if (d == NULL)
        fuzz_fail("diagnostic %zu is NULL", i);
    if (!fuzz_known_category(d->category))
        fuzz_fail("diagnostic %zu has the unknown category \"%s\"", i,
                  d->category != NULL ? d->category : "(null)");
    if (d->phase != phase)
        fuzz_fail("diagnostic %zu of %s has phase %s", i,
                  phase == TFX_PHASE_PARSE ? "a parse" : "an evaluation",
                  d->phase == TFX_PHASE_PARSE ? "parse" : "eval");
    if (d->severity != TFX_SEV_ERROR && d->severity != TFX_SEV_WARNING)
        fuzz_fail("diagnostic %zu has severity %d", i, (int)d->severity);
    if (d->summary == NULL || d->summary[0] == '\0')
        fuzz_fail("diagnostic %zu (%s) has no summary", i, d->category);
    if (d->has_subject)
        fuzz_check_range(&d->subject, nbytes, "a diagnostic's subject");
    if (d->has_context)
        fuzz_check_range(&d->context, nbytes, "a diagnostic's context");
}

/* Fails unless has_errors agrees with the number of error diagnostics. */
FUZZ_NO_COVERAGE
static void check_has_errors(size_t errors, int has_errors, const char *what)
{
    if (errors > 0 && !has_errors)
        fuzz_fail("%zu error diagnostics, but %s says none", errors, what);
    if (errors == 0 && has_errors)
        fuzz_fail("%s without an error diagnostic", what);
}

/* The cheap checks of a parse's diagnostics (every one): fuzz_check_diagnostic,
 * has_errors agrees with them (which also means that a parse without errors
 * has a tree: tfx_source_has_errors counts a missing tree as an error), and
 * no resource limit but the depth limit is reached by an input of at most
 * FUZZ_MAX_SOURCE bytes (running out of FUZZ_MAX_MEMORY would be a
 * finding).  Returns the number of error diagnostics. */
FUZZ_NO_COVERAGE
static size_t check_parse_diagnostics(const tfx_source *src, size_t nbytes)
{
    size_t n = tfx_source_diagnostic_count(src);
    size_t errors = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        const tfx_diagnostic *d = tfx_source_diagnostic(src, i);

        fuzz_check_diagnostic(d, i, nbytes, TFX_PHASE_PARSE);
        if (d->severity == TFX_SEV_ERROR)
            errors++;
    }
    check_has_errors(errors, tfx_source_has_errors(src), "tfx_source_has_errors");
    return errors;
}

/* Only the depth limit may be reached by an input within FUZZ_MAX_SOURCE. */
FUZZ_NO_COVERAGE
static void check_limits_reached(const tfx_source *src, size_t nbytes)
{
    size_t i;

    for (i = 0; i < tfx_source_diagnostic_count(src); i++) {
        const tfx_diagnostic *d = tfx_source_diagnostic(src, i);

        if (same_text(d->category, "resource.limit") && !same_text(d->summary, "Nesting too deep"))
            fuzz_fail("an input of %zu bytes reached a resource limit other than depth (%zu MiB "
                      "of memory): %s", nbytes, FUZZ_MAX_MEMORY >> 20, d->summary);
    }
}

void fuzz_check_source(const tfx_source *src, size_t nbytes)
{
    size_t n = tfx_source_diagnostic_count(src);
    size_t i;

    check_parse_diagnostics(src, nbytes);
    /* Rendering scans the subject's source line, and an input of bad bytes
     * has a diagnostic per byte, all made by the same code: the first
     * FUZZ_RENDER_DIAGS and the last are rendered and written as JSON. */
    for (i = 0; i < n; i++) {
        const tfx_diagnostic *d = tfx_source_diagnostic(src, i);
        char *text;

        if (i >= FUZZ_RENDER_DIAGS && i != n - 1)
            continue;
        text = tfx_diagnostic_render(src, d);
        if (text == NULL)
            fuzz_fail("tfx_diagnostic_render returned NULL");
        tfx_free(text);
        text = tfx_diagnostic_json(d);
        fuzz_check_json(text, 1, "tfx_diagnostic_json");
        tfx_free(text);
    }
}

/* An input above the size limit: one resource.limit error, no tree. */
static void check_refusal(const uint8_t *data, size_t size, tfx_mode mode, int deep)
{
    tfx_limits limits = fuzz_limits();
    tfx_source *src = tfx_source_parse(NULL, (const char *)data, size, mode, &limits);
    const tfx_diagnostic *d;

    if (src == NULL)
        fuzz_fail("tfx_source_parse returned NULL for an input above the size limit");
    if (deep)
        fuzz_check_source(src, 0);
    else
        check_parse_diagnostics(src, 0);
    d = tfx_source_diagnostic(src, 0);
    if (!tfx_source_has_errors(src) || tfx_source_diagnostic_count(src) != 1 || d == NULL
        || strcmp(d->category, "resource.limit") != 0)
        fuzz_fail("an input of %zu bytes (limit %zu) is not refused with one resource.limit "
                  "error", size, FUZZ_MAX_SOURCE);
    tfx_source_free(src);
}

/* A dump, present and (JSON) valid; from tfx_source_dump for a parse
 * without errors (the public path), from the tree itself otherwise. */
static void check_dump(const tfx_source *src, tfx_dump_format format)
{
    const tfx_node *root = src->root;
    char *text = NULL;

    if (!tfx_source_has_errors(src))
        text = tfx_source_dump(src, format);
    else if (format == TFX_DUMP_SEXPR || format == TFX_DUMP_SEXPR_RANGES)
        text = tfx_ast_sexpr(root, format == TFX_DUMP_SEXPR_RANGES);
    else if (format == TFX_DUMP_JSON)
        text = tfx_ast_json(root);
    else
        text = tfx_ast_print(root);
    if (text == NULL)
        fuzz_fail("the dump (format %d) of a %s tree is NULL", (int)format,
                  tfx_source_has_errors(src) ? "partial" : "whole");
    if (format == TFX_DUMP_JSON)
        fuzz_check_json(text, 0, "the JSON dump");
    tfx_free(text);
}

void fuzz_parse_one(const uint8_t *data, size_t size, tfx_mode mode)
{
    static const tfx_dump_format formats[] = {
        TFX_DUMP_SEXPR, TFX_DUMP_SEXPR_RANGES, TFX_DUMP_JSON, TFX_DUMP_SOURCE,
    };
    tfx_limits limits = fuzz_limits();
    tfx_source *src;
    size_t i;

    if (size > FUZZ_MAX_SOURCE) {
        check_refusal(data, size, mode, 1);
        return;
    }
    src = tfx_source_parse(NULL, (const char *)data, size, mode, &limits);
    if (src == NULL)
        fuzz_fail("tfx_source_parse returned NULL");
    fuzz_check_source(src, size);
    check_limits_reached(src, size);
    /* The tree the source keeps (impl/source.h): one parse, not a second
     * one with the internal tfx_parse; every format dumped once. */
    if (src->root != NULL) {
        int errors = tfx_source_has_errors(src);
        const char *err = tfx_ast_check(src->root, size);

        if (err != NULL && (!errors || FUZZ_CHECK_ERROR_TREES))
            fuzz_fail("tfx_ast_check on the tree of a parse %s: %s",
                      errors ? "with errors" : "without errors", err);
        for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
            check_dump(src, formats[i]);
    }
    fuzz_check_refs(src, size);
    tfx_source_free(src);
}

void fuzz_parse_fast(const uint8_t *data, size_t size, tfx_mode mode)
{
    tfx_limits limits = fuzz_limits();
    tfx_source *src;

    if (size > FUZZ_MAX_SOURCE) {
        check_refusal(data, size, mode, 0);
        return;
    }
    src = tfx_source_parse(NULL, (const char *)data, size, mode, &limits);
    if (src == NULL)
        fuzz_fail("tfx_source_parse returned NULL");
    check_parse_diagnostics(src, size);
    check_limits_reached(src, size);
    tfx_source_free(src);
}

/* [refs.result] [refs.range] The references of any parse (with errors
 * too): every range inside the input and ordered, each traversal's range
 * from its root through its last step, texts present, the JSON list
 * valid JSON.  (NULL is allowed: a number key like 1e999999999 is too
 * long to write out.) */
void fuzz_check_refs(const tfx_source *src, size_t size)
{
    tfx_refs *r = tfx_source_refs(src);
    size_t i;
    size_t j;
    char *json;

    if (r == NULL)
        return;   /* a number key too long to write out (tfexpr.h) */
    for (i = 0; i < tfx_refs_count(r); i++) {
        tfx_range whole = tfx_ref_range(r, i);
        tfx_range root = tfx_ref_root_range(r, i);
        size_t n = tfx_ref_step_count(r, i);

        if (whole.start.byte > whole.end.byte || whole.end.byte > size
            || root.start.byte != whole.start.byte || root.end.byte > whole.end.byte)
            fuzz_fail("reference %zu has a range outside the input or its root", i);
        if (tfx_ref_text(r, i) == NULL)
            fuzz_fail("reference %zu has no text", i);
        for (j = 0; j < n; j++) {
            const tfx_ref_step *s = tfx_ref_step_at(r, i, j);

            if (s->range.start.byte > s->range.end.byte || s->range.end.byte > whole.end.byte
                || s->range.start.byte < root.end.byte)
                fuzz_fail("step %zu of reference %zu lies outside its traversal", j, i);
            if (s->kind == TFX_REF_INDEX && (s->key_json == NULL || s->key_text == NULL))
                fuzz_fail("step %zu of reference %zu has no key", j, i);
        }
    }
    json = tfx_refs_json(r);
    fuzz_check_json(json, 1, "tfx_refs_json");
    tfx_free(json);
    tfx_refs_free(r);
}

/* ---------------------------------------------------------------------
 * The evaluation check of fuzz_eval and fuzz_collections
 * ------------------------------------------------------------------ */

/* The marks the fixed contexts of the evaluation harnesses hold; a result
 * may carry no other. */
static int known_mark(const char *m)
{
    return strcmp(m, "sensitive") == 0 || strcmp(m, "other") == 0;
}

static void check_node(json_t *node, json_t *type, const char *path);

/* Fails unless a node's payload conforms to its type. */
static void check_payload(json_t *v, json_t *type, const char *path)
{
    const char *prim = json_string_value(type);
    const char *kind = json_is_array(type) ? json_string_value(json_array_get(type, 0)) : NULL;
    json_t *arg = json_is_array(type) ? json_array_get(type, 1) : NULL;
    size_t i;

    if (prim != NULL) {
        if ((strcmp(prim, "bool") == 0 && !json_is_boolean(v))
            || ((strcmp(prim, "number") == 0 || strcmp(prim, "string") == 0) && !json_is_string(v))
            || strcmp(prim, "dynamic") == 0)
            fuzz_fail("%s: a known value does not conform to type %s", path, prim);
        return;
    }
    if (kind == NULL || arg == NULL)
        fuzz_fail("%s: malformed type", path);
    if (strcmp(kind, "list") == 0 || strcmp(kind, "set") == 0 || strcmp(kind, "tuple") == 0) {
        if (!json_is_array(v))
            fuzz_fail("%s: %s value is not an array", path, kind);
        if (strcmp(kind, "tuple") == 0 && json_array_size(v) != json_array_size(arg))
            fuzz_fail("%s: tuple of %zu elements has %zu", path, json_array_size(arg),
                      json_array_size(v));
        for (i = 0; i < json_array_size(v); i++)
            check_node(json_array_get(v, i),
                       strcmp(kind, "tuple") == 0 ? json_array_get(arg, i) : arg, path);
    } else if (strcmp(kind, "map") == 0 || strcmp(kind, "object") == 0) {
        const char *key;
        json_t *item;

        if (!json_is_object(v))
            fuzz_fail("%s: %s value is not an object", path, kind);
        if (strcmp(kind, "object") == 0 && json_object_size(v) != json_object_size(arg))
            fuzz_fail("%s: object attributes differ from its type", path);
        json_object_foreach(v, key, item) {
            json_t *t = strcmp(kind, "map") == 0 ? arg : json_object_get(arg, key);

            if (t == NULL)
                fuzz_fail("%s: attribute \"%s\" is not in the object type", path, key);
            check_node(item, t, path);
        }
    } else {
        fuzz_fail("%s: unknown type kind %s", path, kind);
    }
}

/* Fails unless a node (null, unknown, or a payload) conforms to type. */
static void check_node(json_t *node, json_t *type, const char *path)
{
    json_t *own = json_object_get(node, "type");
    json_t *marks = json_object_get(node, "marks");
    size_t i;

    if (!json_is_object(node))
        fuzz_fail("%s: a node is not an object", path);
    if (own != NULL) {
        int under_dynamic = json_is_string(type) && strcmp(json_string_value(type), "dynamic") == 0;

        if (!under_dynamic && !json_equal(own, type))
            fuzz_fail("%s: a node carries its own type under a non-dynamic type", path);
        type = own;
    }
    for (i = 0; i < json_array_size(marks); i++) {
        const char *m = json_string_value(json_array_get(marks, i));

        if (m == NULL || !known_mark(m))
            fuzz_fail("%s: mark %s is not from the context", path, m != NULL ? m : "(not a string)");
    }
    if (json_is_true(json_object_get(node, "null")) || json_is_true(json_object_get(node, "unknown")))
        return;
    if (json_object_get(node, "v") == NULL)
        fuzz_fail("%s: a node has no payload", path);
    check_payload(json_object_get(node, "v"), type, path);
}

/* The typed JSON of a result, checked; malloc'd text or NULL. */
static char *check_value(const tfx_result *r)
{
    char *text = tfx_result_json(r);
    json_error_t error;
    json_t *root;

    if (text == NULL)
        return NULL;   /* a number too long to write under the string limit */
    root = json_loads(text, JSON_ALLOW_NUL, &error);
    if (root == NULL && strstr(text, "\\u0000") != NULL) {
        /* jansson takes no NUL in an object key (an attribute or map key
         * may hold one): check a copy with every \u0000 made \u0001 */
        char *copy = strdup(text);
        char *p;

        if (copy == NULL)
            fuzz_fail("out of memory outside the library's budget");
        for (p = strstr(copy, "\\u0000"); p != NULL; p = strstr(p + 6, "\\u0000"))
            p[5] = '1';
        root = json_loads(copy, JSON_ALLOW_NUL, &error);
        free(copy);
    }
    if (root == NULL)
        fuzz_fail("the value's JSON does not parse: %s", error.text);
    if (json_object_get(root, "type") == NULL)
        fuzz_fail("the value has no type");
    check_node(root, json_object_get(root, "type"), "value");
    json_decref(root);
    return text;
}

/* The limits of the evaluation harnesses: tight, so that each trips. */
static tfx_eval_limits eval_limits(void)
{
    tfx_eval_limits limits;

    tfx_eval_limits_init(&limits);
    limits.max_steps = 100000;
    limits.max_depth = 64;
    limits.max_string_bytes = (size_t)1 << 20;
    limits.max_collection_items = 10000;
    limits.max_memory_bytes = FUZZ_MAX_MEMORY;
    return limits;
}

/* The cheap checks of an evaluation's diagnostics (fuzz_check_diagnostic
 * on each, has_errors agrees); returns the number of errors. */
static size_t check_eval_diagnostics(const tfx_result *r, size_t size)
{
    size_t errors = 0;
    size_t i;

    for (i = 0; i < tfx_result_diagnostic_count(r); i++) {
        const tfx_diagnostic *diag = tfx_result_diagnostic(r, i);

        fuzz_check_diagnostic(diag, i, size, TFX_PHASE_EVAL);
        if (diag->severity == TFX_SEV_ERROR)
            errors++;
    }
    check_has_errors(errors, tfx_result_has_errors(r), "tfx_result_has_errors");
    return errors;
}

/* One evaluation, checked; returns its value's JSON (or NULL after errors)
 * and a summary of its diagnostics in *digest. */
static char *evaluate(const tfx_source *src, const tfx_context *ctx, size_t size, char **digest)
{
    tfx_eval_limits limits = eval_limits();
    tfx_result *r;
    size_t i;
    char *value = NULL;
    size_t cap = 64;
    size_t len = 0;
    char *d = malloc(cap);

    r = tfx_evaluate(src, ctx, &limits);
    if (r == NULL || d == NULL)
        fuzz_fail("out of memory outside the library's budget");
    d[0] = '\0';
    for (i = 0; i < tfx_result_diagnostic_count(r); i++) {
        const tfx_diagnostic *diag = tfx_result_diagnostic(r, i);
        char line[128];
        int n;

        n = snprintf(line, sizeof(line), "%s@%zu;", diag->category,
                     diag->has_subject ? diag->subject.start.byte : (size_t)0);
        if (n > 0 && len + (size_t)n + 1 > cap) {
            char *more = realloc(d, cap * 2 + (size_t)n);

            if (more == NULL)
                fuzz_fail("out of memory outside the library's budget");
            d = more;
            cap = cap * 2 + (size_t)n;
        }
        if (n > 0) {
            memcpy(d + len, line, (size_t)n + 1);
            len += (size_t)n;
        }
    }
    if (check_eval_diagnostics(r, size) == 0)
        value = check_value(r);
    tfx_result_free(r);
    *digest = d;
    return value;
}

/* The source of an evaluation harness's input: an expression, or after a
 * first byte 0x01 a bare template; NULL for an input above
 * FUZZ_MAX_SOURCE (the parse harnesses check the refusal). */
static tfx_source *eval_source(const uint8_t *data, size_t size, size_t *nbytes)
{
    tfx_mode mode = TFX_MODE_EXPRESSION;
    tfx_limits limits = fuzz_limits();
    tfx_source *src;

    if (size > 0 && data[0] == 0x01) {
        mode = TFX_MODE_TEMPLATE;
        data++;
        size--;
    }
    *nbytes = size;
    if (size > FUZZ_MAX_SOURCE)
        return NULL;
    src = tfx_source_parse("fuzz.hcl", (const char *)data, size, mode, &limits);
    if (src == NULL)
        fuzz_fail("out of memory outside the library's budget");
    return src;
}

void fuzz_eval_input(const tfx_context *ctx, const uint8_t *data, size_t size)
{
    tfx_source *src = eval_source(data, size, &size);

    if (src == NULL)
        return;
    if (!tfx_source_has_errors(src)) {
        char *d1;
        char *d2;
        char *v1 = evaluate(src, ctx, size, &d1);
        char *v2 = evaluate(src, ctx, size, &d2);

        if (strcmp(d1, d2) != 0)
            fuzz_fail("two evaluations give different diagnostics: %s / %s", d1, d2);
        if ((v1 == NULL) != (v2 == NULL) || (v1 != NULL && strcmp(v1, v2) != 0))
            fuzz_fail("two evaluations give different values: %s / %s", v1 != NULL ? v1 : "-",
                      v2 != NULL ? v2 : "-");
        tfx_free(v1);
        tfx_free(v2);
        free(d1);
        free(d2);
    }
    tfx_source_free(src);
}

void fuzz_eval_fast(const tfx_context *ctx, const uint8_t *data, size_t size)
{
    tfx_source *src = eval_source(data, size, &size);
    tfx_eval_limits limits = eval_limits();

    if (src == NULL)
        return;
    if (!tfx_source_has_errors(src)) {
        tfx_result *r = tfx_evaluate(src, ctx, &limits);

        if (r == NULL)
            fuzz_fail("out of memory outside the library's budget");
        /* a value xor an error: an evaluation without errors has a value
         * (its type is the cheapest thing to ask for) */
        if (check_eval_diagnostics(r, size) == 0) {
            char *type = tfx_result_type_json(r);

            if (type == NULL)
                fuzz_fail("an evaluation without errors has no value");
            tfx_free(type);
        }
        tfx_result_free(r);
    }
    tfx_source_free(src);
}

tfx_context *fuzz_eval_context(const char *variables, size_t nbytes)
{
    char *error = NULL;
    tfx_context *ctx = tfx_context_new();

    if (ctx == NULL || tfx_context_set_typed_all(ctx, variables, nbytes, &error) != 0)
        fuzz_fail("the fixed context does not load: %s", error != NULL ? error : "out of memory");
    /* OpenTofu's table is Terraform's plus base64gunzip, urldecode and
     * cidrcontains ([flavor.table]): with it every function is reached */
    if (tfx_context_set_flavor(ctx, TFX_FLAVOR_OPENTOFU) != 0)
        fuzz_fail("the OpenTofu function table cannot be chosen");
    return ctx;
}

/* The fixed variables of fuzz_eval and fuzz_eval_fast: the fixtures of
 * the design notes, in the corpus's typed encoding. */
static const char eval_variables[] =
    "{"
    "\"s\":{\"type\":\"string\",\"v\":\"hello\"},"
    "\"n\":{\"type\":\"number\",\"v\":\"5\"},"
    "\"f\":{\"type\":\"number\",\"v\":\"1.5\"},"
    "\"b\":{\"type\":\"bool\",\"v\":true},"
    "\"nul\":{\"type\":\"dynamic\",\"null\":true},"
    "\"nuls\":{\"type\":\"string\",\"null\":true},"
    "\"l\":{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"a\"},{\"v\":\"b\"},{\"v\":\"c\"}]},"
    "\"ln\":{\"type\":[\"list\",\"number\"],\"v\":[{\"v\":\"1\"},{\"v\":\"2\"},{\"v\":\"3\"}]},"
    "\"t\":{\"type\":[\"tuple\",[\"string\",\"number\",\"bool\"]],"
    "\"v\":[{\"v\":\"a\"},{\"v\":\"1\"},{\"v\":true}]},"
    "\"st\":{\"type\":[\"set\",\"string\"],\"v\":[{\"v\":\"b\"},{\"v\":\"a\"},{\"v\":\"c\"}]},"
    "\"m\":{\"type\":[\"map\",\"string\"],\"v\":{\"a\":{\"v\":\"x\"},\"b\":{\"v\":\"y\"}}},"
    "\"o\":{\"type\":[\"object\",{\"a\":\"string\",\"b\":\"number\",\"c\":[\"list\",\"number\"]}],"
    "\"v\":{\"a\":{\"v\":\"x\"},\"b\":{\"v\":\"1\"},\"c\":{\"v\":[{\"v\":\"1\"},{\"v\":\"2\"}]}}},"
    "\"lo\":{\"type\":[\"list\",[\"object\",{\"name\":\"string\",\"id\":\"number\"}]],"
    "\"v\":[{\"v\":{\"name\":{\"v\":\"a\"},\"id\":{\"v\":\"1\"}}},"
    "{\"v\":{\"name\":{\"v\":\"b\"},\"id\":{\"null\":true}}}]},"
    "\"us\":{\"type\":\"string\",\"unknown\":true},"
    "\"un\":{\"type\":\"number\",\"unknown\":true},"
    "\"ub\":{\"type\":\"bool\",\"unknown\":true},"
    "\"ul\":{\"type\":[\"list\",\"string\"],\"unknown\":true},"
    "\"uo\":{\"type\":[\"object\",{\"a\":\"string\"}],\"unknown\":true},"
    "\"dyn\":{\"type\":\"dynamic\",\"unknown\":true},"
    "\"lu\":{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"a\"},{\"unknown\":true}]},"
    "\"sens\":{\"type\":\"string\",\"v\":\"secret\",\"marks\":[\"sensitive\"]},"
    "\"sensn\":{\"type\":\"number\",\"v\":\"7\",\"marks\":[\"sensitive\"]},"
    "\"sensl\":{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"a\"},"
    "{\"v\":\"b\",\"marks\":[\"sensitive\"]}]},"
    "\"sensu\":{\"type\":\"string\",\"unknown\":true,\"marks\":[\"sensitive\"]},"
    "\"other\":{\"type\":\"string\",\"v\":\"o\",\"marks\":[\"other\"]}"
    "}";

tfx_context *fuzz_eval_default_context(void)
{
    return fuzz_eval_context(eval_variables, sizeof(eval_variables) - 1);
}
