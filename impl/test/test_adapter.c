/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_adapter.c — unit tests of the conformance-protocol adapter
 * (adapter.c) through the public interface.
 */
#include "tfexpr.h"

#include <jansson.h>
#include <stdlib.h>

#include "check.h"

/* Sends one request and parses the answer; NULL when there is none. */
static json_t *ask(tfx_adapter *a, const char *request, int *stop)
{
    char *text = tfx_adapter_handle(a, request, strlen(request), stop);
    json_t *answer;

    if (text == NULL)
        return NULL;
    answer = json_loads(text, JSON_ALLOW_NUL, NULL);
    CHECK(answer != NULL);
    CHECK(strchr(text, '\n') == NULL); /* one line */
    tfx_free(text);
    return answer;
}

static void test_hello(void)
{
    tfx_adapter *a = tfx_adapter_new();
    int stop = -1;
    json_t *ans = ask(a, "{\"cmd\":\"hello\",\"protocol\":1,\"profile\":\"P14\"}\n", &stop);

    CHECK(stop == 0);
    CHECK(json_integer_value(json_object_get(ans, "protocol")) == 1);
    CHECK_STR(json_string_value(json_object_get(json_object_get(ans, "implementation"), "name")), "tfexpr");
    CHECK_STR(json_string_value(json_object_get(json_object_get(ans, "implementation"), "version")), tfx_version());
    CHECK(json_array_size(json_object_get(ans, "capabilities")) > 0);
    CHECK_STR(json_string_value(json_array_get(json_object_get(ans, "profiles"), 0)), "P14");
    json_decref(ans);
    tfx_adapter_free(a);
}

/* [profile.adapter] both profiles declared, whichever the hello names; a
 * profile the adapter does not know is an error answer. */
static void test_hello_profiles(void)
{
    tfx_adapter *a = tfx_adapter_new();
    int stop = -1;
    json_t *ans = ask(a, "{\"cmd\":\"hello\",\"protocol\":1,\"profile\":\"PN\"}", &stop);
    json_t *profiles = json_object_get(ans, "profiles");

    CHECK(json_array_size(profiles) == 2);
    CHECK_STR(json_string_value(json_array_get(profiles, 0)), "P14");
    CHECK_STR(json_string_value(json_array_get(profiles, 1)), "PN");
    CHECK(json_object_get(ans, "errored") == NULL);
    json_decref(ans);
    ans = ask(a, "{\"cmd\":\"hello\",\"protocol\":1,\"profile\":\"P13\"}", &stop);
    CHECK(json_is_true(json_object_get(ans, "errored")));
    CHECK(json_object_get(ans, "profiles") == NULL);
    json_decref(ans);
    tfx_adapter_free(a);
}

static void test_run_evaluates(void)
{
    tfx_adapter *a = tfx_adapter_new();
    int stop = -1;
    json_t *ans = ask(a, "{\"cmd\":\"run\",\"seq\":42,\"case\":{\"id\":\"00000000\","
                         "\"mode\":\"expression\",\"input\":\"1 + 2\"}}", &stop);

    CHECK(stop == 0);
    CHECK(json_integer_value(json_object_get(ans, "seq")) == 42);
    CHECK(json_object_get(ans, "unsupported") == NULL);
    json_t *want = json_pack("{ssss}", "type", "number", "v", "3");

    CHECK(json_equal(json_object_get(ans, "value"), want));
    json_decref(want);
    json_decref(ans);
    tfx_adapter_free(a);
}

