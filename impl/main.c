/*
 * main.c — the `tfexpr` command line tool.
 *
 * Written only against the public header tfexpr.h.  Exit status, the same
 * for every command: 0 success, 1 the input has errors, 2 usage or I/O
 * error.
 */
#include "tfexpr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_INPUT_ERRORS 1
#define EXIT_USAGE 2

static const char usage_main[] =
    "usage: tfexpr [--help] [--version] COMMAND [ARGS]\n"
    "\n"
    "The reference evaluator of the Terraform / OpenTofu expression language.\n"
    "\n"
    "commands:\n"
    "  parse     parse an expression or template; print its syntax tree or errors\n"
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
    "This version has no parser or evaluator yet: it answers every case\n"
    "\"unsupported\".\n";

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
        fputs(usage, stdout);
        return EXIT_SUCCESS;
    }
    fprintf(stderr, "tfexpr %s: unexpected argument '%s'\n%s", argv[0],
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
        fputs("tfexpr adapter: out of memory\n", stderr);
        return EXIT_USAGE;
    }
    while ((n = getline(&line, &cap, stdin)) > 0) {
        int stop = 0;
        char *answer = tfx_adapter_handle(a, line, (size_t)n, &stop);

        if (answer != NULL) {
            if (fputs(answer, stdout) == EOF || fputc('\n', stdout) == EOF
                || fflush(stdout) == EOF) {
                tfx_free(answer);
                status = EXIT_USAGE;
                break;
            }
            tfx_free(answer);
        } else if (!stop) {
            fputs("tfexpr adapter: out of memory\n", stderr);
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
            fputs(usage_parse, stdout);
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
                fprintf(stderr, "tfexpr parse: unknown format '%s'\n%s", f, usage_parse);
                return EXIT_USAGE;
            }
        } else if (strcmp(argv[a], "--limit-depth") == 0 && a + 1 < argc) {
            char *end;
            unsigned long v = strtoul(argv[++a], &end, 10);

            if (*end != '\0' || v == 0) {
                fprintf(stderr, "tfexpr parse: --limit-depth needs a positive number\n");
                return EXIT_USAGE;
            }
            limits.max_depth = v;
        } else if (strcmp(argv[a], "-e") == 0 && a + 1 < argc && file == NULL && text == NULL) {
            text = argv[++a];
        } else if ((argv[a][0] != '-' || strcmp(argv[a], "-") == 0) && file == NULL && text == NULL) {
            file = argv[a];
        } else {
            fprintf(stderr, "tfexpr parse: unexpected argument '%s'\n%s", argv[a], usage_parse);
            return EXIT_USAGE;
        }
    }
    if (file == NULL && text == NULL) {
        fprintf(stderr, "tfexpr parse: no input\n%s", usage_parse);
        return EXIT_USAGE;
    }
    input = read_input(file, text, &name, &n);
    if (input == NULL) {
        fprintf(stderr, "tfexpr parse: cannot read %s\n", file != NULL ? file : "the input");
        return EXIT_USAGE;
    }
    src = tfx_source_parse(name, input, n, mode, &limits);
    free(input);
    if (src == NULL) {
        fputs("tfexpr parse: out of memory\n", stderr);
        return EXIT_USAGE;
    }
    status = tfx_source_has_errors(src) ? EXIT_INPUT_ERRORS : EXIT_SUCCESS;
    if (json) {
        char *tree = status == EXIT_SUCCESS ? tfx_source_dump(src, TFX_DUMP_JSON) : NULL;

        printf("{\"ok\":%s", status == EXIT_SUCCESS ? "true" : "false");
        if (tree != NULL)
            printf(",\"tree\":%s", tree);
        tfx_free(tree);
        fputs(",\"diagnostics\":[", stdout);
        for (i = 0; i < tfx_source_diagnostic_count(src); i++) {
            char *d = tfx_diagnostic_json(tfx_source_diagnostic(src, i));

            printf("%s%s", i > 0 ? "," : "", d != NULL ? d : "null");
            tfx_free(d);
        }
        puts("]}");
    } else {
        for (i = 0; i < tfx_source_diagnostic_count(src); i++) {
            char *d = tfx_diagnostic_render(src, tfx_source_diagnostic(src, i));

            if (d != NULL)
                fputs(d, stderr);
            tfx_free(d);
        }
        if (status == EXIT_SUCCESS) {
            char *tree = tfx_source_dump(src, format);

            if (tree == NULL) {
                fputs("tfexpr parse: out of memory\n", stderr);
                status = EXIT_USAGE;
            } else {
                puts(tree);
            }
            tfx_free(tree);
        }
    }
    tfx_source_free(src);
    return status;
}

static int cmd_version(int argc, char **argv)
{
    int rc = common_args(argc, argv, usage_version);

    if (rc >= 0)
        return rc;
    printf("tfexpr %s\n", tfx_version());
    return EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage_main, stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0
        || strcmp(argv[1], "help") == 0) {
        fputs(usage_main, stdout);
        return EXIT_SUCCESS;
    }
    if (strcmp(argv[1], "--version") == 0)
        return cmd_version(1, argv);
    if (strcmp(argv[1], "adapter") == 0)
        return cmd_adapter(argc - 1, argv + 1);
    if (strcmp(argv[1], "parse") == 0)
        return cmd_parse(argc - 1, argv + 1);
    if (strcmp(argv[1], "version") == 0)
        return cmd_version(argc - 1, argv + 1);
    fprintf(stderr, "tfexpr: unknown command '%s'\n%s", argv[1], usage_main);
    return EXIT_USAGE;
}
