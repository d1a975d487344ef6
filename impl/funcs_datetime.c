/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_datetime.c — the date and time functions formatdate and timeadd
 * (spec/functions-datetime.md): cty 1.12.1's stdlib FormatDateFunc and
 * TimeAddFunc, which Terraform registers as they are; and Terraform's own
 * timecmp, which reads timestamps the same way.  Timestamps are
 * read as Go 1.19's time.Parse reads the RFC 3339 layout; only numeric
 * UTC offsets exist, so no clock or time zone database is involved.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common.h"
#include "funcs_internal.h"

/* A parsed timestamp: the civil fields in its own UTC offset. */
typedef struct {
    int64_t year;
    int month, day, hour, min, sec;
    int64_t nsec;
    int64_t offset; /* seconds east of UTC */
} timestamp;

static const char *const month_names[] = {"January", "February", "March",     "April",
                                          "May",     "June",     "July",      "August",
                                          "September", "October", "November", "December"};
static const char *const day_names[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                        "Thursday", "Friday", "Saturday"};

static bool is_digit_at(const char *s, size_t n, size_t i)
{
    return i < n && s[i] >= '0' && s[i] <= '9';
}

/* Go's time.atoi: an optional sign, then digits (at least none), all of
 * s; false on anything else or overflow. */
static bool go_atoi(const char *s, size_t n, int64_t *out)
{
    bool neg = false;
    uint64_t x = 0;
    size_t i = 0;

    if (n > 0 && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        i = 1;
    }
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        if (x > (UINT64_C(1) << 63) / 10)
            return false;
        x = x * 10 + (uint64_t)(s[i] - '0');
        if (x > (UINT64_C(1) << 63))
            return false;
    }
    *out = neg ? -(int64_t)x : (int64_t)x;
    return true;
}

/* Go's getnum: one or two digits (two if fixed). */
static bool getnum(const char **s, size_t *n, bool fixed, int *out)
{
    if (!is_digit_at(*s, *n, 0))
        return false;
    if (!is_digit_at(*s, *n, 1)) {
        if (fixed)
            return false;
        *out = (*s)[0] - '0';
        *s += 1;
        *n -= 1;
        return true;
    }
    *out = ((*s)[0] - '0') * 10 + ((*s)[1] - '0');
    *s += 2;
    *n -= 2;
    return true;
}

static bool is_leap(int64_t y)
{
    return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

static int days_in(int m, int64_t y)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

    return m == 2 && is_leap(y) ? 29 : days[m - 1];
}

/* Days from 1970-01-01 of a proleptic Gregorian date, and back. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    int64_t era, yoe, doy, doe;

    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    int64_t era, doe, yoe, doy, mp;

    z += 719468;
    era = (z >= 0 ? z : z - 146096) / 146097;
    doe = z - era * 146097;
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;

    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* The message of cty's parseTimestamp for Go's ParseError(layoutElem,
 * valueElem, message) [fn.formatdate.timestamp-errors]. */
static const char *parse_error(tfx_ctx *ctx, const char *layout_elem, const char *value,
                               size_t nvalue, const char *message)
{
    const char *what;

    if (layout_elem[0] == '\0' && nvalue == 0 && message != NULL)
        return tfx_ctx_printf(ctx, "not a valid RFC3339 timestamp%s", message);
    if (strcmp(layout_elem, "2006") == 0)
        what = "year";
    else if (strcmp(layout_elem, "01") == 0)
        what = "month";
    else if (strcmp(layout_elem, "02") == 0)
        what = "day of month";
    else if (strcmp(layout_elem, "15") == 0)
        what = "hour";
    else if (strcmp(layout_elem, "04") == 0)
        what = "minute";
    else if (strcmp(layout_elem, "05") == 0)
        what = "second";
    else if (strcmp(layout_elem, "Z07:00") == 0)
        what = "UTC offset";
    else if (strcmp(layout_elem, "T") == 0)
        return "not a valid RFC3339 timestamp: missing required time introducer 'T'";
    else if (strcmp(layout_elem, ":") == 0 || strcmp(layout_elem, "-") == 0) {
        if (nvalue == 0)
            return tfx_ctx_printf(ctx,
                                  "not a valid RFC3339 timestamp: end of string where \"%s\" "
                                  "is expected",
                                  layout_elem);
        return tfx_ctx_printf(ctx,
                              "not a valid RFC3339 timestamp: found %s where \"%s\" is expected",
                              tfx_textbuf_quoted(ctx, value, nvalue), layout_elem);
    } else
        what = "timestamp segment";
    if (nvalue == 0)
        return tfx_ctx_printf(ctx, "not a valid RFC3339 timestamp: end of string before %s", what);
    return tfx_ctx_printf(ctx, "not a valid RFC3339 timestamp: cannot use %s as %s",
                          tfx_textbuf_quoted(ctx, value, nvalue), what);
}

