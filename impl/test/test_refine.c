/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_refine.c — unit tests of refinements of unknown values (refine.c,
 * spec/refinements.md): the builder and its collapse to known values
 * [refine.build] [refine.collapse], the typed JSON encoding [refine.json],
 * the safe prefix [refine.prefix.safe], equality and comparisons decided by
 * refinements [refine.eq] [refine.cmp], results of calls
 * [refine.call.result] [refine.length] [refine.strlen], Terraform's own
 * functions [refine.fn.terraform] [fn.startswith.unknown.pn], conditionals
 * [refine.cond] and conversions [refine.convert]; with randomized checks
 * of the builder and of equality against a brute-force reading of the
 * bounds over small integers.  Expectations marked "ref" were answered by
 * the PN reference (bin/go-hcl-adapter-pn, HCL 2.24.0 + cty 1.18.1).
 */
#include "refine.h"

#include <stdint.h>
#include <string.h>

#include "check.h"
#include "common.h"
#include "convert.h"
#include "funcs_internal.h"
#include "jsonio.h"
#include "render.h"
#include "testval.h"

/* The typed JSON of v. */
static const char *json(const tfx_value *v)
{
    const char *error = NULL;
    const char *text = tfx_json_encode_typed_in(C, v, NULL, &error);

    return text != NULL ? text : error;
}

/* The value of a typed JSON text, or NULL with *error. */
static const tfx_value *from_json(const char *text, const char **error)
{
    return tfx_json_decode_typed_at(C, text, strlen(text), "v", error);
}

static const tfx_num *num(int64_t i)
{
    return tfx_num_from_int64(C->arena, i);
}

/* An unknown number refined with bounds [lo, hi] (inclusive flags; a
 * missing bound is INT64_MIN / INT64_MAX) and not_null. */
static const tfx_value *unk_num(int64_t lo, bool lo_inc, int64_t hi, bool hi_inc, bool not_null)
{
    tfx_refinement r;

    tfx_refinement_init(&r);
    r.not_null = not_null;
    if (lo != INT64_MIN) {
        r.lower = num(lo);
        r.lower_inclusive = lo_inc;
    }
    if (hi != INT64_MAX) {
        r.upper = num(hi);
        r.upper_inclusive = hi_inc;
    }
    return tfx_value_refine(C, UNK(TNUM), &r);
}

