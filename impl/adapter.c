/* SPDX-License-Identifier: MPL-2.0 */
/*
 * adapter.c — libtfexpr's side of the conformance protocol
 * (conformance/README.md, "The protocol").
 *
 * One request line in, one answer line out.  The only module that includes
 * jansson so far (style: one module per third-party library).
 *
 * Written against the public API (tfexpr.h): parse requests are answered
 * with the diagnostics of tfx_source_parse, eval requests with
 * tfx_evaluate's value or diagnostics, convert requests with the value
 * converted by tfx_result_convert, refs requests with tfx_source_refs,
 * console requests as eval requests with the console-only type() offered
 * (tfx_context_allow_type_function: a type result is a value of type
 * "type" holding its text, any other use of one "Invalid use of type
 * function", [fn.type.console]).  The `hello` answer declares every capability
 * tfexpr is built to have.
 */
#include "tfexpr.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "common.h"
#include "func.h"
#include "text.h"

struct tfx_adapter {
    int said_hello;   /* a hello request has been answered */
};

/* A span of the request's text. */
typedef struct {
    const char *s;
    size_t n;
} raw_text;

/* The capabilities declared in the hello answer (conformance/capabilities.json). */
static const char *const capabilities[] = {
    "mode.expression", "mode.template", "request.parse", "request.convert", "request.refs",
    "request.console", "host", "host.confined", "unknown", "marks",
    "ranges.column", "numeric.bigfloat512",
};

/* An adapter answers one request after another in a long-lived process,
 * and a request may allocate and free hundreds of megabytes: glibc's
 * malloc gives such memory back to the system after each request and the
 * next one faults it in again (a quarter of `tfexpr adapter`'s CPU time on
 * the conformance corpus went to the kernel).  So the process keeps it:
 * blocks below 32 MiB come from the heap, which grows 16 MiB at a time and
 * is trimmed only when 512 MiB of it are free.  These settings are the
 * process's; an adapter is made only by a process that speaks the
 * protocol. */
static void keep_freed_memory(void)
{
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TOP_PAD, 16 << 20);
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
}

TFX_API tfx_adapter *tfx_adapter_new(void)
{
    keep_freed_memory();
    return calloc(1, sizeof(tfx_adapter));
}

TFX_API void tfx_adapter_free(tfx_adapter *a)
{
    free(a);
}

/* Serialises `answer` to one line and drops the reference; `value`, when
 * not NULL, is the text of the answer's "value" member (the library's
 * typed JSON, one line), spliced in as it is and freed: jansson cannot
 * hold an object key with U+0000 (a map key or attribute name may have
 * one), so the value never goes through it. */
