/* SPDX-License-Identifier: MPL-2.0 */
/*
 * fuzz_varfile.c — the command line's variable definitions files
 * (impl/cli/varfile.c, spec/cli-varfiles.md [varfile.*]), and the JSON the
 * command line writes from them (issue 14: every JSON the CLI writes is
 * valid, whatever the input).
 *
 * Input: a form byte (even: FILE.tfvars, HCL attributes; odd:
 * FILE.tfvars.json) and the file's text, any bytes.
 * Properties:
 *   - every run ends with the variables or with errors, never a crash or a
 *     leak (ASan, UBSan, LSan); messages go nowhere (cli_set_err);
 *   - with errors: the variables are left as they were (empty), and the
 *     errors kept for --format json (cli_varfile_diagnostics) serialise
 *     to valid one-line JSON, each an object with a severity and summary;
 *   - without errors: every variable is a typed value that the library
 *     takes back (tfx_context_set_typed), the whole object as the CLI
 *     hands it on is valid one-line JSON, and a second load of the same
 *     text gives the same variables, byte for byte;
 *   - the CLI's JSON string writer (cli_json_string, which writes type
 *     names and file names into --format json reports) makes a valid JSON
 *     string of the text, invalid UTF-8 included.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "fuzz_common.h"

/* The text as cli_json_string writes it must be one valid JSON string. */
static void check_json_string(const char *text, size_t n)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);

    if (f == NULL)
        return;
    cli_json_string(f, text, n);
    if (fclose(f) != 0 || out == NULL) {
        free(out);
        return;
    }
    if (len < 2 || out[0] != '"')
        fuzz_fail("cli_json_string wrote no string: %.40s", out);
    fuzz_check_json(out, 1, "cli_json_string of the input");
    free(out);
}

/* Serialises j (the CLI's way, compact) and checks it; returns the text. */
static char *dump_checked(const json_t *j, const char *what)
{
    char *text = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);

    if (text == NULL)
        fuzz_fail("%s: json_dumps failed", what);
    fuzz_check_json(text, 1, what);
    return text;
}

static void check_diagnostics(void)
{
    const json_t *diags = cli_varfile_diagnostics();
    size_t i;
    json_t *d;

    if (diags == NULL)
        return;
    if (!json_is_array(diags))
        fuzz_fail("varfile diagnostics are not an array");
    json_array_foreach(diags, i, d) {
        if (!json_is_string(json_object_get(d, "severity")) || !json_is_string(json_object_get(d, "summary")))
            fuzz_fail("varfile diagnostic %zu lacks a severity or a summary", i);
    }
    free(dump_checked(diags, "varfile diagnostics"));
}

/* Every variable must be a typed value the library takes back. */
static void check_variables(json_t *vars)
{
    tfx_context *ctx = tfx_context_new();
    const char *name;
    json_t *v;

    if (ctx == NULL)
        return;
    json_object_foreach(vars, name, v) {
        char *text = dump_checked(v, "a variable's typed value");
        char *error = NULL;

        if (tfx_context_set_typed(ctx, "v", text, strlen(text), &error) != 0)
            fuzz_fail("the library refuses the typed value of %s: %s (%s)", name,
                      error != NULL ? error : "?", text);
        tfx_free(error);
        free(text);
    }
    tfx_context_free(ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *silent;
    const char *path;
    const char *text;
    size_t n;
    json_t *vars;
    int ok;

    if (size < 1 || size - 1 > FUZZ_MAX_SOURCE)
        return 0;
    if (silent == NULL)
        silent = fopen("/dev/null", "w");
    cli_set_err(silent);
    path = (data[0] & 1) != 0 ? "fuzz.tfvars.json" : "fuzz.tfvars";
    text = (const char *)data + 1;
    n = size - 1;

    check_json_string(text, n);

    vars = json_object();
    if (vars == NULL)
        return 0;
    cli_varfile_free();
    ok = cli_varfile_load_text("eval", path, text, n, vars, TFX_PROFILE_DEFAULT);
    check_diagnostics();
    if (!ok) {
        if (json_object_size(vars) != 0)
            fuzz_fail("a file with errors defined %zu variables", json_object_size(vars));
    } else {
        char *first = dump_checked(vars, "the variables");
        json_t *again = json_object();

        check_variables(vars);
        if (again != NULL) {
            char *second;

            cli_varfile_free();
            if (!cli_varfile_load_text("eval", path, text, n, again, TFX_PROFILE_DEFAULT))
                fuzz_fail("a second load of the same file has errors");
            second = dump_checked(again, "the variables, loaded again");
            if (strcmp(first, second) != 0)
                fuzz_fail("two loads differ: %s / %s", first, second);
            free(second);
            json_decref(again);
        }
        free(first);
    }
    cli_varfile_free();
    json_decref(vars);
    return 0;
}
