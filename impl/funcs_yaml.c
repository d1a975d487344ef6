/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_yaml.c — yamldecode and yamlencode (spec/functions-yaml.md, rules
 * fn.yamldecode.*, fn.yamlencode.*): go-cty-yaml 1.0.2's YAMLDecodeFunc
 * and YAMLEncodeFunc, which Terraform registers as they are.
 *
 * go-cty-yaml carries a Go port of libyaml's scanner, parser and emitter;
 * here libyaml itself does that part (yaml_parser_*, yaml_emitter_*), and
 * this file does what go-cty-yaml adds on top: the resolution of scalars
 * (implicit typing, tags, timestamps), the building of cty values from the
 * events (tuples, objects, anchors, aliases, merge keys), the wording and
 * positions of its errors, and the walk that turns a value into events.
 *
 * libyaml allocates with malloc.  Everything that holds a parser, an
 * emitter or an event runs inside tfx_ctx_try, so that a limit reached on
 * the way (tfx_ctx_fail) frees them before the failure goes on outward.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "buf.h"
#include "common.h"
#include "funcs_internal.h"

/* The tags go-cty-yaml knows, in the long form libyaml's parser gives
 * ("!!str" is resolved through the default tag directive). */
#define TAG_STR "tag:yaml.org,2002:str"
#define TAG_BOOL "tag:yaml.org,2002:bool"
#define TAG_INT "tag:yaml.org,2002:int"
#define TAG_FLOAT "tag:yaml.org,2002:float"
#define TAG_NULL "tag:yaml.org,2002:null"
#define TAG_TIMESTAMP "tag:yaml.org,2002:timestamp"
#define TAG_BINARY "tag:yaml.org,2002:binary"
#define TAG_SEQ "tag:yaml.org,2002:seq"
#define TAG_MAP "tag:yaml.org,2002:map"

/* ======================================================================
 * Scalars [fn.yamldecode.scalar]
 * ====================================================================== */

/* What resolving a scalar gives: a value, the merge key, or an error. */
typedef enum { RES_VALUE, RES_MERGE, RES_ERROR } res_kind;

typedef struct {
    res_kind kind;
    const tfx_value *value;  /* RES_VALUE */
    const char *error;       /* RES_ERROR: the message, without position */
} resolved;

static bool streq(const char *s, size_t n, const char *lit)
{
    size_t m = strlen(lit);

    return n == m && memcmp(s, lit, m) == 0;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* [fn.yamldecode.words] The words go-cty-yaml looks up before anything
 * else: 1 true, 0 false, 2 null, 3 +Inf, 4 -Inf; -1 for other text;
 * *is_bool says whether the word is one of the booleans. */
static int lookup_word(const char *s, size_t n, bool *is_bool)
{
    static const char *const trues[] = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE",
                                        "on", "On", "ON"};
    static const char *const falses[] = {"n", "N", "no", "No", "NO", "false", "False", "FALSE",
                                         "off", "Off", "OFF"};
    static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};
    static const char *const pinf[] = {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"};
    static const char *const ninf[] = {"-.inf", "-.Inf", "-.INF"};
    size_t i;

    *is_bool = false;
    for (i = 0; i < TFX_COUNTOF(trues); i++)
        if (streq(s, n, trues[i])) {
            *is_bool = true;
            return 1;
        }
    for (i = 0; i < TFX_COUNTOF(falses); i++)
        if (streq(s, n, falses[i])) {
            *is_bool = true;
            return 0;
        }
    for (i = 0; i < TFX_COUNTOF(nulls); i++)
        if (streq(s, n, nulls[i]))
            return 2;
    for (i = 0; i < TFX_COUNTOF(pinf); i++)
        if (streq(s, n, pinf[i]))
            return 3;
    for (i = 0; i < TFX_COUNTOF(ninf); i++)
        if (streq(s, n, ninf[i]))
            return 4;
    return -1;
}

static const tfx_value *word_value(tfx_ctx *ctx, int word)
{
    switch (word) {
    case 0:
        return tfx_value_bool(false);
    case 1:
        return tfx_value_bool(true);
    case 2:
        return &tfx_value_dynamic_null;
    default: {
        const tfx_num *inf = tfx_num_from_double(ctx->arena, word == 3 ? 1.0 / 0.0 : -1.0 / 0.0);

        if (inf == NULL)
            tfx_fn_nomem(ctx);
        return tfx_value_number(ctx, inf);
    }
    }
}

/* [fn.yamldecode.int] The integer forms of go-cty-yaml's regular
 * expression: an optional sign, then nothing, decimal digits and
 * underscores, "0o" and octal digits or underscores (one at least), or
 * "0x" and hex digits or underscores (one at least). */
