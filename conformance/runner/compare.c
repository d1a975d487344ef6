/* SPDX-License-Identifier: MPL-2.0 */
/*
 * compare.c — the four answer forms of the protocol, and the comparison
 * of one answer with a case's expectation (conformance/README.md, "The
 * protocol" and "Comparing results").
 *
 * An answer is one of
 *   {"seq", "value", "diagnostics"?}        evaluated (warnings allowed)
 *   {"seq", "diagnostics", "value"?}        failed (an error is required)
 *   {"seq", "diagnostics"}                  a parse request's answer, maybe
 *                                           with no diagnostic at all
 *   {"seq", "refs"}                         a refs request's answer
 *   {"seq", "unsupported": true, "message"}
 *   {"seq", "errored": true, "message"}
 * Anything else, including members outside its form, is malformed.
 */
#include "runner.h"

#include <stdlib.h>
#include <string.h>

static const char *const outcome_names[RN_NOUTCOMES] = {
    "pass", "partial", "fail", "xfail", "xpass", "unsupported", "crashed", "skipped",
};

static const char *const level_names[RN_NLEVELS] = {
    "outcome", "type", "value", "marks", "refinements", "refs", "count", "phase", "category",
    "range", "position", "summary",
};

const char *rn_outcome_name(rn_outcome o)
{
    return (size_t)o < RN_NOUTCOMES ? outcome_names[o] : "?";
}

const char *rn_level_name(rn_level l)
{
    return (size_t)l < RN_NLEVELS ? level_names[l] : "?";
}

const char *rn_status_name(rn_status s)
{
    switch (s) {
    case RN_ST_PASS:
        return "pass";
    case RN_ST_FAIL:
        return "fail";
    case RN_ST_NA:
        return "n/a";
    case RN_ST_DIFFERS:
        return "differs";
    case RN_ST_PARTIAL:
        return "partial";
    case RN_ST_UNUSED:
        break;
    }
    return "unused";
}

void rn_result_set(rn_result *r, rn_level level, rn_status st)
{
    unsigned char *cur = &r->levels[level];

    if (*cur == RN_ST_FAIL)
        return;
    if ((*cur == RN_ST_DIFFERS || *cur == RN_ST_PARTIAL) && st != RN_ST_FAIL)
        return;
    *cur = (unsigned char)st;
}

/* Whether some level has the status `st`. */
static bool any_level(const rn_result *r, rn_status st)
{
    size_t i;

    for (i = 0; i < RN_NLEVELS; i++)
        if (r->levels[i] == st)
            return true;
    return false;
}

bool rn_result_any_failed(const rn_result *r)
{
    return any_level(r, RN_ST_FAIL);
}

bool rn_result_any_partial(const rn_result *r)
{
    return any_level(r, RN_ST_PARTIAL);
}

/* The levels whose status is `st`, "value, marks". */
static char *levels_with(const rn_result *r, rn_status st)
{
    rn_buf b = {0};
    size_t i;

    for (i = 0; i < RN_NLEVELS; i++) {
        if (r->levels[i] != st)
            continue;
        if (b.nbytes > 0)
            rn_buf_adds(&b, ", ");
        rn_buf_adds(&b, rn_level_name((rn_level)i));
    }
    return rn_buf_steal(&b);
}

char *rn_result_failed_levels(const rn_result *r)
{
    return levels_with(r, RN_ST_FAIL);
}

char *rn_result_partial_levels(const rn_result *r)
{
    return levels_with(r, RN_ST_PARTIAL);
}

void rn_result_free(rn_result *r)
{
    free(r->reason);
    free(r->stderr_tail);
    free(r->known);
    json_decref(r->got);
    rn_strlist_free(&r->diffs);
    memset(r, 0, sizeof(*r));
}

/* ------------------------------------------------------------------ */
/* Answer forms */

