/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_fn_crypto.c — unit tests of the hash and crypto functions of
 * spec/functions-crypto.md (funcs_crypto.c, rsakey.c): direct calls with
 * tfx_func_call, Go's base64 reader, the key parser on the test keys of
 * impl/test/data/crypto/ and on DER built here, decryption, the step and
 * memory limits of key arithmetic (no leak when they fail), and bcrypt's
 * hash, which no case can reach yet.
 *
 * Expectations marked "ref" were checked against the reference adapter
 * (bin/go-hcl-adapter) with the HCL call in the comment; the bcrypt
 * vectors come from Go 1.19's golang.org/x/crypto/bcrypt (Debian's 0.4.0)
 * GenerateFromPassword with crypto/rand.Reader replaced by the salt bytes.
 * The test keys are test data only (made with openssl and ssh-keygen).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "common.h"
#include "funcs_crypto.h"
#include "funcs_internal.h"
#include "render.h"
#include "rsakey.h"
#include "testval.h"

#define DATA "impl/test/data/crypto/"

/* The contents of a test data file, NUL-terminated, in the arena. */
static const char *file(const char *name)
{
    char path[256];
    FILE *f;
    long n;
    char *buf;

    snprintf(path, sizeof path, DATA "%s", name);
    f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "cannot open %s (run from the checkout's root)\n", path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = tfx_ctx_alloc(C, (size_t)n + 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n)
        buf[0] = '\0';
    fclose(f);
    return buf;
}

/* The parser's message for pem (NULL for an RSA key). */
static const char *key_message(const char *pem)
{
    tfx_rsakey key;
    const char *msg = NULL;

    (void)tfx_rsakey_parse(C, pem, strlen(pem), &key, &msg);
    return msg;
}

static const char *pem_of(const char *type, const char *b64)
{
    return tfx_ctx_printf(C, "-----BEGIN %s-----\n%s\n-----END %s-----\n", type, b64, type);
}

static bool starts(const char *s, const char *prefix)
{
    return s != NULL && strncmp(s, prefix, strlen(prefix)) == 0;
}

static void test_hashes(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    /* [fn.crypto.hash] [fn.crypto.hex] [fn.crypto.base64] standard vectors; ref */
    CHECK_STR(call("md5", 1, S("")), "\"d41d8cd98f00b204e9800998ecf8427e\" :: string");
    CHECK_STR(call("md5", 1, S("hello")), "\"5d41402abc4b2a76b9719d911017c592\" :: string");
    CHECK_STR(call("sha1", 1, S("héllo")), "\"35b5ea45c5e41f78b46a937cc74d41dfea920890\" :: string");
    CHECK_STR(call("sha256", 1, S("e\xcc\x81")),
              "\"4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c\" :: string");
    CHECK_STR(call("sha256", 1, S("\xc3\xa9")),
              "\"4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c\" :: string");
    CHECK_STR(call("sha512", 1, S("abc")),
              "\"ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a8"
              "36ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f\" :: string");
    CHECK_STR(call("base64sha256", 1, S("abc")),
              "\"ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=\" :: string");
    CHECK_STR(call("base64sha512", 1, S("")),
              "\"z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ"
              "6+SfaPg==\" :: string");
    /* [fn.crypto.params] the machinery: a null string is an argument error */
    CHECK(starts(call("md5", 1, tfx_value_null(C, &tfx_type_str)), "arg 0:"));
}

