/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_value.c — unit tests of types and values (type.h, value.h,
 * spec/values.md): constructors, NFC, marks, set order and deduplication
 * as cty 1.12.1 does them, equality (semantics O8–O15), type strings and
 * friendly names.  The expected set orders were recorded from the
 * reference adapter (bin/go-hcl-adapter, typed set variables).
 */
#include "value.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "convert.h"
#include "keysort.h"

static tfx_ctx *C;

/* ---- Builders ---- */

static const tfx_value *S(const char *s)
{
    return tfx_value_string(C, s, strlen(s));
}

static const tfx_value *N(const char *text)
{
    const tfx_num *n = NULL;

    if (strcmp(text, "inf") == 0 || strcmp(text, "-inf") == 0)
        return tfx_value_number(C, tfx_num_from_double(C->arena, text[0] == '-' ? -INFINITY
                                                                                  : INFINITY));
    if (tfx_num_parse_n(C->arena, text, strlen(text), &n) != TFX_NUM_OK) {
        fprintf(stderr, "cannot parse %s\n", text);
        exit(2);
    }
    return tfx_value_number(C, n);
}

static tfx_str K(const char *s)
{
    tfx_str k = {s, strlen(s)};

    return k;
}

static const tfx_value *UNK(const tfx_type *t)
{
    return tfx_value_unknown(C, t);
}

static const tfx_value *NUL(const tfx_type *t)
{
    return tfx_value_null(C, t);
}

static const tfx_value *MARK(const tfx_value *v, const char *m)
{
    return tfx_value_mark(C, v, tfx_marks_one(C, m, strlen(m)));
}

#define ARR(...) ((const tfx_value *const[]){__VA_ARGS__})
#define NARGS(...) (sizeof((const tfx_value *const[]){__VA_ARGS__}) / sizeof(const tfx_value *))
#define LIST(t, ...) tfx_value_list(C, (t), ARR(__VA_ARGS__), NARGS(__VA_ARGS__))
#define SET(t, ...) tfx_value_set(C, (t), ARR(__VA_ARGS__), NARGS(__VA_ARGS__))
#define TUP(...) tfx_value_tuple(C, ARR(__VA_ARGS__), NARGS(__VA_ARGS__))

static const tfx_value *OBJ1(const char *k, const tfx_value *v)
{
    tfx_str names[] = {K(k)};

    return tfx_value_object(C, names, ARR(v), 1);
}

static const tfx_type *T_OBJ_A(void)
{
    tfx_str names[] = {K("a")};
    const tfx_type *types[] = {&tfx_type_str};

    return tfx_type_object(C, names, types, 1);
}

/* A compact rendering of a value, for comparing orders:
 * "s" strings quoted, numbers as formatted, ? unknown, ~ null,
 * [..] lists/sets/tuples, {k=v,..} maps/objects, marks as @m. */
static void show_into(char *buf, size_t cap, const tfx_value *v)
{
    size_t n = strlen(buf);

#define PUT(...) (void)snprintf(buf + strlen(buf), cap - strlen(buf), __VA_ARGS__)
    (void)n;
    if (v->state == TFX_VAL_UNKNOWN) {
        PUT("?");
    } else if (v->state == TFX_VAL_NULL) {
        PUT("~");
    } else {
        switch (v->type->kind) {
        case TFX_TYPE_BOOL:
            PUT("%s", v->as.boolean ? "true" : "false");
            break;
        case TFX_TYPE_NUMBER:
            PUT("%s", tfx_num_format(C->arena, v->as.number, NULL));
            break;
        case TFX_TYPE_STRING:
            PUT("\"%.*s\"", (int)v->as.string.nbytes, v->as.string.s);
            break;
        case TFX_TYPE_LIST:
        case TFX_TYPE_SET:
        case TFX_TYPE_TUPLE:
            PUT("[");
            for (size_t i = 0; i < v->as.elems.n; i++) {
                if (i > 0)
                    PUT(",");
                show_into(buf, cap, v->as.elems.items[i]);
            }
            PUT("]");
            break;
        default:
            PUT("{");
            for (size_t i = 0; i < v->as.attrs.n; i++) {
                if (i > 0)
                    PUT(",");
                PUT("%.*s=", (int)v->as.attrs.keys[i].nbytes, v->as.attrs.keys[i].s);
                show_into(buf, cap, v->as.attrs.vals[i]);
            }
            PUT("}");
            break;
        }
    }
    if (v->marks != NULL)
        for (size_t i = 0; i < v->marks->n; i++)
            PUT("@%s", v->marks->names[i].s);
#undef PUT
}

static const char *show(const tfx_value *v)
{
    char *buf = tfx_ctx_alloc(C, 4096);

    show_into(buf, 4096, v);
    return buf;
}

static const char *tri(tfx_tri t)
{
    return t == TFX_TRI_TRUE ? "true" : t == TFX_TRI_FALSE ? "false" : "unknown";
}

#define EQ(a, b) tri(tfx_value_equals(C, (a), (b)))

/* ---- Types [type.*] ---- */

