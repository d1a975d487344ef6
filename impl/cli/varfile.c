/* SPDX-License-Identifier: MPL-2.0 */
/*
 * varfile.c — Terraform's variable definitions files (spec/cli-varfiles.md):
 * FILE.tfvars, attributes in HCL's native syntax whose values are
 * expressions without references or function calls, and FILE.tfvars.json,
 * a JSON object.  Each value becomes a typed value (the corpus's encoding)
 * in a JSON object of NAME -> value, which the caller makes `var`.
 */
#include "cli.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* The diagnostics of the files read, as JSON, for --format json. */
static json_t *file_diagnostics;

const json_t *cli_varfile_diagnostics(void)
{
    return file_diagnostics;
}

void cli_varfile_free(void)
{
    json_decref(file_diagnostics);
    file_diagnostics = NULL;
}

/* Keeps a diagnostic for cli_varfile_diagnostics. */
static void keep(const tfx_diagnostic *d)
{
    char *text = tfx_diagnostic_json(d);
    json_t *j = text != NULL ? json_loads(text, 0, NULL) : NULL;

    if (file_diagnostics == NULL)
        file_diagnostics = json_array();
    if (j != NULL && file_diagnostics != NULL)
        json_array_append_new(file_diagnostics, j);
    else
        json_decref(j);
    tfx_free(text);
}

/* A file being read: its text, and a source of the whole text that
 * diagnostics are rendered against (line and caret from the file). */
typedef struct {
    const char *cmd;
    const char *path;
    const char *text;
    size_t n;
    tfx_source *shown;
    int errors;
    tfx_profile profile;    /* [profile.option] the command's */
} vfile;

/* The position of byte `at`: lines from 1, columns from 1 in the grapheme
 * clusters of the command's profile, as an expression's columns count
 * them ([varfile.errors] [lex.pos.column] [lex.pos.column.pn]), so that
 * the caret tfx_diagnostic_render puts under them lines up.  LF and CR LF
 * end a line; a cluster that runs past `at` counts, as one that straddles
 * two tokens does. */
static tfx_pos pos_at(const vfile *f, size_t at)
{
    const unsigned char *t = (const unsigned char *)f->text;
    size_t end = at < f->n ? at : f->n;
    bool pn = f->profile != TFX_PROFILE_P14;
    tfx_pos p = {0, 1, 1};
    size_t i = 0;

    while (i < end) {
        if (t[i] == '\n' || (t[i] == '\r' && i + 1 < end && t[i + 1] == '\n')) {
            i += t[i] == '\r' ? 2 : 1;
            p.line++;
            p.column = 1;
        } else {
            i += t[i] == '\r' ? 1 : tfx_text_grapheme_len_profile(t + i, f->n - i, pn);
            p.column++;
        }
    }
    p.byte = at;
    return p;
}

static tfx_range range_of(const vfile *f, size_t start, size_t end)
{
    tfx_range r = {pos_at(f, start), pos_at(f, end)};

    return r;
}

/* Reports an error at text[start..end), rendered as the library renders
 * its own: FILE:LINE:COLUMN, the line, a caret. */
static void report(vfile *f, const char *category, const char *summary, const char *detail,
                   size_t start, size_t end)
{
    tfx_diagnostic d;
    char *text;

    memset(&d, 0, sizeof(d));
    d.severity = TFX_SEV_ERROR;
    d.phase = TFX_PHASE_PARSE;
    d.category = category;
    d.summary = summary;
    d.detail = detail;
    d.has_subject = 1;
    d.subject = range_of(f, start, end);
    keep(&d);
    text = f->shown != NULL ? tfx_diagnostic_render(f->shown, &d) : NULL;
    if (text != NULL)
        cli_puts(cli_err(), text);
    else
        cli_msg("%s: error: %s\n%s\n", f->path, summary, detail);
    tfx_free(text);
    f->errors++;
}

/* s[0..n) as a NUL-terminated string (s need not be terminated: a
 * file's text is bytes), or NULL when memory runs out. */
static char *copy_bytes(const char *s, size_t n)
{
    char *c = malloc(n + 1);

    if (c != NULL) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    return c;
}

