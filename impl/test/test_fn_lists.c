/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_fn_lists.c — unit tests of the list functions of
 * spec/functions-lists.md through the public API: a few results (the
 * conformance cases in conformance/cases/functions/lists.json cover the
 * semantics), and mainly the evaluation limits, which the corpus cannot
 * exercise: inputs that would build collections beyond
 * max_collection_items, or take more than max_steps, must end in one
 * resource.limit diagnostic, never a crash or a long loop.
 */
#include "tfexpr.h"

#include <stdint.h>
#include <stdlib.h>

#include "check.h"

/* Evaluates `input` with the given limits (NULL: defaults).  Returns the
 * value's typed JSON, or "error: <category>: <summary>" for the first
 * error; the caller frees it with free(). */
static char *eval_with(const char *input, const tfx_eval_limits *limits)
{
    /* the expectations are profile P14's (element with a negative index
     * is an error there, cty 1.12.1) */
    tfx_source *src = tfx_source_parse_profile(NULL, input, strlen(input), TFX_MODE_EXPRESSION,
                                               NULL, TFX_PROFILE_P14);
    tfx_context *ctx = tfx_context_new();
    tfx_result *r;
    char *out = NULL;

    if (src == NULL || ctx == NULL || tfx_source_has_errors(src)) {
        tfx_context_free(ctx);
        tfx_source_free(src);
        return NULL;
    }
    tfx_context_set_profile(ctx, TFX_PROFILE_P14);
    r = tfx_evaluate(src, ctx, limits);
    if (r != NULL && tfx_result_has_errors(r)) {
        const tfx_diagnostic *d = tfx_result_diagnostic(r, 0);
        size_t n = strlen(d->category) + strlen(d->summary) + 16;

        out = malloc(n);
        if (out != NULL)
            snprintf(out, n, "error: %s: %s", d->category, d->summary);
    } else if (r != NULL) {
        char *json = tfx_result_json(r);

        if (json != NULL) {
            size_t n = strlen(json) + 1;

            out = malloc(n);
            if (out != NULL)
                memcpy(out, json, n);
            tfx_free(json);
        }
    }
    tfx_result_free(r);
    tfx_context_free(ctx);
    tfx_source_free(src);
    return out;
}

static void check_eval(const char *input, const tfx_eval_limits *limits, const char *want,
                       int line)
{
    char *got = eval_with(input, limits);

    check_str_(got, want, input, __FILE__, line);
    free(got);
}

#define EVAL(input, want) check_eval((input), NULL, (want), __LINE__)
#define EVAL_LIM(input, limits, want) check_eval((input), (limits), (want), __LINE__)

static void test_results(void)
{
    EVAL("range(3)", "{\"type\":[\"list\",\"number\"],\"v\":[{\"v\":\"0\"},{\"v\":\"1\"},{\"v\":\"2\"}]}");
    EVAL("sort([3, 10, 1])",
         "{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"1\"},{\"v\":\"10\"},{\"v\":\"3\"}]}");
    EVAL("distinct([\"b\", \"a\", \"b\"])",
         "{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"b\"},{\"v\":\"a\"}]}");
    EVAL("element([1, \"a\"], 3)", "{\"type\":\"string\",\"v\":\"a\"}");
    EVAL("element([1], -1)", "error: eval.function-error: Error in function call");
    EVAL("slice([1, 2], 2, 1)", "error: eval.function-argument: Invalid function argument");
    EVAL("flatten([[], [[]]])", "{\"type\":[\"tuple\",[]],\"v\":[]}");
    EVAL("concat([], [])", "{\"type\":[\"tuple\",[]],\"v\":[]}");
    EVAL("chunklist([1, 2, 3], 2)[1]", "{\"type\":[\"list\",\"number\"],\"v\":[{\"v\":\"3\"}]}");
    EVAL("range(1025)", "error: eval.function-error: Error in function call");
    /* 1024 values, each 0.5 apart, exactly. */
    EVAL("element(range(0, 512, 0.5), 1023)", "{\"type\":\"number\",\"v\":\"511.5\"}");
    /* distinct of many strings (the sorting path) and of many numbers
     * (the pairwise path), with the default limits. */
    EVAL("element(distinct([for i in range(1000) : \"s${i % 250}\"]), 250)",
         "{\"type\":\"string\",\"v\":\"s0\"}");
    EVAL("element(distinct(concat(range(1000), range(1000), range(1000))), 1000)",
         "{\"type\":\"number\",\"v\":\"0\"}");
}