static bool match_int(const char *s, size_t n)
{
    size_t i = 0;
    size_t j;

    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    if (i == n)
        return true;
    if (n - i >= 3 && s[i] == '0' && (s[i + 1] == 'o' || s[i + 1] == 'x')) {
        bool hex = s[i + 1] == 'x';
        bool all = true;

        for (j = i + 2; j < n; j++) {
            char c = s[j];
            bool ok = c == '_' || (c >= '0' && c <= '7') ||
                      (hex && (is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
            if (!ok) {
                all = false;
                break;
            }
        }
        if (all)
            return true;
    }
    for (j = i; j < n; j++)
        if (!is_digit(s[j]) && s[j] != '_')
            return false;
    return true;
}

/* [fn.yamldecode.int.pn] go-cty-yaml 1.1.0's integer expression (profile
 * PN), the YAML 1.2 core schema's: an optional sign and one or more
 * decimal digits, or "0o" and one or more octal digits, or "0x" and one
 * or more hex digits; no underscores, no sign before "0o" or "0x". */
static bool match_int_pn(const char *s, size_t n)
{
    size_t i = 0;
    size_t j;

    if (n >= 3 && s[0] == '0' && (s[1] == 'o' || s[1] == 'x')) {
        bool hex = s[1] == 'x';

        for (j = 2; j < n; j++) {
            char c = s[j];
            if (!((c >= '0' && c <= '7') ||
                  (hex && (is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))))
                break;
        }
        if (j == n)
            return true;
    }
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    if (i == n)
        return false;
    for (j = i; j < n; j++)
        if (!is_digit(s[j]))
            return false;
    return true;
}

/* [fn.yamldecode.float] go-cty-yaml's float expression: an optional sign,
 * then "." and digits or digits with an optional "." and digits, then an
 * optional exponent. */
static bool match_float(const char *s, size_t n)
{
    size_t i = 0;
    size_t d;

    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    if (i < n && s[i] == '.') {
        i++;
        for (d = 0; i < n && is_digit(s[i]); i++)
            d++;
        if (d == 0)
            return false;
    } else {
        for (d = 0; i < n && is_digit(s[i]); i++)
            d++;
        if (d == 0)
            return false;
        if (i < n && s[i] == '.')
            for (i++; i < n && is_digit(s[i]); i++)
                ;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        for (d = 0; i < n && is_digit(s[i]); i++)
            d++;
        if (d == 0)
            return false;
    }
    return i == n;
}

/* Go's strconv.ParseUint(s, 0, 64) after the sign: the base from the
 * prefix ("0b", "0o", "0x" in either case, a lone leading "0" for octal),
 * then digits of that base; false on a syntax error or overflow. */
static bool go_parse_uint(const char *s, size_t n, uint64_t *out)
{
    unsigned base = 10;
    uint64_t v = 0;
    size_t i = 0;

    if (n == 0)
        return false;
    if (s[0] == '0') {
        unsigned char c = n >= 3 ? (unsigned char)((unsigned char)s[1] | 0x20u) : 0u;

        if (c == 'b') {
            base = 2;
            i = 2;
        } else if (c == 'o') {
            base = 8;
            i = 2;
        } else if (c == 'x') {
            base = 16;
            i = 2;
        } else {
            base = 8;
            i = 1;
        }
    }
    for (; i < n; i++) {
        char c = s[i];
        unsigned d;

        if (is_digit(c))
            d = (unsigned)(c - '0');
        else if (((unsigned char)c | 0x20u) >= 'a' && ((unsigned char)c | 0x20u) <= 'z')
            d = ((unsigned char)c | 0x20u) - 'a' + 10;
        else
            return false;
        if (d >= base)
            return false;
        if (v > (UINT64_MAX - d) / base)
            return false;
        v = v * base + d;
    }
    *out = v;
    return true;
}

/* A number from the text of an integer or float scalar
 * [fn.yamldecode.number]: underscores dropped, then cty's ParseNumberVal
 * (decimal, 512 bits), else Go's ParseInt (base prefixes, 64-bit
 * precision), else ParseUint; NULL when none reads it. */
static const tfx_value *parse_number(tfx_ctx *ctx, const char *src, size_t n)
{
    char *plain = tfx_ctx_alloc(ctx, n + 1);
    size_t m = 0;
    size_t i;
    const tfx_num *num = NULL;
    tfx_num_err st;
    uint64_t u;
    bool neg = false;

    for (i = 0; i < n; i++)
        if (src[i] != '_')
            plain[m++] = src[i];
    st = tfx_num_parse_n(ctx->arena, plain, m, &num);
    if (st == TFX_NUM_ERR_NOMEM)
        tfx_fn_nomem(ctx);
    if (st == TFX_NUM_OK)
        return tfx_value_number(ctx, num);
    i = 0;
    if (m > 0 && (plain[0] == '+' || plain[0] == '-')) {
        neg = plain[0] == '-';
        i = 1;
    }
    if (go_parse_uint(plain + i, m - i, &u)) {
        if (neg ? u <= (uint64_t)INT64_MAX + 1 : u <= (uint64_t)INT64_MAX) {
            int64_t v = neg ? (u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u)
                            : (int64_t)u;
            return tfx_value_int(ctx, v);
        }
        if (i == 0) {
            /* ParseUint: 64 bits of precision, as big.Float's SetUint64 */
            unsigned char digits[64];
            int k;

            for (k = 0; k < 64; k++)
                digits[k] = (unsigned char)((u >> (63 - k)) & 1);
            st = tfx_num_from_digits(ctx->arena, false, digits, 64, 2, &num);
            if (st != TFX_NUM_OK)
                tfx_fn_nomem(ctx);
            return tfx_value_number(ctx, num);
        }
    }
    return NULL;
}

/* [fn.yamldecode.binary] Whether text is what Go's base64.StdEncoding
 * decodes: the standard alphabet in groups of four, "=" padding of one or
 * two in the last group only, carriage returns and newlines anywhere
 * ignored. */
static bool valid_base64(const char *s, size_t n)
{
    size_t m = 0;      /* characters other than CR and LF */
    size_t j = 0;
    size_t i;
    bool padded = false;

    for (i = 0; i < n; i++)
        if (s[i] != '\r' && s[i] != '\n')
            m++;
    if (m % 4 != 0)
        return false;
    for (i = 0; i < n; i++) {
        char c = s[i];

        if (c == '\r' || c == '\n')
            continue;
        if (c == '=') {
            /* padding: in the last group, from its third place on, and
             * "=" in the third place needs "=" in the fourth (the
             * length check and the rule below see to that) */
            if (j + 4 < m || j % 4 < 2)
                return false;
            padded = true;
        } else if (padded ||
                   !((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) ||
                     c == '+' || c == '/')) {
            return false;
        }
        j++;
    }
    return true;
}

/* Go's time.atoi on a two-byte field: an optional sign, then digits. */
static bool go_atoi2(const char *s, size_t n, int *out)
{
    bool neg = false;
    int v = 0;
    size_t i = 0;

    if (i < n && (s[i] == '+' || s[i] == '-')) {
        neg = s[i] == '-';
        i++;
    }
    for (; i < n; i++) {
        if (!is_digit(s[i]))
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = neg ? -v : v;
    return true;
}

/* Go's time getnum(s, false): one or two digits. */
static bool getnum(const char **p, const char *end, int *out)
{
    const char *s = *p;

    if (s >= end || !is_digit(s[0]))
        return false;
    if (s + 1 >= end || !is_digit(s[1])) {
        *out = s[0] - '0';
        *p = s + 1;
        return true;
    }
    *out = (s[0] - '0') * 10 + (s[1] - '0');
    *p = s + 2;
    return true;
}

static bool leap_year(int y)
{
    return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

/* [fn.yamldecode.timestamp.pn] Go 1.23's time.Parse reads the zone
 * ±hh:mm of these layouts with getnum: both fields exactly two digits,
 * and an hour above 24 or a minute above 60 out of range. */
static bool zone_pn(const char *p, int *hr, int *mm)
{
    if (!is_digit(p[1]) || !is_digit(p[2]) || !is_digit(p[4]) || !is_digit(p[5]))
        return false;
    *hr = (p[1] - '0') * 10 + (p[2] - '0');
    *mm = (p[4] - '0') * 10 + (p[5] - '0');
    return *hr <= 24 && *mm <= 60;
}

/* One of go-cty-yaml's layouts, as Go 1.19's time.Parse reads it (with
 * ctx->pn, Go 1.23's: [fn.yamldecode.timestamp.pn]):
 * 0 "2006-1-2T15:4:5.999999999Z07:00", 1 the same with "t",
 * 2 "2006-1-2 15:4:5.999999999" (the space matches a run of spaces),
 * 3 "2006-1-2".  On success *out is the RFC 3339 text Go's Format gives
 * (seconds, no fraction; "Z" for a zero offset). */
static bool parse_layout(tfx_ctx *ctx, const char *s, size_t n, int layout, const char **out)
{
    const char *p = s + 5; /* the quick check saw four digits and "-" */
    const char *end = s + n;
    int year;
    int month;
    int day;
    int hour = 0;
    int min = 0;
    int sec = 0;
    long offset = 0; /* seconds east of UTC */
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int dim;

    year = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
    if (!getnum(&p, end, &month) || month < 1 || month > 12)
        return false;
    if (p >= end || *p != '-')
        return false;
    p++;
    if (!getnum(&p, end, &day))
        return false;
    if (layout != 3) {
        if (layout == 2) {
            if (p >= end || *p != ' ')
                return false;
            while (p < end && *p == ' ')
                p++;
        } else {
            if (p >= end || *p != (layout == 0 ? 'T' : 't'))
                return false;
            p++;
        }
        if (!getnum(&p, end, &hour) || hour >= 24)
            return false;
        if (p >= end || *p != ':')
            return false;
        p++;
        if (!getnum(&p, end, &min) || min >= 60)
            return false;
        if (p >= end || *p != ':')
            return false;
        p++;
        if (!getnum(&p, end, &sec) || sec >= 60)
            return false;
        /* .999999999: "." or "," and up to nine digits, optional (PN:
         * any number of digits, those past nine ignored) */
        if (end - p >= 2 && (*p == '.' || *p == ',') && is_digit(p[1])) {
            int i = 0;

            while ((i < 9 || ctx->pn) && p + i + 1 < end && is_digit(p[i + 1]))
                i++;
            p += 1 + i;
        }
        if (layout != 2) {
            int hr;
            int mm;
            size_t rest = (size_t)(end - p);

            if (rest >= 1 && *p == 'Z') {
                p++;
            } else {
                if (rest < 6 || p[3] != ':')
                    return false;
                if (ctx->pn ? !zone_pn(p, &hr, &mm)
                            : !go_atoi2(p + 1, 2, &hr) || !go_atoi2(p + 4, 2, &mm))
                    return false;
                offset = ((long)hr * 60 + mm) * 60;
                if (*p == '-')
                    offset = -offset;
                else if (*p != '+')
                    return false;
                p += 6;
            }
        }
    }
    if (p != end)
        return false;
    dim = mdays[month - 1] + (month == 2 && leap_year(year) ? 1 : 0);
    if (day < 1 || day > dim)
        return false;
    if (offset == 0) {
        *out = tfx_ctx_printf(ctx, "%04d-%02d-%02dT%02d:%02d:%02dZ", year, month, day, hour, min,
                              sec);
    } else {
        long zone = offset / 60;
        char sign = '+';

        if (zone < 0) {
            sign = '-';
            zone = -zone;
        }
        *out = tfx_ctx_printf(ctx, "%04d-%02d-%02dT%02d:%02d:%02d%c%02ld:%02ld", year, month, day,
                              hour, min, sec, sign, zone / 60, zone % 60);
    }
    return true;
}

/* [fn.yamldecode.timestamp] go-cty-yaml's parseTimestamp: four digits and
 * "-", then the first of its layouts that reads the whole text; the
 * result is the RFC 3339 text, or NULL. */
static const char *parse_timestamp(tfx_ctx *ctx, const char *s, size_t n)
{
    size_t i = 0;
    int layout;
    const char *out = NULL;

    while (i < n && is_digit(s[i]))
        i++;
    if (i != 4 || i == n || s[i] != '-')
        return NULL;
    for (layout = 0; layout < 4; layout++)
        if (parse_layout(ctx, s, n, layout, &out))
            return out;
    return NULL;
}

static resolved res_value(const tfx_value *v)
{
    resolved r = {RES_VALUE, v, NULL};

    return r;
}

static resolved res_error(const char *msg)
{
    resolved r = {RES_ERROR, NULL, msg};

    return r;
}

static resolved res_cannot_parse(tfx_ctx *ctx, const char *src, size_t n, const char *tag,
                                 const char *extra)
{
    return res_error(tfx_ctx_printf(ctx, "cannot parse %s as %s%s",
                                    tfx_textbuf_quoted(ctx, src, n), tag, extra));
}

/* go-cty-yaml's resolveScalar: the value of a scalar of the given tag
 * ("" when it has none), text and style [fn.yamldecode.scalar]
 * [fn.yamldecode.tags]. */
static resolved resolve_scalar(tfx_ctx *ctx, const char *tag, const char *src, size_t n,
                               yaml_scalar_style_t style)
{
    char hint = 'N';
    bool is_bool;
    int word;
    const char *ts;

    if (!(tag[0] == '\0' || strcmp(tag, TAG_STR) == 0 || strcmp(tag, TAG_BOOL) == 0 ||
          strcmp(tag, TAG_INT) == 0 || strcmp(tag, TAG_FLOAT) == 0 ||
          strcmp(tag, TAG_NULL) == 0 || strcmp(tag, TAG_TIMESTAMP) == 0 ||
          strcmp(tag, TAG_BINARY) == 0))
        return res_error(tfx_ctx_printf(ctx, "unsupported tag %s",
                                        tfx_textbuf_quoted(ctx, tag, strlen(tag))));
    if (n > 0) {
        unsigned char c = (unsigned char)src[0];

        if (c == '+' || c == '-')
            hint = 'S';
        else if (is_digit((char)c))
            hint = 'D';
        else if (c != 0 && strchr("yYnNtTfFoO~", c) != NULL)
            hint = 'M';
        else if (c == '.')
            hint = '.';
        else
            hint = 0;
    }
    if (hint != 0 && strcmp(tag, TAG_STR) != 0 && strcmp(tag, TAG_BINARY) != 0) {
        /* [fn.yamldecode.quoted] a quoted scalar is a string */
        if (style == YAML_SINGLE_QUOTED_SCALAR_STYLE || style == YAML_DOUBLE_QUOTED_SCALAR_STYLE)
            return res_value(tfx_value_string(ctx, src, n));
        word = lookup_word(src, n, &is_bool);
        if (word >= 0)
            return res_value(word_value(ctx, word));
        /* [fn.yamldecode.nan] */
        if (tag[0] == '\0' &&
            (streq(src, n, ".nan") || streq(src, n, ".NaN") || streq(src, n, ".NAN")))
            return res_error("floating point NaN is not supported");
        if (hint == '.') {
            const tfx_num *x = NULL;
            tfx_num_err st = tfx_num_parse_n(ctx->arena, src, n, &x);

            if (st == TFX_NUM_ERR_NOMEM)
                tfx_fn_nomem(ctx);
            if (st == TFX_NUM_OK)
                return res_value(tfx_value_number(ctx, x));
        } else if (hint == 'D' || hint == 'S') {
            if (tag[0] == '\0' || strcmp(tag, TAG_TIMESTAMP) == 0) {
                ts = parse_timestamp(ctx, src, n);
                if (ts != NULL)
                    return res_value(tfx_value_string(ctx, ts, strlen(ts)));
            }
            if (ctx->pn ? match_int_pn(src, n) : match_int(src, n))
                tag = TAG_INT;
            else if (match_float(src, n))
                tag = TAG_FLOAT;
        }
    }
    /* [fn.yamldecode.merge] "<<" without a tag, even quoted */
    if (tag[0] == '\0' && streq(src, n, "<<")) {
        resolved r = {RES_MERGE, NULL, NULL};

        return r;
    }
    if (strcmp(tag, TAG_STR) == 0 || strcmp(tag, TAG_BINARY) == 0) {
        if (strcmp(tag, TAG_BINARY) == 0 && !valid_base64(src, n))
            return res_cannot_parse(ctx, src, n, tag, ": not valid base64");
        return res_value(tfx_value_string(ctx, src, n));
    }
    if (strcmp(tag, TAG_BOOL) == 0) {
        word = lookup_word(src, n, &is_bool);
        if (word < 0 || !is_bool)
            return res_cannot_parse(ctx, src, n, tag, "");
        return res_value(word_value(ctx, word));
    }
    if (strcmp(tag, TAG_INT) == 0 || strcmp(tag, TAG_FLOAT) == 0) {
        const tfx_value *num = parse_number(ctx, src, n);

        if (num == NULL)
            return res_cannot_parse(ctx, src, n, tag, "");
        return res_value(num);
    }
    if (strcmp(tag, TAG_TIMESTAMP) == 0) {
        ts = parse_timestamp(ctx, src, n);
        if (ts == NULL)
            return res_cannot_parse(ctx, src, n, tag, "");
        return res_value(tfx_value_string(ctx, ts, strlen(ts)));
    }
    if (strcmp(tag, TAG_NULL) == 0)
        return res_value(&tfx_value_dynamic_null);
    return res_value(tfx_value_string(ctx, src, n));
}

/* ======================================================================
 * Decoding [fn.yamldecode.*]
 * ====================================================================== */

/* An anchor: its name, whether its node is still being read (and how many
 * times over), and the value it got. */
typedef struct {
    const char *name;
    size_t pending;
    const tfx_value *value;
} yd_anchor;

typedef struct {
    tfx_ctx *ctx;
    const char *src;
    size_t nbytes;
    size_t taken;              /* bytes handed to libyaml so far */
    yaml_parser_t parser;
    bool parser_ready;
    yaml_event_t ev;           /* the current event, when have_ev */
    bool have_ev;
    yd_anchor *anchors;        /* open addressing, cap a power of two */
    size_t nanchors;
    size_t cap;
    size_t depth;
    size_t max_depth;
    const char *error;         /* set when decoding failed */
    const char *deferred;      /* the value pass's first error [fn.yamldecode.block] */
    const tfx_value *result;
    /* [fn.yamldecode.escapes] */
    bool unknown_escape;       /* libyaml refused an escape ... */
    size_t escape_index;       /* ... at this character index */
    const size_t *patches;     /* byte offsets of the "\'" read as "\0" */
    size_t npatches;
    size_t base;               /* bytes before libyaml's first character (a BOM) */
    size_t cur_ci;             /* a character index and its byte offset */
    size_t cur_bi;
    size_t checked;            /* scalars starting before this index - 1 are checked */
    bool step_limit;           /* the read handler met the step limit */
} yaml_decoder;

static const char *const event_names[] = {
    "none", "stream start", "stream end", "document start", "document end", "alias",
    "scalar", "sequence start", "sequence end", "mapping start", "mapping end",
};

static const char *event_name(yaml_event_type_t t)
{
    return (size_t)t < TFX_COUNTOF(event_names) ? event_names[t] : "unknown event";
}

/* [fn.yamldecode.position] An error at a mark: "on line L, column C: msg"
 * with go-cty-yaml's numbers (the mark's line as libyaml counts it, from
 * 0, and its column plus one), or the bare message when the line is 0. */
static const char *positioned(yaml_decoder *d, yaml_mark_t mark, const char *msg)
{
    if (mark.line == 0)
        return msg;
    return tfx_ctx_printf(d->ctx, "on line %zu, column %zu: %s", mark.line, mark.column + 1, msg);
}

static bool fail_at(yaml_decoder *d, yaml_mark_t mark, const char *msg)
{
    d->error = positioned(d, mark, msg);
    return false;
}

/* [fn.yamldecode.syntax] The parser's error, as go-cty-yaml's parserError
 * words it: the problem (or "invalid YAML syntax"), at the problem mark
 * when its line is not 0 (for a scanner error: the next line, column 1),
 * else at the context mark when its line is not 0, else bare. */
static bool fail_parser(yaml_decoder *d)
{
    const yaml_parser_t *p = &d->parser;
    const char *msg = p->problem != NULL && p->problem[0] != '\0'
                          ? tfx_ctx_strndup(d->ctx, p->problem, strlen(p->problem))
                          : "invalid YAML syntax";

    if (p->error == YAML_SCANNER_ERROR && strcmp(msg, "found unknown escape character") == 0) {
        d->unknown_escape = true;
        d->escape_index = p->problem_mark.index;
    }

    if (p->problem_mark.line != 0) {
        size_t line = p->problem_mark.line;
        size_t column = p->problem_mark.column;

        if (p->error == YAML_SCANNER_ERROR) {
            line++;
            column = 0;
        }
        d->error = tfx_ctx_printf(d->ctx, "on line %zu, column %zu: %s", line, column + 1, msg);
        return false;
    }
    if (p->context_mark.line != 0) {
        d->error = tfx_ctx_printf(d->ctx, "on line %zu, column %zu: %s", p->context_mark.line,
                                  p->context_mark.column + 1, msg);
        return false;
    }
    d->error = msg;
    return false;
}

static bool slash_scanned(yaml_decoder *d, bool failed);

/* The next event into d->ev (the previous one freed). */
static bool next_event(yaml_decoder *d)
{
    tfx_ctx_step(d->ctx);
    if (d->have_ev) {
        yaml_event_delete(&d->ev);
        d->have_ev = false;
    }
    if (!yaml_parser_parse(&d->parser, &d->ev)) {
        if (slash_scanned(d, true))
            return false;
        return fail_parser(d);
    }
    d->have_ev = true;
    return !slash_scanned(d, false);
}

static uint64_t hash_name(const char *s)
{
    uint64_t h = 14695981039346656037u;

    for (; *s != '\0'; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211u;
    }
    return h;
}

/* The anchor named name, made if missing. */
static yd_anchor *anchor_slot(yaml_decoder *d, const char *name, bool make)
{
    size_t i;

    if (d->cap == 0) {
        if (!make)
            return NULL;
        d->cap = 16;
        d->anchors = tfx_ctx_alloc_array(d->ctx, d->cap, sizeof *d->anchors);
    }
    if (make && (d->nanchors + 1) * 2 > d->cap) {
        yd_anchor *old = d->anchors;
        size_t oldcap = d->cap;

        d->cap *= 2;
        d->anchors = tfx_ctx_alloc_array(d->ctx, d->cap, sizeof *d->anchors);
        for (i = 0; i < oldcap; i++) {
            if (old[i].name != NULL) {
                size_t j = (size_t)hash_name(old[i].name) & (d->cap - 1);

                while (d->anchors[j].name != NULL)
                    j = (j + 1) & (d->cap - 1);
                d->anchors[j] = old[i];
            }
        }
    }
    i = (size_t)hash_name(name) & (d->cap - 1);
    while (d->anchors[i].name != NULL) {
        tfx_ctx_step(d->ctx);
        if (strcmp(d->anchors[i].name, name) == 0)
            return &d->anchors[i];
        i = (i + 1) & (d->cap - 1);
    }
    if (!make)
        return NULL;
    d->anchors[i].name = name;
    d->nanchors++;
    return &d->anchors[i];
}

/* [fn.yamldecode.anchor] An anchor's node starts: references to it are
 * refused until it ends. */
static void begin_anchor(yaml_decoder *d, const char *name)
{
    if (name != NULL)
        anchor_slot(d, name, true)->pending++;
}

static void complete_anchor(yaml_decoder *d, const char *name, const tfx_value *v)
{
    yd_anchor *a;

    if (name == NULL)
        return;
    a = anchor_slot(d, name, true);
    if (a->pending > 0)
        a->pending--;
    a->value = v;
}

/* A copy of a string of the current event, or NULL. */
static const char *ev_str(yaml_decoder *d, const yaml_char_t *s)
{
    return s == NULL ? NULL : tfx_ctx_strndup(d->ctx, (const char *)s, strlen((const char *)s));
}

/* The byte offset in d->src of libyaml's character index ci (libyaml
 * counts characters, after a byte order mark). */
static size_t byte_offset(yaml_decoder *d, size_t ci)
{
    if (ci < d->cur_ci) {
        d->cur_ci = 0;
        d->cur_bi = d->base;
    }
    while (d->cur_ci < ci && d->cur_bi < d->nbytes) {
        unsigned char c = (unsigned char)d->src[d->cur_bi];

        d->cur_bi += c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        d->cur_ci++;
    }
    return d->cur_bi < d->nbytes ? d->cur_bi : d->nbytes;
}

static bool is_patched(const yaml_decoder *d, size_t off)
{
    size_t i;

    for (i = 0; i < d->npatches; i++)
        if (d->patches[i] == off)
            return true;
    return false;
}

/* [fn.yamldecode.escapes] go-yaml's scanner error for the first "\\/" in
 * the double-quoted scalar whose token starts at mark `start`, looking at
 * its source up to character index `limit` (its end, or where libyaml
 * stopped); NULL when there is none.  The error is at the backslash: "on
 * line L+1, column 1" when its line L is not 0, else bare. */
static const char *slash_error(yaml_decoder *d, yaml_mark_t start, size_t limit)
{
    size_t b0 = byte_offset(d, start.index);
    size_t b1 = byte_offset(d, limit);
    size_t line = start.line;
    size_t j;

    if (d->base == SIZE_MAX)
        return NULL;
    while (b0 < b1 && d->src[b0] != '"')
        b0++;
    for (j = b0 + 1; j < b1; j++) {
        const unsigned char *u = (const unsigned char *)d->src + j;
        char c = d->src[j];

        if (c == '\n' || (c == '\r' && (j + 1 >= d->nbytes || u[1] != '\n')) ||
            (u[0] == 0xC2 && j + 1 < d->nbytes && u[1] == 0x85) ||
            (u[0] == 0xE2 && j + 2 < d->nbytes && u[1] == 0x80 && (u[2] == 0xA8 || u[2] == 0xA9)))
            line++;
        if (c == '"')
            return NULL;
        if (c != '\\' || j + 1 >= d->nbytes)
            continue;
        c = d->src[j + 1];
        if (c == '/') {
            if (line == 0)
                return "found unknown escape character";
            return tfx_ctx_printf(d->ctx, "on line %zu, column 1: %s", line + 1,
                                  "found unknown escape character");
        }
        if (c == '\r' || c == '\n' || (unsigned char)c == 0xC2 || (unsigned char)c == 0xE2)
            continue; /* an escaped line break: counted on the next round */
        j++;
    }
    return NULL;
}

/* [fn.yamldecode.escapes] The "\\/" go-yaml's scanner would have met by
 * now: in the double-quoted scalars libyaml has scanned and not checked
 * yet — the current event's, then those waiting in its token queue, in
 * the order of the text — and, when libyaml failed inside a
 * double-quoted scalar, in what it read of it.  Sets d->error. */
static bool slash_scanned(yaml_decoder *d, bool failed)
{
    const yaml_token_t *t;
    const char *msg = NULL;

    if (d->base == SIZE_MAX)
        return false;
    if (!failed && d->ev.type == YAML_SCALAR_EVENT &&
        d->ev.data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE &&
        d->ev.start_mark.index + 1 > d->checked) {
        msg = slash_error(d, d->ev.start_mark, d->ev.end_mark.index);
        d->checked = d->ev.start_mark.index + 1;
    }
    for (t = d->parser.tokens.head; msg == NULL && t != NULL && t < d->parser.tokens.tail; t++) {
        if (t->type != YAML_SCALAR_TOKEN || t->data.scalar.style != YAML_DOUBLE_QUOTED_SCALAR_STYLE ||
            t->start_mark.index + 1 <= d->checked)
            continue;
        msg = slash_error(d, t->start_mark, t->end_mark.index);
        d->checked = t->start_mark.index + 1;
    }
    if (msg == NULL && failed && d->parser.error == YAML_SCANNER_ERROR &&
        d->parser.context != NULL && strstr(d->parser.context, "a quoted scalar") != NULL &&
        d->parser.context_mark.index + 1 > d->checked)
        msg = slash_error(d, d->parser.context_mark, d->parser.problem_mark.index);
    if (msg == NULL)
        return false;
    d->error = msg;
    return true;
}

/* [fn.yamldecode.escapes] An "\\'" of a double-quoted scalar that
 * libyaml refused and the decoder had it read as "\\0" is an apostrophe
 * again, as go-yaml reads it: *val and *len are the value libyaml gave,
 * whose NULs match in order the escapes that make one. */
static void go_escapes(yaml_decoder *d, const char **val, size_t *len)
{
    const yaml_event_t *ev = &d->ev;
    size_t b0;
    size_t b1;
    size_t j;
    size_t nuls = 0;
    bool fixed = false;
    bool *from_patch = NULL;
    size_t nflags = 0;

    if (ev->data.scalar.style != YAML_DOUBLE_QUOTED_SCALAR_STYLE || d->base == SIZE_MAX ||
        d->npatches == 0)
        return;
    b0 = byte_offset(d, ev->start_mark.index);
    b1 = byte_offset(d, ev->end_mark.index);
    while (b0 < b1 && d->src[b0] != '"')
        b0++;
    for (j = b0 + 1; j + 1 < b1; j++) {
        char c = d->src[j];
        bool nul;
        size_t bs = j;

        if (c != '\\')
            continue;
        c = d->src[j + 1];
        if (c == 'x' || c == 'u' || c == 'U') {
            size_t k = c == 'x' ? 2 : c == 'u' ? 4 : 8;
            size_t m;

            nul = j + 2 + k <= b1;
            for (m = 0; nul && m < k; m++)
                nul = d->src[j + 2 + m] == '0';
            j += 1 + k;
        } else {
            nul = c == '0';
            j++;
        }
        if (nul) {
            bool patched = is_patched(d, bs);

            if (nflags == nuls) {
                bool *grown = tfx_ctx_alloc_array(d->ctx, nflags * 2 + 8, sizeof(bool));

                if (nflags > 0)
                    memcpy(grown, from_patch, nflags * sizeof(bool));
                from_patch = grown;
                nflags = nflags * 2 + 8;
            }
            from_patch[nuls++] = patched;
            fixed = fixed || patched;
        }
    }
    if (fixed) {
        char *copy = tfx_ctx_strndup(d->ctx, *val, *len);
        size_t k = 0;

        for (j = 0; j < *len; j++)
            if (copy[j] == '\0') {
                if (k < nuls && from_patch[k])
                    copy[j] = '\'';
                k++;
            }
        *val = copy;
    }
}

static bool parse_node(yaml_decoder *d, const tfx_value **out);

static bool parse_next_node(yaml_decoder *d, const tfx_value **out)
{
    return next_event(d) && parse_node(d, out);
}

static void enter(yaml_decoder *d)
{
    if (++d->depth > d->max_depth)
        tfx_ctx_fail(d->ctx, "Nesting too deep",
                     "The YAML text nests sequences and mappings deeper than the limit of %zu "
                     "levels.",
                     d->max_depth);
}

/* [fn.yamldecode.sequence] A sequence is a tuple of its items. */
static bool parse_sequence(yaml_decoder *d, const tfx_value **out)
{
    const char *tag = ev_str(d, d->ev.data.sequence_start.tag);
    const char *anchor = ev_str(d, d->ev.data.sequence_start.anchor);
    const tfx_value **items = NULL;
    size_t n = 0;
    size_t cap = 0;

    if (tag != NULL && tag[0] != '\0' && strcmp(tag, TAG_SEQ) != 0)
        return fail_at(d, d->ev.start_mark,
                       tfx_ctx_printf(d->ctx, "can't interpret sequence as %s", tag));
    begin_anchor(d, anchor);
    enter(d);
    for (;;) {
        const tfx_value *v;

        if (!next_event(d))
            return false;
        if (d->ev.type == YAML_SEQUENCE_END_EVENT)
            break;
        if (!parse_node(d, &v))
            return false;
        if (n == cap) {
            const tfx_value **grown;

            cap = cap == 0 ? 8 : cap * 2;
            tfx_ctx_check_items(d->ctx, n + 1);
            grown = tfx_ctx_alloc_array(d->ctx, cap, sizeof(const tfx_value *));
            if (n > 0)
                memcpy(grown, items, n * sizeof(const tfx_value *));
            items = grown;
        }
        items[n++] = v;
    }
    d->depth--;
    *out = tfx_value_tuple(d->ctx, items, n);
    complete_anchor(d, anchor, *out);
    return true;
}

/* The attributes of a mapping so far: later ones win. */
typedef struct {
    tfx_str *names;
    const tfx_value **vals;
    size_t n;
    size_t cap;
} attr_list;

static void attrs_put(yaml_decoder *d, attr_list *l, tfx_str name, const tfx_value *v)
{
    tfx_ctx_step(d->ctx);
    if (l->n == l->cap) {
        size_t cap = l->cap == 0 ? 8 : l->cap * 2;
        tfx_str *names = tfx_ctx_alloc_array(d->ctx, cap, sizeof *names);
        const tfx_value **vals = tfx_ctx_alloc_array(d->ctx, cap, sizeof(const tfx_value *));

        tfx_ctx_check_items(d->ctx, l->n + 1);
        if (l->n > 0) {
            memcpy(names, l->names, l->n * sizeof *names);
            memcpy(vals, l->vals, l->n * sizeof(const tfx_value *));
        }
        l->names = names;
        l->vals = vals;
        l->cap = cap;
    }
    l->names[l->n] = name;
    l->vals[l->n] = v;
    l->n++;
}

/* [fn.yamldecode.key] A resolved key as a string (cty's conversion to
 * string: numbers in Go's 'f' format, "true"/"false"); NULL for null. */
static const tfx_value *key_string(yaml_decoder *d, const tfx_value *k)
{
    if (tfx_value_is_null(k))
        return NULL;
    if (k->type->kind == TFX_TYPE_BOOL)
        return tfx_value_string_raw(d->ctx, k->as.boolean ? "true" : "false",
                                    k->as.boolean ? 4 : 5);
    if (k->type->kind == TFX_TYPE_NUMBER) {
        size_t nbytes = 0;
        const char *s;

        tfx_ctx_check_string(d->ctx, tfx_num_format_max_bytes(k->as.number));
        s = tfx_num_format(d->ctx->arena, k->as.number, &nbytes);
        if (s == NULL)
            tfx_fn_nomem(d->ctx);
        return tfx_value_string_raw(d->ctx, s, nbytes);
    }
    return k;
}

/* [fn.yamldecode.mapping] A mapping is an object; keys are scalars,
 * resolved as values are and converted to strings; "<<" merges a
 * mapping's attributes [fn.yamldecode.merge]; a later key wins. */
static bool parse_mapping(yaml_decoder *d, const tfx_value **out)
{
    const char *tag = ev_str(d, d->ev.data.mapping_start.tag);
    const char *anchor = ev_str(d, d->ev.data.mapping_start.anchor);
    attr_list l = {NULL, NULL, 0, 0};

    if (tag != NULL && tag[0] != '\0' && strcmp(tag, TAG_MAP) != 0)
        return fail_at(d, d->ev.start_mark,
                       tfx_ctx_printf(d->ctx, "can't interpret mapping as %s", tag));
    begin_anchor(d, anchor);
    enter(d);
    for (;;) {
        yaml_mark_t keymark;
        const char *ktag;
        const char *ktext;
        size_t klen;
        resolved r;
        const tfx_value *v;
        const tfx_value *key;

        if (!next_event(d))
            return false;
        if (d->ev.type == YAML_MAPPING_END_EVENT)
            break;
        if (d->ev.type != YAML_SCALAR_EVENT)
            return fail_at(d, d->ev.start_mark, "only strings are allowed as mapping keys");
        keymark = d->ev.start_mark;
        ktag = d->ev.data.scalar.tag != NULL ? (const char *)d->ev.data.scalar.tag : "";
        /* a key's resolution error has no position in go-cty-yaml */
        ktext = (const char *)d->ev.data.scalar.value;
        klen = d->ev.data.scalar.length;
        go_escapes(d, &ktext, &klen);
        r = resolve_scalar(d->ctx, ktag, ktext, klen, d->ev.data.scalar.style);
        if (r.kind == RES_ERROR) {
            d->error = r.error;
            return false;
        }
        if (r.kind == RES_MERGE) {
            size_t i;

            if (!parse_next_node(d, &v))
                return false;
            if (v->type->kind != TFX_TYPE_OBJECT)
                return fail_at(d, keymark,
                               tfx_ctx_printf(d->ctx, "cannot merge %s into mapping",
                                              tfx_type_friendly(d->ctx, v->type)));
            for (i = 0; i < v->as.attrs.n; i++)
                attrs_put(d, &l, v->as.attrs.keys[i], v->as.attrs.vals[i]);
            continue;
        }
        key = key_string(d, r.value);
        if (key == NULL)
            return fail_at(d, keymark, "mapping key cannot be null");
        if (!parse_next_node(d, &v))
            return false;
        attrs_put(d, &l, key->as.string, v);
    }
    d->depth--;
    *out = tfx_value_object(d->ctx, l.names, l.vals, l.n);
    complete_anchor(d, anchor, *out);
    return true;
}

/* The node that starts with the current event. */
static bool parse_node(yaml_decoder *d, const tfx_value **out)
{
    switch (d->ev.type) {
    case YAML_SCALAR_EVENT: {
        const char *anchor = ev_str(d, d->ev.data.scalar.anchor);
        const char *tag = d->ev.data.scalar.tag != NULL ? (const char *)d->ev.data.scalar.tag : "";
        resolved r;

        const char *text = (const char *)d->ev.data.scalar.value;
        size_t len = d->ev.data.scalar.length;

        tfx_ctx_check_string(d->ctx, len);
        go_escapes(d, &text, &len);
        begin_anchor(d, anchor);
        r = resolve_scalar(d->ctx, tag, text, len, d->ev.data.scalar.style);
        if (tag[0] == '\0' && (d->ev.data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
                                d->ev.data.scalar.style == YAML_FOLDED_SCALAR_STYLE)) {
            /* [fn.yamldecode.block] go-cty-yaml's type pass takes an
             * untagged block scalar for a string without resolving it;
             * its value pass resolves it as any other and converts the
             * result to that string type (a null string, "true", "1.5");
             * an error of the value pass counts only if the type pass
             * finds none in the whole text */
            if (r.kind == RES_ERROR) {
                if (d->deferred == NULL)
                    d->deferred = positioned(d, d->ev.start_mark, r.error);
                *out = tfx_value_null(d->ctx, &tfx_type_str);
            } else if (r.kind == RES_MERGE) {
                *out = tfx_value_string_raw(d->ctx, "<<", 2);
            } else {
                *out = key_string(d, r.value);
                if (*out == NULL)
                    *out = tfx_value_null(d->ctx, &tfx_type_str);
            }
            complete_anchor(d, anchor, *out);
            return true;
        }
        if (r.kind == RES_ERROR)
            return fail_at(d, d->ev.start_mark, r.error);
        /* [fn.yamldecode.merge] "<<" anywhere but a key is a string */
        *out = r.kind == RES_MERGE ? tfx_value_string_raw(d->ctx, "<<", 2) : r.value;
        complete_anchor(d, anchor, *out);
        return true;
    }
    case YAML_ALIAS_EVENT: {
        const char *name = (const char *)d->ev.data.alias.anchor;
        yd_anchor *a = anchor_slot(d, name, false);

        if (a != NULL && a->pending > 0)
            return fail_at(d, d->ev.start_mark,
                           tfx_ctx_printf(d->ctx,
                                          "cannot refer to anchor %s from inside its own "
                                          "definition",
                                          tfx_textbuf_quoted(d->ctx, name, strlen(name))));
        if (a == NULL || a->value == NULL)
            return fail_at(d, d->ev.start_mark,
                           tfx_ctx_printf(d->ctx, "reference to undefined anchor %s",
                                          tfx_textbuf_quoted(d->ctx, name, strlen(name))));
        *out = a->value;
        return true;
    }
    case YAML_MAPPING_START_EVENT:
        return parse_mapping(d, out);
    case YAML_SEQUENCE_START_EVENT:
        return parse_sequence(d, out);
    case YAML_DOCUMENT_START_EVENT:
        return fail_at(d, d->ev.start_mark, "only a single document is allowed");
    case YAML_STREAM_END_EVENT:
        return fail_at(d, d->ev.start_mark, "expecting value but found end of stream");
    default:
        return fail_at(d, d->ev.start_mark,
                       tfx_ctx_printf(d->ctx, "unexpected parser event %s",
                                      event_name(d->ev.type)));
    }
}

/* [fn.yamldecode.document] One document: stream start, document start,
 * the node, document end, stream end. */
static bool decode_document(yaml_decoder *d)
{
    const tfx_value *v = NULL;

    if (!next_event(d))
        return false;
    if (d->ev.type != YAML_STREAM_START_EVENT)
        return fail_at(d, d->ev.start_mark, "missing stream start token");
    if (!next_event(d))
        return false;
    if (d->ev.type != YAML_DOCUMENT_START_EVENT)
        return fail_at(d, d->ev.start_mark, "missing start of document");
    if (!parse_next_node(d, &v))
        return false;
    if (!next_event(d))
        return false;
    if (d->ev.type == YAML_DOCUMENT_START_EVENT)
        return fail_at(d, d->ev.start_mark, "only a single document is allowed");
    if (d->ev.type != YAML_DOCUMENT_END_EVENT)
        return fail_at(d, d->ev.start_mark,
                       tfx_ctx_printf(d->ctx, "unexpected extra content (%s) after value",
                                      event_name(d->ev.type)));
    if (!next_event(d))
        return false;
    if (d->ev.type != YAML_STREAM_END_EVENT)
        return fail_at(d, d->ev.start_mark, "unexpected extra content after value");
    if (d->deferred != NULL) {
        d->error = d->deferred;
        return false;
    }
    d->result = v;
    return true;
}

/* [fn.yamldecode.reader] go-yaml's reader takes its input 512 bytes at a
 * time (libyaml's, 16 KiB) and checks the characters of each piece as it
 * takes it, so an invalid or control character is reported when the
 * piece that holds it is read: the handler hands libyaml pieces that fill
 * its raw buffer to 512 bytes, no more, so that these errors come at the
 * same point among the others. */
#define GO_RAW_BUFFER 512

static int read_handler(void *data, unsigned char *buffer, size_t size, size_t *size_read)
{
    yaml_decoder *d = data;
    size_t unread = (size_t)(d->parser.raw_buffer.last - d->parser.raw_buffer.start);
    size_t room = unread < GO_RAW_BUFFER ? GO_RAW_BUFFER - unread : 1;
    size_t n = d->nbytes - d->taken;

    if (n > room)
        n = room;
    if (n > size)
        n = size;
    /* each piece is a step (the input may be read again and again
     * [fn.yamldecode.escapes]); past the limit, a read error that
     * yaml_decode turns into the limit's failure, rather than a jump out
     * of libyaml's frames */
    if (n > 0 && ++d->ctx->steps > d->ctx->limits.max_steps) {
        d->step_limit = true;
        return 0;
    }
    if (n > 0)
        memcpy(buffer, d->src + d->taken, n);
    d->taken += n;
    *size_read = n;
    return 1;
}

static void run_decode(tfx_ctx *ctx, void *arg)
{
    yaml_decoder *d = arg;

    TFX_UNUSED(ctx);
    if (!yaml_parser_initialize(&d->parser)) {
        d->error = "failed to initialize YAML parser";
        return;
    }
    d->parser_ready = true;
    /* [fn.yamldecode.document] an empty text is read as one newline */
    if (d->nbytes == 0) {
        d->src = "\n";
        d->nbytes = 1;
    }
    yaml_parser_set_input(&d->parser, read_handler, d);
    (void)decode_document(d);
}

/* Decodes src[0..nbytes): the value, or NULL with *error set.  A limit
 * reached fails through tfx_ctx_fail after libyaml's memory is freed. */
static const tfx_value *yaml_decode(tfx_ctx *ctx, const char *src, size_t nbytes,
                                    const char **error)
{
    yaml_decoder d;
    char *patched = NULL;
    size_t *patches = NULL;
    size_t npatches = 0;

    for (;;) {
        size_t off;
        bool ok;

        memset(&d, 0, sizeof d);
        d.ctx = ctx;
        d.src = patched != NULL ? patched : src;
        d.nbytes = nbytes;
        d.max_depth = ctx->limits.max_depth == 0 ? 256 : ctx->limits.max_depth;
        d.patches = patches;
        d.npatches = npatches;
        /* libyaml's character indexes start after a UTF-8 byte order mark;
         * a UTF-16 one (not UTF-8 text) turns the escape fixes off */
        if (nbytes >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0)
            d.base = 3;
        else if (nbytes >= 2 && ((unsigned char)src[0] == 0xFF || (unsigned char)src[0] == 0xFE))
            d.base = SIZE_MAX;
        d.cur_bi = d.base == SIZE_MAX ? 0 : d.base;
        ok = tfx_ctx_try(ctx, run_decode, &d);
        if (d.have_ev)
            yaml_event_delete(&d.ev);
        if (d.parser_ready)
            yaml_parser_delete(&d.parser);
        if (!ok)
            tfx_ctx_fail(ctx, ctx->fail_summary, "%s", ctx->fail_detail);
        if (d.step_limit)
            tfx_ctx_step(ctx);
        /* [fn.yamldecode.escapes] an "\'" libyaml refused: go-yaml reads
         * an apostrophe; read the text again with "\0" there (as many
         * characters), the NUL it gives turned back by go_escapes */
        if (d.result != NULL || !d.unknown_escape || d.base == SIZE_MAX)
            break;
        off = byte_offset(&d, d.escape_index);
        if (off + 1 >= nbytes || d.src[off] != '\\' || d.src[off + 1] != '\'')
            break;
        if (patched == NULL) {
            patched = tfx_ctx_strndup(ctx, src, nbytes);
            patches = tfx_ctx_alloc_array(ctx, nbytes, sizeof(size_t));
        }
        patched[off + 1] = '0';
        patches[npatches++] = off;
    }
    if (d.result == NULL) {
        *error = d.error != NULL ? d.error : "invalid YAML syntax";
        return NULL;
    }
    return d.result;
}

/* ---- yamldecode ---- */

/* A string; no Allow flags: null is an argument error, marks go onto the
 * result, an unknown string gives an unknown of type dynamic. */
static const tfx_param yamldecode_params[] = {
    {.name = "src", .type = &tfx_type_str},
};

/* [fn.yamldecode.type] An unknown source gives dynamic; a known one is
 * decoded (go-cty-yaml's ImpliedType and Unmarshal give the same type and
 * value here, so one pass does both) and the value's type is the result
 * type; a decoding error is a plain error. */
static const tfx_type *yamldecode_type(tfx_ctx *ctx, const tfx_function *fn,
                                       const tfx_value *const *args, size_t nargs,
                                       tfx_func_error *err)
{
    const tfx_value *src = args[0];
    const tfx_marks *marks = NULL;
    const tfx_value *v;
    const char *error = NULL;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    src = tfx_value_unmark(ctx, src, &marks);
    if (!tfx_value_is_known(src))
        return &tfx_type_dynamic;
    v = yaml_decode(ctx, src->as.string.s, src->as.string.nbytes, &error);
    if (v == NULL)
        return tfx_fn_error(err, error);
    return v->type;
}

/* [fn.yamldecode.result] The decoded value; when the result type is
 * dynamic (the document is a null, or the source is unknown) the result
 * is an unknown of type dynamic, as go-cty-yaml's implementation returns
 * cty.DynamicVal for that type.  [fn.yamldecode.result.pn] Under profile
 * PN (go-cty-yaml 1.0.3 on) it is the null the document decodes to. */
static const tfx_value *yamldecode_impl(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_type *ret, const tfx_value *const *args,
                                        size_t nargs, tfx_func_error *err)
{
    const tfx_value *src = args[0];
    const char *error = NULL;
    const tfx_value *v;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (ret->kind == TFX_TYPE_DYNAMIC && !ctx->pn)
        return &tfx_value_dynamic_unknown;
    v = yaml_decode(ctx, src->as.string.s, src->as.string.nbytes, &error);
    if (v == NULL)
        return tfx_fn_error(err, error);
    return v;
}

static const tfx_function tfx_fn_yamldecode = {.name = "yamldecode",
                                               .params = yamldecode_params,
                                               .nparams = TFX_COUNTOF(yamldecode_params),
                                               .varparam = NULL,
                                               .type = yamldecode_type,
                                               .ret_type = NULL,
                                               .impl = yamldecode_impl};

/* ======================================================================
 * Encoding [fn.yamlencode.*]
 * ====================================================================== */

/* A string whose text go-yaml's emitter writes otherwise than libyaml's
 * [fn.yamlencode.bom]: it went to libyaml as a stand-in of the same
 * length, found again in the output by its text. */
typedef struct {
    const char *go;         /* what go-yaml writes for the string */
    const char *stand_in;   /* what libyaml writes for the stand-in */
    size_t stand_in_len;
} bom_string;

typedef struct {
    tfx_ctx *ctx;
    const tfx_value *value;
    yaml_emitter_t emitter;
    bool emitter_ready;
    tfx_buf out;              /* libyaml's output (malloc'd) */
    size_t max_bytes;
    bool too_long;
    const char *error;
    unsigned char fill;       /* the stand-ins' byte: in no string of the value */
    bom_string *boms;
    size_t nboms;
    size_t capboms;
    const char *text;         /* the final text, in the arena */
    size_t text_len;
} yaml_encoder;

static int write_handler(void *data, unsigned char *buffer, size_t size)
{
    yaml_encoder *e = data;

    if (size > e->max_bytes - e->out.len) {
        e->too_long = true;
        return 0;
    }
    tfx_buf_put(&e->out, (const char *)buffer, size);
    return e->out.failed ? 0 : 1;
}

/* Emits ev (which the emitter takes over); false with e->error set. */
static bool emit(yaml_encoder *e, yaml_event_t *ev, int made)
{
    if (!made) {
        e->error = "failed to write YAML token";
        return false;
    }
    if (!yaml_emitter_emit(&e->emitter, ev)) {
        e->error = e->emitter.problem != NULL && e->emitter.problem[0] != '\0'
                       ? tfx_ctx_strndup(e->ctx, e->emitter.problem, strlen(e->emitter.problem))
                       : "failed to write YAML token";
        return false;
    }
    return true;
}

static bool is_line_break(const char *s, size_t n, size_t i)
{
    const unsigned char *u = (const unsigned char *)s;

    return u[i] == '\r' || u[i] == '\n' || (u[i] == 0xC2 && i + 1 < n && u[i + 1] == 0x85) ||
           (u[i] == 0xE2 && i + 2 < n && u[i + 1] == 0x80 &&
            (u[i + 2] == 0xA8 || u[i + 2] == 0xA9));
}

/* The text go-yaml writes for a double-quoted scalar whose value starts
 * with a byte order mark: its is_bom test looks at the value's first
 * three bytes whatever the position, so every character is escaped
 * ("\x30" for "0", "\x20" for a space, upper-case hex), and no line is
 * folded (no space is left to fold at) [fn.yamlencode.bom]. */
static const char *go_bom_quoted(tfx_ctx *ctx, const char *s, size_t n)
{
    tfx_textbuf b;
    size_t i = 0;

    tfx_textbuf_init(&b, ctx);
    tfx_textbuf_putc(&b, '"');
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        unsigned long v;
        size_t w = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        size_t k;

        v = w == 1 ? c : w == 2 ? (c & 0x1Fu) : w == 3 ? (c & 0x0Fu) : (c & 0x07u);
        for (k = 1; k < w && i + k < n; k++)
            v = (v << 6) + ((unsigned char)s[i + k] & 0x3Fu);
        i += w;
        tfx_ctx_step(ctx);
        switch (v) {
        case 0x00: tfx_textbuf_puts(&b, "\\0"); break;
        case 0x07: tfx_textbuf_puts(&b, "\\a"); break;
        case 0x08: tfx_textbuf_puts(&b, "\\b"); break;
        case 0x09: tfx_textbuf_puts(&b, "\\t"); break;
        case 0x0A: tfx_textbuf_puts(&b, "\\n"); break;
        case 0x0B: tfx_textbuf_puts(&b, "\\v"); break;
        case 0x0C: tfx_textbuf_puts(&b, "\\f"); break;
        case 0x0D: tfx_textbuf_puts(&b, "\\r"); break;
        case 0x1B: tfx_textbuf_puts(&b, "\\e"); break;
        case 0x22: tfx_textbuf_puts(&b, "\\\""); break;
        case 0x5C: tfx_textbuf_puts(&b, "\\\\"); break;
        case 0x85: tfx_textbuf_puts(&b, "\\N"); break;
        case 0xA0: tfx_textbuf_puts(&b, "\\_"); break;
        case 0x2028: tfx_textbuf_puts(&b, "\\L"); break;
        case 0x2029: tfx_textbuf_puts(&b, "\\P"); break;
        default:
            if (v <= 0xFF)
                tfx_textbuf_printf(&b, "\\x%02lX", v);
            else if (v <= 0xFFFF)
                tfx_textbuf_printf(&b, "\\u%04lX", v);
            else
                tfx_textbuf_printf(&b, "\\U%08lX", v);
        }
    }
    tfx_textbuf_putc(&b, '"');
    return tfx_textbuf_text(&b);
}

static bool emit_scalar(yaml_encoder *e, const char *s, size_t n, yaml_scalar_style_t style)
{
    yaml_event_t ev;
    int made;

    if (n > (size_t)INT32_MAX) {
        e->too_long = true;
        return false;
    }
    if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
        /* [fn.yamlencode.bom] a stand-in of the same length (so the same
         * choice of simple or complex key), with a line break when the
         * string has one (so the same multi-line analysis), written
         * double-quoted as the string itself would be (a byte order mark
         * is no printable character) */
        char *fill = tfx_ctx_alloc(e->ctx, n + 1);
        const char *go = go_bom_quoted(e->ctx, s, n);
        size_t width = strlen(go) - 2; /* go-yaml's text without its quotes */
        size_t wide = 0;               /* stand-in bytes written "\xHH", the rest "\a" */
        tfx_textbuf t;
        bool brk = false;
        size_t i;

        for (i = 0; i < n && !brk; i++)
            brk = is_line_break(s, n, i);
        /* without a line break the string can be a simple key, and the
         * stand-in then takes as many columns as go-yaml's text, so that
         * what follows on its line is folded at the same places */
        if (brk)
            wide = n;
        else if (width > 2 * n)
            wide = (width - 2 * n) / 2 < n ? (width - 2 * n) / 2 : n;
        tfx_textbuf_init(&t, e->ctx);
        tfx_textbuf_putc(&t, '"');
        for (i = 0; i < n; i++) {
            if (brk && i == 0) {
                fill[i] = '\n';
                tfx_textbuf_puts(&t, "\\n");
            } else if (i < wide) {
                fill[i] = (char)e->fill;
                tfx_textbuf_printf(&t, "\\x%02X", (unsigned)e->fill);
            } else {
                fill[i] = '\a';
                tfx_textbuf_puts(&t, "\\a");
            }
        }
        tfx_textbuf_putc(&t, '"');
        if (e->nboms == e->capboms) {
            size_t cap = e->capboms == 0 ? 4 : e->capboms * 2;
            bom_string *grown = tfx_ctx_alloc_array(e->ctx, cap, sizeof *grown);

            if (e->nboms > 0)
                memcpy(grown, e->boms, e->nboms * sizeof *grown);
            e->boms = grown;
            e->capboms = cap;
        }
        e->boms[e->nboms].go = go;
        e->boms[e->nboms].stand_in = tfx_textbuf_text(&t);
        e->boms[e->nboms].stand_in_len = t.nbytes;
        e->nboms++;
        s = fill;
        style = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
    }
    made = yaml_scalar_event_initialize(&ev, NULL, NULL, (const yaml_char_t *)s, (int)n, 1,
                                        1, style);
    return emit(e, &ev, made);
}

/* Marks in seen[] the bytes of the strings of v (keys included). */
static void note_bytes(tfx_ctx *ctx, const tfx_value *v, bool *seen)
{
    size_t i;

    tfx_ctx_step(ctx);
    if (!tfx_value_is_known(v))
        return;
    switch (v->type->kind) {
    case TFX_TYPE_STRING:
        for (i = 0; i < v->as.string.nbytes; i++)
            seen[(unsigned char)v->as.string.s[i]] = true;
        break;
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_TUPLE:
        for (i = 0; i < v->as.elems.n; i++)
            note_bytes(ctx, v->as.elems.items[i], seen);
        break;
    case TFX_TYPE_MAP:
    case TFX_TYPE_OBJECT:
        for (i = 0; i < v->as.attrs.n; i++) {
            size_t k;

            for (k = 0; k < v->as.attrs.keys[i].nbytes; k++)
                seen[(unsigned char)v->as.attrs.keys[i].s[k]] = true;
            note_bytes(ctx, v->as.attrs.vals[i], seen);
        }
        break;
    default:
        break;
    }
}

/* [fn.yamlencode.value] The value's events: null as plain "null"; a
 * string double-quoted, or as a literal block when it holds a newline
 * [fn.yamlencode.string]; a number as Go's Text('f', -1) plain
 * [fn.yamlencode.number]; "true"/"false"; lists, sets and tuples as block
 * sequences, maps and objects as block mappings with their keys in order
 * [fn.yamlencode.collections]. */
static bool encode_value(yaml_encoder *e, const tfx_value *v)
{
    tfx_ctx *ctx = e->ctx;
    const tfx_type *t = v->type;
    yaml_event_t ev;
    size_t i;

    tfx_ctx_step(ctx);
    if (tfx_value_is_null(v))
        return emit_scalar(e, "null", 4, YAML_PLAIN_SCALAR_STYLE);
    switch (t->kind) {
    case TFX_TYPE_STRING:
        return emit_scalar(e, v->as.string.s, v->as.string.nbytes,
                           memchr(v->as.string.s, '\n', v->as.string.nbytes) != NULL
                               ? YAML_LITERAL_SCALAR_STYLE
                               : YAML_DOUBLE_QUOTED_SCALAR_STYLE);
    case TFX_TYPE_NUMBER: {
        size_t nbytes = 0;
        const char *s;

        tfx_ctx_check_string(ctx, tfx_num_format_max_bytes(v->as.number));
        s = tfx_num_format(ctx->arena, v->as.number, &nbytes);
        if (s == NULL)
            tfx_fn_nomem(ctx);
        return emit_scalar(e, s, nbytes, YAML_PLAIN_SCALAR_STYLE);
    }
    case TFX_TYPE_BOOL:
        return v->as.boolean ? emit_scalar(e, "true", 4, YAML_PLAIN_SCALAR_STYLE)
                             : emit_scalar(e, "false", 5, YAML_PLAIN_SCALAR_STYLE);
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_TUPLE:
        if (!emit(e, &ev,
                  yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
                                                       YAML_BLOCK_SEQUENCE_STYLE)))
            return false;
        for (i = 0; i < v->as.elems.n; i++)
            if (!encode_value(e, v->as.elems.items[i]))
                return false;
        return emit(e, &ev, yaml_sequence_end_event_initialize(&ev));
    case TFX_TYPE_MAP:
    case TFX_TYPE_OBJECT:
        if (!emit(e, &ev,
                  yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
                                                      YAML_BLOCK_MAPPING_STYLE)))
            return false;
        for (i = 0; i < v->as.attrs.n; i++) {
            const tfx_str *k = &v->as.attrs.keys[i];

            if (!emit_scalar(e, k->s, k->nbytes, memchr(k->s, '\n', k->nbytes) != NULL
                                                     ? YAML_LITERAL_SCALAR_STYLE
                                                     : YAML_DOUBLE_QUOTED_SCALAR_STYLE))
                return false;
            if (!encode_value(e, v->as.attrs.vals[i]))
                return false;
        }
        return emit(e, &ev, yaml_mapping_end_event_initialize(&ev));
    default:
        e->error = tfx_ctx_printf(ctx, "can't marshal %s as YAML", tfx_type_friendly(ctx, t));
        return false;
    }
}

