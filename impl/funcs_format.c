/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_format.c — the formatting functions format and formatlist: cty
 * 1.12.1's stdlib FormatFunc and FormatListFunc, which Terraform registers
 * as they are (spec/functions-format.md).
 *
 * A format string is read by cty's verb scanner [fn.format.syntax]; each
 * verb formats one argument: %v and %s/%q by cty's own code (widths in
 * grapheme clusters), the number verbs by Go's fmt on a big.Float or a
 * big.Int, reproduced here with the verb's text as Go's Sprintf reads it
 * [fn.format.go].
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "convert.h"
#include "funcs_internal.h"
#include "jsonio.h"
#include "refine.h"
#include "text.h"

/* Number texts are charged one evaluation step per this many bytes, on
 * top of one step per verb: producing their digits is real work. */
#define FORMAT_BYTES_PER_STEP 256

/* Go's largest allocation on 64-bit Linux (runtime maxAlloc). */
#define GO_MAX_ALLOC ((uint64_t)1 << 48)

/* Go's int arithmetic wraps around; so do cty's verb numbers. */
static int64_t go_int(uint64_t u)
{
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

/* One verb as cty's scanner reads it (formatVerb). */
typedef struct {
    const char *raw;   /* "%…x", the verb's text in the format string */
    size_t nraw;
    size_t offset;     /* of the '%' */
    int64_t argnum;    /* 1-based */
    char mode;
    bool zero, sharp, plus, minus, space;
    bool has_width, has_prec;
    int64_t width, prec; /* -1 when absent */
} fmt_verb;

typedef struct {
    tfx_ctx *ctx;
    tfx_textbuf out;
    tfx_func_error *err;
    const tfx_value *const *args; /* the values after the format string */
    size_t nargs;
} formatter;

/* Fails the format call with a plain error; returns false. */
static bool fail(formatter *f, const char *message)
{
    tfx_fn_error(f->err, message);
    return false;
}

static const char *quote(formatter *f, const char *s, size_t n)
{
    return tfx_textbuf_quoted(f->ctx, s, n);
}

/* Go's strconv.QuoteRune, as fmt's %q writes a rune. */
static const char *quote_rune(formatter *f, int32_t r)
{
    tfx_textbuf b;
    char tmp[16];

    tfx_textbuf_init(&b, f->ctx);
    tfx_textbuf_putc(&b, '\'');
    if (r == '\'' || r == '\\') {
        tfx_textbuf_putc(&b, '\\');
        tfx_textbuf_putc(&b, (char)r);
    } else if (tfx_text_is_print_profile(r, f->ctx->pn)) { /* [value.string.print.pn] */
        unsigned char u[4];
        size_t n = 0;

        if (r < 0x80) {
            u[n++] = (unsigned char)r;
        } else if (r < 0x800) {
            u[n++] = (unsigned char)(0xC0 | (r >> 6));
            u[n++] = (unsigned char)(0x80 | (r & 0x3F));
        } else if (r < 0x10000) {
            u[n++] = (unsigned char)(0xE0 | (r >> 12));
            u[n++] = (unsigned char)(0x80 | ((r >> 6) & 0x3F));
            u[n++] = (unsigned char)(0x80 | (r & 0x3F));
        } else {
            u[n++] = (unsigned char)(0xF0 | (r >> 18));
            u[n++] = (unsigned char)(0x80 | ((r >> 12) & 0x3F));
            u[n++] = (unsigned char)(0x80 | ((r >> 6) & 0x3F));
            u[n++] = (unsigned char)(0x80 | (r & 0x3F));
        }
        tfx_textbuf_put(&b, (const char *)u, n);
    } else {
        static const char esc[] = "\aa\bb\ff\nn\rr\tt\vv";
        const char *e = r > 0 && r < 0x80 ? strchr(esc, (int)r) : NULL;

        if (e != NULL && ((e - esc) & 1) == 0)
            snprintf(tmp, sizeof tmp, "\\%c", e[1]);
        else if (r < 0x80)
            snprintf(tmp, sizeof tmp, "\\x%02x", (unsigned)r);
        else if (r < 0x10000)
            snprintf(tmp, sizeof tmp, "\\u%04x", (unsigned)r);
        else
            snprintf(tmp, sizeof tmp, "\\U%08x", (unsigned)r);
        tfx_textbuf_puts(&b, tmp);
    }
    tfx_textbuf_putc(&b, '\'');
    return tfx_textbuf_text(&b);
}

/* Appends s[0..n) to the result, within the string limit. */
static void emit(formatter *f, const char *s, size_t n)
{
    tfx_ctx_check_string(f->ctx, f->out.nbytes + n);
    tfx_textbuf_put(&f->out, s, n);
}

/* Fails the evaluation: the result would pass the string limit. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noreturn))
#endif
static void too_long(formatter *f)
{
    tfx_ctx_fail(f->ctx, "String length limit exceeded",
                 "The formatted string would be longer than the limit of %zu bytes.",
                 f->ctx->limits.max_string_bytes);
}

/* n copies of c, within the string limit (checked before writing). */
static void emit_fill(formatter *f, char c, uint64_t n)
{
    if (n > f->ctx->limits.max_string_bytes)
        too_long(f);
    tfx_ctx_check_string(f->ctx, f->out.nbytes + (size_t)n);
    tfx_textbuf_fill(&f->out, c, (size_t)n);
}

static void charge(formatter *f, size_t nbytes)
{
    for (size_t i = 0; i < nbytes / FORMAT_BYTES_PER_STEP; i++)
        tfx_ctx_step(f->ctx);
}

/* After a number text of n bytes was asked for with status st: fails
 * the evaluation when it would pass the string limit or memory ran out,
 * else charges its bytes. */
static void number_text_made(formatter *f, tfx_num_err st, size_t n)
{
    if (st == TFX_NUM_ERR_TOO_LONG)
        too_long(f);
    if (st != TFX_NUM_OK)
        tfx_fn_nomem(f->ctx);
    charge(f, n);
}

/* [fn.format.limits] One step per digit that big-number arithmetic must
 * produce (tfx_num_format_work), charged before the work is done. */
static void charge_digits(formatter *f, const tfx_num *x, char verb, long prec)
{
    uint64_t work = tfx_num_format_work(x, verb, prec);

    if (work > f->ctx->limits.max_steps)
        work = f->ctx->limits.max_steps + 1; /* enough to fail */
    for (uint64_t i = 0; i < work; i++)
        tfx_ctx_step(f->ctx);
}

/* [fn.format.width] cty's formatPadWidth: pads text to the verb's width
 * counted in grapheme clusters (the profile's, [fn.strings.graphemes.pn]),
 * with '0' under the 0 flag, on the right
 * under the - flag (so %-05s pads zeros on the right). */
static bool emit_padded(formatter *f, const fmt_verb *v, const char *text, size_t n)
{
    size_t given;

    if (v->width < 0) {
        emit(f, text, n);
        return true;
    }
    given = tfx_text_count_graphemes_profile((const unsigned char *)text, n, f->ctx->pn);
    if ((uint64_t)given >= (uint64_t)v->width) {
        emit(f, text, n);
        return true;
    }
    /* upstream's strings.Repeat cannot allocate more than Go's maxAlloc
     * (2^48 on 64-bit Linux): a panic, which cty turns into an error */
    if ((uint64_t)v->width - given > GO_MAX_ALLOC)
        return fail(f, "panic in function implementation: runtime error: makeslice: cap out of range");
    if (!v->minus)
        emit_fill(f, v->zero ? '0' : ' ', (uint64_t)v->width - given);
    emit(f, text, n);
    if (v->minus)
        emit_fill(f, v->zero ? '0' : ' ', (uint64_t)v->width - given);
    return true;
}

/* "unsupported value for %q at %d: REASON" */
static bool unsupported(formatter *f, const fmt_verb *v, const char *reason)
{
    return fail(f, tfx_ctx_printf(f->ctx, "unsupported value for %s at %zu: %s",
                                  quote(f, v->raw, v->nraw), v->offset, reason));
}

/* ---- %v and %#v [fn.format.v] ---- */

static bool format_as_is(formatter *f, const fmt_verb *v, const tfx_value *arg)
{
    const char *text;
    const char *error = NULL;
    size_t n = 0;

    if (!v->sharp && !tfx_value_is_null(arg)) {
        if (arg->type->kind == TFX_TYPE_STRING) {
            return emit_padded(f, v, arg->as.string.s, arg->as.string.nbytes);
        }
        if (arg->type->kind == TFX_TYPE_NUMBER) {
            /* big.Float's Text('g', -1) */
            tfx_num_err st = tfx_num_format_go(f->ctx->arena, arg->as.number, 'g', -1,
                                               f->ctx->limits.max_string_bytes, &text, &n);

            number_text_made(f, st, n);
            return emit_padded(f, v, text, n);
        }
    }
    /* JSON: everything else, and everything under # */
    text = tfx_json_encode_plain(f->ctx, arg, &n, &error);
    if (text == NULL)
        return unsupported(f, v, error != NULL ? error : "cannot serialize the value as JSON");
    charge(f, n);
    return emit_padded(f, v, text, n);
}

/* ---- %t [fn.format.t]: the value converted to bool; width, precision
 * and flags play no part ---- */

static bool format_bool(formatter *f, const fmt_verb *v, const tfx_value *arg)
{
    const char *error = NULL;
    const tfx_value *b = tfx_convert(f->ctx, arg, &tfx_type_bool, TFX_CONVERT_UNSAFE, &error);

    if (b == NULL)
        return unsupported(f, v, error);
    if (b->as.boolean)
        emit(f, "true", 4);
    else
        emit(f, "false", 5);
    return true;
}

/* ---- the number verbs through Go's fmt [fn.format.go] ---- */

/* A verb's text as Go's Sprintf reads it (after cty removes the [n]):
 * the flags as fmt keeps them, width and precision (parsenum, which
 * gives up on numbers past a million), the verb letter.  `noverb` when
 * parsenum gave up: Go then writes "%!(NOVERB)" for the verb and
 * complains of the unused argument. */
typedef struct {
    bool sharp, plus, space, minus, zero;
    bool has_width, has_prec;
    int64_t width, prec;
    bool noverb;
    char verb;
} go_verb;

/* fmt's parsenum from s[*i]: false (and *i = end) on a number that grows
 * past 1e6 before its last digit. */
static bool go_parsenum(const char *s, size_t end, size_t *i, int64_t *num, bool *isnum)
{
    *num = 0;
    *isnum = false;
    for (; *i < end && s[*i] >= '0' && s[*i] <= '9'; (*i)++) {
        if (*num > 1000000 || *num < -1000000) {
            *num = 0;
            *isnum = false;
            *i = end;
            return false;
        }
        *num = *num * 10 + (s[*i] - '0');
        *isnum = true;
    }
    return true;
}

static go_verb go_parse_verb(formatter *f, const fmt_verb *v)
{
    go_verb g;
    char *s = tfx_arena_alloc(f->ctx->arena, v->nraw + 1);
    size_t n = 0, i = 1, end;

    if (s == NULL)
        tfx_fn_nomem(f->ctx);
    memset(&g, 0, sizeof g);
    /* the raw verb without its "[n]" (cty's formatStripIndexSegment) */
    for (size_t j = 0; j < v->nraw; j++) {
        if (v->raw[j] == '[') {
            while (j < v->nraw && v->raw[j] != ']')
                j++;
            continue;
        }
        s[n++] = v->raw[j];
    }
    s[n] = '\0';
    end = n;
    for (; i < end; i++) {
        char c = s[i];

        if (c == '#')
            g.sharp = true;
        else if (c == '0')
            g.zero = f->ctx->pn || !g.minus; /* zero padding only to the left */
        else if (c == '+')
            g.plus = true;
        else if (c == '-') {
            g.minus = true;
            /* [fn.format.go.pn] Go 1.23's fmt keeps the zero flag beside
             * '-'; its floats then pad with zeros on the left, its
             * integers still with spaces on the right */
            g.zero = g.zero && f->ctx->pn;
        } else if (c == ' ')
            g.space = true;
        else
            break;
    }
    go_parsenum(s, end, &i, &g.width, &g.has_width);
    if (i + 1 < end && s[i] == '.') {
        i++;
        go_parsenum(s, end, &i, &g.prec, &g.has_prec);
        if (!g.has_prec) {
            g.prec = 0;
            g.has_prec = true;
        }
    }
    if (i >= end) {
        g.noverb = true;
        return g;
    }
    g.verb = s[i];
    return g;
}

/* Go's fmt for the unused argument: "%!(EXTRA *big.Float=…)". */
static void go_extra(formatter *f, const tfx_num *x, bool integer)
{
    const char *text;
    size_t n = 0;
    tfx_num_err st;

    emit(f, "%!(NOVERB)", 10);
    if (integer) {
        emit(f, "%!(EXTRA *big.Int=", 18);
        if (tfx_num_sign(x) < 0)
            emit(f, "-", 1);
        st = tfx_num_format_int(f->ctx->arena, x, 10, f->ctx->limits.max_string_bytes, &text, &n);
    } else {
        emit(f, "%!(EXTRA *big.Float=", 20);
        st = tfx_num_format_go(f->ctx->arena, x, 'g', -1, f->ctx->limits.max_string_bytes, &text,
                               &n);
    }
    number_text_made(f, st, n);
    emit(f, text, n);
    emit(f, ")", 1);
}

/* big.Float's Format: sign, then the digits, padded to the width with
 * spaces (zeros under 0, but not for infinities; on the right under -). */
static void go_float(formatter *f, const go_verb *g, const tfx_num *x)
{
    const char *text, *sign = "";
    size_t n = 0, pad = 0;
    char verb = g->verb;
    long prec = g->has_prec ? (long)g->prec : 6;
    tfx_num_err st;

    if (verb == 'g' || verb == 'G') {
        if (!g->has_prec)
            prec = -1;
    }
    charge_digits(f, x, verb, prec);
    st = tfx_num_format_go(f->ctx->arena, x, verb, prec, f->ctx->limits.max_string_bytes, &text,
                           &n);
    number_text_made(f, st, n);
    if (text[0] == '-') {
        sign = "-";
        text++;
        n--;
    } else if (text[0] == '+') { /* +Inf */
        sign = g->space ? " " : "+";
        text++;
        n--;
    } else if (g->plus)
        sign = "+";
    else if (g->space)
        sign = " ";
    if (g->has_width && g->width > (int64_t)(strlen(sign) + n))
        pad = (size_t)g->width - strlen(sign) - n;
    if (g->zero && !tfx_num_is_inf(x)) {
        emit(f, sign, strlen(sign));
        emit_fill(f, '0', pad);
        emit(f, text, n);
    } else if (g->minus) {
        emit(f, sign, strlen(sign));
        emit(f, text, n);
        emit_fill(f, ' ', pad);
    } else {
        emit_fill(f, ' ', pad);
        emit(f, sign, strlen(sign));
        emit(f, text, n);
    }
}

/* big.Int's Format: [spaces][sign][prefix][zeros][digits][spaces]. */
static void go_int_verb(formatter *f, const go_verb *g, const tfx_num *x)
{
    const char *digits, *sign = "", *prefix = "";
    size_t n = 0, length;
    uint64_t left = 0, zeros = 0, right = 0;
    int base = g->verb == 'b' ? 2 : g->verb == 'o' ? 8 : g->verb == 'd' ? 10 : 16;
    tfx_num_err st;
    char *upper;

    if (base == 10)
        charge_digits(f, x, 'd', 0);
    st = tfx_num_format_int(f->ctx->arena, x, base, f->ctx->limits.max_string_bytes, &digits, &n);
    number_text_made(f, st, n);
    if (g->verb == 'X') {
        upper = tfx_ctx_strndup(f->ctx, digits, n);
        for (size_t i = 0; i < n; i++)
            if (upper[i] >= 'a' && upper[i] <= 'z')
                upper[i] = (char)(upper[i] - 'a' + 'A');
        digits = upper;
    }
    if (tfx_num_sign(x) < 0)
        sign = "-";
    else if (g->plus)
        sign = "+";
    else if (g->space)
        sign = " ";
    if (g->sharp)
        prefix = g->verb == 'b' ? "0b" : g->verb == 'o' ? "0" : g->verb == 'x' ? "0x"
                 : g->verb == 'X' ? "0X" : "";
    if (g->has_prec) {
        if ((int64_t)n < g->prec)
            zeros = (uint64_t)g->prec - n;
        else if (n == 1 && digits[0] == '0' && g->prec == 0)
            return; /* zero at precision 0 prints nothing, not even padding */
    }
    length = strlen(sign) + strlen(prefix) + (size_t)zeros + n;
    if (g->has_width && (int64_t)length < g->width) {
        uint64_t d = (uint64_t)g->width - length;

        if (g->minus)
            right = d;
        else if (g->zero && !g->has_prec)
            zeros = d;
        else
            left = d;
    }
    emit_fill(f, ' ', left);
    emit(f, sign, strlen(sign));
    emit(f, prefix, strlen(prefix));
    emit_fill(f, '0', zeros);
    emit(f, digits, n);
    emit_fill(f, ' ', right);
}

/* [fn.format.number] The value converted to a number, then Go's fmt on a
 * big.Int (%b %d %o %x %X; the number must be an integer) or a big.Float
 * (%e %E %f %g %G). */
static bool format_number(formatter *f, const fmt_verb *v, const tfx_value *arg)
{
    const char *error = NULL;
    const tfx_value *num = tfx_convert(f->ctx, arg, &tfx_type_number, TFX_CONVERT_UNSAFE, &error);
    bool integer = strchr("bdoxX", v->mode) != NULL;
    go_verb g;

    if (num == NULL)
        return unsupported(f, v, error);
    if (integer && (tfx_num_is_inf(num->as.number) || !tfx_num_is_integer(num->as.number)))
        return unsupported(f, v, "an integer is required");
    g = go_parse_verb(f, v);
    if (g.noverb)
        go_extra(f, num->as.number, integer);
    else if (integer)
        go_int_verb(f, &g, num->as.number);
    else
        go_float(f, &g, num->as.number);
    return true;
}

/* ---- %s and %q [fn.format.s] ---- */

static bool format_string(formatter *f, const fmt_verb *v, const tfx_value *arg)
{
    const char *error = NULL;
    const tfx_value *str = tfx_convert(f->ctx, arg, &tfx_type_str, TFX_CONVERT_UNSAFE, &error);
    const char *s;
    size_t n;

    if (str == NULL)
        return unsupported(f, v, error);
    s = str->as.string.s;
    n = str->as.string.nbytes;
    /* a positive precision keeps that many grapheme clusters */
    if (v->prec > 0) {
        size_t pos = 0;

        for (int64_t i = 0; i < v->prec && pos < n; i++)
            pos += tfx_text_grapheme_len_profile((const unsigned char *)s + pos, n - pos,
                                                 f->ctx->pn);
        n = pos;
    }
    if (v->mode == 'q') {
        const tfx_value *cut = tfx_value_string(f->ctx, s, n);
        size_t qn = 0;
        const char *q = tfx_json_encode_plain(f->ctx, cut, &qn, &error);

        if (q == NULL)
            return unsupported(f, v, error);
        s = q;
        n = qn;
    }
    return emit_padded(f, v, s, n);
}

/* [fn.format.verb] cty's formatAppend: one verb with its argument. */
static bool format_verb(formatter *f, fmt_verb *v)
{
    const tfx_value *arg;
    int64_t idx = go_int((uint64_t)v->argnum - 1);

    tfx_ctx_step(f->ctx);
    if (idx < 0)
        return fail(f, tfx_ctx_printf(f->ctx, "panic in function implementation: runtime error: "
                                              "index out of range [%" PRId64 "]", idx));
    if ((uint64_t)idx >= f->nargs)
        return fail(f, tfx_ctx_printf(f->ctx,
                                      "not enough arguments for %s at %zu: need index %" PRId64
                                      " but have %zu total",
                                      quote(f, v->raw, v->nraw), v->offset, v->argnum, f->nargs));
    arg = f->args[idx];
    if (v->mode != 'v' && tfx_value_is_null(arg))
        return unsupported(f, v, "null value cannot be formatted");
    if (!v->has_width)
        v->width = -1;
    if (!v->has_prec)
        v->prec = -1;
    switch (v->mode) {
    case 'v':
        return format_as_is(f, v, arg);
    case 't':
        return format_bool(f, v, arg);
    case 'b': case 'd': case 'o': case 'x': case 'X':
    case 'e': case 'E': case 'f': case 'g': case 'G':
        return format_number(f, v, arg);
    case 's': case 'q':
        return format_string(f, v, arg);
    default:
        return fail(f, tfx_ctx_printf(f->ctx, "unsupported format verb %s in %s at offset %zu",
                                      quote_rune(f, v->mode), quote(f, v->raw, v->nraw),
                                      v->offset));
    }
}

static bool is_letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* [fn.format.syntax] cty's formatFSM: the text is copied but for verbs
 * "%" flags [width] ["." digits] ["[" n "]"] letter and "%%"; flags are
 * any of "0#-+ ", width and the argument number start with 1-9. */
static bool format_text(formatter *f, const char *s, size_t n)
{
    int64_t next = 1, highest = 0;
    size_t p = 0;

    while (p < n) {
        fmt_verb v;
        uint64_t acc = 0;
        size_t start = p;

        if (s[p] != '%') {
            size_t q = p;

            while (q < n && s[q] != '%')
                q++;
            emit(f, s + p, q - p);
            p = q;
            continue;
        }
        memset(&v, 0, sizeof v);
        v.offset = start;
        v.argnum = next;
        v.width = -1;
        v.prec = -1;
        p++;
        if (p < n && s[p] == '%') { /* "%%" */
            emit(f, "%", 1);
            p++;
            continue;
        }
        /* flags */
        for (; p < n && strchr("0#-+ ", s[p]) != NULL && s[p] != '\0'; p++) {
            v.zero |= s[p] == '0';
            v.sharp |= s[p] == '#';
            v.minus |= s[p] == '-';
            v.plus |= s[p] == '+';
            v.space |= s[p] == ' ';
        }
        /* width */
        if (p < n && s[p] >= '1' && s[p] <= '9') {
            for (acc = 0; p < n && s[p] >= '0' && s[p] <= '9'; p++)
                acc = acc * 10 + (uint64_t)(s[p] - '0');
            v.has_width = true;
            v.width = go_int(acc);
        }
        /* precision: "." and any digits */
        if (p < n && s[p] == '.') {
            for (acc = 0, p++; p < n && s[p] >= '0' && s[p] <= '9'; p++)
                acc = acc * 10 + (uint64_t)(s[p] - '0');
            v.has_prec = true;
            v.prec = go_int(acc);
        }
        /* argument number */
        if (p < n && s[p] == '[') {
            p++;
            if (p < n && s[p] >= '1' && s[p] <= '9') {
                for (acc = 0; p < n && s[p] >= '0' && s[p] <= '9'; p++)
                    acc = acc * 10 + (uint64_t)(s[p] - '0');
                v.argnum = go_int(acc);
                if (p < n && s[p] == ']')
                    p++;
                else if (p < n)
                    goto bad_char;
                else
                    goto bad_end;
            } else if (p < n)
                goto bad_char;
            else
                goto bad_end;
        }
        if (p >= n)
            goto bad_end;
        if (!is_letter(s[p]))
            goto bad_char;
        v.mode = s[p++];
        v.raw = s + start;
        v.nraw = p - start;
        if (v.argnum > highest)
            highest = v.argnum;
        if (!format_verb(f, &v))
            return false;
        next = go_int((uint64_t)v.argnum + 1);
        continue;
    bad_char: {
            int32_t cp = 0xFFFD;

            tfx_text_decode((const unsigned char *)s + p, n - p, &cp);
            return fail(f, tfx_ctx_printf(f->ctx, "unrecognized format character %s at offset %zu",
                                          quote_rune(f, cp), p));
        }
    bad_end:
        return fail(f, tfx_ctx_printf(f->ctx, "invalid format string starting at offset %zu", n));
    }
    /* [fn.format.args] every argument must be used */
    if (highest < (int64_t)f->nargs) {
        long first_bad = (long)highest + 1;

        if (highest == 0)
            tfx_fn_arg_error(f->err, first_bad, "too many arguments; no verbs in format string");
        else
            tfx_fn_arg_error(f->err, first_bad,
                             tfx_ctx_printf(f->ctx, "too many arguments; only %" PRId64
                                                    " used by format string", highest));
        return false;
    }
    return true;
}

/* The formatted string of the format string fmt and args[0..nargs), or
 * NULL with *err set. */
static const tfx_value *format_values(tfx_ctx *ctx, const tfx_value *fmt,
                                      const tfx_value *const *args, size_t nargs,
                                      tfx_func_error *err)
{
    formatter f;

    f.ctx = ctx;
    f.err = err;
    f.args = args;
    f.nargs = nargs;
    tfx_textbuf_init(&f.out, ctx);
    if (!format_text(&f, fmt->as.string.s, fmt->as.string.nbytes))
        return NULL;
    return tfx_value_string(ctx, tfx_textbuf_text(&f.out), f.out.nbytes);
}

/* ---- format ---- */

static const tfx_param format_params[] = {
    {.name = "format", .type = &tfx_type_str},
};

static const tfx_param format_args = {
    .name = "args", .type = &tfx_type_dynamic, .allow_null = true, .allow_dynamic_pn = true};

/* [fn.format.unknown] An argument with an unknown anywhere in it gives an
 * unknown string (nested values are printed as JSON, which needs them
 * known) — of type string even where the call's return type is dynamic
 * (a null argument of type dynamic makes it so): the implementation
 * decides the type, not the declared one. */
static const tfx_value *format_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    for (size_t i = 1; i < nargs; i++)
        if (!tfx_value_is_wholly_known(args[i]))
            return tfx_value_unknown(ctx, &tfx_type_str);
    return format_values(ctx, args[0], args + 1, nargs - 1, err);
}

