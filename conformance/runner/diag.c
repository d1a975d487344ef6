/* SPDX-License-Identifier: MPL-2.0 */
/*
 * diag.c — diagnostics (conformance/README.md, "Expected results" and
 * "Comparing results"): checking them, mapping summaries to categories,
 * comparing expected with got, rendering.
 *
 * Only error diagnostics take part in a comparison; warnings are shown
 * but never compared.  Levels: count, then pairwise in order phase,
 * category, range (subject bytes) and position (subject lines and
 * columns; only where the expectation has them and the adapter declares
 * "ranges.column").  Summary differences are recorded as informative.
 *
 * Partial credit (conformance/README.md, "Partial credit"): an adapter
 * declaring "diagnostics.first-only" that answers one error where more
 * are expected has that error compared with the first expected one, and
 * the count level is "partial"; one declaring "ranges.start-only" has
 * only the starts of subjects compared, and a range or position whose
 * start agrees but whose end differs is "partial".
 */
#include "runner.h"

#include <stdlib.h>
#include <string.h>

static bool is_pos_int(json_t *j, json_int_t min)
{
    return json_is_integer(j) && json_integer_value(j) >= min;
}

/* Where a position or range of diagnostic `index` is, for a message:
 * "diagnostic 2: subject" (end NULL) or "diagnostic 2: subject.start".
 * Built only when there is something wrong to say, as the checks run on
 * every answer. */
static char *where_text(size_t index, const char *key, const char *end)
{
    if (end == NULL)
        return rn_xasprintf("diagnostic %zu: %s", index + 1, key);
    return rn_xasprintf("diagnostic %zu: %s.%s", index + 1, key, end);
}

/* Fails with the message where_text + `text` (+ `member` + `after`, when
 * member is not NULL). */
static bool where_fail(char **why, size_t index, const char *key, const char *end,
                       const char *text, const char *member, const char *after)
{
    char *where = where_text(index, key, end);
    rn_buf b = {0};

    rn_buf_adds(&b, where);
    rn_buf_adds(&b, text);
    if (member != NULL) {
        rn_buf_adds(&b, member);
        rn_buf_adds(&b, after);
    }
    free(where);
    *why = rn_buf_steal(&b);
    return false;
}

static bool check_pos(json_t *pos, char **why, size_t index, const char *key,
                      const char *end)
{
    const char *member;
    json_t *item;

    if (!json_is_object(pos))
        return where_fail(why, index, key, end,
                          " must be an object {byte, line, column}", NULL, NULL);
    if (!is_pos_int(json_object_get(pos, "byte"), 0))
        return where_fail(why, index, key, end,
                          " needs \"byte\", an integer >= 0", NULL, NULL);
    json_object_foreach(pos, member, item) {
        if (strcmp(member, "byte") == 0)
            continue;
        if (strcmp(member, "line") != 0 && strcmp(member, "column") != 0)
            return where_fail(why, index, key, end, " has an unexpected member \"",
                              member, "\"");
        if (!is_pos_int(item, 1))
            return where_fail(why, index, key, end, ".", member,
                              " must be an integer >= 1");
    }
    return true;
}

static bool check_range(json_t *range, char **why, size_t index, const char *key)
{
    const char *member;
    json_t *item;

    if (!json_is_object(range))
        return where_fail(why, index, key, NULL,
                          " must be an object {start, end}", NULL, NULL);
    json_object_foreach(range, member, item) {
        if (strcmp(member, "start") != 0 && strcmp(member, "end") != 0)
            return where_fail(why, index, key, NULL, " has an unexpected member \"",
                              member, "\"");
    }
    return check_pos(json_object_get(range, "start"), why, index, key, "start") &&
           check_pos(json_object_get(range, "end"), why, index, key, "end");
}

static bool one_of(const char *s, const char *a, const char *b)
{
    return s != NULL && (strcmp(s, a) == 0 || strcmp(s, b) == 0);
}

