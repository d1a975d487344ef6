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

/* Code points that utf8proc's tables (Unicode 15) give a printable
 * category but that Go 1.19's tables (Unicode 13) do not know: assigned in
 * Unicode 14 or 15.  Go's strconv.IsPrint is false for them, so they are
 * escaped in quoted strings.  Sorted, inclusive ranges. */
static const int32_t newer_than_go[][2] = {
    {0x061D, 0x061D}, {0x0870, 0x088E}, {0x0898, 0x089F}, {0x08B5, 0x08B5}, {0x08C8, 0x08D2},
    {0x0C3C, 0x0C3C}, {0x0C5D, 0x0C5D}, {0x0CDD, 0x0CDD}, {0x0CF3, 0x0CF3}, {0x0ECE, 0x0ECE},
    {0x170D, 0x170D}, {0x1715, 0x1715}, {0x171F, 0x171F}, {0x180F, 0x180F}, {0x1AC1, 0x1ACE},
    {0x1B4C, 0x1B4C}, {0x1B7D, 0x1B7E}, {0x1DFA, 0x1DFA}, {0x20C0, 0x20C0}, {0x2C2F, 0x2C2F},
    {0x2C5F, 0x2C5F}, {0x2E53, 0x2E5D}, {0x9FFD, 0x9FFF}, {0xA7C0, 0xA7C1}, {0xA7D0, 0xA7D1},
    {0xA7D3, 0xA7D3}, {0xA7D5, 0xA7D9}, {0xA7F2, 0xA7F4}, {0xFBC2, 0xFBC2}, {0xFD40, 0xFD4F},
    {0xFDCF, 0xFDCF}, {0xFDFE, 0xFDFF}, {0x10570, 0x1057A}, {0x1057C, 0x1058A},
    {0x1058C, 0x10592}, {0x10594, 0x10595}, {0x10597, 0x105A1}, {0x105A3, 0x105B1},
    {0x105B3, 0x105B9}, {0x105BB, 0x105BC}, {0x10780, 0x10785}, {0x10787, 0x107B0},
    {0x107B2, 0x107BA}, {0x10EFD, 0x10EFF}, {0x10F70, 0x10F89}, {0x11070, 0x11075},
    {0x110C2, 0x110C2}, {0x1123F, 0x11241}, {0x116B9, 0x116B9}, {0x11740, 0x11746},
    {0x11AB0, 0x11ABF}, {0x11B00, 0x11B09}, {0x11F00, 0x11F10}, {0x11F12, 0x11F3A},
    {0x11F3E, 0x11F59}, {0x12F90, 0x12FF2}, {0x1342F, 0x1342F}, {0x13440, 0x13455},
    {0x16A70, 0x16ABE}, {0x16AC0, 0x16AC9}, {0x1AFF0, 0x1AFF3}, {0x1AFF5, 0x1AFFB},
    {0x1AFFD, 0x1AFFE}, {0x1B11F, 0x1B122}, {0x1B132, 0x1B132}, {0x1B155, 0x1B155},
    {0x1CF00, 0x1CF2D}, {0x1CF30, 0x1CF46}, {0x1CF50, 0x1CFC3}, {0x1D1E9, 0x1D1EA},
    {0x1D2C0, 0x1D2D3}, {0x1DF00, 0x1DF1E}, {0x1DF25, 0x1DF2A}, {0x1E030, 0x1E06D},
    {0x1E08F, 0x1E08F}, {0x1E290, 0x1E2AE}, {0x1E4D0, 0x1E4F9}, {0x1E7E0, 0x1E7E6},
    {0x1E7E8, 0x1E7EB}, {0x1E7ED, 0x1E7EE}, {0x1E7F0, 0x1E7FE}, {0x1F6DC, 0x1F6DF},
    {0x1F774, 0x1F776}, {0x1F77B, 0x1F77F}, {0x1F7D9, 0x1F7D9}, {0x1F7F0, 0x1F7F0},
    {0x1F979, 0x1F979}, {0x1F9CC, 0x1F9CC}, {0x1FA75, 0x1FA77}, {0x1FA7B, 0x1FA7C},
    {0x1FA87, 0x1FA88}, {0x1FAA9, 0x1FAAF}, {0x1FAB7, 0x1FABD}, {0x1FABF, 0x1FABF},
    {0x1FAC3, 0x1FAC5}, {0x1FACE, 0x1FACF}, {0x1FAD7, 0x1FADB}, {0x1FAE0, 0x1FAE8},
    {0x1FAF0, 0x1FAF8}, {0x2A6DE, 0x2A6DF}, {0x2B735, 0x2B739}, {0x31350, 0x323AF},
};

/* Whether cp lies in newer_than_go (binary search). */
static bool newer_than_go_tables(int32_t cp)
{
    size_t lo = 0;
    size_t hi = sizeof(newer_than_go) / sizeof(newer_than_go[0]);

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (cp < newer_than_go[mid][0])
            hi = mid;
        else if (cp > newer_than_go[mid][1])
            lo = mid + 1;
        else
            return true;
    }
    return false;
}

bool tfx_text_is_print(int32_t cp)
{
    if (cp == 0x20)
        return true;
    if (cp < 0 || cp > 0x10FFFF || newer_than_go_tables(cp))
        return false;
    switch (utf8proc_category(cp)) {
    case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL: case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM: case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_MC: case UTF8PROC_CATEGORY_ME:
    case UTF8PROC_CATEGORY_ND: case UTF8PROC_CATEGORY_NL: case UTF8PROC_CATEGORY_NO:
    case UTF8PROC_CATEGORY_PC: case UTF8PROC_CATEGORY_PD: case UTF8PROC_CATEGORY_PS:
    case UTF8PROC_CATEGORY_PE: case UTF8PROC_CATEGORY_PI: case UTF8PROC_CATEGORY_PF:
    case UTF8PROC_CATEGORY_PO:
    case UTF8PROC_CATEGORY_SM: case UTF8PROC_CATEGORY_SC: case UTF8PROC_CATEGORY_SK:
    case UTF8PROC_CATEGORY_SO:
        return true;
    default:
        return false;
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

char *tfx_text_map_case(tfx_arena *arena, const char *s, size_t n, bool upper, size_t *out_n)
{
    /* A simple case mapping turns a code point of k bytes into one of at
     * most k + 1 bytes (U+023F, 2 bytes, to U+2C7E, 3 bytes), so twice
     * the input always suffices. */
    char *out = n > (SIZE_MAX - 1) / 2 ? NULL : tfx_arena_alloc(arena, 2 * n + 1);
    const unsigned char *in = (const unsigned char *)s;
    size_t i = 0;
    size_t o = 0;

    if (out == NULL)
        return NULL;
    while (i < n) {
        int32_t cp;
        size_t len = tfx_text_decode(in + i, n - i, &cp);

        if (cp < 0) {
            out[o++] = (char)in[i];
        } else {
            utf8proc_int32_t mapped = upper ? utf8proc_toupper(cp) : utf8proc_tolower(cp);

            /* Go 1.19's tables (Unicode 13) know no mapping to or from
             * the letters of Unicode 14 and 15, and none for U+00DF (its
             * upper case U+1E9E maps only downwards in UnicodeData). */
            if (newer_than_go_tables(cp) || newer_than_go_tables(mapped) || cp == 0xDF)
                mapped = cp;

            o += (size_t)utf8proc_encode_char(mapped, (utf8proc_uint8_t *)out + o);
        }
        i += len;
    }
    out[o] = '\0';
    *out_n = o;
    return out;
}

const char *tfx_text_unicode_version(void)
{
    return utf8proc_unicode_version();
}