/* Skips the layout literal c ("-", "T", ":"); false if value does not
 * start with it. */
static bool skip_literal(const char **s, size_t *n, char c)
{
    if (*n == 0 || (*s)[0] != c)
        return false;
    *s += 1;
    *n -= 1;
    return true;
}

/* The unsigned decimal s[0..n) if it lies in [min, max]; -1 if not (or
 * not all digits). */
static int bounded_uint(const char *s, size_t n, int min, int max)
{
    int x = 0;

    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        x = x * 10 + (s[i] - '0');
    }
    return x < min || x > max ? -1 : x;
}

/* [fn.formatdate.timestamp.pn] Whether s[0..n) is the strict RFC 3339 of
 * cty 1.13's parseRFC3339: YYYY-MM-DDThh:mm:ss with every field of two
 * (four) digits in range, an optional "." fraction, then Z or a +hh:mm
 * or -hh:mm offset with hh <= 23 and mm <= 59. */
static bool strict_rfc3339(const char *s, size_t n)
{
    int year, month;
    size_t i = 19;

    if (n < 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':')
        return false;
    year = bounded_uint(s, 4, 0, 9999);
    month = bounded_uint(s + 5, 2, 1, 12);
    if (year < 0 || month < 0 || bounded_uint(s + 8, 2, 1, days_in(month, year)) < 0
        || bounded_uint(s + 11, 2, 0, 23) < 0 || bounded_uint(s + 14, 2, 0, 59) < 0
        || bounded_uint(s + 17, 2, 0, 59) < 0)
        return false;
    if (n - i >= 2 && s[i] == '.' && is_digit_at(s, n, i + 1))
        for (i += 2; is_digit_at(s, n, i); i++)
            ;
    if (n - i == 1 && s[i] == 'Z')
        return true;
    return n - i == 6 && (s[i] == '+' || s[i] == '-') && s[i + 3] == ':'
           && bounded_uint(s + i + 1, 2, 0, 23) >= 0 && bounded_uint(s + i + 4, 2, 0, 59) >= 0;
}

/* [fn.formatdate.timestamp.pn] Go 1.23's time.Parse reads a ±hh:mm
 * offset's fields as unsigned numbers, hh at most 24 and mm at most 60
 * (s[0..n) ends with the offset, which has been read). */
static bool go123_offset_ok(const char *s, size_t n)
{
    return n >= 6 && bounded_uint(s + n - 5, 2, 0, 24) >= 0 && bounded_uint(s + n - 2, 2, 0, 60) >= 0;
}

/* [fn.formatdate.timestamp.pn] Profile PN: cty 1.13's parseStrictRFC3339
 * refuses a timestamp that Go's time.Parse reads but strict_rfc3339 does
 * not, with one of its messages. */
static const char *strict_rfc3339_error(tfx_ctx *ctx, const char *s, size_t n)
{
    if (n > 12 && s[12] == ':')
        return "not a valid RFC3339 timestamp: hour must have two digits";
    if (n > 19 && s[19] == ',')
        return "not a valid RFC3339 timestamp: sub-second separator must be a period";
    if (n >= 5 && s[n - 1] != 'Z') {
        /* Go's num2 on two bytes, in byte arithmetic */
        uint8_t zh, zm;

        zh = (uint8_t)(10u * (uint8_t)(s[n - 5] - '0') + (uint8_t)(s[n - 4] - '0'));
        zm = (uint8_t)(10u * (uint8_t)(s[n - 2] - '0') + (uint8_t)(s[n - 1] - '0'));
        if (zh >= 24)
            return "not a valid RFC3339 timestamp: timezone hour out of range";
        if (zm >= 60)
            return "not a valid RFC3339 timestamp: timezone minute out of range";
        return NULL;
    }
    return tfx_ctx_printf(ctx, "not a valid RFC3339 timestamp: cannot use %s as %s",
                          tfx_textbuf_quoted(ctx, s, n), "2006-01-02T15:04:05Z07:00");
}

