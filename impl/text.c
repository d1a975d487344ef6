/* SPDX-License-Identifier: MPL-2.0 */
/*
 * text.c — UTF-8 and Unicode services over utf8proc.
 */
#include "text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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

static bool newer_than_go_tables(int32_t cp);

/* Reserved code points that Unicode 13's emoji data already gives
 * Extended_Pictographic (so that an emoji ZWJ sequence may end in one) but
 * that utf8proc's tables do not.  Sorted, inclusive ranges. */
static const int32_t reserved_pictographic[][2] = {
    {0x1F02C, 0x1F02F}, {0x1F094, 0x1F09F}, {0x1F0AF, 0x1F0B0}, {0x1F0C0, 0x1F0C0},
    {0x1F0D0, 0x1F0D0}, {0x1F0F6, 0x1F0FF}, {0x1F1AE, 0x1F1E5}, {0x1F203, 0x1F20F},
    {0x1F23C, 0x1F23F}, {0x1F249, 0x1F24F}, {0x1F252, 0x1F25F}, {0x1F266, 0x1F2FF},
    {0x1F6D8, 0x1F6DB}, {0x1F6ED, 0x1F6EF}, {0x1F6FD, 0x1F6FF}, {0x1F777, 0x1F77A},
    {0x1F7DA, 0x1F7DF}, {0x1F7EC, 0x1F7EF}, {0x1F7F1, 0x1F7FF}, {0x1F80C, 0x1F80F},
    {0x1F848, 0x1F84F}, {0x1F85A, 0x1F85F}, {0x1F888, 0x1F88F}, {0x1F8AE, 0x1F8AF},
    {0x1F8B2, 0x1F8FF}, {0x1FA54, 0x1FA5F}, {0x1FA6E, 0x1FA6F}, {0x1FA7D, 0x1FA7F},
    {0x1FA89, 0x1FA8F}, {0x1FABE, 0x1FABE}, {0x1FAC6, 0x1FACD}, {0x1FADC, 0x1FADF},
    {0x1FAE9, 0x1FAEF}, {0x1FAF9, 0x1FAFF}, {0x1FC00, 0x1FFFD}
};

/* Whether cp lies in one of the sorted inclusive ranges table[0..n). */
static bool in_ranges(const int32_t (*table)[2], size_t n, int32_t cp)
{
    size_t lo = 0;
    size_t hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (cp < table[mid][0])
            hi = mid;
        else if (cp > table[mid][1])
            lo = mid + 1;
        else
            return true;
    }
    return false;
}

/* A code point that utf8proc's segmentation treats as go-textseg v13
 * (Unicode 13.0.0 data) treats cp, for utf8proc_grapheme_break_stateful
 * (with pn, as go-textseg v15 does, [fn.strings.graphemes.pn]: its
 * Unicode 15.0.0 data is utf8proc's own but for the first and third
 * points below, so only those apply):
 *  - U+FFFD never joins a cluster, before or after (upstream's segmenter
 *    does not know it), and the reserved code points that Unicode 13
 *    gives Grapheme_Cluster_Break=Control (U+2065, U+FFF0..U+FFF8, and
 *    parts of U+E0000..U+E0FFF) are controls: both as U+0001;
 *  - code points assigned after Unicode 13 are Other (as U+0041), except
 *    those that are Extended_Pictographic (Unicode 13 reserves those
 *    ranges for pictographs already);
 *  - the reserved_pictographic code points are Extended_Pictographic
 *    (as U+1F600);
 *  - U+11720 and U+11721, SpacingMark in Unicode 13 (Other in later
 *    data), as U+0903;
 *  - any other code point as itself. */
static int32_t textseg_cp(int32_t cp, bool pn)
{
    if (cp == 0xFFFD || cp == 0x2065 || (cp >= 0xFFF0 && cp <= 0xFFF8) || cp == 0xE0000
        || (cp >= 0xE0002 && cp <= 0xE001F) || (cp >= 0xE0080 && cp <= 0xE00FF)
        || (cp >= 0xE01F0 && cp <= 0xE0FFF))
        return 0x0001;
    if (!pn && (newer_than_go_tables(cp) || (cp >= 0x0890 && cp <= 0x0891)
                || (cp >= 0x13439 && cp <= 0x1343F))
        && utf8proc_get_property(cp)->boundclass != UTF8PROC_BOUNDCLASS_EXTENDED_PICTOGRAPHIC)
        return 0x0041;
    if (!pn && (cp == 0x11720 || cp == 0x11721))
        return 0x0903;
    if (cp >= 0x1F000
        && in_ranges(reserved_pictographic, sizeof(reserved_pictographic)
                                                / sizeof(reserved_pictographic[0]), cp))
        return 0x1F600;
    return cp;
}

/* The Grapheme_Cluster_Break class of cp as go-textseg v13 (pn: v15)
 * sees it. */
static int textseg_class(int32_t cp, bool pn)
{
    return utf8proc_get_property(textseg_cp(cp, pn))->boundclass;
}

/* Whether a cluster whose first code point after any Prepend ones has
 * class bc lets "ZWJ Extended_Pictographic" continue it after any
 * Extend, SpacingMark and ZWJ code points.  go-textseg (v13, v15) does so for a
 * Hangul syllable, a regional indicator and a pictograph; Unicode's GB11
 * only for a pictograph followed by Extend code points and one ZWJ. */
