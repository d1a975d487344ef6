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

#include <stdlib.h>

#include "check.h"

/* Evaluates `input` with the given limits (NULL: defaults).  Returns the
 * value's typed JSON, or "error: <category>: <summary>" for the first
 * error; the caller frees it with free(). */
static char *eval_with(const char *input, const tfx_eval_limits *limits)
{
    tfx_source *src = tfx_source_parse(NULL, input, strlen(input), TFX_MODE_EXPRESSION, NULL);
    tfx_context *ctx = tfx_context_new();
    tfx_result *r;
    char *out = NULL;

    if (src == NULL || ctx == NULL || tfx_source_has_errors(src)) {
        tfx_context_free(ctx);
        tfx_source_free(src);
        return NULL;
    }
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
    EVAL_LIM("distinct(concat(range(1000), range(1000)))", &lim,
             "error: resource.limit: Evaluation step limit exceeded");
    EVAL_LIM("range(0, 1, 0)", &lim, "error: eval.function-error: Error in function call");
    lim.max_steps = 1000;
    EVAL_LIM("range(1024)", &lim, "error: resource.limit: Evaluation step limit exceeded");
}

int main(void)
{
    CHECK(tfx_context_new != NULL);
    test_results();
    test_limits();
    return check_report("test_fn_lists");
}
