/* SPDX-License-Identifier: MPL-2.0 */
/*
 * main.c — the `tfexpr` command line tool.
 *
 * Written only against the public header tfexpr.h.  Exit status, the same
 * for every command: 0 success, 1 the input has errors, 2 usage or I/O
 * error.
 */
#include "tfexpr.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The one internal header: the function table of `tfexpr functions`
 * (funcs_meta.c), which the static library gives the tool. */
#include "funcs_meta.h"

#include "cli/cli.h"

static const char usage_main[] =
    "usage: tfexpr [--help] [--version] COMMAND [ARGS]\n"
    "\n"
    "The reference evaluator of the Terraform / OpenTofu expression language.\n"
    "\n"
    "commands:\n"
    "  eval      evaluate an expression or template; print its value or errors\n"
    "  parse     parse an expression or template; print its syntax tree or errors\n"
    "  refs      list the variable references of an expression or template\n"
    "  check     the result type of an expression from its variables' types alone\n"
    "  console   an interactive console, as `terraform console` without a configuration\n"
    "  functions list the built-in functions and their signatures\n"
    "  adapter   speak the conformance protocol on stdin/stdout\n"
    "  version   print the version\n"
    "\n"
    "Every command that reads an expression takes it the same way:\n"
    "  EXPR          the expression itself, as one argument (also -e EXPR, -- EXPR)\n"
    "  -             read it from standard input\n"
    "  --file FILE   read it from FILE\n"
    "and the same options where they apply: --template, --format text|json,\n"
    "--vars/--var, --limit-NAME N.  Run 'tfexpr COMMAND --help' for a command's.\n"
    "Exit status, every command: 0 success, 1 the input has errors, 2 usage or\n"
    "I/O error.\n";

static const char usage_adapter[] =
    "usage: tfexpr adapter [--help]\n"
    "\n"
    "Reads conformance-protocol requests from stdin, one JSON object per line,\n"
    "and writes one answer line per request to stdout (conformance/README.md,\n"
    "\"The protocol\").  Ends at a \"stop\" request or at end of input.\n"
    "\n"
    "It answers parse, eval and convert requests with libtfexpr.\n"
    "Exit status: 0 at the end of input or a stop request, 2 I/O error.\n";

#define USAGE_INPUT \
    "The input: EXPR (the argument; also -e EXPR or -- EXPR), - (standard\n" \
    "input) or --file FILE; with --template a bare template instead of an\n" \
    "expression.\n"

#define USAGE_DIAGS \
    "Errors are printed to standard error as FILE:LINE:COLUMN with the source\n" \
    "line and a caret under the construct at fault (with --format json, in\n" \
    "\"diagnostics\" on standard output).  Output is always valid UTF-8 (an\n" \
    "invalid byte of the input is shown as U+FFFD) and JSON output is valid\n" \
    "against impl/schema/cli-COMMAND.schema.json.\n"

#define USAGE_VARS \
    "Variables, applied in the order given (a later one replaces an earlier\n" \
    "one of the same name):\n" \
    "  --vars FILE.json   a JSON object of NAME -> typed value (the corpus's\n" \
    "                     encoding: {\"type\": ..., \"v\": ...}, nulls, unknowns, marks)\n" \
    "  --var NAME=JSON    one variable as plain JSON, typed as Terraform's\n" \
    "                     JSON decoding implies (objects, tuples, exact numbers);\n" \
    "                     --var var.NAME=JSON sets Terraform's var.NAME\n" \
    "  --var-file FILE    Terraform's variable definitions file, FILE.tfvars\n" \
    "                     (NAME = value, no references or calls) or\n" \
    "                     FILE.tfvars.json (a JSON object): its values are var.NAME\n" \
    "                     (spec/cli-varfiles.md); with --var var.NAME in the order\n" \
    "                     given, the later one winning, as Terraform's -var-file\n"

#define USAGE_EVAL_LIMITS \
    "Limits (positive numbers; exceeding one is a resource.limit error):\n" \
    "  --limit-steps N    evaluation steps (default 100000000)\n" \
    "  --limit-depth N    nesting of evaluation (default 256)\n" \
    "  --limit-string N   bytes of the longest string made (default 67108864)\n" \
    "  --limit-items N    elements of the largest collection made (default 10000000)\n" \
    "  --limit-memory N   bytes of memory for the evaluation (default 1073741824)\n"

#define USAGE_PARSE_LIMITS \
    "Limits of the parser (positive numbers; exceeding one is a resource.limit\n" \
    "error):\n" \
    "  --limit-depth N    nesting of constructs (default 256)\n" \
    "  --limit-memory N   bytes of memory for the parse (default 1073741824)\n"

#define USAGE_PROFILE \
    "  --profile P        the upstream versions to follow: PN (HCL 2.24.0 and\n" \
    "                     cty 1.18.1, what current Terraform pins; the default)\n" \
    "                     or P14 (HCL 2.14.1 and cty 1.12.1; spec/profiles.md)\n"

#define USAGE_FLAVOR \
    "  --flavor F         the function table: terraform (Terraform's, the\n" \
    "                     default) or opentofu (Terraform's plus OpenTofu's own\n" \
    "                     base64gunzip, cidrcontains and urldecode)\n" \
    "  --no-functions     every function call is an error\n"

