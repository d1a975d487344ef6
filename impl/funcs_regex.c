/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_regex.c — the regular expression functions regex, regexall and
 * replace (spec/functions-regex.md), on the Go-exact engine of
 * regex_parse.c and regex_exec.c.  regex and regexall are cty 1.12.1's
 * stdlib RegexFunc and RegexAllFunc; replace is Terraform's ReplaceFunc.
 * A call parses its pattern in the type function (for the result type
 * and the syntax errors) and compiles it once in the implementation; the
 * work is charged to the evaluation.
 */
#include <stddef.h>
#include <string.h>

#include "common.h"
#include "funcs_internal.h"
#include "regex.h"
#include "text.h"

#define PLAIN_STR(pname) {.name = (pname), .type = &tfx_type_str}

/* [fn.regex.params] [fn.regexall.params] Two plain strings: null,
 * unknown and marks are the machinery's. */
static const tfx_param regex_params[] = {PLAIN_STR("pattern"), PLAIN_STR("string")};

/* [fn.replace.params] */
static const tfx_param replace_params[] = {PLAIN_STR("str"), PLAIN_STR("substr"),
                                           PLAIN_STR("replace")};

/* [fn.regex.type] cty's regexPatternResultType: the result type of a
 * known pattern.  No groups: string; unnamed groups only: a tuple of as
 * many strings; named groups only: an object of their names (a name used
 * twice is one attribute); both kinds: an error.  A pattern Go rejects
 * is the error "invalid regexp pattern: CODE in EXPR".  Errors are the
 * pattern argument's. */
static const tfx_type *pattern_type(tfx_ctx *ctx, const tfx_value *pattern, tfx_func_error *err)
{
    tfx_regex_error rerr;
    const tfx_regex *re =
        tfx_regex_syntax(ctx, pattern->as.string.s, pattern->as.string.nbytes, &rerr);
    if (re == NULL) {
        tfx_textbuf b;
        tfx_textbuf_init(&b, ctx);
        tfx_textbuf_printf(&b, "invalid regexp pattern: %s in ", rerr.code);
        tfx_textbuf_put(&b, rerr.expr, rerr.expr_nbytes);
        return tfx_fn_arg_error(err, 0, tfx_textbuf_text(&b));
    }
    size_t n = tfx_regex_ngroups(re), unnamed = 0;
    for (size_t i = 1; i <= n; i++)
        if (*tfx_regex_group_name(re, i) == '\0')
            unnamed++;
    if (n == 0)
        return &tfx_type_str;
    if (unnamed > 0 && unnamed < n)
        return tfx_fn_arg_error(
            err, 0, "invalid regexp pattern: cannot mix both named and unnamed capture groups");
    const tfx_type **types = tfx_ctx_alloc_array(ctx, n, sizeof(const tfx_type *));
    for (size_t i = 0; i < n; i++)
        types[i] = &tfx_type_str;
    if (unnamed == n)
        return tfx_type_tuple(ctx, types, n);
    tfx_str *names = tfx_ctx_alloc_array(ctx, n, sizeof(tfx_str));
    for (size_t i = 0; i < n; i++) {
        names[i].s = tfx_regex_group_name(re, i + 1);
        names[i].nbytes = strlen(names[i].s);
    }
    return tfx_type_object(ctx, names, types, n);
}

static const tfx_type *regex_type(tfx_ctx *ctx, const tfx_function *fn,
                                  const tfx_value *const *args, size_t nargs,
                                  tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    /* [fn.regex.unknown] An unknown pattern: a result of type dynamic. */
    if (tfx_value_is_unknown(args[0]))
        return &tfx_type_dynamic;
    return pattern_type(ctx, args[0], err);
}

/* [fn.regexall.type] A list of what regex would give. */
static const tfx_type *regexall_type(tfx_ctx *ctx, const tfx_function *fn,
                                     const tfx_value *const *args, size_t nargs,
                                     tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (tfx_value_is_unknown(args[0]))
        return tfx_type_list(ctx, &tfx_type_dynamic);
    const tfx_type *t = pattern_type(ctx, args[0], err);
    return t == NULL ? NULL : tfx_type_list(ctx, t);
}

