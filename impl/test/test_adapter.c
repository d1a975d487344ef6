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
    answer = json_loads(text, 0, NULL);
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

static void test_run_is_unsupported(void)
{
    tfx_adapter *a = tfx_adapter_new();
    int stop = -1;
    json_t *ans = ask(a, "{\"cmd\":\"run\",\"seq\":42,\"case\":{\"id\":\"00000000\","
                         "\"mode\":\"expression\",\"input\":\"1 + 2\"}}", &stop);

    CHECK(stop == 0);
    CHECK(json_integer_value(json_object_get(ans, "seq")) == 42);
    CHECK(json_is_true(json_object_get(ans, "unsupported")));
    CHECK(json_is_string(json_object_get(ans, "message")));
    CHECK(json_object_get(ans, "value") == NULL);
    json_decref(ans);
    tfx_adapter_free(a);
}

static void test_bad_requests(void)
{
    static const char *const bad[] = {
        "", "not json", "[1,2]", "{\"cmd\":7}", "{\"cmd\":\"dance\",\"seq\":3}",
        "{\"cmd\":\"run\"}", "{\"cmd\":\"run\",\"seq\":\"x\",\"case\":{}}",
        "{\"cmd\":\"run\",\"seq\":4}", "{\"cmd\":\"run\",\"seq\":5,\"case\":[]}",
        "{\"cmd\":\"hello\",\"cmd\":\"stop\"}",
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

int main(void)
{
    test_hello();
    test_run_is_unsupported();
    test_bad_requests();
    test_stop();
    test_not_nul_terminated();
    return check_report("test_adapter");
}
