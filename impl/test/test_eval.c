/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_eval.c — unit tests of the evaluator (eval.c, eval_template.c):
 * every node kind, with the fixture variables of semantics.md 0.4, as
 * HCL 2.14.1 + cty 1.12.1 evaluate them.
 *
 * Expectations of the case tables were recorded from the reference
 * adapter (bin/go-hcl-adapter): the value, or every diagnostic's summary
 * and subject byte range, in order.  Values are written in the notation
 * of semantics.md 0.3 (render.h's tfx_render_debug); diagnostics as
 * "!Summary@start-end; Summary@start-end".  The tests of the test
 * functions (strict, nullok, va, ...) follow the verified examples of
 * semantics.md FN3–FN12, which used the same functions upstream.
 */
#include "eval.h"

#include <stdarg.h>
#include <stdlib.h>

#include "check.h"
#include "common.h"
#include "eval_internal.h"
#include "jsonio.h"
#include "parse.h"
#include "render.h"

/* ---- Fixture variables (semantics.md 0.4, as tools/gen-eval-cases
 * writes them in typed JSON) ---- */

static const struct {
    const char *name;
    const char *json;
} fixtures[] = {
    {"s", "{\"type\":\"string\",\"v\":\"hello\"}"},
    {"n", "{\"type\":\"number\",\"v\":\"5\"}"},
    {"f", "{\"type\":\"number\",\"v\":\"1.5\"}"},
    {"b", "{\"type\":\"bool\",\"v\":true}"},
    {"nul", "{\"type\":\"dynamic\",\"null\":true}"},
    {"nuls", "{\"type\":\"string\",\"null\":true}"},
    {"nuln", "{\"type\":\"number\",\"null\":true}"},
    {"nulb", "{\"type\":\"bool\",\"null\":true}"},
    {"nulll", "{\"type\":[\"list\",\"string\"],\"null\":true}"},
    {"nullt", "{\"type\":[\"tuple\",[\"string\"]],\"null\":true}"},
    {"nullset", "{\"type\":[\"set\",\"string\"],\"null\":true}"},
    {"nullm", "{\"type\":[\"map\",\"string\"],\"null\":true}"},
    {"nullo", "{\"type\":[\"object\",{\"a\":\"string\"}],\"null\":true}"},
    {"l", "{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"a\"},{\"v\":\"b\"},{\"v\":\"c\"}]}"},
    {"ln", "{\"type\":[\"list\",\"number\"],\"v\":[{\"v\":\"1\"},{\"v\":\"2\"},{\"v\":\"3\"}]}"},
    {"lempty", "{\"type\":[\"list\",\"string\"],\"v\":[]}"},
    {"ll",
     "{\"type\":[\"list\",[\"list\",\"string\"]],\"v\":[{\"v\":[{\"v\":\"a\"}]},{\"v\":[{\"v\":\"b\"},{\"v\":\""
     "c\"}]}]}"},
    {"t",
     "{\"type\":[\"tuple\",[\"string\",\"number\",\"bool\"]],\"v\":[{\"v\":\"a\"},{\"v\":\"1\"},{\"v\":true}"
     "]}"},
    {"tempty", "{\"type\":[\"tuple\",[]],\"v\":[]}"},
    {"st",
     "{\"type\":[\"set\",\"string\"],\"v\":[{\"v\":\"b\"},{\"v\":\"a\"},{\"v\":\"c\"},{\"v\":\"B\"},{\"v\":\"aa\"}"
     "]}"},
    {"sn",
     "{\"type\":[\"set\",\"number\"],\"v\":[{\"v\":\"10\"},{\"v\":\"2\"},{\"v\":\"1\"},{\"v\":\"-1.5\"},{\"v\":\""
     "100\"}]}"},
    {"sb", "{\"type\":[\"set\",\"bool\"],\"v\":[{\"v\":true},{\"v\":false}]}"},
    {"so",
     "{\"type\":[\"set\",[\"object\",{\"a\":\"string\"}]],\"v\":[{\"v\":{\"a\":{\"v\":\"z\"}}},{\"v\":{\"a\":{"
     "\"v\":\"y\"}}}]}"},
    {"sempty", "{\"type\":[\"set\",\"string\"],\"v\":[]}"},
    {"m",
     "{\"type\":[\"map\",\"string\"],\"v\":{\"b\":{\"v\":\"y\"},\"a\":{\"v\":\"x\"},\"B\":{\"v\":\"z\"},\"10\":{\"v"
     "\":\"ten\"},\"9\":{\"v\":\"nine\"}}}"},
    {"mn", "{\"type\":[\"map\",\"number\"],\"v\":{\"a\":{\"v\":\"1\"},\"b\":{\"v\":\"2\"}}}"},
    {"mempty", "{\"type\":[\"map\",\"string\"],\"v\":{}}"},
    {"o",
     "{\"type\":[\"object\",{\"a\":\"string\",\"b\":\"number\",\"c\":[\"list\",\"number\"]}],\"v\":{\"b\":{\""
     "v\":\"1\"},\"a\":{\"v\":\"x\"},\"c\":{\"v\":[{\"v\":\"1\"},{\"v\":\"2\"}]}}}"},
    {"lo",
     "{\"type\":[\"list\",[\"object\",{\"id\":\"number\",\"name\":\"string\",\"tags\":[\"list\",\"string\""
     "]}]],\"v\":[{\"v\":{\"name\":{\"v\":\"a\"},\"id\":{\"v\":\"1\"},\"tags\":{\"v\":[{\"v\":\"x\"},{\"v\":\"y\"}"
     "]}}},{\"v\":{\"name\":{\"v\":\"b\"},\"id\":{\"v\":\"2\"},\"tags\":{\"v\":[{\"v\":\"z\"}]}}}]}"},
    {"to",
     "{\"type\":[\"tuple\",[[\"object\",{\"name\":\"string\"}],[\"object\",{\"name\":\"number\"}]]],\"v"
     "\":[{\"v\":{\"name\":{\"v\":\"a\"}}},{\"v\":{\"name\":{\"v\":\"2\"}}}]}"},
    {"mo",
     "{\"type\":[\"map\",[\"object\",{\"name\":\"string\"}]],\"v\":{\"k1\":{\"v\":{\"name\":{\"v\":\"a\"}}},"
     "\"k2\":{\"v\":{\"name\":{\"v\":\"b\"}}}}}"},
    {"us", "{\"type\":\"string\",\"unknown\":true}"},
    {"un", "{\"type\":\"number\",\"unknown\":true}"},
    {"ub", "{\"type\":\"bool\",\"unknown\":true}"},
    {"ul", "{\"type\":[\"list\",\"string\"],\"unknown\":true}"},
    {"ulo", "{\"type\":[\"list\",[\"object\",{\"name\":\"string\"}]],\"unknown\":true}"},
    {"ut", "{\"type\":[\"tuple\",[\"string\",\"number\"]],\"unknown\":true}"},
    {"ust", "{\"type\":[\"set\",\"string\"],\"unknown\":true}"},
    {"um", "{\"type\":[\"map\",\"string\"],\"unknown\":true}"},
    {"uo", "{\"type\":[\"object\",{\"a\":\"string\",\"b\":\"number\"}],\"unknown\":true}"},
    {"dyn", "{\"type\":\"dynamic\",\"unknown\":true}"},
    {"lu", "{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"a\"},{\"unknown\":true}]}"},
    {"tu",
     "{\"type\":[\"tuple\",[\"string\",\"dynamic\"]],\"v\":[{\"v\":\"a\"},{\"unknown\":true}]}"},
    {"mu", "{\"type\":[\"map\",\"string\"],\"v\":{\"a\":{\"v\":\"x\"},\"b\":{\"unknown\":true}}}"},
    {"stu", "{\"type\":[\"set\",\"string\"],\"v\":[{\"v\":\"a\"},{\"unknown\":true}]}"},
    {"sens", "{\"type\":\"string\",\"v\":\"secret\",\"marks\":[\"sensitive\"]}"},
    {"sensn", "{\"type\":\"number\",\"v\":\"7\",\"marks\":[\"sensitive\"]}"},
    {"sensb", "{\"type\":\"bool\",\"v\":true,\"marks\":[\"sensitive\"]}"},
    {"sensk", "{\"type\":\"string\",\"v\":\"a\",\"marks\":[\"sensitive\"]}"},
    {"sensi", "{\"type\":\"number\",\"v\":\"0\",\"marks\":[\"sensitive\"]}"},
    {"sensl",
     "{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"a\"},{\"v\":\"b\",\"marks\":[\"sensitive\"]}]}"},
    {"senslw",
     "{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"a\"},{\"v\":\"b\"}],\"marks\":[\"sensitive\"]}"},
    {"senso",
     "{\"type\":[\"object\",{\"a\":\"string\"}],\"v\":{\"a\":{\"v\":\"x\"}},\"marks\":[\"sensitive\"]}"},
    {"sensm",
     "{\"type\":[\"map\",\"string\"],\"v\":{\"a\":{\"v\":\"x\"}},\"marks\":[\"sensitive\"]}"},
    {"sensu", "{\"type\":\"string\",\"unknown\":true,\"marks\":[\"sensitive\"]}"},
    {"sensnull", "{\"type\":\"string\",\"null\":true,\"marks\":[\"sensitive\"]}"},
    {"other", "{\"type\":\"string\",\"v\":\"o\",\"marks\":[\"other\"]}"},
    {"nfd", "{\"type\":\"string\",\"v\":\"e\\u0301\"}"},
    {"for", "{\"type\":\"string\",\"v\":\"var-for\"}"},
    {"in", "{\"type\":\"string\",\"v\":\"var-in\"}"},
    {"if", "{\"type\":\"string\",\"v\":\"var-if\"}"},
    {"endfor", "{\"type\":\"string\",\"v\":\"var-endfor\"}"},
    {"a-b", "{\"type\":\"string\",\"v\":\"var-a-b\"}"},
    {"a", "{\"type\":\"number\",\"v\":\"1\"}"},
    {"x", "{\"type\":\"number\",\"v\":\"10\"}"},
    {"k", "{\"type\":\"string\",\"v\":\"outer-k\"}"},
    {"sensul", "{\"type\":[\"list\",\"string\"],\"unknown\":true,\"marks\":[\"sensitive\"]}"},
    {"sensuo",
     "{\"type\":[\"object\",{\"a\":\"string\"}],\"unknown\":true,\"marks\":[\"sensitive\"]}"},
    {"sensut", "{\"type\":[\"tuple\",[\"string\"]],\"unknown\":true,\"marks\":[\"sensitive\"]}"},
    {"nested",
     "{\"type\":[\"object\",{\"list\":[\"list\",[\"object\",{\"x\":[\"list\",[\"object\",{\"y\":\"number\""
     "}]]}]]}],\"v\":{\"list\":{\"v\":[{\"v\":{\"x\":{\"v\":[{\"v\":{\"y\":{\"v\":\"1\"}}}]}}}]}}}"},
};

static tfx_ctx fixture_ctx;
static tfx_str var_names[TFX_COUNTOF(fixtures)];
static const tfx_value *var_values[TFX_COUNTOF(fixtures)];

static int cmp_fixture(const void *a, const void *b)
{
    size_t i = *(const size_t *)a;
    size_t j = *(const size_t *)b;

    return strcmp(fixtures[i].name, fixtures[j].name);
}

static void load_fixtures(tfx_ctx *ctx, void *arg)
{
    size_t order[TFX_COUNTOF(fixtures)];
    size_t i;

    TFX_UNUSED(arg);
    for (i = 0; i < TFX_COUNTOF(fixtures); i++)
        order[i] = i;
    qsort(order, TFX_COUNTOF(fixtures), sizeof(size_t), cmp_fixture);
    for (i = 0; i < TFX_COUNTOF(fixtures); i++) {
        const char *json = fixtures[order[i]].json;
        const char *error = NULL;

        var_names[i].s = fixtures[order[i]].name;
        var_names[i].nbytes = strlen(fixtures[order[i]].name);
        var_values[i] = tfx_json_decode_typed(ctx, json, strlen(json), &error);
        if (var_values[i] == NULL) {
            fprintf(stderr, "fixture %s: %s\n", fixtures[order[i]].name, error);
            exit(2);
        }
    }
}

/* ---- Test functions (semantics.md 0.4): strict(s string),
 * nullok(s string, AllowNull), unkok(s string, AllowUnknown),
 * va(first string, rest... number), vaall(v... any, every Allow* flag),
 * anyarg(v any), and fail(a, b), which reports an argument error on b
 * when b is "bad" and a plain error otherwise ---- */

static const tfx_value *say(tfx_ctx *ctx, const char *text)
{
    return tfx_value_string(ctx, text, strlen(text));
}

static const tfx_value *strict_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    if (tfx_value_is_null(args[0]))
        return say(ctx, "was-null");
    if (tfx_value_is_unknown(args[0]))
        return say(ctx, "was-unknown");
    return args[0];
}

