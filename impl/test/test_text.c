/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_text.c — unit tests of text.h's fast paths against the general
 * paths they stand for, on random inputs ([value.string.nfc]).
 */
#include "text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "check.h"

/* A fixed-seed xorshift generator: the same inputs on every run. */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Pieces random text is made of: ASCII bytes, NUL, and non-ASCII code
 * points that NFC changes or that stop the fast path (a combining mark,
 * a decomposed letter's mark, Hangul jamo, a mark newer than Unicode 13,
 * a bad byte). */
static const struct {
    const char *bytes;
    size_t n;
} non_ascii[] = {
    {"\xCC\x81", 2}, {"\xCC\x8A", 2}, {"\xC3\xA9", 2}, {"\xE1\x84\x80", 3},
    {"\xE1\x85\xA1", 3}, {"\xE1\xAB\x81", 3}, {"\xF0\x9F\x98\x80", 4}, {"\xFF", 1},
    {"\xC3", 1}, {"\xE2\x84\xAB", 3},
};

/* Random text of up to 40 bytes into buf; ASCII only when ascii_only. */
static size_t random_text(char *buf, bool ascii_only)
{
    size_t len = (size_t)(rng() % 41);
    size_t n = 0;

    while (n < len) {
        uint64_t r = rng();

        if (!ascii_only && r % 8 == 0) {
            size_t k = (size_t)((r >> 8) % (sizeof(non_ascii) / sizeof(non_ascii[0])));
            size_t j;

            for (j = 0; j < non_ascii[k].n; j++)
                buf[n++] = non_ascii[k].bytes[j];
        } else {
            buf[n++] = (char)((r >> 16) % 0x80);   /* 00..7F, NUL included */
        }
    }
    return n;
}

static size_t put_utf8(char *buf, int32_t cp)
{
    return (size_t)utf8proc_encode_char(cp, (utf8proc_uint8_t *)buf);
}

/* Code points for text where [value.string.nfc.key16] matters: starters
 * that x/text composes as another code point (U+E0043 as C, U+10065 as e,
 * U+20041 as A, U+1099 as U+11099, U+11F41 as U+1F41: a mark in PN), ones
 * that are no such starter (U+2F81A decomposes, U+114B0 is a second,
 * U+1AC00 would be Hangul), firsts, seconds (of class 0 too, after which
 * other marks, [value.string.nfc.xtext]), other marks, jamo, marks newer
 * than Unicode 13, ASCII. */
static const int32_t key16_alphabet[] = {
    0xE0043, 0x10065, 0x20041, 0x1099, 0x11F41, 0x2F81A, 0x114B0, 0x1AC00, 0x41,  0x65,
    0x43,    0xC5,    0x1EA0,  0x11099, 0x114B9, 0x301,   0x300,   0x323,   0x308, 0xB3E,
    0x9BE,   0x110BA, 0x3099,  0x334,  0x5B0,   0x1100,  0x1161,  0x11A8,  0x11A7, 0x1E4EC,
    0x898,   0x20,    0xAC00,  0x1F41,  0x9BC,   0xF18,   0xBC6,   0xBD7,
};

/* Whether a fast path's text fast[0..nfast) is the general path's, and
 * NUL-terminated. */
static bool same_text(const char *fast, size_t nfast, const char *gen, size_t ngen)
{
    return fast != NULL && gen != NULL && nfast == ngen && memcmp(fast, gen, nfast) == 0
           && fast[nfast] == '\0';
}

/* Whether tfx_text_nfc_profile (with its fast paths) gives the text
 * tfx_text_nfc_general_profile (x/text's composition for every text,
 * [value.string.nfc.xtext]) gives for buf[0..n) (test number i); says
 * which input when not. */