/* HCL's text of a range, FILE:LINE,COLUMN-COLUMN or -LINE,COLUMN. */
static void range_text(const vfile *f, size_t start, size_t end, char *buf, size_t cap)
{
    tfx_range r = range_of(f, start, end);

    if (r.start.line == r.end.line)
        snprintf(buf, cap, "%s:%zu,%zu-%zu", f->path, r.start.line, r.start.column, r.end.column);
    else
        snprintf(buf, cap, "%s:%zu,%zu-%zu,%zu", f->path, r.start.line, r.start.column,
                 r.end.line, r.end.column);
}

/* Evaluates text[start..end) as a value of a variable definitions file:
 * [varfile.hcl.value] no variables, no functions.  Returns the typed value,
 * or NULL after reporting. */
static json_t *eval_value(vfile *f, size_t start, size_t end)
{
    char *blank = malloc(f->n + 1);
    tfx_context *ctx = tfx_context_new();
    tfx_source *src = NULL;
    tfx_result *r = NULL;
    json_t *value = NULL;
    size_t i;

    if (blank == NULL || ctx == NULL) {
        cli_msg("tfexpr %s: out of memory\n", f->cmd);
        f->errors++;
        free(blank);
        tfx_context_free(ctx);
        return NULL;
    }
    /* the expression where it is in the file, everything else blank, so
     * that the positions of its diagnostics are the file's */
    for (i = 0; i < f->n; i++)
        if ((i >= start && i < end) || f->text[i] == '\n')
            blank[i] = f->text[i];
        else
            blank[i] = ' ';
    blank[f->n] = '\0';
    tfx_context_allow_variables(ctx, 0);
    tfx_context_allow_functions(ctx, 0);
    tfx_context_set_profile(ctx, f->profile);
    src = tfx_source_parse_profile(f->path, blank, f->n, TFX_MODE_EXPRESSION, NULL, f->profile);
    if (src != NULL && !tfx_source_has_errors(src))
        r = tfx_evaluate(src, ctx, NULL);
    if (src == NULL || (r == NULL && !tfx_source_has_errors(src))) {
        cli_msg("tfexpr %s: out of memory\n", f->cmd);
        f->errors++;
    } else {
        size_t k, count = r != NULL ? tfx_result_diagnostic_count(r)
                                    : tfx_source_diagnostic_count(src);

        for (k = 0; k < count; k++) {
            const tfx_diagnostic *d = r != NULL ? tfx_result_diagnostic(r, k)
                                                : tfx_source_diagnostic(src, k);
            char *text = tfx_diagnostic_render(f->shown, d);

            keep(d);

            cli_puts(cli_err(), text);
            tfx_free(text);
        }
        if (r != NULL && !tfx_result_has_errors(r)) {
            char *json = tfx_result_json(r);

            value = json != NULL ? json_loads(json, 0, NULL) : NULL;
            tfx_free(json);
            if (value == NULL) {
                cli_msg("tfexpr %s: %s: %s\n", f->cmd, f->path, cli_unshowable);
                f->errors++;
            }
        } else {
            f->errors++;
        }
    }
    tfx_result_free(r);
    tfx_source_free(src);
    tfx_context_free(ctx);
    free(blank);
    return value;
}

static int is_ident_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

static int is_ident_char(unsigned char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9') || c == '-';
}

/* Skips spaces, tabs, comments and (with newlines) line ends. */
static size_t skip_space(const vfile *f, size_t i, int newlines)
{
    const char *t = f->text;

    while (i < f->n) {
        if (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || (newlines && t[i] == '\n')) {
            i++;
        } else if (newlines && (t[i] == '#' || (t[i] == '/' && i + 1 < f->n && t[i + 1] == '/'))) {
            while (i < f->n && t[i] != '\n')
                i++;
        } else if (t[i] == '/' && i + 1 < f->n && t[i + 1] == '*') {
            const char *close = NULL;
            size_t j;

            for (j = i + 2; j + 1 < f->n; j++)
                if (t[j] == '*' && t[j + 1] == '/') {
                    close = t + j;
                    break;
                }
            i = close != NULL ? (size_t)(close - t) + 2 : f->n;
        } else {
            break;
        }
    }
    return i;
}

/* The end of a block whose header starts at text[i]: after its closing
 * brace, or the end of its line when it has none. */
static size_t block_end(const vfile *f, size_t i)
{
    int open;
    size_t j = i;

    while (j < f->n && f->text[j] != '{' && f->text[j] != '\n')
        j++;
    if (j < f->n && f->text[j] == '{') {
        /* the braces with what they hold, as one expression would */
        size_t e = cli_scan_expr(f->text + j, f->n - j, &open);

        return j + e;
    }
    return j;
}