static void test_builder(tfx_ctx *ctx, void *arg)
{
    tfx_refinement r;
    const tfx_value *v;

    TFX_UNUSED(ctx);
    TFX_UNUSED(arg);
    C->pn = true;
    /* [refine.build] tighter bounds win; an equal exclusive one is tighter */
    v = unk_num(1, true, INT64_MAX, false, false);
    CHECK_STR(json(v), "{\"type\":\"number\",\"unknown\":true,\"refinements\":{\"number_lower\":"
                       "\"1\",\"number_lower_inclusive\":true}}");
    tfx_refinement_init(&r);
    r.lower = num(1);
    r.lower_inclusive = false;
    v = tfx_value_refine(C, v, &r);
    CHECK(!tfx_value_refinement(v)->lower_inclusive);
    r.lower = num(1);
    r.lower_inclusive = true;
    v = tfx_value_refine(C, v, &r); /* an equal inclusive one is looser */
    CHECK(!tfx_value_refinement(v)->lower_inclusive);
    r.lower = num(0);
    v = tfx_value_refine(C, v, &r);
    CHECK(tfx_num_cmp(tfx_value_refinement(v)->lower, num(1)) == 0);
    r.lower = num(2);
    v = tfx_value_refine(C, v, &r);
    CHECK(tfx_num_cmp(tfx_value_refinement(v)->lower, num(2)) == 0);
    CHECK(tfx_value_refinement(v)->lower_inclusive);
    /* an infinity a value has is kept (ref: ub ? 1/0 : 1 is <= inf) */
    tfx_refinement_init(&r);
    r.upper = tfx_num_from_double(C->arena, 1.0 / 0.0);
    r.upper_inclusive = true;
    CHECK_STR(json(tfx_value_refine(C, UNK(TNUM), &r)),
              "{\"type\":\"number\",\"unknown\":true,\"refinements\":{\"number_upper\":\"inf\","
              "\"number_upper_inclusive\":true}}");

    /* [refine.collapse] */
    CHECK_STR(tfx_render_debug(C, unk_num(3, true, 3, true, true)), "3 :: number");
    CHECK_STR(json(unk_num(3, true, 3, true, false)),
              "{\"type\":\"number\",\"unknown\":true,\"refinements\":{\"number_lower\":\"3\","
              "\"number_lower_inclusive\":true,\"number_upper\":\"3\","
              "\"number_upper_inclusive\":true}}");
    CHECK(tfx_value_is_unknown(unk_num(3, true, 3, false, true)));
    tfx_refinement_init(&r);
    r.not_null = true;
    r.len_lower = r.len_upper = 2;
    CHECK_STR(json(tfx_value_refine(C, UNK(LISTT(TSTR)), &r)),
              "{\"type\":[\"list\",\"string\"],\"v\":[{\"unknown\":true},{\"unknown\":true}]}");
    r.len_lower = r.len_upper = 1;
    CHECK_STR(json(tfx_value_refine(C, UNK(SETT(TNUM)), &r)),
              "{\"type\":[\"set\",\"number\"],\"v\":[{\"unknown\":true}]}");
    r.len_lower = r.len_upper = 2;
    CHECK(tfx_value_is_unknown(tfx_value_refine(C, UNK(SETT(TNUM)), &r)));
    r.len_lower = r.len_upper = 0;
    CHECK_STR(json(tfx_value_refine(C, UNK(tfx_type_map(C, TBOOL)), &r)),
              "{\"type\":[\"map\",\"bool\"],\"v\":{}}");
    /* marks stay; dynamic and known values are not refined */
    v = tfx_value_refine_not_null(C, SENS(UNK(TSTR)));
    CHECK(tfx_marks_has(v->marks, "sensitive") && tfx_value_refinement(v)->not_null);
    CHECK(tfx_value_refine_not_null(C, &tfx_value_dynamic_unknown) == &tfx_value_dynamic_unknown);
    /* unmarking an unknown collection keeps its refinements (they share
     * the union with a known collection's elements) */
    tfx_refinement_init(&r);
    r.len_lower = 1;
    v = tfx_value_unmark_deep(C, SENS(tfx_value_refine(C, UNK(LISTT(TSTR)), &r)), NULL);
    CHECK(v->marks == NULL && tfx_value_refinement(v) != NULL &&
          tfx_value_refinement(v)->len_lower == 1);
    v = tfx_value_unmark_deep(C, SENS(UNK(LISTT(TSTR))), NULL);
    CHECK(tfx_value_refinement(v) == NULL);
    v = I(4);
    CHECK(tfx_value_refine_not_null(C, v) == v);
}