static bool textseg_zwj_core(int bc)
{
    switch (bc) {
    case UTF8PROC_BOUNDCLASS_L: case UTF8PROC_BOUNDCLASS_V: case UTF8PROC_BOUNDCLASS_T:
    case UTF8PROC_BOUNDCLASS_LV: case UTF8PROC_BOUNDCLASS_LVT:
    case UTF8PROC_BOUNDCLASS_REGIONAL_INDICATOR:
    case UTF8PROC_BOUNDCLASS_EXTENDED_PICTOGRAPHIC:
        return true;
    default:
        return false;
    }
}

size_t tfx_text_grapheme_len(const unsigned char *s, size_t n)
{
    return tfx_text_grapheme_len_profile(s, n, false);
}

/* Whether go-textseg ends a cluster between a Hangul LV syllable and a T
 * jamo that follows it: when the LV follows L jamo (its Hangul sequence
 * `L+ LV` may be followed by V jamo only), where UAX #29 keeps them
 * together.  prev2_class is the class before the LV in the cluster, -1
 * if none. */
static bool textseg_hangul_break(int prev2_class, int prev_class, int cp_class)
{
    return cp_class == UTF8PROC_BOUNDCLASS_T && prev_class == UTF8PROC_BOUNDCLASS_LV
           && prev2_class == UTF8PROC_BOUNDCLASS_L;
}

size_t tfx_text_grapheme_len_profile(const unsigned char *s, size_t n, bool pn)
{
    utf8proc_int32_t state = 0;
    int32_t prev;
    int prev_class;
    int prev2_class = -1;
    bool core_seen;
    bool zwj_core;
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
    prev_class = textseg_class(prev, pn);
    core_seen = prev_class != UTF8PROC_BOUNDCLASS_PREPEND;
    zwj_core = textseg_zwj_core(prev_class);
    while (i < n) {
        int32_t cp;
        size_t len = tfx_text_decode(s + i, n - i, &cp);
        int cp_class;

        if (cp < 0)
            break;
        cp_class = textseg_class(cp, pn);
        if (utf8proc_grapheme_break_stateful(textseg_cp(prev, pn), textseg_cp(cp, pn), &state)
            && !(zwj_core && prev_class == UTF8PROC_BOUNDCLASS_ZWJ
                 && cp_class == UTF8PROC_BOUNDCLASS_EXTENDED_PICTOGRAPHIC))
            break;
        if (textseg_hangul_break(prev2_class, prev_class, cp_class))
            break;
        if (!core_seen && cp_class != UTF8PROC_BOUNDCLASS_PREPEND) {
            core_seen = true;
            zwj_core = textseg_zwj_core(cp_class);
        }
        prev = cp;
        prev2_class = prev_class;
        prev_class = cp_class;
        i += len;
    }
    return i;
}

/* [fn.strings.graphemes] Fast path of tfx_text_skip_graphemes: up to k
 * clusters from the start of s[0..n) while each byte is ASCII and so is
 * the byte after it (or it ends the text); *taken gets the clusters
 * passed, the result is the bytes passed.  Same as the general path: that
 * is exactly the case tfx_text_grapheme_len answers first, one byte a
 * cluster except CR LF, two bytes one cluster; anything else is left to
 * it. */