static bool nfc_agree(tfx_arena *a, const char *buf, size_t n, bool pn, int i)
{
    size_t nfast = 0;
    size_t ngen = 0;
    const char *fast = tfx_text_nfc_profile(a, buf, n, pn, &nfast);
    const char *gen = tfx_text_nfc_general_profile(a, buf, n, pn, &ngen);

    if (!same_text(fast, nfast, gen, ngen))
        fprintf(stderr, "nfc differs on input %d (%zu bytes, %s)\n", i, n, pn ? "PN" : "P14");
    return same_text(fast, nfast, gen, ngen);
}

/* tfx_text_nfc (with its fast paths) equals tfx_text_nfc_general on
 * random ASCII text, on random mixed text, on random text of
 * key16_alphabet and on long runs of non-starters, in both profiles. */
static void test_nfc_fast_path(void)
{
    tfx_arena *a = tfx_arena_new(0);
    int same = 0;
    int i;

    CHECK(a != NULL);
    if (a == NULL)
        return;
    for (i = 0; i < 20000; i++) {
        char buf[256];
        size_t n = random_text(buf, i % 2 == 0);

        same += nfc_agree(a, buf, n, i % 4 >= 2, i);
    }
    CHECK(same == 20000);
    /* [value.string.nfc.key16] on random text of key16_alphabet */
    same = 0;
    for (i = 0; i < 40000; i++) {
        char buf[64];
        size_t n = 0;
        size_t len = (size_t)(rng() % 9);

        while (len-- > 0)
            n += put_utf8(buf + n, key16_alphabet[rng() % (sizeof key16_alphabet
                                                            / sizeof key16_alphabet[0])]);
        same += nfc_agree(a, buf, n, i % 2 == 1, i);
    }
    CHECK(same == 40000);
    /* [value.string.nfc.streamsafe] runs of 20 to 45 non-starters */
    same = 0;
    for (i = 0; i < 4000; i++) {
        static const int32_t marks[] = {0x301, 0x300, 0x334, 0x344,  0xF73,   0xFF9E, 0x314F,
                                        0x1161, 0x11A8, 0xB3E, 0x9BC, 0x11F41, 0x323,  0x898};
        char buf[256];
        size_t n = put_utf8(buf, key16_alphabet[rng() % (sizeof key16_alphabet
                                                         / sizeof key16_alphabet[0])]);
        size_t len = 20 + (size_t)(rng() % 26);

        while (len-- > 0)
            n += put_utf8(buf + n, marks[rng() % (sizeof marks / sizeof marks[0])]);
        same += nfc_agree(a, buf, n, i % 2 == 1, i);
    }
    CHECK(same == 4000);
    /* The edge cases: empty text, NUL, DEL, and a composing pair. */
    {
        size_t n = 1;
        const char *r = tfx_text_nfc(a, "", 0, &n);

        CHECK(r != NULL && n == 0 && r[0] == '\0');
        r = tfx_text_nfc(a, "a\0\x7F", 3, &n);
        CHECK(r != NULL && n == 3 && memcmp(r, "a\0\x7F", 3) == 0);
        r = tfx_text_nfc(a, "e\xCC\x81", 3, &n);
        CHECK_STR(r, "\xC3\xA9");
        CHECK(n == 2);
        /* [value.string.nfc] U+AC00 U+11A7 stays, in both profiles; L V
         * U+11A7 composes the L V only */
        r = tfx_text_nfc(a, "\xEA\xB0\x80\xE1\x86\xA7", 6, &n);
        CHECK_STR(r, "\xEA\xB0\x80\xE1\x86\xA7");
        r = tfx_text_nfc_profile(a, "\xEA\xB0\x80\xE1\x86\xA7", 6, true, &n);
        CHECK_STR(r, "\xEA\xB0\x80\xE1\x86\xA7");
        r = tfx_text_nfc_profile(a, "\xE1\x84\x80\xE1\x85\xA1\xE1\x86\xA7", 9, true, &n);
        CHECK_STR(r, "\xEA\xB0\x80\xE1\x86\xA7");
        /* [value.string.nfc] [value.string.nfc.pn] U+1E4EC (class 232, new in
         * Unicode 15) then U+0301: a starter for P14, a mark for PN */
        r = tfx_text_nfc_profile(a, "a\xF0\x9E\x93\xAC\xCC\x81", 7, false, &n);
        CHECK_STR(r, "a\xF0\x9E\x93\xAC\xCC\x81");
        r = tfx_text_nfc_profile(a, "a\xF0\x9E\x93\xAC\xCC\x81", 7, true, &n);
        CHECK_STR(r, "\xC3\xA1\xF0\x9E\x93\xAC");
        CHECK(n == 6);
        r = tfx_text_nfc_profile(a, "e\xCC\x81", 3, true, &n);
        CHECK_STR(r, "\xC3\xA9");
    }
    {
        /* [value.string.nfc.key16] U+E0043 U+0301 is U+0106;
         * [value.string.nfc.xtext] E U+0B3E U+09BC U+0300 is U+00C8 U+0B3E
         * U+09BC, E U+0B3E U+0300 stays; in both profiles */
        static const char *const xtext[][2] = {
            {"\xF3\xA0\x81\x83\xCC\x81", "\xC4\x86"},
            /* [value.string.nfc.streamsafe] a U+0301 x 31: U+00E1, 29
             * U+0301, U+034F, U+0301 */
            {"a\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81"
             "\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81"
             "\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81"
             "\xCC\x81",
             "\xC3\xA1\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81"
             "\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81"
             "\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81\xCC\x81"
             "\xCD\x8F\xCC\x81"},
            {"E\xE0\xAC\xBE\xE0\xA6\xBC\xCC\x80", "\xC3\x88\xE0\xAC\xBE\xE0\xA6\xBC"},
            {"E\xE0\xAC\xBE\xCC\x80", "E\xE0\xAC\xBE\xCC\x80"},
        };
        size_t k;

        for (k = 0; k < 2 * sizeof xtext / sizeof xtext[0]; k++) {
            size_t n = 0;
            const char *r = tfx_text_nfc_profile(a, xtext[k / 2][0], strlen(xtext[k / 2][0]),
                                                 k % 2 == 1, &n);

            CHECK_STR(r, xtext[k / 2][1]);
        }
    }
    tfx_arena_free(a);
}

