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
    int said_hello;               /* a hello request has been answered */
    tfx_profile profile;          /* [profile.adapter] the hello request's "profile" */
    tfx_limits parse_limits;      /* of every parse */
    tfx_eval_limits eval_limits;  /* of every evaluation */
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
    tfx_adapter *a;

    keep_freed_memory();
    a = calloc(1, sizeof(tfx_adapter));
    if (a != NULL) {
        tfx_adapter_set_limits(a, NULL, NULL);
        a->profile = TFX_PROFILE_DEFAULT;
    }
    return a;
}

TFX_API void tfx_adapter_set_limits(tfx_adapter *a, const tfx_limits *parse,
                                    const tfx_eval_limits *eval)
{
    if (parse != NULL)
        a->parse_limits = *parse;
    else
        tfx_limits_init(&a->parse_limits);
    if (eval != NULL)
        a->eval_limits = *eval;
    else
        tfx_eval_limits_init(&a->eval_limits);
}

TFX_API void tfx_adapter_free(tfx_adapter *a)
{
    free(a);
}

/* ---- Writing answers ----
 * An answer is written straight into one growing line of text, in the
 * member order and escapes jansson's json_dumps(JSON_COMPACT |
 * JSON_PRESERVE_ORDER) gave it before: building a jansson object per
 * answer and diagnostic and serialising it was a twentieth of the
 * adapter's work on the corpus.  The library's texts (a typed value, the
 * references) are spliced in as they are. */

typedef struct {
    char *s;
    size_t n;
    size_t cap;
    bool failed;  /* memory ran out: the answer is dropped */
} answer_text;

static void put_bytes(answer_text *o, const char *s, size_t n)
{
    if (o->failed)
        return;
    if (o->cap - o->n < n + 1) {
        size_t cap = o->cap == 0 ? 256 : o->cap;
        char *more;

        while (cap - o->n < n + 1) {
            if (cap > SIZE_MAX / 2) {
                o->failed = true;
                return;
            }
            cap *= 2;
        }
        more = realloc(o->s, cap);
        if (more == NULL) {
            o->failed = true;
            return;
        }
        o->s = more;
        o->cap = cap;
    }
    memcpy(o->s + o->n, s, n);
    o->n += n;
    o->s[o->n] = '\0';
}

static void put_text(answer_text *o, const char *s)
{
    put_bytes(o, s, strlen(s));
}

static void put_integer(answer_text *o, long long v)
{
    char digits[32];

    snprintf(digits, sizeof(digits), "%lld", v);
    put_text(o, digits);
}

/* s[0..n) as a JSON string, escaped as jansson escapes (", \, the short
 * escapes \b \f \n \r \t, other control characters and U+0000 as
 * \u00XX), each byte that is not part of valid UTF-8 written as U+FFFD,
 * as Go's encoding/json does (a diagnostic's summary or detail may quote
 * such bytes).  (conformance/README.md, "Text in requests and answers") */
static void put_string_n(answer_text *o, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;

    put_bytes(o, "\"", 1);
    while (i < n) {
        size_t run = i;
        int32_t cp;
        size_t len;

        /* a run of bytes written as they are */
        while (run < n && u[run] >= 0x20 && u[run] < 0x80 && u[run] != '"' && u[run] != '\\')
            run++;
        put_bytes(o, s + i, run - i);
        i = run;
        if (i >= n)
            break;
        len = tfx_text_decode(u + i, n - i, &cp);
        if (cp < 0) {
            put_bytes(o, "\xEF\xBF\xBD", 3); /* U+FFFD */
        } else if (cp >= 0x80) {
            put_bytes(o, s + i, len);
        } else {
            static const char shorts[] = "btn?fr"; /* the escapes of 8..13 (11 has none) */
            char esc[8];

            if (cp == '"' || cp == '\\')
                snprintf(esc, sizeof(esc), "\\%c", (char)cp);
            else if (cp >= 8 && cp <= 13 && cp != 11)
                snprintf(esc, sizeof(esc), "\\%c", shorts[cp - 8]);
            else
                snprintf(esc, sizeof(esc), "\\u%04X", (unsigned)cp);
            put_text(o, esc);
        }
        i += len;
    }
    put_bytes(o, "\"", 1);
}

