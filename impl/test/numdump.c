/* SPDX-License-Identifier: MPL-2.0 */
/*
 * numdump.c — evaluates number operations with tfexpr's num module, one
 * JSON object per line, for tools/numdiff to compare with
 * tools/go-numdump (which documents the request and answer format).
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

static const char *err_code(tfx_num_err err)
{
    switch (err) {
    case TFX_NUM_OK:
        return "ok";
    case TFX_NUM_ERR_NOMEM:
        return "nomem";
    case TFX_NUM_ERR_SYNTAX:
        return "syntax";
    case TFX_NUM_ERR_ADD_INF:
        return "add-inf";
    case TFX_NUM_ERR_SUB_INF:
        return "sub-inf";
    case TFX_NUM_ERR_MUL_ZERO_INF:
        return "mul-zero-inf";
    case TFX_NUM_ERR_DIV_INDET:
        return "div-indet";
    case TFX_NUM_ERR_MOD_INF:
        return "mod-inf";
    case TFX_NUM_ERR_MOD_INF_QUOTIENT:
        return "mod-panic";
    case TFX_NUM_ERR_TOO_LONG:
        return "too-long";
    }
    return "unknown";
}

/* Evaluates e into *out; an error code (a static string) or NULL. */
static const char *eval(tfx_arena *a, json_t *e, const tfx_num **out)
{
    const char *op = json_string_value(json_object_get(e, "op"));
    const tfx_num *x = NULL, *y = NULL;
    const char *err;
    tfx_num_err r = TFX_NUM_OK;

    if (e == NULL)
        return "missing operand";
    if (op == NULL) {
        const char *text = json_string_value(json_object_get(e, "text"));
        json_int_t prec = json_integer_value(json_object_get(e, "prec"));
        char *end;

        if (text == NULL)
            return "bad operand";
        if (prec == 512) {
            r = tfx_num_parse_n(a, text, strlen(text), out);
            return r == TFX_NUM_OK ? NULL : err_code(r);
        }
        errno = 0;
        if (prec == 64) {
            long long v = strtoll(text, &end, 10);

            if (errno != 0 || *end != '\0' || end == text)
                return "bad int64 operand";
            *out = tfx_num_from_int64(a, (int64_t)v);
        } else if (prec == 53) {
            double v = strtod(text, &end);

            if (*end != '\0' || end == text)
                return "bad float64 operand";
            *out = tfx_num_from_double(a, v);
        } else
            return "bad precision";
        return *out == NULL ? "nomem" : NULL;
    }
    if ((err = eval(a, json_object_get(e, "a"), &x)) != NULL)
        return err;
    if (strcmp(op, "parse") == 0 || strcmp(op, "format") == 0) {
        *out = x;
        return NULL;
    }
    if (strcmp(op, "neg") == 0) {
        *out = tfx_num_neg(a, x);
        return *out == NULL ? "nomem" : NULL;
    }
    if ((err = eval(a, json_object_get(e, "b"), &y)) != NULL)
        return err;
    if (strcmp(op, "add") == 0)
        r = tfx_num_add(a, x, y, out);
    else if (strcmp(op, "sub") == 0)
        r = tfx_num_sub(a, x, y, out);
    else if (strcmp(op, "mul") == 0)
        r = tfx_num_mul(a, x, y, out);
    else if (strcmp(op, "div") == 0)
        r = tfx_num_div(a, x, y, out);
    else if (strcmp(op, "mod") == 0)
        r = tfx_num_mod(a, x, y, out);
    else
        return "bad op";
    return r == TFX_NUM_OK ? NULL : err_code(r);
}

static json_t *answer(tfx_arena *a, json_t *req)
{
    const char *op = json_string_value(json_object_get(req, "op"));
    const tfx_num *x = NULL, *y = NULL;
    const char *err;
    char *text;

    if (op == NULL)
        return json_pack("{ss}", "error", "bad request");
    if (strcmp(op, "cmp") == 0 || strcmp(op, "eq") == 0) {
        bool eq = false;

        if ((err = eval(a, json_object_get(req, "a"), &x)) != NULL
            || (err = eval(a, json_object_get(req, "b"), &y)) != NULL)
            return json_pack("{ss}", "error", err);
        if (op[0] == 'c')
            return json_pack("{si}", "cmp", tfx_num_cmp(x, y));
        if (tfx_num_equal(x, y, &eq) != TFX_NUM_OK)
            return json_pack("{ss}", "error", "nomem");
        return json_pack("{sb}", "bool", eq);
    }
    if ((err = eval(a, req, &x)) != NULL)
        return json_pack("{ss}", "error", err);
    text = tfx_num_format(a, x, NULL);
    if (text == NULL)
        return json_pack("{ss}", "error", "nomem");
    return json_pack("{sssI}", "text", text, "prec", (json_int_t)tfx_num_prec(x));
}

int main(void)
{
    char *line = NULL;
    size_t cap = 0;

    while (getline(&line, &cap, stdin) > 0) {
        tfx_arena *a = tfx_arena_new(0);
        json_t *req = json_loads(line, 0, NULL);
        json_t *ans;
        char *s;

        if (a == NULL)
            return 1;
        ans = req != NULL ? answer(a, req) : json_pack("{ss}", "error", "bad request");
        s = json_dumps(ans, JSON_COMPACT | JSON_SORT_KEYS);
        if (s != NULL) {
            fputs(s, stdout);
            free(s);
        }
        putchar('\n');
        fflush(stdout);
        json_decref(ans);
        json_decref(req);
        tfx_arena_free(a);
    }
    free(line);
    return 0;
}