static void test_types(void)
{
    const tfx_type *ls = tfx_type_list(C, &tfx_type_str);
    const tfx_type *tup = tfx_type_tuple(C, (const tfx_type *const[]){&tfx_type_str, &tfx_type_bool}, 2);
    tfx_str names[] = {K("b"), K("a"), K("b")};
    const tfx_type *types[] = {&tfx_type_str, &tfx_type_number, &tfx_type_bool};
    const tfx_type *obj = tfx_type_object(C, names, types, 3);
    tfx_str odd[] = {K("x y"), K("q\"")};
    const tfx_type *oddobj = tfx_type_object(C, odd, types, 2);
    const tfx_type *dynlist = tfx_type_list(C, &tfx_type_dynamic);

    /* constructors, names sorted, a later duplicate wins */
    CHECK(obj->n == 2);
    CHECK(tfx_str_eq(obj->names[0], "a", 1) && obj->elems[0] == &tfx_type_number);
    CHECK(tfx_str_eq(obj->names[1], "b", 1) && obj->elems[1] == &tfx_type_bool);
    CHECK(tfx_type_attr_index(obj, "b", 1) == 1);
    CHECK(tfx_type_attr_index(obj, "a", 1) == 0);
    CHECK(tfx_type_attr_index(obj, "c", 1) == -1);
    CHECK(tfx_type_attr_index(ls, "a", 1) == -1);

    /* equality */
    CHECK(tfx_type_equal(ls, tfx_type_list(C, &tfx_type_str)));
    CHECK(!tfx_type_equal(ls, tfx_type_set(C, &tfx_type_str)));
    CHECK(!tfx_type_equal(ls, tfx_type_list(C, &tfx_type_number)));
    CHECK(tfx_type_equal(tup, tfx_type_tuple(C, (const tfx_type *const[]){&tfx_type_str, &tfx_type_bool}, 2)));
    CHECK(!tfx_type_equal(tup, tfx_type_tuple(C, (const tfx_type *const[]){&tfx_type_str}, 1)));
    CHECK(!tfx_type_equal(obj, oddobj));
    CHECK(tfx_type_equal(&tfx_type_dynamic, &tfx_type_dynamic));
    CHECK(!tfx_type_equal(&tfx_type_dynamic, &tfx_type_str));

    /* kinds and dynamic */
    CHECK(tfx_type_is_primitive(&tfx_type_number) && !tfx_type_is_primitive(ls));
    CHECK(!tfx_type_is_primitive(&tfx_type_dynamic));
    CHECK(tfx_type_is_collection(ls) && !tfx_type_is_collection(tup));
    CHECK(tfx_type_is_structural(tup) && tfx_type_is_structural(obj) && !tfx_type_is_structural(ls));
    CHECK(tfx_type_has_dynamic(&tfx_type_dynamic));
    CHECK(tfx_type_has_dynamic(tfx_type_map(C, dynlist)));
    CHECK(tfx_type_has_dynamic(tfx_type_tuple(C, (const tfx_type *const[]){&tfx_type_str, &tfx_type_dynamic}, 2)));
    CHECK(!tfx_type_has_dynamic(obj));
    CHECK(!tfx_type_has_dynamic(tfx_type_tuple(C, NULL, 0)));

    /* [type.string] */
    CHECK_STR(tfx_type_string(C, &tfx_type_str), "string");
    CHECK_STR(tfx_type_string(C, &tfx_type_dynamic), "dynamic");
    CHECK_STR(tfx_type_string(C, ls), "list(string)");
    CHECK_STR(tfx_type_string(C, tfx_type_set(C, tfx_type_map(C, &tfx_type_number))),
              "set(map(number))");
    CHECK_STR(tfx_type_string(C, obj), "object({a=number,b=bool})");
    CHECK_STR(tfx_type_string(C, tup), "tuple([string,bool])");
    CHECK_STR(tfx_type_string(C, tfx_type_tuple(C, NULL, 0)), "tuple([])");
    CHECK_STR(tfx_type_string(C, tfx_type_object(C, NULL, NULL, 0)), "object({})");
    CHECK_STR(tfx_type_string(C, oddobj), "object({\"q\\\"\"=number,\"x y\"=string})");

    /* [type.friendly] cty's FriendlyName and FriendlyNameForConstraint */
    CHECK_STR(tfx_type_friendly(C, ls), "list of string");
    CHECK_STR(tfx_type_friendly(C, tfx_type_map(C, &tfx_type_number)), "map of number");
    CHECK_STR(tfx_type_friendly(C, tfx_type_set(C, &tfx_type_bool)), "set of bool");
    CHECK_STR(tfx_type_friendly(C, tfx_type_list(C, ls)), "list of list of string");
    CHECK_STR(tfx_type_friendly(C, tup), "tuple");
    CHECK_STR(tfx_type_friendly(C, obj), "object");
    CHECK_STR(tfx_type_friendly(C, &tfx_type_dynamic), "dynamic");
    CHECK_STR(tfx_type_friendly(C, dynlist), "list of dynamic");
    CHECK_STR(tfx_type_friendly_constraint(C, &tfx_type_dynamic), "any type");
    CHECK_STR(tfx_type_friendly_constraint(C, dynlist), "list of any single type");
    CHECK_STR(tfx_type_friendly_constraint(C, tfx_type_set(C, &tfx_type_dynamic)),
              "set of any single type");
    CHECK_STR(tfx_type_friendly_constraint(C, tfx_type_map(C, &tfx_type_dynamic)),
              "map of any single type");
    CHECK_STR(tfx_type_friendly_constraint(C, tfx_type_list(C, dynlist)),
              "list of list of any single type");
    CHECK_STR(tfx_type_friendly_constraint(C, ls), "list of string");

    /* copies are equal and independent of the source ctx */
    CHECK(tfx_type_equal(tfx_type_copy(C, obj), obj));
    CHECK(tfx_type_copy(C, &tfx_type_number) == &tfx_type_number);
}

/* ---- Constructors and queries [value.*] ---- */

static void test_construct(void)
{
    const tfx_value *v, *l, *m, *o, *t;
    int64_t i = 0;

    CHECK(tfx_value_bool(true) == &tfx_value_true);
    CHECK(tfx_value_bool(false)->as.boolean == false);
    CHECK(tfx_value_dynamic_unknown.state == TFX_VAL_UNKNOWN);
    CHECK(tfx_value_dynamic_null.state == TFX_VAL_NULL);

    /* [value.number.prec] */
    v = tfx_value_int(C, -42);
    CHECK(v->type == &tfx_type_number || tfx_type_equal(v->type, &tfx_type_number));
    CHECK(tfx_num_prec(v->as.number) == 64);
    CHECK(tfx_num_to_int64(v->as.number, &i) && i == -42);

    /* [value.string.nfc] */
    v = S("e\xcc\x81");
    CHECK(v->as.string.nbytes == 2 && memcmp(v->as.string.s, "\xc3\xa9", 2) == 0);
    CHECK_STR(show(S("\xe2\x84\xab")), "\"\xc3\x85\""); /* U+212B ANGSTROM SIGN -> U+00C5 */
    v = tfx_value_string_raw(C, "ab", 2);
    CHECK(v->as.string.nbytes == 2 && tfx_value_is_known(v));

    /* states */
    v = NUL(&tfx_type_str);
    CHECK(tfx_value_is_null(v) && !tfx_value_is_known(v) && !tfx_value_is_unknown(v));
    CHECK(tfx_value_is_wholly_known(v));
    v = UNK(&tfx_type_str);
    CHECK(tfx_value_is_unknown(v) && !tfx_value_is_wholly_known(v));

    /* lists and tuples keep their order */
    l = LIST(&tfx_type_str, S("b"), S("a"), UNK(&tfx_type_str));
    CHECK(tfx_value_length(l) == 3);
    CHECK_STR(show(l), "[\"b\",\"a\",?]");
    CHECK(tfx_value_is_known(l) && !tfx_value_is_wholly_known(l));
    CHECK_STR(tfx_type_string(C, l->type), "list(string)");
    t = TUP(S("x"), N("1"), tfx_value_bool(true));
    CHECK_STR(tfx_type_string(C, t->type), "tuple([string,number,bool])");
    CHECK(tfx_value_item(t, 1)->type->kind == TFX_TYPE_NUMBER);
    CHECK(tfx_value_is_wholly_known(t));

    /* [value.map] keys sorted by bytes, a later duplicate wins */
    {
        tfx_str keys[] = {K("b"), K("a"), K("B"), K("a")};

        m = tfx_value_map(C, &tfx_type_number, keys, ARR(N("1"), N("2"), N("3"), N("4")), 4);
    }
    CHECK_STR(show(m), "{B=3,a=4,b=1}");
    CHECK(tfx_value_length(m) == 3);
    CHECK_STR(show(tfx_value_lookup(m, "a", 1)), "4");
    CHECK(tfx_value_lookup(m, "c", 1) == NULL);
    CHECK(tfx_value_lookup(l, "a", 1) == NULL);

    /* [value.object] attributes in the type's name order */
    {
        tfx_str names[] = {K("z"), K("a"), K("z")};

        o = tfx_value_object(C, names, ARR(S("1"), N("2"), tfx_value_bool(false)), 3);
    }
    CHECK_STR(tfx_type_string(C, o->type), "object({a=number,z=bool})");
    CHECK_STR(show(o), "{a=2,z=false}");
    CHECK(o->as.attrs.keys == o->type->names);
    CHECK_STR(show(tfx_value_lookup(o, "z", 1)), "false");

    /* copy into another ctx */
    {
        tfx_ctx other;
        const tfx_value *c;

        CHECK(tfx_ctx_init(&other, NULL));
        c = tfx_value_copy(&other, MARK(TUP(o, m, l, N("-0")), "s"));
        CHECK_STR(show(c), "[{a=2,z=false},{B=3,a=4,b=1},[\"b\",\"a\",?],-0]@s");
        CHECK(tfx_type_equal(c->type, TUP(o, m, l, N("-0"))->type));
        CHECK(c->type != TUP(o, m, l, N("-0"))->type);
        tfx_ctx_free(&other);
    }
}