static void test_uuidv5(tfx_ctx *ctx, void *unused)
{
    static const char ns[] = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";

    (void)unused;
    C = ctx;
    /* [fn.uuidv5.namespace] [fn.uuidv5.result] ref: uuidv5("dns", "example.com") */
    CHECK_STR(call("uuidv5", 2, S("dns"), S("example.com")),
              "\"cfbff0d1-9375-5685-968c-48ce8b15ae17\" :: string");
    CHECK_STR(call("uuidv5", 2, S("url"), S("https://x")), "\"48d34be5-10a3-5c30-96ef-9cf9a60110f2\" :: string");
    CHECK_STR(call("uuidv5", 2, S("oid"), S("1.2.3")), "\"42d5e23b-3a02-5135-85c6-52d1102f1f00\" :: string");
    CHECK_STR(call("uuidv5", 2, S("x500"), S("cn=a")), "\"5c1fcbd6-0ab9-5b0d-9d61-5bcbb36ee6d0\" :: string");
    /* [fn.uuidv5.parse] the forms of Parse give the same name space; ref */
    CHECK_STR(call("uuidv5", 2, S(ns), S("a")), "\"4f3f2898-69e3-5a0d-820a-c4e87987dbce\" :: string");
    CHECK_STR(call("uuidv5", 2, S("URN:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8"), S("a")),
              "\"4f3f2898-69e3-5a0d-820a-c4e87987dbce\" :: string");
    CHECK_STR(call("uuidv5", 2, S("x6ba7b810-9dad-11d1-80b4-00c04fd430c8y"), S("a")),
              "\"4f3f2898-69e3-5a0d-820a-c4e87987dbce\" :: string");
    CHECK_STR(call("uuidv5", 2, S("6BA7B8109DAD11D180B400C04FD430C8"), S("a")),
              "\"4f3f2898-69e3-5a0d-820a-c4e87987dbce\" :: string");
    /* [fn.uuidv5.error] ref */
    CHECK_STR(call("uuidv5", 2, S("x"), S("y")),
              "error: uuidv5() doesn't support namespace x (invalid UUID length: 1)");
    CHECK_STR(call("uuidv5", 2, S("DNS"), S("y")),
              "error: uuidv5() doesn't support namespace DNS (invalid UUID length: 3)");
    CHECK_STR(call("uuidv5", 2, S("urn:uuix:6ba7b810-9dad-11d1-80b4-00c04fd430c8"), S("y")),
              "error: uuidv5() doesn't support namespace urn:uuix:6ba7b810-9dad-11d1-80b4-00c04fd430c8 "
              "(invalid urn prefix: \"urn:uuix:\")");
    /* the cut after nine bytes splits an "é": Go's %q escapes the lone byte */
    CHECK_STR(call("uuidv5", 2, S("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9" "6ba7b810-9dad-11d1-80b4-00c04fd430c"),
                   S("y")),
              "error: uuidv5() doesn't support namespace \xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
              "6ba7b810-9dad-11d1-80b4-00c04fd430c (invalid urn prefix: \"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\\xc3\")");
    CHECK_STR(call("uuidv5", 2, S("6ba7b810x9dad-11d1-80b4-00c04fd430c8"), S("y")),
              "error: uuidv5() doesn't support namespace 6ba7b810x9dad-11d1-80b4-00c04fd430c8 "
              "(invalid UUID format)");
    CHECK_STR(call("uuidv5", 2, S("6ba7b8109dad11d180b400c04fd430cg"), S("y")),
              "error: uuidv5() doesn't support namespace 6ba7b8109dad11d180b400c04fd430cg "
              "(invalid UUID format)");
}

/* Go's base64 reader: the decoded bytes as hex, or "!" when refused. */
static const char *b64(const char *s)
{
    size_t n = 0;
    uint8_t *b = tfx_go_base64_decode(C, s, strlen(s), &n);
    tfx_textbuf t;

    if (b == NULL)
        return "!";
    tfx_textbuf_init(&t, C);
    for (size_t i = 0; i < n; i++)
        tfx_textbuf_printf(&t, "%02x", b[i]);
    return tfx_textbuf_text(&t);
}

static void test_base64(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    /* [fn.rsadecrypt.base64] */
    CHECK_STR(b64(""), "");
    CHECK_STR(b64("AA=="), "00");
    CHECK_STR(b64("AAA="), "0000");
    CHECK_STR(b64("AAAA"), "000000");
    CHECK_STR(b64("/+/+"), "ffeffe");
    CHECK_STR(b64("AB=="), "00");        /* unused bits are not checked */
    CHECK_STR(b64("A\nA\r=\n="), "00");   /* newlines anywhere, within the padding too */
    CHECK_STR(b64("\n\r"), "");
    CHECK_STR(b64("AA"), "!");
    CHECK_STR(b64("AAA"), "!");
    CHECK_STR(b64("AA="), "!");
    CHECK_STR(b64("A==="), "!");
    CHECK_STR(b64("===="), "!");
    CHECK_STR(b64("AA=A"), "!");
    CHECK_STR(b64("AA==AA=="), "!");
    CHECK_STR(b64("AAAA===="), "!");
    CHECK_STR(b64("AAA=A"), "!");
    CHECK_STR(b64(" AAA"), "!");
    CHECK_STR(b64("AA-_"), "!");
    CHECK_STR(b64("AAAA="), "!");
    CHECK_STR(b64("AAAAA="), "!");
    CHECK_STR(b64("AAAA=="), "!");
    CHECK_STR(b64("AAAAAAA="), "0000000000");
    /* ref: rsadecrypt("AA=", "") */
    CHECK_STR(call("rsadecrypt", 2, S("AA="), S("")),
              "arg 0: failed to decode input \"AA=\": cipher text must be base64-encoded");
}