static void test_parse_request(void)
{
    tfx_adapter *a = tfx_adapter_new();
    int stop = -1;
    json_t *ok = ask(a, "{\"cmd\":\"run\",\"seq\":1,\"case\":{\"request\":\"parse\","
                        "\"mode\":\"expression\",\"input\":\"a.b[0]\"}}", &stop);
    json_t *bad = ask(a, "{\"cmd\":\"run\",\"seq\":2,\"case\":{\"request\":\"parse\","
                         "\"mode\":\"expression\",\"input_base64\":\"MSAr\"}}", &stop);
    json_t *d = json_array_get(json_object_get(bad, "diagnostics"), 0);
    json_t *subject = json_object_get(d, "subject");

    /* "a.b[0]" parses: an empty list, not a missing one */
    CHECK(json_is_array(json_object_get(ok, "diagnostics")));
    CHECK(json_array_size(json_object_get(ok, "diagnostics")) == 0);
    /* "1 +" (base64 "MSAr"): Missing expression at the end, 3..3 */
    CHECK(json_array_size(json_object_get(bad, "diagnostics")) == 1);
    CHECK_STR(json_string_value(json_object_get(d, "category")), "syntax.missing-token");
    CHECK_STR(json_string_value(json_object_get(d, "phase")), "parse");
    CHECK_STR(json_string_value(json_object_get(d, "summary")), "Missing expression");
    CHECK(json_integer_value(json_object_get(json_object_get(subject, "start"), "byte")) == 3);
    CHECK(json_integer_value(json_object_get(json_object_get(subject, "end"), "column")) == 4);
    json_decref(ok);
    json_decref(bad);
    tfx_adapter_free(a);
}

static void test_bad_requests(void)
{
    static const char *const bad[] = {
        "", "not json", "[1,2]", "{\"cmd\":7}", "{\"cmd\":\"dance\",\"seq\":3}",
        "{\"cmd\":\"run\"}", "{\"cmd\":\"run\",\"seq\":\"x\",\"case\":{}}",
        "{\"cmd\":\"run\",\"seq\":4}", "{\"cmd\":\"run\",\"seq\":5,\"case\":[]}",
        "{\"cmd\":\"hello\",\"cmd\":\"stop\"}",
        "{\"cmd\":\"run\",\"seq\":6,\"case\":{\"request\":\"parse\",\"mode\":\"x\",\"input\":\"1\"}}",
        "{\"cmd\":\"run\",\"seq\":7,\"case\":{\"request\":\"parse\",\"mode\":\"expression\"}}",
        "{\"cmd\":\"run\",\"seq\":8,\"case\":{\"request\":\"parse\",\"mode\":\"expression\",\"input_base64\":\"!!\"}}",
    };
    tfx_adapter *a = tfx_adapter_new();
    size_t i;

    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        int stop = -1;
        json_t *ans = ask(a, bad[i], &stop);

        CHECK(ans != NULL);
        CHECK(stop == 0);
        CHECK(json_is_true(json_object_get(ans, "errored")));
        CHECK(json_is_string(json_object_get(ans, "message")));
        json_decref(ans);
    }
    /* the seq of a bad request is echoed when there is one */
    {
        int stop = -1;
        json_t *ans = ask(a, "{\"cmd\":\"run\",\"seq\":9}", &stop);

        CHECK(json_integer_value(json_object_get(ans, "seq")) == 9);
        json_decref(ans);
    }
    tfx_adapter_free(a);
}

static void test_stop(void)
{
    tfx_adapter *a = tfx_adapter_new();
    int stop = 0;
    char *text = tfx_adapter_handle(a, "{\"cmd\":\"stop\"}", 14, &stop);

    CHECK(text == NULL);
    CHECK(stop == 1);
    tfx_adapter_free(a);
    tfx_adapter_free(NULL);
}

static void test_not_nul_terminated(void)
{
    /* The request is exactly nbytes long; what follows must be ignored. */
    static const char buf[] = "{\"cmd\":\"hello\"}garbage";
    tfx_adapter *a = tfx_adapter_new();
    int stop = -1;
    char *text = tfx_adapter_handle(a, buf, 15, &stop);

    CHECK(text != NULL && strstr(text, "\"protocol\":1") != NULL);
    tfx_free(text);
    tfx_adapter_free(a);
}

/* A request's strings may hold U+0000: an input (the NUL is an invalid
 * character) and a variable's value (kept whole).  (conformance/README.md,
 * "Text in requests and answers") */