/* ---- Marks [mark.*] ---- */

static void test_marks(void)
{
    const tfx_marks *a = tfx_marks_one(C, "sensitive", 9);
    const tfx_marks *b = tfx_marks_one(C, "other", 5);
    const tfx_marks *u = tfx_marks_union(C, a, b);
    const tfx_marks *got = NULL;
    const tfx_value *v, *w, *l, *s;

    CHECK(u->n == 2);
    CHECK(tfx_str_eq(u->names[0], "other", 5) && tfx_str_eq(u->names[1], "sensitive", 9));
    CHECK(tfx_marks_has(u, "sensitive") && tfx_marks_has(u, "other") && !tfx_marks_has(u, "x"));
    CHECK(!tfx_marks_has(NULL, "x"));
    CHECK(tfx_marks_union(C, u, a) == u);
    CHECK(tfx_marks_union(C, NULL, NULL) == NULL);
    CHECK(tfx_marks_union(C, NULL, a) == a);
    CHECK(tfx_marks_equal(tfx_marks_union(C, b, a), u));
    CHECK(!tfx_marks_equal(a, b) && tfx_marks_equal(NULL, NULL) && !tfx_marks_equal(a, NULL));

    v = MARK(S("x"), "sensitive");
    CHECK(tfx_value_is_marked(v));
    CHECK(tfx_value_mark(C, v, a) == v); /* nothing new */
    w = tfx_value_unmark(C, v, &got);
    CHECK(!tfx_value_is_marked(w) && tfx_marks_equal(got, a));
    CHECK_STR(show(w), "\"x\"");
    CHECK(tfx_value_unmark(C, w, &got) == w && got == NULL);

    /* deep */
    l = MARK(LIST(&tfx_type_str, v, MARK(S("y"), "other")), "lm");
    CHECK(tfx_value_is_marked_deep(l));
    CHECK(!tfx_value_is_marked_deep(LIST(&tfx_type_str, S("x"))));
    CHECK_STR(show(l), "[\"x\"@sensitive,\"y\"@other]@lm");
    w = tfx_value_unmark_deep(C, l, &got);
    CHECK_STR(show(w), "[\"x\",\"y\"]");
    CHECK(!tfx_value_is_marked_deep(w));
    CHECK(got != NULL && got->n == 3 && tfx_marks_has(got, "lm") && tfx_marks_has(got, "other"));
    CHECK(tfx_marks_equal(tfx_value_marks_deep(C, l), got));
    CHECK(tfx_value_marks_deep(C, w) == NULL);
    w = tfx_value_unmark(C, l, &got);
    CHECK_STR(show(w), "[\"x\"@sensitive,\"y\"@other]");

    /* [mark.set] SetVal moves the marks of the elements, at any depth, to
     * the set itself; marks are no part of identity (semantics M11) */
    s = SET(&tfx_type_str, MARK(S("a"), "sensitive"), S("a"), MARK(S("b"), "other"));
    CHECK_STR(show(s), "[\"a\",\"b\"]@other@sensitive");
    s = SET(tfx_type_list(C, &tfx_type_str), LIST(&tfx_type_str, MARK(S("a"), "x")),
            MARK(LIST(&tfx_type_str, S("b")), "sensitive"));
    CHECK_STR(show(s), "[[\"a\"],[\"b\"]]@sensitive@x");
    /* equality ignores marks */
    CHECK_STR(EQ(v, S("x")), "true");
}

/* ---- Set order and deduplication [set.*] ---- */

static void test_set_primitives(void)
{
    const tfx_type *ts = &tfx_type_str;
    const tfx_type *tn = &tfx_type_number;
    const tfx_type *tb = &tfx_type_bool;

    /* [set.order.string] bytes ascending; unknowns after known values, in
     * the order given, never merged; one null, last */
    CHECK_STR(show(SET(ts, S("b"), S("a"), S("c"), S("B"), S("aa"))), "[\"B\",\"a\",\"aa\",\"b\",\"c\"]");
    CHECK_STR(show(SET(ts, S("b"), S("a"), S("c"), S("B"), S("aa"), UNK(ts), NUL(ts), S("a"),
                       S("\xc3\xa9"), S("e\xcc\x81"))),
              "[\"B\",\"a\",\"aa\",\"b\",\"c\",\"\xc3\xa9\",?,~]");
    CHECK_STR(show(SET(ts, NUL(ts), UNK(ts), S("z"), UNK(ts), NUL(ts))), "[\"z\",?,?,~]");
    CHECK_STR(show(SET(ts, S(""), S("a"), S(""))), "[\"\",\"a\"]");
    CHECK(tfx_value_length(SET(ts)) == 0);

    /* [set.order.number] ascending by value; equal numbers merge (1 and
     * 1.0); -0 and 0 both stay (different buckets), -0 first */
    CHECK_STR(show(SET(tn, N("10"), N("2"), N("1"), N("-1.5"), N("100"))), "[-1.5,1,2,10,100]");
    CHECK_STR(show(SET(tn, N("0"), N("-0"), N("1"), N("1.0"), UNK(tn), NUL(tn), UNK(tn), N("-1.5"),
                       N("100"), NUL(tn), N("inf"), N("-inf"))),
              "[-Inf,-1.5,-0,0,1,100,+Inf,?,?,~]");
    CHECK_STR(show(SET(tn, N("0.1"), tfx_value_number(C, tfx_num_from_double(C->arena, 0.1)))), "[0.1]");
    CHECK(tfx_value_length(SET(tn, tfx_value_int(C, 3), N("3"), N("3.0"))) == 1);

    /* [set.order.bool] false before true */
    CHECK_STR(show(SET(tb, tfx_value_bool(true), UNK(tb), tfx_value_bool(false), tfx_value_bool(true))),
              "[false,true,?]");

    /* dynamic elements: only nulls and unknowns */
    CHECK_STR(show(SET(&tfx_type_dynamic, NUL(&tfx_type_dynamic), UNK(&tfx_type_dynamic),
                       NUL(&tfx_type_dynamic), UNK(&tfx_type_dynamic))),
              "[?,?,~]");
}