/* Whether every member of `answer` is one of the NULL-ended `allowed`. */
static bool only_members(json_t *answer, const char *const *allowed,
                         char **why)
{
    const char *key;
    json_t *item;

    json_object_foreach(answer, key, item) {
        size_t i;
        bool ok = false;

        for (i = 0; allowed[i] != NULL && !ok; i++)
            ok = strcmp(key, allowed[i]) == 0;
        if (!ok) {
            *why = rn_xasprintf("unexpected member \"%s\" in the answer", key);
            return false;
        }
    }
    return true;
}

static rn_answer_kind classify_message(json_t *answer, const char *flag,
                                       rn_answer_kind kind, char **why)
{
    static const char *const allowed[] = {"seq", "errored", "unsupported",
                                          "message", NULL};
    json_t *message = json_object_get(answer, "message");

    if (!json_is_true(json_object_get(answer, flag))) {
        *why = rn_xasprintf("\"%s\" must be true", flag);
        return RN_ANS_MALFORMED;
    }
    if (json_object_get(answer, "errored") != NULL &&
        json_object_get(answer, "unsupported") != NULL) {
        *why = rn_xstrdup("an answer cannot be both \"errored\" and \"unsupported\"");
        return RN_ANS_MALFORMED;
    }
    if (!only_members(answer, allowed, why))
        return RN_ANS_MALFORMED;
    if (message != NULL && !json_is_string(message)) {
        *why = rn_xstrdup("\"message\" must be a string");
        return RN_ANS_MALFORMED;
    }
    *why = rn_utf8_clean(message != NULL ? json_string_value(message) : "(no message)",
                         message != NULL ? json_string_length(message)
                                         : strlen("(no message)"));
    return kind;
}

/* A refs request's answer: {"seq", "refs"}, or {"seq", "diagnostics"}
 * with an error (the parse failed). */
static rn_answer_kind classify_refs(json_t *answer, char **why)
{
    static const char *const allowed[] = {"seq", "refs", "diagnostics", NULL};
    json_t *refs = json_object_get(answer, "refs");
    json_t *diags = json_object_get(answer, "diagnostics");
    char *sub = NULL;

    if (!only_members(answer, allowed, why))
        return RN_ANS_MALFORMED;
    if ((refs == NULL) == (diags == NULL)) {
        *why = rn_xstrdup("a refs request is answered with exactly one of \"refs\" and "
                          "\"diagnostics\"");
        return RN_ANS_MALFORMED;
    }
    if (refs != NULL && !rn_refs_check(refs, &sub)) {
        *why = rn_xasprintf("invalid refs: %s", sub);
        free(sub);
        return RN_ANS_MALFORMED;
    }
    if (diags != NULL && !rn_diags_check(diags, false, &sub)) {
        *why = rn_xasprintf("invalid diagnostics: %s", sub);
        free(sub);
        return RN_ANS_MALFORMED;
    }
    if (diags != NULL && !rn_diags_have_error(diags)) {
        *why = rn_xstrdup("a \"diagnostics\" answer to a refs request must hold an "
                          "error diagnostic");
        return RN_ANS_MALFORMED;
    }
    return RN_ANS_EVAL;
}

