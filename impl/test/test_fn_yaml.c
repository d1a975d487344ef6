/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_fn_yaml.c — unit tests of yamldecode and yamlencode
 * (spec/functions-yaml.md, funcs_yaml.c): direct calls with
 * tfx_func_call, and what the conformance corpus cannot reach — the
 * evaluation's limits (nesting, steps, string and collection sizes) met in
 * the middle of libyaml's work, with its memory freed on the way out (the
 * asan build checks that nothing leaks), inputs of many kilobytes, and
 * round trips.
 *
 * Expectations marked "ref" were checked against the reference adapter
 * (bin/go-hcl-adapter) with the HCL expression in the comment.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "common.h"
#include "funcs_internal.h"
#include "render.h"
#include "testval.h"

static const char *dec(const char *text)
{
    return call("yamldecode", 1, S(text));
}

/* yamlencode's text itself (not rendered), or "error: ...". */
static const char *enc(const tfx_value *v)
{
    const tfx_function *f = tfx_func_builtin("yamlencode", 10);
    const tfx_value *args[1];
    tfx_func_error err = {-1, NULL};
    const tfx_value *r;

    args[0] = v;
    r = tfx_func_call(C, f, args, 1, &err);
    if (r == NULL)
        return tfx_ctx_printf(C, "error: %s", err.message);
    if (!tfx_value_is_known(r))
        return "unknown";
    return r->as.string.s;
}

/* The value yamldecode gives for text, or NULL. */
static const tfx_value *decoded(const char *text)
{
    const tfx_function *f = tfx_func_builtin("yamldecode", 10);
    const tfx_value *args[1];
    tfx_func_error err = {-1, NULL};

    args[0] = S(text);
    return tfx_func_call(C, f, args, 1, &err);
}