static void test_set_structural(void)
{
    const tfx_type *ta = T_OBJ_A();
    const tfx_type *ln = tfx_type_list(C, &tfx_type_number);
    const tfx_type *ts = &tfx_type_str;
    const tfx_type *ms = tfx_type_map(C, ts);
    const tfx_type *ss = tfx_type_set(C, ts);
    const tfx_type *tsb = tfx_type_tuple(C, (const tfx_type *const[]){ts, &tfx_type_bool}, 2);
    const tfx_value *u1, *u2, *s;

    /* [set.order.hash] objects by their hash bytes <"...";>: a quoted
     * string, so '"' and '\n' (written \n) sort before letters, and
     * non-ASCII after; unknown and null attributes (? and ~) after '"' */
    CHECK_STR(show(SET(ta, OBJ1("a", S("z")), OBJ1("a", S("y")), OBJ1("a", S("\n")),
                       OBJ1("a", S("\xc3\xa9")), OBJ1("a", S("\"")), OBJ1("a", S("a b")),
                       OBJ1("a", UNK(ts)), OBJ1("a", NUL(ts)), NUL(ta), UNK(ta), UNK(ta),
                       OBJ1("a", S("z")), OBJ1("a", S("Z")))),
              "[{a=\"Z\"},{a=\"\"\"},{a=\"\n\"},{a=\"a b\"},{a=\"y\"},{a=\"z\"},{a=\"\xc3\xa9\"},"
              "{a=?},{a=~},?,?,~]");

    /* lists of numbers: the hash writes numbers with 10 significant
     * digits (1e10 -> 1e+10, 0.00001 -> 1e-05), so [10] < [1,2] < [1e10]
     * < [1e-05] < [9]; [0] and [-0] are raw-equal, hence unordered, and
     * keep the order of their buckets; lists holding an unknown never
     * merge */
    CHECK_STR(show(SET(ln, LIST(&tfx_type_number, N("10")), LIST(&tfx_type_number, N("9")),
                       LIST(&tfx_type_number, N("1"), N("2")), tfx_value_list(C, &tfx_type_number, NULL, 0),
                       LIST(&tfx_type_number, N("-0")), LIST(&tfx_type_number, N("0")),
                       LIST(&tfx_type_number, UNK(&tfx_type_number)),
                       LIST(&tfx_type_number, UNK(&tfx_type_number)),
                       LIST(&tfx_type_number, NUL(&tfx_type_number)), NUL(ln), UNK(ln),
                       LIST(&tfx_type_number, N("1e10")), LIST(&tfx_type_number, N("1.00000000005")),
                       LIST(&tfx_type_number, N("0.00001")), LIST(&tfx_type_number, N("10")))),
              "[[0],[-0],[10],[1,2],[1.00000000005],[10000000000],[0.00001],[9],[?],[?],[],[~],?,~]");

    /* [set.hash] numbers hash as their exact value rounded to 10
     * digits: 797.03097015 read at 512 bits is a little below the halfway
     * point, so it hashes "797.0309701" like the second list (not to the
     * even digit 2, as its shortest text would), and the two, told apart
     * by nothing, keep their given order */
    CHECK_STR(show(SET(ln, LIST(&tfx_type_number, N("7.9703097015e2")),
                       LIST(&tfx_type_number, N("7.970309701e2")),
                       LIST(&tfx_type_number, N("7.970309702e2")))),
              "[[797.03097015],[797.0309701],[797.0309702]]");
    CHECK_STR(show(SET(ln, LIST(&tfx_type_number, N("7.970309702e2")),
                       LIST(&tfx_type_number, N("7.9703097015e2")),
                       LIST(&tfx_type_number, N("7.970309701e2")))),
              "[[797.03097015],[797.0309701],[797.0309702]]");

    /* maps: {"a":..;} entries in key order */
    {
        tfx_str kb[] = {K("b")}, ka[] = {K("a")}, kab[] = {K("a"), K("b")};

        s = SET(ms, tfx_value_map(C, ts, kb, ARR(S("1")), 1), tfx_value_map(C, ts, ka, ARR(S("2")), 1),
                tfx_value_map(C, ts, NULL, NULL, 0), tfx_value_map(C, ts, kab, ARR(S("1"), S("0")), 2));
        CHECK_STR(show(s), "[{a=\"1\",b=\"0\"},{a=\"2\"},{b=\"1\"},{}]");
    }

    /* sets of sets: equal sets merge whatever their given order */
    s = SET(ss, SET(ts, S("b")), SET(ts, S("a"), S("c")), SET(ts), SET(ts, S("c"), S("a")));
    CHECK_STR(show(s), "[[\"a\",\"c\"],[\"b\"],[]]");

    /* tuples: <"a";F;> < <"a";T;> < <"a";~;> < <"b";T;> */
    s = SET(tsb, TUP(S("b"), tfx_value_bool(true)), TUP(S("a"), tfx_value_bool(false)),
            TUP(S("a"), tfx_value_bool(true)), TUP(S("a"), NUL(&tfx_type_bool)));
    CHECK_STR(show(s), "[[\"a\",false],[\"a\",true],[\"a\",~],[\"b\",true]]");

    /* [set.same] and [set.order] as functions */
    u1 = UNK(ts);
    u2 = UNK(ts);
    CHECK(!tfx_value_set_same(C, u1, u2));
    CHECK(!tfx_value_set_same(C, u1, u1));
    CHECK(tfx_value_set_same(C, NUL(ts), NUL(ts)));
    CHECK(tfx_value_set_same(C, S("a"), MARK(S("a"), "m")));
    CHECK(!tfx_value_set_same(C, S("a"), S("b")));
    CHECK(tfx_value_set_same(C, N("1"), N("1.0")));
    CHECK(!tfx_value_set_same(C, N("0"), N("-0")));
    CHECK(!tfx_value_set_same(C, LIST(ts, UNK(ts)), LIST(ts, UNK(ts))));
    CHECK(tfx_value_set_cmp(C, S("a"), S("b")) < 0);
    CHECK(tfx_value_set_cmp(C, S("b"), S("a")) > 0);
    CHECK(tfx_value_set_cmp(C, S("b"), UNK(ts)) < 0);
    CHECK(tfx_value_set_cmp(C, UNK(ts), NUL(ts)) < 0);
    CHECK(tfx_value_set_cmp(C, u1, u2) == 0);
    CHECK(tfx_value_set_cmp(C, N("2"), N("10")) < 0);
    CHECK(tfx_value_set_cmp(C, N("-0"), N("0")) == 0);
    CHECK(tfx_value_set_cmp(C, tfx_value_bool(false), tfx_value_bool(true)) < 0);
    CHECK(tfx_value_set_cmp(C, LIST(ln->elem, N("10")), LIST(ln->elem, N("9"))) < 0);
}

/* More elements than one insertion-sort block (20), so the merging steps
 * of Go's stable sort run.  The hash bytes "[10;]" sort before "[1;]"
 * (the digit before ';'); 1, 1.00000000002 and 1.00000000001 hash alike
 * ("[1;]") without being equal, so they keep their given order. */
static void test_set_large(void)
{
    const tfx_type *ln = tfx_type_list(C, &tfx_type_number);
    const tfx_value *items[60];
    const tfx_value *s;
    char buf[32];
    size_t n = 0;

    for (int i = 49; i >= 0; i--) {
        (void)snprintf(buf, sizeof buf, "%d", i % 25);
        items[n++] = LIST(&tfx_type_number, N(buf));
    }
    items[n++] = LIST(&tfx_type_number, N("1.00000000002"));
    items[n++] = LIST(&tfx_type_number, N("1.00000000001"));
    items[n++] = LIST(&tfx_type_number, N("1"));
    s = tfx_value_set(C, ln, items, n);
    CHECK_STR(show(s), "[[0],[10],[11],[12],[13],[14],[15],[16],[17],[18],[19],[1],"
                       "[1.00000000002],[1.00000000001],[20],[21],[22],[23],[24],[2],[3],[4],"
                       "[5],[6],[7],[8],[9]]");

    n = 0;
    for (int i = 0; i < 45; i++) {
        (void)snprintf(buf, sizeof buf, "%d", (i * 7) % 45);
        items[n++] = N(buf);
    }
    s = tfx_value_set(C, &tfx_type_number, items, n);
    CHECK(tfx_value_length(s) == 45);
    CHECK_STR(show(tfx_value_item(s, 0)), "0");
    CHECK_STR(show(tfx_value_item(s, 44)), "44");
}