/* The canonical composition pairs, derived from utf8proc's data: every
 * primary composite P (its NFD composes back to P alone) is the pair of
 * the NFC of its NFD without the last code point (the first) and that
 * last code point (the second).  Hangul is left out (composed by
 * arithmetic, in x/text too). */
struct nfc_pair {
    int32_t first, second, composite;
};

static size_t nfc_pairs(struct nfc_pair *out, size_t max)
{
    const utf8proc_option_t opts = UTF8PROC_STABLE | UTF8PROC_COMPOSE;
    size_t k = 0;
    int32_t p;

    for (p = 0; p < 0x110000; p++) {
        utf8proc_int32_t d[32];
        utf8proc_int32_t c[32];
        utf8proc_ssize_t nd;

        if ((p >= 0xD800 && p <= 0xDFFF) || (p >= 0xAC00 && p <= 0xD7A3))
            continue;
        nd = utf8proc_decompose_char(p, d, 32, UTF8PROC_STABLE | UTF8PROC_DECOMPOSE, NULL);
        if (nd < 2 || nd > 32)
            continue;
        memcpy(c, d, (size_t)nd * sizeof d[0]);
        if (utf8proc_normalize_utf32(c, nd, opts) != 1 || c[0] != p)
            continue;
        memcpy(c, d, (size_t)(nd - 1) * sizeof d[0]);
        if (utf8proc_normalize_utf32(c, nd - 1, opts) != 1 || k == max)
            continue;
        out[k].first = c[0];
        out[k].second = d[nd - 1];
        out[k].composite = p;
        k++;
    }
    return k;
}

/* [value.string.nfc.key16] Against the pairs utf8proc's data gives: the
 * facts the model rests on (no two firsts share their low 16 bits; every
 * second is a mark, so the fast path's filter lets it through), and for
 * every pair F M -> P and each other code point S with F's low 16 bits,
 * S M -> P in both profiles (x/text looks the pair up by those bits);
 * F M U+0301 as P U+0301 (no cut comes between a pair); F M -> P by
 * x/text's composition too (its table of seconds is complete). */