static void test_nul_in_request(void)
{
    tfx_adapter *a = tfx_adapter_new();
    int stop = -1;
    json_t *ans = ask(a, "{\"cmd\":\"run\",\"seq\":1,\"case\":{\"mode\":\"expression\","
                         "\"input\":\"upper(x)\",\"variables\":{\"x\":{\"type\":\"string\","
                         "\"v\":\"a\\u0000b\"}}}}", &stop);
    json_t *v;

    CHECK(json_object_get(ans, "errored") == NULL);
    v = json_object_get(json_object_get(ans, "value"), "v");
    CHECK(json_string_length(v) == 3 && memcmp(json_string_value(v), "A\0B", 3) == 0);
    json_decref(ans);
    ans = ask(a, "{\"cmd\":\"run\",\"seq\":2,\"case\":{\"request\":\"parse\","
                 "\"mode\":\"expression\",\"input\":\"1 +\\u0000 2\"}}", &stop);
    CHECK(json_object_get(ans, "errored") == NULL);
    CHECK(json_array_size(json_object_get(ans, "diagnostics")) >= 1);
    CHECK_STR(json_string_value(json_object_get(json_array_get(json_object_get(ans, "diagnostics"), 0),
                                                "category")),
              "syntax.invalid-character");
    json_decref(ans);
    {
        /* a value whose object key holds U+0000 (jansson cannot hold it:
         * the value's text is written as the library gives it) */
        static const char req[] = "{\"cmd\":\"run\",\"seq\":3,\"case\":{\"mode\":\"expression\","
                                  "\"input\":\"{(s) = 1}\",\"variables\":{\"s\":{\"type\":\"string\","
                                  "\"v\":\"a\\u0000b\"}}}}";
        char *text = tfx_adapter_handle(a, req, strlen(req), &stop);

        CHECK_STR(text, "{\"seq\":3,\"diagnostics\":[],\"value\":{\"type\":[\"object\","
                        "{\"a\\u0000b\":\"number\"}],\"v\":{\"a\\u0000b\":{\"v\":\"1\"}}}}");
        tfx_free(text);
    }
    {
        /* the same key in the request's variables (jansson refuses it:
         * the variables are cut out of the text and read by the library),
         * after a string member holding JSON's punctuation */
        static const char req[] = "{\"cmd\":\"run\",\"seq\":4,\"case\":{\"name\":\"x,}]{[\\\"\","
                                  "\"variables\":{\"v\":{\"type\":[\"map\",\"number\"],"
                                  "\"v\":{\"a\\u0000\":{\"v\":\"1\"}}}},"
                                  "\"mode\":\"expression\",\"input\":\"keys(v)\"}}";
        char *text = tfx_adapter_handle(a, req, strlen(req), &stop);

        CHECK_STR(text, "{\"seq\":4,\"diagnostics\":[],\"value\":{\"type\":[\"list\",\"string\"],"
                        "\"v\":[{\"v\":\"a\\u0000\"}]}}");
        tfx_free(text);
    }
    tfx_adapter_free(a);
}

/* [refs.protocol] [refs.parse-errors] refs requests: the list, empty or
 * not; the parse's errors when it fails; request.refs declared. */
static void test_refs_request(void)
{
    tfx_adapter *a = tfx_adapter_new();
    int stop = -1;
    json_t *ans = ask(a, "{\"cmd\":\"run\",\"seq\":7,\"case\":{\"request\":\"refs\","
                         "\"mode\":\"expression\",\"input\":\"a.b[0] + c\"}}", &stop);
    json_t *refs = json_object_get(ans, "refs");
    json_t *caps;
    size_t i;
    int declared = 0;

    CHECK(json_integer_value(json_object_get(ans, "seq")) == 7);
    CHECK(json_array_size(refs) == 2);
    CHECK_STR(json_string_value(json_object_get(json_array_get(refs, 0), "root")), "a");
    CHECK(json_array_size(json_object_get(json_array_get(refs, 0), "steps")) == 2);
    CHECK_STR(json_string_value(json_object_get(json_array_get(refs, 1), "root")), "c");
    json_decref(ans);
    ans = ask(a, "{\"cmd\":\"run\",\"seq\":8,\"case\":{\"request\":\"refs\","
                 "\"mode\":\"template\",\"input\":\"x\"}}", &stop);
    CHECK(json_is_array(json_object_get(ans, "refs")) && json_array_size(json_object_get(ans, "refs")) == 0);
    json_decref(ans);
    ans = ask(a, "{\"cmd\":\"run\",\"seq\":9,\"case\":{\"request\":\"refs\","
                 "\"mode\":\"expression\",\"input\":\"a.\"}}", &stop);
    CHECK(json_object_get(ans, "refs") == NULL);
    CHECK(json_array_size(json_object_get(ans, "diagnostics")) == 1);
    json_decref(ans);
    ans = ask(a, "{\"cmd\":\"hello\",\"protocol\":1,\"profile\":\"P14\"}", &stop);
    caps = json_object_get(ans, "capabilities");
    for (i = 0; i < json_array_size(caps); i++)
        declared |= strcmp(json_string_value(json_array_get(caps, i)), "request.refs") == 0;
    CHECK(declared);
    json_decref(ans);
    tfx_adapter_free(a);
}

