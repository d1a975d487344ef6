/* SPDX-License-Identifier: MPL-2.0 */
/*
 * text.h — UTF-8 and Unicode services: decoding, grapheme clusters,
 * white space, NFC.  The only module that includes utf8proc.
 *
 * Lengths are in bytes unless the name says otherwise (ngraphemes).
 */
#ifndef TFX_TEXT_H
#define TFX_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"

/* Decodes the code point at s[0..n) (n >= 1).  Returns the number of bytes
 * it takes (1..4) and stores it in *cp; for an invalid or truncated
 * sequence returns 1 and stores -1, as Go's utf8.DecodeRune consumes one
 * byte of a bad sequence. */
size_t tfx_text_decode(const unsigned char *s, size_t n, int32_t *cp);

/* Whether s[0..n) is entirely valid UTF-8 (no surrogates, nothing above
 * U+10FFFF, no overlong forms). */
bool tfx_text_valid(const unsigned char *s, size_t n);

/* The length in bytes of the extended grapheme cluster that starts at
 * s[0..n) (n >= 1).  A sequence with the shape of UTF-8 that is not
 * valid (an overlong form, a surrogate) is a cluster of its own, as is any
 * other byte that does not decode. */
size_t tfx_text_grapheme_len(const unsigned char *s, size_t n);

/* The number of grapheme clusters in s[0..n). */
size_t tfx_text_count_graphemes(const unsigned char *s, size_t n);

/* The bytes of the first k grapheme clusters of s[0..n) (all of them
 * when there are fewer); *taken gets how many clusters that is.  With a
 * fast path for ASCII text; tfx_text_skip_graphemes_general takes every
 * cluster through tfx_text_grapheme_len_profile (for the tests). */
size_t tfx_text_skip_graphemes(const unsigned char *s, size_t n, size_t k, size_t *taken);
size_t tfx_text_skip_graphemes_general(const unsigned char *s, size_t n, size_t k, size_t *taken,
                                        bool pn);

/* The three above under a profile: with pn, the clusters of go-textseg
 * v15 (Unicode 15.0.0, profile PN: [fn.strings.graphemes.pn]) instead of
 * v13's (P14; the functions above are these with pn false). */
size_t tfx_text_grapheme_len_profile(const unsigned char *s, size_t n, bool pn);
size_t tfx_text_count_graphemes_profile(const unsigned char *s, size_t n, bool pn);
size_t tfx_text_skip_graphemes_profile(const unsigned char *s, size_t n, size_t k, size_t *taken,
                                       bool pn);

/* Go's unicode.IsSpace: the Unicode White_Space property. */
bool tfx_text_is_space(int32_t cp);

/* Go's strconv.IsPrint: letters, marks, numbers, punctuation, symbols
 * (categories L, M, N, P, S) and U+0020; false for anything else,
 * including values that are not code points. */
bool tfx_text_is_print(int32_t cp);

/* tfx_text_is_print under a profile: with pn, Go 1.23's strconv.IsPrint,
 * whose Unicode 15.0.0 data is utf8proc's (the code points assigned in
 * Unicode 14 and 15 are printable: [value.string.print.pn]). */
bool tfx_text_is_print_profile(int32_t cp, bool pn);

/* Bytes of leading / trailing white space (tfx_text_is_space) of s[0..n). */
size_t tfx_text_space_prefix(const unsigned char *s, size_t n);
size_t tfx_text_space_suffix(const unsigned char *s, size_t n);

/* Whether s[0..n) holds only ASCII bytes (00..7F): text that is its own
 * NFC form (see tfx_text_nfc). */
bool tfx_text_is_ascii(const unsigned char *s, size_t n);

/* The NFC normalisation of s[0..n) in `arena`, NUL-terminated, its length
 * in *out_n.  Invalid UTF-8 is copied unchanged.  NULL when the arena
 * refuses the memory. */
char *tfx_text_nfc(tfx_arena *arena, const char *s, size_t n, size_t *out_n);
/* tfx_text_nfc under a profile: with pn, Unicode 15's normalisation
 * (profile PN) instead of Unicode 13's (P14). */
char *tfx_text_nfc_profile(tfx_arena *arena, const char *s, size_t n, bool pn, size_t *out_n);

/* tfx_text_nfc without its fast paths (see tfx_text_nfc_general_profile).
 * For tests, which compare the two. */
char *tfx_text_nfc_general(tfx_arena *arena, const char *s, size_t n, size_t *out_n);
/* tfx_text_nfc_profile without its fast paths: every text composed as
 * x/text composes ([value.string.nfc.xtext], [value.string.nfc.key16]),
 * not only those where utf8proc's composition would differ.  For tests.
 * (tfx_text_nfc_general is this in profile P14.) */
char *tfx_text_nfc_general_profile(tfx_arena *arena, const char *s, size_t n, bool pn,
                                   size_t *out_n);

/* s[0..n) with every code point mapped to its simple upper (or lower)
 * case, as Go's strings.ToUpper / strings.ToLower do (no special
 * casing, no locale); each byte that is not part of valid UTF-8 becomes
 * U+FFFD, as Go's strings.Map writes it.  NUL-terminated in `arena`, its length in *out_n; NULL when the
 * arena refuses the memory.  Not normalised: callers apply NFC. */
char *tfx_text_map_case(tfx_arena *arena, const char *s, size_t n, bool upper, size_t *out_n);
/* The same without its fast path for ASCII text (for tests). */
char *tfx_text_map_case_general(tfx_arena *arena, const char *s, size_t n, bool upper,
                                size_t *out_n);

/* s[0..n) as Go's strings.Title makes it: every code point that follows
 * a word separator (or starts the string) mapped to its simple title case
 * (Go's unicode.ToTitle, Unicode 13), the others kept.  A separator is an
 * ASCII character other than a letter, digit or '_', or a non-ASCII
 * white-space code point (tfx_text_is_space).  Each byte that is not
 * valid UTF-8 becomes U+FFFD, as Go's strings.Map writes it.
 * NUL-terminated in `arena`, its length in *out_n; NULL when the arena
 * refuses the memory.  Not normalised: callers apply NFC. */
char *tfx_text_title(tfx_arena *arena, const char *s, size_t n, size_t *out_n);

/* The Unicode version of the tables in use (utf8proc's). */
const char *tfx_text_unicode_version(void);

#endif /* TFX_TEXT_H */