static const char usage_console[] =
    "usage: tfexpr console [--var NAME=JSON]... [--var-file FILE]... [--vars FILE.json]\n"
    "                      [--no-functions] [--flavor terraform|opentofu]\n"
    "                      [--limit-NAME N]... [--base-dir DIR] [--now RFC3339]\n"
    "                      [--seed N] [--home DIR] [--profile PN|P14]\n"
    "\n"
    "Reads expressions and prints their values as `terraform console` does,\n"
    "without a configuration: type() shows a type, 'help' a help line, 'exit'\n"
    "or Ctrl-D leaves.  An expression goes on over the next lines while a\n"
    "bracket, a quote, a heredoc or a template directive is open.\n"
    "On a terminal: a prompt, line editing and history.  Otherwise (a pipe, a\n"
    "file): one expression per line, one result per expression, nothing else.\n"
    "Input variables are var.NAME, as in Terraform, from (lowest first)\n"
    "TF_VAR_NAME environment variables (strings), then --var NAME=JSON and\n"
    "--var-file FILE in the order given (spec/cli-varfiles.md); --vars\n"
    "FILE.json defines other root names (local, resources, ...) as typed values.\n"
    USAGE_FLAVOR
    USAGE_PROFILE
    "The limits and the outside world: as for tfexpr eval (tfexpr eval --help).\n"
    "Errors are printed to standard error with the source line and a caret.\n"
    "Exit status: 0 every expression evaluated (on a terminal: always, at\n"
    "'exit' or Ctrl-D), 1 one had errors (or a variable definitions file has),\n"
    "2 usage or I/O error.\n";

static const char usage_parse[] =
    "usage: tfexpr parse [--template] [--format sexpr|ranges|json|source]\n"
    "                    [--profile PN|P14] [--limit-NAME N]... (EXPR | - | --file FILE)\n"
    "\n"
    "Parses an expression (or with --template a bare template) and prints its\n"
    "syntax tree:\n"
    "  sexpr    an S-expression (the default; also --format text)\n"
    "  ranges   the S-expression with every node's source range\n"
    "  json     {\"ok\", \"tree\", \"diagnostics\"}: the tree as JSON, with ranges\n"
    "  source   source text that parses to the same tree\n"
    USAGE_INPUT
    "(Before issue 14 the argument of parse named a file: use --file FILE.)\n"
    USAGE_PROFILE
    USAGE_PARSE_LIMITS
    USAGE_DIAGS
    "Exit status: 0 parsed, 1 the input has errors, 2 usage or I/O error.\n";

static const char usage_eval[] =
    "usage: tfexpr eval [--template] [--vars FILE.json] [--var NAME=JSON]... [--var-file FILE]...\n"
    "                   [--format text|json] [--no-functions] [--limit-NAME N]...\n"
    "                   [--base-dir DIR] [--now RFC3339] [--seed N] [--home DIR]\n"
    "                   [--flavor terraform|opentofu] [--profile PN|P14]\n"
    "                   (EXPR | - | --file FILE)\n"
    "\n"
    "Evaluates an expression (or with --template a bare template) as Terraform\n"
    "does, and prints its value:\n"
    "  text   as `terraform console` shows values (the default): strings quoted,\n"
    "         objects and maps with =, (known after apply) for unknowns,\n"
    "         (sensitive value) for sensitive values\n"
    "  json   {\"ok\", \"value\": TYPED, \"type\": TYPE, \"diagnostics\": [...]}, the\n"
    "         value in the conformance corpus's typed JSON encoding (lossless); a\n"
    "         type() result is {\"type\": \"type\", \"v\": TEXT}, TEXT as text shows it\n"
    USAGE_INPUT
    USAGE_FLAVOR
    USAGE_PROFILE
    USAGE_VARS
    "The outside world (spec/functions-files.md):\n"
    "  --base-dir DIR     the file functions (file, fileset, templatefile, ...) read\n"
    "                     inside DIR only: '..', absolute paths outside it and\n"
    "                     symbolic links leading outside are refused; DIR is also\n"
    "                     the working directory of abspath.  Without it the file\n"
    "                     functions fail (no file system), and abspath uses the\n"
    "                     process's working directory\n"
    "  --now RFC3339      the time of timestamp() and plantimestamp() (default:\n"
    "                     the system clock; plantimestamp() is then unknown)\n"
    "  --seed N           uuid() and bcrypt's salt from a reproducible generator\n"
    "                     seeded with N (default: the system's random source)\n"
    "  --home DIR         the home directory of pathexpand and \"~\" (default: $HOME)\n"
    USAGE_EVAL_LIMITS
    USAGE_DIAGS
    "Exit status: 0 evaluated, 1 the input has errors, 2 usage or I/O error.\n";

static const char usage_refs[] =
    "usage: tfexpr refs [--template] [--format text|json] [--limit-NAME N]...\n"
    "                   [--profile PN|P14] (EXPR | - | --file FILE)\n"
    "\n"
    "Lists the variable references of an expression (or with --template a\n"
    "bare template) without evaluating it: one traversal per reference to a\n"
    "root name, in source order, names bound by an enclosing for left out, as\n"
    "HCL's Variables() lists them (spec/references.md):\n"
    "  text   one traversal per line, e.g. var.a[0]  <expression>:1:1-1:9\n"
    "         (the default)\n"
    "  json   {\"ok\": true, \"refs\": [...], \"diagnostics\": []}, each traversal\n"
    "         {\"root\", \"steps\": [{\"attr\"} | {\"index\": TYPED}], \"root_range\",\n"
    "         \"range\"} as the conformance protocol's refs answer has it\n"
    USAGE_INPUT
    USAGE_PROFILE
    USAGE_PARSE_LIMITS
    USAGE_DIAGS
    "Exit status: 0 listed, 1 the input has errors, 2 usage or I/O error.\n";

