/* SPDX-License-Identifier: MPL-2.0 */
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
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* An adapter process and the case it is running. */
typedef struct worker {
    rn_adapter *adapter;
    rn_case *c;           /* the case under way, or NULL */
} worker;

/* The state of one run. */
typedef struct run {
    const rn_options *opts;
    rn_suite suite;
    rn_expectations expectations;
    const char *profile;
    worker *workers;      /* --jobs of them; workers[0] said the first hello */
    size_t nworkers;
    json_t *hello;        /* the first hello answer: capabilities, report */
    rn_compare_ctx ctx;
    /* the seq of the latest run request: one count over all the adapters,
     * so that each case has the seq it has with one adapter (cases are
     * handed out in corpus order) */
    long long seq;
    FILE *out;
    long long start_ms;   /* rn_now_ms() at the start */
    double load_cpu_s;    /* the runner's CPU time when the corpus was loaded */
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
/* Running one case
 *
 * A case goes through prepare (skipped, or handed to a worker's adapter),
 * then, once the adapter answered or failed, judge and apply_expectations.
 * With --jobs N, N adapters run cases at once; each case's result is kept
 * with the case, so the report is in corpus order whatever the order the
 * answers come in. */

static void crashed(rn_adapter *a, rn_result *r, char *why, bool kill_adapter)
{
    if (kill_adapter)
        rn_adapter_kill(a);
    r->outcome = RN_OUT_CRASHED;
    r->reason = why;
    r->stderr_tail = rn_adapter_stderr_tail(a);
}

/* Whether the case is to be sent to the adapter; if not, its result says
 * why it is skipped. */
static bool prepare(run *rs, rn_case *c)
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
        return false;
    }
    not_applicable = rn_case_not_applicable(
        c, rs->profile, json_object_get(rs->hello, "capabilities"));
    if (not_applicable != NULL) {
        r->outcome = RN_OUT_SKIPPED;
        r->reason = not_applicable;
        return false;
    }
    r->ran = true;
    return true;
}

/* A case that ran: a known failure is xfail, a listed case that passes
 * (or passes in part) xpass. */
static void apply_expectations(run *rs, rn_case *c)
{
    rn_result *r = &c->result;
    const char *status = NULL;
    const char *known = NULL;

    if (!rn_expectations_get(&rs->expectations, c->id, &status, &known))
        return;
    r->known = rn_xstrdup(known);
    if (r->outcome == RN_OUT_FAIL || r->outcome == RN_OUT_CRASHED)
        r->outcome = RN_OUT_XFAIL;
    else if (r->outcome == RN_OUT_PASS || r->outcome == RN_OUT_PARTIAL)
        r->outcome = RN_OUT_XPASS;
}

/* Sends the case to the worker's adapter, restarting it first if it is
 * not running; false (the case crashed) if that fails. */
static bool send_case(run *rs, worker *w, rn_case *c)
{
    rn_result *r = &c->result;
    char *why = NULL;
    bool sent;

    if (!rn_adapter_running(w->adapter) && !rn_adapter_start(w->adapter, &why)) {
        char *reason = rn_xasprintf("crash: the adapter could not be restarted: %s",
                                    why);

        free(why);
        crashed(w->adapter, r, reason, false);
        return false;
    }
    sent = rn_adapter_begin_run_text(w->adapter, ++rs->seq, c->request, &why);
    if (!sent)
        crashed(w->adapter, r, why, true);
    return sent;
}

/* Judges what the adapter did with the case: pass, fail, unsupported or
 * crashed. */
