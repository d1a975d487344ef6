/*
 * main.c — bin/tfexpr-conformance, the conformance runner
 * (conformance/README.md, "The runner").
 *
 * Loads the suite and the cases, selects cases, starts the adapter and
 * says hello, runs each selected case (or records why it is skipped),
 * compares, applies the expectations file, stops the adapter, and writes
 * the report.  A crash, timeout or malformed answer is recorded against
 * the case; the adapter is then killed and a fresh one started for the
 * next case.
 *
 * Exit status: 0 no fail, crashed or xpass (nor unsupported with
 * --fail-on-unsupported); 1 otherwise; 2 usage, I/O or corpus error.
 */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The state of one run. */
typedef struct run {
    const rn_options *opts;
    rn_suite suite;
    rn_expectations expectations;
    const char *profile;
    rn_adapter *adapter;
    json_t *hello;        /* the first hello answer: capabilities, report */
    rn_compare_ctx ctx;
    long long seq;        /* the seq of the latest run request */
    FILE *out;
    bool progress;        /* show the progress line */
    rn_totals done;       /* outcomes so far, for the progress line */
} run;

/* Opens /dev/null on any of fds 0-2 that is closed, so that pipes never
 * land there. */
static void ensure_std_fds(void)
{
    int fd;

    for (fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int nul = open("/dev/null", O_RDWR);

            if (nul >= 0 && nul != fd)
                close(nul);
        }
    }
}

static void ignore_sigpipe(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = SIG_IGN;
    sigemptyset(&sa.sa_mask);
    (void)sigaction(SIGPIPE, &sa, NULL);
}

/* ------------------------------------------------------------------ */
/* Running one case */

static void crashed(run *rs, rn_result *r, char *why, bool kill_adapter)
{
    if (kill_adapter)
        rn_adapter_kill(rs->adapter);
    r->outcome = RN_OUT_CRASHED;
    r->reason = why;
    r->stderr_tail = rn_adapter_stderr_tail(rs->adapter);
}

/* Sends the case to the adapter and judges the answer: pass, fail,
 * unsupported or crashed. */
static void execute(run *rs, rn_case *c)
{
    rn_result *r = &c->result;
    json_t *request;
    json_t *answer = NULL;
    char *why = NULL;
    rn_call_status st;
    const char *kind;

    if (!rn_adapter_running(rs->adapter) && !rn_adapter_start(rs->adapter, &why)) {
        char *reason = rn_xasprintf("crash: the adapter could not be restarted: %s",
                                    why);

        free(why);
        crashed(rs, r, reason, false);
        return;
    }
    request = rn_case_request(c);
    st = rn_adapter_run(rs->adapter, ++rs->seq, request, &answer, &why);
    json_decref(request);
    if (st != RN_CALL_OK) {
        crashed(rs, r, why, true);
        return;
    }
    kind = rn_json_str(c->fields, "request");
    switch (rn_answer_classify(answer, kind, &why)) {
    case RN_ANS_MALFORMED: {
        char *text = rn_json_compact(answer);
        char *quoted = rn_utf8_quote(text, strlen(text), RN_QUOTE_NBYTES);

        crashed(rs, r, rn_xasprintf("malformed answer: %s: %s", why, quoted), true);
        free(quoted);
        free(text);
        free(why);
        json_decref(answer);
        return;
    }
    case RN_ANS_ERRORED:
        crashed(rs, r, rn_xasprintf("errored: %s", why), false);
        free(why);
        json_decref(answer);
        return;
    case RN_ANS_UNSUPPORTED:
        r->outcome = RN_OUT_UNSUPPORTED;
        r->reason = why;
        json_decref(answer);
        return;
    case RN_ANS_EVAL:
        break;
    }
    rn_compare(&rs->ctx, rn_case_expect(c), answer, r);
    r->got = answer;
}

