/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_regex.c — unit tests of the regular expression engine (regex.h,
 * regex_parse.c, regex_exec.c) and of regex, regexall and replace
 * (funcs_regex.c), for what the conformance corpus cannot show: Go's
 * error texts (the corpus compares categories, not texts), subjects that
 * are not UTF-8, searches that start past 0, the engine's own limits
 * [re.limits] and Go's [re.syntax.limits], and patterns that would make a
 * recursive engine overflow its stack [re.engine].
 *
 * Every expected text and offset was checked against Go 1.19's regexp
 * through tools/go-regexdump (the program tools/regexdiff runs), or, for
 * the functions, against the reference adapter.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common.h"
#include "funcs_internal.h"
#include "regex.h"
#include "render.h"

static tfx_ctx *C;

/* "ok", or the compile error as Go's Error() gives it. */
static const char *compile_n(const char *pattern, size_t n)
{
    tfx_regex_error err;
    if (tfx_regex_compile(C, pattern, n, &err) != NULL)
        return "ok";
    return tfx_regex_error_text(C, &err);
}

static const char *compile(const char *pattern)
{
    return compile_n(pattern, strlen(pattern));
}

static const tfx_regex *re_of(const char *pattern)
{
    tfx_regex_error err;
    const tfx_regex *re = tfx_regex_compile(C, pattern, strlen(pattern), &err);
    if (re == NULL)
        fprintf(stderr, "test_regex: %s does not compile\n", pattern);
    return re;
}

/* FindAllStringSubmatchIndex as "a,b,c,d;e,f,..." ("-" if none). */
static const char *find_all_n(const char *pattern, const char *s, size_t n)
{
    const tfx_regex *re = re_of(pattern);
    if (re == NULL)
        return "(error)";
    long *caps;
    size_t nm = tfx_regex_find_all(C, re, s, n, &caps);
    size_t ncap = 2 * (tfx_regex_ngroups(re) + 1);
    tfx_textbuf b;
    tfx_textbuf_init(&b, C);
    if (nm == 0)
        tfx_textbuf_putc(&b, '-');
    for (size_t m = 0; m < nm; m++)
        for (size_t k = 0; k < ncap; k++)
            tfx_textbuf_printf(&b, "%s%ld", k ? "," : m ? ";" : "", caps[m * ncap + k]);
    return tfx_textbuf_text(&b);
}

static const char *find_all(const char *pattern, const char *s)
{
    return find_all_n(pattern, s, strlen(s));
}

/* The match from pos, as "a,b,..." ("-" if none). */
static const char *match_at(const char *pattern, const char *s, size_t pos)
{
    const tfx_regex *re = re_of(pattern);
    if (re == NULL)
        return "(error)";
    size_t ncap = 2 * (tfx_regex_ngroups(re) + 1);
    long *caps = tfx_ctx_alloc_array(C, ncap, sizeof(long));
    if (!tfx_regex_match(C, re, s, strlen(s), pos, caps))
        return "-";
    tfx_textbuf b;
    tfx_textbuf_init(&b, C);
    for (size_t k = 0; k < ncap; k++)
        tfx_textbuf_printf(&b, "%s%ld", k ? "," : "", caps[k]);
    return tfx_textbuf_text(&b);
}

static const char *replace_all(const char *pattern, const char *s, const char *tmpl)
{
    const tfx_regex *re = re_of(pattern);
    size_t n;
    if (re == NULL)
        return "(error)";
    return tfx_regex_replace_all(C, re, s, strlen(s), tmpl, strlen(tmpl), &n);
}