static bool check_diag(json_t *d, bool expected, char **why, size_t index)
{
    const char *key;
    json_t *item;

    if (!json_is_object(d)) {
        *why = rn_xasprintf("diagnostic %zu is not an object", index + 1);
        return false;
    }
    if (!one_of(rn_json_str(d, "severity"), "error", "warning")) {
        *why = rn_xasprintf("diagnostic %zu: \"severity\" must be \"error\" or "
                            "\"warning\"", index + 1);
        return false;
    }
    if (!one_of(rn_json_str(d, "phase"), "parse", "eval")) {
        *why = rn_xasprintf("diagnostic %zu: \"phase\" must be \"parse\" or "
                            "\"eval\"", index + 1);
        return false;
    }
    if (expected && rn_json_str(d, "category") == NULL) {
        *why = rn_xasprintf("diagnostic %zu: \"category\" (a string) is required",
                            index + 1);
        return false;
    }
    json_object_foreach(d, key, item) {
        if (strcmp(key, "severity") == 0 || strcmp(key, "phase") == 0)
            continue;
        if (strcmp(key, "category") == 0 || strcmp(key, "summary") == 0 ||
            strcmp(key, "detail") == 0) {
            if (!json_is_string(item)) {
                *why = rn_xasprintf("diagnostic %zu: \"%s\" must be a string",
                                    index + 1, key);
                return false;
            }
        } else if (strcmp(key, "subject") == 0 || strcmp(key, "context") == 0) {
            if (!check_range(item, why, index, key))
                return false;
        } else {
            *why = rn_xasprintf("diagnostic %zu: unexpected member \"%s\"",
                                index + 1, key);
            return false;
        }
    }
    return true;
}

bool rn_diags_check(json_t *diags, bool expected, char **why)
{
    size_t i;
    json_t *d;

    if (!json_is_array(diags)) {
        *why = rn_xstrdup("\"diagnostics\" must be an array");
        return false;
    }
    json_array_foreach(diags, i, d) {
        if (!check_diag(d, expected, why, i))
            return false;
    }
    return true;
}

static bool is_error(json_t *d)
{
    const char *sev = rn_json_str(d, "severity");

    return sev != NULL && strcmp(sev, "error") == 0;
}

bool rn_diags_have_error(json_t *diags)
{
    size_t i;
    json_t *d;

    json_array_foreach(diags, i, d) {
        if (is_error(d))
            return true;
    }
    return false;
}

/* Whether `summary` matches one of the patterns of `list`. */
static bool summary_listed(json_t *list, const char *summary)
{
    size_t i;
    json_t *pattern;

    json_array_foreach(list, i, pattern) {
        const char *p = json_string_value(pattern);

        if (p != NULL && rn_star_match(p, summary))
            return true;
    }
    return false;
}

const char *rn_diag_category(json_t *categories, json_t *diag)
{
    const char *own = rn_json_str(diag, "category");
    const char *summary = rn_json_str(diag, "summary");
    size_t i;
    json_t *cat;

    if (own != NULL)
        return own;
    if (summary == NULL)
        return "unmapped";
    json_array_foreach(json_object_get(categories, "categories"), i, cat) {
        if (rn_json_str(cat, "id") != NULL &&
            summary_listed(json_object_get(cat, "summaries"), summary))
            return rn_json_str(cat, "id");
    }
    /* then the summaries of other upstream versions: a summary names its
     * category whatever the profile being run */
    json_array_foreach(json_object_get(categories, "categories"), i, cat) {
        const char *profile;
        json_t *list;

        json_object_foreach(json_object_get(cat, "summaries_by_profile"), profile, list) {
            if (rn_json_str(cat, "id") != NULL && summary_listed(list, summary))
                return rn_json_str(cat, "id");
        }
    }
    return "unmapped";
}

/* ------------------------------------------------------------------ */
/* Rendering */

static json_int_t pos_get(json_t *range, const char *end, const char *key)
{
    json_t *v = json_object_get(json_object_get(range, end), key);

    return json_is_integer(v) ? json_integer_value(v) : -1;
}

static bool has_columns(json_t *range)
{
    return pos_get(range, "start", "line") > 0 &&
           pos_get(range, "start", "column") > 0 &&
           pos_get(range, "end", "line") > 0 &&
           pos_get(range, "end", "column") > 0;
}

static void render_bytes(rn_buf *b, json_t *range)
{
    if (range == NULL)
        rn_buf_adds(b, "-");
    else
        rn_buf_printf(b, "%" JSON_INTEGER_FORMAT "-%" JSON_INTEGER_FORMAT,
                      pos_get(range, "start", "byte"), pos_get(range, "end", "byte"));
}

static void render_columns(rn_buf *b, json_t *range)
{
    if (!has_columns(range)) {
        rn_buf_adds(b, "-");
        return;
    }
    rn_buf_printf(b, "%" JSON_INTEGER_FORMAT ":%" JSON_INTEGER_FORMAT
                  "-%" JSON_INTEGER_FORMAT ":%" JSON_INTEGER_FORMAT,
                  pos_get(range, "start", "line"), pos_get(range, "start", "column"),
                  pos_get(range, "end", "line"), pos_get(range, "end", "column"));
}