static void run_case(run *rs, rn_case *c)
{
    rn_result *r = &c->result;
    const char *status = NULL;
    const char *known = NULL;
    bool listed = rn_expectations_get(&rs->expectations, c->id, &status, &known);
    char *not_applicable;

    if (listed && strcmp(status, "skip") == 0) {
        r->outcome = RN_OUT_SKIPPED;
        r->reason = rn_xasprintf("listed as skip in the expectations file: %s",
                                 known);
        return;
    }
    not_applicable = rn_case_not_applicable(
        c, rs->profile, json_object_get(rs->hello, "capabilities"));
    if (not_applicable != NULL) {
        r->outcome = RN_OUT_SKIPPED;
        r->reason = not_applicable;
        return;
    }
    r->ran = true;
    execute(rs, c);
    if (!listed)
        return;
    r->known = rn_xstrdup(known);
    if (r->outcome == RN_OUT_FAIL || r->outcome == RN_OUT_CRASHED)
        r->outcome = RN_OUT_XFAIL;
    else if (r->outcome == RN_OUT_PASS)
        r->outcome = RN_OUT_XPASS;
}

/* ------------------------------------------------------------------ */
/* The phases of a run; each returns false on an error (exit status 2). */

static bool load(run *rs)
{
    const rn_options *o = rs->opts;

    if (!rn_suite_load(&rs->suite, o->suite))
        return false;
    rs->profile = o->profile != NULL ? o->profile : rn_suite_default_profile(&rs->suite);
    if (rs->profile == NULL || !rn_suite_has_profile(&rs->suite, rs->profile)) {
        rn_error("unknown profile '%s' (see %s/profiles.json)",
                 rs->profile != NULL ? rs->profile : "", o->suite);
        return false;
    }
    if (!rn_suite_load_cases(&rs->suite, o->paths.items, o->paths.n))
        return false;
    if (o->expectations != NULL) {
        if (!rn_expectations_load(&rs->expectations, o->expectations))
            return false;
        rn_expectations_check_ids(&rs->expectations, &rs->suite);
    }
    return true;
}

static size_t select_cases(run *rs)
{
    size_t i;
    size_t j;
    size_t n = 0;

    for (i = 0; i < rs->suite.ncases; i++) {
        rn_case *c = &rs->suite.cases[i];

        c->selected = rs->opts->filters.n == 0;
        for (j = 0; j < rs->opts->filters.n && !c->selected; j++)
            c->selected = rn_filter_match(rs->opts->filters.items[j], c);
        if (c->selected)
            n++;
    }
    return n;
}

static bool open_output(run *rs)
{
    int fd;

    rs->out = stdout;
    if (rs->opts->output == NULL)
        return true;
    fd = open(rs->opts->output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0)
        rs->out = fdopen(fd, "w");
    if (fd < 0 || rs->out == NULL) {
        rn_error("%s: %s", rs->opts->output, strerror(errno));
        if (fd >= 0)
            close(fd);
        rs->out = NULL;
        return false;
    }
    return true;
}

static bool start_adapter(run *rs)
{
    char *why = NULL;
    json_t *profiles;

    rs->adapter = rn_adapter_new(rs->opts->adapter, rs->profile, rs->opts->timeout_ms);
    if (!rn_adapter_start(rs->adapter, &why)) {
        char *tail = rn_adapter_stderr_tail(rs->adapter);

        rn_error("cannot start the adapter '%s': %s", rs->opts->adapter, why);
        if (tail != NULL) {
            rn_buf b = {0};

            rn_buf_add_indented(&b, "  | ", tail);
            fprintf(stderr, "its stderr (last bytes):\n%s", b.data);
            rn_buf_free(&b);
        }
        free(tail);
        free(why);
        return false;
    }
    rs->hello = json_incref(rn_adapter_hello(rs->adapter));
    rs->ctx.categories = rs->suite.categories;
    rs->ctx.columns =
        rn_json_array_has_str(json_object_get(rs->hello, "capabilities"), "ranges.column");
    profiles = json_object_get(rs->hello, "profiles");
    if (profiles != NULL && !rn_json_array_has_str(profiles, rs->profile))
        rn_warn("the adapter does not list profile %s among its profiles", rs->profile);
    return true;
}