static char *finish(json_t *answer, char *value)
{
    char *text;
    char *out;
    size_t n;
    size_t m;

    if (answer == NULL) {
        tfx_free(value);
        return NULL;
    }
    text = json_dumps(answer, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(answer);
    if (value == NULL || text == NULL) {
        tfx_free(value);
        return text;
    }
    /* {...} -> {...,"value":VALUE}; the answer has "seq" and
     * "diagnostics", so it is not empty */
    n = strlen(text);
    m = strlen(value);
    out = malloc(n + m + 16);
    if (out != NULL)
        snprintf(out, n + m + 16, "%.*s,\"value\":%s}", (int)(n - 1), text, value);
    free(text);
    tfx_free(value);
    return out;
}

/* A JSON string of s: each byte that is not part of valid UTF-8 becomes
 * U+FFFD, as Go's encoding/json writes it (a diagnostic's summary or
 * detail may quote such bytes; jansson refuses them).  NULL only when
 * memory runs out.  (conformance/README.md, "Text in requests and
 * answers") */
static json_t *json_text(const char *s)
{
    size_t n = strlen(s);
    const unsigned char *u = (const unsigned char *)s;
    unsigned char *fixed;
    size_t i = 0;
    size_t o = 0;
    json_t *j;

    if (tfx_text_valid(u, n))
        return json_stringn(s, n);
    fixed = malloc(3 * n + 1); /* a byte becomes at most 3 */
    if (fixed == NULL)
        return NULL;
    while (i < n) {
        int32_t cp;
        size_t len = tfx_text_decode(u + i, n - i, &cp);

        if (cp < 0) {
            fixed[o++] = 0xEF; /* U+FFFD */
            fixed[o++] = 0xBF;
            fixed[o++] = 0xBD;
        } else {
            memcpy(fixed + o, u + i, len);
            o += len;
        }
        i += len;
    }
    j = json_stringn((const char *)fixed, o);
    free(fixed);
    return j;
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
    json_object_set_new(answer, "message", json_text(message));
    return answer;
}

static json_t *answer_hello(tfx_adapter *a)
{
    json_t *answer = json_object();
    json_t *impl = json_object();
    json_t *caps = json_array();
    json_t *profiles = json_array();
    const char *name;
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
    /* fn:<name> for each function of the built-in table, and only those:
     * cases calling a function tfexpr lacks are not applicable. */
    for (i = 0; (name = tfx_func_builtin_name(i)) != NULL; i++) {
        char cap[64];

        snprintf(cap, sizeof(cap), "fn:%s", name);
        json_array_append_new(caps, json_string(cap));
    }
    /* [fn.type] the console-only type(), which console requests offer */
    json_array_append_new(caps, json_string("fn:type"));
    /* [flavor.capability] OpenTofu's table, which a case's "flavor":
     * "opentofu" asks for, and fn:<name> of each function only it has */
    json_array_append_new(caps, json_string("flavor.opentofu"));
    for (i = 0; tfx_func_opentofu_only_name(i) != NULL; i++) {
        char cap[64];

        snprintf(cap, sizeof(cap), "fn:%s", tfx_func_opentofu_only_name(i));
        json_array_append_new(caps, json_string(cap));
    }
    json_array_append_new(profiles, json_string("P14"));
    json_object_set_new(answer, "protocol", json_integer(1));
    json_object_set_new(answer, "implementation", impl);
    json_object_set_new(answer, "capabilities", caps);
    json_object_set_new(answer, "profiles", profiles);
    a->said_hello = 1;
    return answer;
}

/* Decodes standard base64 (padding optional) into a malloc'd buffer; NULL
 * if the text is not base64. */
static unsigned char *decode_base64(const char *text, size_t *n)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t len = strlen(text);
    unsigned char *out = malloc(len / 4 * 3 + 3);
    unsigned long acc = 0;
    int bits = 0;
    size_t i;

    *n = 0;
    if (out == NULL)
        return NULL;
    for (i = 0; i < len && text[i] != '='; i++) {
        const char *at = strchr(alphabet, text[i]);

        if (at == NULL || text[i] == '\0') {
            free(out);
            return NULL;
        }
        acc = (acc << 6) | (unsigned long)(at - alphabet);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[(*n)++] = (unsigned char)((acc >> bits) & 0xFF);
        }
    }
    return out;
}

static json_t *range_json(const tfx_range *r)
{
    return json_pack("{s{sIsIsI}s{sIsIsI}}",
                     "start", "byte", (json_int_t)r->start.byte, "line", (json_int_t)r->start.line,
                     "column", (json_int_t)r->start.column,
                     "end", "byte", (json_int_t)r->end.byte, "line", (json_int_t)r->end.line,
                     "column", (json_int_t)r->end.column);
}

/* The protocol form of a diagnostic. */
static json_t *diagnostic_json(const tfx_diagnostic *d)
{
    json_t *o = json_pack("{ss ss ss so* so*}",
                          "severity", d->severity == TFX_SEV_ERROR ? "error" : "warning",
                          "phase", d->phase == TFX_PHASE_PARSE ? "parse" : "eval",
                          "category", d->category, "summary", json_text(d->summary),
                          "detail", json_text(d->detail != NULL ? d->detail : ""));

    if (o != NULL && d->has_subject)
        json_object_set_new(o, "subject", range_json(&d->subject));
    if (o != NULL && d->has_context)
        json_object_set_new(o, "context", range_json(&d->context));
    return o;
}

/* The source of a case: parses its input or input_base64 in its mode.
 * Returns NULL and sets *answer to an errored answer on a malformed case
 * (or leaves it NULL when memory ran out). */