static const char usage_check[] =
    "usage: tfexpr check [--vars-types FILE.json] [--vars FILE.json] [--var NAME=JSON]...\n"
    "                    [--var-file FILE]...\n"
    "                    [--template] [--format text|json] [--limit-NAME N]...\n"
    "                    [--flavor terraform|opentofu] [--profile PN|P14]\n"
    "                    (EXPR | - | --file FILE)\n"
    "\n"
    "Finds the type of an expression (or with --template a bare template)\n"
    "from the types of its variables alone: it is evaluated with each variable\n"
    "an unknown value of its type, and the result's type is printed in\n"
    "type-constraint notation (dynamic when it depends on values), with the\n"
    "errors that hold whatever the values are (spec/references.md, check.*):\n"
    "  --vars-types FILE.json   a JSON object of NAME -> type in cty's JSON type\n"
    "                           syntax: {\"var\": [\"object\", {\"a\": \"string\"}]}\n"
    "  --format json            {\"ok\": ..., \"type\": TYPE-JSON, \"type_text\": ...,\n"
    "                           \"diagnostics\": [...]}\n"
    USAGE_INPUT
    USAGE_FLAVOR
    USAGE_PROFILE
    USAGE_VARS
    "(check uses only the types of these values).\n"
    USAGE_EVAL_LIMITS
    USAGE_DIAGS
    "Exit status: 0 no error, 1 the input has errors, 2 usage or I/O error.\n";

static const char usage_functions[] =
    "usage: tfexpr functions [--format text|json] [--flavor terraform|opentofu]\n"
    "                        [--profile PN|P14]\n"
    "\n"
    "Lists the built-in functions, sorted by name:\n"
    "  text       one line per function (the default): its name, its parameters\n"
    "             with their types (... after a variadic one) and its result type,\n"
    "             e.g. substr(str string, offset number, length number) string\n"
    "  json       (also --json) the table as `terraform metadata functions\n"
    "             -json` writes it: {\"format_version\": \"1.0\",\n"
    "             \"function_signatures\": {NAME: {\"description\", \"return_type\",\n"
    "             \"parameters\", \"variadic_parameter\"}}}, a parameter as {\"name\",\n"
    "             \"description\", \"is_nullable\", \"type\"}, types in cty's JSON type\n"
    "             syntax (conformance/schema/functions.schema.json)\n"
    "  --flavor F the table of flavor F: terraform (the default) or opentofu\n"
    "             (Terraform's plus base64gunzip, cidrcontains and urldecode;\n"
    "             under profile PN, OpenTofu's twelve assume* functions too)\n"
    "  --profile P the table of profile P: PN (the default), which also lists\n"
    "             every function as core::NAME, as Terraform 1.8 and later do\n"
    "             (provider::terraform:: functions are a provider's, not listed),\n"
    "             or P14\n"
    "The result type is the one for arguments of unknown value.  As in\n"
    "Terraform's table, list and map (removed: every call is an error) and type\n"
    "(console only; tfexpr eval has it) are left out.\n"
    "Exit status: 0 listed, 2 usage error or no table (a function's result type\n"
    "cannot be worked out, or memory ran out).\n";

static const char usage_version[] =
    "usage: tfexpr version [--help]\n"
    "\n"
    "Prints the version of tfexpr.\n"
    "Exit status: 0 printed, 2 usage error.\n";

/* Handles the arguments every command accepts.  Returns -1 to go on, or
 * the exit status to end with. */
static int common_args(int argc, char **argv, const char *usage)
{
    if (argc < 2)
        return -1;
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        cli_puts(stdout, usage);
        return EXIT_SUCCESS;
    }
    cli_msg("tfexpr %s: unexpected argument '%s'\n%s", argv[0],
            argv[1], usage);
    return EXIT_USAGE;
}

static int cmd_adapter(int argc, char **argv)
{
    tfx_adapter *a;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int status = EXIT_SUCCESS;
    int rc = common_args(argc, argv, usage_adapter);

    if (rc >= 0)
        return rc;
    a = tfx_adapter_new();
    if (a == NULL) {
        cli_puts(stderr, "tfexpr adapter: out of memory\n");
        return EXIT_USAGE;
    }
    while ((n = getline(&line, &cap, stdin)) > 0) {
        int stop = 0;
        char *answer = tfx_adapter_handle(a, line, (size_t)n, &stop);

        if (answer != NULL) {
            cli_puts(stdout, answer);
            if (fputc('\n', stdout) == EOF || fflush(stdout) == EOF || ferror(stdout)) {
                tfx_free(answer);
                status = EXIT_USAGE;
                break;
            }
            tfx_free(answer);
        } else if (!stop) {
            cli_puts(stderr, "tfexpr adapter: out of memory\n");
            status = EXIT_USAGE;
            break;
        }
        if (stop)
            break;
    }
    if (ferror(stdin)) {
        perror("tfexpr adapter: reading stdin");
        status = EXIT_USAGE;
    }
    free(line);
    tfx_adapter_free(a);
    return status;
}

/* Reads the input the options name: the EXPR argument, standard input
 * (-) or --file FILE.  Sets *name for diagnostics. */
