/* SPDX-License-Identifier: MPL-2.0 */
/*
 * report_json.c — the JSON report (--format json): one object, keys in a
 * fixed order:
 *
 *   {"format": "tfexpr-report/1",
 *    "implementation": {...} | null, "profile": "P14", "capabilities": [...],
 *    "cases": [{"id", "name", "file", "outcome", "failed_levels": [...],
 *               "partial_levels"?: [...],
 *               "levels": {level: "pass"|"fail"|"n/a"|"differs"|"partial"},
 *               "reason"?, "known"?, "differences"?, "expected"?, "got"?,
 *               "stderr"?}],
 *    "totals": {"pass", "partial", "fail", "xfail", "xpass", "unsupported",
 *               "crashed", "skipped", "total", "passed", "failed"},
 *    "areas": {"<area>": {the same keys as "totals"}}}
 *
 * "passed" counts pass (never partial, which has its own count); "failed"
 * counts fail, crashed and xpass (and
 * unsupported with --fail-on-unsupported), as the text report's last line.
 *
 * "expected" and "got" are given for cases that were compared and did not
 * simply pass (fail, xfail, partial, and pass with summary differences).
 * "partial_levels" (the levels compared in part) only for cases that
 * have some.
 */
#include "runner.h"


static json_t *totals_json(const rn_totals *t)
{
    json_t *j = json_object();
    size_t i;

    for (i = 0; i < RN_NOUTCOMES; i++)
        json_object_set_new(j, rn_outcome_name((rn_outcome)i),
                            json_integer((json_int_t)t->n[i]));
    json_object_set_new(j, "total", json_integer((json_int_t)t->total));
    return j;
}

static json_t *case_json(const rn_case *c)
{
    const rn_result *r = &c->result;
    json_t *j = json_object();
    json_t *failed = json_array();
    json_t *levels = json_object();
    size_t i;

    json_object_set_new(j, "id", json_string(c->id));
    json_object_set_new(j, "name", json_string(c->name));
    json_object_set_new(j, "file", json_string(c->file));
    json_object_set_new(j, "outcome", json_string(rn_outcome_name(r->outcome)));
    for (i = 0; i < RN_NLEVELS; i++) {
        if (r->levels[i] == RN_ST_UNUSED)
            continue;
        if (r->levels[i] == RN_ST_FAIL)
            json_array_append_new(failed, json_string(rn_level_name((rn_level)i)));
        json_object_set_new(levels, rn_level_name((rn_level)i),
                            json_string(rn_status_name((rn_status)r->levels[i])));
    }
    json_object_set_new(j, "failed_levels", failed);
    if (rn_result_any_partial(r)) {
        json_t *partial = json_array();

        for (i = 0; i < RN_NLEVELS; i++)
            if (r->levels[i] == RN_ST_PARTIAL)
                json_array_append_new(partial, json_string(rn_level_name((rn_level)i)));
        json_object_set_new(j, "partial_levels", partial);
    }
    json_object_set_new(j, "levels", levels);
    if (r->reason != NULL)
        json_object_set_new(j, "reason", json_string(r->reason));
    if (r->known != NULL)
        json_object_set_new(j, "known", json_string(r->known));
    if (r->diffs.n > 0) {
        json_t *diffs = json_array();

        for (i = 0; i < r->diffs.n; i++)
            json_array_append_new(diffs, json_string(r->diffs.items[i]));
        json_object_set_new(j, "differences", diffs);
    }
    if (r->got != NULL && (r->outcome == RN_OUT_FAIL || r->outcome == RN_OUT_XFAIL ||
                           r->diffs.n > 0)) {
        json_object_set(j, "expected", rn_case_expect(c));
        json_object_set(j, "got", r->got);
    }
    if (r->stderr_tail != NULL)
        json_object_set_new(j, "stderr", json_string(r->stderr_tail));
    return j;
}

static void add_passed_failed(json_t *j, const rn_totals *t, bool unsupported_fails)
{
    size_t i;
    size_t nfailed = 0;

    for (i = 0; i < RN_NOUTCOMES; i++)
        if (rn_outcome_fails((rn_outcome)i, unsupported_fails))
            nfailed += t->n[i];
    json_object_set_new(j, "passed", json_integer((json_int_t)t->n[RN_OUT_PASS]));
    json_object_set_new(j, "failed", json_integer((json_int_t)nfailed));
}

bool rn_report_json(const rn_report *rep, FILE *out)
{
    json_t *j = json_object();
    json_t *cases = json_array();
    json_t *areas = json_object();
    json_t *totals = totals_json(&rep->totals);
    json_t *impl = json_object_get(rep->hello, "implementation");
    json_t *caps = json_object_get(rep->hello, "capabilities");
    size_t i;
    int rc;

    json_object_set_new(j, "format", json_string("tfexpr-report/1"));
    json_object_set(j, "implementation", impl != NULL ? impl : json_null());
    json_object_set_new(j, "profile", json_string(rep->profile));
    if (caps != NULL)
        json_object_set(j, "capabilities", caps);
    else
        json_object_set_new(j, "capabilities", json_array());
    for (i = 0; i < rep->suite->ncases; i++)
        if (rep->suite->cases[i].selected)
            json_array_append_new(cases, case_json(&rep->suite->cases[i]));
    json_object_set_new(j, "cases", cases);
    add_passed_failed(totals, &rep->totals, rep->unsupported_fails);
    json_object_set_new(j, "totals", totals);
    for (i = 0; i < rep->nareas; i++) {
        json_t *t = totals_json(&rep->areas[i].totals);

        add_passed_failed(t, &rep->areas[i].totals, rep->unsupported_fails);
        json_object_set_new(areas, rep->areas[i].name, t);
    }
    json_object_set_new(j, "areas", areas);
    rc = json_dumpf(j, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(j);
    fputc('\n', out);
    return rc == 0 && !ferror(out);
}