static void judge(run *rs, worker *w, rn_case *c, rn_call_status st, json_t *answer,
                  char *why)
{
    rn_result *r = &c->result;
    const char *kind;

    if (st != RN_CALL_OK) {
        crashed(w->adapter, r, why, true);
        return;
    }
    kind = rn_json_str(c->fields, "request");
    switch (rn_answer_classify(answer, kind, &why)) {
    case RN_ANS_MALFORMED: {
        char *text = rn_json_compact(answer);
        char *quoted = rn_utf8_quote(text, strlen(text), RN_QUOTE_NBYTES);

        crashed(w->adapter, r,
                rn_xasprintf("malformed answer: %s: %s", why, quoted), true);
        free(quoted);
        free(text);
        free(why);
        json_decref(answer);
        return;
    }
    case RN_ANS_ERRORED:
        crashed(w->adapter, r, rn_xasprintf("errored: %s", why), false);
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
    if (!rn_suite_load_cases(&rs->suite, o->paths.items, o->paths.n, o->jobs))
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

    rs->workers = rn_xcalloc(1, sizeof(*rs->workers));
    rs->nworkers = 1;
    rs->workers[0].adapter = rn_adapter_new(rs->opts->adapter, rs->profile,
                                            rs->opts->timeout_ms);
    if (!rn_adapter_start(rs->workers[0].adapter, &why)) {
        char *tail = rn_adapter_stderr_tail(rs->workers[0].adapter);

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
    rs->hello = json_incref(rn_adapter_hello(rs->workers[0].adapter));
    rs->ctx.categories = rs->suite.categories;
    rs->ctx.profile = rs->profile;
    rs->ctx.columns =
        rn_json_array_has_str(json_object_get(rs->hello, "capabilities"), "ranges.column");
    rs->ctx.first_only = rn_json_array_has_str(json_object_get(rs->hello, "capabilities"),
                                               "diagnostics.first-only");
    rs->ctx.start_only = rn_json_array_has_str(json_object_get(rs->hello, "capabilities"),
                                               "ranges.start-only");
    rs->ctx.refinements = rn_json_array_has_str(json_object_get(rs->hello, "capabilities"),
                                                "value.refinements");
    profiles = json_object_get(rs->hello, "profiles");
    if (profiles != NULL && !rn_json_array_has_str(profiles, rs->profile))
        rn_warn("the adapter does not list profile %s among its profiles", rs->profile);
    return true;
}

/* Starts the other jobs - 1 adapters (no more than there are cases to
 * share); one that cannot start is left out with a warning. */
static void start_more(run *rs, size_t nselected)
{
    size_t want = rs->opts->jobs < nselected ? rs->opts->jobs : nselected;

    if (want <= 1)
        return;
    rs->workers = rn_xrealloc(rs->workers, want * sizeof(*rs->workers));
    while (rs->nworkers < want) {
        worker *w = &rs->workers[rs->nworkers];
        char *why = NULL;

        memset(w, 0, sizeof(*w));
        w->adapter = rn_adapter_new(rs->opts->adapter, rs->profile, rs->opts->timeout_ms);
        if (!rn_adapter_start(w->adapter, &why)) {
            rn_warn("adapter %zu of %zu could not start, running with %zu: %s",
                    rs->nworkers + 1, want, rs->nworkers, why);
            free(why);
            rn_adapter_free(w->adapter);
            return;
        }
        rs->nworkers++;
    }
}

/* Counts a finished case, for the progress line. */
static void finished(run *rs, rn_case *c, size_t nselected, long long *shown_ms)
{
    rs->done.n[c->result.outcome]++;
    rs->done.total++;
    if (rs->progress) {
        long long now = rn_now_ms();

        /* at most every 50 ms, and the last count always */
        if (now - *shown_ms >= 50 || rs->done.total == nselected) {
            rn_progress(rs->done.total, nselected, &rs->done);
            *shown_ms = now;
        }
    }
}

/* The time a step for one worker took that may block (a restart, a hello,
 * waiting for a crashed adapter's exit status) is not counted against the
 * others: their deadlines move by as much. */
static void excuse_stall(run *rs, const worker *except, long long since_ms)
{
    long long stall = rn_now_ms() - since_ms;
    size_t i;

    if (stall <= 0)
        return;
    for (i = 0; i < rs->nworkers; i++)
        if (&rs->workers[i] != except && rs->workers[i].c != NULL)
            rn_adapter_delay(rs->workers[i].adapter, stall);
}

/* Hands out the selected cases in order to the idle workers, and waits on
 * all the workers at once with poll(2) until every case is done. */
static void run_all(run *rs, size_t nselected)
{
    size_t next = 0;
    size_t nfds_max = rs->nworkers * RN_ADAPTER_NFDS;
    struct pollfd *pfd = rn_xcalloc(nfds_max, sizeof(*pfd));
    size_t *first = rn_xcalloc(rs->nworkers + 1, sizeof(*first));
    long long shown_ms = 0;

    for (;;) {
        size_t i;
        size_t nbusy = 0;
        size_t nfds = 0;
        long long deadline = LLONG_MAX;
        long long left;

        for (i = 0; i < rs->nworkers; i++) {
            worker *w = &rs->workers[i];

            while (w->c == NULL && next < rs->suite.ncases) {
                rn_case *c = &rs->suite.cases[next++];

                long long t0;
                bool sent;

                if (!c->selected)
                    continue;
                t0 = rn_now_ms();
                sent = prepare(rs, c) && send_case(rs, w, c);
                excuse_stall(rs, w, t0);
                if (sent) {
                    w->c = c;
                    break;
                }
                if (c->result.ran)
                    apply_expectations(rs, c);
                finished(rs, c, nselected, &shown_ms);
            }
            first[i] = nfds;
            if (w->c != NULL) {
                nbusy++;
                nfds += rn_adapter_fds(w->adapter, pfd + nfds, &deadline);
            }
        }
        first[rs->nworkers] = nfds;
        if (nbusy == 0)
            break;
        left = deadline - rn_now_ms();
        if (left < 0)
            left = 0;
        if (poll(pfd, (nfds_t)nfds, left > INT_MAX ? INT_MAX : (int)left) < 0) {
            if (errno != EINTR) {
                rn_error("poll: %s", strerror(errno));
                exit(RN_EXIT_ERROR);
            }
            for (i = 0; i < nfds; i++)
                pfd[i].revents = 0;
        }
        for (i = 0; i < rs->nworkers; i++) {
            worker *w = &rs->workers[i];
            json_t *answer = NULL;
            char *why = NULL;
            rn_call_status st;
            long long t0 = rn_now_ms();

            if (w->c == NULL)
                continue;
            st = rn_adapter_collect(w->adapter, pfd + first[i], first[i + 1] - first[i],
                                    &answer, &why);
            if (st == RN_CALL_PENDING)
                continue;
            judge(rs, w, w->c, st, answer, why);
            excuse_stall(rs, w, t0);
            apply_expectations(rs, w->c);
            finished(rs, w->c, nselected, &shown_ms);
            w->c = NULL;
        }
    }
    if (rs->progress)
        rn_progress_end();
    free(first);
    free(pfd);
}

/* Stops every adapter: stop to each, then waits for each. */
static void stop_all(run *rs)
{
    long long deadline = rn_now_ms() + RN_STOP_WAIT_MS;
    size_t i;

    for (i = 0; i < rs->nworkers; i++)
        rn_adapter_send_stop(rs->workers[i].adapter);
    for (i = 0; i < rs->nworkers; i++)
        rn_adapter_stop_until(rs->workers[i].adapter, deadline);
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

/* User plus system time of RUSAGE_SELF or RUSAGE_CHILDREN, in seconds. */
static double cpu_seconds(int who)
{
    struct rusage ru;

    if (getrusage(who, &ru) != 0)
        return 0;
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* The timing line on stderr, once the adapters are reaped: the wall time,
 * the runner's CPU time (and how much of it loading the corpus took), and
 * the adapters' (every process the runner started and reaped, with what
 * they reaped; RUSAGE_CHILDREN). */
static void report_timing(run *rs)
{
    size_t nprocs = 0;
    size_t i;

    for (i = 0; i < rs->nworkers; i++)
        nprocs += rn_adapter_nstarted(rs->workers[i].adapter);
    fprintf(stderr,
            "%.1f s wall; runner %.1f s CPU (loading the corpus %.1f s), "
            "adapter %.1f s CPU (%zu process%s, %zu at a time)\n",
            (double)(rn_now_ms() - rs->start_ms) / 1000.0, cpu_seconds(RUSAGE_SELF),
            rs->load_cpu_s, cpu_seconds(RUSAGE_CHILDREN), nprocs,
            nprocs == 1 ? "" : "es", rs->nworkers);
}

static int run_main(run *rs)
{
    size_t nselected;
    int status;

    if (!load(rs))
        return RN_EXIT_ERROR;
    rs->load_cpu_s = cpu_seconds(RUSAGE_SELF);
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
    start_more(rs, nselected);
    run_all(rs, nselected);
    stop_all(rs);
    status = report(rs);
    if (!rs->opts->quiet)
        report_timing(rs);
    return status;
}

int main(int argc, char **argv)
{
    /* static: the corpus is still reachable at exit (see below) */
    static run rs;
    rn_options opts;
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
    rs.start_ms = rn_now_ms();
    status = run_main(&rs);
    if (rs.out != NULL && rs.out != stdout && fclose(rs.out) != 0) {
        rn_error("%s: %s", opts.output, strerror(errno));
        status = RN_EXIT_ERROR;
    }
    for (size_t i = 0; i < rs.nworkers; i++)
        rn_adapter_free(rs.workers[i].adapter);
    free(rs.workers);
    json_decref(rs.hello);
    rn_expectations_free(&rs.expectations);
    /* The corpus (the cases' JSON, with the answers and results) is left
     * to the end of the process: freeing it node by node was a tenth of
     * the runner's instructions, for nothing.  It stays reachable from rs,
     * a static, so a leak checker does not count it as leaked. */
    rn_options_free(&opts);
    return status;
}
