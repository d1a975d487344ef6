/* SPDX-License-Identifier: MPL-2.0 */
/*
 * util.c — memory, growable buffers, string lists, UTF-8 cleaning, JSON
 * helpers and messages for the conformance runner.
 *
 * Allocation failure ends the runner with exit status 2: it is a test tool,
 * and there is nothing useful to do without memory.
 */
#include "runner.h"

#include <errno.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

RN_NORETURN static void out_of_memory(void)
{
    fputs(RN_PROGRAM ": out of memory\n", stderr);
    exit(RN_EXIT_ERROR);
}

void *rn_xmalloc(size_t nbytes)
{
    void *p = malloc(nbytes == 0 ? 1 : nbytes);

    if (p == NULL)
        out_of_memory();
    return p;
}

void *rn_xcalloc(size_t count, size_t nbytes)
{
    void *p = calloc(count == 0 ? 1 : count, nbytes == 0 ? 1 : nbytes);

    if (p == NULL)
        out_of_memory();
    return p;
}

void *rn_xrealloc(void *p, size_t nbytes)
{
    void *q = realloc(p, nbytes == 0 ? 1 : nbytes);

    if (q == NULL)
        out_of_memory();
    return q;
}

char *rn_xstrndup(const char *s, size_t nbytes)
{
    char *copy = rn_xmalloc(nbytes + 1);

    memcpy(copy, s, nbytes);
    copy[nbytes] = '\0';
    return copy;
}

char *rn_xstrdup(const char *s)
{
    return rn_xstrndup(s, strlen(s));
}

/* Every formatted message of the runner is made here.  (The NOLINTs: when
 * one clang-tidy 14 run checks several files, its valist checker stops
 * recognising va_start/va_copy after the first file and reports these
 * calls as using an uninitialised va_list.  Checked one file per run,
 * they pass.) */
char *rn_xvasprintf(const char *fmt, va_list ap)
{
    va_list again;
    char *s;
    int n;

    va_copy(again, ap);
    /* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized) */
    n = vsnprintf(NULL, 0, fmt, ap);
    if (n < 0) {
        va_end(again);
        return rn_xstrdup("?");
    }
    s = rn_xmalloc((size_t)n + 1);
    /* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized) */
    (void)vsnprintf(s, (size_t)n + 1, fmt, again);
    va_end(again);
    return s;
}

char *rn_xasprintf(const char *fmt, ...)
{
    va_list ap;
    char *s;

    va_start(ap, fmt);
    s = rn_xvasprintf(fmt, ap);
    va_end(ap);
    return s;
}

/* ------------------------------------------------------------------ */
/* Buffers */

static void buf_reserve(rn_buf *b, size_t more)
{
    size_t need = b->nbytes + more + 1;

    if (need <= b->cap)
        return;
    if (b->cap == 0)
        b->cap = 64;
    while (b->cap < need)
        b->cap *= 2;
    b->data = rn_xrealloc(b->data, b->cap);
}

void rn_buf_addn(rn_buf *b, const char *s, size_t nbytes)
{
    buf_reserve(b, nbytes);
    if (nbytes > 0)
        memcpy(b->data + b->nbytes, s, nbytes);
    b->nbytes += nbytes;
    b->data[b->nbytes] = '\0';
}

void rn_buf_adds(rn_buf *b, const char *s)
{
    rn_buf_addn(b, s, strlen(s));
}

void rn_buf_addc(rn_buf *b, char c)
{
    rn_buf_addn(b, &c, 1);
}

/* What rn_buf_printf(b, "%zu", n) adds, without printf: paths into
 * values add an index per element checked or compared. */
void rn_buf_add_size(rn_buf *b, size_t n)
{
    char digits[3 * sizeof(size_t) + 1];
    size_t i = sizeof(digits);

    do {
        digits[--i] = (char)('0' + n % 10);
        n /= 10;
    } while (n > 0);
    rn_buf_addn(b, digits + i, sizeof(digits) - i);
}

void rn_buf_printf(rn_buf *b, const char *fmt, ...)
{
    va_list ap;
    char *s;

    va_start(ap, fmt);
    s = rn_xvasprintf(fmt, ap);
    va_end(ap);
    rn_buf_adds(b, s);
    free(s);
}

