/* SPDX-License-Identifier: MPL-2.0 */
/*
 * out.c — the command line tool's output: always valid UTF-8, and JSON
 * strings escaped as RFC 8259 requires (issue 14, "always-valid machine
 * output").  The library's JSON is valid already; writing it through
 * cli_write as well means no input, file name or argument can make the
 * tool write bytes a JSON or UTF-8 reader rejects.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */

size_t cli_utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    size_t i;
    unsigned char lo = 0x80, hi = 0xBF; /* the second byte's range */

    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0;          /* no overlong forms */
        else if (c == 0xED)
            hi = 0x9F;          /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;          /* nothing past U+10FFFF */
    } else
        return 0;
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return len;
}

void cli_write(FILE *f, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t start = 0, i = 0;

    while (i < n) {
        size_t len = cli_utf8_len(p + i, n - i);

        if (len > 0) {
            i += len;
            continue;
        }
        fwrite(s + start, 1, i - start, f);
        fputs(replacement, f);
        i++;
        start = i;
    }
    fwrite(s + start, 1, n - start, f);
}

void cli_puts(FILE *f, const char *s)
{
    if (s != NULL)
        cli_write(f, s, strlen(s));
}

void cli_putline(const char *s)
{
    cli_puts(stdout, s);
    fputc('\n', stdout);
}

static void cli_vprintf(FILE *f, const char *fmt, va_list ap) CLI_PRINTF(2, 0);

static void cli_vprintf(FILE *f, const char *fmt, va_list ap)
{
    char small[512];
    va_list again;
    int n;

    va_copy(again, ap);
    n = vsnprintf(small, sizeof(small), fmt, ap);
    if (n < 0) {
        va_end(again);
        return;
    }
    if ((size_t)n < sizeof(small)) {
        cli_write(f, small, (size_t)n);
    } else {
        char *big = malloc((size_t)n + 1);

        if (big != NULL) {
            vsnprintf(big, (size_t)n + 1, fmt, again);
            cli_write(f, big, (size_t)n);
            free(big);
        }
    }
    va_end(again);
}

void cli_printf(FILE *f, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    cli_vprintf(f, fmt, ap);
    va_end(ap);
}

const char cli_unshowable[] =
    "the value cannot be shown: a number's text is longer than the string limit, or memory ran out";

/* Where messages go: standard error unless cli_set_err chose another
 * stream (the fuzz harnesses silence them). */
static FILE *err_stream;

FILE *cli_err(void)
{
    return err_stream != NULL ? err_stream : stderr;
}

void cli_set_err(FILE *f)
{
    err_stream = f;
}

void cli_msg(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    cli_vprintf(cli_err(), fmt, ap);
    va_end(ap);
}

void cli_json_string(FILE *f, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;

    fputc('"', f);
    while (i < n) {
        unsigned char c = p[i];
        size_t len = cli_utf8_len(p + i, n - i);

        if (len == 0) {
            fputs("\\ufffd", f);
            i++;
            continue;
        }
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc(c, f);
        } else if (c == '\n') {
            fputs("\\n", f);
        } else if (c == '\t') {
            fputs("\\t", f);
        } else if (c == '\r') {
            fputs("\\r", f);
        } else if (c < 0x20) {
            fprintf(f, "\\u%04x", (unsigned)c);
        } else {
            fwrite(s + i, 1, len, f);
        }
        i += len;
    }
    fputc('"', f);
}
