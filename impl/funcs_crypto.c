/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_crypto.c — the hash and crypto functions md5, sha1, sha256, sha512, base64sha256, base64sha512, uuidv5, bcrypt and rsadecrypt.
 *
 * Terraform's own functions (its internal/lang/funcs/crypto.go), rules
 * fn.crypto.* of spec/functions-crypto.md.  The hashes are Nettle's;
 * rsadecrypt's key parser and decryption are in rsakey.c; bcrypt's hash
 * is libxcrypt's crypt_rn (Nettle's bcrypt for a password holding NUL),
 * given the salt (tfx_crypto_bcrypt; bcrypt is registered with the host
 * interface, which supplies the random salt).
 */
#include <crypt.h>
#include <nettle/base64.h>
#include <nettle/blowfish.h>
#include <nettle/md5.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common.h"
#include "funcs_crypto.h"
#include "funcs_internal.h"
#include "rsakey.h"

/* The one parameter of the string hashes: a plain string (no null,
 * unknown, dynamic or marks: the machinery's rules apply) [fn.crypto.params]. */
static const tfx_param str_param[] = {
    {.name = "str", .type = &tfx_type_str},
};

typedef enum { HASH_MD5, HASH_SHA1, HASH_SHA256, HASH_SHA512 } hash_kind;

/* The digest of s[0..n) into out (64 bytes at most); its length. */
static size_t digest(hash_kind kind, const char *s, size_t n, uint8_t *out)
{
    switch (kind) {
    case HASH_MD5: {
        struct md5_ctx c;

        md5_init(&c);
        md5_update(&c, n, (const uint8_t *)s);
        md5_digest(&c, MD5_DIGEST_SIZE, out);
        return MD5_DIGEST_SIZE;
    }
    case HASH_SHA1: {
        struct sha1_ctx c;

        sha1_init(&c);
        sha1_update(&c, n, (const uint8_t *)s);
        sha1_digest(&c, SHA1_DIGEST_SIZE, out);
        return SHA1_DIGEST_SIZE;
    }
    case HASH_SHA256: {
        struct sha256_ctx c;

        sha256_init(&c);
        sha256_update(&c, n, (const uint8_t *)s);
        sha256_digest(&c, SHA256_DIGEST_SIZE, out);
        return SHA256_DIGEST_SIZE;
    }
    default: {
        struct sha512_ctx c;

        sha512_init(&c);
        sha512_update(&c, n, (const uint8_t *)s);
        sha512_digest(&c, SHA512_DIGEST_SIZE, out);
        return SHA512_DIGEST_SIZE;
    }
    }
}

/* Lower-case hex of b[0..n) into out (2n bytes). */
static void hex(const uint8_t *b, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";

    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
}

/* [fn.crypto.hash] [fn.crypto.hex] [fn.crypto.base64] The digest of the
 * string's bytes (UTF-8, NFC: every string value is), as lower-case hex
 * or as standard padded base64. */
static const tfx_value *hash_value(tfx_ctx *ctx, const tfx_value *str, hash_kind kind, bool b64)
{
    uint8_t d[SHA512_DIGEST_SIZE];
    size_t nd = digest(kind, str->as.string.s, str->as.string.nbytes, d);
    char *out;
    size_t nout;

    if (b64) {
        nout = BASE64_ENCODE_RAW_LENGTH(nd);
        out = tfx_ctx_alloc(ctx, nout + 1);
        base64_encode_raw(out, nd, d);
    } else {
        nout = 2 * nd;
        out = tfx_ctx_alloc(ctx, nout + 1);
        hex(d, nd, out);
    }
    return tfx_value_string_raw(ctx, out, nout);
}

#define HASH_IMPL(fname, kind, b64)                                                           \
    static const tfx_value *fname(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret, \
                                  const tfx_value *const *args, size_t nargs,                \
                                  tfx_func_error *err)                                       \
    {                                                                                        \
        TFX_UNUSED(fn);                                                                      \
        TFX_UNUSED(ret);                                                                     \
        TFX_UNUSED(nargs);                                                                   \
        TFX_UNUSED(err);                                                                     \
        return hash_value(ctx, args[0], kind, b64);                                          \
    }

HASH_IMPL(md5_impl, HASH_MD5, false)
HASH_IMPL(sha1_impl, HASH_SHA1, false)
HASH_IMPL(sha256_impl, HASH_SHA256, false)
HASH_IMPL(sha512_impl, HASH_SHA512, false)
HASH_IMPL(base64sha256_impl, HASH_SHA256, true)
HASH_IMPL(base64sha512_impl, HASH_SHA512, true)

/* ---- uuidv5 ---- */

static const tfx_param uuidv5_params[] = {
    {.name = "namespace", .type = &tfx_type_str},
    {.name = "name", .type = &tfx_type_str},
};