static tfx_source *parse_case(json_t *seq, json_t *c, json_t **answer)
{
    const char *mode = json_string_value(json_object_get(c, "mode"));
    const char *input = json_string_value(json_object_get(c, "input"));
    const char *b64 = json_string_value(json_object_get(c, "input_base64"));
    unsigned char *decoded = NULL;
    size_t n;
    tfx_source *src;

    *answer = NULL;
    if (mode == NULL || (strcmp(mode, "expression") != 0 && strcmp(mode, "template") != 0)) {
        *answer = errored(seq, "the case has no \"mode\" of \"expression\" or \"template\"");
        return NULL;
    }
    if ((input == NULL) == (b64 == NULL)) {
        *answer = errored(seq, "the case needs exactly one of \"input\" and \"input_base64\"");
        return NULL;
    }
    if (b64 != NULL) {
        decoded = decode_base64(b64, &n);
        if (decoded == NULL) {
            *answer = errored(seq, "\"input_base64\" is not base64");
            return NULL;
        }
        input = (const char *)decoded;
    } else {
        n = json_string_length(json_object_get(c, "input"));
    }
    src = tfx_source_parse("case.hcl", input, n,
                           strcmp(mode, "template") == 0 ? TFX_MODE_TEMPLATE : TFX_MODE_EXPRESSION,
                           NULL);
    free(decoded);
    if (src == NULL)
        *answer = errored(seq, "out of memory");
    return src;
}

/* {"seq": seq, "diagnostics": [...]} from a source's or result's list. */
static json_t *answer_diagnostics(json_t *seq, const tfx_source *src, const tfx_result *r)
{
    json_t *answer = json_object();
    json_t *diags = json_array();
    size_t n = r != NULL ? tfx_result_diagnostic_count(r) : tfx_source_diagnostic_count(src);
    size_t i;

    if (answer == NULL || diags == NULL) {
        json_decref(answer);
        json_decref(diags);
        return NULL;
    }
    for (i = 0; i < n; i++)
        json_array_append_new(diags, diagnostic_json(r != NULL ? tfx_result_diagnostic(r, i)
                                                               : tfx_source_diagnostic(src, i)));
    json_object_set(answer, "seq", seq);
    json_object_set_new(answer, "diagnostics", diags);
    return answer;
}

/* A parse request: every diagnostic of parsing the case's input, an empty
 * list when it parses cleanly. */
static json_t *answer_parse(json_t *seq, json_t *c)
{
    json_t *answer;
    tfx_source *src = parse_case(seq, c, &answer);

    if (src == NULL)
        return answer;
    answer = answer_diagnostics(seq, src, NULL);
    tfx_source_free(src);
    return answer;
}

/* A refs request [refs.protocol]: the traversals the input refers to, or
 * the parse's diagnostics when it has errors. */
static json_t *answer_refs(json_t *seq, json_t *c)
{
    json_t *answer;
    tfx_source *src = parse_case(seq, c, &answer);
    tfx_refs *refs;
    char *text;
    json_t *list;

    if (src == NULL)
        return answer;
    if (tfx_source_has_errors(src)) {
        answer = answer_diagnostics(seq, src, NULL);
        tfx_source_free(src);
        return answer;
    }
    refs = tfx_source_refs(src);
    text = refs != NULL ? tfx_refs_json(refs) : NULL;
    list = text != NULL ? json_loads(text, 0, NULL) : NULL;
    tfx_free(text);
    tfx_refs_free(refs);
    tfx_source_free(src);
    if (list == NULL)
        return errored(seq, "out of memory");
    answer = json_object();
    if (answer == NULL) {
        json_decref(list);
        return NULL;
    }
    json_object_set(answer, "seq", seq);
    json_object_set_new(answer, "refs", list);
    return answer;
}

/* ---- Object keys holding U+0000 ----
 * jansson refuses an object key with U+0000, which a case's variables may
 * hold (a map key, an attribute name; conformance/README.md, "Text in
 * requests and answers").  So a run request's "case"."variables" is found
 * by a scan of the JSON text, cut out (left as {}) for jansson, and given
 * to the library, whose typed-JSON reader takes such keys, as it is; a
 * request without an object there, or that does not load so, is loaded
 * whole. */

static size_t skip_ws(const char *s, size_t n, size_t i)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        i++;
    return i;
}

/* The index after the JSON string that starts at s[i] ('"'); n if it does
 * not end. */
static size_t skip_string(const char *s, size_t n, size_t i)
{
    for (i++; i < n; i++) {
        if (s[i] == '\\')
            i++;
        else if (s[i] == '"')
            return i + 1;
    }
    return n;
}

