/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_string.c — string functions: [fn.upper], [fn.lower] (functions.md)
 * and the functions of functions-strings.md: chomp, indent, join, split,
 * strrev, substr, title, trim, trimprefix, trimspace, trimsuffix.  All are
 * cty 1.12.1's stdlib functions, which Terraform registers as they are;
 * plus cty's StrlenFunc, which Terraform's length calls for strings (not
 * a function of its own in Terraform); and Terraform's own startswith,
 * endswith and strcontains.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common.h"
#include "funcs_internal.h"
#include "refine.h"
#include "text.h"

/* The string of upper, lower and strlen (string.go): a string, dynamic
 * allowed; null, unknown and marks are the machinery's. */
static const tfx_param str_param[] = {
    {.name = "str", .type = &tfx_type_str, .allow_dynamic = true},
};

/* [fn.upper.map] [fn.lower.map] Go's strings.ToUpper / ToLower: each code
 * point mapped to its simple upper (lower) case, no special casing, no
 * locale; the result is a new string value, so NFC again
 * (value.string.nfc). */
static const tfx_value *map_case(tfx_ctx *ctx, const tfx_value *str, bool upper)
{
    size_t nbytes = 0;
    const char *out =
        tfx_text_map_case(ctx->arena, str->as.string.s, str->as.string.nbytes, upper, &nbytes);

    if (out == NULL)
        tfx_fn_nomem(ctx);
    tfx_ctx_check_string(ctx, nbytes);
    /* [value.string.nfc] the case of ASCII text is ASCII text, which is
     * NFC as it is: tfx_value_string would only copy it (tfx_text_nfc's
     * ASCII path), so the new text itself is the value's */
    if (tfx_text_is_ascii((const unsigned char *)out, nbytes))
        return tfx_value_string_raw(ctx, out, nbytes);
    return tfx_value_string(ctx, out, nbytes);
}

static const tfx_value *upper_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return map_case(ctx, args[0], true);
}

static const tfx_value *lower_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return map_case(ctx, args[0], false);
}

/* [fn.length.string] cty's Strlen: the number of extended grapheme
 * clusters of the (NFC) string (the profile's: [fn.strings.graphemes.pn]). */
static const tfx_value *strlen_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    const tfx_str s = args[0]->as.string;
    size_t ngraphemes =
        tfx_text_count_graphemes_profile((const unsigned char *)s.s, s.nbytes, ctx->pn);

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return tfx_value_int(ctx, (int64_t)ngraphemes);
}

const tfx_function tfx_fn_upper = {.name = "upper",
                                   .params = str_param,
                                   .nparams = TFX_COUNTOF(str_param),
                                   .varparam = NULL,
                                   .type = NULL,
                                   .ret_type = &tfx_type_str,
                                   .impl = upper_impl};

const tfx_function tfx_fn_lower = {.name = "lower",
                                   .params = str_param,
                                   .nparams = TFX_COUNTOF(str_param),
                                   .varparam = NULL,
                                   .type = NULL,
                                   .ret_type = &tfx_type_str,
                                   .impl = lower_impl};

const tfx_function tfx_fn_strlen = {.name = "strlen",
                                    .params = str_param,
                                    .nparams = TFX_COUNTOF(str_param),
                                    .varparam = NULL,
                                    .type = NULL,
                                    .ret_type = &tfx_type_number,
                                    .impl = strlen_impl};

/* ---- Shared pieces of the functions of functions-strings.md ---- */

/* A string parameter that accepts nothing special (cty's Parameter with
 * only a name and cty.String). */
#define PLAIN_STR(pname) {.name = (pname), .type = &tfx_type_str}

/* The result string out[0..n) as a new value: cty.StringVal, so NFC
 * (value.string.nfc) [fn.strings.nfc].  The length is checked against
 * the string limit first. */
static const tfx_value *new_string(tfx_ctx *ctx, const char *out, size_t n)
{
    tfx_ctx_check_string(ctx, n);
    return tfx_value_string(ctx, out, n);
}