static char *read_input(const cli_opts *o, const char **name, size_t *n)
{
    if (o->text != NULL) {
        char *buf;

        *name = "<expression>";
        *n = strlen(o->text);
        buf = malloc(*n + 1);
        if (buf != NULL)
            memcpy(buf, o->text, *n + 1);
        return buf;
    }
    if (strcmp(o->file, "-") == 0) {
        *name = "<stdin>";
        return cli_read_all(stdin, n);
    }
    *name = o->file;
    return cli_read_file(o->file, n);
}

/* Sets the limit an option --limit-NAME names from its argument: the
 * evaluation's limits for a command that evaluates, the parser's for
 * parse and refs.  0 and a message for an unknown name or a bad number. */
static int set_limit(cli_opts *o, const char *option, const char *arg)
{
    size_t *field = NULL;
    char *end;
    unsigned long long v;

    if (o->takes & TAKES_EVAL) {
        if (strcmp(option, "--limit-steps") == 0)
            field = &o->eval_limits.max_steps;
        else if (strcmp(option, "--limit-depth") == 0)
            field = &o->eval_limits.max_depth;
        else if (strcmp(option, "--limit-string") == 0)
            field = &o->eval_limits.max_string_bytes;
        else if (strcmp(option, "--limit-items") == 0)
            field = &o->eval_limits.max_collection_items;
        else if (strcmp(option, "--limit-memory") == 0)
            field = &o->eval_limits.max_memory_bytes;
    } else {
        if (strcmp(option, "--limit-depth") == 0)
            field = &o->parse_limits.max_depth;
        else if (strcmp(option, "--limit-memory") == 0)
            field = &o->parse_limits.max_memory_bytes;
    }
    if (field == NULL) {
        cli_msg("tfexpr %s: unknown limit '%s'\n%s", o->cmd, option, o->usage);
        return 0;
    }
    errno = 0;
    v = strtoull(arg, &end, 10);
    if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || v == 0 || errno != 0 || v > SIZE_MAX) {
        cli_msg("tfexpr %s: %s needs a positive number, not '%s'\n", o->cmd, option, arg);
        return 0;
    }
    *field = (size_t)v;
    return 1;
}

static int is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

/* Parses the arguments of a command (see cli.h, cli_opts): -1 to go on,
 * else the exit status to end with, after a message or the help. */
int cli_parse_opts(cli_opts *o, int argc, char **argv)
{
    int a;

    o->mode = TFX_MODE_EXPRESSION;
    o->dump = TFX_DUMP_SEXPR;
    o->profile = TFX_PROFILE_DEFAULT; /* [profile.default] */
    o->argv = argv;
    tfx_limits_init(&o->parse_limits);
    tfx_eval_limits_init(&o->eval_limits);
    o->var_opts = calloc((size_t)argc + 1, sizeof(int));
    o->host_opts = calloc((size_t)argc + 1, sizeof(int));
    if (o->var_opts == NULL || o->host_opts == NULL) {
        cli_msg("tfexpr %s: out of memory\n", o->cmd);
        return EXIT_USAGE;
    }
    for (a = 1; a < argc; a++) {
        const char *arg = argv[a];
        int has_next = a + 1 < argc;
        int have = o->file != NULL || o->text != NULL;
        int input = !(o->takes & TAKES_NO_INPUT);

        if (is_help(arg)) {
            cli_puts(stdout, o->usage);
            return EXIT_SUCCESS;
        } else if (strcmp(arg, "--template") == 0) {
            o->mode = TFX_MODE_TEMPLATE;
        } else if (strcmp(arg, "--format") == 0 && has_next && !(o->takes & TAKES_NO_INPUT)) {
            const char *f = argv[++a];

            o->json = strcmp(f, "json") == 0;
            if (o->json)
                o->dump = TFX_DUMP_JSON;
            else if (strcmp(f, "text") == 0 || strcmp(f, "sexpr") == 0)
                o->dump = TFX_DUMP_SEXPR;
            else if (strcmp(f, "ranges") == 0 && (o->takes & TAKES_DUMP))
                o->dump = TFX_DUMP_SEXPR_RANGES;
            else if (strcmp(f, "source") == 0 && (o->takes & TAKES_DUMP))
                o->dump = TFX_DUMP_SOURCE;
            else {
                cli_msg("tfexpr %s: unknown format '%s'\n%s", o->cmd, f, o->usage);
                return EXIT_USAGE;
            }
            if (strcmp(f, "sexpr") == 0 && !(o->takes & TAKES_DUMP)) {
                cli_msg("tfexpr %s: unknown format '%s'\n%s", o->cmd, f, o->usage);
                return EXIT_USAGE;
            }
        } else if (has_next
                   && (((o->takes & TAKES_VARS)
                        && (strcmp(arg, "--vars") == 0 || strcmp(arg, "--var") == 0
                            || strcmp(arg, "--var-file") == 0))
                       || ((o->takes & TAKES_TYPES) && strcmp(arg, "--vars-types") == 0))) {
            o->var_opts[o->nvar++] = a++;
        } else if ((o->takes & TAKES_EVAL) && strcmp(arg, "--no-functions") == 0) {
            o->no_functions = 1;
        } else if (strcmp(arg, "--profile") == 0 && has_next) {
            /* [profile.option] */
            const char *p = argv[++a];

            if (strcmp(p, "P14") != 0 && strcmp(p, "PN") != 0) {
                cli_msg("tfexpr %s: unknown profile '%s' (PN or P14)\n%s", o->cmd, p, o->usage);
                return EXIT_USAGE;
            }
            o->profile = strcmp(p, "PN") == 0 ? TFX_PROFILE_PN : TFX_PROFILE_P14;
        } else if ((o->takes & TAKES_EVAL) && strcmp(arg, "--flavor") == 0 && has_next) {
            const char *f = argv[++a];

            if (strcmp(f, "terraform") != 0 && strcmp(f, "opentofu") != 0) {
                cli_msg("tfexpr %s: unknown flavor '%s'\n%s", o->cmd, f, o->usage);
                return EXIT_USAGE;
            }
            o->opentofu = strcmp(f, "opentofu") == 0;
        } else if ((o->takes & TAKES_EVAL)
                   && (strcmp(arg, "--base-dir") == 0 || strcmp(arg, "--now") == 0
                       || strcmp(arg, "--seed") == 0 || strcmp(arg, "--home") == 0)
                   && has_next) {
            o->host_opts[o->nhost++] = a++;
        } else if (strncmp(arg, "--limit-", 8) == 0 && has_next) {
            if (!set_limit(o, arg, argv[a + 1]))
                return EXIT_USAGE;
            a++;
        } else if (input && strcmp(arg, "--file") == 0 && has_next && !have) {
            o->file = argv[++a];
        } else if (input && strcmp(arg, "-") == 0 && !have) {
            o->file = "-";
        } else if (input && (strcmp(arg, "-e") == 0 || strcmp(arg, "--") == 0) && has_next
                   && !have) {
            o->text = argv[++a];
        } else if (input && arg[0] != '-' && !have) {
            o->text = arg;
        } else {
            cli_msg("tfexpr %s: unexpected argument '%s'\n%s", o->cmd, arg, o->usage);
            return EXIT_USAGE;
        }
    }
    if (!(o->takes & TAKES_NO_INPUT) && o->file == NULL && o->text == NULL) {
        cli_msg("tfexpr %s: no expression\n%s", o->cmd, o->usage);
        return EXIT_USAGE;
    }
    return -1;
}