/* [fn.formatdate.timestamp] Go 1.19's time.Parse(time.RFC3339, text):
 * the timestamp, or NULL with *error set to cty's message. */
static bool parse_timestamp(tfx_ctx *ctx, const char *s, size_t n, bool cty_strict,
                            timestamp *t, const char **error)
{
    /* layout elements after their literal prefix */
    static const char seps[] = {'\0', '-', '-', 'T', ':', ':'};
    static const char *const elems[] = {"2006", "01", "02", "15", "04", "05"};
    int64_t v64 = 0;
    int vals[6] = {0};
    size_t k;
    const char *start = s;
    size_t nstart = n;

    memset(t, 0, sizeof *t);
    for (k = 0; k < 6; k++) {
        const char *range = NULL;
        bool ok = true;

        if (seps[k] != '\0' && !skip_literal(&s, &n, seps[k])) {
            char lit[2] = {seps[k], '\0'};

            *error = parse_error(ctx, lit, s, n, NULL);
            return false;
        }
        switch (k) {
        case 0: /* 2006: four characters, the first a digit, read by atoi */
            if (n < 4 || !is_digit_at(s, n, 0)) {
                ok = false;
                break;
            }
            ok = go_atoi(s, 4, &v64);
            s += 4;
            n -= 4;
            t->year = v64;
            break;
        case 1: /* 01 */
            ok = getnum(&s, &n, true, &vals[1]);
            if (ok && (vals[1] <= 0 || vals[1] > 12))
                range = "month";
            break;
        case 2: /* 02: the day is checked after the whole */
            ok = getnum(&s, &n, true, &vals[2]);
            break;
        case 3: /* 15: one or two digits */
            ok = getnum(&s, &n, false, &vals[3]);
            if (vals[3] >= 24)
                range = "hour";
            break;
        case 4: /* 04 */
            ok = getnum(&s, &n, true, &vals[4]);
            if (vals[4] >= 60)
                range = "minute";
            break;
        default: /* 05, then an optional fraction of any length */
            ok = getnum(&s, &n, true, &vals[5]);
            if (vals[5] >= 60) {
                range = "second";
                break;
            }
            if (n >= 2 && (s[0] == '.' || s[0] == ',') && is_digit_at(s, n, 1)) {
                size_t nd = 2, take;
                int64_t ns = 0;

                while (nd < n && is_digit_at(s, n, nd))
                    nd++;
                take = nd > 10 ? 10 : nd;
                (void)go_atoi(s + 1, take - 1, &ns);
                for (; take < 10; take++)
                    ns *= 10;
                t->nsec = ns;
                /* Go 1.19's parseNanoseconds replaces getnum's error;
                 * Go 1.23 keeps it (PN, [fn.formatdate.timestamp.pn]) */
                ok = ok || !ctx->pn;
                s += nd;
                n -= nd;
            }
            break;
        }
        if (range != NULL) {
            *error = parse_error(ctx, elems[k], s, n,
                                 tfx_ctx_printf(ctx, ": %s out of range", range));
            return false;
        }
        if (!ok) {
            *error = parse_error(ctx, elems[k], s, n, NULL);
            return false;
        }
    }
    /* Z07:00 */
    if (n >= 1 && s[0] == 'Z') {
        s++;
        n--;
        t->offset = 0;
    } else {
        int64_t hr = 0, mm = 0;
        bool ok = n >= 6 && s[3] == ':';

        if (ok) {
            char sign = s[0];

            ok = go_atoi(s + 1, 2, &hr) && go_atoi(s + 4, 2, &mm);
            s += 6;
            n -= 6;
            t->offset = (hr * 60 + mm) * 60;
            if (sign == '-')
                t->offset = -t->offset;
            else if (sign != '+')
                ok = false;
        }
        if (!ok) {
            *error = parse_error(ctx, "Z07:00", s, n, NULL);
            return false;
        }
    }
    if (n != 0) {
        *error = parse_error(ctx, "", s, n, NULL);
        return false;
    }
    if (vals[2] < 1 || vals[2] > days_in(vals[1], t->year)) {
        *error = parse_error(ctx, "", s, 0, ": day out of range");
        return false;
    }
    t->month = vals[1];
    t->day = vals[2];
    t->hour = vals[3];
    t->min = vals[4];
    t->sec = vals[5];
    if (ctx->pn && start[nstart - 1] != 'Z' && !go123_offset_ok(start, nstart)) {
        *error = "not a valid RFC3339 timestamp: time zone offset out of range";
        return false;
    }
    if (ctx->pn && cty_strict && !strict_rfc3339(start, nstart)) {
        *error = strict_rfc3339_error(ctx, start, nstart);
        return *error == NULL;
    }
    return true;
}