static const tfx_value *count_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                   const tfx_value *const *args, size_t nargs,
                                   tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(args);
    TFX_UNUSED(err);
    return tfx_value_int(ctx, (int64_t)nargs);
}

static const tfx_value *fail_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                  const tfx_value *const *args, size_t nargs,
                                  tfx_func_error *err)
{
    TFX_UNUSED(ctx);
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    err->arg = tfx_str_eq(args[1]->as.string, "bad", 3) ? 1 : -1;
    err->message = err->arg == 1 ? "bad b" : "plain failure";
    return NULL;
}

static const tfx_param p_strict[] = {{.name = "s", .type = &tfx_type_str}};
static const tfx_param p_nullok[] = {{.name = "s", .type = &tfx_type_str, .allow_null = true}};
static const tfx_param p_unkok[] = {{.name = "s", .type = &tfx_type_str, .allow_unknown = true}};
static const tfx_param p_va[] = {{.name = "first", .type = &tfx_type_str}};
static const tfx_param p_va_rest = {.name = "rest", .type = &tfx_type_number};
static const tfx_param p_vaall = {.name = "v", .type = &tfx_type_dynamic, .allow_null = true,
                                  .allow_unknown = true, .allow_dynamic = true,
                                  .allow_marked = true};
static const tfx_param p_anyarg[] = {{.name = "v", .type = &tfx_type_dynamic}};
static const tfx_param p_fail[] = {{.name = "a", .type = &tfx_type_str},
                                   {.name = "b", .type = &tfx_type_str}};

static const tfx_function f_strict = {"strict", p_strict, 1, NULL, NULL, &tfx_type_str,
                                      strict_impl};
static const tfx_function f_nullok = {"nullok", p_nullok, 1, NULL, NULL, &tfx_type_str,
                                      strict_impl};
static const tfx_function f_unkok = {"unkok", p_unkok, 1, NULL, NULL, &tfx_type_str, strict_impl};
static const tfx_function f_va = {"va", p_va, 1, &p_va_rest, NULL, &tfx_type_number, count_impl};
static const tfx_function f_vaall = {"vaall", NULL, 0, &p_vaall, NULL, &tfx_type_number,
                                     count_impl};
static const tfx_function f_anyarg = {"anyarg", p_anyarg, 1, NULL, NULL, &tfx_type_number,
                                      count_impl};
static const tfx_function f_fail = {"fail", p_fail, 2, NULL, NULL, &tfx_type_str, fail_impl};

static const tfx_function *const test_functions[] = {&f_anyarg, &f_fail, &f_nullok, &f_strict,
                                                     &f_unkok, &f_va, &f_vaall};

static const tfx_function *lookup_function(const char *name, size_t nbytes)
{
    size_t i;

    for (i = 0; i < TFX_COUNTOF(test_functions); i++)
        if (strlen(test_functions[i]->name) == nbytes
            && memcmp(test_functions[i]->name, name, nbytes) == 0)
            return test_functions[i];
    return tfx_func_builtin(name, nbytes);
}

/* ---- Running an evaluation ---- */

static tfx_env fixture_env;

typedef struct {
    const tfx_node *root;
    const tfx_env *env;
    tfx_diags *diags;
    const char *text;
} run_job;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static void append(char *out, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(out);
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(out + len, cap - len, fmt, ap);
    va_end(ap);
}

/* The value in the notation of semantics.md 0.3, or "!" and the
 * diagnostics; "PARSE ERROR" if the input does not parse. */
static void run_eval(tfx_ctx *ctx, void *arg)
{
    run_job *job = arg;
    const tfx_value *v = tfx_eval(ctx, job->root, job->env, job->diags);

    if (job->diags->n == 0)
        job->text = tfx_render_debug(ctx, v);
}

static char result[8192];

static const char *evaluate_with(bool template, const char *input, const tfx_env *env,
                                 const tfx_ctx_limits *limits)
{
    tfx_arena *arena = tfx_arena_new(0);
    tfx_diags pdiags;
    tfx_diags diags;
    tfx_node *root;
    tfx_ctx ctx;
    run_job job;

    result[0] = '\0';
    if (arena == NULL || !tfx_ctx_init(&ctx, limits)) {
        tfx_arena_free(arena);
        return "OUT OF MEMORY";
    }
    tfx_diags_init(&pdiags, arena);
    root = tfx_parse(arena, (const unsigned char *)input, strlen(input),
                     template ? TFX_LEX_TEMPLATE : TFX_LEX_EXPRESSION, 0, &pdiags);
    if (root == NULL || pdiags.n > 0) {
        snprintf(result, sizeof(result), "PARSE ERROR");
    } else {
        tfx_diags_init(&diags, ctx.arena);
        memset(&job, 0, sizeof(job));
        job.root = root;
        job.env = env;
        job.diags = &diags;
        if (!tfx_ctx_try(&ctx, run_eval, &job))
            snprintf(result, sizeof(result), "FAILED: %s", ctx.fail_summary);
        else if (diags.n == 0)
            snprintf(result, sizeof(result), "%s", job.text);
        for (size_t i = 0; i < diags.n; i++)
            append(result, sizeof(result), "%s%s@%zu-%zu", i == 0 ? "!" : "; ",
                   diags.items[i].summary, diags.items[i].subject.start.byte,
                   diags.items[i].subject.end.byte);
    }
    tfx_ctx_free(&ctx);
    tfx_arena_free(arena);
    return result;
}

static const char *evaluate(bool template, const char *input)
{
    return evaluate_with(template, input, &fixture_env, NULL);
}

/* The diagnostics of an evaluation, for the tests that look at details
 * and context ranges. */
typedef struct {
    size_t n;
    char summary[8][64];
    char detail[8][512];
    bool has_context[8];
    size_t context[8][2];
} diag_copy;

static void evaluate_diags(const char *input, diag_copy *out)
{
    tfx_arena *arena = tfx_arena_new(0);
    tfx_diags pdiags;
    tfx_diags diags;
    tfx_node *root;
    tfx_ctx ctx;

    memset(out, 0, sizeof(*out));
    if (arena == NULL || !tfx_ctx_init(&ctx, NULL)) {
        tfx_arena_free(arena);
        return;
    }
    tfx_diags_init(&pdiags, arena);
    root = tfx_parse(arena, (const unsigned char *)input, strlen(input), TFX_LEX_EXPRESSION, 0,
                     &pdiags);
    if (root != NULL && pdiags.n == 0) {
        tfx_diags_init(&diags, ctx.arena);
        (void)tfx_eval(&ctx, root, &fixture_env, &diags);
        for (size_t i = 0; i < diags.n && i < 8; i++) {
            snprintf(out->summary[i], sizeof(out->summary[i]), "%s", diags.items[i].summary);
            snprintf(out->detail[i], sizeof(out->detail[i]), "%s", diags.items[i].detail);
            out->has_context[i] = diags.items[i].has_context;
            out->context[i][0] = diags.items[i].context.start.byte;
            out->context[i][1] = diags.items[i].context.end.byte;
        }
        out->n = diags.n;
    }
    tfx_ctx_free(&ctx);
    tfx_arena_free(arena);
}

/* ---- Case tables ---- */

typedef struct {
    bool template;
    const char *input;
    const char *want;
} eval_case;

#define E(input, want) {false, input, want}
#define T(input, want) {true, input, want}

/* [eval.literal] [var.lookup] [var.unknown] [var.name] [var.traversal] (semantics L14, L16,
 * S14, R1, R3, R4) */
static const eval_case variable_cases[] = {
    E("1",
      "1 :: number"),
    E("007",
      "7 :: number"),
    E("01.50",
      "1.5 :: number"),
    E("1.5e3",
      "1500 :: number"),
    E("1e-3",
      "0.001 :: number"),
    E("\"a\"",
      "\"a\" :: string"),
    E("\"e\\u0301\"",
      "\"é\" :: string"),
    E("true",
      "true :: bool"),
    E("false",
      "false :: bool"),
    E("null",
      "null(dynamic) :: dynamic"),
    E("s",
      "\"hello\" :: string"),
    E("nosuch",
      "!Unknown variable@0-6"),
    E("x-1",
      "!Unknown variable@0-3"),
    E("TRUE",
      "!Unknown variable@0-4"),
    E("for",
      "\"var-for\" :: string"),
    E("in",
      "\"var-in\" :: string"),
    E("a-b",
      "\"var-a-b\" :: string"),
    E("nosuch.a.b",
      "!Unknown variable@0-6"),
    E("(s)",
      "\"hello\" :: string"),
    E("((n))",
      "5 :: number"),
};

/* [index.order] [index.seq.key] [index.list.range] [index.list.unknown] [index.tuple.unknown]
 * [index.key.unknown] [index.map] [index.map.unknown] [index.object] [index.object.unknown]
 * [index.set] [index.other] [index.legacy] [index.marks] [index.subject] (semantics I1–I10,
 * I14–I16, Z7) */
static const eval_case index_cases[] = {
    E("l[0]",
      "\"a\" :: string"),
    E("l[\"1\"]",
      "\"b\" :: string"),
    E("l[1.0]",
      "\"b\" :: string"),
    E("t[\"1\"]",
      "1 :: number"),
    E("l[\"a\"]",
      "!Invalid index@1-6"),
    E("l[true]",
      "!Invalid index@1-7"),
    E("l[\"01\"]",
      "\"b\" :: string"),
    E("l[\"1e0\"]",
      "\"b\" :: string"),
    E("l[0.0]",
      "\"a\" :: string"),
    E("l[-0]",
      "\"a\" :: string"),
    E("l[\" 1\"]",
      "!Invalid index@1-7"),
    E("l[1.5]",
      "!Invalid index@1-6"),
    E("l[1/0]",
      "!Invalid index@1-6"),
    E("l[-1]",
      "!Invalid index@1-5"),
    E("l[3]",
      "!Invalid index@1-4"),
    E("t[3]",
      "!Invalid index@1-4"),
    E("[1,2,3][3]",
      "!Invalid index@7-10"),
    E("l[100]",
      "!Invalid index@1-6"),
    E("l[1e30]",
      "!Invalid index@1-7"),
    E("l.5",
      "!Invalid index@1-3"),
    E("lempty[0]",
      "!Invalid index@6-9"),
    E("lempty[1]",
      "!Invalid index@6-9"),
    E("senslw[2]",
      "!Invalid index@6-9"),
    E("ul[0]",
      "unknown(string) :: string"),
    E("ul[-1]",
      "unknown(string) :: string"),
    E("ul[1.5]",
      "unknown(string) :: string"),
    E("ul[\"a\"]",
      "!Invalid index@2-7"),
    E("ut[0]",
      "unknown(string) :: string"),
    E("ut[5]",
      "!Invalid index@2-5"),
    E("ut[-1]",
      "!Invalid index@2-6"),
    E("ut[0.5]",
      "!Invalid index@2-7"),
    E("ut[2]",
      "!Invalid index@2-5"),
    E("ut[un]",
      "unknown(dynamic) :: dynamic"),
    E("l[un]",
      "unknown(string) :: string"),
    E("l[us]",
      "unknown(string) :: string"),
    E("m[un]",
      "unknown(string) :: string"),
    E("m[us]",
      "unknown(string) :: string"),
    E("t[un]",
      "unknown(dynamic) :: dynamic"),
    E("o[us]",
      "unknown(dynamic) :: dynamic"),
    E("m[\"a\"]",
      "\"x\" :: string"),
    E("m[10]",
      "\"ten\" :: string"),
    E("m[9]",
      "\"nine\" :: string"),
    E("m[\"B\"]",
      "\"z\" :: string"),
    E("m[\"zz\"]",
      "!Invalid index@1-7"),
    E("m[1]",
      "!Invalid index@1-4"),
    E("m[true]",
      "!Invalid index@1-7"),
    E("m[\" a\"]",
      "!Invalid index@1-7"),
    E("m[[1]]",
      "!Invalid index@1-6"),
    E("um[\"zz\"]",
      "unknown(string) :: string"),
    E("um[1]",
      "unknown(string) :: string"),
    E("o[\"a\"]",
      "\"x\" :: string"),
    E("o[0]",
      "!Invalid index@1-4"),
    E("o[1]",
      "!Invalid index@1-4"),
    E("o[[1]]",
      "!Invalid index@1-6"),
    E("{\"\" = 1}[\"\"]",
      "1 :: number"),
    E("uo[\"a\"]",
      "unknown(dynamic) :: dynamic"),
    E("uo[\"zz\"]",
      "unknown(dynamic) :: dynamic"),
    E("st[0]",
      "!Invalid index@2-5"),
    E("ust[0]",
      "!Invalid index@3-6"),
    E("s[0]",
      "!Invalid index@1-4"),
    E("n[0]",
      "!Invalid index@1-4"),
    E("\"abc\"[0]",
      "!Invalid index@5-8"),
    E("l[0][0]",
      "!Invalid index@4-7"),
    E("nul[us]",
      "!Attempt to index null value@3-7"),
    E("nul[0]",
      "!Attempt to index null value@3-6"),
    E("l[null]",
      "!Invalid index@1-7"),
    E("ul[null]",
      "!Invalid index@2-8"),
    E("dyn[null]",
      "!Invalid index@3-9"),
    E("dyn[0]",
      "unknown(dynamic) :: dynamic"),
    E("dyn[\"x\"]",
      "unknown(dynamic) :: dynamic"),
    E("l[dyn]",
      "unknown(dynamic) :: dynamic"),
    E("l.0",
      "\"a\" :: string"),
    E("t.2",
      "true :: bool"),
    E("m.10",
      "\"ten\" :: string"),
    E("o.c.1",
      "2 :: number"),
    E("lo.0.name",
      "\"a\" :: string"),
    E("nested.list.0.x.0.y",
      "1 :: number"),
    E("senslw[0]",
      "\"a\"@sensitive :: string"),
    E("sensl[0]",
      "\"a\" :: string"),
    E("sensl[1]",
      "\"b\"@sensitive :: string"),
    E("l[sensi]",
      "\"a\"@sensitive :: string"),
    E("senslw[sensi]",
      "\"a\"@sensitive :: string"),
    E("{a=1}[sensk]",
      "1 :: number"),
    E("sensul[0]",
      "unknown(string) :: string"),
    E("sensut[0]",
      "unknown(string)@sensitive :: string"),
    E("sensuo[\"a\"]",
      "unknown(dynamic) :: dynamic"),
    E("(l)[0]",
      "\"a\" :: string"),
    E("upper(\"a\")[0]",
      "!Invalid index@10-13"),
    E("l[nosuch]",
      "!Unknown variable@2-8"),
    E("nosuch[0]",
      "!Unknown variable@0-6"),
    E("l[nosuch][0]",
      "!Unknown variable@2-8"),
    E("[for x in l: x][1]",
      "\"b\" :: string"),
    E("l[[for x in l: x][0]]",
      "!Invalid index@1-21"),
};