void cli_opts_free(cli_opts *o)
{
    free(o->var_opts);
    free(o->host_opts);
}

/* Reads and parses the input of the options; NULL (after a message) on an
 * I/O error or exhausted memory. */
static tfx_source *parse_input(const cli_opts *o)
{
    const char *name;
    size_t n;
    char *input = read_input(o, &name, &n);
    tfx_source *src;

    if (input == NULL) {
        cli_msg("tfexpr %s: cannot read %s\n", o->cmd,
                o->file != NULL ? o->file : "the input");
        return NULL;
    }
    src = tfx_source_parse_profile(name, input, n, o->mode, &o->parse_limits, o->profile);
    free(input);
    if (src == NULL)
        cli_msg("tfexpr %s: out of memory\n", o->cmd);
    return src;
}

/* The start of a command that only parses (parse, refs): its options and
 * its parsed input in *src.  -1 to go on; otherwise the exit status, with
 * the options freed. */
static int parse_command(cli_opts *o, int argc, char **argv, tfx_source **src)
{
    int status = cli_parse_opts(o, argc, argv);

    *src = NULL;
    if (status >= 0) {
        cli_opts_free(o);
        return status;
    }
    *src = parse_input(o);
    if (*src == NULL) {
        cli_opts_free(o);
        return EXIT_USAGE;
    }
    return -1;
}

/* Prints every diagnostic of a source or result to stderr, rendered. */
void cli_print_diags(const tfx_source *src, const tfx_result *r)
{
    size_t n = r != NULL ? tfx_result_diagnostic_count(r) : tfx_source_diagnostic_count(src);
    size_t i;

    for (i = 0; i < n; i++) {
        const tfx_diagnostic *d = r != NULL ? tfx_result_diagnostic(r, i) : tfx_source_diagnostic(src, i);
        char *text = tfx_diagnostic_render(src, d);

        cli_puts(stderr, text);
        tfx_free(text);
    }
}

/* Prints ,"diagnostics":[...]} of a source or result and a newline. */
static void print_diags_json(const tfx_source *src, const tfx_result *r)
{
    size_t n = r != NULL ? tfx_result_diagnostic_count(r) : tfx_source_diagnostic_count(src);
    size_t i;

    cli_puts(stdout, ",\"diagnostics\":[");
    for (i = 0; i < n; i++) {
        char *d = tfx_diagnostic_json(r != NULL ? tfx_result_diagnostic(r, i) : tfx_source_diagnostic(src, i));

        cli_printf(stdout, "%s%s", i > 0 ? "," : "", d != NULL ? d : "null");
        tfx_free(d);
    }
    cli_putline("]}");
}

static int cmd_parse(int argc, char **argv)
{
    cli_opts o = {.cmd = "parse", .usage = usage_parse, .takes = TAKES_DUMP};
    tfx_source *src;
    int status = parse_command(&o, argc, argv, &src);

    if (status >= 0)
        return status;
    status = tfx_source_has_errors(src) ? EXIT_INPUT_ERRORS : EXIT_SUCCESS;
    if (o.json) {
        char *tree = status == EXIT_SUCCESS ? tfx_source_dump(src, TFX_DUMP_JSON) : NULL;

        cli_printf(stdout, "{\"ok\":%s", status == EXIT_SUCCESS ? "true" : "false");
        if (tree != NULL)
            cli_printf(stdout, ",\"tree\":%s", tree);
        tfx_free(tree);
        print_diags_json(src, NULL);
    } else {
        cli_print_diags(src, NULL);
        if (status == EXIT_SUCCESS) {
            char *tree = tfx_source_dump(src, o.dump);

            if (tree == NULL) {
                cli_puts(stderr, "tfexpr parse: out of memory\n");
                status = EXIT_USAGE;
            } else {
                cli_putline(tree);
            }
            tfx_free(tree);
        }
    }
    tfx_source_free(src);
    cli_opts_free(&o);
    return status;
}