static size_t skip_ascii_graphemes(const unsigned char *s, size_t n, size_t k, size_t *taken)
{
    size_t i = 0;
    size_t count = 0;

    while (count < k && i < n && s[i] < 0x80) {
        if (i + 1 < n && s[i + 1] >= 0x80)
            break;
        i += (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n') ? 2 : 1;
        count++;
    }
    *taken = count;
    return i;
}

size_t tfx_text_skip_graphemes_general(const unsigned char *s, size_t n, size_t k, size_t *taken,
                                        bool pn)
{
    size_t i = 0;
    size_t count = 0;

    while (count < k && i < n) {
        i += tfx_text_grapheme_len_profile(s + i, n - i, pn);
        count++;
    }
    *taken = count;
    return i;
}

size_t tfx_text_skip_graphemes_profile(const unsigned char *s, size_t n, size_t k, size_t *taken,
                                       bool pn)
{
    size_t i = 0;
    size_t count = 0;

    while (count < k && i < n) {
        size_t run = 0;

        i += skip_ascii_graphemes(s + i, n - i, k - count, &run);
        count += run;
        if (count < k && i < n) {
            i += tfx_text_grapheme_len_profile(s + i, n - i, pn);
            count++;
        }
    }
    *taken = count;
    return i;
}

size_t tfx_text_skip_graphemes(const unsigned char *s, size_t n, size_t k, size_t *taken)
{
    return tfx_text_skip_graphemes_profile(s, n, k, taken, false);
}

size_t tfx_text_count_graphemes_profile(const unsigned char *s, size_t n, bool pn)
{
    size_t count = 0;

    (void)tfx_text_skip_graphemes_profile(s, n, SIZE_MAX, &count, pn);
    return count;
}

size_t tfx_text_count_graphemes(const unsigned char *s, size_t n)
{
    return tfx_text_count_graphemes_profile(s, n, false);
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
    return tfx_text_is_print_profile(cp, false);
}

bool tfx_text_is_print_profile(int32_t cp, bool pn)
{
    if (cp == 0x20)
        return true;
    if (cp < 0 || cp > 0x10FFFF || (!pn && newer_than_go_tables(cp)))
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

/* Whether cp is a combining mark in utf8proc's tables but was not
 * assigned in Unicode 13: upstream's NFC sees a starter that composes
 * with nothing, so nothing is reordered or composed across it. */
static bool newer_combining(int32_t cp)
{
    return cp >= 0 && newer_than_go_tables(cp) && utf8proc_get_property(cp)->combining_class != 0;
}

/* [value.string.nfc] Whether cp splits the text into runs normalised one
 * by one, cp itself copied as it is between them: with unicode13, a mark
 * Unicode 13 had not assigned (Go 1.19's tables see a starter that
 * composes with nothing); in both profiles U+11A7, a vowel jamo that
 * composes with nothing on either side, which utf8proc 2.8.0 would join
 * to an LV syllable before it (as the T jamo of index 0) and so drop.
 * NFC of text around a starter that composes with nothing is that of the
 * runs on each side. */
static bool nfc_splits(int32_t cp, bool unicode13)
{
    return cp == 0x11A7 || (unicode13 && cp >= 0x300 && newer_combining(cp));
}

/* The NFC form of s[0..n) (valid UTF-8) by utf8proc, appended to
 * out[*o..]; false if utf8proc fails. */
static bool nfc_append(const char *s, size_t n, char *out, size_t *o)
{
    utf8proc_uint8_t *norm = NULL;
    utf8proc_ssize_t len;

    if (n == 0)
        return true;
    len = utf8proc_map((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &norm,
                       UTF8PROC_STABLE | UTF8PROC_COMPOSE);
    if (len < 0)
        return false;
    memcpy(out + *o, norm, (size_t)len);
    *o += (size_t)len;
    free(norm);
    return true;
}

/* The low 16 bits of the ten code points above U+FFFF that start a
 * canonical composition pair (Unicode 13 and 15 alike): U+11099, U+1109B,
 * U+110A5, U+11131, U+11132, U+11347, U+114B9, U+115B8, U+115B9, U+11935.
 * Every other first of a pair is in U+0000..U+FFFF, and no two firsts
 * share their low 16 bits (test_text derives both facts from utf8proc). */
static const uint16_t nfc_plane1_firsts[] = {0x1099, 0x109B, 0x10A5, 0x1131, 0x1132,
                                             0x1347, 0x14B9, 0x15B8, 0x15B9, 0x1935};

/* The 63 seconds of the canonical composition pairs (Unicode 13 and 15
 * alike; test_text derives them from utf8proc), sorted: with the Hangul
 * vowel and trailing jamo, the code points x/text's composition looks a
 * pair up for (NFC_Quick_Check Maybe). */
static const int32_t nfc_seconds[] = {
    0x0300,  0x0301,  0x0302,  0x0303,  0x0304,  0x0306,  0x0307,  0x0308,  0x0309,
    0x030A,  0x030B,  0x030C,  0x030F,  0x0311,  0x0313,  0x0314,  0x031B,  0x0323,
    0x0324,  0x0325,  0x0326,  0x0327,  0x0328,  0x032D,  0x032E,  0x0330,  0x0331,
    0x0338,  0x0342,  0x0345,  0x0653,  0x0654,  0x0655,  0x093C,  0x09BE,  0x09D7,
    0x0B3E,  0x0B56,  0x0B57,  0x0BBE,  0x0BD7,  0x0C56,  0x0CC2,  0x0CD5,  0x0CD6,
    0x0D3E,  0x0D57,  0x0DCA,  0x0DCF,  0x0DDF,  0x102E,  0x1B35,  0x3099,  0x309A,
    0x110BA, 0x11127, 0x1133E, 0x11357, 0x114B0, 0x114BA, 0x114BD, 0x115AF, 0x11930,
};

/* Whether cp is one of nfc_seconds. */
static bool nfc_second(int32_t cp)
{
    size_t lo = 0;
    size_t hi = sizeof nfc_seconds / sizeof nfc_seconds[0];

    if (cp < nfc_seconds[0])
        return false;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (nfc_seconds[mid] == cp)
            return true;
        if (nfc_seconds[mid] < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* Whether x/text composes cp as Hangul: U+1100..U+11FF (its test is on
 * the UTF-8 bytes; within a segment only vowel and trailing jamo come
 * after its first code point). */
static bool nfc_jamo(int32_t cp)
{
    return cp >= 0x1100 && cp <= 0x11FF;
}

/* [value.string.nfc.key16] The code point whose composition pairs x/text
 * lends cp, or -1 when it lends it none of another code point's.  x/text
 * looks a pair up by the low 16 bits of both code points, so a starter
 * composes with the marks after it as the first of a pair with the same
 * low 16 bits does (U+E0043 U+0301 as U+0043 U+0301: U+0106).  That first
 * is unique: the one of plane 1 when the low bits are one of the ten
 * above, else the one of plane 0 (the seconds' low bits are unique too,
 * and only seconds are looked up).  Never a surrogate, nor Hangul (not in
 * the table). */
static int32_t nfc_key16_first(int32_t cp)
{
    const size_t nfirsts = sizeof nfc_plane1_firsts / sizeof nfc_plane1_firsts[0];
    int32_t first = cp & 0xFFFF;
    size_t i;

    for (i = 0; i < nfirsts; i++)
        if (first == nfc_plane1_firsts[i])
            first |= 0x10000;
    if (cp < 0 || first == cp || (first >= 0xD800 && first <= 0xDFFF)
        || (first >= 0x1100 && first <= 0x11FF) || (first >= 0xAC00 && first <= 0xD7A3))
        return -1;
    return first;
}

/* Whether nfc_key16_first(cp) may be other than -1: cp is above U+FFFF,
 * or within the ten low bits of nfc_plane1_firsts (sorted); any other code
 * point of plane 0 names itself.  The quick test for most text. */
static bool nfc_key16_candidate(int32_t cp)
{
    return cp > 0xFFFF || (cp >= 0x1099 && cp <= 0x1935);
}

/* Whether cp could be, or begin the decomposition of, the second of a
 * composition pair or a mark between a starter and it: a code point of
 * class other than 0, or a mark (Mn, Mc, Me; the seconds of class 0, as
 * U+09BE, are marks: test_text checks every second). */
static bool nfc_markish(int32_t cp)
{
    const utf8proc_property_t *p = utf8proc_get_property(cp);

    return p->combining_class != 0 || p->category == UTF8PROC_CATEGORY_MN
           || p->category == UTF8PROC_CATEGORY_MC || p->category == UTF8PROC_CATEGORY_ME;
}

static int nfc_class(int32_t cp)
{
    return utf8proc_get_property(cp)->combining_class;
}

/* [value.string.nfc.key16] x/text's pair lookup: the composite of `first`
 * (as the first of the pair with its low 16 bits, nfc_key16_first) and
 * `second` (one of nfc_seconds), or -1.  The pair itself is utf8proc's. */
static int32_t nfc_xtext_pair(int32_t first, int32_t second)
{
    int32_t lent = nfc_key16_first(first);
    utf8proc_int32_t pair[2];

    pair[0] = lent >= 0 ? lent : first;
    pair[1] = second;
    if (utf8proc_normalize_utf32(pair, 2, UTF8PROC_STABLE | UTF8PROC_COMPOSE) != 1)
        return -1;
    return pair[0];
}

/* The Hangul syllable of leading jamo (or LV syllable) l and vowel (or
 * trailing jamo) v, or -1; a trailing jamo from U+11A8 on only. */
static int32_t nfc_hangul_pair(int32_t l, int32_t v)
{
    if (l >= 0x1100 && l < 0x1113 && v >= 0x1161 && v < 0x1176)
        return 0xAC00 + ((l - 0x1100) * 21 + (v - 0x1161)) * 28;
    if (l >= 0xAC00 && l <= 0xD7A3 && v > 0x11A7 && v < 0x11C3 && (l - 0xAC00) % 28 == 0)
        return l + v - 0x11A7;
    return -1;
}

/* [value.string.nfc.xtext] The Hangul part of nfc_xtext_compose, from
 * b[i] (vowel or trailing jamo) on, s the starter, k the length kept: the
 * starter is the code point before when that is of class 0, whatever
 * comes; only Hangul composes. */
static size_t nfc_xtext_hangul(int32_t *b, size_t n, size_t s, size_t i, size_t k)
{
    for (; i < n; i++) {
        int cb = nfc_class(b[k - 1]);
        int32_t p = -1;

        if (cb == 0)
            s = k - 1;
        if (s == k - 1 || cb < nfc_class(b[i]))
            p = nfc_hangul_pair(b[s], b[i]);
        if (p >= 0)
            b[s] = p;
        else
            b[k++] = b[i];
    }
    return k;
}

/* [value.string.nfc.xtext] x/text's composition of one segment b[0..n)
 * (decomposed and reordered; it starts at the head of the text or at a
 * starter that is no second), in place; returns its new length.  The
 * starter s a second composes with is the code point before the second
 * when that is of class 0, else stays what it was: a second of class 0
 * that composed with nothing is the starter only for a second right after
 * it (x/text updates s only when it meets a second), so a later mark
 * composes with the starter before it (E U+0B3E U+09BC U+0300: È U+0B3E
 * U+09BC).  b[0] is the starter even when a mark; a second is blocked
 * when, s not just before it, the code point just before it has a class
 * at least its own.  A jamo after b[0] turns to nfc_xtext_hangul for the
 * rest.  Pairs by nfc_xtext_pair, which looks them up as x/text does. */
static size_t nfc_xtext_compose(int32_t *b, size_t n)
{
    size_t s = 0;
    size_t k = 1;
    size_t i;

    if (n == 0)
        return 0;
    for (i = 1; i < n; i++) {
        int32_t c = b[i];

        if (nfc_jamo(c))
            return nfc_xtext_hangul(b, n, s, i, k);
        if (nfc_second(c)) {
            int cb = nfc_class(b[k - 1]);
            bool blocked = false;

            if (cb == 0)
                s = k - 1;
            else
                blocked = s != k - 1 && cb >= nfc_class(c);
            if (!blocked) {
                int32_t p = nfc_xtext_pair(b[s], c);

                if (p >= 0) {
                    b[s] = p;
                    continue;
                }
            }
        }
        b[k++] = c;
    }
    return k;
}

/* Whether x/text counts cp as a non-starter for stream-safe text: of
 * class other than 0, or composing backward (a second, a vowel or
 * trailing jamo). */
static bool nfc_stream_nonstarter(int32_t cp)
{
    return nfc_class(cp) != 0 || nfc_second(cp) || (cp >= 0x1161 && cp <= 0x1175)
           || (cp >= 0x11A8 && cp <= 0x11C2);
}

/* Whether cp may have leading non-starters (nfc_stream_overflow): a mark,
 * a jamo, a Hangul compatibility jamo or a halfwidth voiced sound mark or
 * Hangul letter (their compatibility decompositions start with one; every
 * code point that has some is among them, checked over all of Unicode 15
 * when written).  The fast path's test: fewer than 10 of these in a row
 * cannot reach 30 non-starters (a code point has at most 3 trailing and
 * 2 leading ones). */
static bool nfc_stream_candidate(int32_t cp)
{
    return (cp >= 0x1100 && cp <= 0x11FF) || (cp >= 0x3131 && cp <= 0x318E)
           || (cp >= 0xFF9E && cp <= 0xFFDC) || nfc_markish(cp);
}

/* [value.string.nfc.streamsafe] x/text's leading and trailing
 * non-starters of cp (nfc_stream_nonstarter, in its compatibility
 * decomposition; a Hangul syllable has none and 1 or 2 trailing ones;
 * with unicode13 a mark Unicode 13 had not assigned has none).  A code
 * point without leading ones starts a segment of x/text's composition. */
static void nfc_stream_counts(int32_t cp, bool unicode13, int *lead, int *trail)
{
    utf8proc_int32_t d[32];
    utf8proc_ssize_t nd;
    utf8proc_ssize_t j;

    *lead = 0;
    *trail = 0;
    if (cp >= 0xAC00 && cp <= 0xD7A3) {
        *trail = (cp - 0xAC00) % 28 == 0 ? 1 : 2;
        return;
    }
    if (cp < 0x80 || (unicode13 && newer_combining(cp)))
        return;
    nd = utf8proc_decompose_char(cp, d, 32, UTF8PROC_STABLE | UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT,
                                NULL);
    if (nd < 1 || nd > 32) {
        d[0] = cp;
        nd = 1;
    }
    for (j = 0; j < nd && nfc_stream_nonstarter(d[j]); j++)
        (*lead)++;
    for (j = nd; j > 0 && nfc_stream_nonstarter(d[j - 1]); j--)
        (*trail)++;
}

/* [value.string.nfc.streamsafe] x/text's stream-safe count: adds the
 * leading non-starters of cp to *count; true when that passes 30, where
 * x/text puts U+034F before cp (the count is then cp's leading ones).  A
 * code point without leading non-starters sets the count to its trailing
 * ones. */
static bool nfc_stream_overflow(int *count, int32_t cp, bool unicode13)
{
    int lead;
    int trail;

    nfc_stream_counts(cp, unicode13, &lead, &trail);
    if (lead == 0) {
        *count = trail;
        return false;
    }
    *count += lead;
    if (*count <= 30)
        return false;
    *count = lead;
    return true;
}

/* Whether x/text's composition starts a segment at the code point cp of
 * a decomposition after its first: of class 0, and neither a second nor a
 * vowel or trailing jamo (NFC_Quick_Check Yes). */
static bool nfc_xtext_boundary(int32_t cp)
{
    return nfc_class(cp) == 0 && !nfc_second(cp) && !(cp >= 0x1161 && cp <= 0x1175)
           && !(cp >= 0x11A8 && cp <= 0x11C2);
}

/* Marks in seg[] (count entries, of the decomposition of s[0..n), the
 * first code point kept whole with head) where x/text's composition starts
 * a segment: the first code point of each code point of s without leading
 * non-starters (nfc_stream_counts), and each nfc_xtext_boundary within a
 * decomposition after its first code point.  False if the decompositions
 * do not add up to count. */
static bool nfc_xtext_segments(const unsigned char *s, size_t n, bool head, bool unicode13,
                               unsigned char *seg, size_t count)
{
    size_t i = 0;
    size_t j = 0;

    while (i < n) {
        utf8proc_int32_t d[32];
        utf8proc_ssize_t nd = 1;
        utf8proc_ssize_t t;
        int32_t cp;
        int lead = 0;
        int trail;

        i += tfx_text_decode(s + i, n - i, &cp);
        d[0] = cp;
        if (!(head && j == 0)) {
            nd = utf8proc_decompose_char(cp, d, 32, UTF8PROC_STABLE | UTF8PROC_DECOMPOSE, NULL);
            nfc_stream_counts(cp, unicode13, &lead, &trail);
        }
        if (nd < 1 || nd > 32 || j + (size_t)nd > count)
            return false;
        seg[j] = lead == 0;
        for (t = 1; t < nd; t++)
            seg[j + (size_t)t] = nfc_xtext_boundary(d[t]);
        j += (size_t)nd;
    }
    return j == count;
}

/* [value.string.nfc.xtext] The NFC form of s[0..n) (valid UTF-8, which
 * nothing before it composes with) as x/text makes it, appended to
 * out[*o..] (NFC of UTF-8 text is at most 3 times as long); false if
 * utf8proc fails.  utf8proc decomposes and reorders (with head, all but
 * the first code point, a starter for the profile that utf8proc takes for
 * a mark: it stays first, undecomposed); each segment (from the head, and
 * from each start of nfc_xtext_segments) is composed by
 * nfc_xtext_compose. */
static bool nfc_append_xtext(const char *s, size_t n, bool head, bool unicode13, char *out,
                             size_t *o)
{
    const utf8proc_option_t opts = UTF8PROC_STABLE | UTF8PROC_COMPOSE;
    const utf8proc_uint8_t *u = (const utf8proc_uint8_t *)s;
    utf8proc_int32_t *buf;
    unsigned char *seg;
    utf8proc_ssize_t count;
    utf8proc_ssize_t len;
    int32_t first = -1;
    size_t skip = 0;
    size_t w = 0;
    size_t i = 0;

    if (n == 0)
        return true;
    if (head)
        skip = tfx_text_decode(u, n, &first);
    count = utf8proc_decompose(u + skip, (utf8proc_ssize_t)(n - skip), NULL, 0, opts);
    if (count < 0 || (size_t)count > SIZE_MAX / sizeof *buf - 2)
        return false;
    buf = malloc(((size_t)count + 2) * sizeof *buf);
    seg = malloc((size_t)count + 2);
    if (buf == NULL || seg == NULL
        || utf8proc_decompose(u + skip, (utf8proc_ssize_t)(n - skip), buf + (head ? 1 : 0),
                              count, opts)
               != count) {
        free(buf);
        free(seg);
        return false;
    }
    if (head) {
        buf[0] = first;
        count++;
    }
    if (!nfc_xtext_segments(u, n, head, unicode13, seg, (size_t)count)) {
        free(buf);
        free(seg);
        return false;
    }
    while (i < (size_t)count) {
        size_t end = i + 1;
        size_t kept;

        while (end < (size_t)count && !seg[end])
            end++;
        kept = nfc_xtext_compose(buf + i, end - i);
        memmove(buf + w, buf + i, kept * sizeof *buf);
        w += kept;
        i = end;
    }
    free(seg);
    len = utf8proc_reencode(buf, (utf8proc_ssize_t)w, 0);
    if (len < 0) {
        free(buf);
        return false;
    }
    memcpy(out + *o, buf, (size_t)len);
    *o += (size_t)len;
    free(buf);
    return true;
}

bool tfx_text_is_ascii(const unsigned char *s, size_t n)
{
    unsigned char any = 0;
    size_t i;

    for (i = 0; i < n; i++)
        any |= s[i];
    return any < 0x80;
}

/* [value.string.nfc] [tmpl.eval.nfc] The fast path of tfx_text_nfc for
 * text of ASCII bytes only, which is its own NFC form: every ASCII code
 * point (NUL included) is a starter (canonical combining class 0) without
 * a canonical decomposition, and no primary composite decomposes to two
 * ASCII code points (every composition pair ends in a non-ASCII mark or
 * jamo), so decomposition, reordering and composition all leave it
 * unchanged; ASCII is valid UTF-8 and holds no mark newer than Unicode 13,
 * so the general path would reach utf8proc_map with the same text and get
 * it back.  The result is the same copy in the arena; test_text compares
 * both on random text. */
static char *nfc_ascii(tfx_arena *arena, const char *s, size_t n, size_t *out_n)
{
    *out_n = n;
    return tfx_arena_strndup(arena, s, n);
}

static char *nfc_general(tfx_arena *arena, const char *s, size_t n, bool unicode13,
                         bool filter, size_t *out_n);

char *tfx_text_nfc(tfx_arena *arena, const char *s, size_t n, size_t *out_n)
{
    if (tfx_text_is_ascii((const unsigned char *)s, n))
        return nfc_ascii(arena, s, n, out_n);
    return nfc_general(arena, s, n, true, true, out_n);
}

/* [value.string.nfc.pn] Profile PN normalises with Unicode 15.0.0's data
 * (x/text's tables15.0.0), the version of utf8proc's own tables (2.8.0):
 * utf8proc alone, with no mark treated as unassigned. */
char *tfx_text_nfc_profile(tfx_arena *arena, const char *s, size_t n, bool pn, size_t *out_n)
{
    if (tfx_text_is_ascii((const unsigned char *)s, n))
        return nfc_ascii(arena, s, n, out_n);
    return nfc_general(arena, s, n, !pn, true, out_n);
}

char *tfx_text_nfc_general(tfx_arena *arena, const char *s, size_t n, size_t *out_n)
{
    return nfc_general(arena, s, n, true, false, out_n);
}

char *tfx_text_nfc_general_profile(tfx_arena *arena, const char *s, size_t n, bool pn,
                                   size_t *out_n)
{
    return nfc_general(arena, s, n, !pn, false, out_n);
}

/* Whether cp is a starter for the profile: of class 0 in utf8proc's
 * tables, or (with unicode13) a mark Unicode 13 had not assigned. */
static bool nfc_starter(int32_t cp, bool unicode13)
{
    return nfc_class(cp) == 0 || (unicode13 && newer_combining(cp));
}

/* [value.string.nfc.key16] [value.string.nfc.xtext] Whether x/text may
 * compose the text at u[i..i+clen) (the code point cp) otherwise than
 * utf8proc does: cp takes another code point's pairs (nfc_key16_first),
 * or is a starter that does not start a segment (a second of class 0, a
 * Hangul compatibility jamo, a halfwidth voiced sound mark or Hangul
 * letter: after it the starter before it may stay the starter), and a
 * code point follows that may compose or come between (nfc_markish).
 * Elsewhere both compose alike (test_text compares them on random text):
 * the fast path's test, and then utf8proc composes. */
static inline bool nfc_xtext_needed(const unsigned char *u, size_t n, size_t i, size_t clen,
                                    int32_t cp)
{
    int32_t next;

    /* all of them are in U+09BE..U+1B35, U+3131..U+318E, U+FF9E..U+FFDC
     * or above U+FFFF */
    if (i + clen == n
        || (cp <= 0xFFFF && (cp < 0x09BE || cp > 0x1B35) && (cp < 0x3131 || cp > 0x318E)
            && (cp < 0xFF9E || cp > 0xFFDC)))
        return false;
    if (!(nfc_key16_first(cp) >= 0 || (nfc_second(cp) && nfc_class(cp) == 0)
          || (cp >= 0x3131 && cp <= 0x318E) || (cp >= 0xFF9E && cp <= 0xFFDC)))
        return false;
    (void)tfx_text_decode(u + i + clen, n - i - clen, &next);
    return nfc_markish(next);
}

/* [value.string.nfc.key16] Whether u[0..n) starts with non-starters one of
 * which nfc_key16_first lends another code point's pairs: x/text's
 * composition takes the first of them, after reordering, for the
 * starter (U+11F41 in profile PN). */
static bool nfc_key16_lead(const unsigned char *u, size_t n, bool unicode13)
{
    size_t i = 0;

    while (i < n) {
        int32_t cp;

        i += tfx_text_decode(u + i, n - i, &cp);
        if (nfc_starter(cp, unicode13))
            return false;
        if (nfc_key16_candidate(cp) && nfc_key16_first(cp) >= 0)
            return true;
    }
    return false;
}

/* How the code point cp at u[i..i+clen) of u[0..n) cuts the text into
 * runs that nfc_general normalises one by one: NFC_CUT_SPLIT, nfc_splits
 * (cp copied as it is between two runs by utf8proc; heading the next run
 * by x/text's composition, which takes it for the starter of the marks
 * after it); NFC_CUT_HEAD, one of those that x/text (Unicode 13, profile
 * P14) takes for a starter that lends another code point's pairs
 * ([value.string.nfc.key16]: U+11F41), followed by something that may
 * compose with it: cp heads the next run, which nfc_append_xtext composes
 * with cp kept first; NFC_CUT_NONE.  NFC_CUT_CGJ (nfc_general's own):
 * U+034F goes before cp, which starts the next run as the head of a text
 * does ([value.string.nfc.streamsafe]). */
enum nfc_cut { NFC_CUT_NONE, NFC_CUT_SPLIT, NFC_CUT_HEAD, NFC_CUT_CGJ };

static inline enum nfc_cut nfc_cut_at(const unsigned char *u, size_t n, size_t i, size_t clen,
                                      int32_t cp, bool unicode13)
{
    int32_t next;

    if (!nfc_splits(cp, unicode13))
        return NFC_CUT_NONE;
    if (i + clen < n && nfc_key16_first(cp) >= 0) {
        (void)tfx_text_decode(u + i + clen, n - i - clen, &next);
        if (nfc_markish(next))
            return NFC_CUT_HEAD;
    }
    return NFC_CUT_SPLIT;
}

/* The NFC form of the run s[0..n) appended to out[*o..]: by x/text's
 * composition when xtext or head (nfc_append_xtext), else by utf8proc;
 * false if utf8proc fails. */
static bool nfc_append_run(const char *s, size_t n, bool xtext, bool head, bool unicode13,
                           char *out, size_t *o)
{
    if (xtext || head)
        return nfc_append_xtext(s, n, head, unicode13, out, o);
    return nfc_append(s, n, out, o);
}

/* The NFC form of valid UTF-8 text: the code points of nfc_cut_at cut the
 * text into runs normalised one by one (with unicode13, Go 1.19's x/text
 * tables, profile P14), by utf8proc, or by x/text's composition
 * ([value.string.nfc.xtext]) when the text needs it (nfc_xtext_needed,
 * nfc_key16_lead; always without `filter`). */
static char *nfc_general(tfx_arena *arena, const char *s, size_t n, bool unicode13,
                         bool filter, size_t *out_n)
{
    const unsigned char *u = (const unsigned char *)s;
    utf8proc_uint8_t *norm = NULL;
    utf8proc_ssize_t len;
    char *copy;
    size_t i = 0;
    bool xtext;
    bool cut = false;
    bool stream = !filter;
    size_t candidates = 0;

    if (!tfx_text_valid(u, n)) {
        *out_n = n;
        return tfx_arena_strndup(arena, s, n);
    }
    if (n > (size_t)PTRDIFF_MAX / 4)
        return NULL;
    xtext = !filter || nfc_key16_lead(u, n, unicode13);
    while (i < n) {
        int32_t cp;
        size_t clen = tfx_text_decode(u + i, n - i, &cp);

        cut = cut || nfc_splits(cp, unicode13);
        xtext = xtext || nfc_xtext_needed(u, n, i, clen, cp);
        candidates = cp >= 0x300 && nfc_stream_candidate(cp) ? candidates + 1 : 0;
        stream = stream || candidates >= 10;
        if (cut && xtext && stream)
            break;
        i += clen;
    }
    xtext = xtext || stream;
    if (cut || xtext) {
        /* Normalise the runs between the cuts one by one (NFC grows
         * UTF-8 text by a factor of 3 at most; a U+034F, 2 bytes, comes
         * after 31 non-starters, at least 16 code points, 32 bytes). */
        size_t start = 0;
        size_t o = 0;
        bool head = false;
        int count = 0;

        copy = tfx_arena_alloc(arena, 3 * n + n / 16 + 1);
        if (copy == NULL)
            return NULL;
        for (i = 0; i < n;) {
            int32_t cp;
            size_t clen = tfx_text_decode(u + i, n - i, &cp);
            enum nfc_cut how = nfc_cut_at(u, n, i, clen, cp, unicode13);

            if (stream && nfc_stream_overflow(&count, cp, unicode13))
                how = NFC_CUT_CGJ; /* cp is no starter, so no other cut */
            if (how == NFC_CUT_CGJ) {
                if (!nfc_append_run(s + start, i - start, xtext, head, unicode13, copy, &o))
                    return NULL;
                memcpy(copy + o, "\xCD\x8F", 2);
                o += 2;
                head = false;
                start = i;
            } else if (how != NFC_CUT_NONE) {
                if (!nfc_append_run(s + start, i - start, xtext, head, unicode13, copy, &o))
                    return NULL;
                /* x/text composes what follows cp with cp for the starter */
                head = how == NFC_CUT_HEAD || xtext;
                start = i;
                if (!head) {
                    memcpy(copy + o, s + i, clen);
                    o += clen;
                    start = i + clen;
                }
            }
            i += clen;
        }
        if (!nfc_append_run(s + start, n - start, xtext, head, unicode13, copy, &o))
            return NULL;
        copy[o] = '\0';
        *out_n = o;
        return copy;
    }
    len = utf8proc_map((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &norm,
                       UTF8PROC_STABLE | UTF8PROC_COMPOSE);
    if (len < 0)
        return NULL;
    copy = tfx_arena_strndup(arena, (const char *)norm, (size_t)len);
    free(norm);
    *out_n = (size_t)len;
    return copy;
}

/* [fn.upper] [fn.lower] [fn.upper.map] [fn.lower.map] The fast path of
 * tfx_text_map_case for ASCII text: each letter a-z (A-Z) becomes its
 * capital (small) letter, every other byte stays, in n bytes.  The
 * general path gives the same: every byte is a code point of one byte;
 * the simple case mappings of U+0000..U+007F are exactly those of the
 * ASCII letters (no ASCII code point maps outside ASCII), Go's tables
 * agree on them, and each is written back as one byte. */
static char *map_case_ascii(tfx_arena *arena, const char *s, size_t n, bool upper, size_t *out_n)
{
    char *out = n == SIZE_MAX ? NULL : tfx_arena_alloc(arena, n + 1);
    unsigned char from = upper ? 'a' : 'A';
    size_t i;

    if (out == NULL)
        return NULL;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c >= from && c <= from + 25)
            c = (unsigned char)(c ^ 0x20u); /* the other case of an ASCII letter */
        out[i] = (char)c;
    }
    out[n] = '\0';
    *out_n = n;
    return out;
}

char *tfx_text_map_case(tfx_arena *arena, const char *s, size_t n, bool upper, size_t *out_n)
{
    if (tfx_text_is_ascii((const unsigned char *)s, n))
        return map_case_ascii(arena, s, n, upper, out_n);
    return tfx_text_map_case_general(arena, s, n, upper, out_n);
}

char *tfx_text_map_case_general(tfx_arena *arena, const char *s, size_t n, bool upper,
                                size_t *out_n)
{
    /* A simple case mapping turns a code point of k bytes into one of at
     * most k + 1 bytes (U+023F, 2 bytes, to U+2C7E, 3 bytes), and a byte
     * that is not UTF-8 becomes U+FFFD's 3 bytes, so three times the input
     * always suffices. */
    char *out = n > (SIZE_MAX - 1) / 3 ? NULL : tfx_arena_alloc(arena, 3 * n + 1);
    const unsigned char *in = (const unsigned char *)s;
    size_t i = 0;
    size_t o = 0;

    if (out == NULL)
        return NULL;
    while (i < n) {
        int32_t cp;
        size_t len = tfx_text_decode(in + i, n - i, &cp);

        if (cp < 0) {
            /* Go's strings.Map, which ToUpper and ToLower use for text
             * that is not all ASCII (such a byte is not), writes U+FFFD
             * for each such byte */
            out[o++] = (char)0xEF;
            out[o++] = (char)0xBF;
            out[o++] = (char)0xBD;
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

/* Go's isSeparator of strings.Title (Go 1.19): ASCII letters, digits and
 * '_' are not separators, any other ASCII character is; beyond ASCII,
 * letters and digits are not, and of the rest only white space is (no
 * white-space code point is a letter or digit, so white space decides). */
static bool title_separator(int32_t cp)
{
    if (cp >= 0 && cp < 0x80)
        return !((cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z')
                 || (cp >= 'A' && cp <= 'Z') || cp == '_');
    return tfx_text_is_space(cp);
}

/* Go's unicode.ToTitle with the Unicode 13 tables of Go 1.19. */
static int32_t to_title(int32_t cp)
{
    utf8proc_int32_t mapped;

    if (cp < 0x80)
        return cp >= 'a' && cp <= 'z' ? cp - ('a' - 'A') : cp;
    mapped = utf8proc_totitle(cp);
    if (newer_than_go_tables(cp) || newer_than_go_tables(mapped) || cp == 0xDF)
        return cp;
    return mapped;
}

char *tfx_text_title(tfx_arena *arena, const char *s, size_t n, size_t *out_n)
{
    /* A code point of k bytes maps to one of at most k + 1 bytes, and a
     * byte that does not decode to U+FFFD's 3 bytes: 3n suffices. */
    char *out = n > (SIZE_MAX - 1) / 3 ? NULL : tfx_arena_alloc(arena, 3 * n + 1);
    const unsigned char *in = (const unsigned char *)s;
    int32_t prev = ' ';
    size_t i = 0;
    size_t o = 0;

    if (out == NULL)
        return NULL;
    while (i < n) {
        int32_t cp;
        size_t len = tfx_text_decode(in + i, n - i, &cp);
        int32_t mapped;

        if (cp < 0)
            cp = 0xFFFD;
        mapped = title_separator(prev) ? to_title(cp) : cp;
        prev = cp;
        o += (size_t)utf8proc_encode_char(mapped, (utf8proc_uint8_t *)out + o);
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