static void test_decode(tfx_ctx *ctx, void *unused)
{
    (void)ctx;
    (void)unused;

    /* [fn.yamldecode.scalar] [fn.yamldecode.words] ref yamldecode("[yes, Off, ~, .Inf, 0x1F, 0o17, 1_000, 017]") */
    CHECK_STR(dec("[yes, Off, ~, 0x1F, 0o17, 1_000, 017]"),
              "[true,false,null(dynamic),31,15,1000,17] :: "
              "tuple([bool,bool,dynamic,number,number,number,number])");
    /* [fn.yamldecode.result] a null document is unknown (1.0.2) */
    CHECK_STR(dec("~"), "unknown(dynamic) :: dynamic");
    /* [fn.yamldecode.block] ref yamldecode("|-\n  ~"), ("|-\n  1.50") */
    CHECK_STR(dec("|-\n  ~"), "null(string) :: string");
    CHECK_STR(dec("|-\n  1.50"), "\"1.5\" :: string");
    /* the value pass's error counts only when the type pass has none */
    CHECK_STR(dec("- |-\n  .nan\n- !foo x"), "error: on line 2, column 3: unsupported tag \"!foo\"");
    CHECK_STR(dec("- |-\n  .nan\n- x"),
              "error: floating point NaN is not supported");
    /* [fn.yamldecode.position] 0-based lines; the first line bare */
    CHECK_STR(dec("a: &x 1\nb: *y"), "error: on line 1, column 4: reference to undefined anchor \"y\"");
    CHECK_STR(dec("a: !foo x"), "error: unsupported tag \"!foo\"");
    /* [fn.yamldecode.syntax] a scanner error: the next line, column 1 */
    CHECK_STR(dec("a:\n\t- b"), "error: on line 2, column 1: found character that cannot start any token");
    /* [fn.yamldecode.key] [fn.yamldecode.mapping] a key's resolution error has no position */
    CHECK_STR(dec("a: 1\n!!int b: 2"), "error: cannot parse \"b\" as tag:yaml.org,2002:int");
    CHECK_STR(dec("1.50: a\n.inf: b"), "{\"+Inf\"=\"b\",\"1.5\"=\"a\"} :: object({\"+Inf\"=string,\"1.5\"=string})");
    /* [fn.yamldecode.merge] */
    CHECK_STR(dec("b: &x {a: 1, c: 3}\nd:\n  a: 0\n  <<: *x\n  c: 4"),
              "{\"b\"={\"a\"=1,\"c\"=3},\"d\"={\"a\"=1,\"c\"=4}} :: "
              "object({b=object({a=number,c=number}),d=object({a=number,c=number})})");
    CHECK_STR(dec("x: 1\n<<: ~"), "error: on line 1, column 1: cannot merge dynamic into mapping");
    /* [fn.yamldecode.anchor] */
    CHECK_STR(dec("&a [1, *a]"), "error: cannot refer to anchor \"a\" from inside its own definition");
    /* [fn.yamldecode.timestamp] ref yamldecode("2001-12-14t21:59:43.10+05:30") */
    CHECK_STR(dec("[2001-12-14t21:59:43.10+05:30, 2002-02-29, 2000-02-29, 2002-1-2 3:4:5]"),
              "[\"2001-12-14T21:59:43+05:30\",\"2002-02-29\",\"2000-02-29T00:00:00Z\","
              "\"2002-01-02T03:04:05Z\"] :: tuple([string,string,string,string])");
    /* [fn.yamldecode.int] ref yamldecode("[-]") */
    CHECK_STR(dec("[-]"), "error: cannot parse \"-\" as tag:yaml.org,2002:int");
    /* [fn.yamldecode.number] beyond int64: ParseUint, then nothing */
    CHECK_STR(dec("0xFFFFFFFFFFFFFFFF"), "18446744073709551615 :: number");
    CHECK_STR(dec("0x10000000000000000"),
              "error: cannot parse \"0x10000000000000000\" as tag:yaml.org,2002:int");
    CHECK_STR(dec("-0x8000000000000000"), "-9223372036854775808 :: number");
    /* [fn.yamldecode.binary] */
    CHECK_STR(dec("!!binary |\n  YWJj\n  ZA==\n"), "\"YWJj\\nZA==\\n\" :: string");
    CHECK_STR(dec("!!binary ab=c"),
              "error: cannot parse \"ab=c\" as tag:yaml.org,2002:binary: not valid base64");
    /* [fn.yamldecode.escapes] ref yamldecode("- \"\\'\\0\\x00\\'\""), ("x:\n  y: \"a\\/b\"") */
    CHECK_STR(dec("- \"\\'\\0\\x00\\'\""), "[\"'\\x00\\x00'\"] :: tuple([string])");
    CHECK_STR(dec("x:\n  y: \"a\\/b\""), "error: on line 2, column 1: found unknown escape character");
    /* [fn.yamldecode.document] */
    CHECK_STR(dec(""), "error: on line 1, column 1: missing start of document");
    CHECK_STR(dec("a\n---\nb"), "error: on line 1, column 1: unexpected extra content after value");
    /* [fn.yamldecode.type] an unknown source */
    CHECK_STR(call("yamldecode", 1, tfx_value_unknown(C, &tfx_type_str)), "unknown(dynamic) :: dynamic");
    /* [fn.yamldecode] null and marks are the machinery's */
    CHECK_STR(call("yamldecode", 1, tfx_value_null(C, &tfx_type_str)), "arg 0: argument must not be null");
    CHECK_STR(call("yamldecode", 1, tfx_value_mark(C, S("[1]"), tfx_marks_one(C, "sensitive", 9))),
              "[1]@sensitive :: tuple([number])");
}

/* [fn.yamldecode.reader] a control character 600 bytes on, after an
 * unsupported tag: go-yaml reads 512 bytes at a time and reaches the tag
 * first (ref); with libyaml's 16 KiB pieces the reader error would come
 * first. */