/* Prints the JSON report of an evaluation; 0 when a value without errors
 * could not be encoded (after saying so on standard error), else 1. */
static int print_eval_json(const tfx_source *src, const tfx_result *r)
{
    char *value = r != NULL && !tfx_result_has_errors(r) ? tfx_result_json(r) : NULL;
    char *type = value != NULL ? tfx_result_type(r) : NULL;
    int shown = value != NULL || r == NULL || tfx_result_has_errors(r);

    cli_printf(stdout, "{\"ok\":%s", value != NULL ? "true" : "false");
    if (value != NULL)
        cli_printf(stdout, ",\"value\":%s", value);
    if (!shown) {
        cli_puts(stdout, ",\"error\":");
        cli_json_string(stdout, cli_unshowable, strlen(cli_unshowable));
        cli_msg("tfexpr eval: %s\n", cli_unshowable);
    }
    if (type != NULL) {
        /* an attribute name in quotes, {"a b"=number}, must be escaped */
        cli_puts(stdout, ",\"type\":");
        cli_json_string(stdout, type, strlen(type));
    }
    print_diags_json(src, r);
    tfx_free(value);
    tfx_free(type);
    return shown;
}

/* [host.cli] One of the host options: --base-dir DIR, --now RFC3339,
 * --seed N, --home DIR.  False after printing the error. */
static bool set_host_option(const cli_opts *o, tfx_host *host, const char *opt, const char *arg)
{
    char *error = NULL;
    int rc;

    if (strcmp(opt, "--seed") == 0) {
        char *end;
        unsigned long long seed;

        errno = 0;
        seed = strtoull(arg, &end, 10);
        if (arg[0] == '\0' || arg[0] == '-' || *end != '\0' || errno != 0) {
            cli_msg("tfexpr %s: --seed needs a number from 0 to %llu, not '%s'\n", o->cmd,
                    ULLONG_MAX, arg);
            return false;
        }
        tfx_host_set_random_seed(host, seed);
        return true;
    }
    if (strcmp(opt, "--base-dir") == 0)
        rc = tfx_host_set_base_dir(host, arg, &error);
    else if (strcmp(opt, "--home") == 0)
        rc = tfx_host_set_home(host, arg, &error);
    else {
        rc = tfx_host_set_now(host, arg, &error);
        if (rc == 0)
            rc = tfx_host_set_plan_timestamp(host, arg, &error);
    }
    if (rc != 0) {
        cli_msg("tfexpr %s: %s: %s\n", o->cmd, opt, error != NULL ? error : "out of memory");
        tfx_free(error);
        return false;
    }
    return true;
}

/* --format json when a variable definitions file has errors: the
 * report of eval and check, {"ok":false,"diagnostics":[...]}, with the
 * file's diagnostics (spec/cli-varfiles.md [varfile.errors]). */
static void print_varfile_errors_json(void)
{
    const json_t *diags = cli_varfile_diagnostics();
    char *text = diags != NULL ? json_dumps(diags, JSON_COMPACT) : NULL;

    cli_printf(stdout, "{\"ok\":false,\"diagnostics\":%s}\n", text != NULL ? text : "[]");
    free(text);
}

/* A context and host for evaluating commands (eval, console): the
 * functions, flavor, type() as `terraform console` has it, the host with
 * the system's defaults and the host options, and the variables.  The exit
 * status: EXIT_SUCCESS, or (after a message) another; *ctx and *host are
 * then still to free. */
int cli_eval_setup(const cli_opts *o, tfx_context **ctx, tfx_host **host)
{
    size_t i;

    *ctx = tfx_context_new();
    *host = tfx_host_new();
    if (*ctx == NULL || *host == NULL) {
        cli_msg("tfexpr %s: out of memory\n", o->cmd);
        return EXIT_USAGE;
    }
    tfx_context_allow_type_function(*ctx, 1); /* as terraform console */
    if (o->no_functions)
        tfx_context_allow_functions(*ctx, 0);
    tfx_context_set_flavor(*ctx, o->opentofu ? TFX_FLAVOR_OPENTOFU : TFX_FLAVOR_TERRAFORM);
    tfx_context_set_profile(*ctx, o->profile);
    /* [host.cli] the defaults: the system clock and random source, $HOME,
     * the process's working directory; no file system */
    tfx_host_use_system_clock(*host);
    tfx_host_use_system_random(*host);
    {
        const char *home = getenv("HOME");

        if (home != NULL && home[0] != '\0')
            tfx_host_set_home(*host, home, NULL);
    }
    {
        char *cwd = getcwd(NULL, 0);

        if (cwd != NULL)
            tfx_host_set_cwd(*host, cwd, NULL);
        free(cwd);
    }
    tfx_context_set_host(*ctx, *host);
    for (i = 0; i < o->nhost; i++)
        if (!set_host_option(o, *host, o->argv[o->host_opts[i]], o->argv[o->host_opts[i] + 1]))
            return EXIT_USAGE;
    return cli_vars_load(o, *ctx, 0);
}