/* The part s[from..to) of the subject as a string (NFC), or a null
 * string for a group that did not take part. */
static const tfx_value *group_value(tfx_ctx *ctx, const tfx_value *str, long from, long to)
{
    if (from < 0 || to < 0)
        return tfx_value_null(ctx, &tfx_type_str);
    return tfx_value_string(ctx, str->as.string.s + from, (size_t)(to - from));
}

/* [fn.regex.result] cty's regexPatternResult: the match as a value of
 * type t: the whole match (string), the groups in order (tuple), or the
 * groups by name (object; of groups sharing a name, the last one's). */
static const tfx_value *match_value(tfx_ctx *ctx, const tfx_regex *re, const tfx_value *str,
                                    const long *caps, const tfx_type *t)
{
    if (t->kind == TFX_TYPE_STRING)
        return group_value(ctx, str, caps[0], caps[1]);
    size_t n = tfx_regex_ngroups(re);
    const tfx_value **vals = tfx_ctx_alloc_array(ctx, n, sizeof(const tfx_value *));
    for (size_t i = 0; i < n; i++)
        vals[i] = group_value(ctx, str, caps[2 * i + 2], caps[2 * i + 3]);
    if (t->kind == TFX_TYPE_TUPLE)
        return tfx_value_tuple(ctx, vals, n);
    tfx_str *names = tfx_ctx_alloc_array(ctx, n, sizeof(tfx_str));
    for (size_t i = 0; i < n; i++) {
        names[i].s = tfx_regex_group_name(re, i + 1);
        names[i].nbytes = strlen(names[i].s);
    }
    return tfx_value_object(ctx, names, vals, n);
}

/* Compiles the (known, valid: the type function checked it) pattern. */
static const tfx_regex *compile_known(tfx_ctx *ctx, const tfx_value *pattern,
                                      tfx_func_error *err)
{
    tfx_regex_error rerr;
    const tfx_regex *re =
        tfx_regex_compile(ctx, pattern->as.string.s, pattern->as.string.nbytes, &rerr);
    if (re == NULL) {
        const char *text = tfx_regex_error_text(ctx, &rerr);
        tfx_fn_arg_error(err, 0, tfx_ctx_printf(ctx, "error parsing pattern: %s", text));
    }
    return re;
}

/* [fn.regex.result] [fn.regex.nomatch] The leftmost-first match of the
 * pattern [re.match.leftmost-first]; none is the plain error "pattern did
 * not match any part of the given string". */
static const tfx_value *regex_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (ret->kind == TFX_TYPE_DYNAMIC)
        return &tfx_value_dynamic_unknown;
    const tfx_regex *re = compile_known(ctx, args[0], err);
    if (re == NULL)
        return NULL;
    long *caps = tfx_ctx_alloc_array(ctx, 2 * (tfx_regex_ngroups(re) + 1), sizeof(long));
    if (!tfx_regex_match(ctx, re, args[1]->as.string.s, args[1]->as.string.nbytes, 0, caps))
        return tfx_fn_error(err, "pattern did not match any part of the given string");
    return match_value(ctx, re, args[1], caps, ret);
}

/* [fn.regexall.result] Every match, as FindAllStringSubmatchIndex finds
 * them [re.findall], each as regex gives it; no match: an empty list. */
static const tfx_value *regexall_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                      const tfx_value *const *args, size_t nargs,
                                      tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    const tfx_type *ety = ret->elem;
    if (ety->kind == TFX_TYPE_DYNAMIC)
        return &tfx_value_dynamic_unknown;
    const tfx_regex *re = compile_known(ctx, args[0], err);
    if (re == NULL)
        return NULL;
    long *caps;
    size_t n = tfx_regex_find_all(ctx, re, args[1]->as.string.s, args[1]->as.string.nbytes, &caps);
    size_t ncap = 2 * (tfx_regex_ngroups(re) + 1);
    const tfx_value **items = tfx_ctx_alloc_array(ctx, n ? n : 1, sizeof(const tfx_value *));
    for (size_t i = 0; i < n; i++)
        items[i] = match_value(ctx, re, args[1], caps + i * ncap, ety);
    return tfx_value_list(ctx, ety, items, n);
}