/* Profile PN: go-cty-yaml 1.1.0's integers, 1.0.3's null documents. */
static void test_decode_pn(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    ctx->pn = true;
    /* [fn.yamldecode.int.pn] ref (PN) yamldecode("[1_000, 0o17, -0o17, +0x10, 0x1F, +12, -, 0X1F, 0x1_F]") */
    CHECK_STR(dec("[1_000, 0o17, -0o17, +0x10, 0x1F, +12, -, 0X1F, 0x1_F]"),
              "[\"1_000\",15,\"-0o17\",\"+0x10\",31,12,\"-\",\"0X1F\",\"0x1_F\"] :: "
              "tuple([string,number,string,string,number,number,string,string,string])");
    /* the tag !!int still drops underscores: ref (PN) yamldecode("!!int 1_0") */
    CHECK_STR(dec("!!int 1_0"), "10 :: number");
    /* [fn.yamldecode.result.pn] ref (PN) yamldecode("~"), ("--- !!null"), ("!!int ~") */
    CHECK_STR(dec("~"), "null(dynamic) :: dynamic");
    CHECK_STR(dec("--- !!null"), "null(dynamic) :: dynamic");
    CHECK_STR(dec("!!int ~"), "null(dynamic) :: dynamic");
    /* the P14 rules again in the same context */
    ctx->pn = false;
    CHECK_STR(dec("[1_000, -0o17]"), "[1000,-15] :: tuple([number,number])");
    CHECK_STR(dec("~"), "unknown(dynamic) :: dynamic");
}

static void test_reader(tfx_ctx *ctx, void *unused)
{
    tfx_textbuf b;
    int i;

    (void)ctx;
    (void)unused;
    tfx_textbuf_init(&b, C);
    tfx_textbuf_puts(&b, "a: !foo x\n");
    for (i = 0; i < 150; i++)
        tfx_textbuf_puts(&b, "b: c\n");
    tfx_textbuf_puts(&b, "d: \x01");
    CHECK_STR(dec(tfx_textbuf_text(&b)), "error: unsupported tag \"!foo\"");
    tfx_textbuf_init(&b, C);
    tfx_textbuf_puts(&b, "a: !foo x\n");
    for (i = 0; i < 60; i++)
        tfx_textbuf_puts(&b, "b: c\n");
    tfx_textbuf_puts(&b, "d: \x01");
    CHECK_STR(dec(tfx_textbuf_text(&b)), "error: control characters are not allowed");
    /* [fn.yamldecode.escapes] many "\'" far into a text: one reading per
     * "\'", each fixed back */
    tfx_textbuf_init(&b, C);
    for (i = 0; i < 300; i++)
        tfx_textbuf_puts(&b, "- \"x\\'y\"\n");
    {
        const tfx_value *v = decoded(tfx_textbuf_text(&b));

        CHECK(v != NULL && v->type->kind == TFX_TYPE_TUPLE && v->as.elems.n == 300);
        CHECK(v != NULL && tfx_str_eq(v->as.elems.items[299]->as.string, "x'y", 3));
    }
    /* a long valid text: 20,000 items across many pieces */
    tfx_textbuf_init(&b, C);
    for (i = 0; i < 20000; i++)
        tfx_textbuf_puts(&b, "- \xc3\xa9t\xc3\xa9\n");
    {
        const tfx_value *v = decoded(tfx_textbuf_text(&b));

        CHECK(v != NULL && v->type->kind == TFX_TYPE_TUPLE && v->as.elems.n == 20000);
        CHECK(v != NULL && tfx_str_eq(v->as.elems.items[19999]->as.string, "\xc3\xa9t\xc3\xa9", 5));
    }
}