static void test_json(tfx_ctx *ctx, void *arg)
{
    static const char *const round_trips[] = {
        "{\"type\":\"string\",\"unknown\":true,\"refinements\":{\"not_null\":true,"
        "\"string_prefix\":\"ab\"}}",
        "{\"type\":\"number\",\"unknown\":true,\"refinements\":{\"number_lower\":\"-1.5\","
        "\"number_lower_inclusive\":false,\"number_upper\":\"1000000000000000000000000000000\","
        "\"number_upper_inclusive\":true}}",
        "{\"type\":[\"list\",\"bool\"],\"unknown\":true,\"refinements\":{\"length_lower\":1,"
        "\"length_upper\":3},\"marks\":[\"sensitive\"]}",
        "{\"type\":[\"object\",{\"a\":[\"map\",\"string\"]}],\"v\":{\"a\":{\"unknown\":true,"
        "\"refinements\":{\"not_null\":true,\"length_upper\":9}}}}",
        "{\"type\":\"bool\",\"unknown\":true,\"refinements\":{\"not_null\":true}}",
    };
    static const char *const refused[] = {
        "{\"type\":\"number\",\"unknown\":true,\"refinements\":{\"string_prefix\":\"a\"}}",
        "{\"type\":\"dynamic\",\"unknown\":true,\"refinements\":{\"not_null\":true}}",
        "{\"type\":\"number\",\"unknown\":true,\"refinements\":{\"number_lower\":\"1\"}}",
        "{\"type\":\"string\",\"v\":\"x\",\"refinements\":{}}",
        "{\"type\":[\"set\",\"bool\"],\"unknown\":true,\"refinements\":{\"length_lower\":-1}}",
        "{\"type\":\"string\",\"unknown\":true,\"refinements\":{\"colour\":\"red\"}}",
    };
    const char *error = NULL;
    size_t i;

    TFX_UNUSED(ctx);
    TFX_UNUSED(arg);
    C->pn = true;
    for (i = 0; i < TFX_COUNTOF(round_trips); i++) {
        const tfx_value *v = from_json(round_trips[i], &error);

        CHECK(v != NULL);
        if (v != NULL)
            CHECK_STR(json(v), round_trips[i]);
    }
    for (i = 0; i < TFX_COUNTOF(refused); i++)
        CHECK(from_json(refused[i], &error) == NULL);
    /* cty's own infinities say nothing (ref) */
    CHECK_STR(json(from_json("{\"type\":\"number\",\"unknown\":true,\"refinements\":{"
                             "\"number_upper\":\"inf\",\"number_upper_inclusive\":true,"
                             "\"number_lower\":\"-inf\",\"number_lower_inclusive\":false}}",
                             &error)),
              "{\"type\":\"number\",\"unknown\":true}");
    /* an empty object says nothing */
    CHECK_STR(json(from_json("{\"type\":\"string\",\"unknown\":true,\"refinements\":{}}", &error)),
              "{\"type\":\"string\",\"unknown\":true}");
    /* a pinned variable is known (ref) */
    CHECK_STR(json(from_json("{\"type\":[\"list\",\"string\"],\"unknown\":true,\"refinements\":"
                             "{\"not_null\":true,\"length_lower\":2,\"length_upper\":2}}",
                             &error)),
              "{\"type\":[\"list\",\"string\"],\"v\":[{\"unknown\":true},{\"unknown\":true}]}");
    /* profile P14 refuses them */
    C->pn = false;
    CHECK(from_json(round_trips[0], &error) == NULL);
    CHECK(error != NULL && strstr(error, "profile PN") != NULL);
}

static void test_prefix(tfx_ctx *ctx, void *arg)
{
    static const struct {
        const char *text;
        size_t want;
    } cases[] = {
        {"", 0},       {"a", 0},        {"ab", 1},       {"ab-", 3},     {"ami-", 4},
        {"x/y", 2},    {"a\r\n", 1},    {"a\n", 1},      {"a ", 2},      {"12", 1},
        {"\xc3\xa9", 0}, {"a\xc3\xa9", 1}, {"e\xcc\x81x", 3}, {"{\"", 2}, {"q<", 1},
    };
    size_t i;

    TFX_UNUSED(ctx);
    TFX_UNUSED(arg);
    for (i = 0; i < TFX_COUNTOF(cases); i++) {
        size_t got = tfx_refine_safe_prefix(cases[i].text, strlen(cases[i].text));

        CHECK(got == cases[i].want);
        if (got != cases[i].want)
            fprintf(stderr, "  safe prefix of \"%s\": %zu, want %zu\n", cases[i].text, got,
                    cases[i].want);
    }
}

