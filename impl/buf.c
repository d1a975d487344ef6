/* SPDX-License-Identifier: MPL-2.0 */
/*
 * buf.c — growable byte buffers.
 */
#include "buf.h"

#include <stdint.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

static bool reserve(tfx_buf *b, size_t extra)
{
    size_t need;
    char *p;
    size_t cap;

    if (b->failed)
        return false;
    if (extra > (size_t)-1 - b->len - 1) {
        b->failed = true;
        return false;
    }
    need = b->len + extra + 1;
    if (need <= b->cap)
        return true;
    cap = b->cap == 0 ? 64 : b->cap;
    while (cap < need)
        cap = cap > (size_t)-1 / 2 ? need : cap * 2;
    p = realloc(b->data, cap);
    if (p == NULL) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void tfx_buf_put(tfx_buf *b, const char *s, size_t n)
{
    if (!reserve(b, n))
        return;
    if (n > 0)
        memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void tfx_buf_puts(tfx_buf *b, const char *s)
{
    tfx_buf_put(b, s, strlen(s));
}

void tfx_buf_putc(tfx_buf *b, char c)
{
    tfx_buf_put(b, &c, 1);
}

void tfx_buf_printf(tfx_buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void tfx_buf_json_escape(tfx_buf *b, const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];

        switch (c) {
        case '"': tfx_buf_puts(b, "\\\""); break;
        case '\\': tfx_buf_puts(b, "\\\\"); break;
        case '\n': tfx_buf_puts(b, "\\n"); break;
        case '\r': tfx_buf_puts(b, "\\r"); break;
        case '\t': tfx_buf_puts(b, "\\t"); break;
        default:
            if (c < 0x20 || c == 0x7F) {
                tfx_buf_printf(b, "\\u%04x", c);
            } else if (c >= 0x80) {
                int32_t cp;
                size_t len = tfx_text_decode((const unsigned char *)s + i, n - i, &cp);

                /* Bytes that are not UTF-8 cannot be JSON text. */
                if (cp < 0)
                    tfx_buf_puts(b, "\\ufffd");
                else
                    tfx_buf_put(b, s + i, len);
                i += len - 1;
            } else {
                tfx_buf_putc(b, (char)c);
            }
        }
    }
}

char *tfx_buf_take(tfx_buf *b)
{
    char *p = b->failed ? NULL : b->data;

    if (b->failed)
        free(b->data);
    else if (p == NULL)
        p = calloc(1, 1);
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->failed = false;
    return p;
}
