/*
 * funcs_sensitive.c — Terraform's mark functions sensitive, nonsensitive,
 * issensitive and ephemeralasnull.
 */
#include <stddef.h>

#include "funcs_internal.h"

const tfx_builtin tfx_builtins_sensitive[] = {
    {NULL, NULL},
};
