/*
 * funcs_encoding.c — encoding functions [fn.jsonencode]: cty 1.12.1's
 * stdlib JSONEncodeFunc, which Terraform registers as it is.  The JSON
 * text itself is jsonio's (cty's json.Marshal).
 */
#include <stdbool.h>
#include <string.h>

#include "common.h"
#include "funcs_internal.h"
#include "jsonio.h"

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
 * [fn.jsondecode.duplicate] An unknown string gives dynamic; a known one is
 * decoded (cty's json.ImpliedType, then Unmarshal with that type: one
 * pass here, tfx_json_decode_plain) and the type of the decoded value is
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
    if (!tfx_value_is_known(str))
        return &tfx_type_dynamic;
    v = tfx_json_decode_plain(ctx, str->as.string.s, str->as.string.nbytes, &error);
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
    v = tfx_json_decode_plain(ctx, str->as.string.s, str->as.string.nbytes, &error);
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

/* The functions this file registers [call.builtins], sorted by name. */
const tfx_builtin tfx_builtins_encoding[] = {
    {"csvdecode", &tfx_fn_csvdecode},
    {"jsondecode", &tfx_fn_jsondecode},
    {"jsonencode", &tfx_fn_jsonencode},
    {NULL, NULL},
};