/* [varfile.hcl] FILE.tfvars. */
static int load_hcl(vfile *f, json_t *vars)
{
    const char *t = f->text;
    json_t *seen = json_object();   /* name -> [start, end] of its name */
    json_t *defs = json_object();   /* name -> typed value, this file's */
    size_t i = 0;
    int blocks = 0, variable_blocks = 0;
    size_t first_block = 0, first_block_end = 0;
    char first_block_type[64] = "";

    if (seen == NULL || defs == NULL) {
        json_decref(seen);
        json_decref(defs);
        cli_msg("tfexpr %s: out of memory\n", f->cmd);
        return 0;
    }
    for (;;) {
        size_t name_start, name_end, j;

        i = skip_space(f, i, 1);
        if (i >= f->n)
            break;
        name_start = i;
        if (!is_ident_start((unsigned char)t[i])) {
            size_t e = i + cli_utf8_len((const unsigned char *)t + i, f->n - i);

            /* [varfile.hcl.syntax] */
            report(f, "varfile.syntax", "Argument or block definition required",
                   "An argument or block definition is required here.", i, e > i ? e : i + 1);
            break;
        }
        while (i < f->n && is_ident_char((unsigned char)t[i]))
            i++;
        name_end = i;
        j = skip_space(f, i, 0);
        if (j < f->n && t[j] == '=' && !(j + 1 < f->n && t[j + 1] == '=')) {
            size_t start = j + 1, end;
            int open;
            char *name = copy_bytes(t + name_start, name_end - name_start);
            json_t *prev = name != NULL ? json_object_get(seen, name) : NULL;

            if (name == NULL) {
                f->errors++;
                break;
            }
            end = start + cli_scan_expr(t + start, f->n - start, &open);
            if (prev != NULL) {
                /* [varfile.hcl.duplicate] */
                char where[512];
                char detail[1024];

                range_text(f, (size_t)json_integer_value(json_array_get(prev, 0)),
                           (size_t)json_integer_value(json_array_get(prev, 1)), where,
                           sizeof(where));
                snprintf(detail, sizeof(detail),
                         "The argument \"%s\" was already set at %s. Each argument may be set "
                         "only once.", name, where);
                report(f, "varfile.duplicate", "Attribute redefined", detail, name_start, name_end);
            } else {
                json_object_set_new(seen, name, json_pack("[II]", (json_int_t)name_start,
                                                          (json_int_t)name_end));
                json_t *value = eval_value(f, start, end);

                if (value != NULL)
                    json_object_set_new(defs, name, value);
            }
            free(name);
            i = end;
            continue;
        }
        /* a block: NAME LABELS... { ... } */
        if (name_end - name_start == 8 && memcmp(t + name_start, "variable", 8) == 0) {
            /* [varfile.hcl.variable-block] */
            size_t k = skip_space(f, name_end, 0), le;
            char label[256] = "";
            char detail[1024];

            if (k < f->n && t[k] == '"') {
                size_t ls = k + 1;

                for (le = ls; le < f->n && t[le] != '"' && t[le] != '\n'; le++)
                    ;
                snprintf(label, sizeof(label), "%.*s", (int)(le - ls), t + ls);
            } else if (k < f->n && is_ident_start((unsigned char)t[k])) {
                for (le = k; le < f->n && is_ident_char((unsigned char)t[le]); le++)
                    ;
                snprintf(label, sizeof(label), "%.*s", (int)(le - k), t + k);
            }
            snprintf(detail, sizeof(detail),
                     "A .tfvars file is used to assign values to variables that have already "
                     "been declared in .tf files, not to declare new variables. To declare "
                     "variable \"%s\", place this block in one of your .tf files, such as "
                     "variables.tf.\n\nTo set a value for this variable in %s, use the "
                     "definition syntax instead:\n    %s = <value>", label, f->path, label);
            report(f, "varfile.block", "Variable declaration in .tfvars file", detail,
                   name_start, name_end);
            variable_blocks++;
        } else if (blocks == 0) {
            first_block = name_start;
            first_block_end = name_end;
            snprintf(first_block_type, sizeof(first_block_type), "%.*s",
                     (int)(name_end - name_start), t + name_start);
        }
        blocks++;
        i = block_end(f, name_end);
    }
    if (variable_blocks == 0 && blocks > 0 && first_block_end > first_block) {
        /* [varfile.hcl.block] only attributes: the first block is the error */
        char summary[128];

        snprintf(summary, sizeof(summary), "Unexpected \"%s\" block", first_block_type);
        report(f, "varfile.block", summary, "Blocks are not allowed here.",
               first_block, first_block_end);
    }
    if (f->errors == 0)
        json_object_update(vars, defs);
    json_decref(seen);
    json_decref(defs);
    return f->errors == 0;
}