static const tfx_function fn_format = {.name = "format",
                                       .params = format_params,
                                       .nparams = TFX_COUNTOF(format_params),
                                       .varparam = &format_args,
                                       .type = NULL,
                                       .ret_type = &tfx_type_str,
                                       .impl = format_impl};

/* ---- formatlist ---- */

static const tfx_type list_of_string = {.kind = TFX_TYPE_LIST, .elem = &tfx_type_str};

static const tfx_param formatlist_args = {
    .name = "args", .type = &tfx_type_dynamic, .allow_null = true, .allow_unknown = true,
    .allow_dynamic_pn = true};

static bool is_sequence(const tfx_type *t)
{
    return t->kind == TFX_TYPE_LIST || t->kind == TFX_TYPE_SET || t->kind == TFX_TYPE_TUPLE;
}

/* [fn.formatlist] Non-null lists, sets and tuples are iterated together
 * (their lengths must agree); other arguments are repeated.  An iteration
 * with an argument not wholly known gives an unknown element; an unknown
 * sequence (other than a tuple, whose length is known) makes the whole
 * result unknown, after the length checks. */
static const tfx_value *formatlist_impl(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_type *ret, const tfx_value *const *args,
                                        size_t nargs, tfx_func_error *err)
{
    const tfx_value *fmt = args[0];
    const tfx_value *const *vals = args + 1;
    size_t nvals = nargs - 1;
    long iter_len = -1, chooser = -1;
    bool unknown = false;
    const tfx_value **items;
    const tfx_value **call;
    size_t *pos;
    long i;

    TFX_UNUSED(fn);
    if (nvals == 0) {
        const tfx_value *one = format_values(ctx, fmt, vals, 0, err);

        return one == NULL ? NULL : tfx_value_list(ctx, &tfx_type_str, &one, 1);
    }
    for (size_t a = 0; a < nvals; a++) {
        const tfx_value *arg = vals[a];
        long len;

        if (!is_sequence(arg->type) || tfx_value_is_null(arg)) {
            if (arg->type->kind == TFX_TYPE_DYNAMIC && tfx_value_is_unknown(arg))
                unknown = true;
            continue;
        }
        /* a set's length is unknown when it holds an unknown element
         * among others [value.length] */
        if (arg->type->kind != TFX_TYPE_TUPLE
            && (tfx_value_is_unknown(arg)
                || (arg->type->kind == TFX_TYPE_SET && arg->as.elems.n != 1
                    && !tfx_value_is_wholly_known(arg)))) {
            unknown = true;
            continue;
        }
        len = arg->type->kind == TFX_TYPE_TUPLE ? (long)arg->type->n : (long)arg->as.elems.n;
        if (iter_len == -1) {
            iter_len = len;
            chooser = (long)a;
        } else if (len != iter_len) {
            return tfx_fn_arg_error(err, (long)a + 1,
                                    tfx_ctx_printf(ctx,
                                                   "argument %zu has length %ld, which is "
                                                   "inconsistent with argument %ld of length %ld",
                                                   a + 1, len, chooser + 1, iter_len));
        }
        if (tfx_value_is_unknown(arg))
            unknown = true;
    }
    if (unknown)
        return tfx_value_unknown(ctx, ret);
    if (iter_len == 0)
        return tfx_value_list(ctx, &tfx_type_str, NULL, 0);
    if (iter_len == -1)
        iter_len = 1;
    tfx_ctx_check_items(ctx, (size_t)iter_len);
    items = tfx_arena_alloc(ctx->arena, (size_t)iter_len * sizeof(const tfx_value *));
    call = tfx_arena_alloc(ctx->arena, nvals * sizeof(const tfx_value *));
    if (items == NULL || call == NULL)
        tfx_fn_nomem(ctx);
    pos = tfx_arena_alloc(ctx->arena, nvals * sizeof *pos);
    if (pos == NULL)
        tfx_fn_nomem(ctx);
    memset(pos, 0, nvals * sizeof *pos);
    for (i = 0; i < iter_len; i++) {
        bool known = true;

        /* [fn.formatlist.lag] upstream takes each sequence's next element
         * only as it reaches the argument: after an unknown one, the later
         * sequences of that iteration are not advanced, and from then on
         * lag behind */
        for (size_t a = 0; a < nvals; a++) {
            const tfx_value *arg = vals[a];

            call[a] = is_sequence(arg->type) && !tfx_value_is_null(arg)
                          ? arg->as.elems.items[pos[a]++]
                          : arg;
            if (!tfx_value_is_wholly_known(call[a])) {
                known = false;
                break;
            }
        }
        if (!known) {
            /* [fn.formatlist.pn] cty 1.18 refines each unknown element
             * not null */
            items[i] = ctx->pn ? tfx_value_refine_not_null(ctx, tfx_value_unknown(ctx, &tfx_type_str))
                               : tfx_value_unknown(ctx, &tfx_type_str);
            continue;
        }
        items[i] = format_values(ctx, fmt, call, nvals, err);
        if (items[i] == NULL) {
            err->message = tfx_ctx_printf(ctx, "error on format iteration %ld: %s", i,
                                          err->message);
            err->arg = -1;
            return NULL;
        }
    }
    return tfx_value_list(ctx, &tfx_type_str, items, (size_t)iter_len);
}

static const tfx_function fn_formatlist = {.name = "formatlist",
                                           .params = format_params,
                                           .nparams = TFX_COUNTOF(format_params),
                                           .varparam = &formatlist_args,
                                           .type = NULL,
                                           .ret_type = &list_of_string,
                                           .impl = formatlist_impl};

/* The functions this file registers [call.builtins], sorted by name. */
const tfx_builtin tfx_builtins_format[] = {
    {"format", &fn_format},
    {"formatlist", &fn_formatlist},
    {NULL, NULL},
};