/* [fn.strings.int] gocty's conversion of a number to a Go int (64 bits):
 * an integer in int64's range, else the plain error below. */
static bool go_int(const tfx_value *v, int64_t *out, tfx_func_error *err)
{
    if (tfx_num_to_int64(v->as.number, out))
        return true;
    tfx_fn_error(err, "value must be a whole number, between -9223372036854775808 and "
                      "9223372036854775807");
    return false;
}

/* ---- chomp ---- */

/* The one parameter of chomp, title and trimspace. */
static const tfx_param plain_str_param[] = {PLAIN_STR("str")};

/* [fn.chomp.result] Every trailing CR and LF removed (cty replaces the
 * regular expression (?:\r\n?|\n)*\z, which any run of them matches). */
static const tfx_value *chomp_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    const tfx_str s = args[0]->as.string;
    size_t end = s.nbytes;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    while (end > 0 && (s.s[end - 1] == '\n' || s.s[end - 1] == '\r'))
        end--;
    return new_string(ctx, s.s, end);
}

/* ---- indent ---- */

static const tfx_param indent_params[] = {
    {.name = "spaces", .type = &tfx_type_number},
    PLAIN_STR("str"),
};

/* [fn.indent.spaces] [fn.indent.result] spaces as a Go int; the padding
 * of that many spaces is built first (a negative count is Go's panic in
 * strings.Repeat, which cty reports as an error), then every "\n" of str
 * is followed by it. */
static const tfx_value *indent_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    const tfx_str s = args[1]->as.string;
    int64_t spaces = 0;
    size_t newlines = 0;
    size_t pad;
    size_t i;
    size_t o = 0;
    char *out;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (!go_int(args[0], &spaces, err))
        return NULL;
    if (spaces < 0)
        return tfx_fn_error(err, "panic in function implementation: strings: negative Repeat "
                                 "count");
#if INT64_MAX > SIZE_MAX
    if ((uint64_t)spaces > SIZE_MAX)
        tfx_ctx_check_string(ctx, SIZE_MAX);
#endif
    pad = (size_t)spaces;
    tfx_ctx_check_string(ctx, pad);
    for (i = 0; i < s.nbytes; i++)
        newlines += s.s[i] == '\n';
    if (newlines == 0)
        return new_string(ctx, s.s, s.nbytes);
    if (pad > (SIZE_MAX - s.nbytes) / newlines)
        tfx_ctx_check_string(ctx, SIZE_MAX);
    tfx_ctx_check_string(ctx, s.nbytes + newlines * pad);
    out = tfx_ctx_alloc(ctx, s.nbytes + newlines * pad + 1);
    for (i = 0; i < s.nbytes; i++) {
        out[o++] = s.s[i];
        if (s.s[i] == '\n') {
            memset(out + o, ' ', pad);
            o += pad;
        }
    }
    return new_string(ctx, out, o);
}

/* ---- join ---- */

static const tfx_type list_of_string = {.kind = TFX_TYPE_LIST, .elem = &tfx_type_str};

static const tfx_param join_params[] = {PLAIN_STR("separator")};
static const tfx_param join_lists = {.name = "lists", .type = &list_of_string};