static void test_encode(tfx_ctx *ctx, void *unused)
{
    const tfx_value *items[3];
    tfx_str keys[2];
    const tfx_value *vals[2];

    (void)ctx;
    (void)unused;
    /* [fn.yamlencode.end] ref yamlencode(1), yamlencode(null), yamlencode("a\n\n") */
    CHECK_STR(enc(tfx_value_int(C, 1)), "1\n...\n");
    CHECK_STR(enc(&tfx_value_dynamic_null), "null\n...\n");
    CHECK_STR(enc(S("a\n\n")), "|+\n  a\n\n");
    CHECK_STR(enc(S("x")), "\"x\"\n");
    /* [fn.yamlencode.string] [fn.yamlencode.collections] */
    items[0] = S("l1\nl2");
    items[1] = tfx_value_bool(true);
    items[2] = tfx_value_tuple(C, NULL, 0);
    keys[0].s = "b";
    keys[0].nbytes = 1;
    keys[1].s = "a";
    keys[1].nbytes = 1;
    vals[0] = tfx_value_tuple(C, items, 3);
    vals[1] = tfx_value_object(C, NULL, NULL, 0);
    CHECK_STR(enc(tfx_value_object(C, keys, vals, 2)),
              "\"a\": {}\n\"b\":\n- |-\n  l1\n  l2\n- true\n- []\n");
    /* [fn.yamlencode.bom] ref yamlencode("\ufeff0 b"), yamlencode({"\ufeffk" = "v"}) */
    CHECK_STR(enc(S("\xef\xbb\xbf" "0 b")), "\"\\uFEFF\\x30\\x20\\x62\"\n");
    keys[0].s = "\xef\xbb\xbf" "k";
    keys[0].nbytes = 4;
    vals[0] = S("v");
    CHECK_STR(enc(tfx_value_object(C, keys, vals, 1)), "\"\\uFEFF\\x6B\": \"v\"\n");
    /* [fn.yamlencode.number] */
    CHECK_STR(enc(tfx_value_int(C, INT64_MIN)), "-9223372036854775808\n...\n");
    /* [fn.yamlencode.unknown] */
    items[0] = tfx_value_unknown(C, &tfx_type_str);
    CHECK_STR(enc(tfx_value_tuple(C, items, 1)), "unknown");
}

/* Round trips: what yamlencode writes, yamldecode reads back to the same
 * value (strings, numbers, bools, nested objects and tuples). */
static void test_roundtrip(tfx_ctx *ctx, void *unused)
{
    static const char *const strs[] = {
        "", "a", " lead", "trail ", "yes", "~", "0x1F", "2001-12-14", "a\nb", "a\n\n", "\n",
        "\xef\xbb\xbf\x62om", "tab\there", "q\"\\", "\xc2\x85\xe2\x80\xa8", "- x", "#c", "<<<",
        "a: b", "\xf0\x9f\x98\x80", "x\n ",
        "very long words that go on and on past the eighty column line width so that it folds them",
    };
    size_t i;

    (void)ctx;
    (void)unused;
    for (i = 0; i < TFX_COUNTOF(strs); i++) {
        const tfx_value *v = S(strs[i]);
        tfx_str key = {strs[i], strlen(strs[i])};
        const tfx_value *obj = tfx_value_object(C, &key, &v, 1);
        const char *text = enc(obj);
        const tfx_value *back = decoded(text);

        CHECK(back != NULL && tfx_value_equals(C, back, obj) == TFX_TRI_TRUE);
    }
    /* the one key that does not come back: a quoted "<<" is a merge key
     * too [fn.yamldecode.merge] (ref yamldecode(yamlencode({"<<" = "x"}))) */
    {
        const tfx_value *v = S("x");
        tfx_str key = {"<<", 2};

        CHECK_STR(dec(enc(tfx_value_object(C, &key, &v, 1))),
                  "error: cannot merge string into mapping");
    }
}

/* [fn.yamldecode.limits] nesting past the depth limit fails, freeing
 * libyaml's parser and event. */
static void deep(tfx_ctx *ctx, void *unused)
{
    tfx_textbuf b;
    int i;

    (void)unused;
    C = ctx;
    tfx_textbuf_init(&b, C);
    for (i = 0; i < 300; i++)
        tfx_textbuf_puts(&b, "[");
    (void)dec(tfx_textbuf_text(&b));
}

