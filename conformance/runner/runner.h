/* SPDX-License-Identifier: MPL-2.0 */
/*
 * runner.h — declarations shared by the files of bin/tfexpr-conformance,
 * the conformance runner (conformance/README.md, "The runner").
 *
 *   main.c            the run: load, select, run each case, report, exit
 *   options.c         the command line
 *   corpus.c          suite files, case files, selection, applicability
 *   expectations.c    expectations files: reading and updating
 *   adapter.c         the adapter process and the JSON-lines protocol
 *   compare.c         answer forms, and the comparison of one case
 *   value.c           typed values: checking, comparing, rendering
 *   diag.c            diagnostics: checking, categories, comparing, rendering
 *   report.c          totals, areas, progress and the text report
 *   report_json.c     the JSON report
 *   report_junit.c    the JUnit XML report
 *   report_tap.c      the TAP report
 *   util.c            memory, growable buffers, string lists, UTF-8, files
 *
 * Cross-file symbols carry the prefix rn_; statics carry none.
 */
#ifndef RN_RUNNER_H
#define RN_RUNNER_H

#include <jansson.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define RN_VERSION "0.1.0"
#define RN_PROGRAM "tfexpr-conformance"

/* Exit statuses (conformance/README.md, "The runner"). */
#define RN_EXIT_OK 0
#define RN_EXIT_FAILED 1
#define RN_EXIT_ERROR 2

/* The last bytes of an adapter's stderr kept for crash reports. */
#define RN_STDERR_TAIL_NBYTES 4096
/* How much of a malformed answer a report quotes. */
#define RN_QUOTE_NBYTES 200
/* How much of a value a difference quotes, and how long a line of the
 * text report's case detail can be. */
#define RN_DIFF_NBYTES 300
#define RN_LINE_NBYTES 2000

#if defined(__GNUC__) || defined(__clang__)
#define RN_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define RN_NORETURN __attribute__((noreturn))
#else
#define RN_PRINTF(fmt, args)
#define RN_NORETURN
#endif

#define RN_COUNTOF(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------ */
/* util.c */

void *rn_xmalloc(size_t nbytes);
void *rn_xcalloc(size_t count, size_t nbytes);
void *rn_xrealloc(void *p, size_t nbytes);
char *rn_xstrdup(const char *s);
char *rn_xstrndup(const char *s, size_t nbytes);
char *rn_xasprintf(const char *fmt, ...) RN_PRINTF(1, 2);
char *rn_xvasprintf(const char *fmt, va_list ap) RN_PRINTF(1, 0);

/* A growable byte buffer, always NUL-terminated once anything was added. */
typedef struct rn_buf {
    char *data;
    size_t nbytes;
    size_t cap;
} rn_buf;

void rn_buf_addn(rn_buf *b, const char *s, size_t nbytes);
void rn_buf_adds(rn_buf *b, const char *s);
void rn_buf_addc(rn_buf *b, char c);
void rn_buf_printf(rn_buf *b, const char *fmt, ...) RN_PRINTF(2, 3);
/* Adds n in decimal, as "%zu" does. */
void rn_buf_add_size(rn_buf *b, size_t n);
/* Adds `s` with every line prefixed by `indent` and ending in a newline. */
void rn_buf_add_indented(rn_buf *b, const char *indent, const char *s);
/* Returns the contents (an empty string if nothing was added) and empties b. */
char *rn_buf_steal(rn_buf *b);
void rn_buf_free(rn_buf *b);

/* A list of owned strings. */
typedef struct rn_strlist {
    char **items;
    size_t n;
    size_t cap;
} rn_strlist;

void rn_strlist_add(rn_strlist *l, char *s); /* takes ownership of s */
void rn_strlist_addf(rn_strlist *l, const char *fmt, ...) RN_PRINTF(2, 3);
void rn_strlist_free(rn_strlist *l);

/* A copy of the bytes that is valid UTF-8 without NUL: every invalid
 * sequence and every NUL becomes U+FFFD. */
char *rn_utf8_clean(const char *s, size_t nbytes);
/* Like rn_utf8_clean, but cut to at most about `max_nbytes` bytes (on a
 * character boundary), with "..." appended when cut. */
char *rn_utf8_quote(const char *s, size_t nbytes, size_t max_nbytes);

/* Whether the bytes are valid UTF-8 (NUL included). */
bool rn_utf8_valid(const char *s, size_t nbytes);
/* The bytes as a quoted string for a report: valid UTF-8 as itself,
 * every other byte, control character, quote and backslash escaped
 * (\xNN, \", \\).  The caller frees. */
