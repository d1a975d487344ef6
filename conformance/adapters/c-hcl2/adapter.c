/* SPDX-License-Identifier: MPL-2.0 */
/*
 * adapter.c — the tfexpr conformance protocol (conformance/README.md, "The
 * protocol") in front of libhcl/c-hcl2, an independent C evaluator of HCL2
 * expressions. Built against a c-hcl2 checkout (see README.md beside this
 * file); it uses c-hcl2's public header, and its private one only to list
 * the keys of objects and maps (the public API looks keys up, never lists
 * them).
 *
 * What c-hcl2 offers and this adapter uses: hcl2_eval (parse and evaluate
 * one expression against variables and its function table; the first
 * error only, as "hcl2: MESSAGE at line L, column C" with C counted in
 * bytes), hcl2_expr_span (parse only: whether the input parses, its first
 * error) and its value model (null without a type, numbers as double, no
 * marks, unknowns whose type the public API does not expose).
 */
#define _POSIX_C_SOURCE 200809L

#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hcl2.h"
#include "hcl2_internal.h" /* the keys of objects and maps (struct hcl2_value) */

#ifndef C_HCL2_COMMIT
#define C_HCL2_COMMIT "unknown"
#endif

/* The functions of c-hcl2's table (builtin/registry.c at the pinned
 * commit) and its special forms try and can: declared as fn:<name>. */
static const char *const functions[] = {
    "abs", "abspath", "alltrue", "anytrue", "base64decode", "base64encode", "base64sha256",
    "base64sha512", "basename", "can", "ceil", "chomp", "chunklist", "cidrhost", "cidrnetmask",
    "cidrsubnet", "cidrsubnets", "coalesce", "coalescelist", "compact", "concat", "contains",
    "csvdecode", "dirname", "distinct", "element", "endswith", "file", "filebase64",
    "fileexists", "fileset", "flatten", "floor", "format", "formatdate", "formatlist", "indent",
    "index", "join", "jsondecode", "jsonencode", "keys", "length", "log", "lookup", "lower",
    "matchkeys", "max", "md5", "merge", "min", "one", "parseint", "pathexpand", "plantimestamp",
    "pow", "range", "regex", "regexall", "replace", "reverse", "setintersection", "setproduct",
    "setsubtract", "setunion", "sha1", "sha256", "sha512", "signum", "slice", "sort", "split",
    "startswith", "strrev", "substr", "sum", "templatefile", "timeadd", "timecmp", "timestamp",
    "title", "tobool", "tolist", "tomap", "tonumber", "toset", "tostring", "transpose", "trim",
    "trimprefix", "trimspace", "trimsuffix", "try", "upper", "uuid", "uuidv5", "values",
    "yamldecode", "yamlencode", "zipmap",
};

/* ------------------------------------------------------------------ */
/* Requests to c-hcl2 values                                           */

/* A type of the protocol as a c-hcl2 type constraint, or NULL where c-hcl2
 * has none (objects, tuples). */
static hcl2_type *to_type(json_t *t)
{
    if (json_is_string(t)) {
        const char *s = json_string_value(t);
        if (strcmp(s, "bool") == 0)
            return hcl2_type_bool();
        if (strcmp(s, "number") == 0)
            return hcl2_type_number();
        if (strcmp(s, "string") == 0)
            return hcl2_type_string();
        if (strcmp(s, "dynamic") == 0)
            return hcl2_type_any();
        return NULL;
    }
    if (json_is_array(t) && json_array_size(t) == 2 && json_is_string(json_array_get(t, 0))) {
        const char *k = json_string_value(json_array_get(t, 0));
        hcl2_type *elem;
        if (strcmp(k, "list") != 0 && strcmp(k, "set") != 0 && strcmp(k, "map") != 0)
            return NULL;
        elem = to_type(json_array_get(t, 1));
        if (elem == NULL)
            return NULL;
        if (strcmp(k, "list") == 0)
            return hcl2_type_list(elem);
        if (strcmp(k, "set") == 0)
            return hcl2_type_set(elem);
        return hcl2_type_map(elem);
    }
    return NULL;
}

