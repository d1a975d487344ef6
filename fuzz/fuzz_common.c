/*
 * fuzz_common.c — checks shared by the harnesses (fuzz_common.h).
 */
#include "fuzz_common.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "ast.h"
#include "categories.h"
#include "diag.h"
#include "parse.h"

/* Whether tfx_ast_check must also hold for the tree of a parse with
 * errors (the partial tree with placeholders that the parser always
 * makes).  On by default; build with -DFUZZ_CHECK_ERROR_TREES=0 to check
 * only trees of parses without errors. */
#ifndef FUZZ_CHECK_ERROR_TREES
#define FUZZ_CHECK_ERROR_TREES 1
#endif

/* How many diagnostics of a source are rendered (rendering scans the
 * line of the subject, which is the whole input for a one-line one). */
#define FUZZ_RENDER_DIAGS 16

tfx_limits fuzz_limits(void)
{
    tfx_limits limits;

    tfx_limits_init(&limits);
    limits.max_source_bytes = FUZZ_MAX_SOURCE;
    limits.max_depth = FUZZ_MAX_DEPTH;
    limits.max_memory_bytes = FUZZ_MAX_MEMORY;
    return limits;
}

void fuzz_fail(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fputs("fuzz: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    abort();
}

void fuzz_print_bytes(const char *label, const void *data, size_t size)
{
    const unsigned char *s = data;
    size_t i;

    fprintf(stderr, "%s (%zu bytes): \"", label, size);
    for (i = 0; i < size; i++) {
        unsigned char c = s[i];

        if (c == '"' || c == '\\')
            fprintf(stderr, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", stderr);
        else if (c == '\t')
            fputs("\\t", stderr);
        else if (c >= 0x20 && c < 0x7F)
            fputc(c, stderr);
        else
            /* octal, so that a following hex digit is not swallowed */
            fprintf(stderr, "\\%03o", c);
    }
    fputs("\"\n", stderr);
}

int fuzz_known_category(const char *id)
{
    size_t i;

    if (id == NULL)
        return 0;
    for (i = 0; i < sizeof(fuzz_categories) / sizeof(fuzz_categories[0]); i++)
        if (strcmp(id, fuzz_categories[i]) == 0)
            return 1;
    return 0;
}

void fuzz_check_range(const tfx_range *r, size_t nbytes, const char *what)
{
    const char *err = NULL;

    if (r->start.byte > r->end.byte)
        err = "ends before it starts (bytes)";
    else if (r->end.byte > nbytes)
        err = "runs past the end of the source";
    else if (r->start.line < 1 || r->start.column < 1 || r->end.line < 1 || r->end.column < 1)
        err = "has a line or column 0";
    else if (r->start.line > r->end.line
             || (r->start.line == r->end.line && r->start.column > r->end.column))
        err = "runs backwards (lines and columns)";
    else if (r->end.line - 1 > r->end.byte || r->end.column - 1 > r->end.byte)
        err = "has a line or column beyond its byte offset";
    if (err != NULL)
        fuzz_fail("%s %s: %zu:%zu:%zu-%zu:%zu:%zu in a source of %zu bytes", what, err,
                  r->start.byte, r->start.line, r->start.column,
                  r->end.byte, r->end.line, r->end.column, nbytes);
}

void fuzz_check_json(const char *text, int one_line, const char *what)
{
    json_error_t error;
    json_t *v;

    if (text == NULL)
        fuzz_fail("%s is NULL", what);
    if (one_line && strpbrk(text, "\r\n") != NULL)
        fuzz_fail("%s is not one line: %s", what, text);
    v = json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &error);
    if (v == NULL)
        fuzz_fail("%s is not valid JSON (%s at %d): %s", what, error.text, error.position, text);
    json_decref(v);
}

void fuzz_check_source(const tfx_source *src, size_t nbytes)
{
    size_t n = tfx_source_diagnostic_count(src);
    int errors = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        const tfx_diagnostic *d = tfx_source_diagnostic(src, i);
        char *text;

        if (d == NULL)
            fuzz_fail("diagnostic %zu of %zu is NULL", i, n);
        if (!fuzz_known_category(d->category))
            fuzz_fail("diagnostic %zu has the unknown category \"%s\"", i,
                      d->category != NULL ? d->category : "(null)");
        if (d->phase != TFX_PHASE_PARSE)
            fuzz_fail("diagnostic %zu of a parse has phase eval", i);
        if (d->severity != TFX_SEV_ERROR && d->severity != TFX_SEV_WARNING)
            fuzz_fail("diagnostic %zu has severity %d", i, (int)d->severity);
        if (d->summary == NULL || d->summary[0] == '\0')
            fuzz_fail("diagnostic %zu (%s) has no summary", i, d->category);
        if (d->has_subject)
            fuzz_check_range(&d->subject, nbytes, "a diagnostic's subject");
        if (d->has_context)
            fuzz_check_range(&d->context, nbytes, "a diagnostic's context");
        if (d->severity == TFX_SEV_ERROR)
            errors++;
        /* rendering scans the source line: the first few are enough */
        if (i < FUZZ_RENDER_DIAGS) {
            text = tfx_diagnostic_render(src, d);
            if (text == NULL)
                fuzz_fail("tfx_diagnostic_render returned NULL");
            tfx_free(text);
        }
        text = tfx_diagnostic_json(d);
        fuzz_check_json(text, 1, "tfx_diagnostic_json");
        tfx_free(text);
    }
    if (errors > 0 && !tfx_source_has_errors(src))
        fuzz_fail("%d error diagnostics, but tfx_source_has_errors says none", errors);
    if (errors == 0 && tfx_source_has_errors(src))
        fuzz_fail("tfx_source_has_errors without an error diagnostic");
    if (errors == 0) {
        static const tfx_dump_format formats[] = {
            TFX_DUMP_SEXPR, TFX_DUMP_SEXPR_RANGES, TFX_DUMP_JSON, TFX_DUMP_SOURCE,
        };

        for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
            char *dump = tfx_source_dump(src, formats[i]);

            if (dump == NULL)
                fuzz_fail("tfx_source_dump(format %d) of a source without errors is NULL",
                          (int)formats[i]);
            if (formats[i] == TFX_DUMP_JSON)
                fuzz_check_json(dump, 0, "the JSON dump");
            tfx_free(dump);
        }
    }
}