char *rn_bytes_escape(const char *s, size_t nbytes);
/* Decodes standard base64 (RFC 4648 alphabet, '=' padding optional)
 * and appends the bytes to *out; false if `s` is not base64. */
bool rn_base64_decode(const char *s, size_t nchars, rn_buf *out);

void rn_error(const char *fmt, ...) RN_PRINTF(1, 2);
void rn_warn(const char *fmt, ...) RN_PRINTF(1, 2);

/* Reads and parses a JSON file; on failure returns NULL with *why set. */
json_t *rn_json_load_file(const char *path, char **why);
/* The string of a JSON string member, or NULL. */
const char *rn_json_str(json_t *object, const char *key);
/* Whether `array` (a JSON array, or NULL) holds the string `s`. */
bool rn_json_array_has_str(json_t *array, const char *s);
/* Whether `a` is an array of strings (NULL counts as absent, true). */
bool rn_json_is_str_array(json_t *a);
/* Compact one-line serialisation, or "?" on failure; the caller frees. */
char *rn_json_compact(json_t *j);

/* Matches `text` against a pattern in which '*' stands for any run of
 * characters and everything else for itself (categories.json). */
bool rn_star_match(const char *pattern, const char *text);

/* ------------------------------------------------------------------ */
/* Outcomes and levels */

typedef enum rn_outcome {
    RN_OUT_PASS,
    RN_OUT_PARTIAL,  /* passed what was compared, compared in part only */
    RN_OUT_FAIL,
    RN_OUT_XFAIL,
    RN_OUT_XPASS,
    RN_OUT_UNSUPPORTED,
    RN_OUT_CRASHED,
    RN_OUT_SKIPPED,
    RN_NOUTCOMES
} rn_outcome;

/* The comparison levels (conformance/README.md, "Comparing results").
 * Value cases use OUTCOME..MARKS and REFINEMENTS, reference cases OUTCOME, REFS, RANGE
 * and POSITION, diagnostic cases OUTCOME and COUNT..SUMMARY.  SUMMARY is informative and never fails. */
typedef enum rn_level {
    RN_LV_OUTCOME,
    RN_LV_TYPE,
    RN_LV_VALUE,
    RN_LV_MARKS,
    RN_LV_REFINEMENTS, /* of unknown values; n/a unless the adapter
                        * declares value.refinements */
    RN_LV_REFS,
    RN_LV_COUNT,
    RN_LV_PHASE,
    RN_LV_CATEGORY,
    RN_LV_RANGE,
    RN_LV_POSITION,
    RN_LV_SUMMARY,
    RN_NLEVELS
} rn_level;

typedef enum rn_status {
    RN_ST_UNUSED,  /* the level does not belong to this kind of case */
    RN_ST_PASS,
    RN_ST_FAIL,
    RN_ST_NA,      /* not compared: not reached, or not checkable */
    RN_ST_DIFFERS, /* informative level (summary) that differs */
    RN_ST_PARTIAL  /* passed in the part compared: the adapter declared
                    * diagnostics.first-only (count) or ranges.start-only
                    * (range, position), and the rest differs */
} rn_status;

const char *rn_outcome_name(rn_outcome o);
const char *rn_level_name(rn_level l);
const char *rn_status_name(rn_status s);

/* What running one case gave. */
typedef struct rn_result {
    rn_outcome outcome;
    bool ran;                         /* the case was sent to the adapter */
    unsigned char levels[RN_NLEVELS]; /* rn_status per level */
    char *reason;      /* crashed, unsupported, skipped: why */
    char *stderr_tail; /* crashed: the adapter's last stderr output */
    char *known;       /* the expectations entry's reason, if any */
    json_t *got;       /* the adapter's answer, if there was a valid one */
    rn_strlist diffs;  /* readable differences, one per entry */
} rn_result;

/* Sets the status of a level; FAIL is never overridden, and DIFFERS and
 * PARTIAL only by FAIL. */
void rn_result_set(rn_result *r, rn_level level, rn_status st);
bool rn_result_any_failed(const rn_result *r);
bool rn_result_any_partial(const rn_result *r);
/* The levels compared in part only, "count, range" ("" if none); the
 * caller frees. */
char *rn_result_partial_levels(const rn_result *r);
/* The failed levels, "value, marks" ("" if none); the caller frees. */
char *rn_result_failed_levels(const rn_result *r);
void rn_result_free(rn_result *r);

/* ------------------------------------------------------------------ */
/* corpus.c */