/* An answer's strings are written with JSON's escapes and their UTF-8 as
 * it is: the detail quoting a string with a quote, a backslash, a tab, a
 * control character, U+2028 and an accented letter reads back as the
 * library wrote it. */
static void test_answer_escapes(void)
{
    tfx_adapter *a = tfx_adapter_new();
    int stop = -1;
    json_t *ans = ask(a, "{\"cmd\":\"run\",\"seq\":5,\"case\":{\"mode\":\"expression\","
                         "\"input\":\"tonumber(\\\"x\\\\u0001\\\\t\\\\\\\\\\\\\\\" \u00e9"
                         "\\\\u2028\\\")\"}}", &stop);
    json_t *d = json_array_get(json_object_get(ans, "diagnostics"), 0);
    const char *detail = json_string_value(json_object_get(d, "detail"));

    CHECK(json_integer_value(json_object_get(ans, "seq")) == 5);
    CHECK(detail != NULL);
    if (detail != NULL)
        CHECK(strstr(detail, "\"x\\x01\\t\\\\\\\" \xC3\xA9\\u2028\"") != NULL);
    json_decref(ans);
    tfx_adapter_free(a);
}

/* tfx_adapter_set_limits: an evaluation past the adapter's step limit
 * ends with resource.limit, a parse past its depth limit too; NULL gives
 * the defaults back. */
static void test_limits(void)
{
    static const char eval[] = "{\"cmd\":\"run\",\"seq\":1,\"case\":{\"mode\":\"expression\","
                               "\"input\":\"length([for i in range(100): i])\"}}";
    static const char deep[] = "{\"cmd\":\"run\",\"seq\":2,\"case\":{\"request\":\"parse\","
                               "\"mode\":\"expression\",\"input\":\"[[[[[[1]]]]]]\"}}";
    tfx_adapter *a = tfx_adapter_new();
    tfx_limits parse;
    tfx_eval_limits limits;
    int stop = -1;
    json_t *ans;

    tfx_limits_init(&parse);
    parse.max_depth = 3;
    tfx_eval_limits_init(&limits);
    limits.max_steps = 50;
    tfx_adapter_set_limits(a, &parse, &limits);
    ans = ask(a, eval, &stop);
    CHECK_STR(json_string_value(json_object_get(json_array_get(json_object_get(ans, "diagnostics"), 0),
                                                "category")), "resource.limit");
    CHECK(json_object_get(ans, "value") == NULL);
    json_decref(ans);
    ans = ask(a, deep, &stop);
    CHECK_STR(json_string_value(json_object_get(json_array_get(json_object_get(ans, "diagnostics"), 0),
                                                "category")), "resource.limit");
    json_decref(ans);
    tfx_adapter_set_limits(a, NULL, NULL);
    ans = ask(a, eval, &stop);
    CHECK_STR(json_string_value(json_object_get(json_object_get(ans, "value"), "v")), "100");
    json_decref(ans);
    ans = ask(a, deep, &stop);
    CHECK(json_array_size(json_object_get(ans, "diagnostics")) == 0);
    json_decref(ans);
    tfx_adapter_free(a);
}

int main(void)
{
    test_hello();
    test_hello_profiles();
    test_run_evaluates();
    test_parse_request();
    test_bad_requests();
    test_stop();
    test_not_nul_terminated();
    test_refs_request();
    test_nul_in_request();
    test_answer_escapes();
    test_limits();
    return check_report("test_adapter");
}
