/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_fn_maps_sets.c — unit tests of funcs_maps_sets.c (keys, values,
 * lookup, merge, zipmap, setunion, setintersection, setsubtract,
 * setproduct), called directly with tfx_func_call.
 *
 * The arguments are the values HCL would pass after converting them to
 * the parameters' types.  Expectations marked "ref" were checked with the
 * reference adapter (bin/go-hcl-adapter) on the HCL expression in the
 * comment; those marked "tf" are Terraform's lookup, written from its
 * source (spec/functions-maps-sets.md [fn.lookup]).  Results are in the
 * notation of render.h's tfx_render_debug; errors as "arg N: message" or
 * "error: message".
 */
#include <stdarg.h>
#include <stdlib.h>

#include "check.h"
#include "common.h"
#include "func.h"
#include "funcs_internal.h"
#include "render.h"
#include "testval.h"

static void test_keys_values(tfx_ctx *ctx, void *unused)
{
    const tfx_value *m = MAP(TSTR, 2, "b", S("y"), "a", SENS(S("x")));

    TFX_UNUSED(ctx);
    TFX_UNUSED(unused);
    /* ref: keys({b = 1, a = 2}) */
    CHECK_STR(call("keys", 1, OBJ(2, "b", I(1), "a", I(2))),
              "[\"a\",\"b\"] :: tuple([string,string])");
    /* ref: keys(m), element marks dropped */
    CHECK_STR(call("keys", 1, m), "list[\"a\",\"b\"] :: list(string)");
    /* ref: keys(unknown(map(string))@sensitive) */
    CHECK_STR(call("keys", 1, SENS(tfx_value_unknown(C, tfx_type_map(C, TSTR)))),
              "unknown(list(string))@sensitive :: list(string)");
    /* ref: values(m) keeps the element's marks */
    CHECK_STR(call("values", 1, SENS(m)),
              "list[\"x\"@sensitive,\"y\"]@sensitive :: list(string)");
    /* ref: values(1) */
    CHECK_STR(call("values", 1, I(1)), "error: values() requires a map as the first argument");
}

static void test_lookup(tfx_ctx *ctx, void *unused)
{
    const tfx_value *m = MAP(TSTR, 2, "a", S("x"), "b", tfx_value_unknown(C, TSTR));

    TFX_UNUSED(ctx);
    TFX_UNUSED(unused);
    /* tf: two arguments */
    CHECK_STR(call("lookup", 2, m, S("a")), "\"x\" :: string");
    CHECK_STR(call("lookup", 2, m, S("zz")), "error: lookup failed to find key \"zz\"");
    CHECK_STR(call("lookup", 2, m, SENS(S("zz"))),
              "error: lookup failed to find key (sensitive value)");
    CHECK_STR(call("lookup", 4, m, S("a"), S("d"), S("e")),
              "error: lookup() takes two or three arguments, got 4");
    /* tf: a missing key with a default, other elements unknown */
    CHECK_STR(call("lookup", 3, m, S("zz"), S("d")), "\"d\" :: string");
    /* tf: a null default */
    CHECK_STR(call("lookup", 3, m, S("zz"), tfx_value_null(C, TDYN)), "null(string) :: string");
    /* ref: lookup({a = 1}, "b") via the type rule */
    CHECK_STR(call("lookup", 2, OBJ(1, "a", I(1)), S("b")),
              "arg 0: the given object has no attribute \"b\"");
}