/* [fn.distinct.result] distinct's fast path for whole numbers against its
 * general path on random lists: the same list with a 0.5 appended (which
 * no whole number equals) takes the general path, and its result less
 * that last element must be the fast path's.  Numbers of every origin:
 * literals (512 bits), arithmetic (64 bits), parsed text, around 2^53,
 * -0, nulls. */
static void test_distinct_random(void)
{
    static const char *const pool[] = {
        "0", "-0", "1", "1.0", "1e3", "1000", "-7", "2.5e1", "25", "3 - 2", "10 * 100",
        "tonumber(\"25\")", "9007199254740992", "9007199254740993", "-9007199254740992",
        "9007199254740991", "18014398509481984", "1e16", "1e300", "floor(7.5)", "null",
        "parseint(\"1000\", 10)", "abs(-0)", "pow(2, 53)", "pow(2, 53) + 1"};
    uint32_t state = 4242u;

    for (int round = 0; round < 300; round++) {
        char list[2048] = "[";
        char fast[2100];
        char general[4200];
        size_t n;
        char *a;
        char *b;

        state = state * 1103515245u + 12345u;
        n = 1 + (state >> 8) % 40;
        for (size_t i = 0; i < n; i++) {
            state = state * 1103515245u + 12345u;
            (void)snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i > 0 ? ", " : "",
                           pool[(state >> 8) % (sizeof pool / sizeof pool[0])]);
        }
        (void)snprintf(list + strlen(list), sizeof list - strlen(list), "]");
        (void)snprintf(fast, sizeof fast, "distinct(%s)", list);
        (void)snprintf(general, sizeof general,
                       "slice(distinct(concat(%s, [0.5])), 0, length(distinct(concat(%s, [0.5]))) - 1)",
                       list, list);
        a = eval_with(fast, NULL);
        b = eval_with(general, NULL);
        check_str_(a, b != NULL ? b : "(null)", fast, __FILE__, __LINE__);
        free(a);
        free(b);
    }
}

static void test_limits(void)
{
    tfx_eval_limits lim;

    /* Collections beyond max_collection_items. */
    tfx_eval_limits_init(&lim);
    lim.max_collection_items = 1500;
    EVAL_LIM("concat(range(1000), range(1000))", &lim,
             "error: resource.limit: Collection size limit exceeded");
    EVAL_LIM("concat([for i in range(1000): i], range(1000))", &lim,
             "error: resource.limit: Collection size limit exceeded");
    EVAL_LIM("flatten([range(1000), range(1000)])", &lim,
             "error: resource.limit: Collection size limit exceeded");
    EVAL_LIM("length(flatten([range(700), range(700)]))", &lim,
             "{\"type\":\"number\",\"v\":\"1400\"}");

    /* Work beyond max_steps. */
    tfx_eval_limits_init(&lim);
    lim.max_steps = 20000;
    /* the pairwise path (numbers with fractions); whole numbers take the
     * sorting path, whose steps grow as n */
    EVAL_LIM("distinct(concat(range(0.5, 1000), range(0.5, 1000)))", &lim,
             "error: resource.limit: Evaluation step limit exceeded");
    EVAL_LIM("length(distinct(concat(range(1000), range(1000))))", &lim,
             "{\"type\":\"number\",\"v\":\"1000\"}");
    EVAL_LIM("range(0, 1, 0)", &lim, "error: eval.function-error: Error in function call");
    lim.max_steps = 1000;
    EVAL_LIM("range(1024)", &lim, "error: resource.limit: Evaluation step limit exceeded");
}

int main(void)
{
    CHECK(tfx_context_new != NULL);
    test_results();
    test_distinct_random();
    test_limits();
    return check_report("test_fn_lists");
}