static void test_equals(tfx_ctx *ctx, void *arg)
{
    tfx_refinement r;
    const tfx_value *s;
    const tfx_value *l;

    TFX_UNUSED(ctx);
    TFX_UNUSED(arg);
    C->pn = true;
    tfx_refinement_init(&r);
    r.not_null = true;
    r.prefix.s = "ab";
    r.prefix.nbytes = 2;
    s = tfx_value_refine(C, UNK(TSTR), &r);
    CHECK(tfx_value_equals(C, s, S("abc")) == TFX_TRI_UNKNOWN);
    CHECK(tfx_value_equals(C, s, S("ab")) == TFX_TRI_UNKNOWN);
    CHECK(tfx_value_equals(C, s, S("a")) == TFX_TRI_FALSE);
    CHECK(tfx_value_equals(C, S("xb"), s) == TFX_TRI_FALSE);
    CHECK(tfx_value_equals(C, s, NUL(TSTR)) == TFX_TRI_FALSE);
    CHECK(tfx_value_equals(C, NUL(TDYN), s) == TFX_TRI_FALSE);
    CHECK(tfx_value_equals(C, UNK(TSTR), NUL(TSTR)) == TFX_TRI_UNKNOWN);
    /* numbers: [0, 10) */
    CHECK(tfx_value_equals(C, unk_num(0, true, 10, false, false), I(10)) == TFX_TRI_FALSE);
    CHECK(tfx_value_equals(C, unk_num(0, true, 10, false, false), I(0)) == TFX_TRI_UNKNOWN);
    CHECK(tfx_value_equals(C, unk_num(0, false, 10, false, false), I(0)) == TFX_TRI_FALSE);
    /* any number refinement excludes the infinities it leaves unbounded */
    CHECK(tfx_value_equals(C, tfx_value_refine_not_null(C, UNK(TNUM)),
                           tfx_value_number(C, tfx_num_from_double(C->arena, -1.0 / 0.0))) ==
          TFX_TRI_FALSE);
    CHECK(tfx_value_equals(C, UNK(TNUM), I(5)) == TFX_TRI_UNKNOWN);
    /* lengths: a list of 2 or 3 elements */
    tfx_refinement_init(&r);
    r.len_lower = 2;
    r.len_upper = 3;
    l = tfx_value_refine(C, UNK(LISTT(TNUM)), &r);
    CHECK(tfx_value_equals(C, l, LIST(TNUM, 1, I(1))) == TFX_TRI_FALSE);
    CHECK(tfx_value_equals(C, l, LIST(TNUM, 2, I(1), I(2))) == TFX_TRI_UNKNOWN);
    CHECK(tfx_value_equals(C, l, LIST(TNUM, 4, I(1), I(2), I(3), I(4))) == TFX_TRI_FALSE);
    /* nested: inside a tuple */
    CHECK(tfx_value_equals(C, TUP(2, I(1), s), TUP(2, I(1), S("x"))) == TFX_TRI_FALSE);
    /* [refine.eq.type.pn] a known value whose type cannot conform to the
     * unknown's, where the unknown's type holds dynamic */
    CHECK(tfx_value_equals(C, UNK(LISTT(TDYN)), TUP(0)) == TFX_TRI_FALSE);
    CHECK(tfx_value_equals(C, TUP(1, I(1)), UNK(LISTT(LISTT(TDYN)))) == TFX_TRI_FALSE);
    CHECK(tfx_value_equals(C, UNK(LISTT(TDYN)), LIST(TNUM, 1, I(1))) == TFX_TRI_UNKNOWN);
    CHECK(tfx_value_equals(C, UNK(TDYN), TUP(0)) == TFX_TRI_UNKNOWN);
    CHECK(tfx_value_equals(C, UNK(LISTT(TDYN)), NUL(TNUM)) == TFX_TRI_UNKNOWN);
    /* P14 knows nothing of it */
    C->pn = false;
    CHECK(tfx_value_equals(C, s, S("a")) == TFX_TRI_UNKNOWN);
    CHECK(tfx_value_equals(C, UNK(LISTT(TDYN)), TUP(0)) == TFX_TRI_UNKNOWN);
}

/* Whether the integer k is in the range of the unknown number u. */
static bool in_range(const tfx_value *u, int64_t k)
{
    const tfx_refinement *r = tfx_value_refinement(u);
    const tfx_num *n = num(k);

    if (r == NULL)
        return true;
    if (r->lower != NULL) {
        int c = tfx_num_cmp(n, r->lower);

        if (c < 0 || (c == 0 && !r->lower_inclusive))
            return false;
    }
    if (r->upper != NULL) {
        int c = tfx_num_cmp(n, r->upper);

        if (c > 0 || (c == 0 && !r->upper_inclusive))
            return false;
    }
    return true;
}

/* A small deterministic generator for the randomized tests. */
static uint32_t rnd_state = 15u;

static uint32_t rnd(uint32_t n)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return (rnd_state >> 8) % n;
}

