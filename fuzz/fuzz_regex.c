/* SPDX-License-Identifier: MPL-2.0 */
/*
 * fuzz_regex.c — the regular expression engine (impl/regex.h) on
 * arbitrary patterns, subjects and replacement templates.
 *
 * Input: pattern, then a 0x00 byte, then the subject, then a 0x00 byte,
 * then the template (missing parts are empty); any bytes, UTF-8 or not.
 * Limits: 200,000 steps and 64 MiB of memory per run, so that large
 * programs and long subjects hit them.
 * Properties:
 *   - a rejected pattern's error has one of Go's codes and an offending
 *     text that is part of the pattern;
 *   - group names are made of [0-9A-Za-z_];
 *   - every match lies in the subject, after the previous one, and its
 *     groups lie inside it or are unset (both ends -1);
 *   - the first match of FindAll is the one tfx_regex_match finds from 0;
 *   - the work is bounded: every run ends, within the limits or by them;
 *   - everything is deterministic: a second run in a fresh context gives
 *     the same outcome, matches and replacement, byte for byte;
 *   - nothing leaks (LSan) and nothing crashes (ASan, UBSan).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "fuzz_common.h"
#include "regex.h"

typedef struct {
    const char *p, *s, *t;
    size_t np, ns, nt;
    /* outcome */
    bool compiled;
    const char *code;
    size_t ngroups, nmatches;
    long *caps;
    const char *repl;
    size_t nrepl;
} run;

static const char *const codes[] = {
    "regexp/syntax: internal error", "invalid character class range",
    "invalid escape sequence", "invalid named capture", "invalid or unsupported Perl syntax",
    "invalid nested repetition operator", "invalid repeat count", "invalid UTF-8",
    "missing closing ]", "missing closing )", "missing argument to repetition operator",
    "trailing backslash at end of expression", "unexpected )", "expression nests too deeply",
};

static bool inside(const char *hay, size_t nhay, const char *needle, size_t n)
{
    if (n == 0)
        return true;
    for (size_t i = 0; i + n <= nhay; i++)
        if (memcmp(hay + i, needle, n) == 0)
            return true;
    return false;
}

static void check_matches(const run *r, size_t ncap)
{
    long prev_end = 0;
    for (size_t m = 0; m < r->nmatches; m++) {
        const long *c = r->caps + m * ncap;
        if (c[0] < prev_end || c[1] < c[0] || (size_t)c[1] > r->ns)
            fuzz_fail("match %zu at [%ld, %ld) out of place", m, c[0], c[1]);
        for (size_t g = 1; g < ncap / 2; g++) {
            long a = c[2 * g], b = c[2 * g + 1];
            if ((a < 0) != (b < 0))
                fuzz_fail("group %zu of match %zu half set", g, m);
            if (a >= 0 && (a < c[0] || b > c[1] || b < a))
                fuzz_fail("group %zu of match %zu at [%ld, %ld) outside [%ld, %ld)", g, m, a, b,
                          c[0], c[1]);
        }
        prev_end = c[1];
    }
}

static void work(tfx_ctx *ctx, void *arg)
{
    run *r = arg;
    tfx_regex_error err;
    tfx_regex *re = tfx_regex_compile(ctx, r->p, r->np, &err);
    if (re == NULL) {
        r->compiled = false;
        r->code = err.code;
        bool known = false;
        for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
            known = known || strcmp(codes[i], err.code) == 0;
        if (!known)
            fuzz_fail("unknown error code \"%s\"", err.code);
        if (!inside(r->p, r->np, err.expr, err.expr_nbytes))
            fuzz_fail("the offending text of \"%s\" is not part of the pattern", err.code);
        (void)tfx_regex_error_text(ctx, &err);
        return;
    }
    r->compiled = true;
    r->ngroups = tfx_regex_ngroups(re);
    for (size_t g = 1; g <= r->ngroups; g++)
        for (const char *c = tfx_regex_group_name(re, g); *c; c++)
            if (!(*c == '_' || (*c >= '0' && *c <= '9') || (*c >= 'A' && *c <= 'Z') ||
                  (*c >= 'a' && *c <= 'z')))
                fuzz_fail("group %zu has a bad name", g);
    size_t ncap = 2 * (r->ngroups + 1);
    r->nmatches = tfx_regex_find_all(ctx, re, r->s, r->ns, &r->caps);
    check_matches(r, ncap);
    long *first = tfx_ctx_alloc_array(ctx, ncap, sizeof(long));
    bool found = tfx_regex_match(ctx, re, r->s, r->ns, 0, first);
    if (found != (r->nmatches > 0) ||
        (found && memcmp(first, r->caps, ncap * sizeof(long)) != 0))
        fuzz_fail("tfx_regex_match and tfx_regex_find_all disagree on the first match");
    r->repl = tfx_regex_replace_all(ctx, re, r->s, r->ns, r->t, r->nt, &r->nrepl);
}

/* Runs r in a fresh context; returns whether it completed within the
 * limits, with the outcome in r (copied out of the context). */
static bool attempt(run *r, char **keep)
{
    tfx_ctx_limits lim;
    tfx_ctx_limits_init(&lim);
    lim.max_steps = 200000;
    lim.max_memory_bytes = 64u << 20;
    lim.max_string_bytes = 1u << 20;
    tfx_ctx ctx;
    if (!tfx_ctx_init(&ctx, &lim))
        fuzz_fail("tfx_ctx_init");
    bool ok = tfx_ctx_try(&ctx, work, r);
    /* The outcome, flattened: matches then the replacement. */
    size_t ncap = 2 * (r->ngroups + 1);
    size_t nbytes = ok && r->compiled ? r->nmatches * ncap * sizeof(long) + r->nrepl : 0;
    *keep = malloc(nbytes + 1);
    if (*keep == NULL)
        fuzz_fail("malloc");
    if (nbytes > 0 && r->nmatches > 0)
        memcpy(*keep, r->caps, r->nmatches * ncap * sizeof(long));
    if (nbytes > 0 && r->nrepl > 0)
        memcpy(*keep + r->nmatches * ncap * sizeof(long), r->repl, r->nrepl);
    r->caps = NULL;
    r->repl = NULL;
    r->nrepl = nbytes;
    tfx_ctx_free(&ctx);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in = (const char *)data;
    const char *z1 = memchr(in, 0, size);
    run a;
    memset(&a, 0, sizeof a);
    a.p = in;
    a.np = z1 ? (size_t)(z1 - in) : size;
    if (z1) {
        const char *rest = z1 + 1;
        size_t nrest = size - a.np - 1;
        const char *z2 = memchr(rest, 0, nrest);
        a.s = rest;
        a.ns = z2 ? (size_t)(z2 - rest) : nrest;
        if (z2) {
            a.t = z2 + 1;
            a.nt = nrest - a.ns - 1;
        }
    }
    if (a.s == NULL)
        a.s = "";
    if (a.t == NULL)
        a.t = "";
    run b = a;
    char *ka, *kb;
    bool oka = attempt(&a, &ka), okb = attempt(&b, &kb);
    if (oka != okb || a.compiled != b.compiled || (!a.compiled && a.code != b.code) ||
        a.nmatches != b.nmatches || a.nrepl != b.nrepl || memcmp(ka, kb, a.nrepl) != 0)
        fuzz_fail("two runs of the same input differ");
    free(ka);
    free(kb);
    return 0;
}