/* ---- Equality [op.eq] (semantics O8–O15) ---- */

static void test_equals(void)
{
    const tfx_type *ts = &tfx_type_str;
    const tfx_type *tn = &tfx_type_number;
    const tfx_type *dyn = &tfx_type_dynamic;
    const tfx_value *us = UNK(ts), *un = UNK(tn), *d = UNK(dyn);
    const tfx_value *lu = LIST(ts, S("a"), UNK(ts));
    const tfx_value *stu = SET(ts, S("a"), UNK(ts));
    tfx_str kab[] = {K("a"), K("b")};

    /* O8 no conversion: different types are never equal */
    CHECK_STR(EQ(N("1"), S("1")), "false");
    CHECK_STR(EQ(tfx_value_bool(true), S("true")), "false");
    CHECK_STR(EQ(TUP(N("1")), TUP(S("1"))), "false");
    /* O9 tuple vs list are distinct types */
    CHECK_STR(EQ(TUP(S("a")), LIST(ts, S("a"))), "false");
    CHECK_STR(EQ(LIST(ts, S("a"), S("b")), LIST(ts, S("a"), S("b"))), "true");
    /* O10 structural equality */
    CHECK_STR(EQ(TUP(), TUP()), "true");
    CHECK_STR(EQ(tfx_value_object(C, NULL, NULL, 0), tfx_value_object(C, NULL, NULL, 0)), "true");
    CHECK_STR(EQ(TUP(), tfx_value_object(C, NULL, NULL, 0)), "false");
    CHECK_STR(EQ(tfx_value_object(C, kab, ARR(N("1"), N("2")), 2),
                 tfx_value_object(C, (tfx_str[]){K("b"), K("a")}, ARR(N("2"), N("1")), 2)),
              "true");
    CHECK_STR(EQ(SET(ts, S("b"), S("a")), SET(ts, S("a"), S("b"))), "true");
    CHECK_STR(EQ(SET(ts, S("b"), S("a")), SET(ts, S("a"))), "false");
    CHECK_STR(EQ(S("\xc3\xa9"), S("e\xcc\x81")), "true");
    CHECK_STR(EQ(S("x"), S("x ")), "false");
    CHECK_STR(EQ(S("a"), S("A")), "false");
    CHECK_STR(EQ(N("1"), N("1.0")), "true");
    CHECK_STR(EQ(N("0"), N("-0")), "true");
    CHECK_STR(EQ(TUP(N("0")), TUP(N("-0"))), "true");
    CHECK_STR(EQ(N("0.1"), tfx_value_number(C, tfx_num_from_double(C->arena, 0.1))), "true");
    /* O11 nulls equal whatever their types */
    CHECK_STR(EQ(NUL(dyn), NUL(dyn)), "true");
    CHECK_STR(EQ(NUL(ts), NUL(tn)), "true");
    CHECK_STR(EQ(NUL(dyn), S("a")), "false");
    CHECK_STR(EQ(S("a"), NUL(dyn)), "false");
    CHECK_STR(EQ(NUL(dyn), TUP()), "false");
    CHECK_STR(EQ(TUP(NUL(dyn)), TUP(NUL(dyn))), "true");
    CHECK_STR(EQ(TUP(NUL(dyn)), TUP(N("1"))), "false");
    /* O12 unknowns */
    CHECK_STR(EQ(us, S("a")), "unknown");
    CHECK_STR(EQ(un, S("a")), "false");
    CHECK_STR(EQ(us, N("1")), "false");
    CHECK_STR(EQ(d, N("1")), "unknown");
    CHECK_STR(EQ(d, NUL(dyn)), "unknown");
    CHECK_STR(EQ(NUL(dyn), us), "unknown");
    CHECK_STR(EQ(un, NUL(dyn)), "unknown");
    CHECK_STR(EQ(us, us), "unknown");
    CHECK_STR(EQ(UNK(tfx_type_list(C, dyn)), LIST(ts, S("a"))), "unknown");
    /* O13 partly unknown collections: in order, first decides */
    CHECK_STR(EQ(TUP(S("a"), us), TUP(S("b"), us)), "false");
    CHECK_STR(EQ(TUP(us, S("a")), TUP(us, S("b"))), "unknown");
    CHECK_STR(EQ(TUP(us), TUP(S("a"), S("b"))), "false");
    CHECK_STR(EQ(TUP(us), TUP(N("1"))), "false");
    CHECK_STR(EQ(lu, LIST(ts, S("b"), S("c"))), "false");
    CHECK_STR(EQ(LIST(ts, S("a"), S("x")), lu), "unknown");
    CHECK_STR(EQ(lu, lu), "unknown");
    CHECK_STR(EQ(stu, stu), "unknown");
    CHECK_STR(EQ(stu, SET(ts, S("b"))), "unknown");
    /* sets: an element holding an unknown is never found in the other */
    CHECK_STR(EQ(SET(tfx_type_list(C, ts), LIST(ts, us)), SET(tfx_type_list(C, ts), LIST(ts, UNK(ts)))),
              "false");
    /* sets: -0 and 0 are in different buckets (semantics N22 aside) */
    CHECK_STR(EQ(SET(tn, N("0")), SET(tn, N("-0"))), "false");
    /* nested dynamic: unknown unless the types cannot conform */
    CHECK_STR(EQ(TUP(d), TUP(N("1"))), "unknown");
    CHECK_STR(EQ(TUP(d), TUP(N("1"), N("2"))), "false");
    CHECK_STR(EQ(TUP(TUP(d)), TUP(N("1"))), "false");
    CHECK_STR(EQ(OBJ1("a", d), OBJ1("b", N("1"))), "false");
    CHECK_STR(EQ(OBJ1("a", d), OBJ1("a", N("1"))), "unknown");
    CHECK_STR(EQ(LIST(dyn, d), LIST(tn, N("1"))), "unknown");
    /* O14 objects and maps: a definite mismatch wins over an unknown */
    {
        tfx_str k5[] = {K("a"), K("b"), K("c"), K("d"), K("e")};
        const tfx_value *o1 = tfx_value_object(C, k5, ARR(us, S("x"), N("1"), N("2"), N("3")), 5);
        const tfx_value *o2 = tfx_value_object(C, k5, ARR(us, S("y"), N("1"), N("2"), N("3")), 5);
        const tfx_value *o3 = tfx_value_object(C, k5, ARR(us, S("x"), N("1"), N("2"), N("3")), 5);

        CHECK_STR(EQ(o1, o2), "false");
        CHECK_STR(EQ(o1, o3), "unknown");
        CHECK_STR(EQ(tfx_value_map(C, ts, kab, ARR(us, S("x")), 2),
                     tfx_value_map(C, ts, kab, ARR(S("q"), S("y")), 2)),
                  "false");
        CHECK_STR(EQ(tfx_value_map(C, ts, kab, ARR(us, S("x")), 2),
                     tfx_value_map(C, ts, kab, ARR(S("q"), S("x")), 2)),
                  "unknown");
        CHECK_STR(EQ(tfx_value_map(C, ts, kab, ARR(S("q"), S("x")), 2),
                     tfx_value_map(C, ts, kab, ARR(S("q"), S("x")), 1)),
                  "false");
    }
    /* O15 marks never change the answer (the caller adds them) */
    CHECK_STR(EQ(MARK(S("x"), "sensitive"), S("x")), "true");
    CHECK_STR(EQ(TUP(MARK(S("secret"), "s")), TUP(S("secret"))), "true");
}