/* [fn.join.arity] [fn.join.unknown] [fn.join.null] [fn.join.result] */
static const tfx_value *join_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                  const tfx_value *const *args, size_t nargs,
                                  tfx_func_error *err)
{
    const tfx_str sep = args[0]->as.string;
    size_t total = 0;
    size_t count = 0;
    bool too_long = false;
    size_t i;
    size_t j;
    size_t o = 0;
    char *out;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    if (nargs < 2)
        return tfx_fn_error(err, "at least one list is required");
    for (i = 1; i < nargs; i++)
        if (!tfx_value_is_wholly_known(args[i]))
            return tfx_value_unknown(ctx, &tfx_type_str);
    /* The length of the result, and the first null element */
    for (i = 1; i < nargs; i++) {
        size_t n = tfx_value_length(args[i]);

        for (j = 0; j < n; j++) {
            const tfx_value *e = tfx_value_item(args[i], j);
            size_t add;

            tfx_ctx_step(ctx);
            if (tfx_value_is_null(e)) {
                const char *msg =
                    nargs > 2 ? tfx_ctx_printf(ctx,
                                               "element %zu of list %zu is null; cannot "
                                               "concatenate null values",
                                               j, i)
                              : tfx_ctx_printf(ctx,
                                               "element %zu is null; cannot concatenate null "
                                               "values",
                                               j);
                return tfx_fn_arg_error(err, (long)i, msg);
            }
            add = e->as.string.nbytes + (count > 0 ? sep.nbytes : 0);
            if (add > SIZE_MAX - 1 - total)
                too_long = true;
            else
                total += add;
            count++;
        }
    }
    if (too_long)
        tfx_ctx_check_string(ctx, SIZE_MAX);
    tfx_ctx_check_string(ctx, total);
    out = tfx_ctx_alloc(ctx, total + 1);
    count = 0;
    for (i = 1; i < nargs; i++) {
        size_t n = tfx_value_length(args[i]);

        for (j = 0; j < n; j++) {
            const tfx_str e = tfx_value_item(args[i], j)->as.string;

            if (count++ > 0) {
                memcpy(out + o, sep.s, sep.nbytes);
                o += sep.nbytes;
            }
            memcpy(out + o, e.s, e.nbytes);
            o += e.nbytes;
        }
    }
    return new_string(ctx, out, o);
}

/* ---- split ---- */

static const tfx_param split_params[] = {PLAIN_STR("separator"), PLAIN_STR("str")};

/* Where the separator sep[0..m) (m >= 1) next occurs in s[from..n), by
 * Knuth-Morris-Pratt with the failure table fail[0..m); n if nowhere. */
static size_t find_next(const char *s, size_t n, size_t from, const char *sep, size_t m,
                        const size_t *fail)
{
    size_t k = 0;
    size_t i;

    for (i = from; i < n; i++) {
        while (k > 0 && s[i] != sep[k])
            k = fail[k - 1];
        if (s[i] == sep[k])
            k++;
        if (k == m)
            return i + 1 - m;
    }
    return n;
}

/* The KMP failure table of sep[0..m): fail[i] is the length of the
 * longest proper border of sep[0..i]. */
static size_t *kmp_table(tfx_ctx *ctx, const char *sep, size_t m)
{
    size_t *fail = tfx_ctx_alloc_array(ctx, m, sizeof(size_t));
    size_t k = 0;
    size_t i;

    for (i = 1; i < m; i++) {
        while (k > 0 && sep[i] != sep[k])
            k = fail[k - 1];
        if (sep[i] == sep[k])
            k++;
        fail[i] = k;
    }
    return fail;
}

/* [fn.split.result] [fn.split.empty] Go's strings.Split(str, separator). */
static const tfx_value *split_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    const tfx_str sep = args[0]->as.string;
    const tfx_str s = args[1]->as.string;
    const unsigned char *us = (const unsigned char *)s.s;
    const tfx_value **items;
    size_t count = 0;
    size_t i = 0;
    size_t k = 0;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    if (sep.nbytes == 0) {
        /* One element per code point (per byte that does not decode) */
        while (i < s.nbytes) {
            int32_t cp;

            i += tfx_text_decode(us + i, s.nbytes - i, &cp);
            count++;
        }
        tfx_ctx_check_items(ctx, count);
        items = tfx_ctx_alloc_array(ctx, count > 0 ? count : 1, sizeof(const tfx_value *));
        for (i = 0; i < s.nbytes;) {
            int32_t cp;
            size_t len = tfx_text_decode(us + i, s.nbytes - i, &cp);

            tfx_ctx_step(ctx);
            items[k++] = tfx_value_string(ctx, s.s + i, len);
            i += len;
        }
    } else {
        const size_t *fail = sep.nbytes <= s.nbytes ? kmp_table(ctx, sep.s, sep.nbytes) : NULL;
        size_t at;

        count = 1;
        if (fail != NULL)
            for (at = find_next(s.s, s.nbytes, 0, sep.s, sep.nbytes, fail); at < s.nbytes;
                 at = find_next(s.s, s.nbytes, at + sep.nbytes, sep.s, sep.nbytes, fail))
                count++;
        tfx_ctx_check_items(ctx, count);
        items = tfx_ctx_alloc_array(ctx, count, sizeof(const tfx_value *));
        while (k + 1 < count) {
            at = find_next(s.s, s.nbytes, i, sep.s, sep.nbytes, fail);
            tfx_ctx_step(ctx);
            items[k++] = tfx_value_string(ctx, s.s + i, at - i);
            i = at + sep.nbytes;
        }
        items[k++] = tfx_value_string(ctx, s.s + i, s.nbytes - i);
    }
    return tfx_value_list(ctx, &tfx_type_str, items, k);
}