/* google/uuid's xtob of one hex digit: its value, or -1. */
static int xdigit(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static bool xtob(const char *s, uint8_t *out)
{
    int hi = xdigit((unsigned char)s[0]), lo = xdigit((unsigned char)s[1]);

    if (hi < 0 || lo < 0)
        return false;
    *out = (uint8_t)(hi << 4 | lo);
    return true;
}

/* [fn.uuidv5.parse] google/uuid 1.3.0's Parse: by the length in bytes, 36
 * (hyphenated), 45 ("urn:uuid:" in any case, then hyphenated), 38 (one
 * byte of any kind, the hyphenated form, and one more: the braces are not
 * checked) or 32 (hex digits only).  NULL and the UUID in out, or the
 * error's text. */
static const char *uuid_parse(tfx_ctx *ctx, const char *s, size_t n, uint8_t out[16])
{
    static const int at[16] = {0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34};

    switch (n) {
    case 36:
        break;
    case 45: {
        static const char urn[] = "urn:uuid:";

        for (size_t i = 0; i < 9; i++) {
            unsigned char c = (unsigned char)s[i];

            if (c >= 'A' && c <= 'Z')
                c = (unsigned char)(c - 'A' + 'a');
            if (c != (unsigned char)urn[i])
                return tfx_ctx_printf(ctx, "invalid urn prefix: %s", tfx_textbuf_quoted(ctx, s, 9));
        }
        s += 9;
        break;
    }
    case 38:
        s += 1;
        break;
    case 32:
        for (size_t i = 0; i < 16; i++)
            if (!xtob(s + 2 * i, &out[i]))
                return "invalid UUID format";
        return NULL;
    default:
        return tfx_ctx_printf(ctx, "invalid UUID length: %zu", n);
    }
    if (s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-')
        return "invalid UUID format";
    for (size_t i = 0; i < 16; i++)
        if (!xtob(s + at[i], &out[i]))
            return "invalid UUID format";
    return NULL;
}

/* [fn.uuidv5.namespace] [fn.uuidv5.result] The namespace ("dns", "url",
 * "oid", "x500" or a UUID Parse accepts), then google/uuid's NewSHA1:
 * SHA-1 of the namespace's 16 bytes and the name's, its first 16 bytes
 * with version 5 and the RFC 4122 variant, written 8-4-4-4-12 in
 * lower-case hex. */
static const tfx_value *uuidv5_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    static const uint8_t base[16] = {0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1,
                                     0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8};
    const tfx_str ns = args[0]->as.string;
    const tfx_str name = args[1]->as.string;
    uint8_t space[16];
    uint8_t h[SHA1_DIGEST_SIZE];
    struct sha1_ctx c;
    char *out;
    size_t o = 0;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    memcpy(space, base, 16);
    if (ns.nbytes == 3 && memcmp(ns.s, "dns", 3) == 0) {
        /* 6ba7b810-... */
    } else if (ns.nbytes == 3 && memcmp(ns.s, "url", 3) == 0) {
        space[3] = 0x11;
    } else if (ns.nbytes == 3 && memcmp(ns.s, "oid", 3) == 0) {
        space[3] = 0x12;
    } else if (ns.nbytes == 4 && memcmp(ns.s, "x500", 4) == 0) {
        space[3] = 0x14;
    } else {
        const char *perr = uuid_parse(ctx, ns.s, ns.nbytes, space);

        if (perr != NULL) {
            /* [fn.uuidv5.error] */
            tfx_textbuf t;

            tfx_textbuf_init(&t, ctx);
            tfx_textbuf_puts(&t, "uuidv5() doesn't support namespace ");
            tfx_textbuf_put(&t, ns.s, ns.nbytes);
            tfx_textbuf_printf(&t, " (%s)", perr);
            return tfx_fn_error(err, tfx_textbuf_text(&t));
        }
    }
    sha1_init(&c);
    sha1_update(&c, 16, space);
    sha1_update(&c, name.nbytes, (const uint8_t *)name.s);
    sha1_digest(&c, SHA1_DIGEST_SIZE, h);
    h[6] = (uint8_t)((h[6] & 0x0f) | 0x50);
    h[8] = (uint8_t)((h[8] & 0x3f) | 0x80);
    out = tfx_ctx_alloc(ctx, 37);
    for (size_t i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out[o++] = '-';
        hex(h + i, 1, out + o);
        o += 2;
    }
    return tfx_value_string_raw(ctx, out, o);
}

/* ---- rsadecrypt ---- */

static const tfx_param rsadecrypt_params[] = {
    {.name = "ciphertext", .type = &tfx_type_str},
    {.name = "privatekey", .type = &tfx_type_str},
};

/* [fn.rsadecrypt] The ciphertext's base64 first (an argument error quoting
 * it), then the key (an argument error of the second argument), then the
 * decryption (a plain error); the plaintext's bytes become the string
 * (cty.StringVal: NFC; bytes that are not UTF-8 are kept). */
static const tfx_value *rsadecrypt_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                        const tfx_value *const *args, size_t nargs,
                                        tfx_func_error *err)
{
    const tfx_str text = args[0]->as.string;
    const tfx_str pem = args[1]->as.string;
    size_t nc = 0;
    uint8_t *c;
    tfx_rsakey key;
    const char *msg = NULL;
    uint8_t *plain = NULL;
    size_t nplain = 0;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    c = tfx_go_base64_decode(ctx, text.s, text.nbytes, &nc);
    if (c == NULL)
        return tfx_fn_arg_error(
            err, 0,
            tfx_ctx_printf(ctx, "failed to decode input %s: cipher text must be base64-encoded",
                           tfx_textbuf_quoted(ctx, text.s, text.nbytes)));
    if (tfx_rsakey_parse(ctx, pem.s, pem.nbytes, &key, &msg) != TFX_RSAKEY_OK)
        return tfx_fn_arg_error(err, 1, msg);
    if (!tfx_rsakey_decrypt(ctx, &key, c, nc, &plain, &nplain, &msg)) {
        if (strncmp(msg, "panic in function implementation", 32) == 0)
            return tfx_fn_error(err, msg);
        return tfx_fn_error(err, tfx_ctx_printf(ctx, "failed to decrypt: %s", msg));
    }
    return tfx_value_string(ctx, (const char *)plain, nplain);
}