/* The index after the JSON value that starts at s[i]; n if it does not
 * end. */
static size_t skip_value(const char *s, size_t n, size_t i)
{
    size_t depth = 0;

    while (i < n) {
        char c = s[i];

        if (c == '"') {
            i = skip_string(s, n, i);
            if (depth == 0)
                return i;
            continue;
        }
        if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return i; /* a scalar ended by its container */
            if (--depth == 0)
                return i + 1;
        } else if (depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
            return i;
        }
        i++;
    }
    return n;
}

/* The value of member `key` (written without escapes) of the JSON object
 * at s[i...]: its start in *vs and end in *ve; false if there is none or
 * the text is not an object. */
static bool find_member(const char *s, size_t n, size_t i, const char *key, size_t *vs, size_t *ve)
{
    size_t klen = strlen(key);

    i = skip_ws(s, n, i);
    if (i >= n || s[i] != '{')
        return false;
    i++;
    for (;;) {
        size_t k0;
        size_t k1;

        i = skip_ws(s, n, i);
        if (i >= n || s[i] != '"')
            return false;
        k0 = i + 1;
        k1 = skip_string(s, n, i);
        i = skip_ws(s, n, k1);
        if (i >= n || s[i] != ':')
            return false;
        i = skip_ws(s, n, i + 1);
        *vs = i;
        *ve = skip_value(s, n, i);
        if (k1 - k0 == klen + 1 && memcmp(s + k0, key, klen) == 0)
            return true;
        i = skip_ws(s, n, *ve);
        if (i >= n || s[i] != ',')
            return false;
        i++;
    }
}

/* The request loaded with its "case"."variables" object cut out, that
 * object's text in *raw; NULL when there is none or it still does not
 * load. */
static json_t *load_cutting_variables(const char *line, size_t n, raw_text *raw)
{
    size_t cs;
    size_t ce;
    size_t vs;
    size_t ve;
    char *cut;
    json_t *request;

    if (!find_member(line, n, 0, "case", &cs, &ce) ||
        !find_member(line, ce, cs, "variables", &vs, &ve) || vs >= ve || line[vs] != '{')
        return NULL;
    cut = malloc(n - (ve - vs) + 3);
    if (cut == NULL)
        return NULL;
    memcpy(cut, line, vs);
    cut[vs] = '{';
    cut[vs + 1] = '}';
    memcpy(cut + vs + 2, line + ve, n - ve);
    request = json_loadb(cut, n - (ve - vs) + 2, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, NULL);
    free(cut);
    if (request != NULL) {
        raw->s = line + vs;
        raw->n = ve - vs;
    }
    return request;
}

/* The context of a case: its variables. */
static tfx_context *case_context(json_t *seq, json_t *c, const raw_text *raw_vars,
                                 json_t **answer)
{
    json_t *vars = json_object_get(c, "variables");
    tfx_context *ctx = tfx_context_new();
    char *text;
    char *error = NULL;

    *answer = NULL;
    if (ctx == NULL) {
        *answer = errored(seq, "out of memory");
        return NULL;
    }
    if (vars == NULL)
        return ctx;
    if (!json_is_object(vars)) {
        *answer = errored(seq, "\"variables\" is not an object");
        tfx_context_free(ctx);
        return NULL;
    }
    text = raw_vars->s != NULL ? NULL : json_dumps(vars, JSON_COMPACT);
    if ((raw_vars->s == NULL && text == NULL) ||
        tfx_context_set_typed_all(ctx, raw_vars->s != NULL ? raw_vars->s : text,
                                  raw_vars->s != NULL ? raw_vars->n : strlen(text), &error) != 0) {
        char *msg = NULL;

        if (error != NULL && (msg = malloc(strlen(error) + 32)) != NULL)
            sprintf(msg, "malformed variables: %s", error);
        *answer = errored(seq, msg != NULL ? msg : "out of memory");
        free(msg);
        tfx_free(error);
        free(text);
        tfx_context_free(ctx);
        return NULL;
    }
    free(text);
    return ctx;
}

/* [host.protocol] The host a case describes ("host": conformance/README.md,
 * "Host description"): in-memory files under the working directory
 * ("cwd", default "/work"), the clock, the plan time, the random bytes and
 * the home directory.  NULL with no answer when the case has no host;
 * NULL with an errored answer when the description is malformed. */
