/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_encoding.c — encoding functions [fn.jsonencode]: cty 1.12.1's
 * stdlib JSONEncodeFunc, which Terraform registers as it is.  The JSON
 * text itself is jsonio's (cty's json.Marshal).
 */
#include <errno.h>
#include <iconv.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <nettle/base64.h>

#include "common.h"
#include "funcs_internal.h"
#include "jsonio.h"
#include "refine.h"
#include "text.h"

/* Any value, null included; unknown and marked ones are the machinery's
 * (an unknown argument gives an unknown string; marks anywhere in the
 * value go on the result, semantics FN8). */
static const tfx_param jsonencode_params[] = {
    {.name = "val", .type = &tfx_type_dynamic, .allow_null = true, .allow_dynamic = true},
};

/* [fn.jsonencode.result] A value with an unknown anywhere in it gives an
 * unknown string; null gives "null"; otherwise the compact JSON of the
 * value (cty's json.Marshal), as a new string value.  An infinity
 * anywhere is the plain error "cannot serialize infinity as JSON". */
static const tfx_value *jsonencode_impl(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_type *ret, const tfx_value *const *args,
                                        size_t nargs, tfx_func_error *err)
{
    const tfx_value *val = args[0];
    const char *error = NULL;
    const char *text;
    size_t nbytes = 0;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (!tfx_value_is_wholly_known(val))
        return tfx_value_unknown(ctx, ret);
    if (tfx_value_is_null(val))
        return tfx_value_string(ctx, "null", 4);
    text = tfx_json_encode_plain(ctx, val, &nbytes, &error);
    if (text == NULL)
        return tfx_fn_error(err, error != NULL ? error : "cannot serialize the value as JSON");
    tfx_ctx_check_string(ctx, nbytes);
    return tfx_value_string(ctx, text, nbytes);
}

const tfx_function tfx_fn_jsonencode = {.name = "jsonencode",
                                        .params = jsonencode_params,
                                        .nparams = TFX_COUNTOF(jsonencode_params),
                                        .varparam = NULL,
                                        .type = NULL,
                                        .ret_type = &tfx_type_str,
                                        .impl = jsonencode_impl};

/* ---- csvdecode ---- */

/* Go 1.19's encoding/csv Reader with the default settings (comma ',', no
 * comments, no lazy quotes, no space trimming) over a string. */
typedef struct {
    const char *s;
    size_t n, pos;
    long num_line;
    long fields_per_record; /* 0: not checked */
} csv_reader;

/* One line (Reader.readLine): its bytes without the line end in
 * *line[0..*len), *nl whether it ended with "\n" ("\r\n" counts as "\n");
 * a last line without "\n" loses one trailing "\r".  False at the end of
 * the text (nothing read). */
static bool csv_read_line(csv_reader *r, const char **line, size_t *len, bool *nl)
{
    size_t start = r->pos, end;
    const char *p = memchr(r->s + start, '\n', r->n - start);

    r->num_line++;
    if (p != NULL) {
        end = (size_t)(p - r->s) + 1;
        *nl = true;
    } else {
        end = r->n;
        *nl = false;
    }
    r->pos = end;
    *line = r->s + start;
    *len = end - start;
    if (*len == 0)
        return false;
    if (*nl) {
        (*len)--;
        if (*len > 0 && (*line)[*len - 1] == '\r')
            (*len)--;
    } else if ((*line)[*len - 1] == '\r')
        (*len)--;
    return true;
}

typedef enum { CSV_OK, CSV_EOF, CSV_ERROR } csv_status;

/* [fn.csvdecode.records] [fn.csvdecode.errors] One record
 * (Reader.readRecord): the fields in *fields (arena), or
 * CSV_EOF, or CSV_ERROR with *error set to cty's csvError message. */
static csv_status csv_read_record(tfx_ctx *ctx, csv_reader *r, tfx_str **fields,
                                  size_t *nfields, const char **error)
{
    const char *line = NULL;
    size_t len = 0, cap = 8, nf = 0;
    bool nl = false, got = false;
    long rec_line, pos_line;
    const char *err_kind = NULL;
    long err_line = 0;
    tfx_textbuf field;
    tfx_str *fs;

    for (;;) {
        tfx_ctx_step(ctx);
        got = csv_read_line(r, &line, &len, &nl);
        if (got && len == 0)
            continue; /* empty line */
        break;
    }
    if (!got)
        return CSV_EOF;
    rec_line = r->num_line;
    pos_line = r->num_line;
    fs = tfx_ctx_alloc_array(ctx, cap, sizeof *fs);
    for (;;) {
        tfx_ctx_step(ctx);
        tfx_textbuf_init(&field, ctx);
        tfx_textbuf_put(&field, "", 0);
        if (nf == cap) {
            tfx_str *bigger = tfx_ctx_alloc_array(ctx, cap * 2, sizeof *fs);

            memcpy(bigger, fs, nf * sizeof *fs);
            fs = bigger;
            cap *= 2;
        }
        if (len == 0 || line[0] != '"') {
            const char *comma = memchr(line, ',', len);
            size_t flen = comma != NULL ? (size_t)(comma - line) : len;

            if (memchr(line, '"', flen) != NULL) {
                err_kind = "bare \" in non-quoted-field";
                err_line = r->num_line;
                break;
            }
            fs[nf].s = tfx_ctx_strndup(ctx, line, flen);
            fs[nf++].nbytes = flen;
            if (comma == NULL)
                break;
            line += flen + 1;
            len -= flen + 1;
            continue;
        }
        /* a quoted field */
        line++;
        len--;
        for (;;) {
            const char *q = memchr(line, '"', len);

            tfx_ctx_step(ctx);
            if (q != NULL) {
                size_t i = (size_t)(q - line);

                tfx_textbuf_put(&field, line, i);
                line += i + 1;
                len -= i + 1;
                if (len > 0 && line[0] == '"') {
                    tfx_textbuf_putc(&field, '"');
                    line++;
                    len--;
                } else if (len > 0 && line[0] == ',') {
                    line++;
                    len--;
                    break; /* the next field */
                } else if (len == 0) {
                    line = NULL;
                    break; /* the end of the record */
                } else {
                    err_kind = "extraneous or missing \" in quoted-field";
                    err_line = r->num_line;
                    break;
                }
            } else if (len > 0 || nl) {
                tfx_textbuf_put(&field, line, len);
                if (nl)
                    tfx_textbuf_putc(&field, '\n');
                (void)csv_read_line(r, &line, &len, &nl);
                if (len > 0 || nl)
                    pos_line++;
            } else {
                err_kind = "extraneous or missing \" in quoted-field";
                err_line = pos_line;
                break;
            }
        }
        if (err_kind != NULL)
            break;
        tfx_ctx_check_string(ctx, field.nbytes);
        fs[nf].s = tfx_textbuf_text(&field);
        fs[nf++].nbytes = field.nbytes;
        if (line == NULL)
            break;
    }
    if (err_kind == NULL && r->fields_per_record > 0 && (long)nf != r->fields_per_record) {
        err_kind = "wrong number of fields";
        err_line = rec_line;
    }
    if (err_kind != NULL) {
        *error = tfx_ctx_printf(ctx, "CSV parse error on line %ld: %s", err_line, err_kind);
        return CSV_ERROR;
    }
    *fields = fs;
    *nfields = nf;
    return CSV_OK;
}

static const tfx_param csvdecode_params[] = {
    {.name = "str", .type = &tfx_type_str},
};

/* [fn.csvdecode.type] An unknown string gives dynamic.  Otherwise the
 * first record is the header: none is the plain error "missing header
 * line", a malformed one its parse error, a repeated name the plain error
 * "duplicate column name <Go-quoted name>"; the type is a list of objects
 * with one string attribute per name. */