/* ---- strrev ---- */

/* [fn.strrev.result] The grapheme clusters of str in reverse order
 * (the profile's clusters: [fn.strings.graphemes.pn]). */
static const tfx_value *strrev_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    const tfx_str s = args[0]->as.string;
    const unsigned char *us = (const unsigned char *)s.s;
    char *out = tfx_ctx_alloc(ctx, s.nbytes + 1);
    size_t pos = s.nbytes;
    size_t i = 0;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    while (i < s.nbytes) {
        size_t len = tfx_text_grapheme_len_profile(us + i, s.nbytes - i, ctx->pn);

        pos -= len;
        memcpy(out + pos, s.s + i, len);
        i += len;
    }
    return new_string(ctx, out, s.nbytes);
}

/* ---- substr ---- */

static const tfx_param substr_params[] = {
    {.name = "str", .type = &tfx_type_str, .allow_dynamic = true},
    {.name = "offset", .type = &tfx_type_number, .allow_dynamic = true},
    {.name = "length", .type = &tfx_type_number, .allow_dynamic = true},
};

/* [fn.substr.int] [fn.substr.offset] [fn.substr.length]
 * [fn.strings.graphemes.pn] cty's SubstrFunc,
 * step by step (its quirks included: a length of 0 gives "" only when
 * the offset is not negative). */
static const tfx_value *substr_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    const tfx_str s = args[0]->as.string;
    const unsigned char *us = (const unsigned char *)s.s;
    int64_t offset = 0;
    int64_t length = 0;
    size_t start = 0;
    size_t end;
    size_t taken = 0;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (!go_int(args[1], &offset, err) || !go_int(args[2], &length, err))
        return NULL;
    if (offset < 0)
        offset += (int64_t)tfx_text_count_graphemes_profile(us, s.nbytes, ctx->pn);
    else if (length == 0)
        return tfx_value_string_raw(ctx, "", 0);
    if (offset > 0) {
        start = tfx_text_skip_graphemes_profile(us, s.nbytes, (size_t)offset, &taken, ctx->pn);
        if (taken < (size_t)offset)
            return tfx_value_string_raw(ctx, "", 0);
    }
    if (length < 0)
        return new_string(ctx, s.s + start, s.nbytes - start);
    /* a length of 0 here (a negative offset) takes every cluster left */
    end = start + tfx_text_skip_graphemes_profile(us + start, s.nbytes - start,
                                                  length == 0 ? SIZE_MAX : (size_t)length, &taken,
                                                  ctx->pn);
    return new_string(ctx, s.s + start, end - start);
}

/* ---- title ---- */

/* [fn.title.result] Go's strings.Title (tfx_text_title), then NFC. */
static const tfx_value *title_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    const tfx_str s = args[0]->as.string;
    size_t nbytes = 0;
    const char *out;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    out = tfx_text_title(ctx->arena, s.s, s.nbytes, &nbytes);
    if (out == NULL)
        tfx_fn_nomem(ctx);
    return new_string(ctx, out, nbytes);
}