/* The element type of a collection or structural type `t` for element
 * `key` (an index or attribute name). */
static json_t *elem_type(json_t *t, size_t index, const char *key)
{
    const char *k = json_string_value(json_array_get(t, 0));
    json_t *arg = json_array_get(t, 1);

    if (strcmp(k, "tuple") == 0)
        return json_array_get(arg, index);
    if (strcmp(k, "object") == 0)
        return json_object_get(arg, key);
    return arg;
}

/* A node of type `t` as a c-hcl2 value; NULL with *why set when it cannot
 * be given to c-hcl2. */
static hcl2_value *to_value(json_t *t, json_t *node, const char **why)
{
    json_t *own = json_object_get(node, "type");
    json_t *v = json_object_get(node, "v");

    if (own != NULL)
        t = own;
    if (json_is_true(json_object_get(node, "null")))
        return hcl2_null();
    if (json_is_true(json_object_get(node, "unknown"))) {
        hcl2_type *ty = to_type(t);
        return ty != NULL ? hcl2_unknown_of(ty) : hcl2_unknown();
    }
    if (json_is_string(t)) {
        const char *s = json_string_value(t);
        if (strcmp(s, "bool") == 0)
            return hcl2_bool(json_is_true(v));
        if (strcmp(s, "number") == 0) {
            const char *text = json_string_value(v);
            return hcl2_number(text != NULL ? strtod(text, NULL) : 0.0);
        }
        if (strcmp(s, "string") == 0) {
            if (strlen(json_string_value(v)) != json_string_length(v)) {
                *why = "a string holding NUL cannot be given to c-hcl2 (C strings)";
                return NULL;
            }
            return hcl2_string(json_string_value(v));
        }
        *why = "a known value of type dynamic";
        return NULL;
    }
    {
        const char *k = json_string_value(json_array_get(t, 0));
        hcl2_value *out;
        if (strcmp(k, "list") == 0 || strcmp(k, "set") == 0 || strcmp(k, "tuple") == 0) {
            size_t i;
            json_t *e;
            out = strcmp(k, "list") == 0 ? hcl2_list() : strcmp(k, "set") == 0 ? hcl2_set() : hcl2_tuple();
            json_array_foreach(v, i, e) {
                hcl2_value *ev = to_value(elem_type(t, i, NULL), e, why);
                if (ev == NULL) {
                    hcl2_value_free(out);
                    return NULL;
                }
                hcl2_tuple_push(out, ev);
            }
            return out;
        }
        {
            const char *key;
            json_t *e;
            out = strcmp(k, "map") == 0 ? hcl2_map() : hcl2_object();
            json_object_foreach(v, key, e) {
                hcl2_value *ev = to_value(elem_type(t, 0, key), e, why);
                if (ev == NULL) {
                    hcl2_value_free(out);
                    return NULL;
                }
                hcl2_object_set(out, key, ev);
            }
            return out;
        }
    }
}

/* ------------------------------------------------------------------ */
/* c-hcl2 values to answers                                            */