static const tfx_type *csvdecode_type(tfx_ctx *ctx, const tfx_function *fn,
                                      const tfx_value *const *args, size_t nargs,
                                      tfx_func_error *err)
{
    const tfx_marks *marks = NULL;
    const tfx_value *str = tfx_value_unmark(ctx, args[0], &marks);
    csv_reader r = {0};
    tfx_str *names = NULL;
    const tfx_type **types;
    const char *error = NULL;
    size_t n = 0, i, j;
    csv_status st;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (!tfx_value_is_known(str))
        return &tfx_type_dynamic;
    r.s = str->as.string.s;
    r.n = str->as.string.nbytes;
    st = csv_read_record(ctx, &r, &names, &n, &error);
    if (st == CSV_EOF)
        return tfx_fn_error(err, "missing header line");
    if (st == CSV_ERROR)
        return tfx_fn_error(err, error);
    for (i = 1; i < n; i++)
        for (j = 0; j < i; j++) {
            tfx_ctx_step(ctx);
            if (names[i].nbytes == names[j].nbytes
                && memcmp(names[i].s, names[j].s, names[i].nbytes) == 0)
                return tfx_fn_error(err,
                                    tfx_ctx_printf(ctx, "duplicate column name %s",
                                                   tfx_textbuf_quoted(ctx, names[i].s,
                                                                      names[i].nbytes)));
        }
    types = tfx_ctx_alloc_array(ctx, n > 0 ? n : 1, sizeof(const tfx_type *));
    for (i = 0; i < n; i++)
        types[i] = &tfx_type_str;
    return tfx_type_list(ctx, tfx_type_object(ctx, names, types, n));
}

/* [fn.csvdecode.result] Every later record becomes an object of the
 * header's names and the record's fields (strings, NFC); a record with
 * another number of fields is the plain error "CSV parse error on line
 * <its first line>: wrong number of fields", a malformed one its parse
 * error; no records give an empty list. */
static const tfx_value *csvdecode_impl(tfx_ctx *ctx, const tfx_function *fn,
                                       const tfx_type *ret, const tfx_value *const *args,
                                       size_t nargs, tfx_func_error *err)
{
    csv_reader r = {0};
    tfx_str *names = NULL, *fields = NULL;
    const tfx_value **rows;
    size_t n = 0, nf = 0, nrows = 0, cap = 16, i;
    const char *error = NULL;
    csv_status st;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    r.s = args[0]->as.string.s;
    r.n = args[0]->as.string.nbytes;
    (void)csv_read_record(ctx, &r, &names, &n, &error); /* checked by the type */
    r.fields_per_record = (long)ret->elem->n;
    rows = tfx_ctx_alloc_array(ctx, cap, sizeof(const tfx_value *));
    while ((st = csv_read_record(ctx, &r, &fields, &nf, &error)) == CSV_OK) {
        const tfx_value **vals =
            tfx_ctx_alloc_array(ctx, nf > 0 ? nf : 1, sizeof(const tfx_value *));

        for (i = 0; i < nf; i++)
            vals[i] = tfx_value_string(ctx, fields[i].s, fields[i].nbytes);
        if (nrows == cap) {
            const tfx_value **bigger =
                tfx_ctx_alloc_array(ctx, cap * 2, sizeof(const tfx_value *));

            memcpy((void *)bigger, (const void *)rows, nrows * sizeof(const tfx_value *));
            rows = bigger;
            cap *= 2;
        }
        tfx_ctx_check_items(ctx, nrows + 1);
        rows[nrows++] = tfx_value_object(ctx, names, vals, nf);
    }
    if (st == CSV_ERROR)
        return tfx_fn_error(err, error);
    return tfx_value_list(ctx, ret->elem, rows, nrows);
}

static const tfx_function tfx_fn_csvdecode = {.name = "csvdecode",
                                              .params = csvdecode_params,
                                              .nparams = TFX_COUNTOF(csvdecode_params),
                                              .varparam = NULL,
                                              .type = csvdecode_type,
                                              .ret_type = NULL,
                                              .impl = csvdecode_impl};

/* ---- jsondecode ---- */

/* A string; no Allow flags: null is an argument error, marks go onto the
 * result, an unknown string gives an unknown result of the type the type
 * function gives (dynamic). */
static const tfx_param jsondecode_params[] = {
    {.name = "str", .type = &tfx_type_str},
};

/* [fn.jsondecode.type] [fn.jsondecode.syntax] [fn.jsondecode.trailing]
 * [fn.jsondecode.duplicate] [fn.jsondecode.duplicate.pn] An unknown string
 * gives dynamic; a known one is decoded (cty's json.ImpliedType, then
 * Unmarshal with that type: one pass here, tfx_json_decode_plain_profile
 * under the evaluation's profile) and the type of the decoded value is
 * the return type; a malformed text is the plain error of the decoder.
 * The decoded value is kept for the implementation in the ctx (decoding
 * twice would give the same value). */
static const tfx_type *jsondecode_type(tfx_ctx *ctx, const tfx_function *fn,
                                       const tfx_value *const *args, size_t nargs,
                                       tfx_func_error *err)
{
    const tfx_value *str = args[0];
    const tfx_marks *marks = NULL;
    const tfx_value *v;
    const char *error = NULL;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    str = tfx_value_unmark(ctx, str, &marks);
    if (ctx->pn && tfx_value_is_unknown(str))
        return tfx_refine_jsondecode_type(ctx, str, err); /* [refine.fn.jsondecode] */
    if (!tfx_value_is_known(str))
        return &tfx_type_dynamic;
    v = tfx_json_decode_plain_profile(ctx, str->as.string.s, str->as.string.nbytes, ctx->pn,
                                      &error);
    if (v == NULL)
        return tfx_fn_error(err, error != NULL ? error : "invalid JSON");
    return v->type;
}

/* [fn.jsondecode.result] The value the text describes
 * (tfx_json_decode_plain): objects, tuples, strings, numbers parsed from
 * their text at 512 bits, bools, and a dynamic null for null. */
static const tfx_value *jsondecode_impl(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_type *ret, const tfx_value *const *args,
                                        size_t nargs, tfx_func_error *err)
{
    const tfx_value *str = args[0];
    const char *error = NULL;
    const tfx_value *v;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    v = tfx_json_decode_plain_profile(ctx, str->as.string.s, str->as.string.nbytes, ctx->pn,
                                      &error);
    if (v == NULL)
        return tfx_fn_error(err, error != NULL ? error : "invalid JSON");
    return v;
}

static const tfx_function tfx_fn_jsondecode = {.name = "jsondecode",
                                               .params = jsondecode_params,
                                               .nparams = TFX_COUNTOF(jsondecode_params),
                                               .varparam = NULL,
                                               .type = jsondecode_type,
                                               .ret_type = NULL,
                                               .impl = jsondecode_impl};

/* ---- base64encode, base64decode, urlencode ---- */

/* Terraform's own encoding functions (internal/lang/funcs/encoding.go):
 * one string parameter each; base64decode alone takes unknown and marked
 * arguments itself [fn.base64decode.marks]. */
static const tfx_param str_params[] = {
    {.name = "str", .type = &tfx_type_str},
};

/* Standard base64 with padding of bytes[0..n), as a string value. */
static const tfx_value *base64_value(tfx_ctx *ctx, const unsigned char *bytes, size_t n)
{
    size_t len;
    char *out;

    if (n > (SIZE_MAX - 2) / 4 * 3 - 3)
        tfx_ctx_check_string(ctx, SIZE_MAX);
    len = BASE64_ENCODE_RAW_LENGTH(n);
    tfx_ctx_check_string(ctx, len);
    out = tfx_ctx_alloc(ctx, len + 1);
    base64_encode_raw(out, n, bytes);
    out[len] = '\0';
    return tfx_value_string_raw(ctx, out, len);
}

/* [fn.base64encode] The UTF-8 bytes of str in standard base64 (RFC 4648
 * section 4) with "=" padding (Nettle's encoder gives the same text as
 * Go's StdEncoding). */
static const tfx_value *base64encode_impl(tfx_ctx *ctx, const tfx_function *fn,
                                          const tfx_type *ret, const tfx_value *const *args,
                                          size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return base64_value(ctx, (const unsigned char *)args[0]->as.string.s,
                        args[0]->as.string.nbytes);
}

static const tfx_function tfx_fn_base64encode = {.name = "base64encode",
                                                 .params = str_params,
                                                 .nparams = TFX_COUNTOF(str_params),
                                                 .varparam = NULL,
                                                 .type = NULL,
                                                 .ret_type = &tfx_type_str,
                                                 .impl = base64encode_impl};

/* The value of a standard base64 character, 0xff for any other byte. */
static unsigned base64_digit(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return (unsigned)(c - 'A');
    if (c >= 'a' && c <= 'z')
        return (unsigned)(c - 'a') + 26;
    if (c >= '0' && c <= '9')
        return (unsigned)(c - '0') + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return 0xff;
}

/* [fn.base64.decode] Go 1.19's StdEncoding.DecodeString of src[0..n):
 * groups of four characters, '\r' and '\n' skipped anywhere, "=" padding
 * required, bits after the data in the last group ignored.  Returns the
 * bytes (in the arena, *out_n of them) or NULL with *offset the byte
 * offset of Go's CorruptInputError, computed as Go computes it. */
