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
    "  functions list the built-in functions and their signatures\n"
    "  adapter   speak the conformance protocol on stdin/stdout\n"
    "  version   print the version\n"
    "\n"
    "Run 'tfexpr COMMAND --help' for a command's options.\n"
    "Exit status: 0 success, 1 the input has errors, 2 usage or I/O error.\n";

static const char usage_adapter[] =
    "usage: tfexpr adapter [--help]\n"
    "\n"
    "Reads conformance-protocol requests from stdin, one JSON object per line,\n"
    "and writes one answer line per request to stdout (conformance/README.md,\n"
    "\"The protocol\").  Ends at a \"stop\" request or at end of input.\n"
    "\n"
    "It answers parse, eval and convert requests with libtfexpr.\n";

static const char usage_parse[] =
    "usage: tfexpr parse [--template] [--format sexpr|ranges|json|source] [--limit-depth N]\n"
    "                    (FILE | - | -e TEXT)\n"
    "\n"
    "Parses an expression (or with --template a bare template) from FILE, from\n"
    "standard input (-), or from the TEXT after -e, and prints its syntax tree:\n"
    "  sexpr    an S-expression (the default)\n"
    "  ranges   the S-expression with every node's source range\n"
    "  json     the tree as JSON, with ranges; errors as JSON too\n"
    "  source   source text that parses to the same tree\n"
    "Errors are printed to standard error as FILE:LINE:COLUMN with the source\n"
    "line and a caret under the construct at fault (with --format json, as a\n"
    "JSON object on standard output).\n"
    "Exit status: 0 parsed, 1 the input has errors, 2 usage or I/O error.\n";

static const char usage_eval[] =
    "usage: tfexpr eval [--template] [--vars FILE.json] [--var NAME=JSON]...\n"
    "                   [--format text|json] [--no-functions] [--limit-NAME N]...\n"
    "                   [--base-dir DIR] [--now RFC3339] [--seed N] [--home DIR]\n"
    "                   [--flavor terraform|opentofu] (EXPR | - | --file FILE)\n"
    "\n"
    "Evaluates the expression EXPR (or with --template a bare template), read\n"
    "from the argument, from standard input (-) or from FILE, as Terraform\n"
    "does, and prints its value:\n"
    "  text   as `terraform console` shows values (the default): strings quoted,\n"
    "         objects and maps with =, (known after apply) for unknowns,\n"
    "         (sensitive value) for sensitive values\n"
    "  json   {\"value\": TYPED, \"type\": TYPE, \"diagnostics\": [...]}, the value\n"
    "         in the conformance corpus's typed JSON encoding (lossless); a\n"
    "         type() result is {\"type\": \"type\", \"v\": TEXT}, TEXT as text shows it\n"
    "  --flavor F         the function table: terraform (Terraform's, the\n"
    "                     default) or opentofu (Terraform's plus OpenTofu's own\n"
    "                     base64gunzip, cidrcontains and urldecode)\n"
    "Variables:\n"
    "  --vars FILE.json   a JSON object of NAME -> typed value (the corpus's\n"
    "                     encoding: {\"type\": ..., \"v\": ...}, nulls, unknowns, marks)\n"
    "  --var NAME=JSON    one variable as plain JSON, typed as Terraform's\n"
    "                     JSON decoding implies (objects, tuples, exact numbers)\n"
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
    "Limits (positive numbers; exceeding one is a resource.limit error):\n"
    "  --limit-steps N    evaluation steps (default 100000000)\n"
    "  --limit-depth N    nesting of evaluation (default 256)\n"
    "  --limit-string N   bytes of the longest string made (default 67108864)\n"
    "  --limit-items N    elements of the largest collection made (default 10000000)\n"
    "  --limit-memory N   bytes of memory for the evaluation (default 1073741824)\n"
    "Errors are printed to standard error as FILE:LINE:COLUMN with the source\n"
    "line and a caret under the construct at fault.\n"
    "Exit status: 0 evaluated, 1 the input has errors, 2 usage or I/O error.\n";