/* ---- Limits [limit.eval] ---- */

static void make_big_list(tfx_ctx *ctx, void *arg)
{
    const tfx_value *items[3] = {&tfx_value_true, &tfx_value_true, &tfx_value_true};

    (void)arg;
    (void)tfx_value_list(ctx, &tfx_type_bool, items, 3);
}

static void make_big_set(tfx_ctx *ctx, void *arg)
{
    const tfx_value *items[3] = {&tfx_value_true, &tfx_value_false, &tfx_value_true};

    (void)arg;
    (void)tfx_value_set(ctx, &tfx_type_bool, items, 3);
}

static void make_long_string(tfx_ctx *ctx, void *arg)
{
    (void)arg;
    (void)tfx_value_string(ctx, "abcdef", 6);
}

static void test_limits(void)
{
    tfx_ctx_limits lim;
    tfx_ctx small;

    tfx_ctx_limits_init(&lim);
    lim.max_collection_items = 2;
    lim.max_string_bytes = 5;
    CHECK(tfx_ctx_init(&small, &lim));
    CHECK(!tfx_ctx_try(&small, make_big_list, NULL));
    CHECK(!tfx_ctx_try(&small, make_big_set, NULL));
    CHECK(!tfx_ctx_try(&small, make_long_string, NULL));
    tfx_ctx_free(&small);
}

/* [type.capsule] [value.eq.capsule] [set.hash.capsule] [conv.capsule]
 * The capsule type `type` and its values. */
static void test_capsule(void)
{
    const tfx_type *lt = tfx_type_list(C, &tfx_type_number);
    const tfx_value *a = tfx_value_type(C, &tfx_type_number);
    const tfx_value *b = tfx_value_type(C, &tfx_type_number);
    const tfx_value *items[3];
    const tfx_value *set;
    const tfx_value *copy;
    const char *why = NULL;

    CHECK(tfx_type_equal(&tfx_type_type, &tfx_type_type));
    CHECK(!tfx_type_equal(&tfx_type_type, &tfx_type_str));
    CHECK(!tfx_type_equal(&tfx_type_str, &tfx_type_type));
    CHECK(strcmp(tfx_type_friendly(C, &tfx_type_type), "type") == 0);
    CHECK(strcmp(tfx_type_friendly_constraint(C, &tfx_type_type), "type") == 0);
    CHECK(strcmp(tfx_type_string(C, tfx_type_list(C, &tfx_type_type)), "list(type)") == 0);
    CHECK(!tfx_type_has_dynamic(&tfx_type_type));
    CHECK(tfx_type_copy(C, &tfx_type_type) == &tfx_type_type);
    /* each value its own identity; equal to itself */
    CHECK(tfx_value_equals(C, a, a) == TFX_TRI_TRUE);
    CHECK(tfx_value_equals(C, a, b) == TFX_TRI_FALSE);
    CHECK(tfx_value_equals(C, a, S("number")) == TFX_TRI_FALSE);
    CHECK(tfx_value_length(a) == 0);
    CHECK(tfx_type_equal(a->as.capsule, &tfx_type_number));
    /* a set keeps both (the same hash, not equal) and drops a repeat */
    items[0] = a;
    items[1] = b;
    items[2] = a;
    set = tfx_value_set(C, &tfx_type_type, items, 3);
    CHECK(tfx_value_length(set) == 2);
    CHECK(tfx_value_set_cmp(C, a, b) == 0);
    CHECK(tfx_value_set_same(C, a, a) && !tfx_value_set_same(C, a, b));
    /* a copy holds an equal type in a box of its own */
    copy = tfx_value_copy(C, tfx_value_type(C, lt));
    CHECK(copy->type == &tfx_type_type && tfx_type_equal(copy->as.capsule, lt));
    /* conversions: to itself and dynamic only */
    CHECK(tfx_convert(C, a, &tfx_type_type, TFX_CONVERT_SAFE, &why) == a);
    CHECK(tfx_convert(C, a, &tfx_type_dynamic, TFX_CONVERT_UNSAFE, &why) == a);
    why = NULL;
    CHECK(tfx_convert(C, a, &tfx_type_str, TFX_CONVERT_UNSAFE, &why) == NULL);
    CHECK(why != NULL && strcmp(why, "string required") == 0);
    why = NULL;
    CHECK(tfx_convert(C, S("number"), &tfx_type_type, TFX_CONVERT_UNSAFE, &why) == NULL);
    CHECK(why != NULL && strcmp(why, "type required") == 0);
    CHECK(tfx_value_is_null(tfx_convert(C, &tfx_value_dynamic_null, &tfx_type_type,
                                        TFX_CONVERT_UNSAFE, &why)));
    CHECK(tfx_convert(C, &tfx_value_dynamic_null, &tfx_type_type, TFX_CONVERT_SAFE, &why) == NULL);
}

/* A small deterministic generator for the randomized tests. */
static uint32_t rnd_state = 12345u;

static uint32_t rnd(uint32_t n)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return (rnd_state >> 8) % n;
}

/* A random value of a random small type (strings, numbers, bools, nulls,
 * lists and objects of them), depth levels deep at most. */
static const tfx_value *random_value(int depth)
{
    static const char *const words[] = {"a", "b", "zz", "\xc3\xa9", ""};
    const tfx_value *items[4];
    tfx_str names[4];
    size_t n = rnd(4);
    uint32_t k = depth > 0 ? rnd(6) : rnd(3);

    switch (k) {
    case 0: return S(words[rnd(5)]);
    case 1: return tfx_value_int(C, (int64_t)rnd(100) - 50);
    case 2: return rnd(4) == 0 ? tfx_value_null(C, &tfx_type_str) : tfx_value_bool(rnd(2) == 1);
    case 3: {
        const tfx_value *first = random_value(depth - 1);

        items[0] = first;
        for (size_t i = 1; i < n; i++)
            items[i] = first;   /* one element type */
        return tfx_value_list(C, first->type, items, n == 0 ? 1 : n);
    }
    default:
        for (size_t i = 0; i < n; i++) {
            names[i].s = words[rnd(4)];
            names[i].nbytes = strlen(names[i].s);
            items[i] = random_value(depth - 1);
        }
        return tfx_value_object(C, names, items, n);
    }
}

/* [value.list] [value.object] tfx_value_list_of_type and
 * tfx_value_object_of_type against the general constructors on random
 * values: equal types, equal values, the same rendering. */
