/* SPDX-License-Identifier: MPL-2.0 */
/*
 * regexdump.c — runs tfexpr's regular expression engine (regex.h) on
 * requests from stdin, for tools/regexdiff to compare with
 * tools/go-regexdump (Go's regexp).  Both speak the same line format.
 *
 * Request: three fields separated by one space, each the hex of a byte
 * string ("-" for the empty string): pattern, subject, template.
 * Answer, one line:
 *   E <hex of the compile error text>                      (Go's err.Error())
 *   M <ngroups> <names> <matches> <replaced>
 * where names are the hex of each group's name joined by "," ("-" if
 * none), matches are FindAllStringSubmatchIndex's offsets, each match's
 * joined by "," and matches by ";" ("-" if none), and replaced is the hex
 * of ReplaceAllString(subject, template).  A limit hit prints "L <why>".
 * With the argument --pn, the engine runs in profile PN (Go 1.23's
 * Unicode 15.0.0 tables, [re.unicode.pn]).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "regex.h"

static int unhex(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decodes the hex field at *p (up to a space or the end) into a new
 * buffer; NULL on malformed input. */
static char *field(char **p, size_t *n)
{
    char *s = *p, *e = s;
    while (*e && *e != ' ' && *e != '\n')
        e++;
    size_t len = (size_t)(e - s);
    char *out = malloc(len / 2 + 1);
    if (out == NULL)
        return NULL;
    *n = 0;
    if (!(len == 1 && s[0] == '-')) {
        if (len % 2) {
            free(out);
            return NULL;
        }
        for (size_t i = 0; i < len; i += 2) {
            int a = unhex((unsigned char)s[i]), b = unhex((unsigned char)s[i + 1]);
            if (a < 0 || b < 0) {
                free(out);
                return NULL;
            }
            out[(*n)++] = (char)(a * 16 + b);
        }
    }
    out[*n] = '\0';
    *p = *e ? e + 1 : e;
    return out;
}

static void put_hex(tfx_textbuf *b, const char *s, size_t n)
{
    if (n == 0) {
        tfx_textbuf_putc(b, '-');
        return;
    }
    for (size_t i = 0; i < n; i++)
        tfx_textbuf_printf(b, "%02x", (unsigned char)s[i]);
}

typedef struct {
    const char *p, *s, *t;
    size_t np, ns, nt;
    const char *out;
} request;

/* The answer is built whole and printed by main, so that a limit hit
 * half way prints nothing of it. */
static void answer(tfx_ctx *ctx, void *arg)
{
    request *rq = arg;
    tfx_textbuf b;
    tfx_textbuf_init(&b, ctx);
    tfx_regex_error err;
    tfx_regex *re = tfx_regex_compile(ctx, rq->p, rq->np, &err);
    if (re == NULL) {
        /* Error() by hand: the offending text may hold NUL bytes. */
        tfx_textbuf t;
        tfx_textbuf_init(&t, ctx);
        tfx_textbuf_printf(&t, "error parsing regexp: %s: `", err.code);
        tfx_textbuf_put(&t, err.expr, err.expr_nbytes);
        tfx_textbuf_putc(&t, '`');
        tfx_textbuf_puts(&b, "E ");
        put_hex(&b, tfx_textbuf_text(&t), t.nbytes);
        rq->out = tfx_textbuf_text(&b);
        return;
    }
    size_t ng = tfx_regex_ngroups(re);
    tfx_textbuf_printf(&b, "M %zu ", ng);
    if (ng == 0)
        tfx_textbuf_putc(&b, '-');
    for (size_t i = 1; i <= ng; i++) {
        if (i > 1)
            tfx_textbuf_putc(&b, ',');
        const char *name = tfx_regex_group_name(re, i);
        if (*name == '\0')
            tfx_textbuf_putc(&b, '.');
        else
            put_hex(&b, name, strlen(name));
    }
    tfx_textbuf_putc(&b, ' ');
    long *caps;
    size_t nm = tfx_regex_find_all(ctx, re, rq->s, rq->ns, &caps);
    if (nm == 0)
        tfx_textbuf_putc(&b, '-');
    for (size_t m = 0; m < nm; m++) {
        if (m > 0)
            tfx_textbuf_putc(&b, ';');
        for (size_t k = 0; k < 2 * (ng + 1); k++)
            tfx_textbuf_printf(&b, k ? ",%ld" : "%ld", caps[m * 2 * (ng + 1) + k]);
    }
    tfx_textbuf_putc(&b, ' ');
    size_t nr;
    const char *r = tfx_regex_replace_all(ctx, re, rq->s, rq->ns, rq->t, rq->nt, &nr);
    put_hex(&b, r, nr);
    rq->out = tfx_textbuf_text(&b);
}

int main(int argc, char **argv)
{
    char *line = NULL;
    size_t cap = 0;
    bool pn = argc == 2 && strcmp(argv[1], "--pn") == 0;

    if (argc > 1 && !pn) {
        fprintf(stderr, "usage: regexdump [--pn] < requests\n");
        return 2;
    }
    while (getline(&line, &cap, stdin) > 0) {
        request rq;
        char *p = line;
        char *pat = field(&p, &rq.np), *sub = field(&p, &rq.ns), *tmpl = field(&p, &rq.nt);
        if (pat == NULL || sub == NULL || tmpl == NULL) {
            printf("X bad request\n");
        } else {
            rq.p = pat;
            rq.s = sub;
            rq.t = tmpl;
            tfx_ctx_limits lim;
            tfx_ctx_limits_init(&lim);
            lim.max_steps = 200000000;
            tfx_ctx ctx;
            if (!tfx_ctx_init(&ctx, &lim)) {
                printf("L init\n");
            } else {
                ctx.pn = pn;
                rq.out = NULL;
                if (tfx_ctx_try(&ctx, answer, &rq))
                    printf("%s\n", rq.out);
                else
                    printf("L %s\n", ctx.fail_summary);
                tfx_ctx_free(&ctx);
            }
        }
        free(pat);
        free(sub);
        free(tmpl);
        fflush(stdout);
    }
    free(line);
    return 0;
}