/* Whether s[0..n) is empty or ends with a line break: CR, LF, NEL (C2 85),
 * LS or PS (E2 80 A8, E2 80 A9).  (A line break that merely starts two or
 * three bytes before the end, as in "\n  ", does not count: that is an
 * indented line.) */
static bool ends_with_break(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;

    return n == 0 || u[n - 1] == '\r' || u[n - 1] == '\n' ||
           (n >= 2 && u[n - 2] == 0xC2 && u[n - 1] == 0x85) ||
           (n >= 3 && u[n - 3] == 0xE2 && u[n - 2] == 0x80 && (u[n - 1] == 0xA8 || u[n - 1] == 0xA9));
}

/* The final text from libyaml's: the stand-ins replaced
 * [fn.yamlencode.bom] and the end of the document as go-yaml writes it
 * [fn.yamlencode.end]. */
static void finish_text(yaml_encoder *e)
{
    tfx_ctx *ctx = e->ctx;
    const char *out = e->out.data != NULL ? e->out.data : "";
    size_t len = e->out.len;
    const tfx_type *t = e->value->type;
    tfx_textbuf b;
    size_t pos = 0;
    size_t i;

    /* [fn.yamlencode.end] go-yaml's emitter ends a document whose root is
     * a plain scalar (null, a number, a bool) with "..."; libyaml's ends
     * one whose last scalar is a literal block that keeps its trailing
     * line breaks ("|+") so instead, right after the last break (a
     * newline, NEL, LS or PS), which go-yaml never does.  No other
     * output ends with a break and "...\n" (a scalar's last line ends
     * with its quote, or is indented). */
    if (len >= 4 && memcmp(out + len - 4, "...\n", 4) == 0 && ends_with_break(out, len - 4))
        len -= 4;
    tfx_textbuf_init(&b, ctx);
    for (i = 0; i < e->nboms; i++) {
        const bom_string *bs = &e->boms[i];
        const char *hit = NULL;
        size_t k;

        for (k = pos; k + bs->stand_in_len <= len; k++) {
            tfx_ctx_step(ctx);
            if (memcmp(out + k, bs->stand_in, bs->stand_in_len) == 0) {
                hit = out + k;
                break;
            }
        }
        if (hit == NULL)
            continue;
        tfx_textbuf_put(&b, out + pos, (size_t)(hit - out) - pos);
        tfx_textbuf_puts(&b, bs->go);
        pos = (size_t)(hit - out) + bs->stand_in_len;
    }
    tfx_textbuf_put(&b, out + pos, len - pos);
    if (tfx_value_is_null(e->value) || t->kind == TFX_TYPE_NUMBER || t->kind == TFX_TYPE_BOOL)
        tfx_textbuf_puts(&b, "...\n");
    tfx_ctx_check_string(ctx, b.nbytes);
    e->text = tfx_textbuf_text(&b);
    e->text_len = b.nbytes;
}

