/* SPDX-License-Identifier: MPL-2.0 */
/*
 * report.c — what every report shares (totals, areas, the readable detail
 * of a case), the text report, and the live progress line.
 *
 * The text report lists each fail, crashed and xpass case (up to
 * --max-failures) with its input, failed levels and an expected-vs-got
 * rendering; then a table per area; then the implementation and profile;
 * then, when some cases passed in part only, "N partial (...)"; and last
 * a line exactly "N passed, N failed" (N passed = pass, never partial; N
 * failed = fail + crashed + xpass, and unsupported with
 * --fail-on-unsupported), which CI reads.
 */
#include "runner.h"

#include <stdlib.h>
#include <string.h>

bool rn_outcome_fails(rn_outcome o, bool unsupported_fails)
{
    return o == RN_OUT_FAIL || o == RN_OUT_CRASHED || o == RN_OUT_XPASS ||
           (o == RN_OUT_UNSUPPORTED && unsupported_fails);
}

static int compare_areas(const void *a, const void *b)
{
    return strcmp(((const rn_area *)a)->name, ((const rn_area *)b)->name);
}

static rn_area *find_area(rn_report *rep, const char *name)
{
    size_t i;

    for (i = 0; i < rep->nareas; i++)
        if (strcmp(rep->areas[i].name, name) == 0)
            return &rep->areas[i];
    return NULL;
}

void rn_report_count(rn_report *rep)
{
    size_t i;

    for (i = 0; i < rep->suite->ncases; i++) {
        const rn_case *c = &rep->suite->cases[i];
        char *name;
        rn_area *area;

        if (!c->selected)
            continue;
        name = rn_case_area(c);
        area = find_area(rep, name);
        if (area == NULL) {
            rep->areas = rn_xrealloc(rep->areas, (rep->nareas + 1) * sizeof(*rep->areas));
            area = &rep->areas[rep->nareas++];
            memset(area, 0, sizeof(*area));
            area->name = name;
        } else
            free(name);
        area->totals.n[c->result.outcome]++;
        area->totals.total++;
        rep->totals.n[c->result.outcome]++;
        rep->totals.total++;
    }
    if (rep->nareas > 0)
        qsort(rep->areas, rep->nareas, sizeof(*rep->areas), compare_areas);
}

void rn_report_free(rn_report *rep)
{
    size_t i;

    for (i = 0; i < rep->nareas; i++)
        free(rep->areas[i].name);
    free(rep->areas);
    rep->areas = NULL;
    rep->nareas = 0;
}

char *rn_report_implementation(const rn_report *rep)
{
    json_t *impl = json_object_get(rep->hello, "implementation");
    const char *name = rn_json_str(impl, "name");
    const char *version = rn_json_str(impl, "version");
    const char *language = rn_json_str(impl, "language");

    if (name == NULL)
        return rn_xstrdup("(unnamed implementation)");
    return rn_xasprintf("%s%s%s%s%s%s", name, version != NULL ? " " : "",
                        version != NULL ? version : "", language != NULL ? " (" : "",
                        language != NULL ? language : "", language != NULL ? ")" : "");
}

/* ------------------------------------------------------------------ */
/* The detail of one case */

/* Adds one line: indent, label, text (cut to RN_LINE_NBYTES). */
static void add_line(rn_buf *b, const char *indent, const char *label,
                     const char *text)
{
    char *cut = rn_utf8_quote(text, strlen(text), RN_LINE_NBYTES);

    rn_buf_printf(b, "%s%s%s\n", indent, label, cut);
    free(cut);
}

static void add_value(rn_buf *b, const char *indent, const char *label,
                      json_t *value)
{
    rn_buf line = {0};

    rn_value_render(&line, value);
    add_line(b, indent, label, line.data);
    rn_buf_free(&line);
}

static void add_diag(rn_buf *b, const rn_report *rep, const char *indent,
                     json_t *diag)
{
    rn_buf line = {0};

    rn_diag_render(&line, rep->suite->categories, diag);
    add_line(b, indent, "", line.data);
    rn_buf_free(&line);
}