/* The shortest decimal text that reads back as d. */
static json_t *number_text(double d)
{
    char buf[40];
    int prec;

    if (isnan(d))
        return json_string("nan");
    if (isinf(d))
        return json_string(d > 0 ? "inf" : "-inf");
    if (d == 0)
        return json_string(signbit(d) ? "-0" : "0");
    for (prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    return json_string(buf);
}

static bool valid_utf8(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        size_t len, k;
        unsigned long cp;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf) {
            len = 2;
            cp = c & 0x1f;
        } else if (c >= 0xe0 && c <= 0xef) {
            len = 3;
            cp = c & 0x0f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            len = 4;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (i + len > n)
            return false;
        for (k = 1; k < len; k++) {
            unsigned char cc = (unsigned char)s[i + k];
            if ((cc & 0xc0) != 0x80)
                return false;
            cp = (cp << 6) | (cc & 0x3f);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        i += len;
    }
    return true;
}

static json_t *base64(const char *s, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(4 * (n / 3 + 1) + 1);
    size_t i, o = 0;
    json_t *j;

    if (out == NULL)
        return NULL;
    for (i = 0; i + 2 < n; i += 3) {
        unsigned long w = ((unsigned long)(unsigned char)s[i] << 16) |
                          ((unsigned long)(unsigned char)s[i + 1] << 8) | (unsigned char)s[i + 2];
        out[o++] = tab[(w >> 18) & 63];
        out[o++] = tab[(w >> 12) & 63];
        out[o++] = tab[(w >> 6) & 63];
        out[o++] = tab[w & 63];
    }
    if (i < n) {
        unsigned long w = (unsigned long)(unsigned char)s[i] << 16;
        if (i + 1 < n)
            w |= (unsigned long)(unsigned char)s[i + 1] << 8;
        out[o++] = tab[(w >> 18) & 63];
        out[o++] = tab[(w >> 12) & 63];
        out[o++] = (char)(i + 1 < n ? tab[(w >> 6) & 63] : '=');
        out[o++] = '=';
    }
    out[o] = '\0';
    j = json_string(out);
    free(out);
    return j;
}

/* A scalar value (or a null or an unknown) as a node. A string that is
 * not UTF-8 is given in base64. */
static json_t *encode_scalar(const hcl2_value *v)
{
    switch (hcl2_value_kind(v)) {
    case HCL2_BOOL: {
        bool b = false;
        hcl2_value_as_bool(v, &b);
        return json_pack("{s:b}", "v", b);
    }
    case HCL2_NUMBER: {
        double d = 0;
        hcl2_value_as_number(v, &d);
        return json_pack("{s:o}", "v", number_text(d));
    }
    case HCL2_STRING: {
        const char *s = hcl2_value_as_string(v);
        size_t n = strlen(s);
        if (valid_utf8(s, n))
            return json_pack("{s:s%}", "v", s, n);
        return json_pack("{s:o}", "v_base64", base64(s, n));
    }
    case HCL2_UNKNOWN:
        return json_pack("{s:b}", "unknown", 1);
    case HCL2_NULL:
    default:
        return json_pack("{s:b}", "null", 1);
    }
}

/* Encodes value v as a node; *type receives its type (a null or an
 * unknown is dynamic; a list's, set's or map's element type is that of its
 * known, non-null elements). */
static json_t *encode_node(const hcl2_value *v, json_t **type)
{
    hcl2_kind kind = hcl2_value_kind(v);

    if (kind == HCL2_TUPLE || kind == HCL2_LIST || kind == HCL2_SET ||
        kind == HCL2_OBJECT || kind == HCL2_MAP) {
        bool keyed = kind == HCL2_OBJECT || kind == HCL2_MAP;
        bool structural = kind == HCL2_TUPLE || kind == HCL2_OBJECT;
        size_t n = keyed ? v->nf : v->n;
        json_t *items = keyed ? json_object() : json_array();
        json_t *types = keyed ? json_object() : json_array();
        json_t *first = NULL;
        json_t *dynamic = json_string("dynamic");
        bool mixed = false;
        size_t i;

        for (i = 0; i < n; i++) {
            const hcl2_value *ev = keyed ? v->fields[i].val : v->items[i];
            json_t *et = NULL;
            json_t *e = encode_node(ev, &et);

            /* a null or an unknown (dynamic here) fits any element type */
            if (!structural && !json_equal(et, dynamic)) {
                if (first == NULL)
                    first = json_incref(et);
                else if (!json_equal(first, et))
                    mixed = true;
            }
            if (keyed) {
                json_object_set_new(items, v->fields[i].key, e);
                json_object_set_new(types, v->fields[i].key, et);
            } else {
                json_array_append_new(items, e);
                json_array_append_new(types, et);
            }
        }
        if (structural) {
            *type = json_pack("[s o]", kind == HCL2_TUPLE ? "tuple" : "object", types);
        } else {
            /* c-hcl2 can make a list, set or map whose elements differ in
             * type (no cty value): its element type is then dynamic and
             * each element carries its own */
            const char *k = kind == HCL2_LIST ? "list" : kind == HCL2_SET ? "set" : "map";
            if (mixed) {
                for (i = 0; i < n; i++) {
                    json_t *e = keyed ? json_object_get(items, v->fields[i].key) : json_array_get(items, i);
                    json_t *et = keyed ? json_object_get(types, v->fields[i].key) : json_array_get(types, i);
                    json_object_set(e, "type", et);
                }
                json_decref(first);
                first = json_string("dynamic");
            }
            *type = json_pack("[s o]", k, first != NULL ? first : json_string("dynamic"));
            json_decref(types);
        }
        json_decref(dynamic);
        return json_pack("{s:o}", "v", items);
    }
    *type = kind == HCL2_BOOL     ? json_string("bool")
            : kind == HCL2_NUMBER ? json_string("number")
            : kind == HCL2_STRING ? json_string("string")
                                  : json_string("dynamic");
    return encode_scalar(v);
}

/* ------------------------------------------------------------------ */
/* Diagnostics                                                         */

/* c-hcl2's messages mapped to categories by what the error is about
 * (conformance/README.md, "Categories"): the first entry whose text occurs
 * in the message, for its phase, gives the category. c-hcl2 does not tell
 * some categories apart (a missing and an invalid expression; a function's
 * argument error and its failure); the entry picks the nearer one. */
static const struct {
    const char *phase;
    const char *text;
    const char *category;
} categories[] = {
    {"parse", "invalid character", "syntax.invalid-character"},
    {"parse", "unexpected '&'", "syntax.unsupported-operator"},
    {"parse", "unexpected '|'", "syntax.unsupported-operator"},
    {"parse", "unterminated", "syntax.unterminated"},
    {"parse", "trailing tokens after expression", "syntax.trailing-input"},
    {"parse", "for-expression", "syntax.for-expression"},
    {"parse", "after 'for'", "syntax.for-expression"},
    {"parse", "after ','", "syntax.for-expression"},
    {"parse", "expected ')'", "syntax.unterminated"},
    {"parse", "expected ']'", "syntax.missing-token"},
    {"parse", "expected ':' in conditional", "syntax.missing-token"},
    {"parse", "expected '=' after object key", "syntax.missing-token"},
    {"parse", "expected", "syntax.invalid-expression"},
    {"parse", "heredoc", "syntax.invalid-expression"},
    {"eval", "undefined variable", "eval.unknown-variable"},
    {"eval", "unknown function", "eval.unknown-function"},
    {"eval", "no attribute", "eval.unsupported-attribute"},
    {"eval", "index out of range", "eval.invalid-index"},
    {"eval", "for-expression 'if'", "eval.iteration"},
    {"eval", "for-expression key", "eval.object-key"},
    {"eval", "for-expression requires", "eval.iteration"},
    {"eval", "%{ for } requires", "eval.iteration"},
    {"eval", "requires numbers", "eval.operand-type"},
    {"eval", "require booleans", "eval.operand-type"},
    {"eval", "unary operator", "eval.operand-type"},
    {"eval", "cannot interpolate", "eval.operand-type"},
    {"eval", "condition must be a boolean", "eval.operand-type"},
    {"eval", "division by zero", "eval.operation-failed"},
    {"eval", "modulo by zero", "eval.operation-failed"},
    {"eval", "spread argument", "eval.function-argument"},
    {"eval", "() takes", "eval.arity"},
    {"eval", "needs at least one", "eval.arity"},
    {"eval", "() needs", "eval.function-argument"},
    {"eval", "()", "eval.function-error"},
    {"eval", ":", "eval.function-error"},
};

static const char *category_of(const char *phase, const char *msg)
{
    size_t i;

    for (i = 0; i < sizeof categories / sizeof categories[0]; i++)
        if (strcmp(categories[i].phase, phase) == 0 && strstr(msg, categories[i].text) != NULL)
            return categories[i].category;
    return NULL;
}

/* c-hcl2's error text "hcl2: MESSAGE at line L, column C" (C in bytes
 * from 1) as a diagnostic of `phase`; the subject is a point at the start
 * (c-hcl2 has no ends), none without a position. */
static json_t *diagnostic(const char *err, const char *phase, const char *src, size_t len)
{
    const char *msg = strncmp(err, "hcl2: ", 6) == 0 ? err + 6 : err;
    const char *at = NULL;
    const char *p = msg;
    int line = 0, col = 0;
    json_t *d = json_pack("{s:s s:s}", "severity", "error", "phase", phase);

    while ((p = strstr(p, " at line ")) != NULL) {
        at = p;
        p++;
    }
    if (at != NULL) {
        char *end;
        line = (int)strtol(at + strlen(" at line "), &end, 10);
        if (strncmp(end, ", column ", 9) == 0)
            col = (int)strtol(end + 9, &end, 10);
        if (*end != '\0')
            line = 0;
    }
    if (line >= 1 && col >= 1) {
        size_t byte = 0;
        int l = 1;
        while (l < line && byte < len) {
            if (src[byte] == '\n')
                l++;
            byte++;
        }
        byte += (size_t)(col - 1);
        if (byte > len)
            byte = len;
        json_object_set_new(d, "summary", json_stringn(msg, (size_t)(at - msg)));
        json_object_set_new(d, "subject",
                            json_pack("{s:{s:I} s:{s:I}}", "start", "byte", (json_int_t)byte,
                                      "end", "byte", (json_int_t)byte));
    } else {
        json_object_set_new(d, "summary", json_string(msg));
    }
    if (json_object_get(d, "summary") == NULL || !json_is_string(json_object_get(d, "summary")))
        json_object_set_new(d, "summary", json_string("(not UTF-8)"));
    {
        const char *summary = json_string_value(json_object_get(d, "summary"));
        const char *category = category_of(phase, summary);
        json_t *start = json_object_get(json_object_get(d, "subject"), "start");

        /* an expression expected where only blanks are left is missing,
         * not invalid (HCL's "Missing expression") */
        if (strcmp(phase, "parse") == 0 && strcmp(summary, "expected an expression") == 0 &&
            start != NULL) {
            size_t i = (size_t)json_integer_value(json_object_get(start, "byte"));
            while (i < len && strchr(" \t\r\n", src[i]) != NULL && src[i] != '\0')
                i++;
            if (i == len)
                category = "syntax.missing-token";
        }
        if (category != NULL)
            json_object_set_new(d, "category", json_string(category));
    }
    return json_pack("[o]", d);
}

/* ------------------------------------------------------------------ */
/* The protocol                                                        */

static size_t base64_decode(const char *in, char *out)
{
    size_t n = 0;
    unsigned long acc = 0;
    int bits = 0;

    for (; *in != '\0'; in++) {
        int c = (unsigned char)*in, val;
        if (c >= 'A' && c <= 'Z')
            val = c - 'A';
        else if (c >= 'a' && c <= 'z')
            val = c - 'a' + 26;
        else if (c >= '0' && c <= '9')
            val = c - '0' + 52;
        else if (c == '+')
            val = 62;
        else if (c == '/')
            val = 63;
        else
            continue;
        acc = (acc << 6) | (unsigned long)val;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[n++] = (char)((acc >> bits) & 0xff);
        }
    }
    return n;
}