static void test_merge_zipmap(tfx_ctx *ctx, void *unused)
{
    TFX_UNUSED(ctx);
    TFX_UNUSED(unused);
    /* ref: merge() */
    CHECK_STR(call("merge", 0), "{} :: object({})");
    /* ref: merge(tomap({a = "x"}), tomap({b = 1})) */
    CHECK_STR(call("merge", 2, MAP(TSTR, 1, "a", S("x")), MAP(TNUM, 1, "b", I(1))),
              "{\"a\"=\"x\",\"b\"=1} :: object({a=string,b=number})");
    /* ref: merge({a = 1}, [1]) */
    CHECK_STR(call("merge", 2, OBJ(1, "a", I(1)), TUP(1, I(1))),
              "error: arguments must be maps or objects, got \"tuple\"");
    /* ref: zipmap(["b", "a", "b"], tolist([1, 2, 3])) */
    CHECK_STR(call("zipmap", 2, LIST(TSTR, 3, S("b"), S("a"), S("b")),
                   LIST(TNUM, 3, I(1), I(2), I(3))),
              "map{\"a\"=2,\"b\"=3} :: map(number)");
    /* ref: zipmap(["a", null], ["x", "y"]) */
    CHECK_STR(call("zipmap", 2, LIST(TSTR, 2, S("a"), tfx_value_null(C, TSTR)),
                   TUP(2, S("x"), S("y"))),
              "error: keys list has null value at index 1");
}

static void test_sets(tfx_ctx *ctx, void *unused)
{
    const tfx_type *tup1 = tfx_type_tuple(C, (const tfx_type *const[]){TNUM}, 1);

    TFX_UNUSED(ctx);
    TFX_UNUSED(unused);
    /* ref: setintersection([[1], [2], [3]], [[2], [4]]) */
    CHECK_STR(call("setintersection", 2,
                   SET(tup1, 3, TUP(1, I(1)), TUP(1, I(2)), TUP(1, I(3))),
                   SET(tup1, 2, TUP(1, I(2)), TUP(1, I(4)))),
              "set[[2]] :: set(tuple([number]))");
    /* ref: setsubtract([3, 1, null], [null, 1]) */
    CHECK_STR(call("setsubtract", 2, SET(TNUM, 3, I(3), I(1), tfx_value_null(C, TNUM)),
                   SET(TNUM, 2, tfx_value_null(C, TNUM), I(1))),
              "set[3] :: set(number)");
    /* ref: setunion(["b", "a"], [1, 10, 9]) */
    CHECK_STR(call("setunion", 2, SET(TSTR, 2, S("b"), S("a")),
                   SET(TNUM, 3, I(1), I(10), I(9))),
              "set[\"1\",\"10\",\"9\",\"a\",\"b\"] :: set(string)");
    /* ref: setproduct([1, 2], ["a"]) */
    CHECK_STR(call("setproduct", 2, TUP(2, I(1), I(2)), TUP(1, S("a"))),
              "list[[1,\"a\"],[2,\"a\"]] :: list(tuple([number,string]))");
    /* ref: setproduct(["a"]) */
    CHECK_STR(call("setproduct", 1, TUP(1, S("a"))), "error: at least two arguments are required");
}

/* A product of more elements than the collection limit fails through the
 * ctx instead of building it. */
static void huge_product(tfx_ctx *ctx, void *unused)
{
    const tfx_value **v = tfx_ctx_alloc_array(ctx, 1000, sizeof(const tfx_value *));
    const tfx_value *l;
    size_t i;

    TFX_UNUSED(unused);
    for (i = 0; i < 1000; i++)
        v[i] = tfx_value_int(ctx, (int64_t)i);
    l = tfx_value_list(ctx, TNUM, v, 1000);
    (void)call("setproduct", 3, l, l, l);
}

int main(void)
{
    tfx_ctx ctx;

    if (!tfx_ctx_init(&ctx, NULL)) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    CHECK(run("keys/values", test_keys_values));
    CHECK(run("lookup", test_lookup));
    CHECK(run("merge/zipmap", test_merge_zipmap));
    CHECK(run("sets", test_sets));
    C = &ctx;
    CHECK(!tfx_ctx_try(&ctx, huge_product, NULL));
    CHECK_STR(ctx.fail_summary, "Collection size limit exceeded");
    tfx_ctx_free(&ctx);
    return check_report("test_fn_maps_sets");
}
