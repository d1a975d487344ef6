/* SPDX-License-Identifier: MPL-2.0 */
/*
 * vars.c — the variables of eval, check and console, from the options in
 * the order given: --vars FILE.json (typed values), --var NAME=JSON (plain
 * JSON), --var-file FILE (Terraform's variable definitions files, under
 * var.), --vars-types FILE.json (check: types).  check wants types only:
 * each value is defined in a scratch context, and its type becomes an
 * unknown value of that type in check's context.
 *
 * Terraform's input variables are one object, var: the console's --var
 * NAME=JSON, --var var.NAME=JSON (every command), every --var-file and
 * (console) the TF_VAR_NAME environment variables define its attributes,
 * a later one replacing an earlier one (spec/cli-varfiles.md).
 */
#include "cli.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

/* The variables being gathered. */
typedef struct {
    const cli_opts *o;
    tfx_context *ctx;       /* where values go: the command's, or a scratch one */
    json_t *types;          /* check: name -> type JSON, in order */
    json_t *tfvars;         /* var's attributes: name -> typed value */
} gather;

static void note_type(gather *g, const char *name);

/* A plain JSON text as a typed value, typed as tfx_context_set_json types
 * it; NULL with a message in *error (tfx_free) when it is not JSON. */
static json_t *typed_from_json(const char *text, size_t n, char **error)
{
    tfx_context *ctx = tfx_context_new();
    tfx_source *src = tfx_source_parse("<var>", "v", 1, TFX_MODE_EXPRESSION, NULL);
    tfx_result *r = NULL;
    json_t *value = NULL;

    if (ctx != NULL && src != NULL && tfx_context_set_json(ctx, "v", text, n, error) == 0)
        r = tfx_evaluate(src, ctx, NULL);
    if (r != NULL && !tfx_result_has_errors(r)) {
        char *json = tfx_result_json(r);

        value = json != NULL ? json_loads(json, 0, NULL) : NULL;
        tfx_free(json);
    }
    tfx_result_free(r);
    tfx_source_free(src);
    tfx_context_free(ctx);
    return value;
}

/* [varfile.env] (console) TF_VAR_NAME=VALUE: var.NAME, the string VALUE,
 * below everything else. */
static void load_env(gather *g)
{
    char **e;

    for (e = environ; *e != NULL; e++) {
        const char *eq;
        json_t *v;
        char *name;

        if (strncmp(*e, "TF_VAR_", 7) != 0 || (eq = strchr(*e, '=')) == NULL || eq == *e + 7)
            continue;
        v = json_pack("{s:s,s:s}", "type", "string", "v", eq + 1);
        name = strndup(*e + 7, (size_t)(eq - *e - 7));
        if (v != NULL && name != NULL)
            json_object_set_new(g->tfvars, name, v);
        else
            json_decref(v);   /* not UTF-8: left out */
        free(name);
    }
}

/* Defines var from g->tfvars: an object of their types and values. */
static int define_var(gather *g)
{
    json_t *types = json_object();
    json_t *vals = json_object();
    json_t *var = NULL;
    const char *name;
    json_t *tv;
    char *text = NULL;
    char *error = NULL;
    int ok;

    json_object_foreach(g->tfvars, name, tv) {
        json_t *node = json_deep_copy(tv);

        json_object_set(types, name, json_object_get(tv, "type"));
        json_object_del(node, "type");
        json_object_set_new(vals, name, node);
    }
    var = json_pack("{s:[s,o],s:o}", "type", "object", types, "v", vals);
    text = var != NULL ? json_dumps(var, JSON_COMPACT) : NULL;
    ok = text != NULL && tfx_context_set_typed(g->ctx, "var", text, strlen(text), &error) == 0;
    if (!ok)
        cli_msg("tfexpr %s: var: %s\n", g->o->cmd, error != NULL ? error : "out of memory");
    else
        note_type(g, "var");
    tfx_free(error);
    free(text);
    json_decref(var);
    return ok;
}

/* The type, in cty's JSON type syntax, of variable `name` of ctx; NULL if
 * it has none (a name that is no identifier cannot be referred to). */
static json_t *type_of(const tfx_context *ctx, const char *name)
{
    tfx_source *src = tfx_source_parse("<variable>", name, strlen(name), TFX_MODE_EXPRESSION,
                                       NULL);
    tfx_result *r = NULL;
    json_t *type = NULL;

    if (src != NULL && !tfx_source_has_errors(src))
        r = tfx_evaluate(src, ctx, NULL);
    if (r != NULL && !tfx_result_has_errors(r)) {
        char *text = tfx_result_type_json(r);

        if (text != NULL)
            type = json_loads(text, JSON_DECODE_ANY, NULL);
        tfx_free(text);
    }
    tfx_result_free(r);
    tfx_source_free(src);
    return type;
}

/* check: notes the type of variable `name`, just defined in g->ctx. */
static void note_type(gather *g, const char *name)
{
    json_t *type;

    if (g->types == NULL)
        return;
    type = type_of(g->ctx, name);
    if (type != NULL)
        json_object_set_new(g->types, name, type);
}

/* The text of the file of an option; NULL after a message. */
static char *read_option_file(const gather *g, const char *path, size_t *n)
{
    char *text = cli_read_file(path, n);

    if (text == NULL)
        cli_msg("tfexpr %s: cannot read %s\n", g->o->cmd, path);
    return text;
}

/* Says why the file of an option was refused. */
static void refused(const gather *g, const char *path, const char *error)
{
    cli_msg("tfexpr %s: %s: %s\n", g->o->cmd, path, error != NULL ? error : "out of memory");
}

