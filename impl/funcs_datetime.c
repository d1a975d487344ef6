/*
 * funcs_datetime.c — the date and time functions formatdate and timeadd:
 * cty 1.12.1's stdlib FormatDateFunc and TimeAddFunc, which Terraform
 * registers as they are.
 */
#include <stddef.h>

#include "funcs_internal.h"

/* The functions this file registers [call.builtins], sorted by name. */
const tfx_builtin tfx_builtins_datetime[] = {
    {NULL, NULL},
};