/* ---- trim ---- */

static const tfx_param trim_params[] = {PLAIN_STR("str"), PLAIN_STR("cutset")};

/* The code point at s[0..n) (n >= 1) as Go's range loop reads it: a byte
 * that does not decode is U+FFFD, one byte long. */
static size_t go_rune(const unsigned char *s, size_t n, int32_t *cp)
{
    size_t len = tfx_text_decode(s, n, cp);

    if (*cp < 0)
        *cp = 0xFFFD;
    return len;
}

/* The code point that ends s[0..n) (n >= 1), as Go's
 * utf8.DecodeLastRune reads it; returns its length. */
static size_t go_last_rune(const unsigned char *s, size_t n, int32_t *cp)
{
    size_t start = n - 1;

    while (start > 0 && n - start < 4 && (s[start] & 0xC0) == 0x80)
        start--;
    if (tfx_text_decode(s + start, n - start, cp) == n - start && *cp >= 0)
        return n - start;
    *cp = 0xFFFD;
    return 1;
}

/* Whether cutset holds code point cp (Go's strings.ContainsRune, bytes
 * that do not decode counting as U+FFFD). */
static bool cutset_has(tfx_str cutset, int32_t cp)
{
    const unsigned char *u = (const unsigned char *)cutset.s;
    size_t i = 0;

    while (i < cutset.nbytes) {
        int32_t c;

        i += go_rune(u + i, cutset.nbytes - i, &c);
        if (c == cp)
            return true;
    }
    return false;
}

/* [fn.trim.result] Go's strings.Trim(str, cutset): the code points of
 * cutset removed from both ends of str, one code point at a time. */
static const tfx_value *trim_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                  const tfx_value *const *args, size_t nargs,
                                  tfx_func_error *err)
{
    const tfx_str s = args[0]->as.string;
    const tfx_str cutset = args[1]->as.string;
    const unsigned char *us = (const unsigned char *)s.s;
    size_t start = 0;
    size_t end = s.nbytes;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    if (cutset.nbytes == 0)
        return new_string(ctx, s.s, s.nbytes);
    while (start < end) {
        int32_t cp;
        size_t len = go_rune(us + start, end - start, &cp);

        if (!cutset_has(cutset, cp))
            break;
        start += len;
    }
    while (end > start) {
        int32_t cp;
        size_t len = go_last_rune(us + start, end - start, &cp);

        if (!cutset_has(cutset, cp))
            break;
        end -= len;
    }
    return new_string(ctx, s.s + start, end - start);
}

/* ---- trimprefix, trimsuffix ---- */

static const tfx_param trimprefix_params[] = {PLAIN_STR("str"), PLAIN_STR("prefix")};
static const tfx_param trimsuffix_params[] = {PLAIN_STR("str"), PLAIN_STR("suffix")};

/* [fn.trimprefix.result] str without prefix if it starts with those
 * bytes, else str. */
static const tfx_value *trimprefix_impl(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_type *ret, const tfx_value *const *args,
                                        size_t nargs, tfx_func_error *err)
{
    const tfx_str s = args[0]->as.string;
    const tfx_str p = args[1]->as.string;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    if (p.nbytes <= s.nbytes && memcmp(s.s, p.s, p.nbytes) == 0)
        return new_string(ctx, s.s + p.nbytes, s.nbytes - p.nbytes);
    return new_string(ctx, s.s, s.nbytes);
}

/* [fn.trimsuffix.result] str without suffix if it ends with those bytes,
 * else str. */
static const tfx_value *trimsuffix_impl(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_type *ret, const tfx_value *const *args,
                                        size_t nargs, tfx_func_error *err)
{
    const tfx_str s = args[0]->as.string;
    const tfx_str p = args[1]->as.string;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    if (p.nbytes <= s.nbytes && memcmp(s.s + s.nbytes - p.nbytes, p.s, p.nbytes) == 0)
        return new_string(ctx, s.s, s.nbytes - p.nbytes);
    return new_string(ctx, s.s, s.nbytes);
}