/* Go's appendInt(x, width): a minus sign, then the digits zero-padded to
 * width. */
static void put_int(tfx_textbuf *b, int64_t x, int width)
{
    char digits[24];
    uint64_t u = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
    int i = (int)sizeof digits;

    if (x < 0)
        tfx_textbuf_putc(b, '-');
    do {
        digits[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u > 0);
    for (; (int)sizeof digits - i < width; width--)
        tfx_textbuf_putc(b, '0');
    tfx_textbuf_put(b, digits + i, sizeof digits - (size_t)i);
}

/* Go's formatting of a UTC offset: "Z" for 0 when z_for_utc, else a sign,
 * hours (two digits at least), an optional colon and minutes. */
static void put_offset(tfx_textbuf *b, int64_t offset, bool z_for_utc, bool colon)
{
    int64_t zone = offset / 60;

    if (offset == 0 && z_for_utc) {
        tfx_textbuf_putc(b, 'Z');
        return;
    }
    if (zone < 0) {
        tfx_textbuf_putc(b, '-');
        zone = -zone;
    } else
        tfx_textbuf_putc(b, '+');
    put_int(b, zone / 60, 2);
    if (colon)
        tfx_textbuf_putc(b, ':');
    put_int(b, zone % 60, 2);
}

/* ---- formatdate [fn.formatdate] ---- */

static const tfx_param formatdate_params[] = {
    {.name = "format", .type = &tfx_type_str},
    {.name = "time", .type = &tfx_type_str},
};

static bool is_verb(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* One verb token tok[0..n) of the letter tok[0]; NULL when written, else
 * the argument error message. */
static const char *format_verb(tfx_ctx *ctx, tfx_textbuf *b, const char *tok, size_t n,
                               const timestamp *t, int weekday)
{
    const char *q = tfx_textbuf_quoted(ctx, tok, n);
    int h12;

    switch (tok[0]) {
    case 'Y':
        if (n == 2) {
            put_int(b, t->year % 100, 2);
            return NULL;
        }
        if (n == 4) {
            put_int(b, t->year, 4);
            return NULL;
        }
        return tfx_ctx_printf(ctx,
                              "invalid date format verb %s: year must either be \"YY\" or \"YYYY\"",
                              q);
    case 'M':
        if (n == 1 || n == 2)
            put_int(b, t->month, (int)n);
        else if (n == 3)
            tfx_textbuf_put(b, month_names[t->month - 1], 3);
        else if (n == 4)
            tfx_textbuf_puts(b, month_names[t->month - 1]);
        else
            return tfx_ctx_printf(ctx,
                                  "invalid date format verb %s: month must be \"M\", \"MM\", "
                                  "\"MMM\", or \"MMMM\"",
                                  q);
        return NULL;
    case 'D':
        if (n > 2)
            return tfx_ctx_printf(
                ctx, "invalid date format verb %s: day of month must either be \"D\" or \"DD\"", q);
        put_int(b, t->day, (int)n);
        return NULL;
    case 'E':
        if (n == 3)
            tfx_textbuf_put(b, day_names[weekday], 3);
        else if (n == 4)
            tfx_textbuf_puts(b, day_names[weekday]);
        else
            return tfx_ctx_printf(
                ctx, "invalid date format verb %s: day of week must either be \"EEE\" or \"EEEE\"",
                q);
        return NULL;
    case 'h':
        if (n > 2)
            return tfx_ctx_printf(
                ctx, "invalid date format verb %s: 24-hour must either be \"h\" or \"hh\"", q);
        put_int(b, t->hour, (int)n);
        return NULL;
    case 'H':
        if (n > 2)
            return tfx_ctx_printf(
                ctx, "invalid date format verb %s: 12-hour must either be \"H\" or \"HH\"", q);
        h12 = t->hour % 12;
        put_int(b, h12 == 0 ? 12 : h12, (int)n);
        return NULL;
    case 'A':
    case 'a':
        if (n != 2)
            return tfx_ctx_printf(ctx, "invalid date format verb %s: must be \"%c%c\"", q, tok[0],
                                  tok[0]);
        if (tok[0] == 'A')
            tfx_textbuf_puts(b, t->hour < 12 ? "AM" : "PM");
        else
            tfx_textbuf_puts(b, t->hour < 12 ? "am" : "pm");
        return NULL;
    case 'm':
        if (n > 2)
            return tfx_ctx_printf(
                ctx, "invalid date format verb %s: minute must either be \"m\" or \"mm\"", q);
        put_int(b, t->min, (int)n);
        return NULL;
    case 's':
        if (n > 2)
            return tfx_ctx_printf(
                ctx, "invalid date format verb %s: second must either be \"s\" or \"ss\"", q);
        put_int(b, t->sec, (int)n);
        return NULL;
    case 'Z':
        if (n == 1)
            put_offset(b, t->offset, true, true);
        else if (n == 3 && t->offset / 60 == 0)
            tfx_textbuf_puts(b, "UTC");
        else if (n == 3 || n == 4)
            put_offset(b, t->offset, false, false);
        else if (n == 5)
            put_offset(b, t->offset, false, true);
        else
            return tfx_ctx_printf(
                ctx, "invalid date format verb %s: timezone must be Z, ZZZZ, or ZZZZZ", q);
        return NULL;
    default:
        return tfx_ctx_printf(ctx, "invalid date format verb %s", q);
    }
}

/* cty's splitDateFormat on data[0..n): 1 with *adv = *toklen the token's
 * length, or 0 when it needs more data (never when at_eof, except for
 * empty data). */
static int split_format(const char *data, size_t n, bool at_eof, size_t *toklen)
{
    size_t i;

    if (n == 0)
        return 0;
    if (data[0] == '\'') {
        if (n > 1 && data[1] == '\'') {
            *toklen = 2;
            return 1;
        }
        for (i = 1; i < n; i++) {
            if (data[i] != '\'')
                continue;
            if (i + 1 == n) {
                if (!at_eof)
                    return 0;
                *toklen = n;
                return 1;
            }
            if (data[i + 1] == '\'') {
                i++;
                continue;
            }
            *toklen = i + 1;
            return 1;
        }
        if (!at_eof)
            return 0;
        *toklen = n;
        return 1;
    }
    if (is_verb(data[0])) {
        for (i = 1; i < n; i++)
            if (data[i] != data[0]) {
                *toklen = i;
                return 1;
            }
        if (!at_eof)
            return 0;
        *toklen = n;
        return 1;
    }
    for (i = 1; i < n; i++)
        if (data[i] == '\'' || is_verb(data[i]))
            break;
    *toklen = i;
    return 1;
}

/* Go's bufio.Scanner over a strings.Reader of text[0..total), with
 * split_format: buffer of 4096 bytes doubling up to 64 KiB; a token that
 * cannot be decided within a full 64 KiB buffer ends the scan (ErrTooLong,
 * which cty ignores). */
typedef struct {
    const char *text;
    size_t total;
    size_t base, start, end, cap;
    bool eof;
} date_scanner;

#define SCAN_START_BUF ((size_t)4096)
#define SCAN_MAX_TOKEN ((size_t)65536)

/* The next token's offset and length in text; false when the scan ends. */
static bool scan_format(tfx_ctx *ctx, date_scanner *sc, size_t *off, size_t *len)
{
    for (;;) {
        tfx_ctx_step(ctx);
        if (sc->end > sc->start || sc->eof) {
            size_t toklen = 0;

            if (split_format(sc->text + sc->base + sc->start, sc->end - sc->start, sc->eof,
                             &toklen)) {
                *off = sc->base + sc->start;
                *len = toklen;
                sc->start += toklen;
                return true;
            }
        }
        if (sc->eof)
            return false;
        if (sc->start > 0 && (sc->end == sc->cap || sc->start > sc->cap / 2)) {
            sc->base += sc->start;
            sc->end -= sc->start;
            sc->start = 0;
        }
        if (sc->end == sc->cap) {
            size_t ncap = sc->cap == 0 ? SCAN_START_BUF : sc->cap * 2;

            if (sc->cap >= SCAN_MAX_TOKEN)
                return false; /* bufio.ErrTooLong */
            sc->cap = ncap > SCAN_MAX_TOKEN ? SCAN_MAX_TOKEN : ncap;
            sc->base += sc->start;
            sc->end -= sc->start;
            sc->start = 0;
        }
        {
            size_t avail = sc->total - (sc->base + sc->end), room = sc->cap - sc->end;

            if (avail == 0)
                sc->eof = true;
            else
                sc->end += avail < room ? avail : room;
        }
    }
}

/* [fn.formatdate.result] [fn.formatdate.tokens] [fn.formatdate.verbs]
 * The timestamp is parsed first (argument error on `time`); then the
 * format is split into tokens as cty's splitDateFormat does under Go's
 * bufio.Scanner (scan_format): a quoted literal ('' is one quote; 'x''y'
 * gives x'y; a token that is a lone quote or does not end with one is
 * the argument error "unterminated literal '"), a run of one repeated
 * ASCII letter (a verb, format_verb), or a run of other bytes (copied). */
static const tfx_value *formatdate_impl(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_type *ret, const tfx_value *const *args,
                                        size_t nargs, tfx_func_error *err)
{
    const char *f = args[0]->as.string.s;
    date_scanner sc;
    const char *error = NULL;
    size_t off = 0, len = 0;
    tfx_textbuf b;
    timestamp t;
    int weekday;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (!parse_timestamp(ctx, args[1]->as.string.s, args[1]->as.string.nbytes, true, &t, &error))
        return tfx_fn_arg_error(err, 1, error);
    {
        int64_t x = days_from_civil(t.year, t.month, t.day) + 4; /* 1970-01-01: Thursday */

        weekday = (int)(x - floor_div(x, 7) * 7);
    }
    memset(&sc, 0, sizeof sc);
    sc.text = f;
    sc.total = args[0]->as.string.nbytes;
    tfx_textbuf_init(&b, ctx);
    while (scan_format(ctx, &sc, &off, &len)) {
        const char *tok = f + off;

        if (tok[0] == '\'') {
            size_t k;

            if (len == 1 || tok[len - 1] != '\'')
                return tfx_fn_arg_error(err, 0, "unterminated literal '");
            if (len == 2)
                tfx_textbuf_putc(&b, '\'');
            for (k = 1; len > 2 && k < len - 1; k++) {
                tfx_textbuf_putc(&b, tok[k]);
                if (tok[k] == '\'')
                    k++;
            }
        } else if (is_verb(tok[0])) {
            const char *msg = format_verb(ctx, &b, tok, len, &t, weekday);

            if (msg != NULL)
                return tfx_fn_arg_error(err, 0, msg);
        } else
            tfx_textbuf_put(&b, tok, len);
    }
    tfx_ctx_check_string(ctx, b.nbytes);
    return tfx_value_string(ctx, tfx_textbuf_text(&b), b.nbytes);
}

static const tfx_function tfx_fn_formatdate = {.name = "formatdate",
                                               .params = formatdate_params,
                                               .nparams = TFX_COUNTOF(formatdate_params),
                                               .varparam = NULL,
                                               .type = NULL,
                                               .ret_type = &tfx_type_str,
                                               .impl = formatdate_impl};

/* ---- timeadd [fn.timeadd] ---- */

static const tfx_param timeadd_params[] = {
    {.name = "timestamp", .type = &tfx_type_str},
    {.name = "duration", .type = &tfx_type_str},
};

/* Go's time.quote, for duration messages: printable ASCII as itself (" and
 * \ escaped), every byte of any other character as \xNN. */
static const char *go_time_quote(tfx_ctx *ctx, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    tfx_textbuf b;
    size_t i;

    tfx_textbuf_init(&b, ctx);
    tfx_textbuf_putc(&b, '"');
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c >= 0x80 || c < 0x20) {
            tfx_textbuf_puts(&b, "\\x");
            tfx_textbuf_putc(&b, hex[c >> 4]);
            tfx_textbuf_putc(&b, hex[c & 15]);
        } else {
            if (c == '"' || c == '\\')
                tfx_textbuf_putc(&b, '\\');
            tfx_textbuf_putc(&b, (char)c);
        }
    }
    tfx_textbuf_putc(&b, '"');
    return tfx_textbuf_text(&b);
}