static unsigned char *base64_decode(tfx_ctx *ctx, const unsigned char *src, size_t n,
                                    size_t *out_n, size_t *offset)
{
    unsigned char *dst = tfx_ctx_alloc(ctx, n / 4 * 3 + 3);
    size_t si = 0, dn = 0;

    while (si < n) {
        unsigned dbuf[4] = {0, 0, 0, 0};
        size_t dlen = 4;
        bool end = false;

        tfx_ctx_step(ctx);
        for (size_t j = 0; j < 4; j++) {
            unsigned char in;
            unsigned out;

            if (si == n) {
                if (j == 0) {
                    *out_n = dn;
                    return dst;
                }
                *offset = si - j; /* j == 1, or padding missing */
                return NULL;
            }
            in = src[si++];
            out = base64_digit(in);
            if (out != 0xff) {
                dbuf[j] = out;
                continue;
            }
            if (in == '\n' || in == '\r') {
                j--;
                continue;
            }
            if (in != '=' || j < 2) {
                *offset = si - 1;
                return NULL;
            }
            if (j == 2) { /* "==" expected: skip line ends to the second '=' */
                while (si < n && (src[si] == '\n' || src[si] == '\r'))
                    si++;
                if (si == n) {
                    *offset = n;
                    return NULL;
                }
                if (src[si] != '=') {
                    *offset = si - 1;
                    return NULL;
                }
                si++;
            }
            while (si < n && (src[si] == '\n' || src[si] == '\r'))
                si++;
            if (si < n) { /* trailing garbage */
                *offset = si;
                return NULL;
            }
            dlen = j;
            end = true;
            break;
        }
        {
            unsigned long val = (unsigned long)dbuf[0] << 18 | (unsigned long)dbuf[1] << 12 |
                                (unsigned long)dbuf[2] << 6 | dbuf[3];

            dst[dn] = (unsigned char)(val >> 16);
            if (dlen >= 3)
                dst[dn + 1] = (unsigned char)(val >> 8);
            if (dlen == 4)
                dst[dn + 2] = (unsigned char)val;
            dn += dlen - 1;
        }
        if (end)
            break;
    }
    *out_n = dn;
    return dst;
}

/* Unknown and marked arguments are the implementation's own. */
static const tfx_param base64decode_params[] = {
    {.name = "str", .type = &tfx_type_str, .allow_unknown = true, .allow_marked = true},
};

/* [fn.base64decode] [fn.base64decode.marks] An unknown str gives an
 * unknown string with str's marks; a known one is decoded
 * ([fn.base64.decode]): failure is the plain error "failed to decode
 * base64 data <str Go-quoted>" ("(sensitive value)" instead of the text
 * when str is sensitive); bytes that are not UTF-8 the plain error "the
 * result of decoding the provided string is not valid UTF-8"; else the
 * text (NFC) with str's marks. */
static const tfx_value *base64decode_impl(tfx_ctx *ctx, const tfx_function *fn,
                                          const tfx_type *ret, const tfx_value *const *args,
                                          size_t nargs, tfx_func_error *err)
{
    const tfx_marks *marks = NULL;
    const tfx_value *str = tfx_value_unmark(ctx, args[0], &marks);
    const unsigned char *bytes;
    size_t n = 0, offset = 0;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (!tfx_value_is_known(str))
        return tfx_value_mark(ctx, tfx_value_unknown(ctx, ret), marks);
    bytes = base64_decode(ctx, (const unsigned char *)str->as.string.s, str->as.string.nbytes,
                          &n, &offset);
    if (bytes == NULL)
        return tfx_fn_error(
            err, tfx_ctx_printf(ctx, "failed to decode base64 data %s",
                                tfx_marks_has(marks, "sensitive")
                                    ? "(sensitive value)"
                                    : tfx_textbuf_quoted(ctx, str->as.string.s,
                                                         str->as.string.nbytes)));
    if (!tfx_text_valid(bytes, n))
        return tfx_fn_error(err, "the result of decoding the provided string is not valid UTF-8");
    return tfx_value_mark(ctx, tfx_value_string(ctx, (const char *)bytes, n), marks);
}

static const tfx_function tfx_fn_base64decode = {.name = "base64decode",
                                                 .params = base64decode_params,
                                                 .nparams = TFX_COUNTOF(base64decode_params),
                                                 .varparam = NULL,
                                                 .type = NULL,
                                                 .ret_type = &tfx_type_str,
                                                 .impl = base64decode_impl};

/* [fn.urlencode] Go's url.QueryEscape: A-Z a-z 0-9 - _ . ~ kept, a space
 * as "+", every other byte of the UTF-8 text as %XX (upper-case hex). */
static const tfx_value *urlencode_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                       const tfx_value *const *args, size_t nargs,
                                       tfx_func_error *err)
{
    static const char hex[] = "0123456789ABCDEF";
    const unsigned char *s = (const unsigned char *)args[0]->as.string.s;
    size_t n = args[0]->as.string.nbytes, k = 0;
    char *out;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    if (n > SIZE_MAX / 3 - 1)
        tfx_ctx_check_string(ctx, SIZE_MAX);
    tfx_ctx_check_string(ctx, n);
    out = tfx_ctx_alloc(ctx, 3 * n + 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];

        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '_' || c == '.' || c == '~') {
            out[k++] = (char)c;
        } else if (c == ' ') {
            out[k++] = '+';
        } else {
            out[k++] = '%';
            out[k++] = hex[c >> 4];
            out[k++] = hex[c & 15];
        }
    }
    out[k] = '\0';
    tfx_ctx_check_string(ctx, k);
    return tfx_value_string_raw(ctx, out, k);
}

static const tfx_function tfx_fn_urlencode = {.name = "urlencode",
                                              .params = str_params,
                                              .nparams = TFX_COUNTOF(str_params),
                                              .varparam = NULL,
                                              .type = NULL,
                                              .ret_type = &tfx_type_str,
                                              .impl = urlencode_impl};

/* ---- textencodebase64, textdecodebase64 ---- */

/* How an encoding is converted [fn.textencoding.convert]. */
typedef enum {
    TX_ASCII,   /* bytes 0-127 only */
    TX_UTF8,
    TX_UTF16,   /* big-endian; a BOM written, and read when present */
    TX_UTF16BE, /* no BOM handling */
    TX_UTF16LE,
    TX_SBCS,    /* one byte per character: a table made with iconv */
    TX_ICONV,   /* a multi-byte encoding: glibc's iconv */
    TX_HZ,      /* HZ-GB-2312 over glibc's GBK */
    TX_SJIS,    /* Shift_JIS over glibc's CP932, with x/text's limits */
    TX_GBK      /* GBK over glibc's GBK and GB18030 */
} tx_kind;

/* A correction of iconv's table for a single-byte encoding: the byte's
 * code point in x/text (-1: undefined). */
typedef struct {
    unsigned char byte;
    int32_t cp;
} tx_fix;

typedef struct {
    const char *name;  /* x/text 0.7.0's canonical IANA name */
    const char *iconv; /* glibc's name */
    const tx_fix *fixes;
    size_t nfixes;
    tx_kind kind;
    bool no_c1; /* x/text leaves 0x80-0x9F undefined */
} tx_encoding;

static const tx_fix koi8u_fixes[] = {{0xae, 0x045e}, {0xbe, 0x040e}};
static const tx_fix mac_fixes[] = {{0xc6, 0x2206}, {0xf0, 0xf8ff}};
static const tx_fix cp1255_fixes[] = {{0xca, 0x05ba}};

#define TX(n, k, i) {.name = (n), .iconv = (i), .kind = (k)}
#define SB(n, i) TX(n, TX_SBCS, i)
#define SBISO(n, i) {.name = (n), .iconv = (i), .kind = TX_SBCS, .no_c1 = true}
#define SBFIX(n, i, f) {.name = (n), .iconv = (i), .fixes = (f), .nfixes = TFX_COUNTOF(f), .kind = TX_SBCS}
#define MB(n, i) TX(n, TX_ICONV, i)

/* [fn.textencoding.names] The encodings x/text 0.7.0's ianaindex gives an
 * implementation for, by canonical name (in byte order), with the glibc
 * converter used for each [fn.textencoding.convert]. */