/* [fn.yamlencode.document] A stream of one document with implicit start
 * and end, UTF-8, unicode characters written as they are, libyaml's
 * default indentation (2) and width (80). */
static void run_encode(tfx_ctx *ctx, void *arg)
{
    yaml_encoder *e = arg;
    yaml_event_t ev;
    bool seen[256];
    unsigned c;

    memset(seen, 0, sizeof seen);
    note_bytes(ctx, e->value, seen);
    e->fill = 0x01;
    for (c = 0x01; c < 0x20; c++)
        if (!seen[c] && c != '\t' && c != '\n' && c != '\r' && c != 0x1B && c != 0x07 &&
            c != 0x08 && c != 0x0B && c != 0x0C) {
            e->fill = (unsigned char)c;
            break;
        }
    if (!yaml_emitter_initialize(&e->emitter)) {
        e->error = "failed to write YAML token";
        return;
    }
    e->emitter_ready = true;
    yaml_emitter_set_output(&e->emitter, write_handler, e);
    yaml_emitter_set_unicode(&e->emitter, 1);
    if (!emit(e, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING)))
        return;
    if (!emit(e, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1)))
        return;
    if (!encode_value(e, e->value))
        return;
    if (!emit(e, &ev, yaml_document_end_event_initialize(&ev, 1)))
        return;
    if (!emit(e, &ev, yaml_stream_end_event_initialize(&ev)))
        return;
    if (!yaml_emitter_flush(&e->emitter)) {
        e->error = "failed to write YAML token";
        return;
    }
    if (!e->too_long && !e->out.failed)
        finish_text(e);
}