/* [re.syntax.errors] Go's codes and offending texts. */
static void test_errors(tfx_ctx *ctx, void *arg)
{
    TFX_UNUSED(ctx);
    TFX_UNUSED(arg);
    CHECK_STR(compile("(a"), "error parsing regexp: missing closing ): `(a`");
    CHECK_STR(compile("a)"), "error parsing regexp: unexpected ): `a)`");
    CHECK_STR(compile("x[a-"), "error parsing regexp: missing closing ]: `[a-`");
    CHECK_STR(compile("[z-a]"), "error parsing regexp: invalid character class range: `z-a`");
    CHECK_STR(compile("[[:foo:]]"), "error parsing regexp: invalid character class range: `[:foo:]`");
    CHECK_STR(compile("\\p{Foo}"), "error parsing regexp: invalid character class range: `\\p{Foo}`");
    CHECK_STR(compile("\\pX"), "error parsing regexp: invalid character class range: `\\pX`");
    CHECK_STR(compile("\\p"), "error parsing regexp: invalid character class range: `\\p`");
    CHECK_STR(compile("\\p{L"), "error parsing regexp: invalid character class range: `\\p{L`");
    CHECK_STR(compile("\\8"), "error parsing regexp: invalid escape sequence: `\\8`");
    CHECK_STR(compile("\\1"), "error parsing regexp: invalid escape sequence: `\\1`");
    CHECK_STR(compile("\\xZ1"), "error parsing regexp: invalid escape sequence: `\\xZ1`");
    CHECK_STR(compile("\\x4"), "error parsing regexp: invalid escape sequence: `\\x4`");
    CHECK_STR(compile("\\x{110000}"), "error parsing regexp: invalid escape sequence: `\\x{110000`");
    CHECK_STR(compile("\\x{}"), "error parsing regexp: invalid escape sequence: `\\x{}`");
    CHECK_STR(compile("\\C"), "error parsing regexp: invalid escape sequence: `\\C`");
    CHECK_STR(compile("\\Z"), "error parsing regexp: invalid escape sequence: `\\Z`");
    CHECK_STR(compile("[\\b]"), "error parsing regexp: invalid escape sequence: `\\b`");
    CHECK_STR(compile("\\\xc3\xa9"), "error parsing regexp: invalid escape sequence: `\\\xc3\xa9`");
    CHECK_STR(compile("a\\"), "error parsing regexp: trailing backslash at end of expression: ``");
    CHECK_STR(compile("(?z)"), "error parsing regexp: invalid or unsupported Perl syntax: `(?z`");
    CHECK_STR(compile("(?i-)a"), "error parsing regexp: invalid or unsupported Perl syntax: `(?i-)`");
    CHECK_STR(compile("(?<n>a)"), "error parsing regexp: invalid or unsupported Perl syntax: `(?<`");
    CHECK_STR(compile("(?P"), "error parsing regexp: invalid or unsupported Perl syntax: `(?P`");
    CHECK_STR(compile("(?P<a-b>x)"), "error parsing regexp: invalid named capture: `(?P<a-b>`");
    CHECK_STR(compile("(?P<n"), "error parsing regexp: invalid named capture: `(?P<n`");
    CHECK_STR(compile("a**"), "error parsing regexp: invalid nested repetition operator: `**`");
    CHECK_STR(compile("a{2}{3}"),
              "error parsing regexp: invalid nested repetition operator: `{2}{3}`");
    CHECK_STR(compile("a*??"), "error parsing regexp: invalid nested repetition operator: `*??`");
    CHECK_STR(compile("*"), "error parsing regexp: missing argument to repetition operator: `*`");
    CHECK_STR(compile("(+)"), "error parsing regexp: missing argument to repetition operator: `+`");
    CHECK_STR(compile("a{1001}"), "error parsing regexp: invalid repeat count: `{1001}`");
    CHECK_STR(compile("a{2,1}"), "error parsing regexp: invalid repeat count: `{2,1}`");
    CHECK_STR(compile("a\xffz"), "error parsing regexp: invalid UTF-8: `\xffz`");
    CHECK_STR(compile("\\Q\xff\\Ez"), "error parsing regexp: invalid UTF-8: `\xff`");
    /* The offending text may hold a NUL byte of the pattern. */
    tfx_regex_error err;
    CHECK(tfx_regex_compile(C, "[\0", 2, &err) == NULL);
    CHECK_STR(err.code, "missing closing ]");
    CHECK(err.expr_nbytes == 2 && memcmp(err.expr, "[\0", 2) == 0);
    CHECK_STR(compile("\\p{Cn}"), "error parsing regexp: invalid character class range: `\\p{Cn}`");
    /* A class name holding a NUL after a table's name (\p{L\0...}): the
     * table search compares lengths, it does not stop at the NUL (an
     * ASan global-buffer-overflow that fuzz_eval_fast found). */
    CHECK(tfx_regex_compile(C, "\\p{L\0\0\006\035l}", 12, &err) == NULL);
    CHECK_STR(err.code, "invalid character class range");
    CHECK(tfx_regex_compile(C, "\\p{Greek\0}", 10, &err) == NULL);
    CHECK_STR(err.code, "invalid character class range");
    /* tfx_regex_syntax (the type functions') agrees with compiling. */
    static const char *const some[] = {"(a", "a{1001}", "(?P<x>a)(b)", "\\pL{1000}", "[z-a]", "x"};
    for (size_t i = 0; i < sizeof some / sizeof some[0]; i++) {
        tfx_regex_error e1, e2;
        const tfx_regex *r1 = tfx_regex_syntax(C, some[i], strlen(some[i]), &e1);
        const tfx_regex *r2 = tfx_regex_compile(C, some[i], strlen(some[i]), &e2);
        CHECK((r1 == NULL) == (r2 == NULL));
        if (r1 == NULL && r2 == NULL)
            CHECK_STR(tfx_regex_error_text(C, &e1), tfx_regex_error_text(C, &e2));
        else if (r1 != NULL && r2 != NULL)
            CHECK(tfx_regex_ngroups(r1) == tfx_regex_ngroups(r2) &&
                  strcmp(tfx_regex_group_name(r1, 1), tfx_regex_group_name(r2, 1)) == 0);
    }
    /* Not errors: a brace that is no count, (?:a*)* through a group. */
    CHECK_STR(compile("a{,2}"), "ok");
    CHECK_STR(compile("(?:a*)*"), "ok");
    CHECK_STR(compile("(?P<1>a)(?P<1>b)"), "ok");
}