/* ---- trimspace ---- */

/* [fn.trimspace.result] Go's strings.TrimSpace: white space
 * (tfx_text_is_space) removed from both ends. */
static const tfx_value *trimspace_impl(tfx_ctx *ctx, const tfx_function *fn,
                                       const tfx_type *ret, const tfx_value *const *args,
                                       size_t nargs, tfx_func_error *err)
{
    const tfx_str s = args[0]->as.string;
    const unsigned char *us = (const unsigned char *)s.s;
    size_t start = tfx_text_space_prefix(us, s.nbytes);
    size_t end = start + (s.nbytes - start - tfx_text_space_suffix(us + start, s.nbytes - start));

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return new_string(ctx, s.s + start, end - start);
}

/* ==== Terraform's own string functions (spec/functions-strings.md,
 * "Terraform's string predicates") ====
 *
 * startswith, endswith and strcontains are Terraform's (its
 * internal/lang/funcs/string.go), not cty's: byte-wise tests on the NFC
 * strings, returning a bool. */

/* [fn.startswith] str accepts unknowns (only it); neither accepts nulls,
 * dynamic or marks. */
static const tfx_param startswith_params[] = {
    {.name = "str", .type = &tfx_type_str, .allow_unknown = true},
    PLAIN_STR("prefix"),
};
/* [fn.endswith] [fn.strcontains] Two plain string parameters. */
static const tfx_param endswith_params[] = {PLAIN_STR("str"), PLAIN_STR("suffix")};
static const tfx_param strcontains_params[] = {PLAIN_STR("str"), PLAIN_STR("substr")};

/* [fn.startswith.unknown] [fn.startswith.unknown.pn] startswith of an
 * unknown str (it reaches here: the parameter accepts unknowns), from the
 * prefix its refinement knows (none in P14, whose cty 1.12.1 has no
 * refinements; none either for an unrefined unknown): true when that
 * known prefix starts with prefix (so always for the empty prefix), false
 * when it is at least as long as prefix and does not, else unknown. */
static const tfx_value *startswith_unknown(tfx_ctx *ctx, const tfx_value *str, tfx_str p)
{
    const tfx_refinement *r = tfx_value_refinement(str);
    const tfx_str known = r != NULL ? r->prefix : (tfx_str){"", 0};

    /* the empty prefix first: a refinement without a prefix has no bytes
     * (known.s NULL), which memcmp may not be given even for 0 bytes */
    if (p.nbytes == 0 || (p.nbytes <= known.nbytes && memcmp(known.s, p.s, p.nbytes) == 0))
        return tfx_value_bool(true);
    if (known.nbytes >= p.nbytes)
        return tfx_value_bool(false);
    return tfx_value_unknown(ctx, &tfx_type_bool);
}

/* [fn.startswith.result] Whether str begins with the bytes of prefix;
 * an unknown str as startswith_unknown says. */
static const tfx_value *startswith_impl(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_type *ret, const tfx_value *const *args,
                                        size_t nargs, tfx_func_error *err)
{
    const tfx_str p = args[1]->as.string;
    tfx_str s;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    if (!tfx_value_is_known(args[0]))
        return startswith_unknown(ctx, args[0], p);
    s = args[0]->as.string;
    return tfx_value_bool(p.nbytes <= s.nbytes && memcmp(s.s, p.s, p.nbytes) == 0);
}

/* [fn.endswith.result] Whether str ends with the bytes of suffix. */
static const tfx_value *endswith_impl(tfx_ctx *ctx, const tfx_function *fn,
                                      const tfx_type *ret, const tfx_value *const *args,
                                      size_t nargs, tfx_func_error *err)
{
    const tfx_str s = args[0]->as.string;
    const tfx_str p = args[1]->as.string;

    TFX_UNUSED(ctx);
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    return tfx_value_bool(p.nbytes <= s.nbytes &&
                          memcmp(s.s + s.nbytes - p.nbytes, p.s, p.nbytes) == 0);
}

