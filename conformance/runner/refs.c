/* SPDX-License-Identifier: MPL-2.0 */
/*
 * refs.c — reference answers and expectations (conformance/README.md,
 * "Reference requests"): checking a list of traversals, and comparing an
 * answer's list with a case's.
 *
 * A traversal is {"root": NAME, "root_range": RANGE, "steps": [STEP...],
 * "range": RANGE}; a step {"attr": NAME, "range": RANGE} or {"index":
 * TypedValue, "range": RANGE}.  The "refs" level compares the lists
 * (count, roots, steps, index keys as typed values); "range" and
 * "position" compare every range, as for diagnostics (with
 * "ranges.start-only", the starts only: a range whose start agrees and
 * whose end differs is "partial").
 */
#include "runner.h"

#include <stdlib.h>
#include <string.h>

static bool only_keys(json_t *o, const char *const *allowed, char **why, const char *where)
{
    const char *key;
    json_t *item;

    json_object_foreach(o, key, item) {
        size_t i;
        bool ok = false;

        for (i = 0; allowed[i] != NULL && !ok; i++)
            ok = strcmp(key, allowed[i]) == 0;
        if (!ok) {
            *why = rn_xasprintf("%s has an unexpected member \"%s\"", where, key);
            return false;
        }
    }
    return true;
}

static bool is_pos(json_t *pos)
{
    json_t *b = json_object_get(pos, "byte");
    json_t *l = json_object_get(pos, "line");
    json_t *c = json_object_get(pos, "column");

    return json_is_object(pos) && json_is_integer(b) && json_integer_value(b) >= 0 &&
           json_is_integer(l) && json_integer_value(l) >= 1 && json_is_integer(c) &&
           json_integer_value(c) >= 1 && json_object_size(pos) == 3;
}

static bool check_range(json_t *range, char **why, const char *where)
{
    if (!json_is_object(range) || json_object_size(range) != 2 ||
        !is_pos(json_object_get(range, "start")) || !is_pos(json_object_get(range, "end"))) {
        *why = rn_xasprintf("%s must be a range {start, end} of positions {byte, line, "
                            "column}", where);
        return false;
    }
    return true;
}

static bool check_step(json_t *s, char **why, const char *where)
{
    static const char *const allowed[] = {"attr", "index", "range", NULL};
    json_t *attr = json_object_get(s, "attr");
    json_t *index = json_object_get(s, "index");
    char *sub = NULL;
    char *at;
    bool ok;

    if (!json_is_object(s)) {
        *why = rn_xasprintf("%s must be an object", where);
        return false;
    }
    if (!only_keys(s, allowed, why, where))
        return false;
    if ((attr == NULL) == (index == NULL)) {
        *why = rn_xasprintf("%s has exactly one of \"attr\" and \"index\"", where);
        return false;
    }
    if (attr != NULL && !json_is_string(attr)) {
        *why = rn_xasprintf("%s.attr must be a string", where);
        return false;
    }
    if (index != NULL && !rn_value_check(index, &sub)) {
        *why = rn_xasprintf("%s.index: %s", where, sub);
        free(sub);
        return false;
    }
    at = rn_xasprintf("%s.range", where);
    ok = check_range(json_object_get(s, "range"), why, at);
    free(at);
    return ok;
}

static bool check_ref(json_t *t, char **why, const char *where)
{
    static const char *const allowed[] = {"root", "root_range", "steps", "range", NULL};
    json_t *steps = json_object_get(t, "steps");
    json_t *s;
    size_t i;
    char *at;
    bool ok;

    if (!json_is_object(t)) {
        *why = rn_xasprintf("%s must be an object", where);
        return false;
    }
    if (!only_keys(t, allowed, why, where))
        return false;
    if (!json_is_string(json_object_get(t, "root"))) {
        *why = rn_xasprintf("%s.root must be a string", where);
        return false;
    }
    if (!json_is_array(steps)) {
        *why = rn_xasprintf("%s.steps must be an array", where);
        return false;
    }
    json_array_foreach(steps, i, s) {
        at = rn_xasprintf("%s.steps[%zu]", where, i);
        ok = check_step(s, why, at);
        free(at);
        if (!ok)
            return false;
    }
    at = rn_xasprintf("%s.root_range", where);
    ok = check_range(json_object_get(t, "root_range"), why, at);
    free(at);
    if (!ok)
        return false;
    at = rn_xasprintf("%s.range", where);
    ok = check_range(json_object_get(t, "range"), why, at);
    free(at);
    return ok;
}