/* [re.syntax.limits] Go's limits, and deep patterns that a recursive
 * engine would not survive [re.engine]. */
static void test_limits(tfx_ctx *ctx, void *arg)
{
    TFX_UNUSED(ctx);
    TFX_UNUSED(arg);
    char *deep = tfx_ctx_alloc(C, 2 * 1001 + 2);
    memset(deep, '(', 1001);
    deep[1001] = 'a';
    memset(deep + 1002, ')', 1001);
    CHECK(strncmp(compile(deep), "error parsing regexp: expression nests too deeply: `((", 52) == 0);
    /* 999 nested groups compile and match; so does (^+)(). */
    deep[2 * 1001 - 1] = '\0';
    CHECK_STR(compile(deep + 2), "ok");
    CHECK(strncmp(find_all(deep + 2, "a"), "0,1,0,1,0,1", 11) == 0);
    CHECK_STR(find_all("(^+)()", ""), "0,0,0,0,0,0");
    CHECK_STR(compile("(a{10}){100}"), "ok");
    CHECK_STR(compile("(a{10}){101}"), "error parsing regexp: invalid repeat count: `{101}`");
    /* The size estimate: four times 1000 copies of 1000 code points. */
    tfx_textbuf b;
    tfx_textbuf_init(&b, C);
    for (int k = 0; k < 4; k++) {
        tfx_textbuf_puts(&b, "(?:");
        for (int i = 0; i < 1000; i++)
            tfx_textbuf_putc(&b, 'a');
        tfx_textbuf_puts(&b, "){1000}");
    }
    CHECK(strncmp(compile(tfx_textbuf_text(&b)),
                  "error parsing regexp: regexp/syntax: internal error: `(?:aaa", 60) == 0);
}

/* [re.match.leftmost-first] [re.match.star] [re.findall] [re.match.utf8]
 * [re.match.assert] */
static void test_matching(tfx_ctx *ctx, void *arg)
{
    TFX_UNUSED(ctx);
    TFX_UNUSED(arg);
    CHECK_STR(find_all("a|ab", "ab"), "0,1");
    CHECK_STR(find_all("(a|ab)(c|bcd)(d*)", "abcd"), "0,4,0,1,1,4,4,4");
    CHECK_STR(find_all("(|a)*", "aa"), "0,0,0,0;1,1,1,1;2,2,2,2");
    CHECK_STR(find_all("(a*)+", "b"), "0,0,0,0;1,1,1,1");
    CHECK_STR(find_all("a*", "baaab"), "0,0;1,4;5,5");
    CHECK_STR(find_all("", "ab"), "0,0;1,1;2,2");
    CHECK_STR(find_all("(?i:a)b|A\\d", "a0 A0 ab"), "0,2;3,5;6,8");
    CHECK_STR(find_all("(?i)k", "kK\xe2\x84\xaa"), "0,1;1,2;2,5");
    /* A byte that is not UTF-8 is U+FFFD of width 1. */
    CHECK_STR(find_all_n(".", "\xe2\x82" "a", 3), "0,1;1,2;2,3");
    CHECK_STR(find_all_n("x*", "\xff\xfe", 2), "0,0;1,1;2,2");
    CHECK_STR(find_all_n("\\x{FFFD}", "a\xff", 2), "1,2");
    /* Assertions see the whole subject, even from a later start. */
    CHECK_STR(match_at("\\bx", "ax x", 1), "3,4");
    CHECK_STR(match_at("^x", "xx", 1), "-");
    CHECK_STR(match_at("(?m)^x", "a\nx", 1), "2,3");
    CHECK_STR(match_at("$", "ab", 0), "2,2");
    CHECK_STR(match_at("a", "ab", 2), "-");
}