/* A random bound: none (INT64_MIN / INT64_MAX) or -5..15. */
static int64_t rand_bound(bool upper)
{
    if (rnd(4) == 0)
        return upper ? INT64_MAX : INT64_MIN;
    return (int64_t)rnd(21) - 5;
}

/* Randomized: refining twice keeps exactly the integers both allow
 * [refine.build]; equality with a known integer is false exactly for
 * those outside [refine.eq]; a decided comparison holds for every pair of
 * integers in the ranges [refine.cmp]. */
static void test_random(tfx_ctx *ctx, void *arg)
{
    int round;

    TFX_UNUSED(ctx);
    TFX_UNUSED(arg);
    C->pn = true;
    for (round = 0; round < 400; round++) {
        int64_t lo1 = rand_bound(false), hi1 = rand_bound(true);
        int64_t lo2 = rand_bound(false), hi2 = rand_bound(true);
        bool i1 = rnd(2) == 1, j1 = rnd(2) == 1, i2 = rnd(2) == 1, j2 = rnd(2) == 1;
        const tfx_value *a;
        const tfx_value *b;
        const tfx_value *both;
        tfx_refinement r;
        int64_t k;
        bool empty = true;

        if (lo1 != INT64_MIN && hi1 != INT64_MAX && lo1 > hi1)
            continue;
        if (lo2 != INT64_MIN && hi2 != INT64_MAX && lo2 > hi2)
            continue;
        a = unk_num(lo1, i1, hi1, j1, false);
        b = unk_num(lo2, i2, hi2, j2, false);
        tfx_refinement_init(&r);
        if (tfx_value_refinement(b) != NULL)
            r = *tfx_value_refinement(b);
        both = tfx_value_refine(C, a, &r);
        for (k = -6; k <= 16; k++) {
            bool in_both = in_range(a, k) && in_range(b, k);

            CHECK(in_range(both, k) == in_both);
            CHECK((tfx_value_equals(C, a, I(k)) == TFX_TRI_FALSE) == !in_range(a, k));
            empty = empty && !in_both;
        }
        if (!empty) {
            const tfx_value *args[2] = {a, b};
            const tfx_value *lt = tfx_refine_call_decide(C, &tfx_fn_less_than, args, 2);

            if (lt != NULL && !tfx_value_is_unknown(lt)) {
                for (int64_t x = -6; x <= 16; x++)
                    for (int64_t y = -6; y <= 16; y++)
                        if (in_range(a, x) && in_range(b, y))
                            CHECK((x < y) == lt->as.boolean);
            }
        }
    }
}