rn_answer_kind rn_answer_classify(json_t *answer, const char *request, char **why)
{
    static const char *const allowed[] = {"seq", "value", "diagnostics", NULL};
    bool parse_request = request != NULL && strcmp(request, "parse") == 0;
    json_t *value = json_object_get(answer, "value");
    json_t *diags = json_object_get(answer, "diagnostics");
    char *sub = NULL;

    if (json_object_get(answer, "errored") != NULL)
        return classify_message(answer, "errored", RN_ANS_ERRORED, why);
    if (json_object_get(answer, "unsupported") != NULL)
        return classify_message(answer, "unsupported", RN_ANS_UNSUPPORTED, why);
    if (request != NULL && strcmp(request, "refs") == 0)
        return classify_refs(answer, why);
    if (value == NULL && diags == NULL) {
        *why = rn_xstrdup("the answer has none of \"value\", \"diagnostics\", "
                          "\"unsupported\", \"errored\"");
        return RN_ANS_MALFORMED;
    }
    if (!only_members(answer, allowed, why))
        return RN_ANS_MALFORMED;
    if (diags != NULL && !rn_diags_check(diags, false, &sub)) {
        *why = rn_xasprintf("invalid diagnostics: %s", sub);
        free(sub);
        return RN_ANS_MALFORMED;
    }
    if (parse_request) {
        /* a parse request's answer: its diagnostics, maybe none; no value */
        if (value != NULL || diags == NULL) {
            *why = rn_xstrdup("a parse request is answered with \"diagnostics\" (maybe "
                              "empty) and no \"value\"");
            return RN_ANS_MALFORMED;
        }
        return RN_ANS_EVAL;
    }
    if (value != NULL &&
        !rn_answer_value_check(value, request != NULL && strcmp(request, "console") == 0,
                               &sub)) {
        *why = rn_xasprintf("invalid value: %s", sub);
        free(sub);
        return RN_ANS_MALFORMED;
    }
    if (value == NULL && !rn_diags_have_error(diags)) {
        *why = rn_xstrdup("a \"diagnostics\" answer without a value must hold an "
                          "error diagnostic");
        return RN_ANS_MALFORMED;
    }
    return RN_ANS_EVAL;
}

/* ------------------------------------------------------------------ */
/* Comparison */

static void compare_value_case(json_t *expected, json_t *answer, rn_result *r,
                               const rn_compare_ctx *ctx)
{
    json_t *categories = ctx->categories;
    json_t *diags = json_object_get(answer, "diagnostics");
    json_t *value = json_object_get(answer, "value");

    if (rn_diags_have_error(diags) || value == NULL) {
        rn_buf b = {0};
        size_t i;
        json_t *d;
        size_t nerrors = 0;

        rn_result_set(r, RN_LV_OUTCOME, RN_ST_FAIL);
        rn_result_set(r, RN_LV_TYPE, RN_ST_NA);
        rn_result_set(r, RN_LV_VALUE, RN_ST_NA);
        rn_result_set(r, RN_LV_MARKS, RN_ST_NA);
        json_array_foreach(diags, i, d) {
            if (strcmp(rn_json_str(d, "severity"), "error") != 0)
                continue;
            if (b.nbytes > 0)
                rn_buf_adds(&b, "; ");
            rn_diag_render(&b, categories, d);
            nerrors++;
        }
        rn_strlist_addf(&r->diffs, "outcome: unexpected error: expected a value, "
                        "got %zu error%s: %s", nerrors, nerrors == 1 ? "" : "s",
                        b.data != NULL ? b.data : "");
        rn_buf_free(&b);
        return;
    }
    rn_result_set(r, RN_LV_OUTCOME, RN_ST_PASS);
    rn_value_compare(expected, value, ctx->refinements, r);
}

void rn_compare(const rn_compare_ctx *ctx, json_t *expect, json_t *answer,
                rn_result *r)
{
    json_t *value = json_object_get(expect, "value");
    json_t *refs = json_object_get(expect, "refs");

    if (refs != NULL)
        rn_refs_compare(ctx, refs, answer, r);
    else if (value != NULL)
        compare_value_case(value, answer, r, ctx);
    else {
        json_t *got_value = json_object_get(answer, "value");

        rn_diags_compare(ctx, json_object_get(expect, "diagnostics"),
                         json_object_get(answer, "diagnostics"), r);
        if (rn_value_is_nan(got_value) && !rn_diags_have_error(json_object_get(answer, "diagnostics")))
            rn_strlist_addf(&r->diffs, "outcome: got the value NaN (not a number), which "
                            "no cty number is");
    }
    r->outcome = rn_result_any_failed(r)    ? RN_OUT_FAIL
                 : rn_result_any_partial(r) ? RN_OUT_PARTIAL
                                            : RN_OUT_PASS;
}
