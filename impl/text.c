/*
 * text.c — UTF-8 and Unicode services over utf8proc.
 */
#include "text.h"

#include <stdint.h>
#include <stdlib.h>
#include <utf8proc.h>

size_t tfx_text_decode(const unsigned char *s, size_t n, int32_t *cp)
{
    utf8proc_int32_t c;
    utf8proc_ssize_t len;

    if (n > 4)
        n = 4;
    len = utf8proc_iterate(s, (utf8proc_ssize_t)n, &c);
    if (len < 1) {
        *cp = -1;
        return 1;
    }
    *cp = c;
    return (size_t)len;
}

bool tfx_text_valid(const unsigned char *s, size_t n)
{
    size_t i = 0;

    while (i < n) {
        int32_t cp;
        size_t len = tfx_text_decode(s + i, n - i, &cp);

        if (cp < 0)
            return false;
        i += len;
    }
    return true;
}

/* The length of a lead byte C0..F7 and its continuation bytes, without
 * the checks of real UTF-8 (overlong forms, surrogates, range); 0 if the
 * bytes do not have that shape. */
static size_t loose_sequence(const unsigned char *s, size_t n)
{
    size_t need = s[0] >= 0xF0 && s[0] <= 0xF7 ? 4 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
                  : s[0] >= 0xC0 && s[0] <= 0xDF ? 2 : 0;
    size_t i;

    if (need == 0 || n < need)
        return 0;
    for (i = 1; i < need; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return need;
}

size_t tfx_text_grapheme_len(const unsigned char *s, size_t n)
{
    utf8proc_int32_t state = 0;
    int32_t prev;
    size_t i;

    /* ASCII followed by ASCII: one byte (but CR LF is one cluster) */
    if (s[0] < 0x80 && (n == 1 || (s[1] < 0x80 && !(s[0] == '\r' && s[1] == '\n'))))
        return 1;
    i = tfx_text_decode(s, n, &prev);

    if (prev < 0) {
        /* Like upstream's segmenter, a byte sequence with the shape of
         * UTF-8 is one cluster even when it is not valid UTF-8. */
        size_t loose = loose_sequence(s, n);

        return loose > 0 ? loose : 1;
    }
    while (i < n) {
        int32_t cp;
        size_t len = tfx_text_decode(s + i, n - i, &cp);

        if (cp < 0 || utf8proc_grapheme_break_stateful(prev, cp, &state))
            break;
        prev = cp;
        i += len;
    }
    return i;
}

size_t tfx_text_count_graphemes(const unsigned char *s, size_t n)
{
    size_t count = 0;
    size_t i = 0;

    while (i < n) {
        i += tfx_text_grapheme_len(s + i, n - i);
        count++;
    }
    return count;
}

bool tfx_text_is_space(int32_t cp)
{
    switch (cp) {
    case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D: case 0x20:
    case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029:
    case 0x202F: case 0x205F: case 0x3000:
        return true;
    default:
        return cp >= 0x2000 && cp <= 0x200A;
    }
}

size_t tfx_text_space_prefix(const unsigned char *s, size_t n)
{
    size_t i = 0;

    while (i < n) {
        int32_t cp;
        size_t len = tfx_text_decode(s + i, n - i, &cp);

        if (!tfx_text_is_space(cp))
            break;
        i += len;
    }
    return i;
}

size_t tfx_text_space_suffix(const unsigned char *s, size_t n)
{
    size_t end = n;

    /* Walk back to the start of each code point (at most 3 continuation
     * bytes) and test it; a byte that does not decode ends the run. */
    while (end > 0) {
        size_t start = end - 1;
        int32_t cp;

        while (start > 0 && end - start < 4 && (s[start] & 0xC0) == 0x80)
            start--;
        if (tfx_text_decode(s + start, end - start, &cp) != end - start
            || !tfx_text_is_space(cp))
            break;
        end = start;
    }
    return n - end;
}

char *tfx_text_nfc(tfx_arena *arena, const char *s, size_t n, size_t *out_n)
{
    utf8proc_uint8_t *norm = NULL;
    utf8proc_ssize_t len;
    char *copy;

    if (!tfx_text_valid((const unsigned char *)s, n)) {
        *out_n = n;
        return tfx_arena_strndup(arena, s, n);
    }
    if (n > (size_t)PTRDIFF_MAX)
        return NULL;
    len = utf8proc_map((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &norm,
                       UTF8PROC_STABLE | UTF8PROC_COMPOSE);
    if (len < 0)
        return NULL;
    copy = tfx_arena_strndup(arena, (const char *)norm, (size_t)len);
    free(norm);
    *out_n = (size_t)len;
    return copy;
}

const char *tfx_text_unicode_version(void)
{
    return utf8proc_unicode_version();
}