void rn_diag_render(rn_buf *b, json_t *categories, json_t *diag)
{
    json_t *subject = json_object_get(diag, "subject");
    json_t *summary = json_object_get(diag, "summary");

    if (!is_error(diag))
        rn_buf_adds(b, "warning ");
    rn_buf_printf(b, "%s %s ", rn_json_str(diag, "phase"),
                  rn_diag_category(categories, diag));
    render_bytes(b, subject);
    if (has_columns(subject)) {
        rn_buf_adds(b, " (");
        render_columns(b, subject);
        rn_buf_addc(b, ')');
    }
    if (summary != NULL) {
        char *quoted = rn_json_compact(summary);

        rn_buf_printf(b, " %s", quoted);
        free(quoted);
    }
}

/* ------------------------------------------------------------------ */
/* Comparing */

/* The error diagnostics of `diags`, borrowed, in order. */
static json_t *errors_of(json_t *diags)
{
    json_t *errors = json_array();
    size_t i;
    json_t *d;

    json_array_foreach(diags, i, d) {
        if (is_error(d))
            json_array_append(errors, d);
    }
    return errors;
}

static bool same_pos(json_t *e, json_t *g, const char *key)
{
    return pos_get(e, "start", key) == pos_get(g, "start", key) &&
           pos_get(e, "end", key) == pos_get(g, "end", key);
}

static bool same_start(json_t *e, json_t *g, const char *key)
{
    return pos_get(e, "start", key) == pos_get(g, "start", key);
}

/* The status of a range level: PASS when `whole` agrees, PARTIAL when
 * only `start` does and the adapter compares starts only, else FAIL. */
static rn_status range_status(const rn_compare_ctx *ctx, bool whole, bool start)
{
    if (whole)
        return RN_ST_PASS;
    return ctx->start_only && start ? RN_ST_PARTIAL : RN_ST_FAIL;
}

/* Compares expected error `e` with got error `g` (both number n). */
static void compare_pair(const rn_compare_ctx *ctx, json_t *e, json_t *g,
                         size_t n, rn_result *r, bool *range_checked,
                         bool *position_checked)
{
    const char *ephase = rn_json_str(e, "phase");
    const char *gphase = rn_json_str(g, "phase");
    const char *ecat = rn_json_str(e, "category");
    const char *gcat = rn_diag_category(ctx->categories, g);
    json_t *esub = json_object_get(e, "subject");
    json_t *gsub = json_object_get(g, "subject");
    const char *esum = rn_json_str(e, "summary");
    const char *gsum = rn_json_str(g, "summary");

    if (strcmp(ephase, gphase) != 0) {
        rn_result_set(r, RN_LV_PHASE, RN_ST_FAIL);
        rn_strlist_addf(&r->diffs, "phase of error %zu: expected %s, got %s", n,
                        ephase, gphase);
    }
    if (strcmp(ecat, gcat) != 0) {
        rn_result_set(r, RN_LV_CATEGORY, RN_ST_FAIL);
        if (rn_json_str(g, "category") == NULL && gsum != NULL)
            rn_strlist_addf(&r->diffs, "category of error %zu: expected %s, got %s "
                            "(mapped from summary \"%s\")", n, ecat, gcat, gsum);
        else
            rn_strlist_addf(&r->diffs, "category of error %zu: expected %s, got %s",
                            n, ecat, gcat);
    }
    if (esub != NULL) {
        rn_status st = gsub == NULL ? RN_ST_FAIL
                                    : range_status(ctx, same_pos(esub, gsub, "byte"),
                                                   same_start(esub, gsub, "byte"));

        *range_checked = true;
        if (st != RN_ST_PASS) {
            rn_buf eb = {0};
            rn_buf gb = {0};

            render_bytes(&eb, esub);
            render_bytes(&gb, gsub);
            rn_result_set(r, RN_LV_RANGE, st);
            rn_strlist_addf(&r->diffs, "range of error %zu%s: expected bytes %s, "
                            "got %s", n, st == RN_ST_PARTIAL ? " (partial: "
                            "ranges.start-only, the starts agree)" : "", eb.data, gb.data);
            rn_buf_free(&eb);
            rn_buf_free(&gb);
        }
    }
    if (ctx->columns && has_columns(esub)) {
        rn_status st = !has_columns(gsub)
                           ? RN_ST_FAIL
                           : range_status(ctx,
                                          same_pos(esub, gsub, "line") &&
                                              same_pos(esub, gsub, "column"),
                                          same_start(esub, gsub, "line") &&
                                              same_start(esub, gsub, "column"));

        *position_checked = true;
        if (st != RN_ST_PASS) {
            rn_buf eb = {0};
            rn_buf gb = {0};

            render_columns(&eb, esub);
            render_columns(&gb, gsub);
            rn_result_set(r, RN_LV_POSITION, st);
            rn_strlist_addf(&r->diffs, "position of error %zu%s: expected %s, got %s",
                            n, st == RN_ST_PARTIAL ? " (partial: ranges.start-only, "
                            "the starts agree)" : "", eb.data, gb.data);
            rn_buf_free(&eb);
            rn_buf_free(&gb);
        }
    }
    if (esum != NULL && (gsum == NULL || strcmp(esum, gsum) != 0)) {
        rn_result_set(r, RN_LV_SUMMARY, RN_ST_DIFFERS);
        rn_strlist_addf(&r->diffs, "summary of error %zu (informative): expected "
                        "\"%s\", got %s%s%s", n, esum, gsum != NULL ? "\"" : "",
                        gsum != NULL ? gsum : "none", gsum != NULL ? "\"" : "");
    }
}