/* [attr.step] [attr.object] [attr.map] [attr.dynamic] [attr.list] [attr.set] [attr.primitive]
 * [attr.other] [attr.marks] [attr.subject] (semantics I11–I13, I15) */
static const eval_case attr_cases[] = {
    E("o.a",
      "\"x\" :: string"),
    E("o.c",
      "list[1,2] :: list(number)"),
    E("uo.zz",
      "!Unsupported attribute@2-5"),
    E("uo.a",
      "unknown(string) :: string"),
    E("m.a",
      "\"x\" :: string"),
    E("sensm.a",
      "\"x\"@sensitive :: string"),
    E("m.zz",
      "!Missing map element@1-4"),
    E("um.a",
      "unknown(string) :: string"),
    E("nul.a",
      "!Attempt to get attribute from null value@3-5"),
    E("nullo.a",
      "!Attempt to get attribute from null value@5-7"),
    E("s.a",
      "!Unsupported attribute@1-3"),
    E("us.a",
      "!Unsupported attribute@2-4"),
    E("n.a",
      "!Unsupported attribute@1-3"),
    E("b.a",
      "!Unsupported attribute@1-3"),
    E("lo.name",
      "!Unsupported attribute@2-7"),
    E("ulo.name",
      "!Unsupported attribute@3-8"),
    E("lo.zz",
      "!Unsupported attribute@2-5"),
    E("so.a",
      "!Unsupported attribute@2-4"),
    E("l.a",
      "!Unsupported attribute@1-3"),
    E("t.a",
      "!Unsupported attribute@1-3"),
    E("st.a",
      "!Unsupported attribute@2-4"),
    E("ul.a",
      "!Unsupported attribute@2-4"),
    E("dyn.a.b[0]",
      "unknown(dynamic) :: dynamic"),
    E("senso.a",
      "\"x\"@sensitive :: string"),
    E("sensuo.a",
      "unknown(string) :: string"),
    E("(s).a",
      "!Unsupported attribute@3-5"),
    E("{a = {b = 1}}.a.b",
      "1 :: number"),
    E("{a = {b = 1}}.a.c",
      "!Unsupported attribute@15-17"),
};

/* [op.func] [op.order] [op.operand] [op.null] [op.unknown] [op.arith] [op.arith.operand]
 * [op.neg] [op.cmp] [op.eq] [op.eq.unknown] [op.eq.marks] [op.logic.operand] [op.logic]
 * [op.not] [op.marks] [op.marks.unknown] (semantics O1–O23, N24, G1–G4) */
static const eval_case operator_cases[] = {
    E("1 + 2",
      "3 :: number"),
    E("2 + 3 * 4",
      "14 :: number"),
    E("8 / 2 / 2",
      "2 :: number"),
    E("1 - 1 - 1",
      "-1 :: number"),
    E("\"1\" + 1",
      "2 :: number"),
    E("\"1.5\" * \"2\"",
      "3 :: number"),
    E("\"1e3\" + 0",
      "1000 :: number"),
    E("\" 1\" + 1",
      "!Invalid operand@0-4"),
    E("true + 1",
      "!Invalid operand@0-4"),
    E("[1] + 1",
      "!Invalid operand@0-3"),
    E("null + 1",
      "!Operation failed@0-8"),
    E("nuln + 1",
      "!Operation failed@0-8"),
    E("un + null",
      "!Operation failed@0-9"),
    E("null + \"a\"",
      "!Invalid operand@7-10"),
    E("-null",
      "!Operation failed@0-5"),
    E("!null",
      "!Operation failed@0-5"),
    E("null < 1",
      "!Operation failed@0-8"),
    E("un + 1",
      "unknown(number) :: number"),
    E("dyn + 1",
      "unknown(number) :: number"),
    E("us + 1",
      "unknown(number) :: number"),
    E("\"a\" + us",
      "!Invalid operand@0-3"),
    E("un < 1",
      "unknown(bool) :: bool"),
    E("!ub",
      "unknown(bool) :: bool"),
    E("-dyn",
      "unknown(number) :: number"),
    E("\"1\" < 2",
      "true :: bool"),
    E("\"10\" < \"9\"",
      "false :: bool"),
    E("\"a\" < \"b\"",
      "!Invalid operand@0-3; Invalid operand@6-9"),
    E("true < false",
      "!Invalid operand@0-4; Invalid operand@7-12"),
    E("1 < 2 < 3",
      "!Invalid operand@0-5"),
    E("1 == 1 == true",
      "true :: bool"),
    E("true == 1 == 1",
      "false :: bool"),
    E("-\"1\"",
      "-1 :: number"),
    E("-true",
      "!Invalid operand@1-5"),
    E("-(0)",
      "-0 :: number"),
    E("--1",
      "1 :: number"),
    E("!-1",
      "!Invalid operand@1-3"),
    E("-!true",
      "!Invalid operand@1-6"),
    E("1 == \"1\"",
      "false :: bool"),
    E("true == \"true\"",
      "false :: bool"),
    E("l == [\"a\", \"b\", \"c\"]",
      "false :: bool"),
    E("[] == []",
      "true :: bool"),
    E("{a = 1, b = 2} == {b = 2, a = 1}",
      "true :: bool"),
    E("null == null",
      "true :: bool"),
    E("null == nuls",
      "true :: bool"),
    E("nuls == nuln",
      "true :: bool"),
    E("null != null",
      "false :: bool"),
    E("null == \"a\"",
      "false :: bool"),
    E("us == \"a\"",
      "unknown(bool) :: bool"),
    E("un == \"a\"",
      "false :: bool"),
    E("us == 1",
      "false :: bool"),
    E("dyn == 1",
      "unknown(bool) :: bool"),
    E("dyn == null",
      "unknown(bool) :: bool"),
    E("null == us",
      "unknown(bool) :: bool"),
    E("us == us",
      "unknown(bool) :: bool"),
    E("lu == lu",
      "unknown(bool) :: bool"),
    E("sens == \"x\"",
      "false@sensitive :: bool"),
    E("[sens] == [\"secret\"]",
      "true@sensitive :: bool"),
    E("sensl == sensl",
      "true@sensitive :: bool"),
    E("sens == other",
      "false@other@sensitive :: bool"),
    E("sensnull == null",
      "true@sensitive :: bool"),
    E("sensu == \"x\"",
      "unknown(bool)@sensitive :: bool"),
    E("\"true\" && true",
      "true :: bool"),
    E("!\"0\"",
      "true :: bool"),
    E("!\"1\"",
      "false :: bool"),
    E("!\"yes\"",
      "!Invalid operand@1-6"),
    E("1 && true",
      "!Invalid operand@0-1"),
    E("!1",
      "!Invalid operand@1-2"),
    E("false && nosuch",
      "!Unknown variable@9-15"),
    E("true || nosuch",
      "!Unknown variable@8-14"),
    E("ub && false",
      "unknown(bool) :: bool"),
    E("true || ub",
      "unknown(bool) :: bool"),
    E("false && null",
      "!Operation failed@0-13"),
    E("null || true",
      "!Operation failed@0-12"),
    E("sensn + 1",
      "8@sensitive :: number"),
    E("-sensn",
      "-7@sensitive :: number"),
    E("!sensb",
      "false@sensitive :: bool"),
    E("sensb && true",
      "true@sensitive :: bool"),
    E("sensn > 1",
      "true@sensitive :: bool"),
    E("sensu + 1",
      "unknown(number) :: number"),
    E("sensb && ub",
      "unknown(bool) :: bool"),
    E("a.b == 1",
      "!Unsupported attribute@1-3"),
    E("nosuch + 1",
      "!Unknown variable@0-6"),
    E("1/0",
      "+Inf :: number"),
    E("-1/0",
      "-Inf :: number"),
    E("0/0",
      "!Operation failed@0-3"),
    E("1 % 0",
      "1 :: number"),
    E("5 % 3",
      "2 :: number"),
    E("-1 % 3",
      "-1 :: number"),
    E("0.1 + 0.2 == 0.3",
      "true :: bool"),
    E("1e1000000 * 0",
      "0 :: number"),
    E("nosuch + nosuch2",
      "!Unknown variable@0-6; Unknown variable@9-16"),
    E("upper(1,2) + nosuch",
      "!Too many function arguments@8-9; Unknown variable@13-19"),
};

/* [cond.order] [cond.type] [cond.unify] [cond.type-error] [cond.null] [cond.unknown]
 * [cond.bool] [cond.diagnostics] [cond.convert] [cond.marks] (semantics Q1–Q10, G5) */
