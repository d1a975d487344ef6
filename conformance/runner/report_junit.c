/* SPDX-License-Identifier: MPL-2.0 */
/*
 * report_junit.c — the JUnit XML report (--format junit): a testsuite per
 * area, a testcase per case.
 *
 *   fail, xpass                  <failure>
 *   crashed                      <error>
 *   skipped, xfail, unsupported  <skipped>  (unsupported is a <failure>
 *                                            with --fail-on-unsupported)
 *   partial                      <skipped type="partial">, with the
 *                                detail: neither a pass nor a failure
 *
 * Text is escaped for XML 1.0: markup characters become entities, and
 * characters XML cannot carry at all (controls other than tab, newline and
 * carriage return, U+FFFE, U+FFFF) are written as \xNN or U+FFFD.
 */
#include "runner.h"

#include <stdlib.h>
#include <string.h>

static void put_escaped(FILE *out, const char *s, bool attribute)
{
    const unsigned char *p = (const unsigned char *)s;

    for (; *p != '\0'; p++) {
        switch (*p) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\'':
            fputs("&apos;", out);
            break;
        case '\n':
            fputs(attribute ? "&#10;" : "\n", out);
            break;
        case '\t':
            fputs(attribute ? "&#9;" : "\t", out);
            break;
        case '\r':
            fputs("&#13;", out);
            break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\x%02X", *p);
            else if (p[0] == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF)) {
                fputs("\xEF\xBF\xBD", out);
                p += 2;
            } else
                fputc(*p, out);
            break;
        }
    }
}

static void put_attr(FILE *out, const char *name, const char *value)
{
    fprintf(out, " %s=\"", name);
    put_escaped(out, value, true);
    fputc('"', out);
}

static void put_counts(FILE *out, const rn_report *rep, const rn_totals *t)
{
    size_t failures = t->n[RN_OUT_FAIL] + t->n[RN_OUT_XPASS];
    size_t skipped = t->n[RN_OUT_SKIPPED] + t->n[RN_OUT_XFAIL] + t->n[RN_OUT_PARTIAL];

    if (rep->unsupported_fails)
        failures += t->n[RN_OUT_UNSUPPORTED];
    else
        skipped += t->n[RN_OUT_UNSUPPORTED];
    fprintf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\"",
            t->total, failures, t->n[RN_OUT_CRASHED], skipped);
}

/* <failure|error|skipped message="..." type="...">detail</...> */
static void put_element(FILE *out, const char *element, const char *type,
                        const char *message, const char *detail)
{
    fprintf(out, "      <%s", element);
    put_attr(out, "type", type);
    put_attr(out, "message", message);
    if (detail == NULL) {
        fputs("/>\n", out);
        return;
    }
    fputc('>', out);
    put_escaped(out, detail, false);
    fprintf(out, "</%s>\n", element);
}

static void put_case(FILE *out, const rn_report *rep, const rn_case *c,
                     const char *area)
{
    const rn_result *r = &c->result;
    char *name = rn_xasprintf("%s [%s]", c->name, c->id);
    char *classname = rn_xasprintf(RN_PROGRAM ".%s", area);
    char *detail = NULL;
    char *message = NULL;
    char *levels = NULL;

    fputs("    <testcase", out);
    put_attr(out, "classname", classname);
    put_attr(out, "name", name);
    put_attr(out, "file", c->file);
    fputs(">\n", out);
    switch (r->outcome) {
    case RN_OUT_PASS:
        break;
    case RN_OUT_PARTIAL:
        detail = rn_report_case_detail(rep, c, "");
        levels = rn_result_partial_levels(r);
        message = rn_xasprintf("partial: passed in the part compared; compared in "
                               "part: %s", levels);
        put_element(out, "skipped", "partial", message, detail);
        break;
    case RN_OUT_FAIL:
        detail = rn_report_case_detail(rep, c, "");
        levels = rn_result_failed_levels(r);
        message = rn_xasprintf("failed levels: %s", levels);
        put_element(out, "failure", "fail", message, detail);
        break;
    case RN_OUT_XPASS:
        detail = rn_report_case_detail(rep, c, "");
        put_element(out, "failure", "xpass",
                    "passed, but listed as a known failure", detail);
        break;
    case RN_OUT_CRASHED:
        detail = rn_report_case_detail(rep, c, "");
        put_element(out, "error", "crashed", r->reason != NULL ? r->reason : "crashed",
                    detail);
        break;
    case RN_OUT_UNSUPPORTED:
        message = rn_xasprintf("unsupported: %s", r->reason != NULL ? r->reason : "");
        put_element(out, rep->unsupported_fails ? "failure" : "skipped",
                    "unsupported", message, NULL);
        break;
    case RN_OUT_XFAIL:
        message = rn_xasprintf("known failure: %s", r->known != NULL ? r->known : "");
        put_element(out, "skipped", "xfail", message, NULL);
        break;
    case RN_OUT_SKIPPED:
        put_element(out, "skipped", "skipped", r->reason != NULL ? r->reason : "skipped",
                    NULL);
        break;
    case RN_NOUTCOMES:
        break;
    }
    fputs("    </testcase>\n", out);
    free(detail);
    free(message);
    free(levels);
    free(name);
    free(classname);
}

bool rn_report_junit(const rn_report *rep, FILE *out)
{
    size_t a;
    size_t i;

    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
    fputs("<testsuites", out);
    put_attr(out, "name", RN_PROGRAM);
    put_counts(out, rep, &rep->totals);
    fputs(">\n", out);
    for (a = 0; a < rep->nareas; a++) {
        const rn_area *area = &rep->areas[a];

        fputs("  <testsuite", out);
        put_attr(out, "name", area->name);
        put_counts(out, rep, &area->totals);
        fputs(">\n", out);
        for (i = 0; i < rep->suite->ncases; i++) {
            const rn_case *c = &rep->suite->cases[i];
            char *name;

            if (!c->selected)
                continue;
            name = rn_case_area(c);
            if (strcmp(name, area->name) == 0)
                put_case(out, rep, c, area->name);
            free(name);
        }
        fputs("  </testsuite>\n", out);
    }
    fputs("</testsuites>\n", out);
    return !ferror(out);
}