static void test_nfc_key16_pairs(void)
{
    static struct nfc_pair pairs[1200];
    static int32_t first_of_low[0x10000];
    tfx_arena *a = tfx_arena_new(0);
    size_t np = nfc_pairs(pairs, sizeof pairs / sizeof pairs[0]);
    size_t i;
    int unique = 1;
    int marks = 1;
    int composed = 0;
    int expected = 0;
    int kept = 0;
    int general = 0;

    CHECK(a != NULL);
    if (a == NULL)
        return;
    CHECK(np == 941);
    for (i = 0; i < np; i++) {
        int32_t low = pairs[i].first & 0xFFFF;
        const utf8proc_property_t *m = utf8proc_get_property(pairs[i].second);

        if (first_of_low[low] != 0 && first_of_low[low] != pairs[i].first)
            unique = 0;
        first_of_low[low] = pairs[i].first;
        if (m->combining_class == 0 && m->category != UTF8PROC_CATEGORY_MN
            && m->category != UTF8PROC_CATEGORY_MC)
            marks = 0;
    }
    CHECK(unique);
    CHECK(marks);
    for (i = 0; i < np; i++) {
        int32_t plane;
        int pn;

        for (pn = 0; pn < 2; pn++) {
            for (plane = 0; plane <= 16; plane++) {
                int32_t S = (plane << 16) | (pairs[i].first & 0xFFFF);
                char in[16];
                char want[8];
                size_t n = 0;
                size_t nw = put_utf8(want, pairs[i].composite);
                size_t nr = 0;
                const char *r;

                if (S == pairs[i].first || (S >= 0xD800 && S <= 0xDFFF))
                    continue;
                expected++;
                n = put_utf8(in, S);
                n += put_utf8(in + n, pairs[i].second);
                r = tfx_text_nfc_profile(a, in, n, pn != 0, &nr);
                if (r != NULL && nr == nw && memcmp(r, want, nw) == 0)
                    composed++;
                else if (expected - composed <= 20)
                    fprintf(stderr, "key16: U+%04X U+%04X (%s) not U+%04X\n", (unsigned)S,
                            (unsigned)pairs[i].second, pn ? "PN" : "P14",
                            (unsigned)pairs[i].composite);
            }
            {
                /* F M U+0301 and P U+0301, canonically equivalent: the same */
                char in[16];
                char eq[16];
                size_t n = put_utf8(in, pairs[i].first);
                size_t ne = put_utf8(eq, pairs[i].composite);
                size_t nr = 0;
                size_t nq = 0;
                const char *r;
                const char *q;

                n += put_utf8(in + n, pairs[i].second);
                n += put_utf8(in + n, 0x0301);
                ne += put_utf8(eq + ne, 0x0301);
                r = tfx_text_nfc_profile(a, in, n, pn != 0, &nr);
                q = tfx_text_nfc_profile(a, eq, ne, pn != 0, &nq);
                if (r != NULL && q != NULL && nr == nq && memcmp(r, q, nr) == 0)
                    kept++;
                /* and x/text's composition ([value.string.nfc.xtext]) knows
                 * every pair: F M alone is P */
                r = tfx_text_nfc_general_profile(a, in, n - 2, pn != 0, &nr);
                nq = put_utf8(eq, pairs[i].composite);
                if (r != NULL && nr == nq && memcmp(r, eq, nr) == 0)
                    general++;
            }
        }
    }
    CHECK(composed == expected);
    CHECK(expected == 2 * 941 * 16);
    CHECK(kept == 2 * 941);
    CHECK(general == 2 * 941);
    tfx_arena_free(a);
}


/* tfx_text_map_case (with its ASCII fast path) equals
 * tfx_text_map_case_general on random ASCII text and on random mixed
 * text, both ways. */