static const eval_case conditional_cases[] = {
    E("false ? 1 : true ? 2 : 3",
      "2 :: number"),
    E("true ? true ? 1 : 2 : 3",
      "1 :: number"),
    E("true ? 1 : 2 + 10",
      "1 :: number"),
    E("true ? null : 1",
      "null(number) :: number"),
    E("true ? 1 : null",
      "1 :: number"),
    E("false ? null : \"a\"",
      "\"a\" :: string"),
    E("true ? null : null",
      "null(dynamic) :: dynamic"),
    E("true ? nuls : 1",
      "null(string) :: string"),
    E("true ? dyn : 1",
      "unknown(dynamic) :: dynamic"),
    E("true ? 1 : dyn",
      "1 :: number"),
    E("true ? [1] : dyn",
      "[1] :: tuple([number])"),
    E("false ? nul : sens",
      "\"secret\"@sensitive :: string"),
    E("true ? 1 : \"a\"",
      "\"1\" :: string"),
    E("true ? \"1\" : 1",
      "\"1\" :: string"),
    E("true ? true : \"x\"",
      "\"true\" :: string"),
    E("true ? nuln : nuls",
      "null(string) :: string"),
    E("true ? [1] : [\"a\"]",
      "[\"1\"] :: tuple([string])"),
    E("true ? [1, \"a\"] : [\"b\", 2]",
      "[\"1\",\"a\"] :: tuple([string,string])"),
    E("true ? [1] : [1,2]",
      "list[1] :: list(number)"),
    E("true ? [1] : [\"a\", \"b\"]",
      "list[\"1\"] :: list(string)"),
    E("true ? [1] : []",
      "list[1] :: list(number)"),
    E("false ? [1] : []",
      "list[] :: list(number)"),
    E("true ? {a=1} : {a=\"x\"}",
      "{\"a\"=\"1\"} :: object({a=string})"),
    E("true ? {a=1} : {b=2}",
      "map{\"a\"=1} :: map(number)"),
    E("true ? {a = 1} : {b = \"x\"}",
      "map{\"a\"=\"1\"} :: map(string)"),
    E("true ? {a = 1} : {}",
      "map{\"a\"=1} :: map(number)"),
    E("true ? l : []",
      "list[\"a\",\"b\",\"c\"] :: list(string)"),
    E("true ? l : [1]",
      "list[\"a\",\"b\",\"c\"] :: list(string)"),
    E("true ? l : [\"x\"]",
      "list[\"a\",\"b\",\"c\"] :: list(string)"),
    E("true ? l : st",
      "list[\"a\",\"b\",\"c\"] :: list(string)"),
    E("true ? st : l",
      "list[\"B\",\"a\",\"aa\",\"b\",\"c\"] :: list(string)"),
    E("true ? m : {a=1}",
      "map{\"10\"=\"ten\",\"9\"=\"nine\",\"B\"=\"z\",\"a\"=\"x\",\"b\"=\"y\"} :: map(string)"),
    E("true ? [nul] : [1]",
      "[null(number)] :: tuple([number])"),
    E("true ? {a = nul} : {a = 1}",
      "{\"a\"=null(number)} :: object({a=number})"),
    E("true ? [1] : [dyn]",
      "[1] :: tuple([number])"),
    E("true ? {a = 1} : {a = dyn}",
      "{\"a\"=1} :: object({a=number})"),
    E("true ? 1 : upper(5)",
      "\"1\" :: string"),
    E("true ? true : 1",
      "!Inconsistent conditional result types@7-15"),
    E("true ? [1] : [true, 2]",
      "!Inconsistent conditional result types@7-22"),
    E("true ? [1] : [true]",
      "!Inconsistent conditional result types@7-19"),
    E("true ? {a=1} : {b=true}",
      "!Inconsistent conditional result types@7-23"),
    E("true ? {a=1} : {a=1,b=true}",
      "!Inconsistent conditional result types@7-27"),
    E("true ? {a={b=1}} : {a={b=true}}",
      "!Inconsistent conditional result types@7-31"),
    E("true ? lo : [{name=\"x\"}]",
      "!Inconsistent conditional result types@7-24"),
    E("ub ? true : 1",
      "!Inconsistent conditional result types@5-13"),
    E("false ? true : 1",
      "!Inconsistent conditional result types@8-16"),
    E("null ? 1 : 2",
      "!Null condition@0-4"),
    E("nul ? 1 : 2",
      "!Null condition@0-3"),
    E("\"true\" ? 1 : 2",
      "1 :: number"),
    E("\"false\" ? 1 : 2",
      "2 :: number"),
    E("\"1\" ? 1 : 2",
      "1 :: number"),
    E("1 ? 1 : 2",
      "!Incorrect condition type@0-1"),
    E("\"yes\" ? 1 : 2",
      "!Incorrect condition type@0-5"),
    E("ub ? nosuch : 1",
      "unknown(dynamic) :: dynamic"),
    E("ub ? 1/0 : 1",
      "unknown(number) :: number"),
    E("ub ? 1 : 2 ? 3 : 4",
      "unknown(number) :: number"),
    E("nosuch ? 1 : 2",
      "!Unknown variable@0-6"),
    E("nosuch ? nosuch2 : 1",
      "!Unknown variable@0-6"),
    E("true ? 1 : nosuch",
      "1 :: number"),
    E("false ? 1 : nosuch",
      "!Unknown variable@12-18"),
    E("true ? nosuch : nosuch2",
      "!Unknown variable@7-13"),
    E("true ? 1 : (0/0)",
      "1 :: number"),
    E("null ? nosuch : 1",
      "!Null condition@0-4"),
    E("1 ? nosuch : 1",
      "!Incorrect condition type@0-1"),
    E("sensb ? 1 : 2",
      "1 :: number"),
    E("true ? sens : \"x\"",
      "\"secret\"@sensitive :: string"),
    E("false ? sens : \"x\"",
      "\"x\" :: string"),
    E("ub ? sens : \"x\"",
      "unknown(string) :: string"),
    E("ub ? sensn : 1",
      "unknown(number) :: number"),
    E("dyn ? 1 : 2",
      "unknown(number) :: number"),
};

/* [cons.tuple] [cons.object] [cons.object.key.bare] [cons.object.key.ambiguous]
 * [cons.object.key.paren] [cons.object.key.expr] [cons.object.key.convert]
 * [cons.object.key.unknown] [cons.object.key.duplicate] [cons.object.key.marks]
 * [cons.object.names] [cons.object.values] (semantics K1–K12, Z6) */
static const eval_case constructor_cases[] = {
    E("[]",
      "[] :: tuple([])"),
    E("[1, \"a\", [true], {x = null}]",
      "[1,\"a\",[true],{\"x\"=null(dynamic)}] :: tuple([number,string,tuple([bool]),object({x=dynamic})])"),
    E("[sens, 1]",
      "[\"secret\"@sensitive,1] :: tuple([string,number])"),
    E("[nosuch, 1]",
      "!Unknown variable@1-7"),
    E("[us, dyn]",
      "[unknown(string),unknown(dynamic)] :: tuple([string,dynamic])"),
    E("{}",
      "{} :: object({})"),
    E("{a = 1, b = 2}",
      "{\"a\"=1,\"b\"=2} :: object({a=number,b=number})"),
    E("{a: 1}",
      "{\"a\"=1} :: object({a=number})"),
    E("{s = 1}",
      "{\"s\"=1} :: object({s=number})"),
    E("{a-b = 1}",
      "{\"a-b\"=1} :: object({a-b=number})"),
    E("{null = 1}",
      "{\"null\"=1} :: object({null=number})"),
    E("{true = 1}",
      "{\"true\"=1} :: object({true=number})"),
    E("{false = 1}",
      "{\"false\"=1} :: object({false=number})"),
    E("{in = 1}",
      "{\"in\"=1} :: object({in=number})"),
    E("{if = 1}",
      "{\"if\"=1} :: object({if=number})"),
    E("{baz = 2, for = 1}",
      "{\"baz\"=2,\"for\"=1} :: object({baz=number,for=number})"),
    E("{(s) = 1}",
      "{\"hello\"=1} :: object({hello=number})"),
    E("{(a-b) = 1}",
      "{\"var-a-b\"=1} :: object({var-a-b=number})"),
    E("{(for) = 1}",
      "{\"var-for\"=1} :: object({var-for=number})"),
    E("{(true) = 1}",
      "{\"true\"=1} :: object({true=number})"),
    E("{(1) = 1}",
      "{\"1\"=1} :: object({\"1\"=number})"),
    E("{a.b = 1}",
      "!Ambiguous attribute key@1-4"),
    E("{a.0 = 1}",
      "!Ambiguous attribute key@1-4"),
    E("{s[0] = 1}",
      "!Ambiguous attribute key@1-5"),
    E("{\"a b\" = 1}",
      "{\"a b\"=1} :: object({\"a b\"=number})"),
    E("{\"${s}x\" = 1}",
      "{\"hellox\"=1} :: object({hellox=number})"),
    E("{1 = 1}",
      "{\"1\"=1} :: object({\"1\"=number})"),
    E("{1.5 = 1}",
      "{\"1.5\"=1} :: object({\"1.5\"=number})"),
    E("{-1 = 1}",
      "{\"-1\"=1} :: object({\"-1\"=number})"),
    E("{upper(\"a\") = 1}",
      "{\"A\"=1} :: object({A=number})"),
    E("{(nul) = 1}",
      "!Null value as key@9-10"),
    E("{(null) = 1}",
      "!Null value as key@10-11"),
    E("{([1]) = 1}",
      "!Incorrect key type@1-6"),
    E("{(us) = 1}",
      "unknown(dynamic) :: dynamic"),
    E("{(un) = 1}",
      "unknown(dynamic) :: dynamic"),
    E("{(dyn) = 1}",
      "unknown(dynamic) :: dynamic"),
    E("{(nosuch) = 1, b = 2}",
      "!Unknown variable@2-8"),
    E("{a = nosuch, b = 1}",
      "!Unknown variable@5-11"),
    E("{(nul) = nosuch}",
      "!Unknown variable@9-15; Null value as key@9-15"),
    E("{a = 1, a = 2}",
      "{\"a\"=2} :: object({a=number})"),
    E("{a = 1, \"a\" = 2}",
      "{\"a\"=2} :: object({a=number})"),
    E("{(s) = 1, hello = 2}",
      "{\"hello\"=2} :: object({hello=number})"),
    E("{(sensk) = 1}",
      "{\"a\"=1}@sensitive :: object({a=number})"),
    E("{(sensk) = 1, (other) = 2}",
      "{\"a\"=1,\"o\"=2}@other@sensitive :: object({a=number,o=number})"),
    E("{a = sens}",
      "{\"a\"=\"secret\"@sensitive} :: object({a=string})"),
    E("{\"\" = 1}",
      "{\"\"=1} :: object({\"\"=number})"),
    E("{a = us}",
      "{\"a\"=unknown(string)} :: object({a=string})"),
    E("{\"é\" = 1, \"e\\u0301\" = 2}",
      "{\"é\"=2} :: object({é=number})"),
    E("{true.a = 1}",
      "!Unsupported attribute@5-7"),
    E("{(a).b = 1}",
      "!Unsupported attribute@4-6"),
    E("{s[x] = 1}",
      "!Invalid index@2-5"),
    E("{(us) = 1, (nul) = 2}",
      "!Null value as key@19-20"),
};

/* [call.lookup] [call.none] [call.expand] [call.expand.errors] [call.expand.marks]
 * [call.arity] [call.convert] [call.machinery] [call.error] [mark.prop.call] (semantics FN1,
 * FN3–FN12) */
static const eval_case call_cases[] = {
    E("upper(\"a\")",
      "\"A\" :: string"),
    E("upper()",
      "!Not enough function arguments@6-7"),
    E("upper(\"a\",\"b\")",
      "!Too many function arguments@11-12"),
    E("upper(nosuch, 1)",
      "!Too many function arguments@14-15"),
    E("upper([\"a\",\"b\"]...)",
      "!Too many function arguments@6-15"),
    E("upper(5)",
      "\"5\" :: string"),
    E("min(1,\"2\")",
      "1 :: number"),
    E("max(\"ab\", 1)",
      "!Invalid function argument@5-7"),
    E("max((true), 1)",
      "!Invalid function argument@5-9"),
    E("max(1, true ? \"x\" : \"y\")",
      "!Invalid function argument@7-11"),
    E("max(1, [1][0] + \"x\")",
      "!Invalid operand@16-19"),
    E("max(1, \"a${s}\")",
      "!Invalid function argument@8-9"),
    E("max(1, \"\")",
      "!Invalid function argument@9-9"),
    E("max(1, {a = 1})",
      "!Invalid function argument@7-8"),
    E("max(1, [for x in l: x])",
      "!Invalid function argument@7-8"),
    E("max(1, s[*])",
      "!Invalid function argument@8-11"),
    E("max(1, -s)",
      "!Invalid operand@8-9"),
    E("max(1, l[0])",
      "!Invalid function argument@7-11"),
    E("nosuchfn(1)",
      "!Call to unknown function@0-8"),
    E("nosuchfn(nosuch)",
      "!Call to unknown function@0-8"),
    E("upper(nosuch)",
      "!Unknown variable@6-12"),
    E("upper(null)",
      "!Invalid function argument@6-10"),
    E("upper(us)",
      "unknown(string) :: string"),
    E("upper(sens)",
      "\"SECRET\"@sensitive :: string"),
    E("upper(sensu)",
      "unknown(string) :: string"),
    E("max(1, un)",
      "unknown(number) :: number"),
    E("max(l...)",
      "!Invalid function argument@4-5; Invalid function argument@4-5; Invalid function argument@4-5"),
    E("max(ln...)",
      "3 :: number"),
    E("max(1, ln...)",
      "3 :: number"),
    E("max([]...)",
      "!Error in function call@0-4"),
    E("max(st...)",
      "!Invalid function argument@4-6; Invalid function argument@4-6; Invalid function argument@4-6; Invalid function argument@4-6; Invalid function argument@4-6"),
    E("max(nul...)",
      "!Invalid expanding argument value@4-7"),
    E("max(nulll...)",
      "!Invalid expanding argument value@4-9"),
    E("max(s...)",
      "!Invalid expanding argument value@4-5"),
    E("max(m...)",
      "!Invalid expanding argument value@4-5"),
    E("max(ul...)",
      "unknown(dynamic) :: dynamic"),
    E("max(dyn...)",
      "unknown(dynamic) :: dynamic"),
    E("max(nosuch...)",
      "!Unknown variable@4-10"),
    E("max(senslw...)",
      "!Invalid function argument@4-10; Invalid function argument@4-10"),
    E("upper(ul...)",
      "unknown(dynamic) :: dynamic"),
    E("upper([]...)",
      "!Not enough function arguments@11-12"),
    E("upper([\"A\"]...)",
      "\"A\" :: string"),
    E("jsonencode(1/0)",
      "!Error in function call@0-11"),
    E("jsonencode(sensl)",
      "\"[\\\"a\\\",\\\"b\\\"]\"@sensitive :: string"),
    E("jsonencode(l)",
      "\"[\\\"a\\\",\\\"b\\\",\\\"c\\\"]\" :: string"),
    E("lower(\"ABC\")",
      "\"abc\" :: string"),
    E("max()",
      "!Error in function call@0-4"),
    E("min(1,2,3)",
      "1 :: number"),
    E("min(1,\"x\",3)",
      "!Invalid function argument@7-8"),
    E("min(\"x\",2,\"y\")",
      "!Invalid function argument@5-6; Invalid function argument@11-12"),
    E("upper(\"a\", nosuch)",
      "!Too many function arguments@11-17"),
    E("max(1, 2)[0]",
      "!Invalid index@9-12"),
};