static void test_calls(tfx_ctx *ctx, void *arg)
{
    tfx_refinement r;
    const tfx_value *l;
    const tfx_value *s;

    TFX_UNUSED(ctx);
    TFX_UNUSED(arg);
    C->pn = true;
    /* [refine.call.result] (ref: upper(s) is not null) */
    CHECK_STR(json(tfx_refine_call_result(C, fn("upper"), NULL, 0, UNK(TSTR))),
              "{\"type\":\"string\",\"unknown\":true,\"refinements\":{\"not_null\":true}}");
    CHECK(tfx_refinement_empty(&(tfx_refinement){.prefix = {"", 0},
                                                 .len_upper = TFX_REFINE_NO_MAX}));
    CHECK(tfx_value_refinement(tfx_refine_call_result(C, fn("lookup"), NULL, 0, UNK(TSTR))) ==
          NULL);
    /* [refine.length] (ref: length(l) with length 2..5 is 2..5) */
    tfx_refinement_init(&r);
    r.len_lower = 2;
    r.len_upper = 5;
    l = tfx_value_refine(C, UNK(LISTT(TSTR)), &r);
    CHECK_STR(json(tfx_refine_length(C, l)),
              "{\"type\":\"number\",\"unknown\":true,\"refinements\":{\"not_null\":true,"
              "\"number_lower\":\"2\",\"number_lower_inclusive\":true,\"number_upper\":\"5\","
              "\"number_upper_inclusive\":true}}");
    CHECK_STR(bare(call("length", 1, SET(TNUM, 2, UNK(TNUM), I(1)))),
              "unknown(number) :: number");
    CHECK_STR(json(tfx_refine_length(C, SET(TNUM, 2, UNK(TNUM), I(1)))),
              "{\"type\":\"number\",\"unknown\":true,\"refinements\":{\"not_null\":true,"
              "\"number_lower\":\"1\",\"number_lower_inclusive\":true,\"number_upper\":\"2\","
              "\"number_upper_inclusive\":true}}");
    /* [refine.strlen] (ref: length(s) with prefix "abc" is at least 3) */
    tfx_refinement_init(&r);
    r.prefix.s = "abc";
    r.prefix.nbytes = 3;
    s = tfx_value_refine(C, UNK(TSTR), &r);
    {
        const tfx_value *args[1] = {s};
        tfx_func_error err = {-1, NULL};

        CHECK_STR(json(tfx_func_call(C, fn("length"), args, 1, &err)),
                  "{\"type\":\"number\",\"unknown\":true,\"refinements\":{\"not_null\":true,"
                  "\"number_lower\":\"3\",\"number_lower_inclusive\":true}}");
    }
    /* [refine.fn.format] [refine.fn.jsonencode] [refine.fn.sort]
     * [refine.fn.setproduct] (ref) */
    {
        const tfx_value *fa[2] = {S("id-%s"), UNK(TSTR)};
        const tfx_value *ja[1] = {OBJ(1, "a", UNK(TSTR))};
        const tfx_value *sa[1] = {LIST(TSTR, 2, S("b"), UNK(TSTR))};
        const tfx_value *pa[2] = {l, SET(TNUM, 2, I(1), I(2))};

        CHECK_STR(json(tfx_refine_call_result(C, fn("format"), fa, 2, UNK(TSTR))),
                  "{\"type\":\"string\",\"unknown\":true,\"refinements\":{\"not_null\":true,"
                  "\"string_prefix\":\"id-\"}}");
        fa[0] = S("ab%s");
        CHECK_STR(json(tfx_refine_call_result(C, fn("format"), fa, 2, UNK(TSTR))),
                  "{\"type\":\"string\",\"unknown\":true,\"refinements\":{\"not_null\":true,"
                  "\"string_prefix\":\"a\"}}");
        CHECK_STR(json(tfx_refine_call_result(C, fn("jsonencode"), ja, 1, UNK(TSTR))),
                  "{\"type\":\"string\",\"unknown\":true,\"refinements\":{\"not_null\":true,"
                  "\"string_prefix\":\"{\"}}");
        ja[0] = UNK(TSTR); /* it could be null: no prefix */
        CHECK_STR(json(tfx_refine_call_result(C, fn("jsonencode"), ja, 1, UNK(TSTR))),
                  "{\"type\":\"string\",\"unknown\":true,\"refinements\":{\"not_null\":true}}");
        CHECK_STR(json(tfx_refine_call_result(C, fn("sort"), sa, 1, UNK(LISTT(TSTR)))),
                  "{\"type\":[\"list\",\"string\"],\"v\":[{\"unknown\":true},{\"unknown\":true}]}");
        CHECK_STR(json(tfx_refine_call_result(C, fn("setproduct"), pa, 2,
                                              UNK(LISTT(TUPT(2, TSTR, TNUM))))),
                  "{\"type\":[\"list\",[\"tuple\",[\"string\",\"number\"]]],\"unknown\":true,"
                  "\"refinements\":{\"not_null\":true,\"length_lower\":1,\"length_upper\":10}}");
    }
    /* [refine.fn.jsondecode] (ref) */
    {
        tfx_func_error err = {-1, NULL};

        tfx_refinement_init(&r);
        r.prefix.s = " \"a";
        r.prefix.nbytes = 3;
        CHECK(tfx_refine_jsondecode_type(C, tfx_value_refine(C, UNK(TSTR), &r), &err) == TSTR);
        r.prefix.s = "t";
        r.prefix.nbytes = 1;
        CHECK(tfx_refine_jsondecode_type(C, tfx_value_refine(C, UNK(TSTR), &r), &err) == TBOOL);
        r.prefix.s = "[";
        CHECK(tfx_refine_jsondecode_type(C, tfx_value_refine(C, UNK(TSTR), &r), &err) == TDYN);
        r.prefix.s = "'";
        CHECK(tfx_refine_jsondecode_type(C, tfx_value_refine(C, UNK(TSTR), &r), &err) == NULL);
        CHECK_STR(err.message, "a JSON document cannot begin with the character '\\''");
        CHECK(tfx_refine_jsondecode_type(C, UNK(TSTR), &err) == TDYN);
    }
    /* [refine.cmp] (ref: n < 1 with n <= 0 is true) */
    {
        const tfx_value *args[2] = {SENS(unk_num(INT64_MIN, false, 0, true, false)), I(1)};
        const tfx_value *lt = tfx_refine_call_decide(C, &tfx_fn_less_than, args, 2);

        CHECK(lt != NULL && tfx_value_is_known(lt) && lt->as.boolean &&
              tfx_marks_has(lt->marks, "sensitive"));
        args[1] = I(0); /* <=: < is unknown, == unknown */
        CHECK(tfx_value_is_unknown(
            tfx_refine_call_decide(C, &tfx_fn_less_than_or_equal_to, args, 2)));
        CHECK(tfx_refine_call_decide(C, &tfx_fn_add, args, 2) == NULL);
    }
}