typedef struct rn_case {
    json_t *fields;   /* the case merged with its file's defaults */
    const char *id;   /* borrowed from fields */
    const char *name; /* borrowed from fields */
    char *request;    /* rn_case_request serialised (compact, in order), made
                       * while loading; NULL if it could not be */
    char *file;       /* the case file, relative to the suite dir if inside */
    bool selected;
    rn_result result;
} rn_case;

typedef struct rn_suite {
    char *dir;
    json_t *categories;    /* categories.json */
    json_t *profiles;      /* profiles.json */
    rn_case *cases;        /* in file order */
    size_t ncases;
    size_t *by_id;         /* indices of the cases, sorted by id */
} rn_suite;

/* Loads DIR/categories.json and DIR/profiles.json. */
bool rn_suite_load(rn_suite *s, const char *dir);
/* Loads the case files under `paths` (files or directories), or under
 * DIR/cases when npaths is 0, parsing them on up to nthreads threads. */
bool rn_suite_load_cases(rn_suite *s, char **paths, size_t npaths, size_t nthreads);
const char *rn_suite_default_profile(rn_suite *s);
bool rn_suite_has_profile(rn_suite *s, const char *profile);
rn_case *rn_suite_find(rn_suite *s, const char *id);
void rn_suite_free(rn_suite *s);

/* Whether a filter (id:X, name:GLOB, tag:T, rule:R, file:GLOB, GLOB) is
 * well formed. */
bool rn_filter_valid(const char *filter);
bool rn_filter_match(const char *filter, const rn_case *c);

/* Why the case does not apply to `profile` with `capabilities` (a JSON
 * array), or NULL if it applies.  The caller frees. */
char *rn_case_not_applicable(const rn_case *c, const char *profile,
                             json_t *capabilities);
/* The case's expected result (the "expect" object). */
json_t *rn_case_expect(const rn_case *c);
/* The case as a run request sends it: id, name, request, mode,
 * input/input_base64, variables, convert_to, convert_mode, host, flavor
 * (those present; request always). */
json_t *rn_case_request(const rn_case *c);
/* The area of a case: the first '/'-segment of its name (caller frees). */
char *rn_case_area(const rn_case *c);

/* ------------------------------------------------------------------ */
/* expectations.c */

typedef struct rn_expectations {
    char *path;
    char *implementation;
    json_t *entries; /* id -> {"status", "reason"} */
} rn_expectations;

bool rn_expectations_load(rn_expectations *e, const char *path);
/* Warns about ids that no loaded case has. */
void rn_expectations_check_ids(rn_expectations *e, rn_suite *s);
/* The entry's status ("fail", "skip") and reason for `id`, or false. */
bool rn_expectations_get(rn_expectations *e, const char *id,
                         const char **status, const char **reason);
void rn_expectations_free(rn_expectations *e);
/* Writes an expectations file listing the failing cases of this run. */
bool rn_expectations_update(const char *path, rn_expectations *loaded,
                            rn_suite *s, const char *implementation,
                            bool unsupported_fails);

/* ------------------------------------------------------------------ */
/* adapter.c */

typedef struct rn_adapter rn_adapter;

typedef enum rn_call_status {
    RN_CALL_PENDING,  /* rn_adapter_collect: no answer yet */
    RN_CALL_OK,
    RN_CALL_CRASH,    /* exited, closed stdout, stopped reading */
    RN_CALL_TIMEOUT,  /* no answer in time */
    RN_CALL_MALFORMED /* not one JSON object, wrong or missing seq */
} rn_call_status;

rn_adapter *rn_adapter_new(const char *command, const char *profile,
                           long timeout_ms);
/* Starts the adapter and says hello.  On failure returns false with *why
 * set (caller frees) and leaves no process behind. */
bool rn_adapter_start(rn_adapter *a, char **why);
bool rn_adapter_running(const rn_adapter *a);
/* How many processes it started, restarts included. */
size_t rn_adapter_nstarted(const rn_adapter *a);
/* The answer to the latest hello (borrowed), or NULL. */
json_t *rn_adapter_hello(rn_adapter *a);
/* Sends {"cmd":"run","seq":seq,"case":request_case} and reads the answer,
 * checked to be an object with the right seq.  On anything but
 * RN_CALL_OK, *why says what happened and the adapter should be killed. */
rn_call_status rn_adapter_run(rn_adapter *a, long long seq,
                              json_t *request_case, json_t **answer,
                              char **why);
/* The same in steps, for several adapters at once: rn_adapter_begin_run
 * sends nothing yet (false, with *why, when the adapter is not running);
 * rn_adapter_fds gives the fds (at most RN_ADAPTER_NFDS) to poll(2) for
 * the exchange under way and lowers *deadline (now_ms-like, CLOCK_MONOTONIC
 * milliseconds) to its own; after the poll, rn_adapter_collect does the
 * I/O and gives RN_CALL_PENDING, or the outcome as rn_adapter_run does. */