/* [re.replace] [re.expand] */
static void test_replace(tfx_ctx *ctx, void *arg)
{
    TFX_UNUSED(ctx);
    TFX_UNUSED(arg);
    CHECK_STR(replace_all("a*", "baaab", "-"), "-b-b-");
    CHECK_STR(replace_all("", "abc", "-"), "-a-b-c-");
    CHECK_STR(replace_all("(b)", "abc", "$1x|${1}x|$$|$|${|$0"), "a|bx|$|$|${|bc");
    CHECK_STR(replace_all("(b)", "abc", "${1}x|$$|$|${|$0"), "abx|$|$|${|bc");
    CHECK_STR(replace_all("(?P<n>a)|(?P<n>b)", "ab", "[$n]"), "[a][b]");
    CHECK_STR(replace_all("(?P<x>b)", "abc", "$x\xc3\xa9|${x}\xc3\xa9"), "a|b\xc3\xa9" "c");
    CHECK_STR(replace_all("(b)", "abc", "$01|$100000000|$2"), "a||c");
    CHECK_STR(replace_all("(?P<01>b)", "abc", "$01"), "abc");
}

/* [re.unicode] The tables are Unicode 13's: U+1F8B0 (added in 13.0) is a
 * symbol, U+1FAD7 (added in 14.0) is not assigned. */
static void test_unicode(tfx_ctx *ctx, void *arg)
{
    TFX_UNUSED(ctx);
    TFX_UNUSED(arg);
    CHECK_STR(tfx_regex_unicode_version(), "13.0.0");
    CHECK_STR(find_all("\\p{So}", "\xf0\x9f\xa2\xb0"), "0,4");
    CHECK_STR(find_all("\\p{So}", "\xf0\x9f\xab\x97"), "-");
    CHECK_STR(find_all("(?i)\\p{Greek}", "\xe2\x84\xa6"), "0,3");
    CHECK_STR(find_all("(?i)\\W", "k\xe2\x84\xaa\xc5\xbfs!"), "7,8");
}

/* [re.unicode.pn] profile PN's tables (Unicode 15.0.0) against P14's:
 * a letter, a script, a case pair and a $name letter new since 13.0.0. */
static void test_unicode_pn(tfx_ctx *ctx, void *arg)
{
    TFX_UNUSED(arg);
    CHECK_STR(find_all("\\pL", "\xf0\xb1\x8d\x90"), "-");
    CHECK_STR(compile("\\p{Vithkuqi}"),
              "error parsing regexp: invalid character class range: `\\p{Vithkuqi}`");
    CHECK_STR(find_all("(?i)\\x{10570}", "\xf0\x90\x96\x97"), "-");
    CHECK_STR(replace_all("(a)", "ab", "[$\xf0\x9e\x93\x90]"), "[$\xf0\x9e\x93\x90]b");
    ctx->pn = true;
    CHECK_STR(find_all("\\pL", "\xf0\xb1\x8d\x90"), "0,4");
    CHECK_STR(find_all("\\p{Vithkuqi}+", "\xf0\x90\x95\xb0\xf0\x90\x96\x97"), "0,8");
    CHECK_STR(find_all("(?i)\\x{10570}", "\xf0\x90\x96\x97"), "0,4");
    CHECK_STR(replace_all("(a)", "ab", "[$\xf0\x9e\x93\x90]"), "[]b");
    ctx->pn = false;
}

static const tfx_value *S(const char *s)
{
    return tfx_value_string(C, s, strlen(s));
}