static tfx_host *case_host(json_t *seq, json_t *c, json_t **answer)
{
    json_t *d = json_object_get(c, "host");
    json_t *files;
    json_t *item;
    const char *key;
    tfx_host *h;
    char *error = NULL;
    int rc = 0;

    *answer = NULL;
    if (d == NULL)
        return NULL;
    h = tfx_host_new();
    if (h == NULL || !json_is_object(d)) {
        *answer = errored(seq, h == NULL ? "out of memory" : "\"host\" is not an object");
        tfx_host_free(h);
        return NULL;
    }
    tfx_host_use_memory_files(h);
    files = json_object_get(d, "files");
    if (files != NULL && !json_is_object(files))
        rc = -1;
    json_object_foreach(files, key, item) {
        size_t n = 0;
        unsigned char *bytes =
            json_is_string(item) ? decode_base64(json_string_value(item), &n) : NULL;

        if (rc == 0 && (bytes == NULL
                        || tfx_host_add_file(h, key, (const char *)bytes, n, &error) != 0))
            rc = -1;
        free(bytes);
    }
    item = json_object_get(d, "cwd");
    if (rc == 0)
        rc = tfx_host_set_cwd(h, json_is_string(item) ? json_string_value(item) : "/work",
                              &error);
    if (rc == 0 && (item = json_object_get(d, "home")) != NULL)
        rc = json_is_string(item) ? tfx_host_set_home(h, json_string_value(item), &error) : -1;
    if (rc == 0 && (item = json_object_get(d, "now")) != NULL)
        rc = json_is_string(item) ? tfx_host_set_now(h, json_string_value(item), &error) : -1;
    if (rc == 0 && (item = json_object_get(d, "plan_timestamp")) != NULL)
        rc = json_is_string(item)
                 ? tfx_host_set_plan_timestamp(h, json_string_value(item), &error)
                 : -1;
    if (rc == 0 && (item = json_object_get(d, "random")) != NULL) {
        size_t n = 0;
        unsigned char *bytes =
            json_is_string(item) ? decode_base64(json_string_value(item), &n) : NULL;

        rc = bytes != NULL ? tfx_host_set_random_bytes(h, bytes, n) : -1;
        free(bytes);
    }
    if (rc != 0) {
        char *msg = malloc(strlen(error != NULL ? error : "") + 32);

        if (msg != NULL)
            sprintf(msg, "malformed host: %s", error != NULL ? error : "a field has a bad value");
        *answer = errored(seq, msg != NULL ? msg : "out of memory");
        free(msg);
        tfx_free(error);
        tfx_host_free(h);
        return NULL;
    }
    return h;
}

/* An eval request (and a convert request: the value then converted to the
 * case's convert_to type; a console request: evaluated as `terraform
 * console` does, with type()): the value, or the diagnostics. */