/* An unknown string known to start with prefix. */
static const tfx_value *unk_prefix(const char *prefix)
{
    tfx_refinement r;

    tfx_refinement_init(&r);
    r.prefix.s = prefix;
    r.prefix.nbytes = strlen(prefix);
    return tfx_value_refine(C, UNK(TSTR), &r);
}

/* [refine.fn.terraform] [fn.startswith.unknown.pn] Terraform's own
 * functions (expectations "ref": the PN reference). */
static void test_terraform(tfx_ctx *ctx, void *arg)
{
    static const char *const refined[] = {"sha256", "coalesce", "startswith", "cidrhost",
                                          "templatestring", "fileset", "timecmp"};
    static const char *const plain[] = {"strcontains", "lookup", "one", "tostring",
                                        "templatefile"};
    const char *not_null = "{\"type\":\"string\",\"unknown\":true,\"refinements\":{"
                           "\"not_null\":true}}";
    const tfx_value *ami = unk_prefix("ami-");

    TFX_UNUSED(ctx);
    TFX_UNUSED(arg);
    C->pn = true;
    for (size_t i = 0; i < TFX_COUNTOF(refined); i++)
        CHECK_STR(json(tfx_refine_call_result(C, fn(refined[i]), NULL, 0, UNK(TSTR))), not_null);
    for (size_t i = 0; i < TFX_COUNTOF(plain); i++)
        CHECK(tfx_value_refinement(tfx_refine_call_result(C, fn(plain[i]), NULL, 0,
                                                          UNK(TSTR))) == NULL);
    /* ref: length(d) of an unknown of type dynamic is not null */
    {
        const tfx_value *args[1] = {UNK(TDYN)};
        tfx_func_error err = {-1, NULL};

        CHECK_STR(json(tfx_func_call(C, fn("length"), args, 1, &err)),
                  "{\"type\":\"number\",\"unknown\":true,\"refinements\":{"
                  "\"not_null\":true}}");
    }
    /* ref: startswith with s known to start with "ami-" */
    CHECK_STR(bare(call("startswith", 2, ami, S("am"))), "true :: bool");
    CHECK_STR(bare(call("startswith", 2, ami, S("ami-"))), "true :: bool");
    CHECK_STR(bare(call("startswith", 2, ami, S(""))), "true :: bool");
    CHECK_STR(bare(call("startswith", 2, ami, S("ab"))), "false :: bool");
    CHECK_STR(bare(call("startswith", 2, SENS(ami), S("ab"))), "false@sensitive :: bool");
    CHECK_STR(bare(call("startswith", 2, ami, S("ami-1"))), "unknown(bool) :: bool");
    CHECK_STR(bare(call("startswith", 2, ami, S("abcde"))), "unknown(bool) :: bool");
    CHECK_STR(bare(call("startswith", 2, UNK(TSTR), S(""))), "true :: bool");
    CHECK_STR(bare(call("startswith", 2, UNK(TSTR), S("a"))), "unknown(bool) :: bool");
    {
        const tfx_value *args[2] = {ami, S("abcde")};
        tfx_func_error err = {-1, NULL};

        CHECK_STR(json(tfx_func_call(C, fn("startswith"), args, 2, &err)),
                  "{\"type\":\"bool\",\"unknown\":true,\"refinements\":{"
                  "\"not_null\":true}}");
        C->pn = false; /* P14: no refinement of the result */
        args[0] = UNK(TSTR);
        CHECK_STR(json(tfx_func_call(C, fn("startswith"), args, 2, &err)),
                  "{\"type\":\"bool\",\"unknown\":true}");
    }
}