static int same_range(const tfx_range *a, const tfx_range *b)
{
    return a->start.byte == b->start.byte && a->start.line == b->start.line
           && a->start.column == b->start.column && a->end.byte == b->end.byte
           && a->end.line == b->end.line && a->end.column == b->end.column;
}

/* An input above the size limit: one resource.limit error, no tree. */
static void check_refusal(const uint8_t *data, size_t size, tfx_mode mode)
{
    tfx_limits limits = fuzz_limits();
    tfx_source *src = tfx_source_parse(NULL, (const char *)data, size, mode, &limits);
    const tfx_diagnostic *d;

    if (src == NULL)
        fuzz_fail("tfx_source_parse returned NULL for an input above the size limit");
    fuzz_check_source(src, 0);
    d = tfx_source_diagnostic(src, 0);
    if (!tfx_source_has_errors(src) || tfx_source_diagnostic_count(src) != 1 || d == NULL
        || strcmp(d->category, "resource.limit") != 0)
        fuzz_fail("an input of %zu bytes (limit %zu) is not refused with one resource.limit "
                  "error", size, FUZZ_MAX_SOURCE);
    tfx_source_free(src);
}

void fuzz_parse_one(const uint8_t *data, size_t size, tfx_mode mode)
{
    tfx_limits limits = fuzz_limits();
    tfx_source *src;
    tfx_arena *arena;
    tfx_diags diags;
    tfx_node *root;
    size_t n;
    size_t i;
    const char *err;
    char *text;

    if (size > FUZZ_MAX_SOURCE) {
        check_refusal(data, size, mode);
        return;
    }
    src = tfx_source_parse(NULL, (const char *)data, size, mode, &limits);
    if (src == NULL)
        fuzz_fail("tfx_source_parse returned NULL");
    fuzz_check_source(src, size);
    /* An input this small must not need FUZZ_MAX_MEMORY: of the limits,
     * only the depth limit may be reached. */
    for (i = 0; i < tfx_source_diagnostic_count(src); i++) {
        const tfx_diagnostic *d = tfx_source_diagnostic(src, i);

        if (strcmp(d->category, "resource.limit") == 0 && strcmp(d->summary, "Nesting too deep") != 0)
            fuzz_fail("an input of %zu bytes reached a resource limit other than depth (%zu MiB "
                      "of memory): %s", size, FUZZ_MAX_MEMORY >> 20, d->summary);
    }

    /* The same parse again, internally, to reach the tree. */
    arena = tfx_arena_new(FUZZ_MAX_MEMORY);
    if (arena == NULL) {
        tfx_source_free(src);
        return;
    }
    tfx_diags_init(&diags, arena);
    root = tfx_parse(arena, data, size,
                     mode == TFX_MODE_TEMPLATE ? TFX_LEX_TEMPLATE : TFX_LEX_EXPRESSION,
                     FUZZ_MAX_DEPTH, &diags);
    n = tfx_source_diagnostic_count(src);
    if (diags.n != n)
        fuzz_fail("tfx_parse reported %zu diagnostics, tfx_source_parse %zu", diags.n, n);
    for (i = 0; i < n; i++) {
        const tfx_diagnostic *pub = tfx_source_diagnostic(src, i);
        const tfx_diag *in = &diags.items[i];

        if (strcmp(pub->category, tfx_category_id(in->category)) != 0
            || pub->has_subject != in->has_subject
            || (in->has_subject && !same_range(&pub->subject, &in->subject)))
            fuzz_fail("diagnostic %zu differs between tfx_parse and tfx_source_parse", i);
    }
    if ((root == NULL || tfx_diags_has_errors(&diags)) != (tfx_source_has_errors(src) != 0))
        fuzz_fail("tfx_parse and tfx_source_parse disagree on errors");
    if (root != NULL) {
        int errors = tfx_diags_has_errors(&diags);

        err = tfx_ast_check(root, size);
        if (err != NULL && (!errors || FUZZ_CHECK_ERROR_TREES))
            fuzz_fail("tfx_ast_check on the tree of a parse %s: %s",
                      errors ? "with errors" : "without errors", err);
        /* every tree is walkable, printable and freeable */
        text = tfx_ast_sexpr(root, true);
        tfx_free(text);
        text = tfx_ast_json(root);
        fuzz_check_json(text, 0, "tfx_ast_json");
        tfx_free(text);
        text = tfx_ast_print(root);
        if (text == NULL)
            fuzz_fail("tfx_ast_print returned NULL");
        tfx_free(text);
    }
    tfx_arena_free(arena);
    fuzz_check_refs(src, size);
    tfx_source_free(src);
}

