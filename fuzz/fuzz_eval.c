/*
 * fuzz_eval.c — parse and evaluate arbitrary input against a fixed context.
 *
 * Input: any bytes, an expression (or, after a first byte 0x01, a bare
 * template).  Context: variables of every kind — primitives, collections,
 * nested structures, typed nulls, unknowns (wholly and nested), sensitive
 * and otherwise marked values — and the built-in functions.  Limits:
 * 8 KiB of source, nesting 64, 100,000 evaluation steps, 1 MiB strings,
 * 10,000 collection items, 64 MiB of memory, so that every limit trips.
 * Properties:
 *   - every diagnostic has a known category, phase eval, a summary and
 *     ranges inside the input; has_errors agrees with them;
 *   - without errors the value encodes to typed JSON (unless a number's
 *     text is longer than the string limit) whose every node
 *     conforms to its type (fuzz_check_typed), and its marks are among
 *     the marks of the context;
 *   - evaluation is deterministic: a second evaluation gives the same
 *     diagnostics and the same value, byte for byte;
 *   - nothing leaks (LSan) and nothing crashes (ASan, UBSan).
 */
#include <jansson.h>
#include <string.h>

#include "fuzz_common.h"

/* The fixed variables: the fixtures of the design notes, in the corpus's
 * typed encoding. */
static const char variables[] =
    "{"
    "\"s\":{\"type\":\"string\",\"v\":\"hello\"},"
    "\"n\":{\"type\":\"number\",\"v\":\"5\"},"
    "\"f\":{\"type\":\"number\",\"v\":\"1.5\"},"
    "\"b\":{\"type\":\"bool\",\"v\":true},"
    "\"nul\":{\"type\":\"dynamic\",\"null\":true},"
    "\"nuls\":{\"type\":\"string\",\"null\":true},"
    "\"l\":{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"a\"},{\"v\":\"b\"},{\"v\":\"c\"}]},"
    "\"ln\":{\"type\":[\"list\",\"number\"],\"v\":[{\"v\":\"1\"},{\"v\":\"2\"},{\"v\":\"3\"}]},"
    "\"t\":{\"type\":[\"tuple\",[\"string\",\"number\",\"bool\"]],"
    "\"v\":[{\"v\":\"a\"},{\"v\":\"1\"},{\"v\":true}]},"
    "\"st\":{\"type\":[\"set\",\"string\"],\"v\":[{\"v\":\"b\"},{\"v\":\"a\"},{\"v\":\"c\"}]},"
    "\"m\":{\"type\":[\"map\",\"string\"],\"v\":{\"a\":{\"v\":\"x\"},\"b\":{\"v\":\"y\"}}},"
    "\"o\":{\"type\":[\"object\",{\"a\":\"string\",\"b\":\"number\",\"c\":[\"list\",\"number\"]}],"
    "\"v\":{\"a\":{\"v\":\"x\"},\"b\":{\"v\":\"1\"},\"c\":{\"v\":[{\"v\":\"1\"},{\"v\":\"2\"}]}}},"
    "\"lo\":{\"type\":[\"list\",[\"object\",{\"name\":\"string\",\"id\":\"number\"}]],"
    "\"v\":[{\"v\":{\"name\":{\"v\":\"a\"},\"id\":{\"v\":\"1\"}}},"
    "{\"v\":{\"name\":{\"v\":\"b\"},\"id\":{\"null\":true}}}]},"
    "\"us\":{\"type\":\"string\",\"unknown\":true},"
    "\"un\":{\"type\":\"number\",\"unknown\":true},"
    "\"ub\":{\"type\":\"bool\",\"unknown\":true},"
    "\"ul\":{\"type\":[\"list\",\"string\"],\"unknown\":true},"
    "\"uo\":{\"type\":[\"object\",{\"a\":\"string\"}],\"unknown\":true},"
    "\"dyn\":{\"type\":\"dynamic\",\"unknown\":true},"
    "\"lu\":{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"a\"},{\"unknown\":true}]},"
    "\"sens\":{\"type\":\"string\",\"v\":\"secret\",\"marks\":[\"sensitive\"]},"
    "\"sensn\":{\"type\":\"number\",\"v\":\"7\",\"marks\":[\"sensitive\"]},"
    "\"sensl\":{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"a\"},"
    "{\"v\":\"b\",\"marks\":[\"sensitive\"]}]},"
    "\"sensu\":{\"type\":\"string\",\"unknown\":true,\"marks\":[\"sensitive\"]},"
    "\"other\":{\"type\":\"string\",\"v\":\"o\",\"marks\":[\"other\"]}"
    "}";