static void test_of_type_constructors(void)
{
    for (int round = 0; round < 2000; round++) {
        const tfx_value *v = random_value(3);
        const tfx_value *general;
        const tfx_value *shared;

        if (v->state != TFX_VAL_KNOWN)
            continue;
        if (v->type->kind == TFX_TYPE_LIST) {
            general = tfx_value_list(C, v->type->elem, v->as.elems.items, v->as.elems.n);
            shared = tfx_value_list_of_type(C, v->type, v->as.elems.items, v->as.elems.n);
        } else if (v->type->kind == TFX_TYPE_OBJECT) {
            general = tfx_value_object(C, v->type->names, v->as.attrs.vals, v->type->n);
            shared = tfx_value_object_of_type(C, v->type, v->as.attrs.vals);
        } else {
            continue;
        }
        CHECK(tfx_type_equal(general->type, shared->type));
        CHECK(shared->type == v->type);
        CHECK_STR(tfx_type_string(C, shared->type), tfx_type_string(C, general->type));
        CHECK_STR(EQ(general, shared), tfx_value_is_wholly_known(v) ? "true" : EQ(general, general));
        CHECK_STR(show(shared), show(general));
    }
}

/* [set.order] [set.dedup] Sets of random elements (made with the reused
 * hash buffer of tfx_value_set): no element is the same as another and
 * no neighbours are out of the order tfx_value_set_cmp gives (with
 * make_hash's full hash bytes). */
static void test_set_random(void)
{
    for (int round = 0; round < 500; round++) {
        const tfx_value *first = random_value(2);
        const tfx_value *items[12];
        size_t n = 1 + rnd(12);
        const tfx_value *set;

        items[0] = first;
        for (size_t i = 1; i < n; i++) {
            const tfx_value *v = random_value(2);

            items[i] = tfx_type_equal(v->type, first->type) ? v : items[rnd((uint32_t)i)];
        }
        set = tfx_value_set(C, first->type, items, n);
        for (size_t i = 0; i + 1 < set->as.elems.n; i++) {
            CHECK(tfx_value_set_cmp(C, set->as.elems.items[i + 1], set->as.elems.items[i]) >= 0);
            for (size_t j = i + 1; j < set->as.elems.n; j++)
                CHECK(!tfx_value_set_same(C, set->as.elems.items[i], set->as.elems.items[j]));
        }
    }
}

/* A random string of up to 40 bytes: mostly a few shared prefixes and
 * printable ASCII (so that the 16-byte keys of the sort tie often), now
 * and then quotes, backslashes, control bytes, U+0000, non-ASCII and
 * bytes that are not UTF-8. */
static tfx_str random_bytes(char *buf)
{
    static const char *const prefixes[] = {"", "item-", "item-12", "abcdefghijklmnop", "x"};
    static const char plain[] = "0123456789abcdef";
    static const char extra[] = {'"', '\\', '\n', '\0', '\x7f', '\xc3', '\xa9', '\xff', '~', ' '};
    const char *p = prefixes[rnd(5)];
    size_t n = strlen(p);
    size_t more = rnd(24);

    memcpy(buf, p, n + 1);
    for (size_t i = 0; i < more; i++) {
        uint32_t r = rnd(20);

        if (r < 16)
            buf[n++] = plain[r];
        else
            buf[n++] = extra[rnd(10)];
    }
    return (tfx_str){buf, n};
}

/* [type.object.names] [fn.sort] tfx_str_sort_order (its fast path keyed
 * by the first 16 bytes) against tfx_str_sort_order_general on random
 * names, many of them equal or sharing long prefixes. */
static void test_sort_order_random(void)
{
    for (int round = 0; round < 300; round++) {
        size_t n = rnd(round < 250 ? 40 : 3000);
        char *bufs = tfx_ctx_alloc(C, n * 64 + 1);
        tfx_str *names = tfx_ctx_alloc(C, (n + 1) * sizeof *names);
        size_t *fast = tfx_ctx_alloc(C, (n + 1) * sizeof *fast);
        size_t *general = tfx_ctx_alloc(C, (n + 1) * sizeof *general);
        bool same = true;

        for (size_t i = 0; i < n; i++)
            names[i] = i > 0 && rnd(4) == 0 ? names[rnd((uint32_t)i)] : random_bytes(bufs + i * 64);
        tfx_str_sort_order(C, names, fast, n);
        tfx_str_sort_order_general(C, names, general, n);
        for (size_t i = 0; i < n; i++)
            same = same && fast[i] == general[i];
        CHECK(same);
    }
}

/* [value.tuple] [value.object] tfx_value_tuple_of_type and
 * tfx_value_object_sorted against tfx_value_tuple and tfx_value_object on
 * random items and on random names put in order and made distinct: equal
 * types, equal values, the same rendering. */
static void test_grouping_constructors(void)
{
    for (int round = 0; round < 1000; round++) {
        size_t n = rnd(round < 900 ? 8 : 200);
        const tfx_value **items = tfx_ctx_alloc_array(C, n + 1, sizeof(const tfx_value *));
        const tfx_type **types = tfx_ctx_alloc_array(C, n + 1, sizeof(const tfx_type *));
        char *bufs = tfx_ctx_alloc(C, n * 64 + 1);
        tfx_str *names = tfx_ctx_alloc(C, (n + 1) * sizeof *names);
        size_t *order = tfx_ctx_alloc(C, (n + 1) * sizeof *order);
        tfx_str *sorted = tfx_ctx_alloc(C, (n + 1) * sizeof *sorted);
        const tfx_value **svals = tfx_ctx_alloc_array(C, n + 1, sizeof(const tfx_value *));
        const tfx_value *general;
        const tfx_value *fast;
        size_t m = 0;

        for (size_t i = 0; i < n; i++) {
            items[i] = i > 0 && rnd(3) == 0 ? items[rnd((uint32_t)i)] : random_value(2);
            types[i] = items[i]->type;
            names[i] = i > 0 && rnd(4) == 0 ? names[rnd((uint32_t)i)] : random_bytes(bufs + i * 64);
        }
        general = tfx_value_tuple(C, items, n);
        fast = tfx_value_tuple_of_type(C, tfx_type_tuple(C, types, n), items, n);
        CHECK(tfx_type_equal(general->type, fast->type));
        CHECK_STR(EQ(general, fast), tfx_value_is_wholly_known(general) ? "true" : EQ(general, general));
        CHECK_STR(show(fast), show(general));
        /* the names in order, the first of each run of equal ones */
        tfx_str_sort_order(C, names, order, n);
        for (size_t i = 0; i < n; i++) {
            if (m > 0 && tfx_str_cmp(sorted[m - 1], names[order[i]]) == 0)
                continue;
            sorted[m] = names[order[i]];
            svals[m++] = items[order[i]];
        }
        general = tfx_value_object(C, sorted, svals, m);
        fast = tfx_value_object_sorted(C, sorted, svals, m);
        CHECK(tfx_type_equal(general->type, fast->type));
        CHECK_STR(tfx_type_string(C, fast->type), tfx_type_string(C, general->type));
        CHECK_STR(EQ(general, fast), tfx_value_is_wholly_known(general) ? "true" : EQ(general, general));
        CHECK_STR(show(fast), show(general));
    }
}

/* [set.hash] [set.order] The CRC of a value's set-hash bytes with the
 * fast paths (a string that quotes as itself, CRC by table) against the
 * hash text written out and a bit-by-bit CRC; and sets of random strings
 * made by tfx_value_set (sorted by bytes) against
 * tfx_value_set_general (Go's stable sort by setRules.Less). */
