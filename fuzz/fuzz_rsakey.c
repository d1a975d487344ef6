/* SPDX-License-Identifier: MPL-2.0 */
/*
 * fuzz_rsakey.c — rsadecrypt's private key parser and decryption
 * (impl/rsakey.h) on arbitrary keys and ciphertexts.
 *
 * Input: a mode byte, then data.  Mode % 8 below 5: the data is DER (or
 * openssh-key-v1 bytes) wrapped in a PEM block of type RSA PRIVATE KEY,
 * PRIVATE KEY, EC PRIVATE KEY, DSA PRIVATE KEY or OPENSSH PRIVATE KEY
 * (mode 0..4); otherwise the data is the key text itself (PEM framing,
 * headers, base64 and all).  When the mode's high bit is set, the last
 * byte of the data gives the length of a ciphertext taken from the end of
 * the data (decrypted when the key parses); otherwise a fixed one.
 * Limits: 2,000,000 steps and 64 MiB of memory per run.
 * Properties:
 *   - the parse ends with a status of rsakey.h, and a message exactly when
 *     the key is refused, which starts as Terraform's messages do;
 *   - an accepted key has two or more primes, a modulus and a public
 *     exponent in crypto/rsa's range;
 *   - a decryption gives a plaintext no longer than the modulus's size
 *     less 11, or Go's error text;
 *   - Go's base64 reader gives at most 3 bytes per 4 characters;
 *   - everything is deterministic: a second run in a fresh context gives
 *     the same status, message and plaintext;
 *   - the work is bounded (the limits end it, without a leak of the GMP
 *     numbers in flight); nothing leaks (LSan) or crashes (ASan, UBSan).
 */
#include <nettle/base64.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "fuzz_common.h"
#include "rsakey.h"

typedef struct {
    const char *pem;
    size_t npem;
    const uint8_t *ct;
    size_t nct;
    /* outcome */
    tfx_rsakey_status status;
    const char *message;
    bool decrypted;
    const char *plain;     /* the plaintext, or the decryption's error */
    size_t nplain;
} run;

static const char *const types[] = {"RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY",
                                    "DSA PRIVATE KEY", "OPENSSH PRIVATE KEY"};

static const char *const prefixes[] = {"invalid private key: ", "invalid private key type ",
                                       "invalid ASN1 data in the given private key",
                                       "asn1: structure error: "};

static void body(tfx_ctx *ctx, void *arg)
{
    run *r = arg;
    tfx_rsakey key;
    size_t nb = 0;
    uint8_t *b;

    r->status = tfx_rsakey_parse(ctx, r->pem, r->npem, &key, &r->message);
    if (r->status == TFX_RSAKEY_OK) {
        if (r->message != NULL)
            fuzz_fail("an accepted key with a message: %s", r->message);
        if (key.nprimes < 2 || key.nn == 0 || key.e < 2 || key.e > 2147483647)
            fuzz_fail("an accepted key out of range: %zu primes, %zu bytes, e %lld", key.nprimes,
                      key.nn, (long long)key.e);
        {
            uint8_t *out = NULL;
            size_t nout = 0;
            const char *msg = NULL;

            r->decrypted = tfx_rsakey_decrypt(ctx, &key, r->ct, r->nct, &out, &nout, &msg);
            if (r->decrypted) {
                if (key.nn < 11 || nout > key.nn - 11)
                    fuzz_fail("a plaintext of %zu bytes from a key of %zu", nout, key.nn);
                r->plain = (const char *)out;
                r->nplain = nout;
            } else {
                if (msg == NULL || (strcmp(msg, "crypto/rsa: decryption error") != 0 &&
                                    strncmp(msg, "panic in function implementation", 32) != 0))
                    fuzz_fail("a decryption error %s", msg ? msg : "(none)");
                r->plain = msg;
                r->nplain = strlen(msg);
            }
        }
    } else {
        bool known = false;

        if (r->status != TFX_RSAKEY_INVALID && r->status != TFX_RSAKEY_NOT_RSA)
            fuzz_fail("status %d", (int)r->status);
        if (r->message == NULL)
            fuzz_fail("a refused key without a message");
        for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
            known = known || strncmp(r->message, prefixes[i], strlen(prefixes[i])) == 0;
        if (!known)
            fuzz_fail("a message of no known form: %s", r->message);
    }
    /* Go's base64 reader on the raw text */
    b = tfx_go_base64_decode(ctx, r->pem, r->npem, &nb);
    if (b != NULL && nb > r->npem / 4 * 3)
        fuzz_fail("%zu bytes from %zu characters of base64", nb, r->npem);
}