static void test_keys(tfx_ctx *ctx, void *unused)
{
    tfx_rsakey key;
    const char *msg = NULL;

    (void)unused;
    C = ctx;
    /* [fn.rsadecrypt.key] the RSA test keys parse */
    CHECK(key_message(file("rsa1024.pem")) == NULL);
    CHECK(key_message(file("rsa1024.p8")) == NULL);
    CHECK(key_message(file("rsa1024.openssh")) == NULL);
    CHECK(key_message(file("rsa3.pem")) == NULL);
    CHECK(key_message(file("rsa3.p8")) == NULL);
    CHECK(key_message(file("rsa512.pem")) == NULL);
    CHECK(key_message(file("rsa2048.pem")) == NULL);
    CHECK(tfx_rsakey_parse(C, file("rsa3.pem"), strlen(file("rsa3.pem")), &key, &msg) ==
          TFX_RSAKEY_OK);
    CHECK(key.nprimes == 3);
    CHECK(key.e == 65537);
    CHECK(key.nn == 128);
    /* the others; ref: rsadecrypt("AAAA", file(...)) */
    CHECK_STR(key_message(file("rsa1024-encrypted.pem")),
              "invalid private key: ssh: this private key is passphrase protected");
    CHECK_STR(key_message(file("rsa1024-encrypted.openssh")),
              "invalid private key: ssh: this private key is passphrase protected");
    CHECK(starts(key_message(file("ed25519.p8")),
                 "invalid private key type [%!t(uint8=126) %!t(uint8=15) %!t(uint8=120) "));
    CHECK(starts(key_message(file("ed25519.openssh")), "invalid private key type &[%!t(uint8="));
    CHECK(starts(key_message(file("dsa1024.pem")),
                 "invalid private key type &{{{%!t(big.Int=1654488420220786846100812867251456690"));
    CHECK(starts(key_message(file("ecdsa256.openssh")),
                 "invalid private key type &{{%!t(*elliptic.p256Curve=&{{0x0 0x0}}) "
                 "%!t(big.Int=92580533628605636402853164443877607156020736166551031242312916286774198005537)"));
    CHECK(tfx_rsakey_parse(C, file("ec256.pem"), strlen(file("ec256.pem")), &key, &msg) ==
          TFX_RSAKEY_NOT_RSA);
    /* [fn.rsadecrypt.pem] */
    CHECK_STR(key_message("x"), "invalid private key: ssh: no key found");
    CHECK_STR(key_message(pem_of("A\"\xc3\xa9", "MAMCAQE=")),
              "invalid private key: ssh: unsupported key type \"A\\\"\xc3\xa9\"");
    /* [fn.rsadecrypt.asn1] [fn.rsadecrypt.pkcs1] */
    CHECK_STR(key_message(pem_of("RSA PRIVATE KEY", "MIAAAA==")),
              "invalid ASN1 data in the given private key: indefinite length found (not DER)");
    CHECK_STR(key_message(pem_of("RSA PRIVATE KEY", "AgEF")),
              "asn1: structure error: tags don't match (16 vs {class:0 tag:2 length:1 "
              "isCompound:false}) {optional:false explicit:false application:false private:false "
              "defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false} "
              "pkcs1PrivateKey @2");
    CHECK_STR(key_message(pem_of("RSA PRIVATE KEY", "MAMCAQA=")),
              "invalid ASN1 data in the given private key: sequence truncated");
    CHECK_STR(key_message(pem_of("RSA PRIVATE KEY", "MAYCAQAEAQE=")),
              "invalid private key: x509: failed to parse private key (use ParseECPrivateKey "
              "instead for this key format)");
    /* [fn.rsadecrypt.pkcs8] [fn.rsadecrypt.ec] [fn.rsadecrypt.not-rsa] */
    CHECK_STR(key_message(pem_of("PRIVATE KEY", "MAMCAQA=")),
              "invalid ASN1 data in the given private key: sequence truncated");
    CHECK_STR(key_message(pem_of("EC PRIVATE KEY", "MAMCAQE=")),
              "invalid private key: x509: failed to parse EC private key: asn1: syntax error: "
              "sequence truncated");
    CHECK_STR(key_message(pem_of("DSA PRIVATE KEY", "MAMCAQE=")),
              "invalid private key: ssh: failed to parse DSA key: asn1: syntax error: sequence "
              "truncated");
    /* [fn.rsadecrypt.openssh] */
    CHECK_STR(key_message(pem_of("OPENSSH PRIVATE KEY", "b3BlbnNzaC1rZXktdjEA")),
              "invalid private key: ssh: parse error in message type 0");
    CHECK_STR(key_message(pem_of("OPENSSH PRIVATE KEY", "b3BlbnNzaA==")),
              "invalid private key: ssh: invalid openssh private key format");
}