/* The answer as received, rendered. */
/* The traversals of a refs answer or expectation, one per line, with
 * their byte ranges. */
static void add_refs(rn_buf *b, const char *indent, json_t *refs)
{
    size_t i;
    json_t *t;

    if (refs == NULL)
        return;
    if (json_array_size(refs) == 0)
        add_line(b, indent, "", "(no references)");
    json_array_foreach(refs, i, t) {
        rn_buf line = {0};
        json_t *range = json_object_get(t, "range");
        json_t *start = json_object_get(json_object_get(range, "start"), "byte");
        json_t *end = json_object_get(json_object_get(range, "end"), "byte");

        rn_ref_render(&line, t);
        rn_buf_printf(&line, " %" JSON_INTEGER_FORMAT "-%" JSON_INTEGER_FORMAT,
                      json_integer_value(start), json_integer_value(end));
        add_line(b, indent, "", line.data);
        rn_buf_free(&line);
    }
}

static void render_got(rn_buf *b, const rn_report *rep, json_t *got,
                       const char *indent)
{
    json_t *value = json_object_get(got, "value");
    json_t *diags = json_object_get(got, "diagnostics");
    size_t i;
    json_t *d;

    if (value != NULL)
        add_value(b, indent, rn_diags_have_error(diags) ? "(value, ignored) " : "",
                  value);
    add_refs(b, indent, json_object_get(got, "refs"));
    json_array_foreach(diags, i, d) {
        add_diag(b, rep, indent, d);
    }
}

static void render_expected(rn_buf *b, const rn_report *rep, json_t *expect,
                            const char *indent)
{
    json_t *value = json_object_get(expect, "value");
    size_t i;
    json_t *d;

    if (value != NULL)
        add_value(b, indent, "", value);
    add_refs(b, indent, json_object_get(expect, "refs"));
    json_array_foreach(json_object_get(expect, "diagnostics"), i, d) {
        add_diag(b, rep, indent, d);
    }
}

/* For a convert request, the line "convert to: TYPE (MODE)". */
static void add_conversion(rn_buf *b, json_t *fields, const char *indent)
{
    const char *request = rn_json_str(fields, "request");
    const char *mode = rn_json_str(fields, "convert_mode");
    json_t *to = json_object_get(fields, "convert_to");
    rn_buf line = {0};

    if (request == NULL || strcmp(request, "convert") != 0 || to == NULL)
        return;
    rn_type_render(&line, to);
    rn_buf_printf(&line, " (%s)", mode != NULL ? mode : "unsafe");
    add_line(b, indent, "convert to: ", line.data);
    rn_buf_free(&line);
}

char *rn_report_case_detail(const rn_report *rep, const rn_case *c,
                            const char *indent)
{
    const rn_result *r = &c->result;
    rn_buf b = {0};
    char *deeper = rn_xasprintf("%s  ", indent);
    json_t *input = json_object_get(c->fields, "input");
    json_t *vars = json_object_get(c->fields, "variables");

    add_line(&b, indent, "mode: ", rn_json_str(c->fields, "mode"));
    add_conversion(&b, c->fields, indent);
    if (input != NULL) {
        char *text = rn_utf8_clean(json_string_value(input), json_string_length(input));

        add_line(&b, indent, "input:", "");
        if (text[0] == '\0')
            add_line(&b, deeper, "", "(empty)");
        else
            rn_buf_add_indented(&b, deeper, text);
        free(text);
    } else
        add_line(&b, indent, "input_base64: ",
                 rn_json_str(c->fields, "input_base64"));
    if (vars != NULL) {
        char *text = rn_json_compact(vars);
        char *quoted = rn_utf8_quote(text, strlen(text), 500);

        add_line(&b, indent, "variables: ", quoted);
        free(quoted);
        free(text);
    }
    if (r->known != NULL)
        add_line(&b, indent, "known failure: ", r->known);
    if (r->outcome == RN_OUT_XPASS)
        add_line(&b, indent, "", "passed, but the expectations file lists it as "
                                 "a known failure");
    if (r->reason != NULL)
        add_line(&b, indent, "reason: ", r->reason);
    if (rn_result_any_failed(r)) {
        char *levels = rn_result_failed_levels(r);

        add_line(&b, indent, "failed levels: ", levels);
        free(levels);
    }
    if (rn_result_any_partial(r)) {
        char *levels = rn_result_partial_levels(r);

        add_line(&b, indent, "compared in part (partial credit): ", levels);
        free(levels);
    }
    if (r->got != NULL || rn_result_any_failed(r)) {
        add_line(&b, indent, "expected:", "");
        render_expected(&b, rep, rn_case_expect(c), deeper);
        add_line(&b, indent, "got:", "");
        if (r->got != NULL)
            render_got(&b, rep, r->got, deeper);
    }
    if (r->diffs.n > 0) {
        size_t i;

        add_line(&b, indent, "differences:", "");
        for (i = 0; i < r->diffs.n; i++)
            add_line(&b, deeper, "", r->diffs.items[i]);
    }
    if (r->stderr_tail != NULL) {
        char *bar = rn_xasprintf("%s| ", deeper);

        add_line(&b, indent, "stderr (last bytes):", "");
        rn_buf_add_indented(&b, bar, r->stderr_tail);
        free(bar);
    }
    free(deeper);
    return rn_buf_steal(&b);
}