static int cmd_eval(int argc, char **argv)
{
    cli_opts o = {.cmd = "eval", .usage = usage_eval, .takes = TAKES_VARS | TAKES_EVAL};
    tfx_host *host = NULL;
    tfx_context *ctx = NULL;
    tfx_source *src = NULL;
    tfx_result *r = NULL;
    int status = cli_parse_opts(&o, argc, argv);

    if (status >= 0) {
        cli_opts_free(&o);
        return status;
    }
    status = cli_eval_setup(&o, &ctx, &host);
    if (status == EXIT_INPUT_ERRORS && o.json)
        print_varfile_errors_json();
    if (status == EXIT_SUCCESS)
        src = parse_input(&o);
    if (status == EXIT_SUCCESS && src == NULL)
        status = EXIT_USAGE;
    if (status == EXIT_SUCCESS) {
        if (!tfx_source_has_errors(src))
            r = tfx_evaluate(src, ctx, &o.eval_limits);
        if (r == NULL && !tfx_source_has_errors(src)) {
            cli_puts(stderr, "tfexpr eval: out of memory\n");
            status = EXIT_USAGE;
        } else {
            int failed = r == NULL || tfx_result_has_errors(r);

            status = failed ? EXIT_INPUT_ERRORS : EXIT_SUCCESS;
            if (o.json) {
                if (!print_eval_json(src, r))
                    status = EXIT_USAGE;
            } else {
                cli_print_diags(src, r);
                if (!failed) {
                    char *shown = tfx_result_render(r);

                    if (shown == NULL) {
                        cli_msg("tfexpr eval: %s\n", cli_unshowable);
                        status = EXIT_USAGE;
                    } else {
                        cli_putline(shown);
                    }
                    tfx_free(shown);
                }
            }
        }
    }
    tfx_result_free(r);
    tfx_source_free(src);
    tfx_context_free(ctx);
    tfx_host_free(host);
    cli_opts_free(&o);
    return status;
}

/* [refs.result] [refs.text] [refs.parse-errors] */
static int cmd_refs(int argc, char **argv)
{
    cli_opts o = {.cmd = "refs", .usage = usage_refs, .takes = 0};
    tfx_source *src;
    tfx_refs *refs = NULL;
    int status = parse_command(&o, argc, argv, &src);

    if (status >= 0)
        return status;
    if (!tfx_source_has_errors(src)) {
        refs = tfx_source_refs(src);
        if (refs == NULL) {
            cli_puts(stderr,
                     "tfexpr refs: out of memory, or an index key is a number too long to write out\n");
            tfx_source_free(src);
            cli_opts_free(&o);
            return EXIT_USAGE;
        }
    }
    status = refs == NULL ? EXIT_INPUT_ERRORS : EXIT_SUCCESS;
    if (o.json) {
        char *list = refs != NULL ? tfx_refs_json(refs) : NULL;

        if (refs != NULL && list == NULL) {
            cli_puts(stderr, "tfexpr refs: out of memory\n");
            status = EXIT_USAGE;
        }
        cli_printf(stdout, "{\"ok\":%s", list != NULL ? "true" : "false");
        if (list != NULL)
            cli_printf(stdout, ",\"refs\":%s", list);
        tfx_free(list);
        print_diags_json(src, NULL);
    } else {
        size_t i;

        cli_print_diags(src, NULL);
        for (i = 0; i < tfx_refs_count(refs); i++) {
            tfx_range rg = tfx_ref_range(refs, i);

            cli_printf(stdout, "%s\t%s:%zu:%zu-%zu:%zu\n", tfx_ref_text(refs, i),
                       o.file == NULL ? "<expression>" : strcmp(o.file, "-") == 0 ? "<stdin>" : o.file,
                       rg.start.line, rg.start.column, rg.end.line, rg.end.column);
        }
    }
    tfx_refs_free(refs);
    tfx_source_free(src);
    cli_opts_free(&o);
    return status;
}