/* [fn.timeadd.duration] Go 1.19's time.ParseDuration: *out in
 * nanoseconds, or NULL-returning with *error set to Go's message. */
static bool parse_duration(tfx_ctx *ctx, const char *orig, size_t norig, int64_t *out,
                           const char **error)
{
    const uint64_t limit = UINT64_C(1) << 63;
    const char *s = orig;
    size_t n = norig;
    uint64_t d = 0;
    bool neg = false;
    const char *invalid = tfx_ctx_printf(ctx, "time: invalid duration %s",
                                         go_time_quote(ctx, orig, norig));

    if (n > 0 && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        s++;
        n--;
    }
    if (n == 1 && s[0] == '0') {
        *out = 0;
        return true;
    }
    if (n == 0) {
        *error = invalid;
        return false;
    }
    while (n > 0) {
        uint64_t v = 0, f = 0, unit = 0;
        double scale = 1;
        bool pre = false, post = false;
        size_t i;

        tfx_ctx_step(ctx);
        if (!(s[0] == '.' || (s[0] >= '0' && s[0] <= '9'))) {
            *error = invalid;
            return false;
        }
        while (n > 0 && s[0] >= '0' && s[0] <= '9') {
            if (v > limit / 10) {
                *error = invalid;
                return false;
            }
            v = v * 10 + (uint64_t)(s[0] - '0');
            if (v > limit) {
                *error = invalid;
                return false;
            }
            pre = true;
            s++;
            n--;
        }
        if (n > 0 && s[0] == '.') {
            bool overflow = false;

            s++;
            n--;
            while (n > 0 && s[0] >= '0' && s[0] <= '9') {
                post = true;
                if (!overflow) {
                    if (f > (limit - 1) / 10) {
                        overflow = true;
                    } else {
                        uint64_t y = f * 10 + (uint64_t)(s[0] - '0');

                        if (y > limit)
                            overflow = true;
                        else {
                            f = y;
                            scale *= 10;
                        }
                    }
                }
                s++;
                n--;
            }
        }
        if (!pre && !post) {
            *error = invalid;
            return false;
        }
        for (i = 0; i < n; i++)
            if (s[i] == '.' || (s[i] >= '0' && s[i] <= '9'))
                break;
        if (i == 0) {
            *error = tfx_ctx_printf(ctx, "time: missing unit in duration %s",
                                    go_time_quote(ctx, orig, norig));
            return false;
        }
        if (i == 2 && memcmp(s, "ns", 2) == 0)
            unit = 1;
        else if ((i == 2 && memcmp(s, "us", 2) == 0) || (i == 3 && memcmp(s, "\xc2\xb5s", 3) == 0)
                 || (i == 3 && memcmp(s, "\xce\xbcs", 3) == 0))
            unit = 1000;
        else if (i == 2 && memcmp(s, "ms", 2) == 0)
            unit = 1000000;
        else if (i == 1 && s[0] == 's')
            unit = UINT64_C(1000000000);
        else if (i == 1 && s[0] == 'm')
            unit = UINT64_C(60000000000);
        else if (i == 1 && s[0] == 'h')
            unit = UINT64_C(3600000000000);
        if (unit == 0) {
            *error = tfx_ctx_printf(ctx, "time: unknown unit %s in duration %s",
                                    go_time_quote(ctx, s, i), go_time_quote(ctx, orig, norig));
            return false;
        }
        s += i;
        n -= i;
        if (v > limit / unit) {
            *error = invalid;
            return false;
        }
        v *= unit;
        if (f > 0) {
            v += (uint64_t)((double)f * ((double)unit / scale));
            if (v > limit) {
                *error = invalid;
                return false;
            }
        }
        d += v;
        if (d > limit) {
            *error = invalid;
            return false;
        }
    }
    if (neg) {
        *out = (int64_t)(0 - d);
        return true;
    }
    if (d > limit - 1) {
        *error = invalid;
        return false;
    }
    *out = (int64_t)d;
    return true;
}

