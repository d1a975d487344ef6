/* SPDX-License-Identifier: MPL-2.0 */
/*
 * fuzz_adapter.c — the conformance protocol adapter (tfx_adapter_handle)
 * on one request line.
 *
 * Input: the bytes of one request line, as the runner would write it
 * (the seeds are the corpus's cases as `run` requests, plus `hello` and
 * `stop`).  The adapter parses with the library's default limits, so
 * deep or long inputs reach the parser here that the parse harnesses
 * refuse; it evaluates under the library's former defaults (10,000,000
 * steps, 1,000,000 elements of a collection): with today's ten times
 * larger ones, a request of nested `for` expressions ran 22 s under ASan,
 * past libFuzzer's timeout.
 *
 * Properties: the answer is NULL exactly for `stop` (which sets *stop);
 * otherwise it is one line of valid JSON (checked with jansson), a JSON
 * object holding one of the answer kinds of the protocol; the
 * diagnostics of a parse answer have known categories; nothing leaks.
 */
#include <jansson.h>
#include <string.h>

#include "fuzz_common.h"

/* The keys one of which every non-stop answer has (conformance/README.md,
 * "The protocol"). */
static const char *const answer_kinds[] = {
    "protocol", "value", "diagnostics", "refs", "unsupported", "errored",
};

static void check_answer(const char *answer)
{
    json_t *v;
    json_t *diags;
    size_t kinds = 0;
    size_t i;

    fuzz_check_json(answer, 1, "the adapter's answer");
    v = json_loads(answer, JSON_ALLOW_NUL, NULL);
    if (!json_is_object(v))
        fuzz_fail("the adapter's answer is not a JSON object: %s", answer);
    for (i = 0; i < sizeof(answer_kinds) / sizeof(answer_kinds[0]); i++)
        if (json_object_get(v, answer_kinds[i]) != NULL)
            kinds++;
    if (kinds == 0)
        fuzz_fail("the adapter's answer has no answer kind: %s", answer);
    diags = json_object_get(v, "diagnostics");
    if (diags != NULL) {
        if (!json_is_array(diags))
            fuzz_fail("\"diagnostics\" is not an array: %s", answer);
        for (i = 0; i < json_array_size(diags); i++) {
            const char *cat = json_string_value(json_object_get(json_array_get(diags, i),
                                                                "category"));

            if (!fuzz_known_category(cat))
                fuzz_fail("diagnostic %zu has the unknown category \"%s\": %s", i,
                          cat != NULL ? cat : "(none)", answer);
        }
    }
    json_decref(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tfx_adapter *a = tfx_adapter_new();
    tfx_eval_limits limits;
    char *answer;
    int stop = -1;

    if (a == NULL)
        return 0;
    tfx_eval_limits_init(&limits);
    limits.max_steps = 10000000;
    limits.max_collection_items = 1000000;
    tfx_adapter_set_limits(a, NULL, &limits);
    answer = tfx_adapter_handle(a, (const char *)data, size, &stop);
    if (stop != 0 && stop != 1)
        fuzz_fail("tfx_adapter_handle left *stop at %d", stop);
    if (stop == 1 && answer != NULL)
        fuzz_fail("an answer to stop: %s", answer);
    if (stop == 0) {
        if (answer == NULL)
            fuzz_fail("no answer to a request other than stop");
        check_answer(answer);
    }
    tfx_free(answer);
    tfx_adapter_free(a);
    return 0;
}
