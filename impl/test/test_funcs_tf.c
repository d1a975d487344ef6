/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_funcs_tf.c — unit tests of Terraform's own functions of issue 10:
 * startswith, endswith, strcontains (funcs_string.c); alltrue, anytrue,
 * index, list, map, matchkeys, one, sum, transpose (funcs_collection.c);
 * sensitive, nonsensitive, issensitive, ephemeralasnull
 * (funcs_sensitive.c); timecmp (funcs_datetime.c).  Direct calls through
 * tfx_func_call (cty 1.12.1's machinery) on known, null, unknown,
 * dynamic and marked arguments, already converted to the parameters'
 * types as HCL would; and the limits the conformance corpus cannot
 * reach.
 *
 * Expectations were checked against the reference adapter
 * (conformance/adapters/go-hcl, Terraform's functions on HCL 2.14.1 +
 * cty 1.12.1) with the HCL expression in the comment where one is given;
 * the conformance cases of tools/gen-tf-function-cases cover the same
 * rules through the evaluator.
 *
 * Results are in the notation of render.h's tfx_render_debug
 * (`true@sensitive :: bool`); errors as "arg N: message" (an argument
 * error) or "error: message".
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "common.h"
#include "funcs_internal.h"
#include "render.h"
#include "testval.h"

/* ---- startswith, endswith, strcontains ---- */

static void test_strings(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    /* [fn.startswith.result] */
    CHECK_STR(call("startswith", 2, S("hello"), S("he")), "true :: bool");
    CHECK_STR(call("startswith", 2, S("hello"), S("")), "true :: bool");
    CHECK_STR(call("startswith", 2, S("he"), S("hello")), "false :: bool");
    CHECK_STR(call("startswith", 2, S("Hello"), S("he")), "false :: bool");
    CHECK_STR(call("startswith", 2, S("\xc3\xa9"), S("e")), "false :: bool");
    /* [fn.startswith.unknown] startswith(u, "") and startswith(u, "a") */
    CHECK_STR(call("startswith", 2, UNK(TSTR), S("")), "true :: bool");
    CHECK_STR(call("startswith", 2, UNK(TSTR), S("a")), "unknown(bool) :: bool");
    CHECK_STR(call("startswith", 2, SENS(UNK(TSTR)), S("")), "true@sensitive :: bool");
    CHECK_STR(call("startswith", 2, SENS(UNK(TSTR)), S("a")),
              "unknown(bool)@sensitive :: bool");
    /* [fn.startswith] an unknown prefix stops the call, without marks */
    CHECK_STR(call("startswith", 2, SENS(S("a")), UNK(TSTR)), "unknown(bool) :: bool");
    CHECK_STR(call("startswith", 2, NUL(TSTR), S("a")), "arg 0: argument must not be null");
    CHECK_STR(call("startswith", 2, S("a"), NUL(TSTR)), "arg 1: argument must not be null");
    CHECK_STR(call("startswith", 2, SENS(S("abc")), S("a")), "true@sensitive :: bool");

    /* [fn.endswith.result] */
    CHECK_STR(call("endswith", 2, S("hello"), S("lo")), "true :: bool");
    CHECK_STR(call("endswith", 2, S("hello"), S("")), "true :: bool");
    CHECK_STR(call("endswith", 2, S("lo"), S("hello")), "false :: bool");
    /* [fn.endswith] the function does not run for an unknown str */
    CHECK_STR(call("endswith", 2, UNK(TSTR), S("")), "unknown(bool) :: bool");
    CHECK_STR(call("endswith", 2, S("x"), SENS(S("x"))), "true@sensitive :: bool");

    /* [fn.strcontains.result] */
    CHECK_STR(call("strcontains", 2, S("hello"), S("ll")), "true :: bool");
    CHECK_STR(call("strcontains", 2, S("hello"), S("")), "true :: bool");
    CHECK_STR(call("strcontains", 2, S(""), S("")), "true :: bool");
    CHECK_STR(call("strcontains", 2, S(""), S("a")), "false :: bool");
    CHECK_STR(call("strcontains", 2, S("hello"), S("L")), "false :: bool");
    CHECK_STR(call("strcontains", 2, S("aaab"), S("aab")), "true :: bool");
    CHECK_STR(call("strcontains", 2, S("abababc"), S("ababc")), "true :: bool");
    CHECK_STR(call("strcontains", 2, S("abababd"), S("ababc")), "false :: bool");
    CHECK_STR(call("strcontains", 2, S("ab"), S("abc")), "false :: bool");
    CHECK_STR(call("strcontains", 2, UNK(TSTR), S("")), "unknown(bool) :: bool");
}

/* ---- alltrue, anytrue, index, list, map ---- */

static void test_predicates(tfx_ctx *ctx, void *unused)
{
    const tfx_type *lb;

    (void)unused;
    C = ctx;
    lb = LISTT(TBOOL);
    /* [fn.alltrue.result] */
    CHECK_STR(call("alltrue", 1, LIST(TBOOL, 0)), "true :: bool");
    CHECK_STR(call("alltrue", 1, LIST(TBOOL, 2, B(true), B(true))), "true :: bool");
    CHECK_STR(call("alltrue", 1, LIST(TBOOL, 2, B(true), B(false))), "false :: bool");
    CHECK_STR(call("alltrue", 1, LIST(TBOOL, 2, B(true), NUL(TBOOL))), "false :: bool");
    CHECK_STR(call("alltrue", 1, LIST(TBOOL, 2, B(false), UNK(TBOOL))), "false :: bool");
    CHECK_STR(call("alltrue", 1, LIST(TBOOL, 2, UNK(TBOOL), B(false))),
              "unknown(bool) :: bool");
    CHECK_STR(call("alltrue", 1, UNK(lb)), "unknown(bool) :: bool");
    CHECK_STR(call("alltrue", 1, NUL(lb)), "arg 0: argument must not be null");
    CHECK_STR(call("alltrue", 1, LIST(TBOOL, 2, B(true), SENS(B(true)))),
              "true@sensitive :: bool");
    /* [fn.anytrue.result] */
    CHECK_STR(call("anytrue", 1, LIST(TBOOL, 0)), "false :: bool");
    CHECK_STR(call("anytrue", 1, LIST(TBOOL, 2, UNK(TBOOL), B(true))), "true :: bool");
    CHECK_STR(call("anytrue", 1, LIST(TBOOL, 2, UNK(TBOOL), B(false))),
              "unknown(bool) :: bool");
    CHECK_STR(call("anytrue", 1, LIST(TBOOL, 2, NUL(TBOOL), B(false))), "false :: bool");
    CHECK_STR(call("anytrue", 1, LIST(TBOOL, 1, NUL(TBOOL))), "false :: bool");
    CHECK_STR(call("anytrue", 1, SENS(LIST(TBOOL, 1, B(true)))), "true@sensitive :: bool");

    /* [fn.index.result] [fn.index.kind] [fn.index.empty] [fn.index.not-found] */
    CHECK_STR(call("index", 2, TUP(3, S("a"), S("b"), S("c")), S("b")), "1 :: number");
    CHECK_STR(call("index", 2, TUP(2, I(1), S("1")), S("1")), "1 :: number");
    CHECK_STR(call("index", 2, LIST(TSTR, 1, S("1")), I(1)), "error: item not found");
    CHECK_STR(call("index", 2, TUP(0), I(1)), "error: cannot search an empty list");
    CHECK_STR(call("index", 2, LIST(TSTR, 0), I(1)), "error: cannot search an empty list");
    CHECK_STR(call("index", 2, SET(TSTR, 1, S("a")), S("a")),
              "error: argument must be a list or tuple");
    CHECK_STR(call("index", 2, OBJ(1, "a", I(1)), I(1)),
              "error: argument must be a list or tuple");
    CHECK_STR(call("index", 2, S("abc"), S("a")), "error: argument must be a list or tuple");
    CHECK_STR(call("index", 2, LIST(TSTR, 2, S("a"), UNK(TSTR)), S("b")),
              "unknown(number) :: number");
    CHECK_STR(call("index", 2, LIST(TSTR, 2, S("a"), UNK(TSTR)), S("a")), "0 :: number");
    CHECK_STR(call("index", 2, LIST(TSTR, 2, NUL(TSTR), S("a")), S("a")), "1 :: number");
    CHECK_STR(call("index", 2, TUP(2, S("a"), SENS(S("b"))), S("b")),
              "1@sensitive :: number");
    CHECK_STR(call("index", 2, UNK(LISTT(TSTR)), S("a")), "unknown(number) :: number");
    CHECK_STR(call("index", 2, TUP(1, S("a")), UNK(TSTR)), "unknown(number) :: number");
    CHECK_STR(call("index", 2, TUP(1, S("a")), NUL(TSTR)), "arg 1: argument must not be null");
    CHECK_STR(call("index", 2, &tfx_value_dynamic_unknown, S("a")),
              "unknown(dynamic) :: dynamic");

    /* [fn.list.removed] [fn.map.removed] */
    CHECK_STR(call("list", 0),
              "error: the \"list\" function was deprecated in Terraform v0.12 and is no longer "
              "available; use tolist([ ... ]) syntax to write a literal list");
    CHECK_STR(call("list", 2, NUL(TDYN), UNK(TDYN)),
              "error: the \"list\" function was deprecated in Terraform v0.12 and is no longer "
              "available; use tolist([ ... ]) syntax to write a literal list");
    CHECK_STR(call("map", 2, S("a"), I(1)),
              "error: the \"map\" function was deprecated in Terraform v0.12 and is no longer "
              "available; use tomap({ ... }) syntax to write a literal map");
}

/* ---- matchkeys, one, sum, transpose ---- */

static void test_collections(tfx_ctx *ctx, void *unused)
{
    const tfx_type *ls;
    const tfx_value *vals;

    (void)unused;
    C = ctx;
    ls = LISTT(TSTR);
    vals = LIST(TSTR, 3, S("i-1"), S("i-2"), S("i-3"));
    /* [fn.matchkeys.result] */
    CHECK_STR(call("matchkeys", 3, vals, LIST(TSTR, 3, S("a"), S("b"), S("a")),
                   LIST(TSTR, 1, S("a"))),
              "list[\"i-1\",\"i-3\"] :: list(string)");
    CHECK_STR(call("matchkeys", 3, vals, LIST(TSTR, 3, S("a"), S("b"), S("a")),
                   LIST(TSTR, 1, S("z"))),
              "list[] :: list(string)");
    CHECK_STR(call("matchkeys", 3, LIST(TSTR, 1, S("a")), LIST(TNUM, 1, I(1)),
                   LIST(TSTR, 1, S("1"))),
              "list[\"a\"] :: list(string)");
    CHECK_STR(call("matchkeys", 3, LIST(TSTR, 1, S("a")), LIST(TSTR, 1, S("x")),
                   LIST(TSTR, 2, S("x"), UNK(TSTR))),
              "list[\"a\"] :: list(string)");
    CHECK_STR(call("matchkeys", 3, LIST(TSTR, 1, S("a")), LIST(TSTR, 1, S("x")),
                   LIST(TSTR, 2, UNK(TSTR), S("x"))),
              "list[] :: list(string)");
    /* an empty searchset comes before the unknowns */
    CHECK_STR(call("matchkeys", 3, LIST(TSTR, 1, UNK(TSTR)), LIST(TSTR, 1, S("x")),
                   LIST(TSTR, 0)),
              "list[] :: list(string)");
    CHECK_STR(call("matchkeys", 3, LIST(TSTR, 1, UNK(TSTR)), LIST(TSTR, 1, S("x")),
                   LIST(TSTR, 1, S("x"))),
              "unknown(list(string)) :: list(string)");
    /* [fn.matchkeys.length] [fn.matchkeys.type] */
    CHECK_STR(call("matchkeys", 3, LIST(TSTR, 1, S("a")), LIST(TSTR, 0), LIST(TSTR, 0)),
              "error: length of keys and values should be equal");
    CHECK_STR(call("matchkeys", 3, LIST(TSTR, 1, S("a")), LIST(ls, 1, LIST(TSTR, 1, S("x"))),
                   LIST(TSTR, 1, S("x"))),
              "error: keys and searchset must be of the same type");
    CHECK_STR(call("matchkeys", 3, UNK(ls), LIST(ls, 0), LIST(TSTR, 0)),
              "error: keys and searchset must be of the same type");
    CHECK_STR(call("matchkeys", 3, UNK(ls), LIST(TSTR, 0), LIST(TSTR, 0)),
              "unknown(list(string)) :: list(string)");
    CHECK_STR(call("matchkeys", 3, LIST(TSTR, 1, SENS(S("a"))), LIST(TSTR, 1, S("x")),
                   LIST(TSTR, 1, S("x"))),
              "list[\"a\"]@sensitive :: list(string)");

    /* [fn.one.type] [fn.one.result] */
    CHECK_STR(call("one", 1, TUP(0)), "null(dynamic) :: dynamic");
    CHECK_STR(call("one", 1, LIST(TSTR, 0)), "null(string) :: string");
    CHECK_STR(call("one", 1, TUP(1, S("a"))), "\"a\" :: string");
    CHECK_STR(call("one", 1, SET(TNUM, 1, I(5))), "5 :: number");
    CHECK_STR(call("one", 1, TUP(2, I(1), I(2))),
              "arg 0: must be a list, set, or tuple value with either zero or one elements");
    CHECK_STR(call("one", 1, LIST(TNUM, 2, I(1), I(2))),
              "arg 0: must be a list, set, or tuple value with either zero or one elements");
    CHECK_STR(call("one", 1, OBJ(0)),
              "arg 0: must be a list, set, or tuple value with either zero or one elements");
    CHECK_STR(call("one", 1, UNK(ls)), "unknown(string) :: string");
    CHECK_STR(call("one", 1, SET(TSTR, 2, S("a"), UNK(TSTR))),
              "unknown(string) :: string");
    CHECK_STR(call("one", 1, SET(TSTR, 1, UNK(TSTR))), "unknown(string) :: string");
    CHECK_STR(call("one", 1, SENS(LIST(TSTR, 0))), "null(string)@sensitive :: string");
    CHECK_STR(call("one", 1, NUL(ls)), "arg 0: argument must not be null");

    /* [fn.sum.*] */
    CHECK_STR(call("sum", 1, TUP(3, I(1), S("2"), N("3.5"))), "6.5 :: number");
    CHECK_STR(call("sum", 1, SET(TNUM, 2, I(1), I(2))), "3 :: number");
    CHECK_STR(call("sum", 1, LIST(TNUM, 2, N("0.1"), N("0.2"))), "0.3 :: number");
    CHECK_STR(call("sum", 1, I(1)), "arg 0: cannot sum noniterable");
    CHECK_STR(call("sum", 1, S("12")), "arg 0: cannot sum noniterable");
    CHECK_STR(call("sum", 1, TUP(0)), "arg 0: cannot sum an empty list");
    CHECK_STR(call("sum", 1, OBJ(0)), "arg 0: cannot sum an empty list");
    CHECK_STR(call("sum", 1, OBJ(1, "a", I(1))),
              "arg 0: argument must be list, set, or tuple. Received object");
    CHECK_STR(call("sum", 1, MAP(TNUM, 1, "a", I(1))),
              "arg 0: argument must be list, set, or tuple. Received map of number");
    CHECK_STR(call("sum", 1, TUP(3, I(1), UNK(TNUM), NUL(TNUM))), "unknown(number) :: number");
    CHECK_STR(call("sum", 1, TUP(2, I(1), NUL(TNUM))),
              "arg 0: argument must be list, set, or tuple of number values");
    CHECK_STR(call("sum", 1, TUP(2, I(1), S("x"))),
              "arg 0: argument must be list, set, or tuple of number values");
    CHECK_STR(call("sum", 1, TUP(1, B(true))),
              "arg 0: argument must be list, set, or tuple of number values");
    /* [fn.sum.result] the infinities (1/0 and -1/0) are met before "x" */
    CHECK_STR(call("sum", 1, TUP(3, N("1e999999999"), N("-1e999999999"), S("x"))),
              "error: can't compute sum of opposing infinities");
    CHECK_STR(call("sum", 1, TUP(3, S("x"), N("1e999999999"), N("-1e999999999"))),
              "arg 0: argument must be list, set, or tuple of number values");
    CHECK_STR(call("sum", 1, TUP(2, I(1), SENS(I(2)))), "3@sensitive :: number");

    /* [fn.transpose.*] */
    CHECK_STR(call("transpose", 1,
                   MAP(ls, 2, "a", LIST(TSTR, 2, S("1"), S("2")), "b",
                       LIST(TSTR, 2, S("2"), S("3")))),
              "map{\"1\"=list[\"a\"],\"2\"=list[\"a\",\"b\"],\"3\"=list[\"b\"]} :: "
              "map(list(string))");
    CHECK_STR(call("transpose", 1, MAP(ls, 1, "a", LIST(TSTR, 2, S("x"), S("x")))),
              "map{\"x\"=list[\"a\",\"a\"]} :: map(list(string))");
    CHECK_STR(call("transpose", 1, MAP(ls, 1, "a", LIST(TSTR, 0))),
              "map{} :: map(list(string))");
    CHECK_STR(call("transpose", 1, MAP(ls, 1, "a", NUL(ls))),
              "error: input must not contain null list");
    CHECK_STR(call("transpose", 1, MAP(ls, 2, "a", LIST(TSTR, 1, NUL(TSTR)), "b", NUL(ls))),
              "error: input list must not contain null string");
    CHECK_STR(call("transpose", 1, MAP(ls, 2, "a", NUL(ls), "b", LIST(TSTR, 1, UNK(TSTR)))),
              "unknown(map(list(string))) :: map(list(string))");
    CHECK_STR(call("transpose", 1, SENS(MAP(ls, 1, "a", LIST(TSTR, 1, S("x"))))),
              "map{\"x\"=list[\"a\"]}@sensitive :: map(list(string))");
}

/* ---- sensitive, nonsensitive, issensitive, ephemeralasnull ---- */

static void test_sensitive(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    /* [fn.sensitive.result] */
    CHECK_STR(call("sensitive", 1, I(1)), "1@sensitive :: number");
    CHECK_STR(call("sensitive", 1, NUL(TDYN)), "null(dynamic)@sensitive :: dynamic");
    CHECK_STR(call("sensitive", 1, UNK(TSTR)), "unknown(string)@sensitive :: string");
    CHECK_STR(call("sensitive", 1, SENS(S("x"))), "\"x\"@sensitive :: string");
    CHECK_STR(call("sensitive", 1, TUP(1, SENS(S("x")))),
              "[\"x\"@sensitive]@sensitive :: tuple([string])");
    CHECK_STR(call("sensitive", 1, EPH(S("x"))), "\"x\"@ephemeral@sensitive :: string");
    /* [fn.nonsensitive.result] */
    CHECK_STR(call("nonsensitive", 1, SENS(S("x"))), "\"x\" :: string");
    CHECK_STR(call("nonsensitive", 1, S("x")), "\"x\" :: string");
    CHECK_STR(call("nonsensitive", 1, SENS(TUP(1, SENS(S("x"))))),
              "[\"x\"@sensitive] :: tuple([string])");
    CHECK_STR(call("nonsensitive", 1, SENS(EPH(S("x")))), "\"x\"@ephemeral :: string");
    CHECK_STR(call("nonsensitive", 1, SENS(UNK(TSTR))), "unknown(string) :: string");
    /* [fn.issensitive.result] */
    CHECK_STR(call("issensitive", 1, SENS(S("x"))), "true :: bool");
    CHECK_STR(call("issensitive", 1, SENS(UNK(TSTR))), "true :: bool");
    CHECK_STR(call("issensitive", 1, UNK(TSTR)), "unknown(bool) :: bool");
    CHECK_STR(call("issensitive", 1, &tfx_value_dynamic_unknown), "unknown(bool) :: bool");
    CHECK_STR(call("issensitive", 1, NUL(TDYN)), "false :: bool");
    CHECK_STR(call("issensitive", 1, TUP(1, SENS(S("x")))), "false :: bool");
    CHECK_STR(call("issensitive", 1, EPH(S("x"))), "false :: bool");
    /* [fn.ephemeralasnull.*] */
    CHECK_STR(call("ephemeralasnull", 1, EPH(S("x"))), "null(string) :: string");
    CHECK_STR(call("ephemeralasnull", 1, SENS(EPH(S("x")))),
              "null(string)@sensitive :: string");
    CHECK_STR(call("ephemeralasnull", 1, EPH(UNK(TNUM))), "unknown(number) :: number");
    CHECK_STR(call("ephemeralasnull", 1, OBJ(2, "a", EPH(S("x")), "b", I(1))),
              "{\"a\"=null(string),\"b\"=1} :: object({a=string,b=number})");
    CHECK_STR(call("ephemeralasnull", 1, TUP(2, EPH(S("x")), S("y"))),
              "[null(string),\"y\"] :: tuple([string,string])");
    CHECK_STR(call("ephemeralasnull", 1, LIST(TSTR, 2, EPH(S("x")), SENS(S("y")))),
              "list[null(string),\"y\"@sensitive] :: list(string)");
    CHECK_STR(call("ephemeralasnull", 1, MAP(TSTR, 1, "k", EPH(S("x")))),
              "map{\"k\"=null(string)} :: map(string)");
    CHECK_STR(call("ephemeralasnull", 1, SENS(OBJ(1, "a", I(1)))),
              "{\"a\"=1@sensitive}@sensitive :: object({a=number})");
    CHECK_STR(call("ephemeralasnull", 1, SENS(TUP(1, I(1)))),
              "[1]@sensitive :: tuple([number])");
    CHECK_STR(call("ephemeralasnull", 1, EPH(OBJ(1, "a", I(1)))),
              "null(object({a=number})) :: object({a=number})");
    CHECK_STR(call("ephemeralasnull", 1, EPH(SET(TSTR, 1, S("a")))),
              "null(set(string)) :: set(string)");
    CHECK_STR(call("ephemeralasnull", 1, SENS(S("x"))), "\"x\"@sensitive :: string");
    CHECK_STR(call("ephemeralasnull", 1, NUL(TDYN)), "null(dynamic) :: dynamic");
    CHECK_STR(call("ephemeralasnull", 1, OBJ(0)), "{} :: object({})");
    CHECK_STR(call("ephemeralasnull", 1, MARK(EPH(S("x")), "other")),
              "null(string)@other :: string");
}

/* ---- timecmp ---- */

static void test_timecmp(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    /* [fn.timecmp.result] */
    CHECK_STR(call("timecmp", 2, S("2017-11-22T00:00:00Z"), S("2017-11-22T01:00:00+01:00")),
              "0 :: number");
    CHECK_STR(call("timecmp", 2, S("2017-11-22T00:00:00.5Z"), S("2017-11-22T00:00:00,4Z")),
              "1 :: number");
    CHECK_STR(call("timecmp", 2, S("2017-11-22T00:00:00Z"), S("2017-11-22T00:00:01Z")),
              "-1 :: number");
    CHECK_STR(call("timecmp", 2, S("2017-11-22T00:00:00.1234567891Z"),
                   S("2017-11-22T00:00:00.1234567899Z")),
              "0 :: number");
    CHECK_STR(call("timecmp", 2, S("0000-01-01T00:00:00+99:99"), S("0000-01-01T00:00:00Z")),
              "-1 :: number");
    CHECK_STR(call("timecmp", 2, S("2017-11-22T1:00:00Z"), S("2017-11-22T01:00:00Z")),
              "0 :: number");
    /* [fn.timecmp.errors] */
    CHECK_STR(call("timecmp", 2, S("2017-11-22"), S("x")),
              "arg 0: not a valid RFC3339 timestamp: missing required time introducer 'T'");
    CHECK_STR(call("timecmp", 2, S("2017-11-22T00:00:00Z"), S("2017-13-01T00:00:00Z")),
              "arg 1: not a valid RFC3339 timestamp: cannot use \"-01T00:00:00Z\" as month");
    CHECK_STR(call("timecmp", 2, S("2017-02-29T00:00:00Z"), S("x")),
              "arg 0: not a valid RFC3339 timestamp: day out of range");
    CHECK_STR(call("timecmp", 2, S("2017-11-22T00:00:00Zx"), S("x")),
              "arg 0: not a valid RFC3339 timestamp: cannot use \"x\" as timestamp segment");
    /* [fn.timecmp] */
    CHECK_STR(call("timecmp", 2, SENS(S("2017-11-22T00:00:00Z")), S("2017-11-22T00:00:00Z")),
              "0@sensitive :: number");
    CHECK_STR(call("timecmp", 2, UNK(TSTR), S("x")), "unknown(number) :: number");
    CHECK_STR(call("timecmp", 2, NUL(TSTR), S("x")), "arg 0: argument must not be null");
}

/* ---- Limits ---- */

/* transpose of more pairs than the collection limit. */
static void transpose_many(tfx_ctx *ctx, void *unused)
{
    const tfx_value *l;

    (void)unused;
    C = ctx;
    l = LIST(TSTR, 6, S("a"), S("b"), S("c"), S("d"), S("e"), S("f"));
    (void)call("transpose", 1, MAP(LISTT(TSTR), 2, "x", l, "y", l));
}

int main(void)
{
    tfx_ctx_limits limits;

    CHECK(run("strings", test_strings));
    CHECK(run("predicates", test_predicates));
    CHECK(run("collections", test_collections));
    CHECK(run("sensitive", test_sensitive));
    CHECK(run("timecmp", test_timecmp));

    tfx_ctx_limits_init(&limits);
    limits.max_collection_items = 10;
    CHECK_STR(run_limited(&limits, transpose_many, NULL), "Collection size limit exceeded");
    C = NULL;
    return check_report("test_funcs_tf");
}