/* The marks the context holds; a result may carry no other. */
static int known_mark(const char *m)
{
    return strcmp(m, "sensitive") == 0 || strcmp(m, "other") == 0;
}

static void check_node(json_t *node, json_t *type, const char *path);

/* Fails unless a node's payload conforms to its type. */
static void check_payload(json_t *v, json_t *type, const char *path)
{
    const char *prim = json_string_value(type);
    const char *kind = json_is_array(type) ? json_string_value(json_array_get(type, 0)) : NULL;
    json_t *arg = json_is_array(type) ? json_array_get(type, 1) : NULL;
    size_t i;

    if (prim != NULL) {
        if ((strcmp(prim, "bool") == 0 && !json_is_boolean(v))
            || ((strcmp(prim, "number") == 0 || strcmp(prim, "string") == 0) && !json_is_string(v))
            || strcmp(prim, "dynamic") == 0)
            fuzz_fail("%s: a known value does not conform to type %s", path, prim);
        return;
    }
    if (kind == NULL || arg == NULL)
        fuzz_fail("%s: malformed type", path);
    if (strcmp(kind, "list") == 0 || strcmp(kind, "set") == 0 || strcmp(kind, "tuple") == 0) {
        if (!json_is_array(v))
            fuzz_fail("%s: %s value is not an array", path, kind);
        if (strcmp(kind, "tuple") == 0 && json_array_size(v) != json_array_size(arg))
            fuzz_fail("%s: tuple of %zu elements has %zu", path, json_array_size(arg),
                      json_array_size(v));
        for (i = 0; i < json_array_size(v); i++)
            check_node(json_array_get(v, i),
                       strcmp(kind, "tuple") == 0 ? json_array_get(arg, i) : arg, path);
    } else if (strcmp(kind, "map") == 0 || strcmp(kind, "object") == 0) {
        const char *key;
        json_t *item;

        if (!json_is_object(v))
            fuzz_fail("%s: %s value is not an object", path, kind);
        if (strcmp(kind, "object") == 0 && json_object_size(v) != json_object_size(arg))
            fuzz_fail("%s: object attributes differ from its type", path);
        json_object_foreach(v, key, item) {
            json_t *t = strcmp(kind, "map") == 0 ? arg : json_object_get(arg, key);

            if (t == NULL)
                fuzz_fail("%s: attribute \"%s\" is not in the object type", path, key);
            check_node(item, t, path);
        }
    } else {
        fuzz_fail("%s: unknown type kind %s", path, kind);
    }
}

/* Fails unless a node (null, unknown, or a payload) conforms to type. */
static void check_node(json_t *node, json_t *type, const char *path)
{
    json_t *own = json_object_get(node, "type");
    json_t *marks = json_object_get(node, "marks");
    size_t i;

    if (!json_is_object(node))
        fuzz_fail("%s: a node is not an object", path);
    if (own != NULL) {
        int under_dynamic = json_is_string(type) && strcmp(json_string_value(type), "dynamic") == 0;

        if (!under_dynamic && !json_equal(own, type))
            fuzz_fail("%s: a node carries its own type under a non-dynamic type", path);
        type = own;
    }
    for (i = 0; i < json_array_size(marks); i++) {
        const char *m = json_string_value(json_array_get(marks, i));

        if (m == NULL || !known_mark(m))
            fuzz_fail("%s: mark %s is not from the context", path, m != NULL ? m : "(not a string)");
    }
    if (json_is_true(json_object_get(node, "null")) || json_is_true(json_object_get(node, "unknown")))
        return;
    if (json_object_get(node, "v") == NULL)
        fuzz_fail("%s: a node has no payload", path);
    check_payload(json_object_get(node, "v"), type, path);
}

/* The typed JSON of a result, checked; malloc'd text or NULL. */
static char *check_value(const tfx_result *r)
{
    char *text = tfx_result_json(r);
    json_error_t error;
    json_t *root;

    if (text == NULL)
        return NULL;   /* a number too long to write under the string limit */
    root = json_loads(text, JSON_ALLOW_NUL, &error);
    if (root == NULL)
        fuzz_fail("the value's JSON does not parse: %s", error.text);
    if (json_object_get(root, "type") == NULL)
        fuzz_fail("the value has no type");
    check_node(root, json_object_get(root, "type"), "value");
    json_decref(root);
    return text;
}