static json_t *unsupported(const char *why)
{
    return json_pack("{s:b s:s}", "unsupported", 1, "message", why);
}

static json_t *run_case(json_t *c)
{
    const char *request = json_string_value(json_object_get(c, "request"));
    const char *mode = json_string_value(json_object_get(c, "mode"));
    json_t *input = json_object_get(c, "input");
    json_t *vars = json_object_get(c, "variables");
    char *src;
    size_t len;
    char err[1024] = "";
    json_t *answer;

    if (request == NULL)
        request = "eval";
    if (strcmp(request, "eval") != 0 && strcmp(request, "parse") != 0)
        return unsupported("c-hcl2's adapter answers eval and parse requests only");
    if (mode == NULL || strcmp(mode, "expression") != 0)
        return unsupported("c-hcl2 evaluates expressions only (no bare templates)");
    if (json_object_get(c, "host") != NULL || json_object_get(c, "flavor") != NULL)
        return unsupported("no host description or function table flavor in c-hcl2");
    if (json_is_string(input)) {
        len = json_string_length(input);
        src = malloc(len + 1);
        if (src == NULL)
            return json_pack("{s:b s:s}", "errored", 1, "message", "out of memory");
        memcpy(src, json_string_value(input), len + 1);
    } else {
        const char *b64 = json_string_value(json_object_get(c, "input_base64"));
        if (b64 == NULL)
            b64 = "";
        src = malloc(strlen(b64) + 1);
        if (src == NULL)
            return json_pack("{s:b s:s}", "errored", 1, "message", "out of memory");
        len = base64_decode(b64, src);
        src[len] = '\0';
    }

    if (!hcl2_expr_span(src, len, NULL, NULL, NULL, NULL, err, sizeof err)) {
        answer = json_pack("{s:o}", "diagnostics", diagnostic(err, "parse", src, len));
    } else if (strcmp(request, "parse") == 0) {
        answer = json_pack("{s:[]}", "diagnostics");
    } else {
        hcl2_ctx *ctx = hcl2_ctx_new();
        const char *name;
        json_t *tv;
        const char *why = NULL;
        hcl2_value *result;

        json_object_foreach(vars, name, tv) {
            hcl2_value *v = to_value(json_object_get(tv, "type"), tv, &why);
            if (v == NULL)
                break;
            hcl2_ctx_set_var(ctx, name, v);
        }
        if (why != NULL) {
            hcl2_ctx_free(ctx);
            free(src);
            return unsupported(why);
        }
        err[0] = '\0';
        result = hcl2_eval(src, len, ctx, err, sizeof err);
        if (result == NULL) {
            answer = json_pack("{s:o}", "diagnostics", diagnostic(err, "eval", src, len));
        } else {
            json_t *type = NULL;
            json_t *node = encode_node(result, &type);
            json_object_set_new(node, "type", type);
            answer = json_pack("{s:o}", "value", node);
            hcl2_value_free(result);
        }
        hcl2_ctx_free(ctx);
    }
    free(src);
    return answer;
}