/* [refs.result] [refs.range] The references of any parse (with errors
 * too): every range inside the input and ordered, each traversal's range
 * from its root through its last step, texts present, the JSON list
 * valid JSON.  (NULL is allowed: a number key like 1e999999999 is too
 * long to write out.) */
void fuzz_check_refs(const tfx_source *src, size_t size)
{
    tfx_refs *r = tfx_source_refs(src);
    size_t i;
    size_t j;
    char *json;

    if (r == NULL)
        return;   /* a number key too long to write out (tfexpr.h) */
    for (i = 0; i < tfx_refs_count(r); i++) {
        tfx_range whole = tfx_ref_range(r, i);
        tfx_range root = tfx_ref_root_range(r, i);
        size_t n = tfx_ref_step_count(r, i);

        if (whole.start.byte > whole.end.byte || whole.end.byte > size
            || root.start.byte != whole.start.byte || root.end.byte > whole.end.byte)
            fuzz_fail("reference %zu has a range outside the input or its root", i);
        if (tfx_ref_text(r, i) == NULL)
            fuzz_fail("reference %zu has no text", i);
        for (j = 0; j < n; j++) {
            const tfx_ref_step *s = tfx_ref_step_at(r, i, j);

            if (s->range.start.byte > s->range.end.byte || s->range.end.byte > whole.end.byte
                || s->range.start.byte < root.end.byte)
                fuzz_fail("step %zu of reference %zu lies outside its traversal", j, i);
            if (s->kind == TFX_REF_INDEX && (s->key_json == NULL || s->key_text == NULL))
                fuzz_fail("step %zu of reference %zu has no key", j, i);
        }
    }
    json = tfx_refs_json(r);
    fuzz_check_json(json, 1, "tfx_refs_json");
    tfx_free(json);
    tfx_refs_free(r);
}

/* ---------------------------------------------------------------------
 * The evaluation check of fuzz_eval and fuzz_collections
 * ------------------------------------------------------------------ */

/* The marks the fixed contexts of the evaluation harnesses hold; a result
 * may carry no other. */
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
    if (root == NULL && strstr(text, "\\u0000") != NULL) {
        /* jansson takes no NUL in an object key (an attribute or map key
         * may hold one): check a copy with every \u0000 made \u0001 */
        char *copy = strdup(text);
        char *p;

        if (copy == NULL)
            fuzz_fail("out of memory outside the library's budget");
        for (p = strstr(copy, "\\u0000"); p != NULL; p = strstr(p + 6, "\\u0000"))
            p[5] = '1';
        root = json_loads(copy, JSON_ALLOW_NUL, &error);
        free(copy);
    }
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

void fuzz_eval_input(const tfx_context *ctx, const uint8_t *data, size_t size)
{
    tfx_mode mode = TFX_MODE_EXPRESSION;
    tfx_limits limits = fuzz_limits();
    tfx_source *src;

    if (size > 0 && data[0] == 0x01) {
        mode = TFX_MODE_TEMPLATE;
        data++;
        size--;
    }
    if (size > FUZZ_MAX_SOURCE)
        return;
    src = tfx_source_parse("fuzz.hcl", (const char *)data, size, mode, &limits);
    if (src == NULL)
        fuzz_fail("out of memory outside the library's budget");
    if (!tfx_source_has_errors(src)) {
        char *d1;
        char *d2;
        char *v1 = evaluate(src, ctx, size, &d1);
        char *v2 = evaluate(src, ctx, size, &d2);

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
}

tfx_context *fuzz_eval_context(const char *variables, size_t nbytes)
{
    char *error = NULL;
    tfx_context *ctx = tfx_context_new();

    if (ctx == NULL || tfx_context_set_typed_all(ctx, variables, nbytes, &error) != 0)
        fuzz_fail("the fixed context does not load: %s", error != NULL ? error : "out of memory");
    /* OpenTofu's table is Terraform's plus base64gunzip, urldecode and
     * cidrcontains ([flavor.table]): with it every function is reached */
    if (tfx_context_set_flavor(ctx, TFX_FLAVOR_OPENTOFU) != 0)
        fuzz_fail("the OpenTofu function table cannot be chosen");
    return ctx;
}