static const tx_encoding tx_encodings[] = {
    MB("Big5", "BIG5-HKSCS"),
    MB("EUC-KR", "CP949"),
    MB("Extended_UNIX_Code_Packed_Format_for_Japanese", "EUC-JP"),
    MB("GB18030", "GB18030"),
    TX("GBK", TX_GBK, "GBK"),
    TX("HZ-GB-2312", TX_HZ, "GBK"),
    SB("IBM00858", "IBM858"),
    SB("IBM01140", "IBM1140"),
    SB("IBM037", "IBM037"),
    SB("IBM1047", "IBM1047"),
    SB("IBM437", "IBM437"),
    SB("IBM850", "IBM850"),
    SB("IBM852", "IBM852"),
    SB("IBM855", "IBM855"),
    SB("IBM860", "IBM860"),
    SB("IBM862", "IBM862"),
    SB("IBM863", "IBM863"),
    SB("IBM865", "IBM865"),
    SB("IBM866", "IBM866"),
    MB("ISO-2022-JP", "ISO-2022-JP"),
    SBISO("ISO-8859-10", "ISO-8859-10"),
    SBISO("ISO-8859-13", "ISO-8859-13"),
    SBISO("ISO-8859-14", "ISO-8859-14"),
    SBISO("ISO-8859-15", "ISO-8859-15"),
    SBISO("ISO-8859-16", "ISO-8859-16"),
    SB("ISO_8859-1:1987", "ISO-8859-1"),
    SBISO("ISO_8859-2:1987", "ISO-8859-2"),
    SBISO("ISO_8859-3:1988", "ISO-8859-3"),
    SBISO("ISO_8859-4:1988", "ISO-8859-4"),
    SBISO("ISO_8859-5:1988", "ISO-8859-5"),
    SBISO("ISO_8859-6-E", "ISO-8859-6"),
    SBISO("ISO_8859-6-I", "ISO-8859-6"),
    SBISO("ISO_8859-6:1987", "ISO-8859-6"),
    SBISO("ISO_8859-7:1987", "ISO-8859-7"),
    SBISO("ISO_8859-8-E", "ISO-8859-8"),
    SBISO("ISO_8859-8-I", "ISO-8859-8"),
    SBISO("ISO_8859-8:1988", "ISO-8859-8"),
    SB("ISO_8859-9:1989", "ISO-8859-9"),
    SB("KOI8-R", "KOI8-R"),
    SBFIX("KOI8-U", "KOI8-U", koi8u_fixes),
    TX("Shift_JIS", TX_SJIS, "CP932"),
    TX("US-ASCII", TX_ASCII, NULL),
    TX("UTF-16", TX_UTF16, NULL),
    TX("UTF-16BE", TX_UTF16BE, NULL),
    TX("UTF-16LE", TX_UTF16LE, NULL),
    TX("UTF-8", TX_UTF8, NULL),
    SBFIX("macintosh", "MACINTOSH", mac_fixes),
    SB("windows-1250", "CP1250"),
    SB("windows-1251", "CP1251"),
    SB("windows-1252", "CP1252"),
    SB("windows-1253", "CP1253"),
    SB("windows-1254", "CP1254"),
    SBFIX("windows-1255", "CP1255", cp1255_fixes),
    SB("windows-1256", "CP1256"),
    SB("windows-1257", "CP1257"),
    SB("windows-1258", "CP1258"),
    SB("windows-874", "CP874"),
};

typedef struct {
    const char *alias; /* lower case */
    unsigned char enc; /* index into tx_encodings */
} tx_alias;

/* Every name and alias of those encodings in x/text 0.7.0's index, in
 * lower case, sorted by bytes (names the index knows without an
 * implementation are not here: they fail the same way as unknown ones). */
static const tx_alias tx_aliases[] = {
    {"437", 10},
    {"850", 11},
    {"852", 12},
    {"855", 13},
    {"860", 14},
    {"862", 15},
    {"863", 16},
    {"865", 17},
    {"866", 18},
    {"ansi_x3.4-1968", 41},
    {"ansi_x3.4-1986", 41},
    {"arabic", 32},
    {"asmo-708", 32},
    {"big5", 0},
    {"ccsid00858", 6},
    {"ccsid01140", 7},
    {"cp00858", 6},
    {"cp01140", 7},
    {"cp037", 8},
    {"cp367", 41},
    {"cp437", 10},
    {"cp819", 25},
    {"cp850", 11},
    {"cp852", 12},
    {"cp855", 13},
    {"cp860", 14},
    {"cp862", 15},
    {"cp863", 16},
    {"cp865", 17},
    {"cp866", 18},
    {"cp936", 4},
    {"csascii", 41},
    {"csbig5", 0},
    {"cseuckr", 1},
    {"cseucpkdfmtjapanese", 2},
    {"csgb18030", 3},
    {"csgbk", 4},
    {"csibm00858", 6},
    {"csibm01140", 7},
    {"csibm037", 8},
    {"csibm1047", 9},
    {"csibm855", 13},
    {"csibm860", 14},
    {"csibm863", 16},
    {"csibm865", 17},
    {"csibm866", 18},
    {"csiso2022jp", 19},
    {"csiso885913", 21},
    {"csiso885914", 22},
    {"csiso885915", 23},
    {"csiso885916", 24},
    {"csiso88596e", 30},
    {"csiso88596i", 31},
    {"csiso88598e", 34},
    {"csiso88598i", 35},
    {"csisolatin1", 25},
    {"csisolatin2", 26},
    {"csisolatin3", 27},
    {"csisolatin4", 28},
    {"csisolatin5", 37},
    {"csisolatin6", 20},
    {"csisolatinarabic", 32},
    {"csisolatincyrillic", 29},
    {"csisolatingreek", 33},
    {"csisolatinhebrew", 36},
    {"cskoi8r", 38},
    {"cskoi8u", 39},
    {"csmacintosh", 46},
    {"cspc850multilingual", 11},
    {"cspc862latinhebrew", 15},
    {"cspc8codepage437", 10},
    {"cspcp852", 12},
    {"csshiftjis", 40},
    {"csutf16", 42},
    {"csutf16be", 43},
    {"csutf16le", 44},
    {"csutf8", 45},
    {"cswindows1250", 47},
    {"cswindows1251", 48},
    {"cswindows1252", 49},
    {"cswindows1253", 50},
    {"cswindows1254", 51},
    {"cswindows1255", 52},
    {"cswindows1256", 53},
    {"cswindows1257", 54},
    {"cswindows1258", 55},
    {"cswindows874", 56},
    {"cyrillic", 29},
    {"ebcdic-cp-ca", 8},
    {"ebcdic-cp-nl", 8},
    {"ebcdic-cp-us", 8},
    {"ebcdic-cp-wt", 8},
    {"ebcdic-us-37+euro", 7},
    {"ecma-114", 32},
    {"ecma-118", 33},
    {"elot_928", 33},
    {"euc-jp", 2},
    {"euc-kr", 1},
    {"extended_unix_code_packed_format_for_japanese", 2},
    {"gb18030", 3},
    {"gbk", 4},
    {"greek", 33},
    {"greek8", 33},
    {"hebrew", 36},
    {"hz-gb-2312", 5},
    {"ibm-1047", 9},
    {"ibm00858", 6},
    {"ibm01140", 7},
    {"ibm037", 8},
    {"ibm1047", 9},
    {"ibm367", 41},
    {"ibm437", 10},
    {"ibm819", 25},
    {"ibm850", 11},
    {"ibm852", 12},
    {"ibm855", 13},
    {"ibm860", 14},
    {"ibm862", 15},
    {"ibm863", 16},
    {"ibm865", 17},
    {"ibm866", 18},
    {"iso-2022-jp", 19},
    {"iso-8859-1", 25},
    {"iso-8859-10", 20},
    {"iso-8859-13", 21},
    {"iso-8859-14", 22},
    {"iso-8859-15", 23},
    {"iso-8859-16", 24},
    {"iso-8859-2", 26},
    {"iso-8859-3", 27},
    {"iso-8859-4", 28},
    {"iso-8859-5", 29},
    {"iso-8859-6", 32},
    {"iso-8859-6-e", 30},
    {"iso-8859-6-i", 31},
    {"iso-8859-7", 33},
    {"iso-8859-8", 36},
    {"iso-8859-8-e", 34},
    {"iso-8859-8-i", 35},
    {"iso-8859-9", 37},
    {"iso-celtic", 22},
    {"iso-ir-100", 25},
    {"iso-ir-101", 26},
    {"iso-ir-109", 27},
    {"iso-ir-110", 28},
    {"iso-ir-126", 33},
    {"iso-ir-127", 32},
    {"iso-ir-138", 36},
    {"iso-ir-144", 29},
    {"iso-ir-148", 37},
    {"iso-ir-157", 20},
    {"iso-ir-199", 22},
    {"iso-ir-226", 24},
    {"iso-ir-6", 41},
    {"iso646-us", 41},
    {"iso_646.irv:1991", 41},
    {"iso_8859-1", 25},
    {"iso_8859-10:1992", 20},
    {"iso_8859-14", 22},
    {"iso_8859-14:1998", 22},
    {"iso_8859-15", 23},
    {"iso_8859-16", 24},
    {"iso_8859-16:2001", 24},
    {"iso_8859-1:1987", 25},
    {"iso_8859-2", 26},
    {"iso_8859-2:1987", 26},
    {"iso_8859-3", 27},
    {"iso_8859-3:1988", 27},
    {"iso_8859-4", 28},
    {"iso_8859-4:1988", 28},
    {"iso_8859-5", 29},
    {"iso_8859-5:1988", 29},
    {"iso_8859-6", 32},
    {"iso_8859-6-e", 30},
    {"iso_8859-6-i", 31},
    {"iso_8859-6:1987", 32},
    {"iso_8859-7", 33},
    {"iso_8859-7:1987", 33},
    {"iso_8859-8", 36},
    {"iso_8859-8-e", 34},
    {"iso_8859-8-i", 35},
    {"iso_8859-8:1988", 36},
    {"iso_8859-9", 37},
    {"iso_8859-9:1989", 37},
    {"koi8-r", 38},
    {"koi8-u", 39},
    {"l1", 25},
    {"l10", 24},
    {"l2", 26},
    {"l3", 27},
    {"l4", 28},
    {"l5", 37},
    {"l6", 20},
    {"l8", 22},
    {"latin-9", 23},
    {"latin1", 25},
    {"latin10", 24},
    {"latin2", 26},
    {"latin3", 27},
    {"latin4", 28},
    {"latin5", 37},
    {"latin6", 20},
    {"latin8", 22},
    {"mac", 46},
    {"macintosh", 46},
    {"ms936", 4},
    {"ms_kanji", 40},
    {"pc-multilingual-850+euro", 6},
    {"shift_jis", 40},
    {"us", 41},
    {"us-ascii", 41},
    {"utf-16", 42},
    {"utf-16be", 43},
    {"utf-16le", 44},
    {"utf-8", 45},
    {"windows-1250", 47},
    {"windows-1251", 48},
    {"windows-1252", 49},
    {"windows-1253", 50},
    {"windows-1254", 51},
    {"windows-1255", 52},
    {"windows-1256", 53},
    {"windows-1257", 54},
    {"windows-1258", 55},
    {"windows-874", 56},
    {"windows-936", 4},
};