/* Runs r in a fresh context; returns false when a limit ended it. */
static bool once(run *r, tfx_ctx *ctx)
{
    tfx_ctx_limits limits;

    tfx_ctx_limits_init(&limits);
    limits.max_steps = 2000000;
    limits.max_memory_bytes = FUZZ_MAX_MEMORY;
    if (!tfx_ctx_init(ctx, &limits))
        fuzz_fail("no memory for a context");
    return tfx_ctx_try(ctx, body, r);
}

static bool same_text(const char *a, size_t na, const char *b, size_t nb)
{
    if (a == NULL || b == NULL)
        return a == b;
    return na == nb && memcmp(a, b, na) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t fixed_ct[] = {0x01, 0x02, 0x03};
    run r1, r2;
    tfx_ctx c1, c2;
    bool ok1, ok2;
    char *text = NULL;
    unsigned mode;

    if (size == 0)
        return 0;
    mode = data[0];
    data++;
    size--;
    memset(&r1, 0, sizeof r1);
    r1.ct = fixed_ct;
    r1.nct = sizeof fixed_ct;
    if ((mode & 0x80) && size > 0) {
        size_t n = data[size - 1];

        size--;
        if (n > size)
            n = size;
        r1.ct = data + size - n;
        r1.nct = n;
        size -= n;
    }
    if (mode % 8 < 5) {
        const char *type = types[mode % 8];
        size_t nb64 = BASE64_ENCODE_RAW_LENGTH(size);
        size_t cap = 2 * strlen(type) + nb64 + nb64 / 64 + 40;
        size_t o = 0;
        char *b64 = malloc(nb64 + 1);

        text = malloc(cap);
        if (b64 == NULL || text == NULL)
            fuzz_fail("no memory");
        base64_encode_raw(b64, size, data);
        o += (size_t)sprintf(text + o, "-----BEGIN %s-----\n", type);
        for (size_t i = 0; i < nb64; i += 64) {
            size_t k = nb64 - i < 64 ? nb64 - i : 64;

            memcpy(text + o, b64 + i, k);
            o += k;
            text[o++] = '\n';
        }
        o += (size_t)sprintf(text + o, "-----END %s-----\n", type);
        free(b64);
        r1.pem = text;
        r1.npem = o;
    } else {
        r1.pem = (const char *)data;
        r1.npem = size;
    }
    r2 = r1;
    ok1 = once(&r1, &c1);
    ok2 = once(&r2, &c2);
    if (ok1 != ok2)
        fuzz_fail("a limit ended one run of two");
    if (ok1) {
        if (r1.status != r2.status || !same_text(r1.message, r1.message ? strlen(r1.message) : 0,
                                                 r2.message, r2.message ? strlen(r2.message) : 0))
            fuzz_fail("two runs disagree: %s / %s", r1.message ? r1.message : "-",
                      r2.message ? r2.message : "-");
        if (r1.decrypted != r2.decrypted || !same_text(r1.plain, r1.nplain, r2.plain, r2.nplain))
            fuzz_fail("two decryptions disagree");
    } else if (strcmp(c1.fail_summary, c2.fail_summary) != 0) {
        fuzz_fail("two runs fail differently: %s / %s", c1.fail_summary, c2.fail_summary);
    }
    tfx_ctx_free(&c1);
    tfx_ctx_free(&c2);
    free(text);
    return 0;
}