/* ------------------------------------------------------------------ */
/* The text report */

static const char *upper_outcome(rn_outcome o)
{
    static const char *const names[RN_NOUTCOMES] = {
        "PASS", "PARTIAL", "FAIL", "XFAIL", "XPASS", "UNSUPPORTED", "CRASHED", "SKIPPED",
    };

    return (size_t)o < RN_NOUTCOMES ? names[o] : "?";
}

/* The width of an outcome's column: its name's, or more for the total
 * count (every row's count is at most the total's). */
static int column_width(const rn_report *rep, rn_outcome o)
{
    int width = (int)strlen(rn_outcome_name(o));
    int digits = snprintf(NULL, 0, "%zu", rep->totals.n[o]);

    return digits > width ? digits : width;
}

static void print_row(const rn_report *rep, FILE *out, int width, const char *name,
                      const rn_totals *t)
{
    size_t i;

    fprintf(out, "%-*s", width, name);
    for (i = 0; i < RN_NOUTCOMES; i++)
        fprintf(out, " %*zu", column_width(rep, (rn_outcome)i), t->n[i]);
    fprintf(out, " %5zu\n", t->total);
}

static void print_table(const rn_report *rep, FILE *out)
{
    int width = 5; /* "TOTAL" */
    size_t i;

    for (i = 0; i < rep->nareas; i++) {
        int n = (int)strlen(rep->areas[i].name);

        if (n > width)
            width = n;
    }
    fprintf(out, "%-*s", width, "area");
    for (i = 0; i < RN_NOUTCOMES; i++)
        fprintf(out, " %*s", column_width(rep, (rn_outcome)i),
                rn_outcome_name((rn_outcome)i));
    fprintf(out, " %5s\n", "total");
    for (i = 0; i < rep->nareas; i++)
        print_row(rep, out, width, rep->areas[i].name, &rep->areas[i].totals);
    print_row(rep, out, width, "TOTAL", &rep->totals);
}

static void print_case(const rn_report *rep, const rn_case *c, FILE *out)
{
    char *detail = rn_report_case_detail(rep, c, "  ");

    fprintf(out, "%s %s %s (%s)\n", upper_outcome(c->result.outcome), c->id,
            c->name, c->file);
    fputs(detail, out);
    fputc('\n', out);
    free(detail);
}

/* --verbose: one line for a case that neither fails nor has anything to
 * show, the whole detail otherwise (xfail, summary differences).  Returns
 * whether it printed one line (not followed by an empty line). */