/* Whether c is a space Go's strings.TrimSpace removes. */
static bool go_space(int32_t c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || c == 0x85 || c == 0xa0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f ||
           c == 0x205f || c == 0x3000;
}

/* [fn.textencoding.names] ianaindex.IANA.Encoding(name): white space
 * trimmed at both ends (Go's TrimSpace), then matched in lower case
 * (Go's ToLower: A-Z, and U+0130 which it lowers to "i").  NULL when x/text
 * has no implementation under that name. */
static const tx_encoding *tx_lookup(tfx_ctx *ctx, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t start = 0, end = n, k = 0, lo = 0, hi = TFX_COUNTOF(tx_aliases);
    char *low;

    while (start < end) {
        int32_t c;
        size_t len = tfx_text_decode(p + start, end - start, &c);

        if (!go_space(c))
            break;
        start += len;
    }
    while (end > start) {
        size_t back = 1;
        int32_t c;

        while (back < end - start && back < 4 && (p[end - back] & 0xc0) == 0x80)
            back++;
        if (tfx_text_decode(p + end - back, back, &c) != back || !go_space(c))
            break;
        end -= back;
    }
    if (end - start > 64)
        return NULL;
    low = tfx_ctx_alloc(ctx, end - start + 1);
    for (size_t i = start; i < end;) {
        int32_t c;
        size_t len = tfx_text_decode(p + i, end - i, &c);

        if (c >= 'A' && c <= 'Z')
            low[k++] = (char)(c - 'A' + 'a');
        else if (c == 0x130)
            low[k++] = 'i';
        else if (c >= 0 && c < 0x80)
            low[k++] = (char)c;
        else
            return NULL; /* no alias has other characters */
        i += len;
    }
    low[k] = '\0';
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(low, tx_aliases[mid].alias);

        if (c == 0)
            return &tx_encodings[tx_aliases[mid].enc];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

/* Whether iconv_open failed (it returns (iconv_t)-1). */
static bool tx_open_failed(iconv_t cd)
{
    return cd == (iconv_t)-1; /* NOLINT(performance-no-int-to-ptr) */
}

/* [fn.textencoding.sbcs] The code point of each byte of a single-byte
 * encoding (-1: undefined): glibc's table, read one byte at a time, with
 * x/text's differences applied.  False if iconv does not know the
 * encoding. */
static bool tx_table(const tx_encoding *e, int32_t table[256])
{
    iconv_t cd = iconv_open("UTF-32LE", e->iconv);

    if (tx_open_failed(cd))
        return false;
    for (int b = 0; b < 256; b++) {
        char in[1];
        unsigned char out[16];
        char *ip = in, *op = (char *)out;
        size_t il = 1, ol = sizeof out;

        in[0] = (char)b;
        table[b] = -1;
        (void)iconv(cd, NULL, NULL, NULL, NULL);
        if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1)
            continue;
        if (iconv(cd, NULL, NULL, &op, &ol) == (size_t)-1 || sizeof out - ol != 4)
            continue;
        table[b] = (int32_t)((uint32_t)out[0] | (uint32_t)out[1] << 8 | (uint32_t)out[2] << 16 |
                             (uint32_t)out[3] << 24);
        if (table[b] == 0xfffd)
            table[b] = -1;
    }
    (void)iconv_close(cd);
    if (e->no_c1)
        for (int b = 0x80; b < 0xa0; b++)
            table[b] = -1;
    for (size_t i = 0; i < e->nfixes; i++)
        table[e->fixes[i].byte] = e->fixes[i].cp;
    return true;
}

/* Converts in[0..n) with iconv from `from` to `to` into the arena: the
 * bytes, *out_n of them, or NULL when iconv refuses a sequence (or does not
 * know the encodings).  At most `grow` output bytes per input byte. */
static unsigned char *tx_iconv(tfx_ctx *ctx, const char *to, const char *from,
                               const unsigned char *in, size_t n, size_t grow, size_t *out_n)
{
    size_t cap, il = n, ol;
    unsigned char *out;
    char *ip, *op;
    iconv_t cd;
    bool ok;

    if (n > (SIZE_MAX - 64) / grow)
        tfx_ctx_check_string(ctx, SIZE_MAX);
    cap = n * grow + 64;
    tfx_ctx_check_string(ctx, cap / grow);
    out = tfx_ctx_alloc(ctx, cap);
    ip = tfx_ctx_strndup(ctx, (const char *)in, n);
    op = (char *)out;
    ol = cap;
    cd = iconv_open(to, from);
    if (tx_open_failed(cd))
        return NULL;
    ok = iconv(cd, &ip, &il, &op, &ol) != (size_t)-1 && il == 0 &&
         iconv(cd, NULL, NULL, &op, &ol) != (size_t)-1;
    (void)iconv_close(cd);
    if (!ok)
        return NULL;
    *out_n = cap - ol;
    return out;
}

/* Appends code point c as UTF-16 (big- or little-endian). */
static void put_utf16(unsigned char *out, size_t *k, int32_t c, bool le)
{
    uint32_t units[2];
    int nu = 1;

    if (c >= 0x10000) {
        units[0] = 0xd800u + (((uint32_t)c - 0x10000u) >> 10);
        units[1] = 0xdc00u + (((uint32_t)c - 0x10000u) & 0x3ffu);
        nu = 2;
    } else {
        units[0] = (uint32_t)c;
    }
    for (int i = 0; i < nu; i++) {
        out[(*k)++] = (unsigned char)(le ? units[i] : units[i] >> 8);
        out[(*k)++] = (unsigned char)(le ? units[i] >> 8 : units[i]);
    }
}

/* The two glibc converters x/text's GBK is made of
 * [fn.textencoding.gbk]. */
typedef struct {
    iconv_t gbk, gb18030;
} gbk_cds;

