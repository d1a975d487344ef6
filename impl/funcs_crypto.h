/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_crypto.h — bcrypt's hash for the host step (funcs_crypto.c;
 * spec/functions-crypto.md, rules fn.bcrypt.*).  bcrypt(str[, cost]) is
 * registered with the host interface, which supplies the 16 random salt
 * bytes; this is the hash once they are known.
 */
#ifndef TFX_FUNCS_CRYPTO_H
#define TFX_FUNCS_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

#include "ctx.h"

/* Go's x/crypto bcrypt.GenerateFromPassword(password[0..n), cost) with
 * the salt bytes salt[0..16), as Terraform's bcrypt reports it: the
 * "$2a$" hash (60 bytes, NUL-terminated, arena), or NULL with the text of
 * Terraform's call error in *error ("error occured generating password
 * ..."): a password over 72 bytes, then a cost over 31.  A cost below 4
 * means 10 (the caller converts the cost argument to a Go int first and
 * reports its own errors, and defaults it to 10). */
const char *tfx_crypto_bcrypt(tfx_ctx *ctx, const char *password, size_t n, int64_t cost,
                              const uint8_t salt[16], const char **error);

#endif /* TFX_FUNCS_CRYPTO_H */