void rn_buf_add_indented(rn_buf *b, const char *indent, const char *s)
{
    while (*s != '\0') {
        const char *nl = strchr(s, '\n');
        size_t nbytes = nl != NULL ? (size_t)(nl - s) : strlen(s);

        rn_buf_adds(b, indent);
        rn_buf_addn(b, s, nbytes);
        rn_buf_addc(b, '\n');
        s += nbytes;
        if (*s == '\n')
            s++;
    }
}

char *rn_buf_steal(rn_buf *b)
{
    char *s = b->data != NULL ? b->data : rn_xstrdup("");

    b->data = NULL;
    b->nbytes = 0;
    b->cap = 0;
    return s;
}

void rn_buf_free(rn_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->nbytes = 0;
    b->cap = 0;
}

/* ------------------------------------------------------------------ */
/* String lists */

void rn_strlist_add(rn_strlist *l, char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap == 0 ? 8 : l->cap * 2;
        l->items = rn_xrealloc(l->items, l->cap * sizeof(*l->items));
    }
    l->items[l->n++] = s;
}

void rn_strlist_addf(rn_strlist *l, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    rn_strlist_add(l, rn_xvasprintf(fmt, ap));
    va_end(ap);
}

void rn_strlist_free(rn_strlist *l)
{
    size_t i;

    for (i = 0; i < l->n; i++)
        free(l->items[i]);
    free(l->items);
    l->items = NULL;
    l->n = 0;
    l->cap = 0;
}

/* ------------------------------------------------------------------ */
/* UTF-8 */

/* The length of the valid UTF-8 sequence at s (RFC 3629: no overlongs,
 * no surrogates, nothing above U+10FFFF), or 0 if there is none. */