/* [tmpl.eval.wrap] [tmpl.eval.concat] [tmpl.eval.null] [tmpl.eval.convert] [tmpl.eval.unknown]
 * [tmpl.eval.marks] [tmpl.eval.nfc] [tmpl.eval.if] [tmpl.eval.if.marks] [tmpl.eval.for]
 * [tmpl.eval.for.marks] (semantics T1–T23) */
static const eval_case template_cases[] = {
    E("\"a${s}b\"",
      "\"ahellob\" :: string"),
    E("\"\"",
      "\"\" :: string"),
    E("\"${1}\"",
      "1 :: number"),
    E("\"${true}\"",
      "true :: bool"),
    E("\"${null}\"",
      "null(dynamic) :: dynamic"),
    E("\"${[1]}\"",
      "[1] :: tuple([number])"),
    E("\"${[1]}\"[0]",
      "1 :: number"),
    E("\"${\"${true}\"}\"",
      "true :: bool"),
    E("\"${~ n ~}\"",
      "5 :: number"),
    E("\"${s}\"",
      "\"hello\" :: string"),
    E("\"${us}\"",
      "unknown(string) :: string"),
    E("\"${\"\"}${true}\"",
      "\"true\" :: string"),
    E("\"${n ~} \"",
      "\"5\" :: string"),
    E("\" ${~ n}\"",
      "\"5\" :: string"),
    E("\"${n}${\"\"}\"",
      "\"5\" :: string"),
    E("\"%{ for v in [true] }${v}%{ endfor }\"",
      "\"true\" :: string"),
    E("\"%{if true}${n}%{endif}\"",
      "\"5\" :: string"),
    T("${n}",
      "5 :: number"),
    T("hello ${true}",
      "\"hello true\" :: string"),
    T("$",
      "\"$\" :: string"),
    T("a$",
      "\"a$\" :: string"),
    T("%",
      "\"%\" :: string"),
    T("}",
      "\"}\" :: string"),
    E("\"a${null}\"",
      "!Invalid template interpolation value@4-8"),
    E("\"${null}a\"",
      "!Invalid template interpolation value@3-7"),
    E("\"a${l}\"",
      "!Invalid template interpolation value@4-5"),
    E("\"a${m}\"",
      "!Invalid template interpolation value@4-5"),
    E("\"${us}x\"",
      "unknown(string) :: string"),
    E("\"${ul}x\"",
      "unknown(string) :: string"),
    E("\"${dyn}x\"",
      "unknown(string) :: string"),
    E("\"${us}${null}\"",
      "!Invalid template interpolation value@8-12"),
    E("\"${ul}${l}\"",
      "!Invalid template interpolation value@8-9"),
    E("\"${1.5}x\"",
      "\"1.5x\" :: string"),
    E("\"${1e30}x\"",
      "\"1000000000000000000000000000000x\" :: string"),
    E("\"${-0}x\"",
      "\"-0x\" :: string"),
    E("\"${1/3}x\"",
      "\"0.33333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333335x\" :: string"),
    E("\"x${sens}\"",
      "\"xsecret\"@sensitive :: string"),
    E("\"${sens}${other}\"",
      "\"secreto\"@other@sensitive :: string"),
    E("\"${sensu}x\"",
      "unknown(string)@sensitive :: string"),
    E("\"${sensnull}x\"",
      "!Invalid template interpolation value@3-11"),
    E("\"%{ if true }yes%{ else }no%{ endif }\"",
      "\"yes\" :: string"),
    E("\"%{if false}yes%{endif}\"",
      "\"\" :: string"),
    E("\"%{ if \"true\" }yes%{ endif }\"",
      "\"yes\" :: string"),
    E("\"%{ if null }yes%{ endif }\"",
      "!Null condition@7-11"),
    E("\"%{ if 1 }yes%{ endif }\"",
      "!Incorrect condition type@7-8"),
    E("\"%{ if ub }yes%{ endif }\"",
      "unknown(string) :: string"),
    E("\"%{ if sensb }yes%{ endif }\"",
      "\"yes\" :: string"),
    E("\"%{ if true }${nosuch}%{ else }${nosuch2}%{ endif }\"",
      "!Unknown variable@15-21"),
    E("\"%{ if false }${nosuch}%{ else }${nosuch2}%{ endif }\"",
      "!Unknown variable@34-41"),
    E("\"%{ for i, x in l }${i}=${x};%{ endfor }\"",
      "\"0=a;1=b;2=c;\" :: string"),
    E("\"%{ for k, v in m }${k}=${v};%{ endfor }\"",
      "\"10=ten;9=nine;B=z;a=x;b=y;\" :: string"),
    E("\"%{ for v in m }${v};%{ endfor }\"",
      "\"ten;nine;z;x;y;\" :: string"),
    E("\"%{ for x in st }${x};%{ endfor }\"",
      "\"B;a;aa;b;c;\" :: string"),
    E("\"%{ for x in sn }${x};%{ endfor }\"",
      "\"-1.5;1;2;10;100;\" :: string"),
    E("\"%{ for x in nul }${x};%{ endfor }\"",
      "!Iteration over null value@13-16"),
    E("\"%{ for x in s }${x};%{ endfor }\"",
      "!Iteration over non-iterable value@13-14"),
    E("\"%{ for x in n }${x};%{ endfor }\"",
      "!Iteration over non-iterable value@13-14"),
    E("\"%{ for x in ul }${x};%{ endfor }\"",
      "unknown(string) :: string"),
    E("\"%{ for v in lu }${v}%{ endfor }\"",
      "unknown(string) :: string"),
    E("\"%{ for v in lempty }${v}%{ endfor }\"",
      "\"\" :: string"),
    E("\"%{ for v in [null] }${v}%{ endfor }\"",
      "!Invalid template interpolation value@23-24"),
    E("\"%{ for x in l }%{ for y in l }${x}${y} %{ endfor }%{ endfor }\"",
      "\"aa ab ac ba bb bc ca cb cc \" :: string"),
    E("\"%{ if true } %{ if false }a%{ else }b%{ endif } %{ endif }\"",
      "\" b \" :: string"),
    E("\"a ${~ s ~} b\"",
      "\"ahellob\" :: string"),
    E("\"%{ for x in senslw }${x}%{ endfor }\"",
      "\"ab\"@sensitive :: string"),
    E("\"%{ for x in sensl }${x}%{ endfor }\"",
      "\"ab\"@sensitive :: string"),
    E("\"${\"e\"}${\"\\u0301\"}\"",
      "\"é\" :: string"),
    E("\"e${\"\\u0301\"}\" == \"é\"",
      "true :: bool"),
    E("\"%{ for x in [1, [2]] }${x}%{ endfor }\"",
      "!Invalid template interpolation value@25-26"),
    E("\"%{ for x in [us, null] }${x}%{ endfor }\"",
      "!Invalid template interpolation value@27-28"),
    E("\"%{ for x in dyn }${x}%{ endfor }\"",
      "unknown(string) :: string"),
    E("\"${nosuch}a\"",
      "!Unknown variable@3-9"),
    E("\"%{ for x in l }${nosuch}%{ endfor }\"",
      "!Unknown variable@18-24; Unknown variable@18-24; Unknown variable@18-24"),
    E("\"%{ for x in tu }${x}%{ endfor }\"",
      "unknown(string) :: string"),
    E("\"%{ for x in [dyn] }${x}%{ endfor }\"",
      "unknown(string) :: string"),
    E("\"%{ for x in [sens, \"b\"] }${x}%{ endfor }\"",
      "\"secretb\"@sensitive :: string"),
    E("<<EOT\n${n}\nEOT\n",
      "\"5\\n\" :: string"),
    E("<<EOT\n%{ for x in l ~}\n  - ${x}\n%{ endfor ~}\nEOT\n",
      "\"  - a\\n  - b\\n  - c\\n\" :: string"),
};

/* [for.coll] [for.order] [for.scope] [for.unknown] [for.empty] [for.cond.early]
 * [for.cond] [for.errors] [for.key] [for.duplicate] [for.group] [for.tuple]
 * [for.object] [mark.prop.for] (semantics
 * F1–F22; the for rules are provisional, as in eval_template.c) */
