/*
 * funcs_cidr.c — the IP network functions cidrhost, cidrnetmask, cidrsubnet and cidrsubnets.
 */
#include <stddef.h>

#include "funcs_internal.h"

const tfx_builtin tfx_builtins_cidr[] = {
    {NULL, NULL},
};