/* [fn.replace.literal] Go's strings.Replace(s, old, new, -1): every
 * occurrence of old, left to right, without overlaps; an empty old puts
 * new before every code point and at the end. */
static const tfx_value *replace_literal(tfx_ctx *ctx, const tfx_value *str, const tfx_value *old,
                                        const tfx_value *rep)
{
    const char *s = str->as.string.s, *o = old->as.string.s, *r = rep->as.string.s;
    size_t n = str->as.string.nbytes, no = old->as.string.nbytes, nr = rep->as.string.nbytes;
    tfx_textbuf b;
    tfx_textbuf_init(&b, ctx);
    size_t i = 0;
    if (no == 0) {
        while (i < n) {
            int32_t cp;
            size_t w = tfx_text_decode((const unsigned char *)s + i, n - i, &cp);
            tfx_textbuf_put(&b, r, nr);
            tfx_textbuf_put(&b, s + i, w);
            i += w;
            tfx_ctx_step(ctx);
            tfx_ctx_check_string(ctx, b.nbytes);
        }
        tfx_textbuf_put(&b, r, nr);
    } else {
        while (i < n) {
            const char *hit = NULL;
            for (size_t k = i; k + no <= n; k++) {
                if (s[k] == o[0] && memcmp(s + k, o, no) == 0) {
                    hit = s + k;
                    break;
                }
                if ((k & 255) == 0)
                    tfx_ctx_step(ctx);
            }
            if (hit == NULL)
                break;
            size_t at = (size_t)(hit - s);
            tfx_textbuf_put(&b, s + i, at - i);
            tfx_textbuf_put(&b, r, nr);
            i = at + no;
            tfx_ctx_step(ctx);
            tfx_ctx_check_string(ctx, b.nbytes);
        }
        tfx_textbuf_put(&b, s + i, n - i);
    }
    tfx_ctx_check_string(ctx, b.nbytes);
    return tfx_value_string(ctx, tfx_textbuf_text(&b), b.nbytes);
}

/* [fn.replace.regex] A substr longer than one byte that starts and ends
 * with "/" is a regular expression (the bytes between): every match is
 * replaced as ReplaceAllString does [re.replace], with $ expansion
 * [re.expand]; a pattern Go rejects is the plain error of Go's text
 * ("error parsing regexp: ...").  Otherwise the literal replacement. */
static const tfx_value *replace_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                     const tfx_value *const *args, size_t nargs,
                                     tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    const tfx_value *str = args[0], *sub = args[1], *rep = args[2];
    const char *p = sub->as.string.s;
    size_t np = sub->as.string.nbytes;
    if (np > 1 && p[0] == '/' && p[np - 1] == '/') {
        tfx_regex_error rerr;
        const tfx_regex *re = tfx_regex_compile(ctx, p + 1, np - 2, &rerr);
        if (re == NULL)
            return tfx_fn_error(err, tfx_regex_error_text(ctx, &rerr));
        size_t nout;
        const char *out = tfx_regex_replace_all(ctx, re, str->as.string.s, str->as.string.nbytes,
                                                rep->as.string.s, rep->as.string.nbytes, &nout);
        return tfx_value_string(ctx, out, nout);
    }
    return replace_literal(ctx, str, sub, rep);
}

static const tfx_function fn_regex = {.name = "regex",
                                      .params = regex_params,
                                      .nparams = TFX_COUNTOF(regex_params),
                                      .type = regex_type,
                                      .impl = regex_impl};
static const tfx_function fn_regexall = {.name = "regexall",
                                         .params = regex_params,
                                         .nparams = TFX_COUNTOF(regex_params),
                                         .type = regexall_type,
                                         .impl = regexall_impl};
static const tfx_function fn_replace = {.name = "replace",
                                        .params = replace_params,
                                        .nparams = TFX_COUNTOF(replace_params),
                                        .ret_type = &tfx_type_str,
                                        .impl = replace_impl};

const tfx_builtin tfx_builtins_regex[] = {
    {"regex", &fn_regex},
    {"regexall", &fn_regexall},
    {"replace", &fn_replace},
    {NULL, NULL},
};