static void test_map_case_fast_path(void)
{
    tfx_arena *a = tfx_arena_new(0);
    int same = 0;
    int i;

    CHECK(a != NULL);
    if (a == NULL)
        return;
    for (i = 0; i < 20000; i++) {
        char buf[256];
        size_t n = random_text(buf, i % 4 != 0);
        bool upper = (i / 2) % 2 == 0;
        size_t nfast = 0;
        size_t ngen = 0;
        const char *fast = tfx_text_map_case(a, buf, n, upper, &nfast);
        const char *gen = tfx_text_map_case_general(a, buf, n, upper, &ngen);

        if (same_text(fast, nfast, gen, ngen))
            same++;
        else
            fprintf(stderr, "map_case differs on input %d (%zu bytes)\n", i, n);
    }
    CHECK(same == 20000);
    {
        size_t n = 0;
        const char *r = tfx_text_map_case(a, "aZ@[`{", 6, true, &n);

        CHECK_STR(r, "AZ@[`{");
        r = tfx_text_map_case(a, "aZ@[`{", 6, false, &n);
        CHECK_STR(r, "az@[`{");
    }
    tfx_arena_free(a);
}

/* tfx_text_skip_graphemes_profile (with its ASCII fast path) equals
 * tfx_text_skip_graphemes_general for random counts on random text, CR
 * LF pairs and ASCII next to marks included, in both profiles
 * ([fn.strings.graphemes], [fn.strings.graphemes.pn]). */
static void test_graphemes_fast_path(void)
{
    int same = 0;
    int i;

    for (i = 0; i < 40000; i++) {
        char buf[512];
        size_t n = random_text(buf, i % 3 == 0);
        size_t k = (i % 5 == 0) ? SIZE_MAX : (size_t)(rng() % 48);
        size_t tfast = 0;
        size_t tgen = 0;
        size_t fast;
        size_t gen;

        /* CR and LF often, so that pairs and lone ones meet marks */
        for (size_t j = 0; j < n; j++)
            if ((unsigned char)buf[j] < 0x80 && rng() % 4 == 0)
                buf[j] = (rng() % 2 == 0) ? '\r' : '\n';
        fast = tfx_text_skip_graphemes_profile((const unsigned char *)buf, n, k, &tfast, i % 2);
        gen = tfx_text_skip_graphemes_general((const unsigned char *)buf, n, k, &tgen, i % 2);
        if (fast == gen && tfast == tgen)
            same++;
        else
            fprintf(stderr, "skip_graphemes differs on input %d (%zu bytes, k %zu)\n", i, n, k);
    }
    CHECK(same == 40000);
    CHECK(tfx_text_count_graphemes((const unsigned char *)"a\r\nb\r", 5) == 4);
    CHECK(tfx_text_count_graphemes((const unsigned char *)"e\xCC\x81\r\n\xCC\x81", 7) == 3);
    /* U+0898, a mark of Unicode 14: a cluster of its own in P14, part of
     * the one before it in PN */
    CHECK(tfx_text_count_graphemes((const unsigned char *)"a\xE0\xA2\x98", 4) == 2);
    CHECK(tfx_text_count_graphemes_profile((const unsigned char *)"a\xE0\xA2\x98", 4, true) == 1);
    /* [fn.strings.graphemes] L LV T: the T starts a cluster; LV T and
     * L LV V T are one */
    CHECK(tfx_text_count_graphemes((const unsigned char *)"\xE1\x84\x80\xEA\xB0\x80\xED\x9F\x99", 9)
          == 2);
    CHECK(tfx_text_count_graphemes((const unsigned char *)"\xEA\xB0\x80\xED\x9F\x99", 6) == 1);
    CHECK(tfx_text_count_graphemes(
              (const unsigned char *)"\xE1\x84\x80\xEA\xB0\x80\xE1\x85\xA1\xED\x9F\x99", 12)
          == 1);
}

int main(void)
{
    test_nfc_fast_path();
    test_nfc_key16_pairs();
    test_graphemes_fast_path();
    test_map_case_fast_path();
    return check_report("test_text");
}
