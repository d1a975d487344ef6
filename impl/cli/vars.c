/* SPDX-License-Identifier: MPL-2.0 */
/*
 * vars.c — the variables of eval, check and console, from the options in
 * the order given: --vars FILE.json (typed values), --var NAME=JSON (plain
 * JSON), --vars-types FILE.json (check: types).  check wants types only:
 * each value is defined in a scratch context, and its type becomes an
 * unknown value of that type in check's context.
 */
#include "cli.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* The variables being gathered. */
typedef struct {
    const cli_opts *o;
    tfx_context *ctx;       /* where values go: the command's, or a scratch one */
    json_t *types;          /* check: name -> type JSON, in order */
} gather;

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

/* --vars FILE.json: a JSON object of NAME -> typed value. */
static int load_vars_file(gather *g, const char *path)
{
    size_t n;
    char *error = NULL;
    char *text = cli_read_file(path, &n);
    int ok;

    if (text == NULL) {
        cli_msg("tfexpr %s: cannot read %s\n", g->o->cmd, path);
        return 0;
    }
    ok = tfx_context_set_typed_all(g->ctx, text, n, &error) == 0;
    if (!ok)
        cli_msg("tfexpr %s: %s: %s\n", g->o->cmd, path, error != NULL ? error : "out of memory");
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
    name = malloc((size_t)(eq - arg) + 1);
    if (name == NULL)
        return 0;
    memcpy(name, arg, (size_t)(eq - arg));
    name[eq - arg] = '\0';
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
    char *text = cli_read_file(path, &n);
    int ok;

    if (text == NULL) {
        cli_msg("tfexpr %s: cannot read %s\n", g->o->cmd, path);
        return 0;
    }
    /* checked on its own, for the message; then merged in order */
    ok = tfx_context_set_unknown_all(ctx, text, n, &error) == 0;
    if (!ok)
        cli_msg("tfexpr %s: %s: %s\n", g->o->cmd, path, error != NULL ? error : "out of memory");
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
    gather g = {o, ctx, NULL};
    int ok = 1;
    size_t i;

    if (types_only) {
        g.ctx = tfx_context_new();
        g.types = json_object();
        if (g.ctx == NULL || g.types == NULL) {
            cli_msg("tfexpr %s: out of memory\n", o->cmd);
            tfx_context_free(g.ctx);
            json_decref(g.types);
            return 0;
        }
    }
    for (i = 0; i < o->nvar && ok; i++) {
        const char *opt = o->argv[o->var_opts[i]];
        const char *arg = o->argv[o->var_opts[i] + 1];

        if (strcmp(opt, "--vars") == 0)
            ok = load_vars_file(&g, arg);
        else if (strcmp(opt, "--var") == 0)
            ok = load_var(&g, arg);
        else if (strcmp(opt, "--vars-types") == 0)
            ok = load_types_file(&g, ctx, arg);
    }
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
    return ok;
}