/* ---- FILE.tfvars.json ---- */

static size_t json_space(const vfile *f, size_t i)
{
    while (i < f->n && (f->text[i] == ' ' || f->text[i] == '\t' || f->text[i] == '\n'
                        || f->text[i] == '\r'))
        i++;
    return i;
}

/* The end of the JSON string at text[i] (after its closing quote), or 0. */
static size_t json_string_end(const vfile *f, size_t i)
{
    for (i++; i < f->n; i++) {
        if (f->text[i] == '\\')
            i++;
        else if (f->text[i] == '"')
            return i + 1;
        else if (f->text[i] == '\n')
            return 0;
    }
    return 0;
}

/* The end of the JSON value at text[i], or 0 when it is not one (its
 * content is checked when it is decoded). */
static size_t json_value_end(const vfile *f, size_t i)
{
    size_t depth = 0;

    do {
        char c;

        if (i >= f->n)
            return 0;
        c = f->text[i];
        if (c == '"') {
            i = json_string_end(f, i);
            if (i == 0)
                return 0;
        } else if (c == '{' || c == '[') {
            depth++;
            i++;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return 0;
            depth--;
            i++;
        } else if (depth > 0 && (c == ',' || c == ':' || c == ' ' || c == '\t' || c == '\n'
                                 || c == '\r')) {
            i++;
        } else {
            size_t s = i;

            while (i < f->n && strchr(",:]} \t\r\n\"{[", f->text[i]) == NULL)
                i++;
            if (i == s)
                return 0;
        }
    } while (depth > 0);
    return i;
}

/* A JSON value as a typed value, typed as HCL's JSON syntax types it with
 * no evaluation context ([varfile.json.value]): strings verbatim. */
static json_t *json_typed(vfile *f, const char *name, size_t start, size_t end)
{
    tfx_context *ctx = tfx_context_new();
    tfx_source *src = tfx_source_parse("<var>", "v", 1, TFX_MODE_EXPRESSION, NULL);
    tfx_result *r = NULL;
    char *error = NULL;
    json_t *value = NULL;

    if (ctx != NULL)
        tfx_context_set_profile(ctx, f->profile);
    if (ctx != NULL && src != NULL
        && tfx_context_set_json(ctx, "v", f->text + start, end - start, &error) == 0)
        r = tfx_evaluate(src, ctx, NULL);
    if (r != NULL && !tfx_result_has_errors(r)) {
        char *json = tfx_result_json(r);

        value = json != NULL ? json_loads(json, 0, NULL) : NULL;
        tfx_free(json);
    }
    if (value == NULL) {
        char detail[1024];

        snprintf(detail, sizeof(detail), "The value of \"%s\" is not valid JSON: %s.", name,
                 error != NULL ? error : "out of memory");
        report(f, "varfile.json", "Invalid JSON value", detail, start, end);
    }
    tfx_free(error);
    tfx_result_free(r);
    tfx_source_free(src);
    tfx_context_free(ctx);
    return value;
}

