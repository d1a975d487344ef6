/* SPDX-License-Identifier: MPL-2.0 */
/*
 * regex.h — regular expressions exactly as Go 1.19's regexp package has
 * them (spec/functions-regex.md, rules re.*): Go's syntax with its Perl
 * flags, its error texts, its Unicode 13.0.0 classes and case folding
 * (Go 1.23's Unicode 15.0.0 ones in profile PN: ctx->pn, [re.unicode.pn]),
 * leftmost-first matching with submatches, FindAll's and ReplaceAll's
 * iteration and Expand's templates.
 *
 * Matching is a Pike VM: time linear in pattern times subject, memory
 * bounded by the program size, no recursion on the subject; the parser
 * recurses on the pattern's tree only as deep as Go's limits allow, and
 * the compiler and the VM's closure use explicit stacks.
 * Every allocation is in the arena of the tfx_ctx and every unit of work
 * is charged to it (tfx_ctx_step), so a pattern or subject past the
 * evaluation's limits fails through tfx_ctx_fail like any other work.
 *
 * Subjects may hold bytes that are not UTF-8: each such byte is matched
 * as U+FFFD of width 1, as Go does.
 */
#ifndef TFX_REGEX_H
#define TFX_REGEX_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"

typedef struct tfx_regex tfx_regex;

/* A syntax error: Go's ErrorCode text ("missing closing )") and the
 * offending part of the pattern (Expr), which may hold any bytes. */
typedef struct {
    const char *code;
    const char *expr;         /* NUL-terminated, in the arena */
    size_t expr_nbytes;
} tfx_regex_error;

/* Compiles pattern[0..nbytes) as Go's regexp.Compile does (syntax.Perl).
 * Returns the compiled expression, in the ctx's arena, or NULL with *err
 * filled [re.syntax.*]. */
tfx_regex *tfx_regex_compile(tfx_ctx *ctx, const char *pattern, size_t nbytes,
                             tfx_regex_error *err);

/* Parses pattern[0..nbytes) as tfx_regex_compile does, with the same
 * errors, but makes no program: the result answers tfx_regex_ngroups
 * and tfx_regex_group_name only, and must not be matched with.  For
 * type functions, so that a call compiles its pattern once. */
tfx_regex *tfx_regex_syntax(tfx_ctx *ctx, const char *pattern, size_t nbytes,
                            tfx_regex_error *err);

/* Go's Error(): "error parsing regexp: CODE: `EXPR`", in the arena. */
const char *tfx_regex_error_text(tfx_ctx *ctx, const tfx_regex_error *err);

/* The number of capture groups (NumSubexp). */
size_t tfx_regex_ngroups(const tfx_regex *re);

/* The name of group i (1 <= i <= ngroups), "" when it has none
 * (SubexpNames). */
const char *tfx_regex_group_name(const tfx_regex *re, size_t i);

/* The leftmost-first match in s[0..nbytes) that starts at or after pos
 * (Go's doExecute from pos).  On a match, fills caps[0 .. 2*(ngroups+1))
 * with byte offsets, -1 for a group that did not take part, and returns
 * true. */
bool tfx_regex_match(tfx_ctx *ctx, const tfx_regex *re, const char *s, size_t nbytes,
                     size_t pos, long *caps);

/* Every match of FindAllStringSubmatchIndex(s, -1) [re.findall]: returns
 * their number and sets *caps to them, 2*(ngroups+1) offsets each. */
size_t tfx_regex_find_all(tfx_ctx *ctx, const tfx_regex *re, const char *s, size_t nbytes,
                          long **caps);

/* ReplaceAllString(s, template) [re.replace], with Expand's template
 * rules [re.expand].  Returns the result (NUL-terminated, in the arena)
 * and its length in *out_nbytes. */
const char *tfx_regex_replace_all(tfx_ctx *ctx, const tfx_regex *re, const char *s, size_t nbytes,
                            const char *tmpl, size_t tmpl_nbytes, size_t *out_nbytes);

/* The Unicode version of the tables ("13.0.0"). */
const char *tfx_regex_unicode_version(void);

#endif /* TFX_REGEX_H */