static const char usage_refs[] =
    "usage: tfexpr refs [--template] [--format text|json] (EXPR | - | --file FILE)\n"
    "\n"
    "Lists the variable references of the expression EXPR (or with --template a\n"
    "bare template), read from the argument, from standard input (-) or from\n"
    "FILE, without evaluating it: one traversal per reference to a root name,\n"
    "in source order, names bound by an enclosing for left out, as HCL's\n"
    "Variables() lists them (spec/references.md):\n"
    "  text   one traversal per line, e.g. var.a[0]  <expression>:1:1-1:9\n"
    "         (the default)\n"
    "  json   {\"ok\": true, \"refs\": [...], \"diagnostics\": []}, each traversal\n"
    "         {\"root\", \"steps\": [{\"attr\"} | {\"index\": TYPED}], \"root_range\",\n"
    "         \"range\"} as the conformance protocol's refs answer has it\n"
    "Syntax errors are printed to standard error as FILE:LINE:COLUMN with the\n"
    "source line and a caret (with --format json, in \"diagnostics\").\n"
    "Exit status: 0 listed, 1 the input has errors, 2 usage or I/O error.\n";

static const char usage_check[] =
    "usage: tfexpr check [--vars-types FILE.json] [--template] [--format text|json]\n"
    "                    (EXPR | - | --file FILE)\n"
    "\n"
    "Finds the type of the expression EXPR (or with --template a bare template)\n"
    "from the types of its variables alone: it is evaluated with each variable\n"
    "an unknown value of its type, and the result's type is printed in\n"
    "type-constraint notation (dynamic when it depends on values), with the\n"
    "errors that hold whatever the values are (spec/references.md, check.*):\n"
    "  --vars-types FILE.json   a JSON object of NAME -> type in cty's JSON type\n"
    "                           syntax: {\"var\": [\"object\", {\"a\": \"string\"}]}\n"
    "  --format json            {\"ok\": ..., \"type\": TYPE-JSON, \"type_text\": ...,\n"
    "                           \"diagnostics\": [...]}\n"
    "Errors are printed to standard error as FILE:LINE:COLUMN with the source\n"
    "line and a caret under the construct at fault.\n"
    "Exit status: 0 no error, 1 the input has errors, 2 usage or I/O error.\n";

static const char usage_functions[] =
    "usage: tfexpr functions [--json] [--flavor terraform|opentofu]\n"
    "\n"
    "Lists the built-in functions, sorted by name:\n"
    "  (default)  one line per function: its name, its parameters with their\n"
    "             types (... after a variadic one) and its result type, e.g.\n"
    "             substr(str string, offset number, length number) string\n"
    "  --json     the table as `terraform metadata functions -json` writes it:\n"
    "             {\"format_version\": \"1.0\", \"function_signatures\": {NAME:\n"
    "             {\"description\", \"return_type\", \"parameters\",\n"
    "             \"variadic_parameter\"}}}, a parameter as {\"name\", \"description\",\n"
    "             \"is_nullable\", \"type\"}, types in cty's JSON type syntax\n"
    "  --flavor F the table of flavor F: terraform (the default) or opentofu\n"
    "             (Terraform's plus base64gunzip, cidrcontains and urldecode)\n"
    "The result type is the one for arguments of unknown value.  As in\n"
    "Terraform's table, list and map (removed: every call is an error) and type\n"
    "(console only; tfexpr eval has it) are left out.\n"
    "Exit status: 0 listed, 2 usage error or no table (a function's result type\n"
    "cannot be worked out, or memory ran out).\n";

static const char usage_version[] =
    "usage: tfexpr version [--help]\n"
    "\n"
    "Prints the version of tfexpr.\n";

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