void rn_diags_compare(const rn_compare_ctx *ctx, json_t *expected, json_t *got,
                      rn_result *r)
{
    json_t *eerr = errors_of(expected);
    json_t *gerr = errors_of(got);
    size_t ne = json_array_size(eerr);
    size_t ng = json_array_size(gerr);
    size_t i;
    bool range_checked = false;
    bool position_checked = false;
    static const rn_level pair_levels[] = {
        RN_LV_PHASE, RN_LV_CATEGORY, RN_LV_RANGE, RN_LV_POSITION, RN_LV_SUMMARY,
    };

    if (ne == 0 || ng == 0) {
        /* Nothing to pair.  No error expected (a parse case whose input
         * parses) and none got passes; otherwise the outcome fails. */
        bool pass = ne == 0 && ng == 0;

        rn_result_set(r, RN_LV_OUTCOME, pass ? RN_ST_PASS : RN_ST_FAIL);
        rn_result_set(r, RN_LV_COUNT, pass ? RN_ST_PASS : RN_ST_NA);
        for (i = 0; i < RN_COUNTOF(pair_levels); i++)
            rn_result_set(r, pair_levels[i], RN_ST_NA);
        if (ne == 0 && ng > 0) {
            rn_buf b = {0};
            json_t *d;

            json_array_foreach(gerr, i, d) {
                if (b.nbytes > 0)
                    rn_buf_adds(&b, "; ");
                rn_diag_render(&b, ctx->categories, d);
            }
            rn_strlist_addf(&r->diffs, "outcome: unexpected error: expected none, got %zu: %s",
                            ng, b.data != NULL ? b.data : "");
            rn_buf_free(&b);
        } else if (ng == 0 && ne > 0) {
            rn_strlist_addf(&r->diffs, "outcome: missing error: expected %zu error "
                            "diagnostic%s, got none", ne, ne == 1 ? "" : "s");
        }
        json_decref(eerr);
        json_decref(gerr);
        return;
    }
    rn_result_set(r, RN_LV_OUTCOME, RN_ST_PASS);
    if (ne != ng && ng == 1 && ctx->first_only) {
        /* the implementation reports its first error only: that one is
         * compared with the first expected */
        rn_result_set(r, RN_LV_COUNT, RN_ST_PARTIAL);
        rn_strlist_addf(&r->diffs, "count (partial: diagnostics.first-only): expected %zu "
                        "errors, got 1, compared with the first", ne);
    } else {
        rn_result_set(r, RN_LV_COUNT, ne == ng ? RN_ST_PASS : RN_ST_FAIL);
        if (ne != ng)
            rn_strlist_addf(&r->diffs, "count: expected %zu error%s, got %zu", ne,
                            ne == 1 ? "" : "s", ng);
    }
    for (i = 0; i < ne && i < ng; i++)
        compare_pair(ctx, json_array_get(eerr, i), json_array_get(gerr, i), i + 1,
                     r, &range_checked, &position_checked);
    rn_result_set(r, RN_LV_PHASE, RN_ST_PASS);
    rn_result_set(r, RN_LV_CATEGORY, RN_ST_PASS);
    rn_result_set(r, RN_LV_RANGE, range_checked ? RN_ST_PASS : RN_ST_NA);
    rn_result_set(r, RN_LV_POSITION, position_checked ? RN_ST_PASS : RN_ST_NA);
    rn_result_set(r, RN_LV_SUMMARY, RN_ST_PASS);
    json_decref(eerr);
    json_decref(gerr);
}
