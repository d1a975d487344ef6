/* SPDX-License-Identifier: MPL-2.0 */
/*
 * regex_internal.h — what regex_parse.c and regex_exec.c share: the
 * syntax tree of a pattern (Go's regexp/syntax Regexp, with its operator
 * order, which the parser's merging rules depend on) and the Unicode
 * services of the generated tables.  Not part of the library's interface.
 */
#ifndef TFX_REGEX_INTERNAL_H
#define TFX_REGEX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctx.h"
#include "regex.h"

/* Operators, in the order of Go's syntax.Op: the parser compares them. */
enum {
    RE_NOMATCH = 1, RE_EMPTY, RE_LITERAL, RE_CLASS, RE_ANY_NOT_NL, RE_ANY,
    RE_BEGIN_LINE, RE_END_LINE, RE_BEGIN_TEXT, RE_END_TEXT,
    RE_WORD_BOUNDARY, RE_NO_WORD_BOUNDARY,
    RE_CAPTURE, RE_STAR, RE_PLUS, RE_QUEST, RE_REPEAT, RE_CONCAT, RE_ALTERNATE,
    RE_PSEUDO = 128, RE_LEFT_PAREN = RE_PSEUDO, RE_VERTICAL_BAR
};

/* Parser flags (Go's syntax.Flags); Compile uses RE_PERL. */
enum {
    RE_FOLD_CASE = 1, RE_CLASS_NL = 4, RE_DOT_NL = 8, RE_ONE_LINE = 16,
    RE_NON_GREEDY = 32, RE_PERL_X = 64, RE_UNICODE_GROUPS = 128, RE_WAS_DOLLAR = 256,
    RE_PERL = RE_CLASS_NL | RE_ONE_LINE | RE_PERL_X | RE_UNICODE_GROUPS
};

#define RE_MAX_RUNE 0x10FFFF

typedef struct re_node re_node;
struct re_node {
    int op;
    unsigned flags;
    int min, max;            /* RE_REPEAT; max -1: no upper bound */
    int cap;                 /* RE_CAPTURE / RE_LEFT_PAREN: group number, 0 none */
    const char *name;        /* the group's name, NULL when unnamed */
    int32_t *runes;          /* RE_LITERAL: code points; RE_CLASS: lo, hi pairs */
    size_t nrunes, runes_cap;
    re_node **sub;
    size_t nsub, sub_cap;
    long long size;          /* memo of the size estimate (-1: none) */
    int height;              /* memo of the height (0: none) */
};

/* A parsed pattern. */
typedef struct {
    re_node *root;
    int ngroups;
    const char **names;      /* names[1..ngroups]; "" unnamed */
} re_parsed;

/* Parses pattern[0..nbytes) with Go's Perl flags.  False with *err set on
 * a syntax error. */
bool tfx_regex_parse(tfx_ctx *ctx, const char *pattern, size_t nbytes, re_parsed *out,
                     tfx_regex_error *err);

/* The Unicode data of one Go's regexp: Go 1.19's, Unicode 13.0.0, in
 * profile P14 [re.unicode]; Go 1.23's, Unicode 15.0.0, in PN
 * [re.unicode.pn]. */
typedef struct tfx_regex_unicode tfx_regex_unicode;

/* The tables of ctx's profile (ctx->pn). */
const tfx_regex_unicode *tfx_regex_unicode_of(const tfx_ctx *ctx);

/* Go's unicode.SimpleFold: the next code point of r's case folding
 * orbit, r itself when the orbit is {r}. */
int32_t tfx_regex_simple_fold(const tfx_regex_unicode *u, int32_t r);

/* Go's unicode.IsLetter(r) || unicode.IsDigit(r). */
bool tfx_regex_is_letter_or_digit(const tfx_regex_unicode *u, int32_t r);

#endif /* TFX_REGEX_INTERNAL_H */