static const eval_case for_cases[] = {
    E("[for x in l: x]",
      "[\"a\",\"b\",\"c\"] :: tuple([string,string,string])"),
    E("[for i, v in l: \"${i}${v}\"]",
      "[\"0a\",\"1b\",\"2c\"] :: tuple([string,string,string])"),
    E("{for k, v in m: k => v}",
      "{\"10\"=\"ten\",\"9\"=\"nine\",\"B\"=\"z\",\"a\"=\"x\",\"b\"=\"y\"} :: object({\"10\"=string,\"9\"=string,B=string,a=string,b=string})"),
    E("[for v in m: v]",
      "[\"ten\",\"nine\",\"z\",\"x\",\"y\"] :: tuple([string,string,string,string,string])"),
    E("[for v in o: v]",
      "[\"x\",1,list[1,2]] :: tuple([string,number,list(number)])"),
    E("[for k, v in st: k]",
      "[\"B\",\"a\",\"aa\",\"b\",\"c\"] :: tuple([string,string,string,string,string])"),
    E("[for x in sn: x]",
      "[-1.5,1,2,10,100] :: tuple([number,number,number,number,number])"),
    E("[for v in \"abc\": v]",
      "!Iteration over non-iterable value@10-15"),
    E("[for v in 1: v]",
      "!Iteration over non-iterable value@10-11"),
    E("[for v in nul: v]",
      "!Iteration over null value@10-13"),
    E("[for v in nulll: v]",
      "!Iteration over null value@10-15"),
    E("[for v in us: v]",
      "!Iteration over non-iterable value@10-12"),
    E("[for v in ul: v]",
      "unknown(dynamic) :: dynamic"),
    E("[for v in dyn: v]",
      "unknown(dynamic) :: dynamic"),
    E("[for v in []: v]",
      "[] :: tuple([])"),
    E("[for v in {}: v]",
      "[] :: tuple([])"),
    E("{for v in lempty: v => v}",
      "{} :: object({})"),
    E("[for v in lempty: nosuch]",
      "[] :: tuple([])"),
    E("[for v in lu: v]",
      "[\"a\",unknown(string)] :: tuple([string,string])"),
    E("[for v in stu: v]",
      "[\"a\",unknown(string)] :: tuple([string,string])"),
    E("[for v in mu: v]",
      "[\"x\",unknown(string)] :: tuple([string,string])"),
    E("{for v in l: v => us}",
      "{\"a\"=unknown(string),\"b\"=unknown(string),\"c\"=unknown(string)} :: object({a=string,b=string,c=string})"),
    E("{for v in ln: v => v}",
      "{\"1\"=1,\"2\"=2,\"3\"=3} :: object({\"1\"=number,\"2\"=number,\"3\"=number})"),
    E("{for v in [true]: v => v}",
      "{\"true\"=true} :: object({true=bool})"),
    E("{for i, v in l: i => v}",
      "{\"0\"=\"a\",\"1\"=\"b\",\"2\"=\"c\"} :: object({\"0\"=string,\"1\"=string,\"2\"=string})"),
    E("{for v in l: null => v}",
      "!Invalid object key@13-17"),
    E("{for v in l: [v] => v}",
      "!Invalid object key@13-16"),
    E("{for v in [us]: v => v}",
      "unknown(dynamic) :: dynamic"),
    E("{for v in l: us => v}",
      "unknown(dynamic) :: dynamic"),
    E("{for v in l: \"k\" => v}",
      "!Duplicate object key@13-16; Duplicate object key@13-16"),
    E("{for i, v in [\"a\",\"a\",\"b\"]: v => i...}",
      "{\"a\"=[0,1],\"b\"=[2]} :: object({a=tuple([number,number]),b=tuple([number])})"),
    E("{for i, v in [\"b\",\"a\",\"b\"]: v => i...}",
      "{\"a\"=[1],\"b\"=[0,2]} :: object({a=tuple([number]),b=tuple([number,number])})"),
    E("{for v in [1, \"x\"]: \"a\" => v...}",
      "{\"a\"=[1,\"x\"]} :: object({a=tuple([number,string])})"),
    E("{for v in l: v => v... if v != \"a\"}",
      "{\"b\"=[\"b\"],\"c\"=[\"c\"]} :: object({b=tuple([string]),c=tuple([string])})"),
    E("[for v in l: v if v != \"b\"]",
      "[\"a\",\"c\"] :: tuple([string,string])"),
    E("[for i, v in l: v if i < 2]",
      "[\"a\",\"b\"] :: tuple([string,string])"),
    E("[for v in l: v if \"true\"]",
      "[\"a\",\"b\",\"c\"] :: tuple([string,string,string])"),
    E("[for v in lempty: v if 1]",
      "!Invalid 'for' condition@23-24"),
    E("[for v in lempty: v if null]",
      "!Condition is null@23-27"),
    E("[for v in l: v if nosuch]",
      "!Unknown variable@18-24"),
    E("[for v in l: v if ub]",
      "unknown(dynamic) :: dynamic"),
    E("[for v in l: v if v == us]",
      "unknown(dynamic) :: dynamic"),
    E("[for x, y in l: x + y]",
      "!Invalid operand@20-21; Invalid operand@20-21; Invalid operand@20-21"),
    E("[for x in l: k]",
      "[\"outer-k\",\"outer-k\",\"outer-k\"] :: tuple([string,string,string])"),
    E("[for x in [\"a\"]: [for x in [\"b\"]: x]]",
      "[[\"b\"]] :: tuple([tuple([string])])"),
    E("[for x in l: [for y in l: \"${x}${y}\"]]",
      "[[\"aa\",\"ab\",\"ac\"],[\"ba\",\"bb\",\"bc\"],[\"ca\",\"cb\",\"cc\"]] :: tuple([tuple([string,string,string]),tuple([string,string,string]),tuple([string,string,string])])"),
    E("[for x in x: x]",
      "!Iteration over non-iterable value@10-11"),
    E("[for v, v in l: v]",
      "[\"a\",\"b\",\"c\"] :: tuple([string,string,string])"),
    E("[for in in l: in]",
      "[\"a\",\"b\",\"c\"] :: tuple([string,string,string])"),
    E("[for if in l: if]",
      "[\"a\",\"b\",\"c\"] :: tuple([string,string,string])"),
    E("[for for in l: for]",
      "[\"a\",\"b\",\"c\"] :: tuple([string,string,string])"),
    E("[for x, in in l: in]",
      "[\"a\",\"b\",\"c\"] :: tuple([string,string,string])"),
    E("[for x in [1, \"a\"]: x]",
      "[1,\"a\"] :: tuple([number,string])"),
    E("[for v in senslw: v]",
      "[\"a\",\"b\"]@sensitive :: tuple([string,string])"),
    E("[for v in sensl: v]",
      "[\"a\",\"b\"@sensitive] :: tuple([string,string])"),
    E("[for x in l: x if sensb]",
      "[\"a\",\"b\",\"c\"]@sensitive :: tuple([string,string,string])"),
    E("{for x in l: sensk => x...}",
      "{\"a\"=[\"a\",\"b\",\"c\"]}@sensitive :: object({a=tuple([string,string,string])})"),
    E("{for k, v in sensm: k => v}",
      "{\"a\"=\"x\"}@sensitive :: object({a=string})"),
    E("{for x in l: x => sens}",
      "{\"a\"=\"secret\"@sensitive,\"b\"=\"secret\"@sensitive,\"c\"=\"secret\"@sensitive} :: object({a=string,b=string,c=string})"),
    E("[for x in l: x] == l",
      "false :: bool"),
    E("[for x in l: x] == [\"a\",\"b\",\"c\"]",
      "true :: bool"),
    E("[for k, v in {for x in [10, 9, 1]: x => x}: k]",
      "[\"1\",\"10\",\"9\"] :: tuple([string,string,string])"),
    E("[for x in sensul: x]",
      "unknown(dynamic) :: dynamic"),
    E("[for v in l: v if v == \"a\" ? null : true]",
      "!Invalid 'for' condition@18-40"),
    E("[for v in l: v if v == \"a\" ? true : null]",
      "!Invalid 'for' condition@18-40"),
    E("[for v in l: v if v == \"a\" ? true : 1]",
      "!Inconsistent conditional result types@29-37"),
    E("{for v in l: v => v if v == \"b\" ? null : true}",
      "!Invalid 'for' condition@23-45"),
    E("{for v in l: (v == \"b\" ? null : v) => v}",
      "!Invalid object key@13-34"),
    E("{for v in l: (v == \"a\" ? us : v) => v}",
      "unknown(dynamic) :: dynamic"),
    E("{for v in [\"a\",\"b\",\"a\",\"a\"]: v => 1}",
      "!Duplicate object key@29-30; Duplicate object key@29-30"),
    E("[for v in l: v if v == \"b\" ? ul : true]",
      "!Inconsistent conditional result types@29-38"),
    E("{for v in l: v => v if v == \"b\" ? ul : true}",
      "!Inconsistent conditional result types@34-43"),
    E("[for v in l: nosuch if v == \"x\"]",
      "[] :: tuple([])"),
    E("[for v in l: v if ub ? nosuch : true]",
      "unknown(dynamic) :: dynamic"),
    E("[for v in l: upper(v)]",
      "[\"A\",\"B\",\"C\"] :: tuple([string,string,string])"),
    E("[for v in l: nosuchfn(v)]",
      "!Call to unknown function@13-21; Call to unknown function@13-21; Call to unknown function@13-21"),
    E("[for i, v in t: i]",
      "[0,1,2] :: tuple([number,number,number])"),
    E("{for i, v in t: i => v}",
      "{\"0\"=\"a\",\"1\"=1,\"2\"=true} :: object({\"0\"=string,\"1\"=number,\"2\"=bool})"),
    E("{for k, v in o: k => v}",
      "{\"a\"=\"x\",\"b\"=1,\"c\"=list[1,2]} :: object({a=string,b=number,c=list(number)})"),
    E("[for v in nosuch: v]",
      "!Unknown variable@10-16"),
};

/* [splat.source] [splat.null] [splat.wrap] [splat.unknown] [splat.each]
 * [splat.type] [splat.nested] [mark.prop.splat] (semantics P1–P16) */
static const eval_case splat_cases[] = {
    E("lo[*].name",
      "list[\"a\",\"b\"] :: list(string)"),
    E("lo[*].tags[0]",
      "list[\"x\",\"z\"] :: list(string)"),
    E("lo[*][\"name\"]",
      "list[\"a\",\"b\"] :: list(string)"),
    E("lo[*].tags[*]",
      "list[list[\"x\",\"y\"],list[\"z\"]] :: list(list(string))"),
    E("lo.*.name",
      "list[\"a\",\"b\"] :: list(string)"),
    E("lo.*.tags[0]",
      "list[\"x\",\"y\"] :: list(string)"),
    E("lo.*.tags.0",
      "list[\"x\",\"z\"] :: list(string)"),
    E("lo.*.tags[*]",
      "list[list[\"x\",\"y\"],list[\"z\"]] :: list(list(string))"),
    E("lo[*].*",
      "list[[{\"id\"=1,\"name\"=\"a\",\"tags\"=list[\"x\",\"y\"]}],[{\"id\"=2,\"name\"=\"b\",\"tags\"=list[\"z\"]}]] :: list(tuple([object({id=number,name=string,tags=list(string)})]))"),
    E("l[*]",
      "list[\"a\",\"b\",\"c\"] :: list(string)"),
    E("st[*]",
      "list[\"B\",\"a\",\"aa\",\"b\",\"c\"] :: list(string)"),
    E("so[*].a",
      "list[\"y\",\"z\"] :: list(string)"),
    E("t[*]",
      "[\"a\",1,true] :: tuple([string,number,bool])"),
    E("to[*].name",
      "[\"a\",2] :: tuple([string,number])"),
    E("[1,2][*]",
      "[1,2] :: tuple([number,number])"),
    E("s[*]",
      "[\"hello\"] :: tuple([string])"),
    E("n[*]",
      "[5] :: tuple([number])"),
    E("m[*]",
      "[map{\"10\"=\"ten\",\"9\"=\"nine\",\"B\"=\"z\",\"a\"=\"x\",\"b\"=\"y\"}] :: tuple([map(string)])"),
    E("o[*].a",
      "[\"x\"] :: tuple([string])"),
    E("{a=1}[*].a",
      "[1] :: tuple([number])"),
    E("mo[*].k1",
      "[{\"name\"=\"a\"}] :: tuple([object({name=string})])"),
    E("nul[*]",
      "[] :: tuple([])"),
    E("nul.*",
      "[] :: tuple([])"),
    E("nuls[*]",
      "[] :: tuple([])"),
    E("nullm[*]",
      "[] :: tuple([])"),
    E("nullo[*].a",
      "[] :: tuple([])"),
    E("nulll[*]",
      "!Splat of null value@0-5"),
    E("nullt[*]",
      "!Splat of null value@0-5"),
    E("nullset[*]",
      "!Splat of null value@0-7"),
    E("lempty[*]",
      "list[] :: list(string)"),
    E("sempty[*]",
      "list[] :: list(string)"),
    E("lempty[*].x",
      "!Unsupported attribute@9-11"),
    E("tempty[*].x",
      "[] :: tuple([])"),
    E("ul[*]",
      "unknown(list(string)) :: list(string)"),
    E("ulo[*].name",
      "unknown(list(string)) :: list(string)"),
    E("ust[*]",
      "unknown(list(string)) :: list(string)"),
    E("ut[*]",
      "unknown(tuple([string,number])) :: tuple([string,number])"),
    E("ulo[*].zz",
      "!Unsupported attribute@6-9"),
    E("dyn[*]",
      "unknown(dynamic) :: dynamic"),
    E("dyn[*].a",
      "unknown(dynamic) :: dynamic"),
    E("us[*]",
      "unknown(dynamic) :: dynamic"),
    E("um[*]",
      "unknown(dynamic) :: dynamic"),
    E("uo[*]",
      "unknown(dynamic) :: dynamic"),
    E("uo[*].a",
      "unknown(dynamic) :: dynamic"),
    E("uo[*].zz",
      "!Unsupported attribute@5-8"),
    E("lo[*].zz",
      "!Unsupported attribute@5-8; Unsupported attribute@5-8"),
    E("l[*][0]",
      "!Invalid index@4-7; Invalid index@4-7; Invalid index@4-7"),
    E("[[1],\"a\"][*][0]",
      "!Invalid index@12-15"),
    E("lu[*]",
      "list[\"a\",unknown(string)] :: list(string)"),
    E("tu[*]",
      "[\"a\",unknown(dynamic)] :: tuple([string,dynamic])"),
    E("senslw[*]",
      "list[\"a\",\"b\"]@sensitive :: list(string)"),
    E("sensl[*]",
      "list[\"a\",\"b\"@sensitive] :: list(string)"),
    E("senso[*].a",
      "[\"x\"@sensitive] :: tuple([string])"),
    E("sensnull[*]",
      "[] :: tuple([])"),
    E("sensu[*]",
      "unknown(dynamic) :: dynamic"),
    E("ll[*][*]",
      "list[list[\"a\"],list[\"b\",\"c\"]] :: list(list(string))"),
    E("ll[*][0]",
      "list[\"a\",\"b\"] :: list(string)"),
    E("lo[*].name[*]",
      "list[[\"a\"],[\"b\"]] :: list(tuple([string]))"),
    E("[[\"a\"], null][*][*]",
      "[[\"a\"],[]] :: tuple([tuple([string]),tuple([])])"),
    E("lo[*].id + 1",
      "!Invalid operand@0-8"),
    E("lo[*].name == [\"a\",\"b\"]",
      "false :: bool"),
    E("nosuch[*].a",
      "!Unknown variable@0-6"),
    E("sensul[*]",
      "unknown(list(string)) :: list(string)"),
    E("l[*][nosuch]",
      "!Unknown variable@5-11; Unknown variable@5-11; Unknown variable@5-11"),
    E("[for x in l: x][*]",
      "[\"a\",\"b\",\"c\"] :: tuple([string,string,string])"),
    E("lo[*].tags[*][0]",
      "!Invalid index@13-16; Invalid index@13-16; Invalid index@13-16"),
    E("lo.*.tags.0[0]",
      "\"x\" :: string"),
};