/* Opens them, to GBK (encode) or from it; false if iconv refuses. */
static bool gbk_open(gbk_cds *cd, bool encode)
{
    cd->gbk = encode ? iconv_open("GBK", "UTF-8") : iconv_open("UTF-8", "GBK");
    if (tx_open_failed(cd->gbk))
        return false;
    cd->gb18030 = encode ? iconv_open("GB18030", "UTF-8") : iconv_open("UTF-8", "GB18030");
    if (tx_open_failed(cd->gb18030)) {
        (void)iconv_close(cd->gbk);
        return false;
    }
    return true;
}

static void gbk_close(gbk_cds *cd)
{
    (void)iconv_close(cd->gbk);
    (void)iconv_close(cd->gb18030);
}

/* in[0..n) converted by cd into out (at most cap bytes): the length, or
 * 0 when iconv refuses it. */
static size_t conv_one(iconv_t cd, const unsigned char *in, size_t n, unsigned char *out,
                       size_t cap)
{
    char buf[8], *ip = buf, *op = (char *)out;
    size_t il = n, ol = cap;

    if (n > sizeof buf)
        return 0;
    memcpy(buf, in, n);
    (void)iconv(cd, NULL, NULL, NULL, NULL);
    if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1 || il != 0 ||
        iconv(cd, NULL, NULL, &op, &ol) == (size_t)-1)
        return 0;
    return cap - ol;
}

/* [fn.textencoding.gbk] Whether x/text's GBK has the two-byte code
 * glibc's GB18030 gives character c where glibc's GBK has none: not for
 * the private use area, characters above U+FFFF, and the characters
 * GB18030-2005 moved out of it (U+1E3F, U+9FB4-U+9FBB, U+FE10-U+FE19),
 * which x/text keeps as GB18030-2000 had them. */
static bool gbk_takes(int32_t c)
{
    return c < 0x10000 && !(c >= 0xe000 && c <= 0xf8ff) && c != 0x1e3f &&
           !(c >= 0x9fb4 && c <= 0x9fbb) && !(c >= 0xfe10 && c <= 0xfe19);
}

/* One character (UTF-8 s[0..len), code point c) in x/text's GBK: its
 * bytes in out, 0 when it has none. */
static size_t gbk_encode_char(const gbk_cds *cd, const unsigned char *s, size_t len, int32_t c,
                              unsigned char out[8])
{
    size_t r = conv_one(cd->gbk, s, len, out, 8);

    if (r > 0 || !gbk_takes(c))
        return r;
    r = conv_one(cd->gb18030, s, len, out, 8);
    return r == 2 ? r : 0;
}

/* One byte or pair of x/text's GBK as UTF-8 in out, 0 when undefined:
 * glibc's GBK, else (pairs) glibc's GB18030 where gbk_takes its
 * character; 0xA3 0xA0 is U+3000. */
static size_t gbk_decode_seq(const gbk_cds *cd, const unsigned char *b, size_t len,
                             unsigned char out[8])
{
    size_t r;
    int32_t c;

    if (len == 2 && b[0] == 0xa3 && b[1] == 0xa0) {
        out[0] = 0xe3;
        out[1] = 0x80;
        out[2] = 0x80;
        return 3;
    }
    r = conv_one(cd->gbk, b, len, out, 8);
    if (r > 0 || len != 2)
        return r;
    r = conv_one(cd->gb18030, b, len, out, 8);
    if (r == 0 || tfx_text_decode(out, r, &c) != r || !gbk_takes(c))
        return 0;
    return r;
}

/* [fn.textencoding.gbk] The UTF-8 text s[0..n) in x/text's GBK (hz:
 * HZ-GB-2312 [fn.textencoding.hz]), or NULL. */
static const unsigned char *gbk_encode(tfx_ctx *ctx, const unsigned char *s, size_t n, bool hz,
                                       size_t *out_n)
{
    unsigned char *out;
    size_t k = 0;
    bool gb = false, ok = true;
    gbk_cds cd;

    if (n > SIZE_MAX / 5 - 4)
        tfx_ctx_check_string(ctx, SIZE_MAX);
    tfx_ctx_check_string(ctx, n);
    for (size_t i = 0; i < n; i++)
        tfx_ctx_step(ctx);
    out = tfx_ctx_alloc(ctx, 5 * n + 4);
    if (!gbk_open(&cd, true))
        return NULL;
    for (size_t i = 0; i < n && ok;) {
        int32_t c;
        size_t len = tfx_text_decode(s + i, n - i, &c);
        unsigned char code[8];
        size_t r;

        if (hz && c == '~') {
            out[k++] = '~';
            out[k++] = '~';
            i += len;
            continue;
        }
        if (c < 0x80) {
            if (gb) {
                out[k++] = '~';
                out[k++] = '}';
                gb = false;
            }
            out[k++] = (unsigned char)c;
            i += len;
            continue;
        }
        r = gbk_encode_char(&cd, s + i, len, c, code);
        if (hz && c == 0x20ac) { /* x/text's table has 0xA2 0xE3; its GBK writes 0x80 */
            code[0] = 0xa2;
            code[1] = 0xe3;
            r = 2;
        }
        i += len;
        if (!hz) {
            ok = r > 0;
            memcpy(out + k, code, r);
            k += r;
            continue;
        }
        ok = r == 2 && code[0] >= 0xa1 && code[0] <= 0xfd && code[1] >= 0xa1 && code[1] <= 0xfe;
        if (!ok)
            break;
        if (!gb) {
            out[k++] = '~';
            out[k++] = '{';
            gb = true;
        }
        out[k++] = (unsigned char)(code[0] - 0x80);
        out[k++] = (unsigned char)(code[1] - 0x80);
    }
    gbk_close(&cd);
    *out_n = k;
    return ok ? out : NULL;
}

/* [fn.textencoding.gbk] x/text's GBK bytes b[0..n) as UTF-8, or NULL:
 * ASCII, single bytes 0x80 and 0xFF, and pairs of a lead byte 0x81-0xFE
 * and the byte after it. */
static const unsigned char *gbk_decode(tfx_ctx *ctx, const unsigned char *b, size_t n,
                                       size_t *out_n)
{
    unsigned char *out;
    size_t k = 0, i = 0;
    bool ok = true;
    gbk_cds cd;

    tfx_ctx_check_string(ctx, n);
    for (size_t j = 0; j < n; j++)
        tfx_ctx_step(ctx);
    out = tfx_ctx_alloc(ctx, 3 * n + 8);
    if (!gbk_open(&cd, false))
        return NULL;
    while (i < n && ok) {
        size_t len = b[i] >= 0x81 && b[i] <= 0xfe ? 2 : 1;
        size_t r;

        if (b[i] < 0x80) {
            out[k++] = b[i++];
            continue;
        }
        ok = i + len <= n;
        if (!ok)
            break;
        r = gbk_decode_seq(&cd, b + i, len, out + k);
        ok = r > 0;
        k += r;
        i += len;
    }
    gbk_close(&cd);
    *out_n = k;
    return ok ? out : NULL;
}

/* [fn.textencoding.hz] HZ-GB-2312 as x/text writes it: ASCII as it is
 * except "~" as "~~" (in either state); a character x/text's GBK encodes
 * as two bytes both within 0xA1..0xFD / 0xA1..0xFE goes in with 0x80
 * taken off each byte (€ as 0xA2 0xE3, the code of x/text's table, where
 * GBK writes 0x80), after "~{" when the text is in the ASCII state; "~}"
 * before ASCII that follows; nothing at the end.  Any other character
 * fails. */
static const unsigned char *hz_encode(tfx_ctx *ctx, const unsigned char *s, size_t n,
                                      size_t *out_n)
{
    return gbk_encode(ctx, s, n, true, out_n);
}

/* [fn.textencoding.hz] Reading HZ-GB-2312: "~{" and "~}" switch between
 * the ASCII and the GB state, "~~" is "~", "~" and a line end is nothing;
 * in the GB state two bytes within 0x21..0x7D / 0x21..0x7E are a GBK
 * character with 0x80 added to each.  Anything else (a byte above 0x7F,
 * another "~" sequence, a lone byte at the end, an undefined pair) is
 * undefined. */
