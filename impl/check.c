/* SPDX-License-Identifier: MPL-2.0 */
/*
 * check.c — contexts of typed unknowns, for the static type check of
 * `tfexpr check` (spec/references.md, rules check.*).
 *
 * Written against the public API (tfexpr.h); uses jansson (as adapter.c
 * does) only to take the name -> type object apart.
 */
#include "tfexpr.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A message in malloc'd memory: "PREFIX: TEXT". */
static void set_message(char **error, const char *prefix, const char *text)
{
    size_t n;

    if (error == NULL)
        return;
    n = strlen(prefix) + strlen(text) + 3;
    *error = malloc(n);
    if (*error != NULL)
        snprintf(*error, n, "%s: %s", prefix, text);
}

/* [check.types] Each variable an unknown value of its type. */
TFX_API int tfx_context_set_unknown_all(tfx_context *ctx, const char *json, size_t nbytes,
                                        char **error)
{
    json_error_t jerr;
    json_t *root = json_loadb(json, nbytes, JSON_REJECT_DUPLICATES, &jerr);
    const char *name;
    json_t *type;
    int status = 0;

    if (error != NULL)
        *error = NULL;
    if (root == NULL || !json_is_object(root)) {
        set_message(error, "types", root == NULL ? jerr.text : "not a JSON object of name -> type");
        json_decref(root);
        return -1;
    }
    json_object_foreach(root, name, type) {
        json_t *typed = json_pack("{sOsb}", "type", type, "unknown", 1);
        char *text = typed != NULL ? json_dumps(typed, JSON_COMPACT) : NULL;
        char *msg = NULL;

        json_decref(typed);
        if (text == NULL) {
            set_message(error, name, "out of memory");
            status = -1;
            break;
        }
        if (tfx_context_set_typed(ctx, name, text, strlen(text), &msg) != 0) {
            set_message(error, name, msg != NULL ? msg : "out of memory");
            tfx_free(msg);
            free(text);
            status = -1;
            break;
        }
        free(text);
    }
    json_decref(root);
    return status;
}