/* ---- Tests beyond the tables ---- */

/* [call.arity] [call.convert] [call.null] [call.unknown] [call.dynamic]
 * [call.marks] [call.expand] [call.error] (semantics FN3–FN12) Calls of
 * the test functions, as semantics.md's verified examples. */
static const eval_case test_function_cases[] = {
    E("va()", "!Not enough function arguments@3-4"),
    E("va(1)", "1 :: number"),
    E("va(\"x\", \"1\")", "2 :: number"),
    E("va(\"x\", \"a\")", "!Invalid function argument@9-10"),
    E("va(1, \"x\", nosuch)", "!Invalid function argument@7-8; Unknown variable@11-17"),
    E("strict(null)", "!Invalid function argument@7-11"),
    E("nullok(null)", "\"was-null\" :: string"),
    E("anyarg(null)", "!Invalid function argument@7-11"),
    E("strict(us)", "unknown(string) :: string"),
    E("unkok(us)", "\"was-unknown\" :: string"),
    E("strict(dyn)", "unknown(string) :: string"),
    E("anyarg(dyn)", "unknown(dynamic) :: dynamic"),
    E("strict(sens)", "\"secret\"@sensitive :: string"),
    E("strict(sensu)", "unknown(string) :: string"),
    E("vaall(l...)", "3 :: number"),
    E("vaall(t...)", "3 :: number"),
    E("vaall(st...)", "5 :: number"),
    E("vaall(1, l...)", "4 :: number"),
    E("vaall([]...)", "0 :: number"),
    E("vaall(senslw...)", "2 :: number"),
    E("vaall(dyn...)", "unknown(dynamic) :: dynamic"),
    E("vaall(ul...)", "unknown(dynamic) :: dynamic"),
    E("vaall(nul...)", "!Invalid expanding argument value@6-9"),
    E("vaall(s...)", "!Invalid expanding argument value@6-7"),
    E("va([\"x\", 1, 2]...)", "3 :: number"),
    E("strict([\"a\", \"b\"]...)", "!Too many function arguments@7-17"),
    E("strict(\"a\", nosuch)", "!Too many function arguments@12-18"),
    E("strict(nosuch)", "!Unknown variable@7-13"),
    E("fail(\"a\", \"bad\")", "!Invalid function argument@11-14"),
    E("fail(\"a\", \"x\")", "!Error in function call@0-5"),
    E("fail([\"a\", \"bad\"]...)", "!Invalid function argument@5-17"),
    E("[for x in l: strict(x)]", "[\"a\",\"b\",\"c\"] :: tuple([string,string,string])"),
};

static void expect_diag(const char *input, size_t i, const char *summary, const char *detail,
                        long ctx_start, long ctx_end)
{
    diag_copy d;

    evaluate_diags(input, &d);
    if (i >= d.n) {
        check_(0, input, __FILE__, __LINE__);
        return;
    }
    CHECK_STR(d.summary[i], summary);
    CHECK_STR(d.detail[i], detail);
    if (ctx_start < 0)
        CHECK(!d.has_context[i]);
    else
        CHECK(d.has_context[i] && d.context[i][0] == (size_t)ctx_start
              && d.context[i][1] == (size_t)ctx_end);
}

/* The details and context ranges of diagnostics, as the reference reports
 * them; those of the test functions follow upstream's wording, and the
 * "did you mean" suggestions tfexpr's rule (the first close name in byte
 * order, [call.suggestion]). */
static void test_details(void)
{
    const char *no_elem = "The given key does not identify an element in this collection value";
    char buf[512];

    snprintf(buf, sizeof(buf), "%s: indexing a sequence requires a whole number, but the "
             "given index has a fractional part.", no_elem);
    expect_diag("l[1.5]", 0, "Invalid index", buf, -1, 0);
    snprintf(buf, sizeof(buf), "%s: a negative number is not a valid index for a sequence.",
             no_elem);
    expect_diag("l[-1]", 0, "Invalid index", buf, -1, 0);
    snprintf(buf, sizeof(buf), "%s: the given index is greater than or equal to the length of "
             "the collection.", no_elem);
    expect_diag("l[3]", 0, "Invalid index", buf, -1, 0);
    snprintf(buf, sizeof(buf), "%s: the collection has no elements.", no_elem);
    expect_diag("lempty[0]", 0, "Invalid index", buf, -1, 0);
    snprintf(buf, sizeof(buf), "%s.", no_elem);
    expect_diag("l[100]", 0, "Invalid index", buf, -1, 0);
    expect_diag("senslw[2]", 0, "Invalid index", buf, -1, 0);
    snprintf(buf, sizeof(buf), "%s: a number is required.", no_elem);
    expect_diag("l[\"a\"]", 0, "Invalid index", buf, -1, 0);
    snprintf(buf, sizeof(buf), "%s. An object only supports looking up attributes by name, not "
             "by numeric index.", no_elem);
    expect_diag("o[0]", 0, "Invalid index", buf, -1, 0);
    expect_diag("st[0]", 0, "Invalid index",
                "Elements of a set are identified only by their value and don't have any "
                "separate index or key to select with, so it's only possible to perform "
                "operations across all elements of the set.", -1, 0);
    expect_diag("s[0]", 0, "Invalid index", "This value does not have any indices.", -1, 0);
    expect_diag("nul[0]", 0, "Attempt to index null value",
                "This value is null, so it does not have any indices.", -1, 0);
    expect_diag("l[null]", 0, "Invalid index", "Can't use a null value as an indexing key.", -1,
                0);
    expect_diag("uo.zz", 0, "Unsupported attribute",
                "This object does not have an attribute named \"zz\".", -1, 0);
    expect_diag("m.zz", 0, "Missing map element",
                "This map does not have an element with the key \"zz\".", -1, 0);
    expect_diag("nul.a", 0, "Attempt to get attribute from null value",
                "This value is null, so it does not have any attributes.", -1, 0);
    expect_diag("us.a", 0, "Unsupported attribute",
                "Can't access attributes on a primitive-typed value (string).", -1, 0);
    expect_diag("lo.name", 0, "Unsupported attribute",
                "Can't access attributes on a list of objects. Did you mean to access attribute "
                "\"name\" for a specific element of the list, or across all elements of the "
                "list?", -1, 0);
    expect_diag("lo.zz", 0, "Unsupported attribute",
                "Can't access attributes on a list of objects. Did you mean to access an "
                "attribute for a specific element of the list, or across all elements of the "
                "list?", -1, 0);
    expect_diag("so.a", 0, "Unsupported attribute",
                "Can't access attributes on a set of objects. Did you mean to access an "
                "attribute across all elements of the set?", -1, 0);
    expect_diag("t.a", 0, "Unsupported attribute", "This value does not have any attributes.",
                -1, 0);
    /* [var.unknown] [call.suggestion] the first close name in byte order */
    expect_diag("x-1", 0, "Unknown variable",
                "There is no variable named \"x-1\". Did you mean \"a-b\"?", -1, 0);
    expect_diag("nosuch", 0, "Unknown variable", "There is no variable named \"nosuch\".", -1, 0);
    expect_diag("uper(\"a\")", 0, "Call to unknown function",
                "There is no function named \"uper\". Did you mean \"upper\"?", 0, 9);
    expect_diag("[for x in l: uper(x)]", 0, "Call to unknown function",
                "There is no function named \"uper\".", 13, 20);
    /* [op.order] [op.null] */
    expect_diag("\"a\" < \"b\"", 0, "Invalid operand",
                "Unsuitable value for left operand: a number is required.", 0, 9);
    expect_diag("\"a\" < \"b\"", 1, "Invalid operand",
                "Unsuitable value for right operand: a number is required.", 0, 9);
    expect_diag("-true", 0, "Invalid operand", "Unsuitable value for unary operand: number "
                "required.", 0, 5);
    expect_diag("null + 1", 0, "Operation failed",
                "Error during operation: argument must not be null.", -1, 0);
    /* [cond.type-error.reason] [cond.null] [cond.bool] */
    expect_diag("true ? true : 1", 0, "Inconsistent conditional result types",
                "The true and false result expressions must have consistent types. The 'true' "
                "value is bool, but the 'false' value is number.", 0, 15);
    expect_diag("true ? [1] : [true, 2]", 0, "Inconsistent conditional result types",
                "The true and false result expressions must have consistent types. The 'true' "
                "tuple has length 1, but the 'false' tuple has length 2.", 0, 22);
    expect_diag("true ? {a = 1} : {b = true}", 0, "Inconsistent conditional result types",
                "The true and false result expressions must have consistent types. The 'true' "
                "value includes object attribute \"a\", which is absent in the 'false' value.",
                0, 27);
    expect_diag("true ? {a={b=1}} : {a={b=true}}", 0, "Inconsistent conditional result types",
                "The true and false result expressions must have consistent types. Type "
                "mismatch for object attribute \"a\": Type mismatch for object attribute \"b\": "
                "The 'true' value is number, but the 'false' value is bool.", 0, 31);
    expect_diag("true ? lo : [{name=\"x\"}]", 0, "Inconsistent conditional result types",
                "The true and false result expressions must have consistent types. The 'true' "
                "value is list of object, but the 'false' value is tuple.", 0, 24);
    expect_diag("null ? 1 : 2", 0, "Null condition",
                "The condition value is null. Conditions must either be true or false.", 0, 12);
    expect_diag("1 ? 1 : 2", 0, "Incorrect condition type",
                "The condition expression must be of type bool.", 0, 9);
    /* [cons.object.key.*] */
    expect_diag("{(nul) = 1}", 0, "Null value as key", "Can't use a null value as a key.", -1,
                0);
    expect_diag("{([1]) = 1}", 0, "Incorrect key type",
                "Can't use this value as a key: string required.", -1, 0);
    expect_diag("{a.b = 1}", 0, "Ambiguous attribute key",
                "If this expression is intended to be a reference, wrap it in parentheses. If "
                "it's instead intended as a literal name containing periods, wrap it in quotes "
                "to create a string literal.", -1, 0);
    /* [call.*] */
    expect_diag("upper()", 0, "Not enough function arguments",
                "Function \"upper\" expects 1 argument(s). Missing value for \"str\".", 0, 7);
    expect_diag("va()", 0, "Not enough function arguments",
                "Function \"va\" expects at least 1 argument(s). Missing value for \"first\".",
                0, 4);
    expect_diag("upper(\"a\", \"b\")", 0, "Too many function arguments",
                "Function \"upper\" expects only 1 argument(s).", 0, 15);
    expect_diag("max(\"ab\", 1)", 0, "Invalid function argument",
                "Invalid value for \"numbers\" parameter: a number is required.", 0, 12);
    expect_diag("max(nul...)", 0, "Invalid expanding argument value",
                "The expanding argument (indicated by ...) must not be null.", 0, 11);
    expect_diag("max(m...)", 0, "Invalid expanding argument value",
                "The expanding argument (indicated by ...) must be of a tuple, list, or set "
                "type.", 0, 9);
    expect_diag("fail(\"a\", \"bad\")", 0, "Invalid function argument",
                "Invalid value for \"b\" parameter: bad b.", 0, 16);
    expect_diag("fail(\"a\", \"x\")", 0, "Error in function call",
                "Call to function \"fail\" failed: plain failure.", 0, 14);
    /* [tmpl.eval.*] */
    expect_diag("\"a${null}\"", 0, "Invalid template interpolation value",
                "The expression result is null. Cannot include a null value in a string "
                "template.", 0, 10);
    expect_diag("\"a${l}\"", 0, "Invalid template interpolation value",
                "Cannot include the given value in a string template: string required.", 0, 7);
    /* [for.*] */
    expect_diag("[for v in \"abc\": v]", 0, "Iteration over non-iterable value",
                "A value of type string cannot be used as the collection in a 'for' "
                "expression.", 0, 19);
    expect_diag("[for v in nul: v]", 0, "Iteration over null value",
                "A null value cannot be used as the collection in a 'for' expression.", 0, 17);
    expect_diag("{for v in l: \"k\" => v}", 0, "Duplicate object key",
                "Two different items produced the key \"k\" in this 'for' expression. If "
                "duplicates are expected, use the ellipsis (...) after the value expression to "
                "enable grouping by key.", 0, 22);
    expect_diag("[for v in l: v if null]", 0, "Condition is null",
                "The value of the 'if' clause must not be null.", 0, 23);
    expect_diag("[for v in l: v if 1]", 0, "Invalid 'for' condition",
                "The 'if' clause value is invalid: bool required.", 0, 20);
    expect_diag("{for v in l: null => v}", 0, "Invalid object key",
                "Key expression in 'for' expression must not produce a null value.", 0, 23);
    /* [splat.null] */
    expect_diag("nulll[*]", 0, "Splat of null value",
                "Splat expressions (with the * symbol) cannot be applied to null sequences.", 0,
                8);
}

