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

#define EXIT_USAGE 2

static const char usage_main[] =
    "usage: tfexpr [--help] [--version] COMMAND [ARGS]\n"
    "\n"
    "The reference evaluator of the Terraform / OpenTofu expression language.\n"
    "\n"
    "commands:\n"
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
    if (strcmp(argv[1], "version") == 0)
        return cmd_version(argc - 1, argv + 1);
    fprintf(stderr, "tfexpr: unknown command '%s'\n%s", argv[1], usage_main);
    return EXIT_USAGE;
}