/* ---- bcrypt's hash ---- */

/* [fn.bcrypt.cost] [fn.bcrypt.length] [fn.bcrypt.hash] */
const char *tfx_crypto_bcrypt(tfx_ctx *ctx, const char *password, size_t n, int64_t cost,
                              const uint8_t salt[16], const char **error)
{
    char setting[CRYPT_GENSALT_OUTPUT_SIZE];
    struct crypt_data *data;
    char *phrase;
    const char *hashed;

    *error = NULL;
    if (n > 72) {
        *error = "error occured generating password bcrypt: password length exceeds 72 bytes";
        return NULL;
    }
    if (cost < 4)
        cost = 10;
    if (cost > 31) {
        *error = tfx_ctx_printf(ctx,
                                "error occured generating password crypto/bcrypt: cost %lld is "
                                "outside allowed range (4,31)",
                                (long long)cost);
        return NULL;
    }
    if (crypt_gensalt_rn("$2a$", (unsigned long)cost, (const char *)salt, 16, setting,
                         (int)sizeof setting) == NULL) {
        *error = "error occured generating password: the salt could not be encoded";
        return NULL;
    }
    if (memchr(password, '\0', n) != NULL) {
        /* [fn.bcrypt.nul] Go keys Blowfish with every byte of the
         * password, a NUL included; crypt_rn reads a C string, so a
         * password holding NUL goes to Nettle's bcrypt, which takes the
         * length. */
        uint8_t *out = tfx_ctx_alloc(ctx, BLOWFISH_BCRYPT_HASH_SIZE + 1);

        if (!blowfish_bcrypt_hash(out, n, (const uint8_t *)password, strlen(setting),
                                  (const uint8_t *)setting, -1, NULL)) {
            *error = "error occured generating password: the hash failed";
            return NULL;
        }
        return (const char *)out;
    }
    phrase = tfx_ctx_strndup(ctx, password, n);
    data = tfx_ctx_alloc(ctx, sizeof *data);
    hashed = crypt_rn(phrase, setting, data, (int)sizeof *data);
    if (hashed == NULL || hashed[0] == '*') {
        *error = "error occured generating password: the hash failed";
        return NULL;
    }
    return tfx_ctx_strndup(ctx, hashed, strlen(hashed));
}

/* ---- The table ---- */

#define CRYPTO_FN(var, fname, plist, impl_fn)                                    \
    static const tfx_function var = {.name = (fname),                            \
                                     .params = (plist),                          \
                                     .nparams = TFX_COUNTOF(plist),              \
                                     .varparam = NULL,                           \
                                     .type = NULL,                               \
                                     .ret_type = &tfx_type_str,                  \
                                     .impl = (impl_fn)}

CRYPTO_FN(fn_base64sha256, "base64sha256", str_param, base64sha256_impl);
CRYPTO_FN(fn_base64sha512, "base64sha512", str_param, base64sha512_impl);
CRYPTO_FN(fn_md5, "md5", str_param, md5_impl);
CRYPTO_FN(fn_rsadecrypt, "rsadecrypt", rsadecrypt_params, rsadecrypt_impl);
CRYPTO_FN(fn_sha1, "sha1", str_param, sha1_impl);
CRYPTO_FN(fn_sha256, "sha256", str_param, sha256_impl);
CRYPTO_FN(fn_sha512, "sha512", str_param, sha512_impl);
CRYPTO_FN(fn_uuidv5, "uuidv5", uuidv5_params, uuidv5_impl);

const tfx_builtin tfx_builtins_crypto[] = {
    {"base64sha256", &fn_base64sha256},
    {"base64sha512", &fn_base64sha512},
    {"md5", &fn_md5},
    {"rsadecrypt", &fn_rsadecrypt},
    {"sha1", &fn_sha1},
    {"sha256", &fn_sha256},
    {"sha512", &fn_sha512},
    {"uuidv5", &fn_uuidv5},
    {NULL, NULL},
};