static const unsigned char *hz_decode(tfx_ctx *ctx, const unsigned char *b, size_t n,
                                      size_t *out_n)
{
    unsigned char *out;
    size_t k = 0, i = 0;
    bool gb = false, ok = true;
    gbk_cds cd;

    tfx_ctx_check_string(ctx, n);
    for (size_t j = 0; j < n; j++)
        tfx_ctx_step(ctx);
    out = tfx_ctx_alloc(ctx, 2 * n + 8);
    if (!gbk_open(&cd, false))
        return NULL;
    while (i < n && ok) {
        unsigned char c0 = b[i];

        if (c0 >= 0x80) {
            ok = false;
        } else if (c0 == '~') {
            ok = i + 1 < n;
            if (ok) {
                unsigned char c1 = b[i + 1];

                i += 2;
                if (c1 == '{')
                    gb = true;
                else if (c1 == '}')
                    gb = false;
                else if (c1 == '~')
                    out[k++] = '~';
                else
                    ok = c1 == '\n';
            }
        } else if (!gb) {
            out[k++] = c0;
            i++;
        } else {
            unsigned char pair[2];
            size_t r;

            ok = i + 1 < n && c0 >= 0x21 && c0 < 0x7e && b[i + 1] >= 0x21 && b[i + 1] < 0x7f;
            if (!ok)
                break;
            pair[0] = (unsigned char)(c0 + 0x80);
            pair[1] = (unsigned char)(b[i + 1] + 0x80);
            r = gbk_decode_seq(&cd, pair, 2, out + k);
            ok = r > 0;
            k += r;
            i += 2;
        }
    }
    gbk_close(&cd);
    *out_n = k;
    return ok ? out : NULL;
}

/* [fn.textencoding.sjis] Characters CP932 encodes and x/text's Shift_JIS
 * does not: the private use area (CP932's user-defined rows), and
 * ¢ £ ¥ ¬ — ‖ ‾ − 〜, which CP932 maps to JIS codes x/text reads as other
 * characters. */
static bool sjis_refused(int32_t c)
{
    return (c >= 0xe000 && c <= 0xf8ff) || c == 0xa2 || c == 0xa3 || c == 0xa5 || c == 0xac ||
           c == 0x2014 || c == 0x2016 || c == 0x203e || c == 0x2212 || c == 0x301c;
}

/* The code point CP932 gives the two bytes hi lo, -1 if none. */
static int32_t cp932_char(iconv_t cd, unsigned char hi, unsigned char lo)
{
    char in[2], *ip = in, *op;
    unsigned char out[8];
    size_t il = 2, ol = sizeof out;

    memcpy(in, (const char[2]){(char)hi, (char)lo}, 2);
    op = (char *)out;
    (void)iconv(cd, NULL, NULL, NULL, NULL);
    if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1 || sizeof out - ol != 4)
        return -1;
    return (int32_t)((uint32_t)out[0] | (uint32_t)out[1] << 8 | (uint32_t)out[2] << 16);
}

/* [fn.textencoding.sjis] Where CP932 writes a character of the IBM
 * extensions (lead bytes 0xFA-0xFC) that also has a code among the NEC
 * selected IBM extensions (lead bytes 0xED-0xEE), x/text writes the
 * latter: out[0..n) (Shift_JIS) is rewritten in place. */
static void sjis_prefer_nec(unsigned char *out, size_t n)
{
    iconv_t cd = iconv_open("UTF-32LE", "CP932");
    int32_t nec[2][256];
    bool have = false;

    if (tx_open_failed(cd))
        return;
    for (size_t i = 0; i < n;) {
        unsigned char c = out[i];

        if (!((c >= 0x81 && c <= 0x9f) || (c >= 0xe0 && c <= 0xfc)) || i + 1 >= n) {
            i++;
            continue;
        }
        if (c >= 0xfa) {
            int32_t ch = cp932_char(cd, c, out[i + 1]);

            if (!have) {
                for (int h = 0; h < 2; h++)
                    for (int l = 0; l < 256; l++)
                        nec[h][l] = l >= 0x40 ? cp932_char(cd, (unsigned char)(0xed + h),
                                                           (unsigned char)l)
                                              : -1;
                have = true;
            }
            for (int h = 0; h < 2 && ch >= 0; h++)
                for (int l = 0x40; l < 256; l++)
                    if (nec[h][l] == ch) {
                        out[i] = (unsigned char)(0xed + h);
                        out[i + 1] = (unsigned char)l;
                        h = 2;
                        break;
                    }
        }
        i += 2;
    }
    (void)iconv_close(cd);
}

/* [fn.textencoding.sjis] Shift_JIS text to UTF-8 as x/text reads it where
 * it differs from CP932: a byte 0x80 alone is U+0080, the user-defined
 * lead bytes 0xF0-0xF9 are undefined; the rest goes through CP932 in
 * pieces between the 0x80 bytes. */
static const unsigned char *sjis_decode(tfx_ctx *ctx, const unsigned char *b, size_t n,
                                        size_t *out_n)
{
    tfx_textbuf out;
    size_t i = 0, start = 0;

    tfx_textbuf_init(&out, ctx);
    tfx_textbuf_put(&out, "", 0);
    while (i <= n) {
        if (i == n || b[i] == 0x80) {
            size_t pn = 0;
            const unsigned char *piece =
                i > start ? tx_iconv(ctx, "UTF-8", "CP932", b + start, i - start, 4, &pn)
                          : (const unsigned char *)"";

            if (piece == NULL)
                return NULL;
            tfx_textbuf_put(&out, (const char *)piece, pn);
            if (i == n)
                break;
            tfx_textbuf_put(&out, "\xc2\x80", 2);
            start = ++i;
        } else if (b[i] >= 0xf0 && b[i] <= 0xf9) {
            return NULL;
        } else if ((b[i] >= 0x81 && b[i] <= 0x9f) || (b[i] >= 0xe0 && b[i] <= 0xfc)) {
            i += i + 1 < n ? 2 : 1; /* a lead byte and its trail byte */
        } else {
            i++;
        }
    }
    *out_n = out.nbytes;
    return (const unsigned char *)tfx_textbuf_text(&out);
}

/* [fn.textencodebase64.convert] The UTF-8 text s[0..n) in encoding e:
 * the bytes (*out_n), or NULL when a character has no encoding in it. */
static const unsigned char *tx_encode(tfx_ctx *ctx, const tx_encoding *e, const unsigned char *s,
                                size_t n, size_t *out_n)
{
    unsigned char *out;
    size_t k = 0;
    int32_t table[256];

    switch (e->kind) {
    case TX_SJIS:
        for (size_t i = 0; i < n;) {
            int32_t c;

            i += tfx_text_decode(s + i, n - i, &c);
            if (sjis_refused(c))
                return NULL;
        }
        out = tx_iconv(ctx, e->iconv, "UTF-8", s, n, 8, out_n);
        if (out != NULL)
            sjis_prefer_nec(out, *out_n);
        return out;
    case TX_ICONV:
        return tx_iconv(ctx, e->iconv, "UTF-8", s, n, 8, out_n);
    case TX_HZ:
        return hz_encode(ctx, s, n, out_n);
    case TX_GBK:
        return gbk_encode(ctx, s, n, false, out_n);
    case TX_UTF8:
        *out_n = n;
        return s;
    case TX_SBCS:
        if (!tx_table(e, table))
            return NULL;
        break;
    default:
        break;
    }
    tfx_ctx_check_string(ctx, n);
    out = tfx_ctx_alloc(ctx, 2 * n + 2);
    if (e->kind == TX_UTF16) {
        out[k++] = 0xfe;
        out[k++] = 0xff;
    }
    for (size_t i = 0; i < n;) {
        int32_t c;
        size_t len = tfx_text_decode(s + i, n - i, &c);
        int b = 0;

        tfx_ctx_step(ctx);
        i += len;
        switch (e->kind) {
        case TX_ASCII:
            if (c >= 0x80)
                return NULL;
            out[k++] = (unsigned char)c;
            break;
        case TX_SBCS:
            while (b < 256 && table[b] != c)
                b++;
            if (b == 256)
                return NULL;
            out[k++] = (unsigned char)b;
            break;
        default:
            put_utf16(out, &k, c, e->kind == TX_UTF16LE);
            break;
        }
    }
    *out_n = k;
    return out;
}