static size_t utf8_seq_nbytes(const unsigned char *s, size_t avail)
{
    unsigned char c = s[0];
    size_t n;
    size_t i;
    unsigned char lo = 0x80;
    unsigned char hi = 0xBF;

    if (c == 0)
        return 0;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (avail < n)
        return 0;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

char *rn_utf8_quote(const char *s, size_t nbytes, size_t max_nbytes)
{
    const unsigned char *p = (const unsigned char *)s;
    rn_buf b = {0};
    size_t i = 0;

    while (i < nbytes) {
        size_t n = utf8_seq_nbytes(p + i, nbytes - i);

        if (b.nbytes >= max_nbytes) {
            rn_buf_adds(&b, "...");
            break;
        }
        if (n == 0) {
            rn_buf_adds(&b, "\xEF\xBF\xBD"); /* U+FFFD */
            i++;
        } else {
            rn_buf_addn(&b, s + i, n);
            i += n;
        }
    }
    return rn_buf_steal(&b);
}

char *rn_utf8_clean(const char *s, size_t nbytes)
{
    return rn_utf8_quote(s, nbytes, (size_t)-1);
}

bool rn_utf8_valid(const char *s, size_t nbytes)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;

    while (i < nbytes) {
        size_t n = p[i] == 0 ? 1 : utf8_seq_nbytes(p + i, nbytes - i);

        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

char *rn_bytes_escape(const char *s, size_t nbytes)
{
    const unsigned char *p = (const unsigned char *)s;
    rn_buf b = {0};
    size_t i = 0;

    rn_buf_addc(&b, '"');
    while (i < nbytes) {
        size_t n = utf8_seq_nbytes(p + i, nbytes - i);

        if (n == 0 || p[i] < 0x20 || p[i] == 0x7F || p[i] == '"' || p[i] == '\\') {
            if (n != 0 && (p[i] == '"' || p[i] == '\\'))
                rn_buf_printf(&b, "\\%c", p[i]);
            else
                rn_buf_printf(&b, "\\x%02X", p[i]);
            i++;
        } else {
            rn_buf_addn(&b, s + i, n);
            i += n;
        }
    }
    rn_buf_addc(&b, '"');
    return rn_buf_steal(&b);
}

/* ------------------------------------------------------------------ */
/* Base64 */

/* The value of a base64 digit (RFC 4648, section 4), or -1. */
static int base64_digit(char c)
{
    static const char digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char *at = c != '\0' ? strchr(digits, c) : NULL;

    return at != NULL ? (int)(at - digits) : -1;
}

bool rn_base64_decode(const char *s, size_t nchars, rn_buf *out)
{
    size_t npad = 0;
    size_t i;
    unsigned long acc = 0;
    int nbits = 0;

    while (npad < 2 && npad < nchars && s[nchars - 1 - npad] == '=')
        npad++;
    if ((nchars % 4) != 0 && npad > 0)
        return false;
    for (i = 0; i < nchars - npad; i++) {
        int d = base64_digit(s[i]);

        if (d < 0)
            return false;
        acc = ((acc << 6) | (unsigned long)d) & 0xFFFFFF;
        nbits += 6;
        if (nbits >= 8) {
            nbits -= 8;
            rn_buf_addc(out, (char)((acc >> nbits) & 0xFF));
        }
    }
    /* left-over bits must be zero, and no lone sixth of a byte */
    return nbits < 6 && (acc & ((1UL << nbits) - 1)) == 0;
}

/* ------------------------------------------------------------------ */
/* Messages */

void rn_error(const char *fmt, ...)
{
    va_list ap;
    char *s;

    va_start(ap, fmt);
    s = rn_xvasprintf(fmt, ap);
    va_end(ap);
    fprintf(stderr, RN_PROGRAM ": error: %s\n", s);
    free(s);
}

void rn_warn(const char *fmt, ...)
{
    va_list ap;
    char *s;

    va_start(ap, fmt);
    s = rn_xvasprintf(fmt, ap);
    va_end(ap);
    fprintf(stderr, RN_PROGRAM ": warning: %s\n", s);
    free(s);
}

/* ------------------------------------------------------------------ */
/* JSON */

/* The whole file in *b; false with errno set on a failure. */
static bool slurp(const char *path, rn_buf *b)
{
    FILE *f = fopen(path, "rb");
    char chunk[65536];
    size_t n;
    bool ok;

    if (f == NULL)
        return false;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
        rn_buf_addn(b, chunk, n);
    ok = !ferror(f);
    if (fclose(f) != 0)
        ok = false;
    return ok;
}

/* The file is read whole and parsed from memory: jansson's own file
 * reader takes it a getc(3) at a time, which was a tenth of loading the
 * corpus. */
json_t *rn_json_load_file(const char *path, char **why)
{
    json_error_t error;
    rn_buf b = {0};
    json_t *j;

    if (!slurp(path, &b)) {
        *why = rn_xasprintf("%s: unable to open %s: %s", path, path, strerror(errno));
        rn_buf_free(&b);
        return NULL;
    }
    j = json_loadb(b.data != NULL ? b.data : "", b.nbytes,
                   JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &error);
    rn_buf_free(&b);
    if (j == NULL) {
        if (error.line > 0)
            *why = rn_xasprintf("%s:%d:%d: %s", path, error.line,
                                error.column, error.text);
        else
            *why = rn_xasprintf("%s: %s", path, error.text);
    }
    return j;
}

const char *rn_json_str(json_t *object, const char *key)
{
    return json_string_value(json_object_get(object, key));
}

bool rn_json_array_has_str(json_t *array, const char *s)
{
    size_t i;
    json_t *item;

    json_array_foreach(array, i, item) {
        const char *t = json_string_value(item);

        if (t != NULL && strcmp(t, s) == 0)
            return true;
    }
    return false;
}

bool rn_json_is_str_array(json_t *a)
{
    size_t i;
    json_t *item;

    if (a == NULL)
        return true;
    if (!json_is_array(a))
        return false;
    json_array_foreach(a, i, item) {
        if (!json_is_string(item))
            return false;
    }
    return true;
}

char *rn_json_compact(json_t *j)
{
    char *text = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);

    if (text == NULL)
        return rn_xstrdup("?");
    return text;
}

bool rn_star_match(const char *pattern, const char *text)
{
    const char *star = NULL; /* the last '*' seen in pattern */
    const char *resume = NULL; /* where text resumes after that '*' */

    while (*text != '\0') {
        if (*pattern == '*') {
            star = pattern++;
            resume = text;
        } else if (*pattern == *text) {
            pattern++;
            text++;
        } else if (star != NULL) {
            pattern = star + 1;
            text = ++resume;
        } else
            return false;
    }
    while (*pattern == '*')
        pattern++;
    return *pattern == '\0';
}