/* [fn.timeadd.result] The timestamp (plain error on a bad one, cty's
 * message), then the duration (plain error, Go's message); the result is
 * the instant plus the duration in the timestamp's own UTC offset, written
 * as RFC 3339 without fractional seconds: the year with at least four
 * digits (a minus sign before a negative one), "Z" for offset 0, else
 * +hh:mm. */
static const tfx_value *timeadd_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                     const tfx_value *const *args, size_t nargs,
                                     tfx_func_error *err)
{
    const char *error = NULL;
    int64_t dur = 0, secs, nsec, days, rem, year;
    int month, day;
    tfx_textbuf b;
    timestamp t;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (!parse_timestamp(ctx, args[0]->as.string.s, args[0]->as.string.nbytes, true, &t, &error))
        return tfx_fn_error(err, error);
    if (!parse_duration(ctx, args[1]->as.string.s, args[1]->as.string.nbytes, &dur, &error))
        return tfx_fn_error(err, error);
    /* local seconds since 1970 in the timestamp's offset, plus the
     * duration (Go's Time.Add: whole seconds, then nanosecond carry) */
    secs = days_from_civil(t.year, t.month, t.day) * 86400 + (int64_t)t.hour * 3600
           + (int64_t)t.min * 60 + t.sec;
    secs += dur / 1000000000;
    nsec = t.nsec + dur % 1000000000;
    if (nsec >= 1000000000)
        secs++;
    else if (nsec < 0)
        secs--;
    days = floor_div(secs, 86400);
    rem = secs - days * 86400;
    civil_from_days(days, &year, &month, &day);
    tfx_textbuf_init(&b, ctx);
    put_int(&b, year, 4);
    tfx_textbuf_putc(&b, '-');
    put_int(&b, month, 2);
    tfx_textbuf_putc(&b, '-');
    put_int(&b, day, 2);
    tfx_textbuf_putc(&b, 'T');
    put_int(&b, rem / 3600, 2);
    tfx_textbuf_putc(&b, ':');
    put_int(&b, rem / 60 % 60, 2);
    tfx_textbuf_putc(&b, ':');
    put_int(&b, rem % 60, 2);
    put_offset(&b, t.offset, true, true);
    return tfx_value_string(ctx, tfx_textbuf_text(&b), b.nbytes);
}