/* Appends code point c (valid) as UTF-8. */
static void put_utf8(unsigned char *out, size_t *k, uint32_t c)
{
    if (c < 0x80) {
        out[(*k)++] = (unsigned char)c;
    } else if (c < 0x800) {
        out[(*k)++] = (unsigned char)(0xc0 | c >> 6);
        out[(*k)++] = (unsigned char)(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
        out[(*k)++] = (unsigned char)(0xe0 | c >> 12);
        out[(*k)++] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
        out[(*k)++] = (unsigned char)(0x80 | (c & 0x3f));
    } else {
        out[(*k)++] = (unsigned char)(0xf0 | c >> 18);
        out[(*k)++] = (unsigned char)(0x80 | ((c >> 12) & 0x3f));
        out[(*k)++] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
        out[(*k)++] = (unsigned char)(0x80 | (c & 0x3f));
    }
}

/* [fn.textdecodebase64.convert] The bytes b[0..n) read in encoding e, as
 * UTF-8: NULL when a byte sequence is not defined in it (x/text would
 * write U+FFFD for it). */
static const unsigned char *tx_decode(tfx_ctx *ctx, const tx_encoding *e, const unsigned char *b,
                                size_t n, size_t *out_n)
{
    unsigned char *out;
    size_t k = 0, i = 0;
    int32_t table[256];
    const tx_kind kind = e->kind; /* read once: the calls below cannot change it */
    bool le = kind == TX_UTF16LE;

    switch (kind) {
    case TX_SJIS:
        return sjis_decode(ctx, b, n, out_n);
    case TX_ICONV:
        return tx_iconv(ctx, "UTF-8", e->iconv, b, n, 4, out_n);
    case TX_HZ:
        return hz_decode(ctx, b, n, out_n);
    case TX_GBK:
        return gbk_decode(ctx, b, n, out_n);
    case TX_UTF8:
        if (!tfx_text_valid(b, n))
            return NULL;
        *out_n = n;
        return b;
    case TX_SBCS:
        if (!tx_table(e, table))
            return NULL;
        break;
    default:
        break;
    }
    tfx_ctx_check_string(ctx, n);
    out = tfx_ctx_alloc(ctx, 3 * n + 1);
    if (kind == TX_UTF16 && n >= 2 && ((b[0] == 0xfe && b[1] == 0xff) || (b[0] == 0xff && b[1] == 0xfe))) {
        le = b[0] == 0xff;
        i = 2;
    }
    while (i < n) {
        tfx_ctx_step(ctx);
        switch (kind) {
        case TX_ASCII:
            if (b[i] >= 0x80)
                return NULL;
            out[k++] = b[i++];
            break;
        case TX_SBCS:
            if (table[b[i]] < 0)
                return NULL;
            put_utf8(out, &k, (uint32_t)table[b[i++]]);
            break;
        default: {
            uint32_t u;

            if (n - i < 2)
                return NULL;
            u = le ? (uint32_t)b[i] | (uint32_t)b[i + 1] << 8 : (uint32_t)b[i] << 8 | b[i + 1];
            i += 2;
            if (u >= 0xdc00 && u < 0xe000)
                return NULL;
            if (u >= 0xd800 && u < 0xdc00) {
                uint32_t u2;

                if (n - i < 2)
                    return NULL;
                u2 = le ? (uint32_t)b[i] | (uint32_t)b[i + 1] << 8 : (uint32_t)b[i] << 8 | b[i + 1];
                if (u2 < 0xdc00 || u2 >= 0xe000)
                    return NULL;
                i += 2;
                u = 0x10000 + ((u - 0xd800) << 10) + (u2 - 0xdc00);
            }
            put_utf8(out, &k, u);
            break;
        }
        }
    }
    *out_n = k;
    return out;
}

/* Whether s[0..n) holds U+FFFD. */
static bool has_replacement(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i + 3 <= n; i++)
        if (s[i] == 0xef && s[i + 1] == 0xbf && s[i + 2] == 0xbd)
            return true;
    return false;
}

static const tfx_param textencodebase64_params[] = {
    {.name = "string", .type = &tfx_type_str},
    {.name = "encoding", .type = &tfx_type_str},
};

/* The argument error of an encoding name x/text does not implement. */
static const void *tx_unknown(tfx_ctx *ctx, tfx_func_error *err, const tfx_value *name)
{
    return tfx_fn_arg_error(
        err, 1,
        tfx_ctx_printf(ctx,
                       "%s is not a supported IANA encoding name or alias in this Terraform version",
                       tfx_textbuf_quoted(ctx, name->as.string.s, name->as.string.nbytes)));
}

/* [fn.textencodebase64] The encoding is looked up first (argument error 1
 * when unknown); a character it cannot represent is the argument error 0
 * "the given string contains characters that cannot be represented in
 * <canonical name>"; else the bytes in standard base64. */
static const tfx_value *textencodebase64_impl(tfx_ctx *ctx, const tfx_function *fn,
                                              const tfx_type *ret, const tfx_value *const *args,
                                              size_t nargs, tfx_func_error *err)
{
    const tx_encoding *e = tx_lookup(ctx, args[1]->as.string.s, args[1]->as.string.nbytes);
    const unsigned char *bytes;
    size_t n = 0;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (e == NULL)
        return tx_unknown(ctx, err, args[1]);
    bytes = tx_encode(ctx, e, (const unsigned char *)args[0]->as.string.s,
                      args[0]->as.string.nbytes, &n);
    if (bytes == NULL)
        return tfx_fn_arg_error(
            err, 0,
            tfx_ctx_printf(ctx,
                           "the given string contains characters that cannot be represented in %s",
                           e->name));
    return base64_value(ctx, bytes, n);
}

static const tfx_function tfx_fn_textencodebase64 = {.name = "textencodebase64",
                                                     .params = textencodebase64_params,
                                                     .nparams =
                                                         TFX_COUNTOF(textencodebase64_params),
                                                     .varparam = NULL,
                                                     .type = NULL,
                                                     .ret_type = &tfx_type_str,
                                                     .impl = textencodebase64_impl};

static const tfx_param textdecodebase64_params[] = {
    {.name = "source", .type = &tfx_type_str},
    {.name = "encoding", .type = &tfx_type_str},
};

/* [fn.textdecodebase64] The encoding first (argument error 1); then the
 * base64 ([fn.base64.decode]; argument error 0 "the given value has an
 * invalid base64 symbol at offset N", Terraform's wording); then the
 * bytes in the encoding: an undefined sequence, or a U+FFFD in the text,
 * is the argument error 0 "the given string contains symbols that are not
 * defined for <canonical name>". */
static const tfx_value *textdecodebase64_impl(tfx_ctx *ctx, const tfx_function *fn,
                                              const tfx_type *ret, const tfx_value *const *args,
                                              size_t nargs, tfx_func_error *err)
{
    const tx_encoding *e = tx_lookup(ctx, args[1]->as.string.s, args[1]->as.string.nbytes);
    const unsigned char *raw, *text;
    size_t n = 0, offset = 0, tn = 0;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (e == NULL)
        return tx_unknown(ctx, err, args[1]);
    raw = base64_decode(ctx, (const unsigned char *)args[0]->as.string.s,
                        args[0]->as.string.nbytes, &n, &offset);
    if (raw == NULL)
        return tfx_fn_arg_error(
            err, 0,
            tfx_ctx_printf(ctx, "the given value has an invalid base64 symbol at offset %zu",
                           offset));
    text = tx_decode(ctx, e, raw, n, &tn);
    if (text == NULL || has_replacement(text, tn))
        return tfx_fn_arg_error(
            err, 0,
            tfx_ctx_printf(ctx, "the given string contains symbols that are not defined for %s",
                           e->name));
    return tfx_value_string(ctx, (const char *)text, tn);
}

static const tfx_function tfx_fn_textdecodebase64 = {.name = "textdecodebase64",
                                                     .params = textdecodebase64_params,
                                                     .nparams =
                                                         TFX_COUNTOF(textdecodebase64_params),
                                                     .varparam = NULL,
                                                     .type = NULL,
                                                     .ret_type = &tfx_type_str,
                                                     .impl = textdecodebase64_impl};

/* The functions this file registers [call.builtins], sorted by name. */
const tfx_builtin tfx_builtins_encoding[] = {
    {"base64decode", &tfx_fn_base64decode},
    {"base64encode", &tfx_fn_base64encode},
    {"csvdecode", &tfx_fn_csvdecode},
    {"jsondecode", &tfx_fn_jsondecode},
    {"jsonencode", &tfx_fn_jsonencode},
    {"textdecodebase64", &tfx_fn_textdecodebase64},
    {"textencodebase64", &tfx_fn_textencodebase64},
    {"urlencode", &tfx_fn_urlencode},
    {NULL, NULL},
};

/* For OpenTofu's base64gunzip (funcs_opentofu.c): [fn.base64.decode]
 * Go's StdEncoding.DecodeString of src[0..n), or NULL when it fails. */
unsigned char *tfx_base64_std_decode(tfx_ctx *ctx, const unsigned char *src, size_t n,
                                     size_t *out_n)
{
    size_t offset = 0;

    return base64_decode(ctx, src, n, out_n, &offset);
}