#define RN_ADAPTER_NFDS 3
bool rn_adapter_begin_run(rn_adapter *a, long long seq, json_t *request_case,
                          char **why);
/* The same with the case already serialised (compact JSON text, as
 * json_dumps gives it; NULL: it could not be). */
bool rn_adapter_begin_run_text(rn_adapter *a, long long seq, const char *case_text,
                               char **why);
size_t rn_adapter_fds(const rn_adapter *a, struct pollfd *pfd, long long *deadline);
rn_call_status rn_adapter_collect(rn_adapter *a, const struct pollfd *pfd, size_t n,
                                  json_t **answer, char **why);
/* Moves the deadline of the exchange under way `ms` later (the time the
 * runner spent blocked on another adapter). */
void rn_adapter_delay(rn_adapter *a, long long ms);
/* CLOCK_MONOTONIC in milliseconds. */
long long rn_now_ms(void);
/* The last RN_STDERR_TAIL_NBYTES of the adapter's stderr, cleaned to
 * UTF-8 (caller frees). */
char *rn_adapter_stderr_tail(rn_adapter *a);
/* Kills the adapter's process group and reaps it. */
void rn_adapter_kill(rn_adapter *a);
/* Sends stop, waits up to 2 s, then kills. */
void rn_adapter_stop(rn_adapter *a);
/* The same in two steps, for several adapters at once: sends stop (and
 * closes the pipes to and from it); then waits until `deadline`
 * (rn_now_ms) at most, and kills. */
void rn_adapter_send_stop(rn_adapter *a);
void rn_adapter_stop_until(rn_adapter *a, long long deadline);
/* How long a stopped adapter may take to exit (ms). */
#define RN_STOP_WAIT_MS 2000
void rn_adapter_free(rn_adapter *a);

/* ------------------------------------------------------------------ */
/* compare.c */

typedef enum rn_answer_kind {
    RN_ANS_EVAL,        /* a value and/or diagnostics */
    RN_ANS_UNSUPPORTED,
    RN_ANS_ERRORED,
    RN_ANS_MALFORMED
} rn_answer_kind;

/* What a comparison needs besides the case and the answer. */
typedef struct rn_compare_ctx {
    json_t *categories;  /* categories.json */
    const char *profile; /* the run's profile */
    bool columns;        /* the adapter declared "ranges.column" */
    bool first_only;     /* the adapter declared "diagnostics.first-only" */
    bool start_only;     /* the adapter declared "ranges.start-only" */
    bool refinements;    /* the adapter declared "value.refinements" */
} rn_compare_ctx;

/* Which of the four answer forms `answer` is, for a case of `request`
 * ("eval" when NULL); for UNSUPPORTED, ERRORED and MALFORMED, *why is the message or the defect (caller frees). */
rn_answer_kind rn_answer_classify(json_t *answer, const char *request, char **why);
/* Compares an RN_ANS_EVAL answer with the expectation, setting the levels
 * and differences of r, and r->outcome to PASS, PARTIAL or FAIL. */
void rn_compare(const rn_compare_ctx *ctx, json_t *expect, json_t *answer,
                rn_result *r);

/* ------------------------------------------------------------------ */
/* refs.c */

/* Checks a list of traversals (a refs answer's or expectation's "refs"). */
bool rn_refs_check(json_t *refs, char **why);
/* Compares expected traversals with an answer's (its "refs", or its
 * diagnostics): the outcome, refs, range and position levels. */
void rn_refs_compare(const rn_compare_ctx *ctx, json_t *expected, json_t *answer,
                     rn_result *r);
/* `a.b[0]["k"]` */
void rn_ref_render(rn_buf *b, json_t *t);

/* ------------------------------------------------------------------ */
/* value.c */

/* Checks a typed value (a node with "type") against the README grammar,
 * including the type-directed shape of payloads; its types may mark
 * optional attributes (two corners of cty's conversion leave them). */
bool rn_value_check(json_t *tv, char **why);
/* The same for the value a console request answers or expects, whose
 * types may also be "type", the capsule type of type() results. */
bool rn_console_value_check(json_t *tv, char **why);
/* The same for the value of an adapter's answer (console: of a console
 * request), which may also hold the number text NaN and strings given as
 * "v_base64"; a "v_base64" string that is valid UTF-8 is rewritten in
 * place as "v". */