static void test_cond_convert(tfx_ctx *ctx, void *arg)
{
    tfx_refinement r;
    const char *err = NULL;

    TFX_UNUSED(ctx);
    TFX_UNUSED(arg);
    C->pn = true;
    /* [refine.cond] the wider bounds; equal ones inclusive if either is */
    CHECK_STR(json(tfx_refine_conditional(C, TNUM, unk_num(0, false, 5, true, true), I(7))),
              "{\"type\":\"number\",\"unknown\":true,\"refinements\":{\"not_null\":true,"
              "\"number_lower\":\"0\",\"number_lower_inclusive\":false,\"number_upper\":\"7\","
              "\"number_upper_inclusive\":true}}");
    CHECK_STR(json(tfx_refine_conditional(C, TNUM, unk_num(0, false, 5, true, true), I(0))),
              "{\"type\":\"number\",\"unknown\":true,\"refinements\":{\"not_null\":true,"
              "\"number_lower\":\"0\",\"number_lower_inclusive\":true,\"number_upper\":\"5\","
              "\"number_upper_inclusive\":true}}");
    CHECK_STR(json(tfx_refine_conditional(C, TNUM, UNK(TNUM), I(0))),
              "{\"type\":\"number\",\"unknown\":true}");
    CHECK_STR(json(tfx_refine_conditional(C, LISTT(TNUM), LIST(TNUM, 1, I(1)),
                                          LIST(TNUM, 3, I(1), I(2), I(3)))),
              "{\"type\":[\"list\",\"number\"],\"unknown\":true,\"refinements\":{\"not_null\":"
              "true,\"length_lower\":1,\"length_upper\":3}}");
    /* [refine.convert] */
    tfx_refinement_init(&r);
    r.not_null = true;
    CHECK_STR(json(tfx_convert(C, tfx_value_refine(C, UNK(TUPT(2, TSTR, TSTR)), &r),
                               LISTT(TSTR), TFX_CONVERT_UNSAFE, &err)),
              "{\"type\":[\"list\",\"string\"],\"v\":[{\"unknown\":true},{\"unknown\":true}]}");
    CHECK_STR(json(tfx_convert(C, UNK(TUPT(3, TSTR, TSTR, TSTR)), SETT(TSTR), TFX_CONVERT_UNSAFE, &err)),
              "{\"type\":[\"set\",\"string\"],\"unknown\":true,\"refinements\":{"
              "\"length_lower\":1,\"length_upper\":3}}");
    CHECK_STR(json(tfx_convert(C, unk_num(1, true, 2, true, true), TSTR, TFX_CONVERT_UNSAFE, &err)),
              "{\"type\":\"string\",\"unknown\":true,\"refinements\":{\"not_null\":true}}");
    CHECK_STR(json(tfx_convert(C, unk_num(1, true, 2, true, false), TNUM, TFX_CONVERT_UNSAFE, &err)),
              "{\"type\":\"number\",\"unknown\":true,\"refinements\":{\"number_lower\":\"1\","
              "\"number_lower_inclusive\":true,\"number_upper\":\"2\","
              "\"number_upper_inclusive\":true}}");
}

int main(void)
{
    CHECK(run("builder", test_builder));
    CHECK(run("json", test_json));
    CHECK(run("prefix", test_prefix));
    CHECK(run("equals", test_equals));
    CHECK(run("random", test_random));
    CHECK(run("calls", test_calls));
    CHECK(run("terraform", test_terraform));
    CHECK(run("cond_convert", test_cond_convert));
    return check_report("test_refine");
}