/* [var.none] [call.none] [var.lookup] Contexts: none at all, scopes
 * without tables, inner scopes shadowing outer ones. */
static void test_environments(void)
{
    static const tfx_str inner_names[] = {{"n", 1}, {"zz", 2}};
    const tfx_value *inner_values[2];
    tfx_env inner;
    tfx_env empty;

    CHECK_STR(evaluate_with(false, "x", NULL, NULL), "!Variables not allowed@0-1");
    CHECK_STR(evaluate_with(false, "upper(\"a\")", NULL, NULL),
              "!Function calls not allowed@0-10");
    CHECK_STR(evaluate_with(false, "[for x in [1]: x]", NULL, NULL), "[1] :: tuple([number])");
    CHECK_STR(evaluate_with(false, "[for x in [1]: y]", NULL, NULL), "!Unknown variable@15-16");
    CHECK_STR(evaluate_with(false, "[[1][*], {a = 1}]", NULL, NULL),
              "[[1],{\"a\"=1}] :: tuple([tuple([number]),object({a=number})])");

    /* a scope without tables passes lookups to its parent */
    memset(&empty, 0, sizeof(empty));
    empty.parent = &fixture_env;
    CHECK_STR(evaluate_with(false, "upper(s)", &empty, NULL), "\"HELLO\" :: string");

    /* an inner table shadows the outer one; other names go outward */
    inner_values[0] = tfx_value_bool(true);
    inner_values[1] = &tfx_value_dynamic_null;
    memset(&inner, 0, sizeof(inner));
    inner.parent = &fixture_env;
    inner.has_variables = true;
    inner.var_names = inner_names;
    inner.var_values = inner_values;
    inner.nvars = 2;
    CHECK_STR(evaluate_with(false, "[n, zz, s]", &inner, NULL),
              "[true,null(dynamic),\"hello\"] :: tuple([bool,dynamic,string])");

    /* functions without names to suggest */
    memset(&empty, 0, sizeof(empty));
    empty.has_functions = true;
    empty.function = lookup_function;
    {
        diag_copy d;
        tfx_env saved = fixture_env;

        fixture_env = empty;
        evaluate_diags("uper(\"a\")", &d);
        fixture_env = saved;
        CHECK(d.n == 1);
        CHECK_STR(d.detail[0], "There is no function named \"uper\".");
    }
}

/* [limit.eval] [limit.eval.steps] [limit.eval.depth] [limit.eval.string]
 * [limit.eval.items] [limit.eval.memory] A limit ends the evaluation with one resource.limit
 * error whose subject is the whole expression; the diagnostics before it
 * are dropped. */
static void test_limits(void)
{
    tfx_ctx_limits l;

    tfx_ctx_limits_init(&l);
    l.max_steps = 5;
    CHECK_STR(evaluate_with(false, "[1, 2, 3, 4, 5, 6, 7]", &fixture_env, &l),
              "!Evaluation step limit exceeded@0-21");
    CHECK_STR(evaluate_with(false, "[nosuch, 2, 3, 4, 5, 6]", &fixture_env, &l),
              "!Evaluation step limit exceeded@0-23");
    CHECK_STR(evaluate_with(false, "[1, 2, 3]", &fixture_env, &l),
              "[1,2,3] :: tuple([number,number,number])");

    tfx_ctx_limits_init(&l);
    l.max_depth = 3;
    CHECK_STR(evaluate_with(false, "[[[[1]]]]", &fixture_env, &l), "!Nesting too deep@0-9");
    CHECK_STR(evaluate_with(false, "[[1]]", &fixture_env, &l),
              "[[1]] :: tuple([tuple([number])])");

    tfx_ctx_limits_init(&l);
    l.max_string_bytes = 12;
    CHECK_STR(evaluate_with(false, "\"${s}${s}${s}\"", &fixture_env, &l),
              "!String length limit exceeded@0-14");
    CHECK_STR(evaluate_with(false, "\"${s}${s}\"", &fixture_env, &l),
              "\"hellohello\" :: string");

    tfx_ctx_limits_init(&l);
    l.max_collection_items = 2;
    CHECK_STR(evaluate_with(false, "[for x in l: x]", &fixture_env, &l),
              "!Collection size limit exceeded@0-15");

    tfx_ctx_limits_init(&l);
    l.max_memory_bytes = 4096;
    CHECK_STR(evaluate_with(false, "[for x in [1,2,3,4,5,6,7,8,9,10]: [for y in l: \"${x}${y}\"]]",
                            &fixture_env, &l),
              "!Memory limit exceeded@0-59");
}

/* [eval.literal] [call.lookup] Literal values and called functions taken
 * from the evaluation's cache (cached_literal_value, cached_function)
 * against new ones: a tuple of random number and string literals and
 * calls as the body of a `for` over three elements (from the second
 * iteration on, the cache's, or new ones where a slot was taken by
 * another node) and the same tuple written three times (each literal or
 * call a node of its own, evaluated once: the general paths). */
static void test_literal_cache(void)
{
    static const char *const lits[] = {
        "0", "7", "100", "1.5", "0.1", "-3", "1e3", "12345678901234567890123",
        "\"\"", "\"item-\"", "\"e\\u0301\"", "\"\\u212b\"", "\"a\\nb\"", "true", "null",
        "upper(\"ab\")", "max(1, 2.5)", "tostring(7)", "length([1, 2])", "format(\"%d\", 3)",
        "lower(upper(\"x\"))",
    };
    static char body[3000];
    static char once[10000];
    static char cached[10000];
    uint32_t state = 2024u;

    for (int round = 0; round < 200; round++) {
        size_t k = 1 + (size_t)(round % 90);

        body[0] = '\0';
        for (size_t i = 0; i < k; i++) {
            state = state * 1103515245u + 12345u;
            append(body, sizeof(body), "%s%s", i == 0 ? "" : ", ",
                   lits[(state >> 16) % TFX_COUNTOF(lits)]);
        }
        snprintf(cached, sizeof(cached), "[for i in [1, 2, 3] : [%s]]", body);
        snprintf(once, sizeof(once), "[[%s], [%s], [%s]]", body, body, body);
        snprintf(cached, sizeof(cached), "%s", evaluate(false, cached));
        CHECK_STR(cached, evaluate(false, once));
    }
}

/* [for.group] The grouping of a `for` by hashing (tfx_ev_group) against
 * its general path (a stable sort of all the keys) on random keys from
 * pools of different sizes, with values that tell the elements apart,
 * of one type or of two. */
static void group_random(tfx_ctx *ctx, void *arg)
{
    static const char *const pool[] = {"a", "b", "", "ab", "item-1", "item-12", "item-2",
                                       "\xc3\xa9", "z", "item-123456789012345", "B", "a\x01"};
    uint32_t state = 77u;

    (void)arg;
    for (int round = 0; round < 200; round++) {
        size_t count = (size_t)(round % 50) * (round < 190 ? 1 : 40);
        size_t npool = 1 + (size_t)round % TFX_COUNTOF(pool);
        tfx_str *names = tfx_ctx_alloc(ctx, (count + 1) * sizeof *names);
        const tfx_value **vals = tfx_ctx_alloc_array(ctx, count + 1, sizeof(const tfx_value *));
        const char *fast;

        for (size_t i = 0; i < count; i++) {
            const char *k;

            state = state * 1103515245u + 12345u;
            k = pool[(state >> 16) % npool];
            names[i] = (tfx_str){k, strlen(k)};
            /* even rounds: every value a number (one type, the shared
             * tuple types; round 192 has a group too long for them) */
            vals[i] = i % 3 == 0 || round % 2 == 0 ? tfx_value_int(ctx, (int64_t)i)
                                                   : tfx_value_string(ctx, k, strlen(k));
        }
        fast = tfx_render_debug(ctx, tfx_ev_group(ctx, names, vals, count));
        CHECK_STR(fast, tfx_render_debug(ctx, tfx_ev_group_general(ctx, names, vals, count)));
    }
}

static void test_group_random(void)
{
    tfx_ctx ctx;

    if (!tfx_ctx_init(&ctx, NULL)) {
        CHECK(false);
        return;
    }
    CHECK(tfx_ctx_try(&ctx, group_random, NULL));
    tfx_ctx_free(&ctx);
}

/* [for.key] The keys of an object `for` over 1024 elements or more are
 * worked out in a scratch ctx (scratch_key), those of smaller ones in the
 * evaluation's own (element_key): the same object over 2000 elements
 * made at once and merged from four `for`s over 500, with random key
 * expressions (strings made on the way, numbers, marks, literals); and
 * the same failure when a limit is reached inside a key. */
static void test_scratch_keys(void)
{
    static const char *const keys[] = {
        "tostring(x)", "\"k${x % 7}-${x}\"", "upper(format(\"%05x\", x))",
        "sensitive(tostring(x))", "\"${x % 3 == 0 ? \"a\" : \"b\"}${x}\"",
        "substr(\"abcdefghij${x}\", 2, 20)", "jsonencode([x, \"e\\u0301\"])",
    };
    static const char *const vals[] = {"x", "x * 2 + 0.5", "[x, tostring(x)]", "sensitive(x)",
                                       "\"v${x}\""};
    static char whole[1024];
    static char parts[2048];
    static char got[8192];

    for (size_t k = 0; k < TFX_COUNTOF(keys); k++) {
        for (size_t v = 0; v < TFX_COUNTOF(vals); v++) {
            snprintf(whole, sizeof whole,
                     "{for x in concat(range(1000), range(1000, 2000)) : %s => %s}", keys[k],
                     vals[v]);
            snprintf(parts, sizeof parts,
                     "merge([for c in chunklist(concat(range(1000), range(1000, 2000)), 500) : "
                     "{for x in c : %s => %s}]...)",
                     keys[k], vals[v]);
            snprintf(got, sizeof got, "%s", evaluate(false, whole));
            CHECK_STR(got, evaluate(false, parts));
        }
    }
    /* a grouping's keys, and the step limit reached in a key */
    snprintf(got, sizeof got, "%s",
             evaluate(false, "{for x in concat(range(1000), range(1000, 2000), range(2000, 3000)) "
                             ": tostring(x % 5) => x...}[\"3\"][599]"));
    CHECK_STR(got, "2998 :: number");
    {
        tfx_ctx_limits limits;

        tfx_ctx_limits_init(&limits);
        limits.max_steps = 20000;
        snprintf(got, sizeof got, "%s",
                 evaluate_with(false,
                               "{for x in concat(range(1000), range(1000, 2000)) : tostring(x) => x}",
                               &fixture_env, &limits));
        CHECK_STR(got, "!Evaluation step limit exceeded@0-68");
    }
}

static void run_cases(const char *group, const eval_case *cases, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        const char *got = evaluate(cases[i].template, cases[i].input);

        if (strcmp(got, cases[i].want) == 0) {
            check_passed++;
            continue;
        }
        check_failed++;
        fprintf(stderr, "%s: %s%s\n  got:  %s\n  want: %s\n", group,
                cases[i].template ? "(template) " : "", cases[i].input, got, cases[i].want);
    }
}

#define RUN(table) run_cases(#table, table, TFX_COUNTOF(table))

int main(void)
{
    if (!tfx_ctx_init(&fixture_ctx, NULL) || !tfx_ctx_try(&fixture_ctx, load_fixtures, NULL)) {
        fprintf(stderr, "cannot load the fixtures\n");
        return 2;
    }
    fixture_env.has_variables = true;
    fixture_env.var_names = var_names;
    fixture_env.var_values = var_values;
    fixture_env.nvars = TFX_COUNTOF(fixtures);
    fixture_env.has_functions = true;
    fixture_env.function = lookup_function;
    fixture_env.function_name = tfx_func_builtin_name;

    RUN(variable_cases);
    RUN(index_cases);
    RUN(attr_cases);
    RUN(operator_cases);
    RUN(conditional_cases);
    RUN(constructor_cases);
    RUN(call_cases);
    RUN(template_cases);
    RUN(for_cases);
    RUN(splat_cases);
    RUN(test_function_cases);
    test_details();
    test_environments();
    test_limits();
    test_literal_cache();
    test_group_random();
    test_scratch_keys();
    tfx_ctx_free(&fixture_ctx);
    return check_report("test_eval");
}
