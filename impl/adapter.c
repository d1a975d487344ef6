/*
 * adapter.c — libtfexpr's side of the conformance protocol
 * (conformance/README.md, "The protocol").
 *
 * One request line in, one answer line out.  The only module that includes
 * jansson so far (style: one module per third-party library).
 *
 * Until the parser and evaluator exist, every `run` request is answered
 * `unsupported`.  The `hello` answer declares the capabilities tfexpr is
 * built to have, so that every case reaches the adapter and the report
 * counts it as unsupported rather than hiding it as not applicable.
 */
#include "tfexpr.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

struct tfx_adapter {
    int said_hello;   /* a hello request has been answered */
};

/* The capabilities declared in the hello answer (conformance/capabilities.json). */
static const char *const capabilities[] = {
    "mode.expression", "mode.template", "unknown", "marks",
    "ranges.column", "numeric.bigfloat512", "fn:*",
};

TFX_API tfx_adapter *tfx_adapter_new(void)
{
    return calloc(1, sizeof(tfx_adapter));
}

TFX_API void tfx_adapter_free(tfx_adapter *a)
{
    free(a);
}

/* Serialises `answer` to one line and drops the reference. */
static char *finish(json_t *answer)
{
    char *text;

    if (answer == NULL)
        return NULL;
    text = json_dumps(answer, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(answer);
    return text;
}

/* {"seq"?: seq, "errored": true, "message": message} */
static json_t *errored(json_t *seq, const char *message)
{
    json_t *answer = json_object();

    if (answer == NULL)
        return NULL;
    if (seq != NULL)
        json_object_set(answer, "seq", seq);
    json_object_set_new(answer, "errored", json_true());
    json_object_set_new(answer, "message", json_string(message));
    return answer;
}

static json_t *answer_hello(tfx_adapter *a)
{
    json_t *answer = json_object();
    json_t *impl = json_object();
    json_t *caps = json_array();
    json_t *profiles = json_array();
    size_t i;

    if (answer == NULL || impl == NULL || caps == NULL || profiles == NULL) {
        json_decref(answer);
        json_decref(impl);
        json_decref(caps);
        json_decref(profiles);
        return NULL;
    }
    json_object_set_new(impl, "name", json_string("tfexpr"));
    json_object_set_new(impl, "version", json_string(tfx_version()));
    json_object_set_new(impl, "language", json_string("c"));
    for (i = 0; i < TFX_COUNTOF(capabilities); i++)
        json_array_append_new(caps, json_string(capabilities[i]));
    json_array_append_new(profiles, json_string("P14"));
    json_object_set_new(answer, "protocol", json_integer(1));
    json_object_set_new(answer, "implementation", impl);
    json_object_set_new(answer, "capabilities", caps);
    json_object_set_new(answer, "profiles", profiles);
    a->said_hello = 1;
    return answer;
}

static json_t *answer_run(json_t *request)
{
    json_t *seq = json_object_get(request, "seq");
    json_t *c = json_object_get(request, "case");
    json_t *answer;

    if (!json_is_integer(seq))
        return errored(NULL, "run request without an integer \"seq\"");
    if (!json_is_object(c))
        return errored(seq, "run request without a \"case\" object");
    answer = json_object();
    if (answer == NULL)
        return NULL;
    json_object_set(answer, "seq", seq);
    json_object_set_new(answer, "unsupported", json_true());
    json_object_set_new(answer, "message",
                        json_string("tfexpr has no parser or evaluator yet"));
    return answer;
}

TFX_API char *tfx_adapter_handle(tfx_adapter *a, const char *line,
                                 size_t nbytes, int *stop)
{
    json_error_t error;
    json_t *request;
    json_t *cmd;
    json_t *answer;
    const char *name;

    *stop = 0;
    request = json_loadb(line, nbytes, JSON_REJECT_DUPLICATES, &error);
    if (request == NULL)
        return finish(errored(NULL, "request is not valid JSON"));
    if (!json_is_object(request)) {
        json_decref(request);
        return finish(errored(NULL, "request is not a JSON object"));
    }
    cmd = json_object_get(request, "cmd");
    name = json_string_value(cmd);
    if (name == NULL)
        answer = errored(json_object_get(request, "seq"),
                         "request without a string \"cmd\"");
    else if (strcmp(name, "hello") == 0)
        answer = answer_hello(a);
    else if (strcmp(name, "run") == 0)
        answer = answer_run(request);
    else if (strcmp(name, "stop") == 0) {
        *stop = 1;
        answer = NULL;
    } else
        answer = errored(json_object_get(request, "seq"), "unknown \"cmd\"");
    json_decref(request);
    return finish(answer);
}
