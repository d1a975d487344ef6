/*
 * funcs_format.c — the formatting functions format and formatlist: cty
 * 1.12.1's stdlib FormatFunc and FormatListFunc, which Terraform registers
 * as they are.
 */
#include <stddef.h>

#include "funcs_internal.h"

/* The functions this file registers [call.builtins], sorted by name. */
const tfx_builtin tfx_builtins_format[] = {
    {NULL, NULL},
};
