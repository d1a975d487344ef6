/* SPDX-License-Identifier: MPL-2.0 */
/*
 * options.c — the command line of bin/tfexpr-conformance.
 *
 * Long options only, each taking its value as the next argument or after
 * '=' (--format=json).  "--" ends the options.
 */
#include "runner.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: " RN_PROGRAM " [options] [CASE-FILE-OR-DIR ...]\n"
    "\n"
    "Runs the tfexpr conformance corpus against an implementation's adapter,\n"
    "a program speaking the JSON-lines protocol of conformance/README.md, and\n"
    "reports per case and per area.  Without paths, the cases are SUITE/cases\n"
    "(every *.json file under it, by path).\n"
    "\n"
    "options:\n"
    "  --adapter CMD              the adapter command, run with /bin/sh -c CMD\n"
    "                             (required unless --list)\n"
    "  --suite DIR                the suite: DIR/categories.json, DIR/profiles.json,\n"
    "                             DIR/cases (default: conformance)\n"
    "  --profile ID               the profile to run (default: profiles.json's\n"
    "                             \"default\")\n"
    "  --filter F                 select cases; F is id:GLOB, name:GLOB, tag:GLOB,\n"
    "                             rule:GLOB (an entry of the case's \"spec\"),\n"
    "                             file:GLOB (the case file relative to DIR), or a\n"
    "                             bare GLOB matched against names; repeat for \"or\"\n"
    "  --expectations FILE        the implementation's known failures\n"
    "  --update-expectations FILE write an expectations file listing every case\n"
    "                             that fails or crashes in this run (reasons of\n"
    "                             existing entries are kept)\n"
    "  --format FMT               the report: text (default), json, junit, tap\n"
    "  --output FILE              write the report to FILE instead of stdout\n"
    "  --timeout SECONDS          per-case timeout (default 10; fractions allowed)\n"
    "  --max-failures N           failing cases detailed in the text report\n"
    "                             (default 50)\n"
    "  --jobs N                   run N adapter processes at once, and parse the\n"
    "                             case files on N threads (default: the number of\n"
    "                             online processors); the report is the same for\n"
    "                             any N\n"
    "  --fail-on-unsupported      count unsupported answers as failures\n"
    "  --list                     print the selected cases (id, name, file) and exit\n"
    "  --verbose                  the text report shows every case, with reasons\n"
    "  --quiet                    no progress line on stderr, and no timing line\n"
    "                             at the end (wall time, the runner's and the\n"
    "                             adapters' CPU time)\n"
    "  --help                     print this help and exit\n"
    "  --version                  print the version and exit\n"
    "\n"
    "Outcomes: pass, fail (a level differs), xfail (fails, listed as a known\n"
    "failure), xpass (listed, but passes), unsupported (the adapter says so),\n"
    "crashed (crash, timeout, malformed answer, errored), skipped (not\n"
    "applicable to the profile or the adapter's capabilities, or listed as skip).\n"
    "\n"
    "Exit status: 0 no fail, crashed or xpass (nor unsupported, with\n"
    "--fail-on-unsupported); 1 otherwise; 2 usage, I/O or corpus error.\n";

void rn_options_usage(FILE *out)
{
    fputs(usage_text, out);
}

static bool usage_error(const char *fmt, ...) RN_PRINTF(1, 2);

static bool usage_error(const char *fmt, ...)
{
    va_list ap;
    char *s;

    va_start(ap, fmt);
    s = rn_xvasprintf(fmt, ap);
    va_end(ap);
    fprintf(stderr, RN_PROGRAM ": %s\nRun '" RN_PROGRAM " --help' for the options.\n",
            s);
    free(s);
    return false;
}

/* Parses "SECONDS" or "SECONDS.FRACTION" into milliseconds (> 0). */
static bool parse_timeout(const char *s, long *ms)
{
    long whole = 0;
    long frac = 0;
    long scale = 100;
    const char *p = s;

    if (*p < '0' || *p > '9')
        return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (whole > 1000000)
            return false;
        whole = whole * 10 + (*p - '0');
    }
    if (*p == '.') {
        for (p++; *p >= '0' && *p <= '9'; p++) {
            frac += (*p - '0') * scale;
            scale /= 10;
        }
    }
    if (*p != '\0')
        return false;
    *ms = whole * 1000 + frac;
    return *ms > 0;
}

static bool parse_count(const char *s, size_t *n)
{
    size_t v = 0;

    if (*s == '\0')
        return false;
    for (; *s != '\0'; s++) {
        if (*s < '0' || *s > '9' || v > 100000000)
            return false;
        v = v * 10 + (size_t)(*s - '0');
    }
    *n = v;
    return true;
}

static bool parse_format(const char *s, rn_format *fmt)
{
    static const struct {
        const char *name;
        rn_format fmt;
    } formats[] = {
        {"text", RN_FMT_TEXT},
        {"json", RN_FMT_JSON},
        {"junit", RN_FMT_JUNIT},
        {"tap", RN_FMT_TAP},
    };
    size_t i;

    for (i = 0; i < RN_COUNTOF(formats); i++) {
        if (strcmp(s, formats[i].name) == 0) {
            *fmt = formats[i].fmt;
            return true;
        }
    }
    return false;
}