static const char *call(const char *name, size_t n, const tfx_value *a, const tfx_value *b,
                        const tfx_value *c)
{
    const tfx_function *f = tfx_func_builtin(name, strlen(name));
    const tfx_value *args[3] = {a, b, c};
    tfx_func_error err = {-1, NULL};
    if (f == NULL)
        return "no such function";
    const tfx_value *r = tfx_func_call(C, f, args, n, &err);
    if (r != NULL)
        return tfx_render_debug(C, r);
    if (err.arg >= 0)
        return tfx_ctx_printf(C, "arg %ld: %s", err.arg, err.message);
    return tfx_ctx_printf(C, "error: %s", err.message);
}

/* [fn.regex.type] [fn.regex.nomatch] [fn.replace.regex]: the functions'
 * error texts (ref). */
static void test_functions(tfx_ctx *ctx, void *arg)
{
    TFX_UNUSED(ctx);
    TFX_UNUSED(arg);
    CHECK_STR(call("regex", 2, S("(a"), S("a"), NULL),
              "arg 0: invalid regexp pattern: missing closing ) in (a");
    CHECK_STR(call("regexall", 2, S("\\8"), S("a"), NULL),
              "arg 0: invalid regexp pattern: invalid escape sequence in \\8");
    CHECK_STR(call("regex", 2, S("(a)(?P<b>b)"), S("ab"), NULL),
              "arg 0: invalid regexp pattern: cannot mix both named and unnamed capture groups");
    CHECK_STR(call("regex", 2, S("z"), S("a"), NULL),
              "error: pattern did not match any part of the given string");
    CHECK_STR(call("replace", 3, S("x"), S("/(/"), S("")),
              "error: error parsing regexp: missing closing ): `(`");
    CHECK_STR(call("replace", 3, S("abc"), S(""), S("-")), "\"-a-b-c-\" :: string");
    CHECK_STR(call("replace", 3, S("a/b"), S("/"), S("+")), "\"a+b\" :: string");
}

/* [re.limits] The engine's work is the evaluation's: a long subject and a
 * large program run out of steps, a folded huge class too. */
static void long_match(tfx_ctx *ctx, void *arg)
{
    TFX_UNUSED(arg);
    size_t n = 200000;
    char *s = tfx_ctx_alloc(ctx, n + 1);
    memset(s, 'a', n);
    tfx_regex_error err;
    const tfx_regex *re = tfx_regex_compile(ctx, "(a*)*(a?){50}b", 14, &err);
    long *caps;
    (void)tfx_regex_find_all(ctx, re, s, n, &caps);
}

static void huge_fold(tfx_ctx *ctx, void *arg)
{
    TFX_UNUSED(arg);
    tfx_regex_error err;
    for (int i = 0; i < 100; i++)
        (void)tfx_regex_compile(ctx, "(?i)[B-\\x{1e942}]", 17, &err);
}

static bool run(const char *name, void (*test)(tfx_ctx *, void *))
{
    tfx_ctx ctx;
    if (!tfx_ctx_init(&ctx, NULL)) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    C = &ctx;
    bool ok = tfx_ctx_try(&ctx, test, NULL);
    if (!ok)
        fprintf(stderr, "%s: failed: %s: %s\n", name, ctx.fail_summary, ctx.fail_detail);
    tfx_ctx_free(&ctx);
    C = NULL;
    return ok;
}

static void limited(void (*fn)(tfx_ctx *, void *), size_t steps, const char *summary)
{
    tfx_ctx_limits limits;
    tfx_ctx small;
    tfx_ctx_limits_init(&limits);
    limits.max_steps = steps;
    CHECK(tfx_ctx_init(&small, &limits));
    CHECK(!tfx_ctx_try(&small, fn, NULL));
    CHECK_STR(small.fail_summary, summary);
    tfx_ctx_free(&small);
}

int main(void)
{
    CHECK(run("errors", test_errors));
    CHECK(run("limits", test_limits));
    CHECK(run("matching", test_matching));
    CHECK(run("replace", test_replace));
    CHECK(run("unicode", test_unicode));
    CHECK(run("unicode PN", test_unicode_pn));
    CHECK(run("functions", test_functions));
    limited(long_match, 100000, "Evaluation step limit exceeded");
    limited(huge_fold, 100000, "Evaluation step limit exceeded");
    return check_report("test_regex");
}