static const tfx_function tfx_fn_timeadd = {.name = "timeadd",
                                            .params = timeadd_params,
                                            .nparams = TFX_COUNTOF(timeadd_params),
                                            .varparam = NULL,
                                            .type = NULL,
                                            .ret_type = &tfx_type_str,
                                            .impl = timeadd_impl};

/* ---- timecmp [fn.timecmp] ---- */

/* Terraform's own timecmp (internal/lang/funcs/datetime.go): two plain
 * string parameters. */
static const tfx_param timecmp_params[] = {
    {.name = "timestamp_a", .type = &tfx_type_str},
    {.name = "timestamp_b", .type = &tfx_type_str},
};

/* The instant of t: seconds since 1970-01-01T00:00:00Z (the civil fields
 * less the offset); t's nanoseconds complete it. */
static int64_t instant_seconds(const timestamp *t)
{
    return days_from_civil(t->year, t->month, t->day) * 86400 + (int64_t)t->hour * 3600 +
           (int64_t)t->min * 60 + t->sec - t->offset;
}

/* [fn.timecmp.parse] [fn.timecmp.errors] [fn.timecmp.result] Each
 * timestamp is read as Go 1.19's time.Parse(time.RFC3339, ...) reads it
 * (parse_timestamp, with the same rephrased messages as formatdate's),
 * timestamp_a first; a failure is an ARGUMENT error of that argument.
 * The result is -1, 0 or 1 as the instant of timestamp_a is before, the
 * same as, or after that of timestamp_b (offsets applied, fractions of a
 * second to the nanosecond). */