bool rn_refs_check(json_t *refs, char **why)
{
    json_t *t;
    size_t i;

    if (!json_is_array(refs)) {
        *why = rn_xstrdup("\"refs\" must be an array of traversals");
        return false;
    }
    json_array_foreach(refs, i, t) {
        char *at = rn_xasprintf("refs[%zu]", i);
        bool ok = check_ref(t, why, at);

        free(at);
        if (!ok)
            return false;
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* Rendering and comparing */

/* a.b[0]["k"]: number keys as their text, other index keys as their
 * payload ("v") in compact JSON, or the whole typed value when it is null
 * or unknown. */
void rn_ref_render(rn_buf *b, json_t *t)
{
    json_t *s;
    size_t i;

    rn_buf_adds(b, rn_json_str(t, "root") != NULL ? rn_json_str(t, "root") : "?");
    json_array_foreach(json_object_get(t, "steps"), i, s) {
        json_t *index = json_object_get(s, "index");

        if (index == NULL) {
            rn_buf_printf(b, ".%s", rn_json_str(s, "attr") != NULL ? rn_json_str(s, "attr") : "?");
        } else {
            json_t *v = json_object_get(index, "v");
            const char *type = rn_json_str(index, "type");

            if (type != NULL && strcmp(type, "number") == 0 && json_is_string(v)) {
                rn_buf_printf(b, "[%s]", json_string_value(v));
            } else {
                char *text = rn_json_compact(v != NULL ? v : index);

                rn_buf_printf(b, "[%s]", text);
                free(text);
            }
        }
    }
}

static json_int_t pos_get(json_t *range, const char *end, const char *key)
{
    json_t *v = json_object_get(json_object_get(range, end), key);

    return json_is_integer(v) ? json_integer_value(v) : -1;
}

static bool same(json_t *e, json_t *g, const char *key)
{
    return pos_get(e, "start", key) == pos_get(g, "start", key) &&
           pos_get(e, "end", key) == pos_get(g, "end", key);
}

/* Compares one range of traversal n (what: "range", "root range", "range
 * of step 2"). */
static bool same_start(json_t *e, json_t *g, const char *key)
{
    return pos_get(e, "start", key) == pos_get(g, "start", key);
}

static void compare_range(const rn_compare_ctx *ctx, json_t *e, json_t *g, size_t n,
                          const char *what, rn_result *r)
{
    bool bytes_start = same_start(e, g, "byte");
    bool cols_start = same_start(e, g, "line") && same_start(e, g, "column");

    if (!same(e, g, "byte")) {
        rn_result_set(r, RN_LV_RANGE, ctx->start_only && bytes_start ? RN_ST_PARTIAL
                                                                    : RN_ST_FAIL);
        rn_strlist_addf(&r->diffs, "%s of traversal %zu: expected bytes %" JSON_INTEGER_FORMAT
                        "-%" JSON_INTEGER_FORMAT ", got %" JSON_INTEGER_FORMAT "-%"
                        JSON_INTEGER_FORMAT, what, n, pos_get(e, "start", "byte"),
                        pos_get(e, "end", "byte"), pos_get(g, "start", "byte"),
                        pos_get(g, "end", "byte"));
    }
    if (ctx->columns && (!same(e, g, "line") || !same(e, g, "column"))) {
        rn_result_set(r, RN_LV_POSITION, ctx->start_only && cols_start ? RN_ST_PARTIAL
                                                                       : RN_ST_FAIL);
        rn_strlist_addf(&r->diffs, "position of %s of traversal %zu: expected %"
                        JSON_INTEGER_FORMAT ":%" JSON_INTEGER_FORMAT "-%" JSON_INTEGER_FORMAT
                        ":%" JSON_INTEGER_FORMAT ", got %" JSON_INTEGER_FORMAT ":%"
                        JSON_INTEGER_FORMAT "-%" JSON_INTEGER_FORMAT ":%" JSON_INTEGER_FORMAT,
                        what, n, pos_get(e, "start", "line"), pos_get(e, "start", "column"),
                        pos_get(e, "end", "line"), pos_get(e, "end", "column"),
                        pos_get(g, "start", "line"), pos_get(g, "start", "column"),
                        pos_get(g, "end", "line"), pos_get(g, "end", "column"));
    }
}

/* Whether two steps are the same step (kind, name, key by value). */
static bool same_step(json_t *e, json_t *g)
{
    json_t *ei = json_object_get(e, "index");
    json_t *gi = json_object_get(g, "index");
    rn_result tmp;
    bool ok;

    if (ei == NULL || gi == NULL)
        return ei == NULL && gi == NULL && rn_json_str(e, "attr") != NULL &&
               rn_json_str(g, "attr") != NULL &&
               strcmp(rn_json_str(e, "attr"), rn_json_str(g, "attr")) == 0;
    memset(&tmp, 0, sizeof(tmp));
    rn_value_compare(ei, gi, false, &tmp);
    ok = !rn_result_any_failed(&tmp);
    rn_result_free(&tmp);
    return ok;
}

/* Whether two traversals have the same root and steps (ranges aside). */
static bool same_ref(json_t *e, json_t *g)
{
    json_t *es = json_object_get(e, "steps");
    json_t *gs = json_object_get(g, "steps");
    size_t i;

    if (strcmp(rn_json_str(e, "root"), rn_json_str(g, "root")) != 0 ||
        json_array_size(es) != json_array_size(gs))
        return false;
    for (i = 0; i < json_array_size(es); i++)
        if (!same_step(json_array_get(es, i), json_array_get(gs, i)))
            return false;
    return true;
}

static char *list_text(json_t *refs)
{
    rn_buf b = {0};
    json_t *t;
    size_t i;

    json_array_foreach(refs, i, t) {
        if (i > 0)
            rn_buf_adds(&b, ", ");
        rn_ref_render(&b, t);
    }
    if (b.data == NULL)
        rn_buf_adds(&b, "(none)");
    return rn_buf_steal(&b);
}

void rn_refs_compare(const rn_compare_ctx *ctx, json_t *expected, json_t *answer,
                     rn_result *r)
{
    json_t *got = json_object_get(answer, "refs");
    size_t ne = json_array_size(expected);
    size_t i;
    bool listed_same = true;

    if (got == NULL) {
        rn_buf b = {0};
        json_t *d;

        rn_result_set(r, RN_LV_OUTCOME, RN_ST_FAIL);
        rn_result_set(r, RN_LV_REFS, RN_ST_NA);
        rn_result_set(r, RN_LV_RANGE, RN_ST_NA);
        rn_result_set(r, RN_LV_POSITION, RN_ST_NA);
        json_array_foreach(json_object_get(answer, "diagnostics"), i, d) {
            if (b.nbytes > 0)
                rn_buf_adds(&b, "; ");
            rn_diag_render(&b, ctx->categories, d);
        }
        rn_strlist_addf(&r->diffs, "outcome: expected references, got diagnostics: %s",
                        b.data != NULL ? b.data : "");
        rn_buf_free(&b);
        return;
    }
    rn_result_set(r, RN_LV_OUTCOME, RN_ST_PASS);
    if (json_array_size(got) != ne)
        listed_same = false;
    for (i = 0; i < ne && listed_same; i++)
        listed_same = same_ref(json_array_get(expected, i), json_array_get(got, i));
    if (!listed_same) {
        char *et = list_text(expected);
        char *gt = list_text(got);

        rn_result_set(r, RN_LV_REFS, RN_ST_FAIL);
        rn_result_set(r, RN_LV_RANGE, RN_ST_NA);
        rn_result_set(r, RN_LV_POSITION, RN_ST_NA);
        rn_strlist_addf(&r->diffs, "refs: expected %zu: %s; got %zu: %s", ne, et,
                        json_array_size(got), gt);
        free(et);
        free(gt);
        return;
    }
    rn_result_set(r, RN_LV_REFS, RN_ST_PASS);
    for (i = 0; i < ne; i++) {
        json_t *e = json_array_get(expected, i);
        json_t *g = json_array_get(got, i);
        json_t *es = json_object_get(e, "steps");
        size_t j;

        compare_range(ctx, json_object_get(e, "range"), json_object_get(g, "range"), i + 1,
                      "range", r);
        compare_range(ctx, json_object_get(e, "root_range"), json_object_get(g, "root_range"),
                      i + 1, "root range", r);
        for (j = 0; j < json_array_size(es); j++) {
            char *what = rn_xasprintf("range of step %zu", j + 1);

            compare_range(ctx, json_object_get(json_array_get(es, j), "range"),
                          json_object_get(json_array_get(json_object_get(g, "steps"), j),
                                          "range"),
                          i + 1, what, r);
            free(what);
        }
    }
    rn_result_set(r, RN_LV_RANGE, ne > 0 ? RN_ST_PASS : RN_ST_NA);
    rn_result_set(r, RN_LV_POSITION, ne > 0 && ctx->columns ? RN_ST_PASS : RN_ST_NA);
}