static void put_string(answer_text *o, const char *s)
{
    if (s == NULL)
        s = "";
    put_string_n(o, s, strlen(s));
}

/* "seq":N, as the request gave it (an integer in a run request; whatever
 * JSON it was in a request that is refused) */
static void put_seq(answer_text *o, json_t *seq)
{
    char *text;

    put_text(o, "\"seq\":");
    if (json_is_integer(seq)) {
        put_integer(o, (long long)json_integer_value(seq));
        return;
    }
    text = json_dumps(seq, JSON_COMPACT | JSON_ENCODE_ANY);
    if (text == NULL) {
        o->failed = true;
        return;
    }
    put_text(o, text);
    free(text);
}

/* {"seq"?: seq, "errored": true, "message": message} */
static void errored(answer_text *o, json_t *seq, const char *message)
{
    put_text(o, "{");
    if (seq != NULL) {
        put_seq(o, seq);
        put_text(o, ",");
    }
    put_text(o, "\"errored\":true,\"message\":");
    put_string(o, message);
    put_text(o, "}");
}

static void answer_hello(tfx_adapter *a, answer_text *o, const json_t *request)
{
    const char *name;
    const char *profile = json_string_value(json_object_get(request, "profile"));
    size_t i;

    /* [profile.adapter] the run's profile, [profile.default] when the hello
     * names none */
    if (profile != NULL && strcmp(profile, "PN") != 0 && strcmp(profile, "P14") != 0) {
        errored(o, NULL, "unknown \"profile\" (only \"P14\" and \"PN\")");
        return;
    }
    if (profile == NULL)
        a->profile = TFX_PROFILE_DEFAULT;
    else
        a->profile = strcmp(profile, "PN") == 0 ? TFX_PROFILE_PN : TFX_PROFILE_P14;

    put_text(o, "{\"protocol\":1,\"implementation\":{\"name\":\"tfexpr\",\"version\":");
    put_string(o, tfx_version());
    put_text(o, ",\"language\":\"c\"},\"capabilities\":[");
    for (i = 0; i < TFX_COUNTOF(capabilities); i++) {
        put_text(o, i > 0 ? ",\"" : "\"");
        put_text(o, capabilities[i]);
        put_text(o, "\"");
    }
    /* fn:<name> for each function of the built-in table, and only those:
     * cases calling a function tfexpr lacks are not applicable. */
    for (i = 0; (name = tfx_func_builtin_name(i)) != NULL; i++) {
        put_text(o, ",\"fn:");
        put_text(o, name);
        put_text(o, "\"");
    }
    /* [fn.type] the console-only type(), which console requests offer;
     * [flavor.capability] OpenTofu's table, which a case's "flavor":
     * "opentofu" asks for, and fn:<name> of each function only it has */
    put_text(o, ",\"fn:type\",\"flavor.opentofu\"");
    /* [refine.adapter] profile PN's values carry refinements of unknowns */
    if (a->profile == TFX_PROFILE_PN)
        put_text(o, ",\"value.refinements\"");
    for (i = 0; (name = tfx_func_opentofu_only_name(i)) != NULL; i++) {
        put_text(o, ",\"fn:");
        put_text(o, name);
        put_text(o, "\"");
    }
    /* [fn.assume.profile] the assume* functions, PN's OpenTofu table only */
    for (i = 0; a->profile == TFX_PROFILE_PN && (name = tfx_func_opentofu_pn_only_name(i)) != NULL;
         i++) {
        put_text(o, ",\"fn:");
        put_text(o, name);
        put_text(o, "\"");
    }
    put_text(o, "],\"profiles\":[\"P14\",\"PN\"]}");
    a->said_hello = 1;
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

static void put_position(answer_text *o, const tfx_pos *p)
{
    put_text(o, "{\"byte\":");
    put_integer(o, (long long)p->byte);
    put_text(o, ",\"line\":");
    put_integer(o, (long long)p->line);
    put_text(o, ",\"column\":");
    put_integer(o, (long long)p->column);
    put_text(o, "}");
}

static void put_range(answer_text *o, const char *name, const tfx_range *r)
{
    put_text(o, ",\"");
    put_text(o, name);
    put_text(o, "\":{\"start\":");
    put_position(o, &r->start);
    put_text(o, ",\"end\":");
    put_position(o, &r->end);
    put_text(o, "}");
}

/* The protocol form of a diagnostic. */
static void put_diagnostic(answer_text *o, const tfx_diagnostic *d)
{
    put_text(o, d->severity == TFX_SEV_ERROR ? "{\"severity\":\"error\""
                                             : "{\"severity\":\"warning\"");
    put_text(o, d->phase == TFX_PHASE_PARSE ? ",\"phase\":\"parse\"" : ",\"phase\":\"eval\"");
    put_text(o, ",\"category\":");
    put_string(o, d->category);
    put_text(o, ",\"summary\":");
    put_string(o, d->summary);
    put_text(o, ",\"detail\":");
    put_string(o, d->detail != NULL ? d->detail : "");
    if (d->has_subject)
        put_range(o, "subject", &d->subject);
    if (d->has_context)
        put_range(o, "context", &d->context);
    put_text(o, "}");
}

/* The source of a case: parses its input or input_base64 in its mode.
 * Returns NULL after writing an errored answer on a malformed case (or
 * when memory ran out). */
static tfx_source *parse_case(const tfx_adapter *a, answer_text *o, json_t *seq, json_t *c)
{
    const char *mode = json_string_value(json_object_get(c, "mode"));
    const char *input = json_string_value(json_object_get(c, "input"));
    const char *b64 = json_string_value(json_object_get(c, "input_base64"));
    unsigned char *decoded = NULL;
    size_t n;
    tfx_source *src;

    if (mode == NULL || (strcmp(mode, "expression") != 0 && strcmp(mode, "template") != 0)) {
        errored(o, seq, "the case has no \"mode\" of \"expression\" or \"template\"");
        return NULL;
    }
    if ((input == NULL) == (b64 == NULL)) {
        errored(o, seq, "the case needs exactly one of \"input\" and \"input_base64\"");
        return NULL;
    }
    if (b64 != NULL) {
        decoded = decode_base64(b64, &n);
        if (decoded == NULL) {
            errored(o, seq, "\"input_base64\" is not base64");
            return NULL;
        }
        input = (const char *)decoded;
    } else {
        n = json_string_length(json_object_get(c, "input"));
    }
    src = tfx_source_parse_profile("case.hcl", input, n,
                                   strcmp(mode, "template") == 0 ? TFX_MODE_TEMPLATE
                                                                 : TFX_MODE_EXPRESSION,
                                   &a->parse_limits, a->profile);
    free(decoded);
    if (src == NULL)
        errored(o, seq, "out of memory");
    return src;
}

/* {"seq": seq, "diagnostics": [...] from a source's or result's list;
 * the caller closes the object. */
static void open_diagnostics(answer_text *o, json_t *seq, const tfx_source *src,
                             const tfx_result *r)
{
    size_t n = r != NULL ? tfx_result_diagnostic_count(r) : tfx_source_diagnostic_count(src);
    size_t i;

    put_text(o, "{");
    put_seq(o, seq);
    put_text(o, ",\"diagnostics\":[");
    for (i = 0; i < n; i++) {
        if (i > 0)
            put_text(o, ",");
        put_diagnostic(o, r != NULL ? tfx_result_diagnostic(r, i) : tfx_source_diagnostic(src, i));
    }
    put_text(o, "]");
}

/* {"seq": seq, "diagnostics": [...]} */
static void answer_diagnostics(answer_text *o, json_t *seq, const tfx_source *src,
                               const tfx_result *r)
{
    open_diagnostics(o, seq, src, r);
    put_text(o, "}");
}

/* A parse request: every diagnostic of parsing the case's input, an empty
 * list when it parses cleanly. */
static void answer_parse(const tfx_adapter *a, answer_text *o, json_t *seq, json_t *c)
{
    tfx_source *src = parse_case(a, o, seq, c);

    if (src == NULL)
        return;
    answer_diagnostics(o, seq, src, NULL);
    tfx_source_free(src);
}

/* A refs request [refs.protocol]: the traversals the input refers to, or
 * the parse's diagnostics when it has errors. */
static void answer_refs(const tfx_adapter *a, answer_text *o, json_t *seq, json_t *c)
{
    tfx_source *src = parse_case(a, o, seq, c);
    tfx_refs *refs;
    char *text;

    if (src == NULL)
        return;
    if (tfx_source_has_errors(src)) {
        answer_diagnostics(o, seq, src, NULL);
        tfx_source_free(src);
        return;
    }
    refs = tfx_source_refs(src);
    text = refs != NULL ? tfx_refs_json(refs) : NULL;
    tfx_refs_free(refs);
    tfx_source_free(src);
    if (text == NULL) {
        errored(o, seq, "out of memory");
        return;
    }
    /* the library's list, one line of JSON, as it is */
    put_text(o, "{");
    put_seq(o, seq);
    put_text(o, ",\"refs\":");
    put_text(o, text);
    put_text(o, "}");
    tfx_free(text);
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

/* The context of a case: its variables; NULL after writing an errored
 * answer. */
static tfx_context *case_context(answer_text *o, json_t *seq, json_t *c,
                                 const raw_text *raw_vars, tfx_profile profile)
{
    json_t *vars = json_object_get(c, "variables");
    tfx_context *ctx = tfx_context_new();
    char *text;
    char *error = NULL;

    if (ctx == NULL) {
        errored(o, seq, "out of memory");
        return NULL;
    }
    /* [refine.json] the profile first: PN's variables may be refined */
    tfx_context_set_profile(ctx, profile);
    if (vars == NULL)
        return ctx;
    if (!json_is_object(vars)) {
        errored(o, seq, "\"variables\" is not an object");
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
        errored(o, seq, msg != NULL ? msg : "out of memory");
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
 * the home directory.  NULL when the case has no host; NULL and *bad
 * after writing an errored answer when the description is malformed. */
static tfx_host *case_host(answer_text *o, json_t *seq, json_t *c, bool *bad)
{
    json_t *d = json_object_get(c, "host");
    json_t *files;
    json_t *item;
    const char *key;
    tfx_host *h;
    char *error = NULL;
    int rc = 0;

    *bad = false;
    if (d == NULL)
        return NULL;
    h = tfx_host_new();
    if (h == NULL || !json_is_object(d)) {
        *bad = true;
        errored(o, seq, h == NULL ? "out of memory" : "\"host\" is not an object");
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
        *bad = true;
        errored(o, seq, msg != NULL ? msg : "out of memory");
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
static void answer_eval(const tfx_adapter *a, answer_text *o, json_t *seq, json_t *c,
                        bool convert, bool console, const raw_text *raw_vars)
{
    tfx_host *host;
    tfx_context *ctx;
    tfx_source *src;
    tfx_result *r;
    bool bad;

    src = parse_case(a, o, seq, c);
    if (src == NULL)
        return;
    if (tfx_source_has_errors(src)) {
        answer_diagnostics(o, seq, src, NULL);
        tfx_source_free(src);
        return;
    }
    ctx = case_context(o, seq, c, raw_vars, a->profile);
    if (ctx == NULL) {
        tfx_source_free(src);
        return;
    }
    host = case_host(o, seq, c, &bad);
    if (bad) {
        tfx_context_free(ctx);
        tfx_source_free(src);
        return;
    }
    tfx_context_set_host(ctx, host);
    tfx_context_set_profile(ctx, a->profile);
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
            errored(o, seq, "unknown \"flavor\" (only \"terraform\" and \"opentofu\")");
            return;
        }
        if (f != NULL && strcmp(f, "opentofu") == 0)
            tfx_context_set_flavor(ctx, TFX_FLAVOR_OPENTOFU);
    }
    r = tfx_evaluate(src, ctx, &a->eval_limits);
    if (r != NULL && convert && !tfx_result_has_errors(r)) {
        json_t *to = json_object_get(c, "convert_to");
        const char *mode = json_string_value(json_object_get(c, "convert_mode"));
        char *type = to != NULL ? json_dumps(to, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
        char *error = NULL;

        if (type == NULL || tfx_result_convert(r, type, strlen(type),
                                               mode == NULL || strcmp(mode, "safe") != 0,
                                               &error) != 0) {
            errored(o, seq, error != NULL ? error : "the case has no valid \"convert_to\"");
            tfx_free(error);
            free(type);
            tfx_result_free(r);
            tfx_context_free(ctx);
            tfx_host_free(host);
            tfx_source_free(src);
            return;
        }
        free(type);
    }
    if (r == NULL) {
        errored(o, seq, "out of memory");
    } else if (tfx_result_has_errors(r)) {
        answer_diagnostics(o, seq, src, r);
    } else {
        /* the library's typed JSON, one line, as it is: jansson cannot
         * hold an object key with U+0000 (a map key or attribute name may
         * have one) */
        char *value = tfx_result_json(r);

        if (value == NULL) {
            errored(o, seq, "out of memory");
        } else {
            open_diagnostics(o, seq, src, r);
            put_text(o, ",\"value\":");
            put_text(o, value);
            put_text(o, "}");
            tfx_free(value);
        }
    }
    tfx_result_free(r);
    tfx_context_free(ctx);
    tfx_host_free(host);
    tfx_source_free(src);
}

/* A run request's answer. */
static void answer_run(const tfx_adapter *a, answer_text *o, json_t *request,
                       const raw_text *raw_vars)
{
    json_t *seq = json_object_get(request, "seq");
    json_t *c = json_object_get(request, "case");
    const char *kind;

    if (!json_is_integer(seq)) {
        errored(o, NULL, "run request without an integer \"seq\"");
        return;
    }
    if (!json_is_object(c)) {
        errored(o, seq, "run request without a \"case\" object");
        return;
    }
    kind = json_string_value(json_object_get(c, "request"));
    if (kind != NULL && strcmp(kind, "parse") == 0) {
        answer_parse(a, o, seq, c);
    } else if (kind == NULL || strcmp(kind, "eval") == 0) {
        answer_eval(a, o, seq, c, false, false, raw_vars);
    } else if (strcmp(kind, "refs") == 0) {
        answer_refs(a, o, seq, c);
    } else if (strcmp(kind, "convert") == 0) {
        answer_eval(a, o, seq, c, true, false, raw_vars);
    } else if (strcmp(kind, "console") == 0) {
        answer_eval(a, o, seq, c, false, true, raw_vars);
    } else {
        put_text(o, "{");
        put_seq(o, seq);
        put_text(o, ",\"unsupported\":true,\"message\":\"tfexpr does not know this request\"}");
    }
}

TFX_API char *tfx_adapter_handle(tfx_adapter *a, const char *line,
                                 size_t nbytes, int *stop)
{
    json_error_t error;
    json_t *request;
    const char *name;
    raw_text raw_vars = {NULL, 0};
    answer_text o = {NULL, 0, 0, false};

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
    if (request == NULL) {
        errored(&o, NULL, "request is not valid JSON");
    } else if (!json_is_object(request)) {
        errored(&o, NULL, "request is not a JSON object");
    } else if ((name = json_string_value(json_object_get(request, "cmd"))) == NULL) {
        errored(&o, json_object_get(request, "seq"), "request without a string \"cmd\"");
    } else if (strcmp(name, "hello") == 0) {
        answer_hello(a, &o, request);
    } else if (strcmp(name, "run") == 0) {
        answer_run(a, &o, request, &raw_vars);
    } else if (strcmp(name, "stop") == 0) {
        *stop = 1;
    } else {
        errored(&o, json_object_get(request, "seq"), "unknown \"cmd\"");
    }
    json_decref(request);
    if (*stop || o.failed) {
        free(o.s);
        return NULL;
    }
    return o.s;
}