/* [check.types] [check.result] [check.errors] */
static int cmd_check(int argc, char **argv)
{
    cli_opts o = {.cmd = "check", .usage = usage_check, .takes = TAKES_VARS | TAKES_TYPES | TAKES_EVAL};
    tfx_context *ctx;
    tfx_source *src;
    tfx_result *r = NULL;
    int status = cli_parse_opts(&o, argc, argv);

    if (status >= 0) {
        cli_opts_free(&o);
        return status;
    }
    ctx = tfx_context_new();
    if (ctx == NULL) {
        cli_puts(stderr, "tfexpr check: out of memory\n");
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    if (o.no_functions)
        tfx_context_allow_functions(ctx, 0);
    tfx_context_set_flavor(ctx, o.opentofu ? TFX_FLAVOR_OPENTOFU : TFX_FLAVOR_TERRAFORM);
    tfx_context_set_profile(ctx, o.profile);
    status = cli_vars_load(&o, ctx, 1);
    if (status == EXIT_INPUT_ERRORS && o.json)
        print_varfile_errors_json();
    if (status != EXIT_SUCCESS) {
        tfx_context_free(ctx);
        cli_opts_free(&o);
        return status;
    }
    src = parse_input(&o);
    if (src == NULL) {
        tfx_context_free(ctx);
        cli_opts_free(&o);
        return EXIT_USAGE;
    }
    if (!tfx_source_has_errors(src))
        r = tfx_evaluate(src, ctx, &o.eval_limits);
    if (r == NULL && !tfx_source_has_errors(src)) {
        cli_puts(stderr, "tfexpr check: out of memory\n");
        status = EXIT_USAGE;
    } else {
        int failed = r == NULL || tfx_result_has_errors(r);
        char *type = failed ? NULL : tfx_result_type(r);
        char *type_json = failed ? NULL : tfx_result_type_json(r);

        status = failed ? EXIT_INPUT_ERRORS : EXIT_SUCCESS;
        if (!failed && (type == NULL || type_json == NULL)) {
            cli_puts(stderr, "tfexpr check: out of memory\n");
            status = EXIT_USAGE;
        } else if (o.json) {
            cli_printf(stdout, "{\"ok\":%s", failed ? "false" : "true");
            if (!failed) {
                cli_printf(stdout, ",\"type\":%s,\"type_text\":", type_json);
                cli_json_string(stdout, type, strlen(type));
            }
            print_diags_json(src, r);
        } else {
            cli_print_diags(src, r);
            if (!failed)
                cli_putline(type);
        }
        tfx_free(type);
        tfx_free(type_json);
    }
    tfx_result_free(r);
    tfx_source_free(src);
    tfx_context_free(ctx);
    cli_opts_free(&o);
    return status;
}

static int cmd_console(int argc, char **argv)
{
    cli_opts o = {.cmd = "console", .usage = usage_console,
                  .takes = TAKES_VARS | TAKES_EVAL | TAKES_NO_INPUT | TAKES_CONSOLE};
    tfx_host *host = NULL;
    tfx_context *ctx = NULL;
    int status = cli_parse_opts(&o, argc, argv);

    if (status < 0) {
        status = cli_eval_setup(&o, &ctx, &host);
        if (status == EXIT_SUCCESS)
            status = cli_console(&o, ctx);
    }
    tfx_context_free(ctx);
    tfx_host_free(host);
    cli_opts_free(&o);
    return status;
}

static int cmd_functions(int argc, char **argv)
{
    int json = 0, opentofu = 0;
    tfx_profile profile = TFX_PROFILE_DEFAULT; /* [profile.default] */
    char *error = NULL;
    char *table;
    int a;

    for (a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
            cli_puts(stdout, usage_functions);
            return EXIT_SUCCESS;
        } else if (strcmp(argv[a], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[a], "--format") == 0 && a + 1 < argc
                   && (strcmp(argv[a + 1], "text") == 0 || strcmp(argv[a + 1], "json") == 0)) {
            json = strcmp(argv[++a], "json") == 0;
        } else if (strcmp(argv[a], "--flavor") == 0 && a + 1 < argc
                   && (strcmp(argv[a + 1], "terraform") == 0
                       || strcmp(argv[a + 1], "opentofu") == 0)) {
            opentofu = strcmp(argv[++a], "opentofu") == 0;
        } else if (strcmp(argv[a], "--profile") == 0 && a + 1 < argc
                   && (strcmp(argv[a + 1], "P14") == 0 || strcmp(argv[a + 1], "PN") == 0)) {
            /* [profile.option] [call.pn.core] */
            profile = strcmp(argv[++a], "PN") == 0 ? TFX_PROFILE_PN : TFX_PROFILE_P14;
        } else {
            cli_msg("tfexpr functions: unexpected argument '%s'\n%s", argv[a],
                    usage_functions);
            return EXIT_USAGE;
        }
    }
    table = tfx_fn_table_profile(json, opentofu, profile == TFX_PROFILE_PN, &error);
    if (table == NULL) {
        cli_msg("tfexpr functions: %s\n", error != NULL ? error : "out of memory");
        free(error);
        return EXIT_USAGE;
    }
    if (json)
        cli_putline(table);
    else
        cli_puts(stdout, table);
    free(table);
    return EXIT_SUCCESS;
}

static int cmd_version(int argc, char **argv)
{
    int rc = common_args(argc, argv, usage_version);

    if (rc >= 0)
        return rc;
    cli_printf(stdout, "tfexpr %s\n", tfx_version());
    return EXIT_SUCCESS;
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        cli_puts(stderr, usage_main);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0
        || strcmp(argv[1], "help") == 0) {
        cli_puts(stdout, usage_main);
        return EXIT_SUCCESS;
    }
    if (strcmp(argv[1], "--version") == 0)
        return cmd_version(1, argv);
    if (strcmp(argv[1], "adapter") == 0)
        return cmd_adapter(argc - 1, argv + 1);
    if (strcmp(argv[1], "eval") == 0)
        return cmd_eval(argc - 1, argv + 1);
    if (strcmp(argv[1], "parse") == 0)
        return cmd_parse(argc - 1, argv + 1);
    if (strcmp(argv[1], "refs") == 0)
        return cmd_refs(argc - 1, argv + 1);
    if (strcmp(argv[1], "check") == 0)
        return cmd_check(argc - 1, argv + 1);
    if (strcmp(argv[1], "console") == 0)
        return cmd_console(argc - 1, argv + 1);
    if (strcmp(argv[1], "functions") == 0)
        return cmd_functions(argc - 1, argv + 1);
    if (strcmp(argv[1], "version") == 0)
        return cmd_version(argc - 1, argv + 1);
    cli_msg("tfexpr: unknown command '%s'\n%s", argv[1], usage_main);
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    int status = run(argc, argv);

    cli_varfile_free();
    return status;
}