static void test_decrypt(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    /* [fn.rsadecrypt.decrypt] [fn.rsadecrypt.result] the same key in three formats */
    CHECK_STR(call("rsadecrypt", 2, S(file("rsa1024-hello.b64")), S(file("rsa1024.pem"))),
              "\"hello\" :: string");
    CHECK_STR(call("rsadecrypt", 2, S(file("rsa1024-hello.b64")), S(file("rsa1024.p8"))),
              "\"hello\" :: string");
    CHECK_STR(call("rsadecrypt", 2, S(file("rsa1024-hello.b64")), S(file("rsa1024.openssh"))),
              "\"hello\" :: string");
    CHECK_STR(call("rsadecrypt", 2, S(file("rsa2048-hello.b64")), S(file("rsa2048.pem"))),
              "\"two thousand\" :: string");
    /* ref: rsadecrypt("AAAA", file("rsa1024.pem")) */
    CHECK_STR(call("rsadecrypt", 2, S("AAAA"), S(file("rsa1024.pem"))),
              "error: failed to decrypt: crypto/rsa: decryption error");
    /* another key's ciphertext */
    CHECK_STR(call("rsadecrypt", 2, S(file("rsa1024-hello.b64")), S(file("rsa2048.pem"))),
              "error: failed to decrypt: crypto/rsa: decryption error");
    CHECK(starts(call("rsadecrypt", 2, S("AAAA"), S(file("ec256.pem"))),
                 "arg 1: invalid private key type &{{"));
}

/* Parses and decrypts with the 2048-bit key (under a small step limit). */
static void decrypt_2048(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    (void)call("rsadecrypt", 2, S(file("rsa2048-hello.b64")), S(file("rsa2048.pem")));
}

/* Parses every test key and decrypts with the RSA ones (limits sweeps). */
static void parse_all(tfx_ctx *ctx, void *unused)
{
    static const char *const names[] = {"rsa1024.pem", "rsa1024.p8", "rsa1024.openssh", "rsa3.pem",
                                         "ec256.pem", "ec256.p8", "ecdsa256.openssh",
                                         "ed25519.openssh", "dsa1024.pem"};

    (void)unused;
    C = ctx;
    for (size_t i = 0; i < TFX_COUNTOF(names); i++)
        (void)call("rsadecrypt", 2, S("AAAA"), S(file(names[i])));
}