static bool print_verbose(const rn_report *rep, const rn_case *c, FILE *out)
{
    const rn_result *r = &c->result;

    if (r->outcome == RN_OUT_XFAIL || r->outcome == RN_OUT_PARTIAL ||
        (r->outcome == RN_OUT_PASS && r->diffs.n > 0)) {
        print_case(rep, c, out);
        return false;
    }
    if (r->reason != NULL)
        fprintf(out, "%s %s %s: %s\n", upper_outcome(r->outcome), c->id, c->name,
                r->reason);
    else
        fprintf(out, "%s %s %s\n", upper_outcome(r->outcome), c->id, c->name);
    return true;
}

bool rn_report_text(const rn_report *rep, FILE *out)
{
    size_t i;
    size_t shown = 0;
    size_t more = 0;
    size_t nfailed = 0;
    size_t nunrefined = 0;
    bool need_blank = false; /* the last thing printed was a one-liner */
    char *impl;

    for (i = 0; i < rep->suite->ncases; i++) {
        const rn_case *c = &rep->suite->cases[i];

        if (!c->selected)
            continue;
        if (!rn_outcome_fails(c->result.outcome, rep->unsupported_fails)) {
            if (rep->verbose)
                need_blank = print_verbose(rep, c, out);
        } else if (shown < rep->max_failures) {
            print_case(rep, c, out);
            shown++;
            need_blank = false;
        } else
            more++;
    }
    if (need_blank)
        fputc('\n', out);
    if (more > 0)
        fprintf(out, "... and %zu more failing case%s not shown (--max-failures %zu)\n\n",
                more, more == 1 ? "" : "s", rep->max_failures);
    print_table(rep, out);
    impl = rn_report_implementation(rep);
    fprintf(out, "\nimplementation: %s; profile: %s\n", impl, rep->profile);
    free(impl);
    for (i = 0; i < rep->suite->ncases; i++) {
        const rn_case *c = &rep->suite->cases[i];

        if (c->selected && c->result.levels[RN_LV_REFINEMENTS] == RN_ST_NA)
            nunrefined++;
    }
    if (nunrefined > 0)
        fprintf(out, "%zu case%s compared without the refinements of unknown values (the "
                "adapter does not declare value.refinements)\n", nunrefined,
                nunrefined == 1 ? "" : "s");
    if (rep->totals.n[RN_OUT_PARTIAL] > 0)
        fprintf(out, "%zu partial (passed in the part compared: diagnostics.first-only, "
                "ranges.start-only; not counted as passed)\n",
                rep->totals.n[RN_OUT_PARTIAL]);
    for (i = 0; i < RN_NOUTCOMES; i++)
        if (rn_outcome_fails((rn_outcome)i, rep->unsupported_fails))
            nfailed += rep->totals.n[i];
    fprintf(out, "%zu passed, %zu failed\n", rep->totals.n[RN_OUT_PASS], nfailed);
    return !ferror(out);
}

bool rn_report_write(const rn_report *rep, rn_format fmt, FILE *out)
{
    bool ok = false;

    switch (fmt) {
    case RN_FMT_TEXT:
        ok = rn_report_text(rep, out);
        break;
    case RN_FMT_JSON:
        ok = rn_report_json(rep, out);
        break;
    case RN_FMT_JUNIT:
        ok = rn_report_junit(rep, out);
        break;
    case RN_FMT_TAP:
        ok = rn_report_tap(rep, out);
        break;
    }
    if (fflush(out) != 0)
        ok = false;
    return ok;
}

/* ------------------------------------------------------------------ */
/* Progress */

/* "[12/300] pass 10 fail 1 crashed 1": pass and fail always, the other
 * outcomes once they occur, so that the line stays short. */
void rn_progress(size_t done, size_t ntotal, const rn_totals *t)
{
    size_t i;

    fprintf(stderr, "\r[%zu/%zu]", done, ntotal);
    for (i = 0; i < RN_NOUTCOMES; i++)
        if (i == RN_OUT_PASS || i == RN_OUT_FAIL || t->n[i] > 0)
            fprintf(stderr, " %s %zu", rn_outcome_name((rn_outcome)i), t->n[i]);
    fputs("\033[K", stderr);
    fflush(stderr);
}

void rn_progress_end(void)
{
    fputs("\r\033[K", stderr);
    fflush(stderr);
}