static json_t *hello(void)
{
    json_t *caps = json_pack("[s s s s s]", "mode.expression", "request.parse", "unknown",
                             "diagnostics.first-only", "ranges.start-only");
    size_t i;

    for (i = 0; i < sizeof functions / sizeof functions[0]; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "fn:%s", functions[i]);
        json_array_append_new(caps, json_string(buf));
    }
    return json_pack("{s:i s:{s:s s:s s:s} s:o s:[s]}", "protocol", 1, "implementation", "name",
                     "c-hcl2", "version", "commit " C_HCL2_COMMIT, "language", "c",
                     "capabilities", caps, "profiles", "P14");
}

static void write_answer(json_t *a)
{
    char *text = json_dumps(a, JSON_COMPACT | JSON_ENSURE_ASCII);
    if (text == NULL) {
        fputs("{\"seq\":0,\"errored\":true,\"message\":\"cannot encode the answer\"}\n", stdout);
    } else {
        fputs(text, stdout);
        fputc('\n', stdout);
        free(text);
    }
    fflush(stdout);
    json_decref(a);
}

int main(int argc, char **argv)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;

    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("c-hcl2 commit %s\n", C_HCL2_COMMIT);
        return 0;
    }
    while ((n = getline(&line, &cap, stdin)) > 0) {
        json_error_t jerr;
        json_t *req = json_loadb(line, (size_t)n, JSON_ALLOW_NUL, &jerr);
        const char *cmd = json_string_value(json_object_get(req, "cmd"));

        if (req == NULL) {
            write_answer(json_pack("{s:i s:b s:s}", "seq", 0, "errored", 1, "message", jerr.text));
            continue;
        }
        if (cmd != NULL && strcmp(cmd, "hello") == 0) {
            write_answer(hello());
        } else if (cmd != NULL && strcmp(cmd, "stop") == 0) {
            json_decref(req);
            break;
        } else {
            json_t *a = run_case(json_object_get(req, "case"));
            json_object_set(a, "seq", json_object_get(req, "seq"));
            write_answer(a);
        }
        json_decref(req);
    }
    free(line);
    return 0;
}