static void test_set_strings_fast(void)
{
    char buf[64];

    for (int i = 0; i < 3000; i++) {
        tfx_str s = random_bytes(buf);
        const tfx_value *v = tfx_value_string_raw(C, tfx_ctx_strndup(C, s.s, s.nbytes), s.nbytes);

        CHECK(tfx_value_set_crc(C, v) == tfx_value_set_crc_general(C, v));
    }
    CHECK(tfx_value_set_crc(C, S("")) == tfx_value_set_crc_general(C, S("")));
    for (int round = 0; round < 300; round++) {
        size_t n = 1 + rnd(round < 250 ? 30 : 2000);
        const tfx_value **items = tfx_ctx_alloc_array(C, n, sizeof(const tfx_value *));
        const tfx_value *fast;
        const tfx_value *general;

        for (size_t i = 0; i < n; i++) {
            tfx_str s = random_bytes(buf);

            items[i] = i > 0 && rnd(3) == 0
                           ? items[rnd((uint32_t)i)]
                           : tfx_value_string_raw(C, tfx_ctx_strndup(C, s.s, s.nbytes), s.nbytes);
        }
        fast = tfx_value_set(C, &tfx_type_str, items, n);
        general = tfx_value_set_general(C, &tfx_type_str, items, n);
        CHECK_STR(show(fast), show(general));
    }
}

/* A random number for the sets of whole numbers: whole numbers of one
 * word at 512 bits (decoded, literal) or 64 (made by the evaluator), often
 * equal, both zeros; with floats, now and then a whole number at 53 bits
 * (a float64 host value), which the fast path does not take; with odd,
 * now and then 2^63, a fraction or an infinity. */
static const tfx_value *random_set_number(bool floats, bool odd)
{
    static const char *const texts[] = {"0", "-0", "7", "-7", "9223372036854775807",
                                        "-9223372036854775807", "4294967296", "-1",
                                        "1e3", "1152921504606846976"};
    static const char *const odd_texts[] = {"9223372036854775808", "1.5", "-0.25", "inf"};
    uint32_t r = rnd(100);
    char text[32];

    if (r < 40) {
        (void)snprintf(text, sizeof text, "%d", (int)rnd(41) - 20);
        return N(text);
    }
    if (r < 60)
        return tfx_value_number(C, tfx_num_from_int64(C->arena, (int64_t)rnd(41) - 20));
    if (r < 75) {
        (void)snprintf(text, sizeof text, "%u%06u", rnd(100000), rnd(1000000));
        return N(text);
    }
    /* 53 bits: whole, and 2^60 there is not equal to the text's 2^60 at
     * 512 bits (other shortest digits) */
    if (r < 80 && floats)
        return tfx_value_number(C, tfx_num_from_double(C->arena, rnd(2) ? ldexp(1, 60) : rnd(5)));
    if (r < 82 && odd)
        return N(odd_texts[rnd(4)]);
    return N(texts[rnd(10)]);
}

/* [set.dedup] [set.order] Sets of random whole numbers made by
 * tfx_value_set (its fast path for whole numbers of one word; for the
 * others, from 256 items on, the radix sort by CRC, whose order among
 * equal CRCs decides which of equal values is kept) against
 * tfx_value_set_general: the same elements (the same values kept of
 * equal ones) in the same order. */
static void test_set_numbers_fast(void)
{
    for (int round = 0; round < 400; round++) {
        size_t n = 1 + rnd(round < 300 ? 30 : 3000);
        const tfx_value **items = tfx_ctx_alloc_array(C, n, sizeof(const tfx_value *));
        const tfx_value *fast;
        const tfx_value *general;
        bool floats = rnd(4) == 0;
        bool odd = rnd(4) == 0;
        bool same;

        for (size_t i = 0; i < n; i++)
            items[i] = i > 0 && rnd(4) == 0 ? items[rnd((uint32_t)i)]
                                            : random_set_number(floats, odd);
        fast = tfx_value_set(C, &tfx_type_number, items, n);
        general = tfx_value_set_general(C, &tfx_type_number, items, n);
        same = fast->as.elems.n == general->as.elems.n;
        for (size_t i = 0; same && i < fast->as.elems.n; i++)
            same = fast->as.elems.items[i] == general->as.elems.items[i];
        CHECK(same);
    }
}

/* The order of tfx_keysort's result: by key, then (stable) by index. */
static int keyed_cmp(const void *x, const void *y)
{
    const tfx_keyed *a = x;
    const tfx_keyed *b = y;

    if (a->k0 != b->k0)
        return a->k0 < b->k0 ? -1 : 1;
    if (a->k1 != b->k1)
        return a->k1 < b->k1 ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* tfx_keysort (the radix sort) against qsort by key and index on random
 * keys, many equal or equal in most bytes. */
static void test_keysort_random(void)
{
    for (int round = 0; round < 300; round++) {
        size_t n = rnd(round < 250 ? 50 : 5000);
        tfx_keyed *a = tfx_ctx_alloc_array(C, n + 1, sizeof *a);
        tfx_keyed *b = tfx_ctx_alloc_array(C, n + 1, sizeof *b);
        tfx_keyed *tmp = tfx_ctx_alloc_array(C, n + 1, sizeof *tmp);
        uint64_t mask0 = rnd(2) ? ~(uint64_t)0 : (uint64_t)0xff << (8 * rnd(8));
        uint64_t mask1 = rnd(2) ? ~(uint64_t)0 : (uint64_t)rnd(3);
        bool same = true;

        for (size_t i = 0; i < n; i++) {
            uint64_t r0 = (uint64_t)rnd(1u << 16) << 48 ^ (uint64_t)rnd(1u << 24) << 20 ^ rnd(256);
            uint64_t r1 = (uint64_t)rnd(1u << 24) << 40 ^ rnd(1u << 20);

            a[i].k0 = rnd(8) == 0 ? ~(uint64_t)0 : r0 & mask0;
            a[i].k1 = r1 & mask1;
            a[i].index = i;
            b[i] = a[i];
        }
        tfx_keysort(a, tmp, n);
        qsort(b, n, sizeof *b, keyed_cmp);
        for (size_t i = 0; i < n; i++)
            same = same && a[i].k0 == b[i].k0 && a[i].k1 == b[i].k1 && a[i].index == b[i].index;
        CHECK(same);
    }
}

static void run_all(tfx_ctx *ctx, void *arg)
{
    (void)arg;
    C = ctx;
    test_types();
    test_construct();
    test_marks();
    test_set_primitives();
    test_set_structural();
    test_set_large();
    test_equals();
    test_capsule();
    test_of_type_constructors();
    test_grouping_constructors();
    test_set_random();
    test_sort_order_random();
    test_set_strings_fast();
    test_set_numbers_fast();
    test_keysort_random();
}

int main(void)
{
    tfx_ctx ctx;

    if (!tfx_ctx_init(&ctx, NULL))
        return 2;
    CHECK(tfx_ctx_try(&ctx, run_all, NULL));
    if (ctx.fail_summary != NULL)
        fprintf(stderr, "failed: %s\n", ctx.fail_summary);
    tfx_ctx_free(&ctx);
    test_limits();
    return check_report("test_value");
}
