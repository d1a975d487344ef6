/* SPDX-License-Identifier: MPL-2.0 */
/*
 * rsakey.h — rsadecrypt's machinery (spec/functions-crypto.md, rules
 * fn.rsadecrypt.*): Go's base64 StdEncoding decoder, the private key
 * parser of x/crypto/ssh 0.4.0's ParseRawPrivateKey (PEM; PKCS #1,
 * PKCS #8, SEC 1 EC, DSA and openssh-key-v1 keys, with the errors of Go
 * 1.19's encoding/pem, encoding/asn1, crypto/x509 and crypto/rsa) and RSA
 * PKCS #1 v1.5 decryption (Nettle's hogweed).
 *
 * Everything is allocated in the ctx's arena; the GMP numbers a parse or
 * a decryption works with are freed before it returns, also when a limit
 * fails it (the failure is raised again afterwards).
 */
#ifndef TFX_RSAKEY_H
#define TFX_RSAKEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctx.h"

/* [fn.rsadecrypt.base64] Go's base64.StdEncoding.DecodeString of
 * s[0..n): "\r" and "\n" are skipped, every other byte must be of the
 * standard alphabet, and the text must end in whole groups of four, the
 * last one padded with "=" as needed.  Returns the bytes (arena) and their
 * count in *out_n, or NULL when the text is not such base64. */
uint8_t *tfx_go_base64_decode(tfx_ctx *ctx, const char *s, size_t n, size_t *out_n);

/* A parsed RSA private key: big-endian magnitudes (arena) of the modulus,
 * the private exponent and the primes, and the public exponent (Go's
 * int; Validate has accepted it). */
typedef struct {
    const uint8_t *n, *d;
    size_t nn, nd;
    int64_t e;
    size_t nprimes;             /* 2 or more */
    const uint8_t **primes;
    size_t *nprime;
} tfx_rsakey;

/* What tfx_rsakey_parse found. */
typedef enum {
    TFX_RSAKEY_OK,       /* *key is an RSA private key */
    TFX_RSAKEY_INVALID,  /* *message: the key does not parse [fn.rsadecrypt.key] */
    TFX_RSAKEY_NOT_RSA   /* *message: a key of another type [fn.rsadecrypt.not-rsa] */
} tfx_rsakey_status;

/* Parses pem[0..n) as x/crypto/ssh's ParseRawPrivateKey does, and words
 * its errors as Terraform's rsadecrypt does (the whole text of its
 * argument error, in *message). */
tfx_rsakey_status tfx_rsakey_parse(tfx_ctx *ctx, const char *pem, size_t n, tfx_rsakey *key,
                                   const char **message);

/* [fn.rsadecrypt.decrypt] Go 1.19's rsa.DecryptPKCS1v15 of c[0..nc)
 * with key (Go 1.23's when ctx->pn: [fn.rsadecrypt.decrypt.pn]): true and
 * the plaintext (arena) in *out / *out_n, or false with Go's error text
 * in *message ("crypto/rsa: decryption error"). */
bool tfx_rsakey_decrypt(tfx_ctx *ctx, const tfx_rsakey *key, const uint8_t *c, size_t nc,
                        uint8_t **out, size_t *out_n, const char **message);

#endif /* TFX_RSAKEY_H */