/* One evaluation, checked; returns its value's JSON (or NULL after errors)
 * and a summary of its diagnostics in *digest. */
static char *evaluate(const tfx_source *src, const tfx_context *ctx, size_t size, char **digest)
{
    tfx_eval_limits limits;
    tfx_result *r;
    size_t i;
    int errors = 0;
    char *value = NULL;
    size_t cap = 64;
    size_t len = 0;
    char *d = malloc(cap);

    tfx_eval_limits_init(&limits);
    limits.max_steps = 100000;
    limits.max_depth = 64;
    limits.max_string_bytes = (size_t)1 << 20;
    limits.max_collection_items = 10000;
    limits.max_memory_bytes = FUZZ_MAX_MEMORY;
    r = tfx_evaluate(src, ctx, &limits);
    if (r == NULL || d == NULL)
        fuzz_fail("out of memory outside the library's budget");
    d[0] = '\0';
    for (i = 0; i < tfx_result_diagnostic_count(r); i++) {
        const tfx_diagnostic *diag = tfx_result_diagnostic(r, i);
        char line[128];
        int n;

        if (diag->phase != TFX_PHASE_EVAL)
            fuzz_fail("an evaluation diagnostic has phase parse");
        if (!fuzz_known_category(diag->category))
            fuzz_fail("unknown category %s", diag->category);
        if (diag->summary == NULL || diag->summary[0] == '\0')
            fuzz_fail("a diagnostic without a summary");
        if (diag->has_subject)
            fuzz_check_range(&diag->subject, size, "an evaluation diagnostic's subject");
        if (diag->has_context)
            fuzz_check_range(&diag->context, size, "an evaluation diagnostic's context");
        if (diag->severity == TFX_SEV_ERROR)
            errors = 1;
        n = snprintf(line, sizeof(line), "%s@%zu;", diag->category,
                     diag->has_subject ? diag->subject.start.byte : (size_t)0);
        if (n > 0 && len + (size_t)n + 1 > cap) {
            char *more = realloc(d, cap * 2 + (size_t)n);

            if (more == NULL)
                fuzz_fail("out of memory outside the library's budget");
            d = more;
            cap = cap * 2 + (size_t)n;
        }
        if (n > 0) {
            memcpy(d + len, line, (size_t)n + 1);
            len += (size_t)n;
        }
    }
    if (errors != tfx_result_has_errors(r))
        fuzz_fail("has_errors disagrees with the diagnostics");
    if (!errors)
        value = check_value(r);
    tfx_result_free(r);
    *digest = d;
    return value;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static tfx_context *ctx;
    tfx_mode mode = TFX_MODE_EXPRESSION;
    tfx_limits limits = fuzz_limits();
    tfx_source *src;
    char *v1;
    char *v2;
    char *d1;
    char *d2;

    if (ctx == NULL) {
        char *error = NULL;

        ctx = tfx_context_new();
        if (ctx == NULL || tfx_context_set_typed_all(ctx, variables, sizeof(variables) - 1, &error) != 0)
            fuzz_fail("the fixed context does not load: %s", error != NULL ? error : "out of memory");
    }
    if (size > 0 && data[0] == 0x01) {
        mode = TFX_MODE_TEMPLATE;
        data++;
        size--;
    }
    if (size > FUZZ_MAX_SOURCE)
        return 0;
    src = tfx_source_parse("fuzz.hcl", (const char *)data, size, mode, &limits);
    if (src == NULL)
        fuzz_fail("out of memory outside the library's budget");
    if (!tfx_source_has_errors(src)) {
        v1 = evaluate(src, ctx, size, &d1);
        v2 = evaluate(src, ctx, size, &d2);
        if (strcmp(d1, d2) != 0)
            fuzz_fail("two evaluations give different diagnostics: %s / %s", d1, d2);
        if ((v1 == NULL) != (v2 == NULL) || (v1 != NULL && strcmp(v1, v2) != 0))
            fuzz_fail("two evaluations give different values: %s / %s", v1 != NULL ? v1 : "-",
                      v2 != NULL ? v2 : "-");
        tfx_free(v1);
        tfx_free(v2);
        free(d1);
        free(d2);
    }
    tfx_source_free(src);
    return 0;
}
