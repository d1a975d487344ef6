/*
 * funcs_yaml.c — yamldecode and yamlencode (go-cty-yaml's rules, on libyaml).
 */
#include <stddef.h>

#include "funcs_internal.h"

const tfx_builtin tfx_builtins_yaml[] = {
    {NULL, NULL},
};