/* [fn.strcontains.result] Go's strings.Contains: whether the bytes of
 * substr occur anywhere in str (the empty substr always does); searched
 * with find_next, in time linear in both lengths. */
static const tfx_value *strcontains_impl(tfx_ctx *ctx, const tfx_function *fn,
                                         const tfx_type *ret, const tfx_value *const *args,
                                         size_t nargs, tfx_func_error *err)
{
    const tfx_str s = args[0]->as.string;
    const tfx_str sub = args[1]->as.string;
    const size_t *fail;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    if (sub.nbytes == 0)
        return tfx_value_bool(true);
    if (sub.nbytes > s.nbytes)
        return tfx_value_bool(false);
    fail = kmp_table(ctx, sub.s, sub.nbytes);
    return tfx_value_bool(find_next(s.s, s.nbytes, 0, sub.s, sub.nbytes, fail) < s.nbytes);
}

/* ---- The function objects ---- */

#define STRING_FN(var, fname, plist, vparam, rtype, implfn)                                     \
    static const tfx_function var = {.name = (fname),                                          \
                                     .params = (plist),                                        \
                                     .nparams = TFX_COUNTOF(plist),                            \
                                     .varparam = (vparam),                                     \
                                     .type = NULL,                                             \
                                     .ret_type = (rtype),                                      \
                                     .impl = (implfn)}

STRING_FN(fn_chomp, "chomp", plain_str_param, NULL, &tfx_type_str, chomp_impl);
STRING_FN(fn_endswith, "endswith", endswith_params, NULL, &tfx_type_bool, endswith_impl);
STRING_FN(fn_indent, "indent", indent_params, NULL, &tfx_type_str, indent_impl);
STRING_FN(fn_join, "join", join_params, &join_lists, &tfx_type_str, join_impl);
STRING_FN(fn_split, "split", split_params, NULL, &list_of_string, split_impl);
STRING_FN(fn_startswith, "startswith", startswith_params, NULL, &tfx_type_bool,
          startswith_impl);
STRING_FN(fn_strcontains, "strcontains", strcontains_params, NULL, &tfx_type_bool,
          strcontains_impl);
STRING_FN(fn_strrev, "strrev", str_param, NULL, &tfx_type_str, strrev_impl);
STRING_FN(fn_substr, "substr", substr_params, NULL, &tfx_type_str, substr_impl);
STRING_FN(fn_title, "title", plain_str_param, NULL, &tfx_type_str, title_impl);
STRING_FN(fn_trim, "trim", trim_params, NULL, &tfx_type_str, trim_impl);
STRING_FN(fn_trimprefix, "trimprefix", trimprefix_params, NULL, &tfx_type_str,
          trimprefix_impl);
STRING_FN(fn_trimspace, "trimspace", plain_str_param, NULL, &tfx_type_str, trimspace_impl);
STRING_FN(fn_trimsuffix, "trimsuffix", trimsuffix_params, NULL, &tfx_type_str,
          trimsuffix_impl);

/* The functions this file registers [call.builtins], sorted by name. */
const tfx_builtin tfx_builtins_string[] = {
    {"chomp", &fn_chomp},
    {"endswith", &fn_endswith},
    {"indent", &fn_indent},
    {"join", &fn_join},
    {"lower", &tfx_fn_lower},
    {"split", &fn_split},
    {"startswith", &fn_startswith},
    {"strcontains", &fn_strcontains},
    {"strrev", &fn_strrev},
    {"substr", &fn_substr},
    {"title", &fn_title},
    {"trim", &fn_trim},
    {"trimprefix", &fn_trimprefix},
    {"trimspace", &fn_trimspace},
    {"trimsuffix", &fn_trimsuffix},
    {"upper", &tfx_fn_upper},
    {NULL, NULL},
};