/* [varfile.json] FILE.tfvars.json. */
static int load_json(vfile *f, json_t *vars)
{
    json_t *defs = json_object();
    json_t *seen = json_object();
    size_t i = json_space(f, 0);

    if (defs == NULL || seen == NULL) {
        json_decref(defs);
        json_decref(seen);
        cli_msg("tfexpr %s: out of memory\n", f->cmd);
        return 0;
    }
    if (i >= f->n || f->text[i] != '{') {
        size_t e = i < f->n ? json_value_end(f, i) : 0;

        /* [varfile.json.object] */
        report(f, "varfile.json", "Incorrect JSON value type",
               "A JSON object is required here, setting the arguments for this block.", i,
               e > i ? e : i + (i < f->n));
        json_decref(defs);
        json_decref(seen);
        return 0;
    }
    i = json_space(f, i + 1);
    while (i < f->n && f->text[i] != '}') {
        size_t ks = i, ke = f->text[i] == '"' ? json_string_end(f, i) : 0, vs, ve;
        json_t *key = ke > 0 ? json_loadb(f->text + ks, ke - ks, JSON_DECODE_ANY, NULL) : NULL;
        const char *name = json_string_value(key);

        i = ke > 0 ? json_space(f, ke) : i;
        if (name == NULL || i >= f->n || f->text[i] != ':') {
            report(f, "varfile.json", "Invalid JSON object property",
                   "A property name in quotes and a colon are expected here.", ks,
                   ke > ks ? ke : ks + 1);
            json_decref(key);
            break;
        }
        vs = json_space(f, i + 1);
        ve = json_value_end(f, vs);
        if (ve == 0) {
            report(f, "varfile.json", "Invalid JSON value", "A JSON value is expected here.",
                   vs, vs + (vs < f->n));
            json_decref(key);
            break;
        }
        if (strcmp(name, "//") == 0) {
            /* [varfile.json.comment] ignored, as in every JSON body */
        } else if (json_object_get(seen, name) != NULL) {
            /* [varfile.json.duplicate] */
            json_t *prev = json_object_get(seen, name);
            char where[512];
            char detail[1024];

            range_text(f, (size_t)json_integer_value(json_array_get(prev, 0)),
                       (size_t)json_integer_value(json_array_get(prev, 1)), where, sizeof(where));
            snprintf(detail, sizeof(detail), "The argument \"%s\" was already set at %s.", name,
                     where);
            report(f, "varfile.duplicate", "Duplicate attribute definition", detail, ks, ke);
        } else {
            json_t *value = json_typed(f, name, vs, ve);

            json_object_set_new(seen, name, json_pack("[II]", (json_int_t)ks, (json_int_t)ve));
            if (value != NULL)
                json_object_set_new(defs, name, value);
        }
        json_decref(key);
        i = json_space(f, ve);
        if (i < f->n && f->text[i] == ',') {
            i = json_space(f, i + 1);
            if (i < f->n && f->text[i] == '}') {
                report(f, "varfile.json", "Trailing comma in object",
                       "JSON does not permit a trailing comma after the final property in an "
                       "object.", i, i + 1);
                break;
            }
        } else if (i >= f->n || f->text[i] != '}') {
            report(f, "varfile.json", "Missing attribute seperator comma",
                   "A comma must appear between each property definition in an object.", i,
                   i + (i < f->n));
            break;
        }
    }
    if (f->errors == 0 && i < f->n) {
        i = json_space(f, i + 1);
        if (i < f->n)
            report(f, "varfile.json", "Extraneous data after value",
                   "Extra characters appear after the JSON value.", i, i + 1);
    } else if (f->errors == 0) {
        report(f, "varfile.json", "Unclosed object",
               "No closing brace was found for this JSON object.", f->n, f->n);
    }
    if (f->errors == 0)
        json_object_update(vars, defs);
    json_decref(defs);
    json_decref(seen);
    return f->errors == 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);

    return n >= k && strcmp(s + n - k, suffix) == 0;
}

int cli_varfile_load_text(const char *cmd, const char *path, const char *text, size_t n,
                          json_t *vars, tfx_profile profile)
{
    vfile f = {cmd, path, text, n, NULL, 0, profile};
    int ok;

    /* the whole file, for the lines and carets of diagnostics */
    f.shown = tfx_source_parse_profile(path, text, n, TFX_MODE_TEMPLATE, NULL, profile);
    /* [varfile.format] JSON when the name ends in .json, as Terraform */
    ok = ends_with(path, ".json") ? load_json(&f, vars) : load_hcl(&f, vars);
    tfx_source_free(f.shown);
    return ok;
}

int cli_varfile_load(const char *cmd, const char *path, json_t *vars, tfx_profile profile)
{
    size_t n;
    char *text = cli_read_file(path, &n);
    int ok;

    if (text == NULL) {
        /* [varfile.read] as Terraform says it */
        cli_msg("tfexpr %s: Failed to read variables file: Given variables file %s does not "
                "exist or cannot be read.\n", cmd, path);
        return 0;
    }
    ok = cli_varfile_load_text(cmd, path, text, n, vars, profile);
    free(text);
    return ok ? 1 : -1;
}