/* --vars FILE.json: a JSON object of NAME -> typed value. */
static int load_vars_file(gather *g, const char *path)
{
    size_t n;
    char *error = NULL;
    char *text = read_option_file(g, path, &n);
    int ok;

    if (text == NULL)
        return 0;
    ok = tfx_context_set_typed_all(g->ctx, text, n, &error) == 0;
    if (!ok)
        refused(g, path, error);
    if (ok && g->types != NULL) {
        json_t *all = json_loadb(text, n, 0, NULL);
        const char *name;
        json_t *v;

        json_object_foreach(all, name, v) {
            note_type(g, name);
        }
        json_decref(all);
    }
    tfx_free(error);
    free(text);
    return ok;
}

/* --var NAME=JSON. */
static int load_var(gather *g, const char *arg)
{
    const char *eq = strchr(arg, '=');
    char *name;
    char *error = NULL;
    int ok;

    if (eq == NULL || eq == arg) {
        cli_msg("tfexpr %s: --var needs NAME=JSON, got '%s'\n", g->o->cmd, arg);
        return 0;
    }
    if (strncmp(arg, "var.", 4) == 0 || (g->o->takes & TAKES_CONSOLE)) {
        /* [varfile.var] var.NAME: an attribute of var */
        const char *start = strncmp(arg, "var.", 4) == 0 ? arg + 4 : arg;
        json_t *v;

        if (start == eq) {
            cli_msg("tfexpr %s: --var needs NAME=JSON, got '%s'\n", g->o->cmd, arg);
            return 0;
        }
        name = strndup(start, (size_t)(eq - start));
        v = name != NULL ? typed_from_json(eq + 1, strlen(eq + 1), &error) : NULL;
        ok = v != NULL;
        if (ok)
            json_object_set_new(g->tfvars, name, v);
        else
            cli_msg("tfexpr %s: --var %s: %s\n", g->o->cmd, arg,
                    error != NULL ? error : "out of memory");
        tfx_free(error);
        free(name);
        return ok;
    }
    name = strndup(arg, (size_t)(eq - arg));
    if (name == NULL)
        return 0;
    ok = tfx_context_set_json(g->ctx, name, eq + 1, strlen(eq + 1), &error) == 0;
    if (!ok)
        cli_msg("tfexpr %s: --var %s: %s\n", g->o->cmd, name, error != NULL ? error : "out of memory");
    else
        note_type(g, name);
    tfx_free(error);
    free(name);
    return ok;
}

/* --vars-types FILE.json: a JSON object of NAME -> type (check). */
static int load_types_file(gather *g, tfx_context *ctx, const char *path)
{
    size_t n;
    char *error = NULL;
    char *text = read_option_file(g, path, &n);
    int ok;

    if (text == NULL)
        return 0;
    /* checked on its own, for the message; then merged in order */
    ok = tfx_context_set_unknown_all(ctx, text, n, &error) == 0;
    if (!ok)
        refused(g, path, error);
    else {
        json_t *all = json_loadb(text, n, 0, NULL);

        if (json_is_object(all))
            json_object_update(g->types, all);
        json_decref(all);
    }
    tfx_free(error);
    free(text);
    return ok;
}

int cli_vars_load(const cli_opts *o, tfx_context *ctx, int types_only)
{
    gather g = {o, ctx, NULL, json_object()};
    int ok = g.tfvars != NULL;
    int input_errors = 0;
    size_t i;

    if (types_only) {
        g.ctx = tfx_context_new();
        if (g.ctx != NULL)
            tfx_context_set_profile(g.ctx, o->profile); /* [profile.option] */
        g.types = json_object();
        if (g.ctx == NULL || g.types == NULL) {
            cli_msg("tfexpr %s: out of memory\n", o->cmd);
            tfx_context_free(g.ctx);
            json_decref(g.types);
            json_decref(g.tfvars);
            return EXIT_USAGE;
        }
    }
    if (ok && (o->takes & TAKES_CONSOLE))
        load_env(&g);
    for (i = 0; i < o->nvar && ok; i++) {
        const char *opt = o->argv[o->var_opts[i]];
        const char *arg = o->argv[o->var_opts[i] + 1];

        if (strcmp(opt, "--vars") == 0)
            ok = load_vars_file(&g, arg);
        else if (strcmp(opt, "--var") == 0)
            ok = load_var(&g, arg);
        else if (strcmp(opt, "--var-file") == 0) {
            int rc = cli_varfile_load(o->cmd, arg, g.tfvars, o->profile);

            ok = rc > 0;
            input_errors = rc < 0;
        }
        else if (strcmp(opt, "--vars-types") == 0)
            ok = load_types_file(&g, ctx, arg);
    }
    /* [varfile.var] var, when anything defines it (always in the console) */
    if (ok && ((o->takes & TAKES_CONSOLE) || json_object_size(g.tfvars) > 0))
        ok = define_var(&g);
    json_decref(g.tfvars);
    if (types_only) {
        if (ok && json_object_size(g.types) > 0) {
            char *text = json_dumps(g.types, JSON_COMPACT);
            char *error = NULL;

            ok = text != NULL && tfx_context_set_unknown_all(ctx, text, strlen(text), &error) == 0;
            if (!ok)
                cli_msg("tfexpr %s: %s\n", o->cmd, error != NULL ? error : "out of memory");
            tfx_free(error);
            free(text);
        }
        tfx_context_free(g.ctx);
        json_decref(g.types);
    }
    return ok ? EXIT_SUCCESS : input_errors ? EXIT_INPUT_ERRORS : EXIT_USAGE;
}
