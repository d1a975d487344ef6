/* SPDX-License-Identifier: MPL-2.0 */
/*
 * report_tap.c — the TAP report (--format tap), TAP version 13: the plan,
 * then one line per case.
 *
 *   pass          ok N - NAME [ID]
 *   fail          not ok N - NAME [ID]            + a YAML block
 *   crashed       not ok N - NAME [ID]            + a YAML block
 *   xpass         not ok N - NAME [ID]            + a YAML block (an
 *                 unexpected pass fails the run, so no TODO directive)
 *   xfail         not ok N - NAME [ID] # TODO known failure: REASON
 *   partial       ok N - NAME [ID] # SKIP partial: LEVELS compared in part
 *                 (passed in the part compared; a SKIP, never a pass)
 *   skipped       ok N - NAME [ID] # SKIP REASON
 *   unsupported   ok N - NAME [ID] # SKIP unsupported: MESSAGE
 *                 (not ok + YAML with --fail-on-unsupported)
 */
#include "runner.h"

#include <stdlib.h>
#include <string.h>

/* Writes `s` on one line: newlines and carriage returns become spaces. */
static void put_one_line(FILE *out, const char *s)
{
    for (; *s != '\0'; s++)
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
}

static void put_yaml(FILE *out, const rn_report *rep, const rn_case *c)
{
    char *detail = rn_report_case_detail(rep, c, "    ");
    json_t *file = json_string(c->file);
    char *quoted = rn_json_compact(file);
    char *levels = rn_result_failed_levels(&c->result);

    json_decref(file);
    fputs("  ---\n", out);
    fprintf(out, "  outcome: %s\n", rn_outcome_name(c->result.outcome));
    fprintf(out, "  file: %s\n", quoted);
    fprintf(out, "  failed_levels: [%s]\n", levels);
    fputs("  detail: |\n", out);
    fputs(detail, out);
    fputs("  ...\n", out);
    free(levels);
    free(quoted);
    free(detail);
}

bool rn_report_tap(const rn_report *rep, FILE *out)
{
    size_t i;
    size_t n = 0;
    size_t npassed = 0;
    size_t nfailed = 0;
    size_t npartial = 0;

    fputs("TAP version 13\n", out);
    fprintf(out, "1..%zu\n", rep->totals.total);
    for (i = 0; i < rep->suite->ncases; i++) {
        const rn_case *c = &rep->suite->cases[i];
        const rn_result *r = &c->result;
        bool fails = rn_outcome_fails(r->outcome, rep->unsupported_fails);

        if (!c->selected)
            continue;
        n++;
        fprintf(out, "%s %zu - %s [%s]",
                fails || r->outcome == RN_OUT_XFAIL ? "not ok" : "ok", n, c->name,
                c->id);
        if (r->outcome == RN_OUT_XFAIL) {
            fputs(" # TODO known failure: ", out);
            put_one_line(out, r->known != NULL ? r->known : "");
        } else if (r->outcome == RN_OUT_PARTIAL) {
            char *levels = rn_result_partial_levels(r);

            fprintf(out, " # SKIP partial: %s compared in part", levels);
            free(levels);
        } else if (r->outcome == RN_OUT_SKIPPED) {
            fputs(" # SKIP ", out);
            put_one_line(out, r->reason != NULL ? r->reason : "skipped");
        } else if (r->outcome == RN_OUT_UNSUPPORTED && !fails) {
            fputs(" # SKIP unsupported: ", out);
            put_one_line(out, r->reason != NULL ? r->reason : "");
        }
        fputc('\n', out);
        if (fails)
            put_yaml(out, rep, c);
        if (r->outcome == RN_OUT_PASS)
            npassed++;
        if (r->outcome == RN_OUT_PARTIAL)
            npartial++;
        if (fails)
            nfailed++;
    }
    if (npartial > 0)
        fprintf(out, "# %zu partial\n", npartial);
    fprintf(out, "# %zu passed, %zu failed\n", npassed, nfailed);
    return !ferror(out);
}