static void run_all(run *rs, size_t nselected)
{
    size_t i;
    size_t ndone = 0;

    for (i = 0; i < rs->suite.ncases; i++) {
        rn_case *c = &rs->suite.cases[i];

        if (!c->selected)
            continue;
        run_case(rs, c);
        rs->done.n[c->result.outcome]++;
        rs->done.total++;
        ndone++;
        if (rs->progress)
            rn_progress(ndone, nselected, &rs->done);
    }
    if (rs->progress)
        rn_progress_end();
}

static int report(run *rs)
{
    rn_report rep;
    int status = RN_EXIT_OK;
    size_t i;
    bool ok = true;

    memset(&rep, 0, sizeof(rep));
    rep.suite = &rs->suite;
    rep.hello = rs->hello;
    rep.profile = rs->profile;
    rep.verbose = rs->opts->verbose;
    rep.unsupported_fails = rs->opts->fail_on_unsupported;
    rep.max_failures = rs->opts->max_failures;
    rn_report_count(&rep);
    if (rs->opts->update_expectations != NULL) {
        json_t *impl = json_object_get(rs->hello, "implementation");

        ok = rn_expectations_update(rs->opts->update_expectations, &rs->expectations,
                                    &rs->suite, rn_json_str(impl, "name"),
                                    rep.unsupported_fails);
    }
    if (!rn_report_write(&rep, rs->opts->format, rs->out)) {
        rn_error("cannot write the report: %s", strerror(errno));
        ok = false;
    }
    for (i = 0; i < RN_NOUTCOMES; i++)
        if (rep.totals.n[i] > 0 && rn_outcome_fails((rn_outcome)i, rep.unsupported_fails))
            status = RN_EXIT_FAILED;
    rn_report_free(&rep);
    return ok ? status : RN_EXIT_ERROR;
}

static void list_cases(run *rs)
{
    size_t i;

    for (i = 0; i < rs->suite.ncases; i++) {
        const rn_case *c = &rs->suite.cases[i];

        if (c->selected)
            printf("%s\t%s\t%s\n", c->id, c->name, c->file);
    }
}

static int run_main(run *rs)
{
    size_t nselected;
    int status;

    if (!load(rs))
        return RN_EXIT_ERROR;
    nselected = select_cases(rs);
    if (rs->opts->list) {
        list_cases(rs);
        return fflush(stdout) == 0 ? RN_EXIT_OK : RN_EXIT_ERROR;
    }
    if (rs->opts->adapter == NULL) {
        rn_error("--adapter is required (unless --list); see --help");
        return RN_EXIT_ERROR;
    }
    if (!open_output(rs) || !start_adapter(rs))
        return RN_EXIT_ERROR;
    rs->progress = !rs->opts->quiet && isatty(2);
    run_all(rs, nselected);
    rn_adapter_stop(rs->adapter);
    status = report(rs);
    return status;
}

int main(int argc, char **argv)
{
    rn_options opts;
    run rs;
    int status;

    ensure_std_fds();
    ignore_sigpipe();
    if (!rn_options_parse(&opts, argc, argv)) {
        rn_options_free(&opts);
        return RN_EXIT_ERROR;
    }
    if (opts.help || opts.version) {
        if (opts.help)
            rn_options_usage(stdout);
        else
            printf(RN_PROGRAM " " RN_VERSION "\n");
        rn_options_free(&opts);
        return fflush(stdout) == 0 ? RN_EXIT_OK : RN_EXIT_ERROR;
    }
    memset(&rs, 0, sizeof(rs));
    rs.opts = &opts;
    status = run_main(&rs);
    if (rs.out != NULL && rs.out != stdout && fclose(rs.out) != 0) {
        rn_error("%s: %s", opts.output, strerror(errno));
        status = RN_EXIT_ERROR;
    }
    rn_adapter_free(rs.adapter);
    json_decref(rs.hello);
    rn_expectations_free(&rs.expectations);
    rn_suite_free(&rs.suite);
    rn_options_free(&opts);
    return status;
}