/* Reads all of `f` into a malloc'd buffer. */
static char *read_all(FILE *f, size_t *n)
{
    size_t cap = 65536;
    char *buf = malloc(cap);

    *n = 0;
    if (buf == NULL)
        return NULL;
    for (;;) {
        size_t got = fread(buf + *n, 1, cap - *n, f);

        *n += got;
        if (got == 0)
            break;
        if (*n == cap) {
            char *more = cap > ((size_t)-1) / 2 ? NULL : realloc(buf, cap * 2);

            if (more == NULL) {
                free(buf);
                return NULL;
            }
            buf = more;
            cap *= 2;
        }
    }
    if (ferror(f)) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Reads the input named by the command line: a file, "-", or -e TEXT.
 * Sets *name for diagnostics. */
static char *read_input(const char *file, const char *text, const char **name, size_t *n)
{
    FILE *f;
    char *buf;

    if (text != NULL) {
        *name = "<expression>";
        *n = strlen(text);
        buf = malloc(*n + 1);
        if (buf != NULL)
            memcpy(buf, text, *n + 1);
        return buf;
    }
    if (strcmp(file, "-") == 0) {
        *name = "<stdin>";
        return read_all(stdin, n);
    }
    *name = file;
    f = fopen(file, "rb");
    if (f == NULL)
        return NULL;
    buf = read_all(f, n);
    fclose(f);
    return buf;
}

static int cmd_parse(int argc, char **argv)
{
    tfx_mode mode = TFX_MODE_EXPRESSION;
    tfx_dump_format format = TFX_DUMP_SEXPR;
    int json = 0;
    const char *file = NULL;
    const char *text = NULL;
    const char *name;
    tfx_limits limits;
    tfx_source *src;
    char *input;
    size_t n;
    size_t i;
    int status;
    int a;

    tfx_limits_init(&limits);
    for (a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
            cli_puts(stdout, usage_parse);
            return EXIT_SUCCESS;
        } else if (strcmp(argv[a], "--template") == 0) {
            mode = TFX_MODE_TEMPLATE;
        } else if (strcmp(argv[a], "--format") == 0 && a + 1 < argc) {
            const char *f = argv[++a];

            json = 0;
            if (strcmp(f, "sexpr") == 0)
                format = TFX_DUMP_SEXPR;
            else if (strcmp(f, "ranges") == 0)
                format = TFX_DUMP_SEXPR_RANGES;
            else if (strcmp(f, "json") == 0) {
                format = TFX_DUMP_JSON;
                json = 1;
            } else if (strcmp(f, "source") == 0)
                format = TFX_DUMP_SOURCE;
            else {
                cli_msg("tfexpr parse: unknown format '%s'\n%s", f, usage_parse);
                return EXIT_USAGE;
            }
        } else if (strcmp(argv[a], "--limit-depth") == 0 && a + 1 < argc) {
            char *end;
            unsigned long v = strtoul(argv[++a], &end, 10);

            if (*end != '\0' || v == 0) {
                cli_msg("tfexpr parse: --limit-depth needs a positive number\n");
                return EXIT_USAGE;
            }
            limits.max_depth = v;
        } else if (strcmp(argv[a], "-e") == 0 && a + 1 < argc && file == NULL && text == NULL) {
            text = argv[++a];
        } else if ((argv[a][0] != '-' || strcmp(argv[a], "-") == 0) && file == NULL && text == NULL) {
            file = argv[a];
        } else {
            cli_msg("tfexpr parse: unexpected argument '%s'\n%s", argv[a], usage_parse);
            return EXIT_USAGE;
        }
    }
    if (file == NULL && text == NULL) {
        cli_msg("tfexpr parse: no input\n%s", usage_parse);
        return EXIT_USAGE;
    }
    input = read_input(file, text, &name, &n);
    if (input == NULL) {
        cli_msg("tfexpr parse: cannot read %s\n", file != NULL ? file : "the input");
        return EXIT_USAGE;
    }
    src = tfx_source_parse(name, input, n, mode, &limits);
    free(input);
    if (src == NULL) {
        cli_puts(stderr, "tfexpr parse: out of memory\n");
        return EXIT_USAGE;
    }
    status = tfx_source_has_errors(src) ? EXIT_INPUT_ERRORS : EXIT_SUCCESS;
    if (json) {
        char *tree = status == EXIT_SUCCESS ? tfx_source_dump(src, TFX_DUMP_JSON) : NULL;

        cli_printf(stdout, "{\"ok\":%s", status == EXIT_SUCCESS ? "true" : "false");
        if (tree != NULL)
            cli_printf(stdout, ",\"tree\":%s", tree);
        tfx_free(tree);
        cli_puts(stdout, ",\"diagnostics\":[");
        for (i = 0; i < tfx_source_diagnostic_count(src); i++) {
            char *d = tfx_diagnostic_json(tfx_source_diagnostic(src, i));

            cli_printf(stdout, "%s%s", i > 0 ? "," : "", d != NULL ? d : "null");
            tfx_free(d);
        }
        cli_putline("]}");
    } else {
        for (i = 0; i < tfx_source_diagnostic_count(src); i++) {
            char *d = tfx_diagnostic_render(src, tfx_source_diagnostic(src, i));

            if (d != NULL)
                cli_puts(stderr, d);
            tfx_free(d);
        }
        if (status == EXIT_SUCCESS) {
            char *tree = tfx_source_dump(src, format);

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
    return status;
}

/* Prints every diagnostic of a source or result to stderr, rendered. */
static void print_diags(const tfx_source *src, const tfx_result *r)
{
    size_t n = r != NULL ? tfx_result_diagnostic_count(r) : tfx_source_diagnostic_count(src);
    size_t i;

    for (i = 0; i < n; i++) {
        const tfx_diagnostic *d = r != NULL ? tfx_result_diagnostic(r, i) : tfx_source_diagnostic(src, i);
        char *text = tfx_diagnostic_render(src, d);

        if (text != NULL)
            cli_puts(stderr, text);
        tfx_free(text);
    }
}

/* Prints {"value":..., "type":..., "diagnostics":[...]} for --format json. */
static const char unshowable[] =
    "the value cannot be shown: a number's text is longer than the string limit, or memory ran out";

/* Prints the JSON report of an evaluation; 0 when a value without errors
 * could not be encoded (after saying so on standard error), else 1. */
static int print_eval_json(const tfx_source *src, const tfx_result *r)
{
    size_t n = r != NULL ? tfx_result_diagnostic_count(r) : tfx_source_diagnostic_count(src);
    char *value = r != NULL && !tfx_result_has_errors(r) ? tfx_result_json(r) : NULL;
    char *type = value != NULL ? tfx_result_type(r) : NULL;
    size_t i;

    int shown = value != NULL || r == NULL || tfx_result_has_errors(r);

    cli_printf(stdout, "{\"ok\":%s", value != NULL ? "true" : "false");
    if (value != NULL)
        cli_printf(stdout, ",\"value\":%s", value);
    if (!shown) {
        cli_puts(stdout, ",\"error\":");
        cli_json_string(stdout, unshowable, strlen(unshowable));
        cli_msg("tfexpr eval: %s\n", unshowable);
    }
    if (type != NULL) {
        /* an attribute name in quotes, {"a b"=number}, must be escaped */
        cli_puts(stdout, ",\"type\":");
        cli_json_string(stdout, type, strlen(type));
    }
    cli_puts(stdout, ",\"diagnostics\":[");
    for (i = 0; i < n; i++) {
        char *d = tfx_diagnostic_json(r != NULL ? tfx_result_diagnostic(r, i) : tfx_source_diagnostic(src, i));

        cli_printf(stdout, "%s%s", i > 0 ? "," : "", d != NULL ? d : "null");
        tfx_free(d);
    }
    cli_putline("]}");
    tfx_free(value);
    tfx_free(type);
    return shown;
}

/* Loads --vars FILE into the context; false (after a message) on error. */
static int load_vars_file(tfx_context *ctx, const char *path)
{
    const char *name;
    size_t n;
    char *error = NULL;
    char *text = read_input(path, NULL, &name, &n);
    int ok;

    if (text == NULL) {
        cli_msg("tfexpr eval: cannot read %s\n", path);
        return 0;
    }
    ok = tfx_context_set_typed_all(ctx, text, n, &error) == 0;
    if (!ok)
        cli_msg("tfexpr eval: %s: %s\n", path, error != NULL ? error : "out of memory");
    tfx_free(error);
    free(text);
    return ok;
}

/* Loads --var NAME=JSON; false (after a message) on error. */
static int load_var(tfx_context *ctx, const char *arg)
{
    const char *eq = strchr(arg, '=');
    char *name;
    char *error = NULL;
    int ok;

    if (eq == NULL || eq == arg) {
        cli_msg("tfexpr eval: --var needs NAME=JSON, got '%s'\n", arg);
        return 0;
    }
    name = malloc((size_t)(eq - arg) + 1);
    if (name == NULL)
        return 0;
    memcpy(name, arg, (size_t)(eq - arg));
    name[eq - arg] = '\0';
    ok = tfx_context_set_json(ctx, name, eq + 1, strlen(eq + 1), &error) == 0;
    if (!ok)
        cli_msg("tfexpr eval: --var %s: %s\n", name, error != NULL ? error : "out of memory");
    tfx_free(error);
    free(name);
    return ok;
}

/* Sets the limit an option --limit-NAME names from its argument; 0 and a
 * message on standard error for an unknown name or a bad number. */
static int set_eval_limit(tfx_eval_limits *limits, const char *option, const char *arg)
{
    size_t *field = NULL;
    char *end;
    unsigned long long v;

    if (strcmp(option, "--limit-steps") == 0)
        field = &limits->max_steps;
    else if (strcmp(option, "--limit-depth") == 0)
        field = &limits->max_depth;
    else if (strcmp(option, "--limit-string") == 0)
        field = &limits->max_string_bytes;
    else if (strcmp(option, "--limit-items") == 0)
        field = &limits->max_collection_items;
    else if (strcmp(option, "--limit-memory") == 0)
        field = &limits->max_memory_bytes;
    if (field == NULL) {
        cli_msg("tfexpr eval: unknown limit '%s'\n%s", option, usage_eval);
        return 0;
    }
    errno = 0;
    v = strtoull(arg, &end, 10);
    if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || v == 0 || errno != 0 || v > SIZE_MAX) {
        cli_msg("tfexpr eval: %s needs a positive number, not '%s'\n", option, arg);
        return 0;
    }
    *field = (size_t)v;
    return 1;
}

/* [host.cli] One of eval's host options: --base-dir DIR, --now RFC3339,
 * --seed N, --home DIR.  False after printing the error. */
static bool set_host_option(tfx_host *host, const char *opt, const char *arg)
{
    char *error = NULL;
    int rc;

    if (strcmp(opt, "--seed") == 0) {
        char *end;
        unsigned long long seed;

        errno = 0;
        seed = strtoull(arg, &end, 10);
        if (arg[0] == '\0' || arg[0] == '-' || *end != '\0' || errno != 0) {
            cli_msg("tfexpr eval: --seed needs a number from 0 to %llu, not '%s'\n",
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
        cli_msg("tfexpr eval: %s: %s\n", opt, error != NULL ? error : "out of memory");
        tfx_free(error);
        return false;
    }
    return true;
}

static int cmd_eval(int argc, char **argv)
{
    tfx_host *host;
    tfx_eval_limits limits;
    tfx_mode mode = TFX_MODE_EXPRESSION;
    int json = 0;
    const char *file = NULL;
    const char *text = NULL;
    const char *name;
    tfx_context *ctx;
    tfx_source *src;
    tfx_result *r = NULL;
    char *input;
    size_t n;
    int status = EXIT_SUCCESS;
    int a;

    tfx_eval_limits_init(&limits);
    ctx = tfx_context_new();
    host = tfx_host_new();
    if (ctx == NULL || host == NULL) {
        cli_puts(stderr, "tfexpr eval: out of memory\n");
        tfx_context_free(ctx);
        tfx_host_free(host);
        return EXIT_USAGE;
    }
    tfx_context_allow_type_function(ctx, 1); /* as terraform console */
    /* [host.cli] the defaults: the system clock and random source, $HOME,
     * the process's working directory; no file system */
    tfx_host_use_system_clock(host);
    tfx_host_use_system_random(host);
    {
        const char *home = getenv("HOME");

        if (home != NULL && home[0] != '\0')
            tfx_host_set_home(host, home, NULL);
    }
    {
        char *cwd = getcwd(NULL, 0);

        if (cwd != NULL)
            tfx_host_set_cwd(host, cwd, NULL);
        free(cwd);
    }
    tfx_context_set_host(ctx, host);
    for (a = 1; a < argc && status == EXIT_SUCCESS; a++) {
        if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
            cli_puts(stdout, usage_eval);
            tfx_context_free(ctx);
            tfx_host_free(host);
            return EXIT_SUCCESS;
        } else if (strcmp(argv[a], "--template") == 0) {
            mode = TFX_MODE_TEMPLATE;
        } else if (strcmp(argv[a], "--no-functions") == 0) {
            tfx_context_allow_functions(ctx, 0);
        } else if (strcmp(argv[a], "--flavor") == 0 && a + 1 < argc) {
            const char *f = argv[++a];

            if (strcmp(f, "terraform") == 0 || strcmp(f, "opentofu") == 0) {
                tfx_context_set_flavor(ctx, strcmp(f, "opentofu") == 0 ? TFX_FLAVOR_OPENTOFU
                                                                      : TFX_FLAVOR_TERRAFORM);
            } else {
                cli_msg("tfexpr eval: unknown flavor '%s'\n%s", f, usage_eval);
                status = EXIT_USAGE;
            }
        } else if (strcmp(argv[a], "--format") == 0 && a + 1 < argc) {
            const char *f = argv[++a];

            if (strcmp(f, "text") == 0 || strcmp(f, "json") == 0) {
                json = strcmp(f, "json") == 0;
            } else {
                cli_msg("tfexpr eval: unknown format '%s'\n%s", f, usage_eval);
                status = EXIT_USAGE;
            }
        } else if (strcmp(argv[a], "--vars") == 0 && a + 1 < argc) {
            if (!load_vars_file(ctx, argv[++a]))
                status = EXIT_USAGE;
        } else if (strcmp(argv[a], "--var") == 0 && a + 1 < argc) {
            if (!load_var(ctx, argv[++a]))
                status = EXIT_USAGE;
        } else if ((strcmp(argv[a], "--base-dir") == 0 || strcmp(argv[a], "--now") == 0
                    || strcmp(argv[a], "--seed") == 0 || strcmp(argv[a], "--home") == 0)
                   && a + 1 < argc) {
            if (!set_host_option(host, argv[a], argv[a + 1]))
                status = EXIT_USAGE;
            a++;
        } else if (strncmp(argv[a], "--limit-", 8) == 0 && a + 1 < argc) {
            if (!set_eval_limit(&limits, argv[a], argv[a + 1]))
                status = EXIT_USAGE;
            a++;
        } else if (strcmp(argv[a], "--file") == 0 && a + 1 < argc && file == NULL && text == NULL) {
            file = argv[++a];
        } else if (strcmp(argv[a], "-") == 0 && file == NULL && text == NULL) {
            file = "-";
        } else if ((argv[a][0] != '-' || argv[a][1] == '\0') && file == NULL && text == NULL) {
            text = argv[a];
        } else if (strcmp(argv[a], "--") == 0 && a + 1 < argc && file == NULL && text == NULL) {
            text = argv[++a];
        } else {
            cli_msg("tfexpr eval: unexpected argument '%s'\n%s", argv[a], usage_eval);
            status = EXIT_USAGE;
        }
    }
    if (status == EXIT_SUCCESS && file == NULL && text == NULL) {
        cli_msg("tfexpr eval: no expression\n%s", usage_eval);
        status = EXIT_USAGE;
    }
    if (status != EXIT_SUCCESS) {
        tfx_context_free(ctx);
        tfx_host_free(host);
        return status;
    }
    input = read_input(file, text, &name, &n);
    if (input == NULL) {
        cli_msg("tfexpr eval: cannot read %s\n", file != NULL ? file : "the input");
        tfx_context_free(ctx);
        tfx_host_free(host);
        return EXIT_USAGE;
    }
    src = tfx_source_parse(name, input, n, mode, NULL);
    free(input);
    if (src != NULL && !tfx_source_has_errors(src))
        r = tfx_evaluate(src, ctx, &limits);
    if (src == NULL || (r == NULL && !tfx_source_has_errors(src))) {
        cli_puts(stderr, "tfexpr eval: out of memory\n");
        status = EXIT_USAGE;
    } else {
        int failed = r == NULL || tfx_result_has_errors(r);

        status = failed ? EXIT_INPUT_ERRORS : EXIT_SUCCESS;
        if (json) {
            if (!print_eval_json(src, r))
                status = EXIT_USAGE;
        } else {
            print_diags(src, r);
            if (!failed) {
                char *shown = tfx_result_render(r);

                if (shown == NULL) {
                    cli_msg("tfexpr eval: %s\n", unshowable);
                    status = EXIT_USAGE;
                } else {
                    cli_putline(shown);
                }
                tfx_free(shown);
            }
        }
    }
    tfx_result_free(r);
    tfx_source_free(src);
    tfx_context_free(ctx);
    tfx_host_free(host);
    return status;
}

/* The arguments of refs and check: [--template] [--format text|json]
 * [--vars-types FILE (check only)] (EXPR | - | --file FILE | -- EXPR). */
typedef struct {
    tfx_mode mode;
    int json;
    const char *file;
    const char *text;
    const char *types;      /* --vars-types */
} input_args;

/* Parses the arguments of `cmd`; -1 to go on, else the exit status. */
static int parse_input_args(const char *cmd, const char *usage, int allow_types, int argc,
                            char **argv, input_args *in)
{
    int a;

    memset(in, 0, sizeof(*in));
    in->mode = TFX_MODE_EXPRESSION;
    for (a = 1; a < argc; a++) {
        int have = in->file != NULL || in->text != NULL;

        if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
            cli_puts(stdout, usage);
            return EXIT_SUCCESS;
        } else if (strcmp(argv[a], "--template") == 0) {
            in->mode = TFX_MODE_TEMPLATE;
        } else if (strcmp(argv[a], "--format") == 0 && a + 1 < argc) {
            const char *f = argv[++a];

            if (strcmp(f, "text") != 0 && strcmp(f, "json") != 0) {
                cli_msg("tfexpr %s: unknown format '%s'\n%s", cmd, f, usage);
                return EXIT_USAGE;
            }
            in->json = strcmp(f, "json") == 0;
        } else if (allow_types && strcmp(argv[a], "--vars-types") == 0 && a + 1 < argc) {
            in->types = argv[++a];
        } else if (strcmp(argv[a], "--file") == 0 && a + 1 < argc && !have) {
            in->file = argv[++a];
        } else if (strcmp(argv[a], "-") == 0 && !have) {
            in->file = "-";
        } else if (strcmp(argv[a], "--") == 0 && a + 1 < argc && !have) {
            in->text = argv[++a];
        } else if (argv[a][0] != '-' && !have) {
            in->text = argv[a];
        } else {
            cli_msg("tfexpr %s: unexpected argument '%s'\n%s", cmd, argv[a], usage);
            return EXIT_USAGE;
        }
    }
    if (in->file == NULL && in->text == NULL) {
        cli_msg("tfexpr %s: no expression\n%s", cmd, usage);
        return EXIT_USAGE;
    }
    return -1;
}

/* Reads and parses the input of `in`; NULL (after a message) on an I/O
 * error or exhausted memory. */
static tfx_source *parse_input(const char *cmd, const input_args *in)
{
    const char *name;
    size_t n;
    char *input = read_input(in->file, in->text, &name, &n);
    tfx_source *src;

    if (input == NULL) {
        cli_msg("tfexpr %s: cannot read %s\n", cmd, in->file != NULL ? in->file : "the input");
        return NULL;
    }
    src = tfx_source_parse(name, input, n, in->mode, NULL);
    free(input);
    if (src == NULL)
        cli_msg("tfexpr %s: out of memory\n", cmd);
    return src;
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

/* [refs.result] [refs.text] [refs.parse-errors] */
static int cmd_refs(int argc, char **argv)
{
    input_args in;
    tfx_source *src;
    tfx_refs *refs = NULL;
    int status = parse_input_args("refs", usage_refs, 0, argc, argv, &in);

    if (status >= 0)
        return status;
    src = parse_input("refs", &in);
    if (src == NULL)
        return EXIT_USAGE;
    if (!tfx_source_has_errors(src)) {
        refs = tfx_source_refs(src);
        if (refs == NULL) {
            cli_puts(stderr,
                     "tfexpr refs: out of memory, or an index key is a number too long to write out\n");
            tfx_source_free(src);
            return EXIT_USAGE;
        }
    }
    status = refs == NULL ? EXIT_INPUT_ERRORS : EXIT_SUCCESS;
    if (in.json) {
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

        print_diags(src, NULL);
        for (i = 0; i < tfx_refs_count(refs); i++) {
            tfx_range rg = tfx_ref_range(refs, i);

            cli_printf(stdout, "%s\t%s:%zu:%zu-%zu:%zu\n", tfx_ref_text(refs, i),
                   in.file == NULL ? "<expression>" : strcmp(in.file, "-") == 0 ? "<stdin>" : in.file,
                   rg.start.line, rg.start.column, rg.end.line, rg.end.column);
        }
    }
    tfx_refs_free(refs);
    tfx_source_free(src);
    return status;
}

/* Loads --vars-types FILE into the context; false (after a message) on
 * error. */
static int load_types_file(tfx_context *ctx, const char *path)
{
    const char *name;
    size_t n;
    char *error = NULL;
    char *text = read_input(path, NULL, &name, &n);
    int ok;

    if (text == NULL) {
        cli_msg("tfexpr check: cannot read %s\n", path);
        return 0;
    }
    ok = tfx_context_set_unknown_all(ctx, text, n, &error) == 0;
    if (!ok)
        cli_msg("tfexpr check: %s: %s\n", path, error != NULL ? error : "out of memory");
    tfx_free(error);
    free(text);
    return ok;
}

/* [check.types] [check.result] [check.errors] */
static int cmd_check(int argc, char **argv)
{
    input_args in;
    tfx_context *ctx;
    tfx_source *src;
    tfx_result *r = NULL;
    int status = parse_input_args("check", usage_check, 1, argc, argv, &in);

    if (status >= 0)
        return status;
    ctx = tfx_context_new();
    if (ctx == NULL) {
        cli_puts(stderr, "tfexpr check: out of memory\n");
        return EXIT_USAGE;
    }
    if (in.types != NULL && !load_types_file(ctx, in.types)) {
        tfx_context_free(ctx);
        return EXIT_USAGE;
    }
    src = parse_input("check", &in);
    if (src == NULL) {
        tfx_context_free(ctx);
        return EXIT_USAGE;
    }
    if (!tfx_source_has_errors(src))
        r = tfx_evaluate(src, ctx, NULL);
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
        } else if (in.json) {
            cli_printf(stdout, "{\"ok\":%s", failed ? "false" : "true");
            if (!failed) {
                cli_printf(stdout, ",\"type\":%s,\"type_text\":", type_json);
                cli_json_string(stdout, type, strlen(type));
            }
            print_diags_json(src, r);
        } else {
            print_diags(src, r);
            if (!failed)
                cli_putline(type);
        }
        tfx_free(type);
        tfx_free(type_json);
    }
    tfx_result_free(r);
    tfx_source_free(src);
    tfx_context_free(ctx);
    return status;
}

static int cmd_functions(int argc, char **argv)
{
    int json = 0, opentofu = 0;
    char *error = NULL;
    char *table;
    int a;

    for (a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
            cli_puts(stdout, usage_functions);
            return EXIT_SUCCESS;
        } else if (strcmp(argv[a], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[a], "--flavor") == 0 && a + 1 < argc
                   && (strcmp(argv[a + 1], "terraform") == 0
                       || strcmp(argv[a + 1], "opentofu") == 0)) {
            opentofu = strcmp(argv[++a], "opentofu") == 0;
        } else {
            cli_msg("tfexpr functions: unexpected argument '%s'\n%s", argv[a],
                    usage_functions);
            return EXIT_USAGE;
        }
    }
    table = tfx_fn_table_flavor(json, opentofu, &error);
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

int main(int argc, char **argv)
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
    if (strcmp(argv[1], "functions") == 0)
        return cmd_functions(argc - 1, argv + 1);
    if (strcmp(argv[1], "version") == 0)
        return cmd_version(argc - 1, argv + 1);
    cli_msg("tfexpr: unknown command '%s'\n%s", argv[1], usage_main);
    return EXIT_USAGE;
}