bool rn_answer_value_check(json_t *tv, bool console, char **why);
/* Whether a checked typed value is a number whose text is NaN. */
bool rn_value_is_nan(json_t *tv);
bool rn_type_check(json_t *type, char **why);
/* The same for a type constraint (a convert request's "convert_to"),
 * whose object types may list optional attributes as a third element. */
bool rn_constraint_check(json_t *type, char **why);
/* Canonical text of a number text ("0", "-0", "inf", "-inf", "nan" or
 * "[-]0.DIGITSeEXP"), or NULL if it is not a number text. */
char *rn_number_canonical(const char *s);
/* Compares two checked typed values: the type, value and marks levels,
 * and the refinements level: compared when `refinements` (the adapter
 * declared value.refinements), otherwise n/a where the expected value has
 * refinements. */
void rn_value_compare(json_t *expected, json_t *got, bool refinements, rn_result *r);
/* HCL-like rendering: `["a", (unknown)] :: list(string)`. */
void rn_value_render(rn_buf *b, json_t *tv);
void rn_type_render(rn_buf *b, json_t *type);

/* ------------------------------------------------------------------ */
/* diag.c */

/* Checks a diagnostics array.  `expected`: as in a case (category
 * required, at least one); otherwise as in an answer. */
bool rn_diags_check(json_t *diags, bool expected, char **why);
/* Whether the array holds an error diagnostic. */
bool rn_diags_have_error(json_t *diags);
/* The category of a diagnostic: its own, or its summary mapped through
 * categories.json, or "unmapped". */
const char *rn_diag_category(json_t *categories, json_t *diag);
/* Compares expected diagnostics with an answer's: the count, phase,
 * category, range, position and summary levels. */
void rn_diags_compare(const rn_compare_ctx *ctx, json_t *expected,
                      json_t *got, rn_result *r);
/* `eval eval.invalid-index 4-7 (1:5-1:8) "Invalid index"` */
void rn_diag_render(rn_buf *b, json_t *categories, json_t *diag);

/* ------------------------------------------------------------------ */
/* report.c, report_json.c, report_junit.c, report_tap.c */

typedef enum rn_format {
    RN_FMT_TEXT,
    RN_FMT_JSON,
    RN_FMT_JUNIT,
    RN_FMT_TAP
} rn_format;

/* Counts per outcome. */
typedef struct rn_totals {
    size_t n[RN_NOUTCOMES];
    size_t total;
} rn_totals;

typedef struct rn_area {
    char *name;
    rn_totals totals;
} rn_area;

/* Everything a report shows. */
typedef struct rn_report {
    rn_suite *suite;
    json_t *hello;        /* the adapter's hello answer */
    const char *profile;
    bool verbose;
    bool unsupported_fails;
    size_t max_failures;
    rn_totals totals;
    rn_area *areas;       /* sorted by name */
    size_t nareas;
} rn_report;

/* Counts the outcomes of the selected cases, in total and per area. */
void rn_report_count(rn_report *rep);
void rn_report_free(rn_report *rep);
/* Whether an outcome counts as failing the run. */
bool rn_outcome_fails(rn_outcome o, bool unsupported_fails);
/* The expected-vs-got text of a case (indented lines), caller frees. */
char *rn_report_case_detail(const rn_report *rep, const rn_case *c,
                            const char *indent);
/* "name version (language)" of the adapter, caller frees. */
char *rn_report_implementation(const rn_report *rep);

bool rn_report_write(const rn_report *rep, rn_format fmt, FILE *out);
bool rn_report_text(const rn_report *rep, FILE *out);
bool rn_report_json(const rn_report *rep, FILE *out);
bool rn_report_junit(const rn_report *rep, FILE *out);
bool rn_report_tap(const rn_report *rep, FILE *out);

/* The live progress line on stderr. */
void rn_progress(size_t done, size_t ntotal, const rn_totals *t);
void rn_progress_end(void);

/* ------------------------------------------------------------------ */
/* options.c */

/* The most adapters --jobs runs at once. */
#define RN_MAX_JOBS 256

typedef struct rn_options {
    const char *adapter;
    const char *suite;
    const char *profile;
    const char *expectations;
    const char *update_expectations;
    const char *output;
    rn_format format;
    long timeout_ms;
    size_t max_failures;
    size_t jobs;          /* adapters run at once (--jobs) */
    bool fail_on_unsupported;
    bool list;
    bool quiet;
    bool verbose;
    bool help;
    bool version;
    rn_strlist filters;
    rn_strlist paths;
} rn_options;

/* Parses the command line; on a usage error prints it and returns false. */
bool rn_options_parse(rn_options *o, int argc, char **argv);
void rn_options_usage(FILE *out);
void rn_options_free(rn_options *o);

#endif
