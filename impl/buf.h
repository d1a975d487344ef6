/* SPDX-License-Identifier: MPL-2.0 */
/*
 * buf.h — a growable byte buffer in malloc'd memory, for building text.
 * A failed allocation sets `failed`; later appends are ignored.
 */
#ifndef TFX_BUF_H
#define TFX_BUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *data;      /* NUL-terminated when not NULL */
    size_t len;
    size_t cap;
    bool failed;
} tfx_buf;

void tfx_buf_put(tfx_buf *b, const char *s, size_t n);
void tfx_buf_puts(tfx_buf *b, const char *s);
void tfx_buf_putc(tfx_buf *b, char c);
void tfx_buf_printf(tfx_buf *b, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends s[0..n) as the contents of a JSON string (no quotes); a byte
 * that is not part of valid UTF-8 becomes U+FFFD. */
void tfx_buf_json_escape(tfx_buf *b, const char *s, size_t n);

/* Hands the text over (the caller frees it) and resets the buffer; NULL
 * if an allocation failed. */
char *tfx_buf_take(tfx_buf *b);

#endif /* TFX_BUF_H */
