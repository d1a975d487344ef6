/* SPDX-License-Identifier: MPL-2.0 */
/*
 * cli.h — what the files of the `tfexpr` command line tool (impl/main.c,
 * the .c files of impl/cli) share.  None of it is in libtfexpr.
 */
#ifndef TFX_CLI_H
#define TFX_CLI_H

#include "tfexpr.h"

#include <jansson.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Exit statuses, the same for every command. */
#define EXIT_INPUT_ERRORS 1
#define EXIT_USAGE 2

#if defined(__GNUC__) || defined(__clang__)
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLI_PRINTF(f, a)
#endif

/* ---- Output that is always valid UTF-8 (impl/cli/out.c) ----
 * Every byte the tool writes goes through these: a byte that does not
 * belong to a well-formed UTF-8 sequence is written as U+FFFD. */

/* Writes s[0..n) to f with invalid UTF-8 replaced by U+FFFD. */
void cli_write(FILE *f, const char *s, size_t n);
/* cli_write of a NUL-terminated string (NULL writes nothing). */
void cli_puts(FILE *f, const char *s);
/* cli_puts(stdout, s) and a newline. */
void cli_putline(const char *s);
/* printf to f, the formatted text written as cli_write writes it. */
void cli_printf(FILE *f, const char *fmt, ...) CLI_PRINTF(2, 3);
/* A message on the error stream (cli_err), as cli_printf. */
void cli_msg(const char *fmt, ...) CLI_PRINTF(1, 2);
/* The stream messages go to: standard error, or what cli_set_err chose
 * (NULL: standard error again). */
FILE *cli_err(void);
void cli_set_err(FILE *f);
/* s[0..n) as a JSON string, quotes included: '"' and '\' escaped, control
 * characters as \n, \t, ... or \u00XX, invalid UTF-8 as \ufffd. */
void cli_json_string(FILE *f, const char *s, size_t n);
/* The length of the well-formed UTF-8 sequence at s[0..n), or 0 if the
 * bytes there do not start one. */
size_t cli_utf8_len(const unsigned char *s, size_t n);

/* ---- The options of the commands (impl/main.c) ----
 * Every command that reads an expression takes it the same way: EXPR (the
 * argument; -e EXPR and -- EXPR too), - (standard input) or --file FILE;
 * and the options that apply to it of --template, --format,
 * --vars/--var/--var-file, --limit-NAME N. */

/* Which options a command takes. */
enum {
    TAKES_VARS = 1,     /* --vars, --var, --var-file */
    TAKES_EVAL = 2,     /* --no-functions, --flavor, host options, eval limits */
    TAKES_TYPES = 4,    /* --vars-types (check) */
    TAKES_DUMP = 8,     /* parse's formats sexpr, ranges, source */
    TAKES_NO_INPUT = 16, /* no EXPR (console) */
    TAKES_CONSOLE = 32  /* --var NAME is var.NAME; TF_VAR_NAME; var always defined */
};

typedef struct {
    const char *cmd;        /* "eval", ... for messages */
    const char *usage;      /* the --help text */
    unsigned takes;         /* TAKES_* */
    tfx_mode mode;          /* --template */
    int json;               /* --format json */
    tfx_dump_format dump;   /* parse --format */
    const char *file;       /* --file FILE, or "-" */
    const char *text;       /* EXPR */
    tfx_limits parse_limits;
    tfx_eval_limits eval_limits;
    int no_functions;
    int opentofu;           /* --flavor opentofu */
    tfx_profile profile;    /* --profile PN|P14 (default PN) */
    char **argv;
    /* the variable options (--vars, --var, --var-file, --vars-types) and
     * the host options, in the order given: indices into argv */
    int *var_opts;
    size_t nvar;
    int *host_opts;
    size_t nhost;
} cli_opts;

int cli_parse_opts(cli_opts *o, int argc, char **argv);
void cli_opts_free(cli_opts *o);
/* A context and host for an evaluating command (impl/main.c); the exit
 * status as cli_vars_load's. */
int cli_eval_setup(const cli_opts *o, tfx_context **ctx, tfx_host **host);
/* Every diagnostic of a source or result, rendered, on standard error. */
void cli_print_diags(const tfx_source *src, const tfx_result *r);
/* All of f, or of the file at path; NUL-terminated, *n without the NUL
 * (impl/cli/io.c). */
char *cli_read_all(FILE *f, size_t *n);
char *cli_read_file(const char *path, size_t *n);
/* What is said of a value that cannot be shown (impl/cli/out.c). */
extern const char cli_unshowable[];

/* ---- Variables (impl/cli/vars.c) ----
 * Defines the variables of the options in ctx, in the order given; with
 * types_only (check), each as an unknown value of its type.  The exit
 * status: EXIT_SUCCESS, or after a message EXIT_INPUT_ERRORS (errors in a
 * variable definitions file) or EXIT_USAGE. */
int cli_vars_load(const cli_opts *o, tfx_context *ctx, int types_only);

/* ---- Scanning (impl/cli/scan.c) ----
 * The offset of the first newline of t[0..n) outside brackets, strings,
 * heredocs, interpolations, directives and comments (n if there is none);
 * *open is set when t ends inside one of them. */
size_t cli_scan_expr(const char *t, size_t n, int *open);

/* ---- Variable definitions files (impl/cli/varfile.c) ----
 * Reads FILE.tfvars (HCL attributes) or FILE.tfvars.json (a JSON object)
 * into vars, a JSON object of NAME -> typed value (the corpus's encoding),
 * a later definition replacing an earlier one.  1 on success; after
 * printing the errors on standard error, 0 when the file cannot be read
 * and -1 when it has errors (then vars is unchanged).  The values are
 * parsed and evaluated in `profile`, the command's ([profile.option]). */
int cli_varfile_load(const char *cmd, const char *path, json_t *vars, tfx_profile profile);
/* The same for a file's text already read (text[0..n), path naming it and
 * choosing its form): 1 on success, 0 when it has errors. */
int cli_varfile_load_text(const char *cmd, const char *path, const char *text, size_t n,
                          json_t *vars, tfx_profile profile);
/* The diagnostics of the files read so far as JSON objects (NULL: none);
 * their ranges are in the file. cli_varfile_free forgets them. */
const json_t *cli_varfile_diagnostics(void);
void cli_varfile_free(void);

/* ---- The console (impl/cli/console.c) ----
 * Reads expressions from standard input and answers each; the exit
 * status (1 when one failed). */
int cli_console(const cli_opts *o, const tfx_context *ctx);

#endif