static const tfx_value *timecmp_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                     const tfx_value *const *args, size_t nargs,
                                     tfx_func_error *err)
{
    const char *error = NULL;
    timestamp ta, tb;
    int64_t sa, sb;
    int cmp;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (!parse_timestamp(ctx, args[0]->as.string.s, args[0]->as.string.nbytes, false, &ta, &error))
        return tfx_fn_arg_error(err, 0, error);
    if (!parse_timestamp(ctx, args[1]->as.string.s, args[1]->as.string.nbytes, false, &tb, &error))
        return tfx_fn_arg_error(err, 1, error);
    sa = instant_seconds(&ta);
    sb = instant_seconds(&tb);
    if (sa != sb)
        cmp = sa < sb ? -1 : 1;
    else if (ta.nsec != tb.nsec)
        cmp = ta.nsec < tb.nsec ? -1 : 1;
    else
        cmp = 0;
    return tfx_value_int(ctx, cmp);
}

static const tfx_function tfx_fn_timecmp = {.name = "timecmp",
                                            .params = timecmp_params,
                                            .nparams = TFX_COUNTOF(timecmp_params),
                                            .varparam = NULL,
                                            .type = NULL,
                                            .ret_type = &tfx_type_number,
                                            .impl = timecmp_impl};

/* The functions this file registers [call.builtins], sorted by name. */
const tfx_builtin tfx_builtins_datetime[] = {
    {"formatdate", &tfx_fn_formatdate},
    {"timeadd", &tfx_fn_timeadd},
    {"timecmp", &tfx_fn_timecmp},
    {NULL, NULL},
};