/* --jobs by default: the online processors, as sysconf tells them. */
static size_t default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    if (n < 1)
        return 1;
    return n > RN_MAX_JOBS ? RN_MAX_JOBS : (size_t)n;
}

/* The options that take a value. */
typedef enum value_opt {
    OPT_ADAPTER,
    OPT_SUITE,
    OPT_PROFILE,
    OPT_FILTER,
    OPT_EXPECTATIONS,
    OPT_UPDATE,
    OPT_FORMAT,
    OPT_OUTPUT,
    OPT_TIMEOUT,
    OPT_MAX_FAILURES,
    OPT_JOBS
} value_opt;

static const struct {
    const char *name;
    value_opt opt;
} value_opts[] = {
    {"--adapter", OPT_ADAPTER},
    {"--suite", OPT_SUITE},
    {"--profile", OPT_PROFILE},
    {"--filter", OPT_FILTER},
    {"--expectations", OPT_EXPECTATIONS},
    {"--update-expectations", OPT_UPDATE},
    {"--format", OPT_FORMAT},
    {"--output", OPT_OUTPUT},
    {"--timeout", OPT_TIMEOUT},
    {"--max-failures", OPT_MAX_FAILURES},
    {"--jobs", OPT_JOBS},
};

static bool set_value(rn_options *o, value_opt opt, const char *value)
{
    switch (opt) {
    case OPT_ADAPTER:
        o->adapter = value;
        break;
    case OPT_SUITE:
        o->suite = value;
        break;
    case OPT_PROFILE:
        o->profile = value;
        break;
    case OPT_FILTER:
        if (!rn_filter_valid(value))
            return usage_error("invalid filter '%s' (id:X, name:GLOB, tag:T, "
                               "rule:R, file:GLOB or GLOB)", value);
        rn_strlist_add(&o->filters, rn_xstrdup(value));
        break;
    case OPT_EXPECTATIONS:
        o->expectations = value;
        break;
    case OPT_UPDATE:
        o->update_expectations = value;
        break;
    case OPT_FORMAT:
        if (!parse_format(value, &o->format))
            return usage_error("unknown report format '%s' (text, json, junit, tap)",
                               value);
        break;
    case OPT_OUTPUT:
        o->output = value;
        break;
    case OPT_TIMEOUT:
        if (!parse_timeout(value, &o->timeout_ms))
            return usage_error("invalid timeout '%s' (seconds, more than 0)", value);
        break;
    case OPT_MAX_FAILURES:
        if (!parse_count(value, &o->max_failures))
            return usage_error("invalid count '%s'", value);
        break;
    case OPT_JOBS:
        if (!parse_count(value, &o->jobs) || o->jobs < 1 || o->jobs > RN_MAX_JOBS)
            return usage_error("invalid number of jobs '%s' (1 to %d)", value,
                               RN_MAX_JOBS);
        break;
    }
    return true;
}

static bool set_flag(rn_options *o, const char *arg)
{
    static const char *const names[] = {
        "--fail-on-unsupported", "--list", "--quiet", "--verbose", "--help", "-h",
        "--version",
    };
    bool *const flags[] = {
        &o->fail_on_unsupported, &o->list, &o->quiet, &o->verbose, &o->help,
        &o->help, &o->version,
    };
    size_t i;

    for (i = 0; i < RN_COUNTOF(names); i++) {
        if (strcmp(arg, names[i]) == 0) {
            *flags[i] = true;
            return true;
        }
    }
    return false;
}

bool rn_options_parse(rn_options *o, int argc, char **argv)
{
    int i;
    bool options_done = false;

    memset(o, 0, sizeof(*o));
    o->suite = "conformance";
    o->format = RN_FMT_TEXT;
    o->timeout_ms = 10000;
    o->max_failures = 50;
    o->jobs = default_jobs();
    for (i = 1; i < argc; i++) {
        const char *arg = argv[i];
        size_t k;
        bool matched = false;

        if (options_done || arg[0] != '-' || strcmp(arg, "-") == 0) {
            rn_strlist_add(&o->paths, rn_xstrdup(arg));
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            options_done = true;
            continue;
        }
        if (set_flag(o, arg))
            continue;
        for (k = 0; k < RN_COUNTOF(value_opts) && !matched; k++) {
            size_t n = strlen(value_opts[k].name);
            const char *value;

            if (strncmp(arg, value_opts[k].name, n) != 0 ||
                (arg[n] != '\0' && arg[n] != '='))
                continue;
            matched = true;
            if (arg[n] == '=')
                value = arg + n + 1;
            else if (i + 1 < argc)
                value = argv[++i];
            else
                return usage_error("option %s needs a value", value_opts[k].name);
            if (!set_value(o, value_opts[k].opt, value))
                return false;
        }
        if (!matched)
            return usage_error("unknown option '%s'", arg);
    }
    return true;
}

void rn_options_free(rn_options *o)
{
    rn_strlist_free(&o->filters);
    rn_strlist_free(&o->paths);
}