static void test_bcrypt(tfx_ctx *ctx, void *unused)
{
    static const struct {
        const char *pw;
        size_t n;
        int64_t cost;
        const char *salt;
        const char *want;
    } v[] = {
        {"", 0, 4, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
         "$2a$04$......................w74bL5gU7LSJClZClCa.Pkz14aTv/XO"},
        {"password", 8, 4, "0123456789abcdef",
         "$2a$04$KBCwKxOzLha2MUDgW0PjXehyC7kcbJmICs4eWpZZOlh/QJzfSPPHe"},
        {"password", 8, 10, "0123456789abcdef",
         "$2a$10$KBCwKxOzLha2MUDgW0PjXeXRXXrqgKlfCAdDBrwFcbhmFeQL8lq2m"},
        {"h\xc3\xa9llo w\xc3\xb6rld", 13, 5,
         "\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\x80\x7f\x01\x02\x03\x04\x05\x06",
         "$2a$05$99579Nt48dg.duCA.uOD/eF9OwP/.jAkaT7VvmA9jltKL64KusLCG"},
        {"012345678901234567890123456789012345678901234567890123456789012345678901", 72, 4,
         "ABCDEFGHIJKLMNOP", "$2a$04$OSHBPCTEPyfHQirKRS3NS.Hl1pwsf36kiE6EfPvAoINnI9jx3g.m2"},
        {"a\0b", 3, 4, "ABCDEFGHIJKLMNOP",
         "$2a$04$OSHBPCTEPyfHQirKRS3NS.iObRpSghzkk1fyWPI/VqoEaZKf7MWUy"},
        {"a", 1, 4, "ABCDEFGHIJKLMNOP", "$2a$04$OSHBPCTEPyfHQirKRS3NS.3zTUvSL6Gcp2gweFiHUwnAhsEM2wLFG"},
        {"pw", 2, 3, "ABCDEFGHIJKLMNOP", "$2a$10$OSHBPCTEPyfHQirKRS3NS.71WiS1VcJJz01TlWbujiv3xq.tri4j."},
        {"pw", 2, -5, "ABCDEFGHIJKLMNOP", "$2a$10$OSHBPCTEPyfHQirKRS3NS.71WiS1VcJJz01TlWbujiv3xq.tri4j."},
    };
    const char *err = NULL;
    static const char long73[] =
        "0123456789012345678901234567890123456789012345678901234567890123456789012";

    (void)unused;
    C = ctx;
    /* [fn.bcrypt.hash] [fn.bcrypt.cost] [fn.bcrypt.nul] Go's hashes */
    for (size_t i = 0; i < TFX_COUNTOF(v); i++) {
        const char *h = tfx_crypto_bcrypt(C, v[i].pw, v[i].n, v[i].cost, (const uint8_t *)v[i].salt, &err);

        CHECK_STR(h, v[i].want);
        CHECK(err == NULL);
    }
    /* [fn.bcrypt.length] checked before the cost */
    CHECK(tfx_crypto_bcrypt(C, long73, 73, 99, (const uint8_t *)"ABCDEFGHIJKLMNOP", &err) == NULL);
    CHECK_STR(err, "error occured generating password bcrypt: password length exceeds 72 bytes");
    /* [fn.bcrypt.cost] */
    CHECK(tfx_crypto_bcrypt(C, "pw", 2, 32, (const uint8_t *)"ABCDEFGHIJKLMNOP", &err) == NULL);
    CHECK_STR(err, "error occured generating password crypto/bcrypt: cost 32 is outside allowed "
                   "range (4,31)");
    CHECK(tfx_crypto_bcrypt(C, "pw", 2, 31 + ((int64_t)1 << 40), (const uint8_t *)"ABCDEFGHIJKLMNOP",
                            &err) == NULL);
    CHECK(err != NULL && strstr(err, "is outside allowed range (4,31)") != NULL);
}

int main(void)
{
    tfx_ctx_limits limits;
    const char *outcome_text;

    CHECK(run("hashes", test_hashes));
    CHECK(run("uuidv5", test_uuidv5));
    CHECK(run("base64", test_base64));
    CHECK(run("keys", test_keys));
    CHECK(run("decrypt", test_decrypt));
    CHECK(run("bcrypt", test_bcrypt));

    /* [fn.rsadecrypt.limits] key arithmetic is charged to the step limit;
     * the GMP numbers are freed when it fails (LeakSanitizer in make asan) */
    tfx_ctx_limits_init(&limits);
    limits.max_steps = 300;
    CHECK_STR(run_limited(&limits, decrypt_2048, NULL), "Evaluation step limit exceeded");
    /* the same with enough steps */
    limits.max_steps = 100000;
    CHECK_STR(run_limited(&limits, decrypt_2048, NULL), "completed");
    /* every step and many memory limits while keys are parsed: each run
     * ends, within the limit or by it (and frees its GMP numbers: LSan) */
    for (size_t steps = 1; steps < 3000; steps += 7) {
        tfx_ctx_limits_init(&limits);
        limits.max_steps = steps;
        outcome_text = run_limited(&limits, parse_all, NULL);
        CHECK(strcmp(outcome_text, "completed") == 0
              || strcmp(outcome_text, "Evaluation step limit exceeded") == 0);
    }
    for (size_t mem = 4096; mem < ((size_t)1 << 20); mem += mem / 8) {
        tfx_ctx_limits_init(&limits);
        limits.max_memory_bytes = mem;
        outcome_text = run_limited(&limits, parse_all, NULL);
        CHECK(strcmp(outcome_text, "completed") == 0 || strcmp(outcome_text, "Memory limit exceeded") == 0
              || strcmp(outcome_text, "out of memory") == 0);
    }
    return check_report("test_fn_crypto");
}