/* Merges of merges: each level copies the attributes of the one before,
 * so the work grows; the step limit stops it. */
static void merges(tfx_ctx *ctx, void *unused)
{
    tfx_textbuf b;
    int i;
    int k;

    (void)unused;
    C = ctx;
    tfx_textbuf_init(&b, C);
    tfx_textbuf_puts(&b, "a0: &a0 {");
    for (k = 0; k < 100; k++)
        tfx_textbuf_printf(&b, "%sk%d: %d", k == 0 ? "" : ", ", k, k);
    tfx_textbuf_puts(&b, "}\n");
    for (i = 1; i < 2000; i++)
        tfx_textbuf_printf(&b, "a%d: &a%d {<<: *a%d, <<: *a%d, x%d: 1}\n", i, i, i - 1, i - 1, i);
    (void)dec(tfx_textbuf_text(&b));
}

/* One scalar of many "\'": each is one more reading of the text
 * [fn.yamldecode.escapes], every piece of input read a step. */
static void escapes(tfx_ctx *ctx, void *unused)
{
    tfx_textbuf b;
    int i;

    (void)unused;
    C = ctx;
    tfx_textbuf_init(&b, C);
    tfx_textbuf_putc(&b, '"');
    for (i = 0; i < 5000; i++)
        tfx_textbuf_puts(&b, "\\'");
    tfx_textbuf_putc(&b, '"');
    (void)dec(tfx_textbuf_text(&b));
}

/* A sequence longer than the collection limit. */
static void wide(tfx_ctx *ctx, void *unused)
{
    tfx_textbuf b;
    int i;

    (void)unused;
    C = ctx;
    tfx_textbuf_init(&b, C);
    for (i = 0; i < 50; i++)
        tfx_textbuf_puts(&b, "- x\n");
    (void)dec(tfx_textbuf_text(&b));
}

/* yamlencode of a value whose text passes the string limit, in libyaml's
 * output handler. */
static void long_text(tfx_ctx *ctx, void *unused)
{
    const tfx_value *items[64];
    size_t i;

    (void)unused;
    C = ctx;
    for (i = 0; i < 64; i++)
        items[i] = S("0123456789012345678901234567890123456789");
    (void)enc(tfx_value_tuple(C, items, 64));
}

int main(void)
{
    tfx_ctx_limits limits;

    CHECK(run("decode", test_decode));
    CHECK(run("decode PN", test_decode_pn));
    CHECK(run("reader", test_reader));
    CHECK(run("encode", test_encode));
    CHECK(run("roundtrip", test_roundtrip));

    tfx_ctx_limits_init(&limits);
    CHECK_STR(run_limited(&limits, deep, NULL), "Nesting too deep");
    limits.max_depth = 400;
    CHECK_STR(run_limited(&limits, deep, NULL), "completed");
    tfx_ctx_limits_init(&limits);
    limits.max_steps = 100000;
    CHECK_STR(run_limited(&limits, merges, NULL), "Evaluation step limit exceeded");
    tfx_ctx_limits_init(&limits);
    limits.max_steps = 100000;
    CHECK_STR(run_limited(&limits, escapes, NULL), "Evaluation step limit exceeded");
    tfx_ctx_limits_init(&limits);
    limits.max_collection_items = 20;
    CHECK_STR(run_limited(&limits, wide, NULL), "Collection size limit exceeded");
    tfx_ctx_limits_init(&limits);
    limits.max_string_bytes = 1000;
    CHECK_STR(run_limited(&limits, long_text, NULL), "String length limit exceeded");
    tfx_ctx_limits_init(&limits);
    limits.max_memory_bytes = 200000;
    CHECK_STR(run_limited(&limits, merges, NULL), "Memory limit exceeded");
    return check_report("test_fn_yaml");
}
