/*
 * funcs_closure.c — the functions whose arguments are expressions or type
 * constraints rather than values: try, can, convert, templatestring and
 * type.
 */
#include <stddef.h>

#include "funcs_internal.h"

const tfx_builtin tfx_builtins_terraform[] = {
    {NULL, NULL},
};