static json_t *answer_eval(json_t *seq, json_t *c, bool convert, bool console,
                           const raw_text *raw_vars, char **value_text)
{
    tfx_host *host;
    json_t *answer;
    tfx_context *ctx;
    tfx_source *src;
    tfx_result *r;

    src = parse_case(seq, c, &answer);
    if (src == NULL)
        return answer;
    if (tfx_source_has_errors(src)) {
        answer = answer_diagnostics(seq, src, NULL);
        tfx_source_free(src);
        return answer;
    }
    ctx = case_context(seq, c, raw_vars, &answer);
    if (ctx == NULL) {
        tfx_source_free(src);
        return answer;
    }
    host = case_host(seq, c, &answer);
    if (answer != NULL) {
        tfx_context_free(ctx);
        tfx_source_free(src);
        return answer;
    }
    tfx_context_set_host(ctx, host);
    if (console)
        tfx_context_allow_type_function(ctx, 1);
    /* [flavor.table] the case's "flavor" chooses the function table */
    {
        json_t *flavor = json_object_get(c, "flavor");
        const char *f = json_string_value(flavor);

        if (flavor != NULL && (f == NULL || (strcmp(f, "terraform") != 0 &&
                                             strcmp(f, "opentofu") != 0))) {
            tfx_context_free(ctx);
            tfx_host_free(host);
            tfx_source_free(src);
            return errored(seq, "unknown \"flavor\" (only \"terraform\" and \"opentofu\")");
        }
        if (f != NULL && strcmp(f, "opentofu") == 0)
            tfx_context_set_flavor(ctx, TFX_FLAVOR_OPENTOFU);
    }
    r = tfx_evaluate(src, ctx, NULL);
    if (r != NULL && convert && !tfx_result_has_errors(r)) {
        json_t *to = json_object_get(c, "convert_to");
        const char *mode = json_string_value(json_object_get(c, "convert_mode"));
        char *type = to != NULL ? json_dumps(to, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
        char *error = NULL;

        if (type == NULL || tfx_result_convert(r, type, strlen(type),
                                               mode == NULL || strcmp(mode, "safe") != 0,
                                               &error) != 0) {
            answer = errored(seq, error != NULL ? error : "the case has no valid \"convert_to\"");
            tfx_free(error);
            free(type);
            tfx_result_free(r);
            tfx_context_free(ctx);
            tfx_host_free(host);
            tfx_source_free(src);
            return answer;
        }
        free(type);
    }
    if (r == NULL) {
        answer = errored(seq, "out of memory");
    } else if (tfx_result_has_errors(r)) {
        answer = answer_diagnostics(seq, src, r);
    } else {
        *value_text = tfx_result_json(r);
        answer = *value_text != NULL ? answer_diagnostics(seq, src, r)
                                     : errored(seq, "out of memory");
    }
    tfx_result_free(r);
    tfx_context_free(ctx);
    tfx_host_free(host);
    tfx_source_free(src);
    return answer;
}

/* A run request's answer; an evaluated value's text in *value_text. */
static json_t *answer_run(json_t *request, const raw_text *raw_vars, char **value_text)
{
    json_t *seq = json_object_get(request, "seq");
    json_t *c = json_object_get(request, "case");
    const char *kind;
    json_t *answer;

    if (!json_is_integer(seq))
        return errored(NULL, "run request without an integer \"seq\"");
    if (!json_is_object(c))
        return errored(seq, "run request without a \"case\" object");
    kind = json_string_value(json_object_get(c, "request"));
    if (kind != NULL && strcmp(kind, "parse") == 0)
        return answer_parse(seq, c);
    if (kind == NULL || strcmp(kind, "eval") == 0)
        return answer_eval(seq, c, false, false, raw_vars, value_text);
    if (strcmp(kind, "refs") == 0)
        return answer_refs(seq, c);
    if (strcmp(kind, "convert") == 0)
        return answer_eval(seq, c, true, false, raw_vars, value_text);
    if (strcmp(kind, "console") == 0)
        return answer_eval(seq, c, false, true, raw_vars, value_text);
    answer = json_object();
    if (answer == NULL)
        return NULL;
    json_object_set(answer, "seq", seq);
    json_object_set_new(answer, "unsupported", json_true());
    json_object_set_new(answer, "message", json_string("tfexpr does not know this request"));
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
    char *value_text = NULL;
    raw_text raw_vars = {NULL, 0};

    *stop = 0;
    /* strings may hold U+0000 (a variable's value, an input):
     * JSON_ALLOW_NUL, and string values are read with their length
     * (conformance/README.md, "Text in requests and answers") */
    /* a run request's variables go to the library's typed-JSON reader as
     * the text they are (see "Object keys holding U+0000"): decoding them
     * with jansson and encoding them again for the library was a fifth of
     * the adapter's work on the corpus's light cases */
    request = load_cutting_variables(line, nbytes, &raw_vars);
    if (request == NULL)
        request = json_loadb(line, nbytes, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &error);
    if (request == NULL)
        return finish(errored(NULL, "request is not valid JSON"), NULL);
    if (!json_is_object(request)) {
        json_decref(request);
        return finish(errored(NULL, "request is not a JSON object"), NULL);
    }
    cmd = json_object_get(request, "cmd");
    name = json_string_value(cmd);
    if (name == NULL)
        answer = errored(json_object_get(request, "seq"),
                         "request without a string \"cmd\"");
    else if (strcmp(name, "hello") == 0)
        answer = answer_hello(a);
    else if (strcmp(name, "run") == 0)
        answer = answer_run(request, &raw_vars, &value_text);
    else if (strcmp(name, "stop") == 0) {
        *stop = 1;
        answer = NULL;
    } else
        answer = errored(json_object_get(request, "seq"), "unknown \"cmd\"");
    json_decref(request);
    return finish(answer, value_text);
}