/* ---- yamlencode ---- */

/* Any value, null and dynamic allowed; an unknown value gives an unknown
 * string (the machinery's); marks are the machinery's. */
static const tfx_param yamlencode_params[] = {
    {.name = "value", .type = &tfx_type_dynamic, .allow_null = true, .allow_dynamic = true},
};

/* [fn.yamlencode.unknown] A value with an unknown anywhere gives an
 * unknown string; else the text of the emitter. */
static const tfx_value *yamlencode_impl(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_type *ret, const tfx_value *const *args,
                                        size_t nargs, tfx_func_error *err)
{
    yaml_encoder e;
    bool ok;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (!tfx_value_is_wholly_known(args[0]))
        return tfx_value_unknown(ctx, ret);
    memset(&e, 0, sizeof e);
    e.ctx = ctx;
    e.value = args[0];
    e.max_bytes = ctx->limits.max_string_bytes;
    ok = tfx_ctx_try(ctx, run_encode, &e);
    if (e.emitter_ready)
        yaml_emitter_delete(&e.emitter);
    free(e.out.data);
    if (!ok)
        tfx_ctx_fail(ctx, ctx->fail_summary, "%s", ctx->fail_detail);
    if (e.too_long)
        tfx_ctx_fail(ctx, "String length limit exceeded",
                     "A string longer than the limit of %zu bytes was about to be made.",
                     ctx->limits.max_string_bytes);
    if (e.out.failed)
        tfx_fn_nomem(ctx);
    if (e.text == NULL)
        return tfx_fn_error(err, e.error != NULL ? e.error : "failed to write YAML token");
    return tfx_value_string(ctx, e.text, e.text_len);
}

static const tfx_function tfx_fn_yamlencode = {.name = "yamlencode",
                                               .params = yamlencode_params,
                                               .nparams = TFX_COUNTOF(yamlencode_params),
                                               .varparam = NULL,
                                               .type = NULL,
                                               .ret_type = &tfx_type_str,
                                               .impl = yamlencode_impl};

/* The functions this file registers [call.builtins], sorted by name. */
const tfx_builtin tfx_builtins_yaml[] = {
    {"yamldecode", &tfx_fn_yamldecode},
    {"yamlencode", &tfx_fn_yamlencode},
    {NULL, NULL},
};
