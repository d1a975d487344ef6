/* SPDX-License-Identifier: MPL-2.0 */
/*
 * rsakey.c — rsadecrypt's key parser and decryption (rsakey.h;
 * spec/functions-crypto.md, rules fn.rsadecrypt.*).
 *
 * The parse follows what Terraform calls, x/crypto/ssh 0.4.0's
 * ParseRawPrivateKey on Go 1.19: encoding/pem's Decode; then by the
 * block's type x509's ParsePKCS1PrivateKey, ParsePKCS8PrivateKey or
 * ParseECPrivateKey, ssh's ParseDSAPrivateKey or its openssh-key-v1
 * reader.  The DER structures are read by a small interpreter of Go's
 * encoding/asn1 rules (parseField over a description of the Go struct),
 * because which error Go reports, and its words, depend on the order in
 * which asn1 meets the fields; Nettle's DER iterator gives no such
 * detail.  The numbers are checked with GMP as crypto/rsa's Validate
 * does, and decrypted with Nettle's rsa_decrypt where its preconditions
 * hold (two distinct odd probable primes: Nettle's CRT is then Go's);
 * other keys that Go accepts (more than two primes, factors that are not
 * prime) are decrypted with Go's own CRT steps on GMP.
 */
#include "rsakey.h"

#include <gmp.h>
#include <nettle/ecc-curve.h>
#include <nettle/ecc.h>
#include <nettle/eddsa.h>
#include <nettle/rsa.h>
#include <stdint.h>
#include <string.h>

#include "common.h"

/* ---- Go's base64.StdEncoding ---- */

static int b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

/* [fn.rsadecrypt.base64] */
uint8_t *tfx_go_base64_decode(tfx_ctx *ctx, const char *s, size_t n, size_t *out_n)
{
    uint8_t *out = tfx_ctx_alloc(ctx, n / 4 * 3 + 3);
    size_t o = 0;
    int quad[4];
    size_t j = 0;
    size_t pad = 0;

    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        int v;

        if (c == '\r' || c == '\n')
            continue;
        if (pad > 0) {
            /* after the first "=": only the second one of "xx==" */
            if (c != '=' || j != 3)
                return NULL;
            pad++;
            j = 4;
            continue;
        }
        if (c == '=') {
            if (j < 2 || j == 4)
                return NULL; /* "=" first or second in its group of four */
            pad = 1;
            if (j == 2) {
                j = 3;
                continue;
            }
            j = 4;
            continue;
        }
        if (j == 4) {
            out[o++] = (uint8_t)(quad[0] << 2 | quad[1] >> 4);
            out[o++] = (uint8_t)((quad[1] & 15) << 4 | quad[2] >> 2);
            out[o++] = (uint8_t)((quad[2] & 3) << 6 | quad[3]);
            j = 0;
        }
        v = b64_value(c);
        if (v < 0)
            return NULL;
        quad[j++] = v;
    }
    if (pad == 1 && j == 3)
        return NULL; /* "xx=" */
    if (j != 0 && j != 4)
        return NULL;
    if (j == 4) {
        size_t keep = pad == 0 ? 3 : 3 - pad;
        uint8_t b[3];

        if (pad == 2)
            quad[2] = quad[3] = 0;
        else if (pad == 1)
            quad[3] = 0;
        b[0] = (uint8_t)(quad[0] << 2 | quad[1] >> 4);
        b[1] = (uint8_t)((quad[1] & 15) << 4 | quad[2] >> 2);
        b[2] = (uint8_t)((quad[2] & 3) << 6 | quad[3]);
        memcpy(out + o, b, keep);
        o += keep;
    }
    *out_n = o;
    return out;
}

/* ---- encoding/pem's Decode ---- */

typedef struct {
    const char *type;        /* NUL-terminated, arena */
    bool encrypted;          /* Headers["Proc-Type"] contains "4,ENCRYPTED" */
    const uint8_t *bytes;
    size_t nbytes;
} pem_block;

static const char *find(const char *hay, size_t n, const char *needle, size_t m)
{
    if (m > n)
        return NULL;
    for (size_t i = 0; i + m <= n; i++)
        if (memcmp(hay + i, needle, m) == 0)
            return hay + i;
    return NULL;
}

static bool has_prefix(const char *s, size_t n, const char *p)
{
    size_t m = strlen(p);
    return n >= m && memcmp(s, p, m) == 0;
}

/* getLine: the line up to "\n" (a "\r" before it dropped), trailing
 * spaces and tabs trimmed; *rest after the "\n". */
static void get_line(const char *s, size_t n, const char **line, size_t *nline,
                     const char **rest, size_t *nrest)
{
    const char *nl = memchr(s, '\n', n);
    size_t i, j;

    if (nl == NULL) {
        i = n;
        j = n;
    } else {
        i = (size_t)(nl - s);
        j = i + 1;
        if (i > 0 && s[i - 1] == '\r')
            i--;
    }
    while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t'))
        i--;
    *line = s;
    *nline = i;
    *rest = s + j;
    *nrest = n - j;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* bytes.TrimSpace on ASCII white space (the header keys and values; what
 * Go trims beyond that, Unicode spaces, does not change the one lookup). */
static void trim_space(const char **s, size_t *n)
{
    while (*n > 0 && is_space(**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n > 0 && is_space((*s)[*n - 1]))
        (*n)--;
}

/* [fn.rsadecrypt.pem] The first block encoding/pem's Decode finds. */
static bool pem_decode(tfx_ctx *ctx, const char *data, size_t n, pem_block *out)
{
    static const char start[] = "\n-----BEGIN ";
    static const char end[] = "\n-----END ";
    const char *rest = data;
    size_t nrest = n;

    for (;;) {
        const char *type_line, *at;
        size_t ntype;
        bool nheaders = false;
        const char *proc_type = NULL;
        size_t nproc_type = 0;
        size_t end_index, trailer_index;

        tfx_ctx_step(ctx);
        if (has_prefix(rest, nrest, start + 1)) {
            rest += sizeof start - 2;
            nrest -= sizeof start - 2;
        } else if ((at = find(rest, nrest, start, sizeof start - 1)) != NULL) {
            nrest -= (size_t)(at - rest) + sizeof start - 1;
            rest = at + sizeof start - 1;
        } else {
            return false;
        }
        get_line(rest, nrest, &type_line, &ntype, &rest, &nrest);
        if (ntype < 5 || memcmp(type_line + ntype - 5, "-----", 5) != 0)
            continue;
        ntype -= 5;
        for (;;) {
            const char *line, *next, *colon;
            size_t nline, nnext;

            if (nrest == 0)
                return false;
            get_line(rest, nrest, &line, &nline, &next, &nnext);
            colon = memchr(line, ':', nline);
            if (colon == NULL)
                break;
            {
                const char *k = line, *v = colon + 1;
                size_t nk = (size_t)(colon - line), nv = nline - nk - 1;

                trim_space(&k, &nk);
                trim_space(&v, &nv);
                if (nk == 9 && memcmp(k, "Proc-Type", 9) == 0) {
                    proc_type = v;
                    nproc_type = nv;
                }
            }
            nheaders = true;
            rest = next;
            nrest = nnext;
        }
        if (!nheaders && has_prefix(rest, nrest, end + 1)) {
            end_index = 0;
            trailer_index = sizeof end - 2;
        } else {
            const char *e = find(rest, nrest, end, sizeof end - 1);

            if (e == NULL)
                continue;
            end_index = (size_t)(e - rest);
            trailer_index = end_index + sizeof end - 1;
        }
        {
            const char *trailer = rest + trailer_index;
            size_t ntrailer = nrest - trailer_index;
            size_t want = ntype + 5;
            const char *eol, *after;
            size_t neol, nafter;
            char *b64;
            size_t nb64 = 0;
            uint8_t *bytes;
            size_t nbytes = 0;

            if (ntrailer < want)
                continue;
            if (memcmp(trailer, type_line, ntype) != 0 || memcmp(trailer + ntype, "-----", 5) != 0)
                continue;
            get_line(trailer + want, ntrailer - want, &eol, &neol, &after, &nafter);
            if (neol != 0)
                continue;
            b64 = tfx_ctx_alloc(ctx, end_index + 1);
            for (size_t i = 0; i < end_index; i++)
                if (rest[i] != ' ' && rest[i] != '\t')
                    b64[nb64++] = rest[i];
            bytes = tfx_go_base64_decode(ctx, b64, nb64, &nbytes);
            if (bytes == NULL)
                continue;
            out->type = tfx_ctx_strndup(ctx, type_line, ntype);
            out->encrypted = proc_type != NULL && find(proc_type, nproc_type, "4,ENCRYPTED", 11) != NULL;
            out->bytes = bytes;
            out->nbytes = nbytes;
            return true;
        }
    }
}

/* ---- encoding/asn1's Unmarshal, over descriptions of Go structs ---- */

typedef enum {
    F_INT,     /* Go int (64 bits) */
    F_BIGINT,  /* *big.Int */
    F_OCTETS,  /* []byte */
    F_OID,     /* asn1.ObjectIdentifier */
    F_BITS,    /* asn1.BitString */
    F_RAW,     /* asn1.RawValue */
    F_SEQ,     /* a struct */
    F_SEQOF    /* a slice of structs */
} field_kind;

typedef struct schema schema;
typedef struct {
    field_kind kind;
    const char *tname;      /* reflect.Type.Name(): "" for unnamed types */
    bool optional, explicit_tag, omitempty;
    int tag;                /* -1: none */
    const schema *sub;      /* F_SEQ, F_SEQOF: the struct's fields */
} field;

struct schema {
    const field *fields;
    size_t n;
};

/* A parsed field: contents bytes (the INTEGER's two's complement, the
 * octets, the OID's or BIT STRING's contents), the int, the struct's
 * fields or the slice's elements (each an F_SEQ value). */
typedef struct dval {
    bool present;
    int64_t i;
    const uint8_t *p;
    size_t n;
    int raw_class, raw_tag;
    bool raw_compound;
    struct dval *sub;
    size_t nsub;
} dval;

typedef enum { E_NONE, E_SYNTAX, E_STRUCT } err_kind;

typedef struct {
    err_kind kind;
    const char *msg;   /* without asn1's "asn1: syntax error: " prefix */
} derr;

typedef struct {
    int cls;
    int64_t tag;
    int64_t length;
    bool compound;
} tag_len;

static bool fail(derr *e, err_kind k, const char *msg)
{
    e->kind = k;
    e->msg = msg;
    return false;
}

/* parseBase128Int */
static bool base128(const uint8_t *b, size_t n, size_t *off, int64_t *ret, derr *e)
{
    int64_t v = 0;

    for (int shifted = 0; *off < n; shifted++) {
        uint8_t c;

        if (shifted == 5)
            return fail(e, E_STRUCT, "base 128 integer too large");
        v <<= 7;
        c = b[*off];
        if (shifted == 0 && c == 0x80)
            return fail(e, E_SYNTAX, "integer is not minimally encoded");
        v |= c & 0x7f;
        (*off)++;
        if ((c & 0x80) == 0) {
            *ret = v;
            if (v > INT32_MAX)
                return fail(e, E_STRUCT, "base 128 integer too large");
            return true;
        }
    }
    return fail(e, E_SYNTAX, "truncated base 128 integer");
}

/* parseTagAndLength (called with *off < n) */
static bool tag_and_length(const uint8_t *b, size_t n, size_t *off, tag_len *t, derr *e)
{
    uint8_t c = b[(*off)++];

    t->cls = c >> 6;
    t->compound = (c & 0x20) != 0;
    t->tag = c & 0x1f;
    if (t->tag == 0x1f) {
        if (!base128(b, n, off, &t->tag, e))
            return false;
        if (t->tag < 0x1f)
            return fail(e, E_SYNTAX, "non-minimal tag");
    }
    if (*off >= n)
        return fail(e, E_SYNTAX, "truncated tag or length");
    c = b[(*off)++];
    if ((c & 0x80) == 0) {
        t->length = c & 0x7f;
    } else {
        int nb = c & 0x7f;

        if (nb == 0)
            return fail(e, E_SYNTAX, "indefinite length found (not DER)");
        t->length = 0;
        for (int i = 0; i < nb; i++) {
            if (*off >= n)
                return fail(e, E_SYNTAX, "truncated tag or length");
            c = b[(*off)++];
            if (t->length >= (int64_t)1 << 23)
                return fail(e, E_STRUCT, "length too large");
            t->length = t->length << 8 | c;
            if (t->length == 0)
                return fail(e, E_STRUCT, "superfluous leading zeros in length");
        }
        if (t->length < 0x80)
            return fail(e, E_STRUCT, "non-minimal length");
    }
    return true;
}

/* checkInteger */
static bool check_integer(const uint8_t *b, size_t n, derr *e)
{
    if (n == 0)
        return fail(e, E_STRUCT, "empty integer");
    if (n == 1)
        return true;
    if ((b[0] == 0 && (b[1] & 0x80) == 0) || (b[0] == 0xff && (b[1] & 0x80) == 0x80))
        return fail(e, E_STRUCT, "integer not minimally-encoded");
    return true;
}

/* parseObjectIdentifier, checking only */
static bool check_oid(const uint8_t *b, size_t n, derr *e)
{
    size_t off = 0;
    int64_t v;

    if (n == 0)
        return fail(e, E_SYNTAX, "zero length OBJECT IDENTIFIER");
    while (off < n)
        if (!base128(b, n, &off, &v, e))
            return false;
    return true;
}

/* The OID's text as Go's ObjectIdentifier.String() writes it (the
 * contents were checked by check_oid). */
static const char *oid_text(tfx_ctx *ctx, const uint8_t *b, size_t n)
{
    tfx_textbuf t;
    size_t off = 0;
    int64_t v = 0;
    derr e;

    tfx_textbuf_init(&t, ctx);
    (void)base128(b, n, &off, &v, &e);
    if (v < 80)
        tfx_textbuf_printf(&t, "%lld.%lld", (long long)(v / 40), (long long)(v % 40));
    else
        tfx_textbuf_printf(&t, "2.%lld", (long long)(v - 80));
    while (off < n) {
        (void)base128(b, n, &off, &v, &e);
        tfx_textbuf_printf(&t, ".%lld", (long long)v);
    }
    return tfx_textbuf_text(&t);
}

static bool oid_equal(const dval *v, const uint8_t *der, size_t n)
{
    return v->n == n && memcmp(v->p, der, n) == 0;
}

static bool parse_struct(tfx_ctx *ctx, const schema *s, const uint8_t *b, size_t n, dval *out,
                         derr *e);

static bool go_int_default(const field *f)
{
    return f->optional;
}

/* [fn.rsadecrypt.asn1] parseField for field f at b[*off..n) */
static bool parse_field(tfx_ctx *ctx, const field *f, const uint8_t *b, size_t n, size_t *off,
                        dval *out, derr *e)
{
    size_t init = *off;
    tag_len t;
    int exp_class = 0;
    int64_t exp_tag;
    bool compound = false;
    bool match_any = f->kind == F_RAW;

    tfx_ctx_step(ctx);
    if (*off == n) {
        if (!go_int_default(f))
            return fail(e, E_SYNTAX, "sequence truncated");
        return true;
    }
    if (!tag_and_length(b, n, off, &t, e))
        return false;
    if (f->explicit_tag) {
        if (*off == n)
            return fail(e, E_STRUCT, "explicit tag has no child");
        if (t.cls == 2 && t.tag == f->tag && (t.length == 0 || t.compound)) {
            if (t.length > 0) {
                if (!tag_and_length(b, n, off, &t, e))
                    return false;
            } else {
                return fail(e, E_STRUCT, "zero length explicit tag was not an asn1.Flag");
            }
        } else {
            if (f->optional) {
                *off = init;
                return true;
            }
            return fail(e, E_STRUCT, "explicitly tagged member didn't match");
        }
    }
    switch (f->kind) {
    case F_INT:
    case F_BIGINT:
        exp_tag = 2;
        break;
    case F_OCTETS:
        exp_tag = 4;
        break;
    case F_OID:
        exp_tag = 6;
        break;
    case F_BITS:
        exp_tag = 3;
        break;
    case F_RAW:
        exp_tag = 0;
        break;
    default:
        exp_tag = 16;
        compound = true;
        break;
    }
    if ((!match_any && (t.cls != exp_class || t.tag != exp_tag)) ||
        (!match_any && t.compound != compound)) {
        if (f->optional) {
            *off = init;
            return true;
        }
        e->kind = E_STRUCT;
        e->msg = tfx_ctx_printf(
            ctx,
            "tags don't match (%lld vs {class:%d tag:%lld length:%lld isCompound:%s}) "
            "{optional:false explicit:%s application:false private:false defaultValue:<nil> "
            "tag:%s stringType:0 timeType:0 set:false omitEmpty:%s} %s @%zu",
            (long long)exp_tag, t.cls, (long long)t.tag, (long long)t.length,
            t.compound ? "true" : "false", f->explicit_tag ? "true" : "false", f->tag >= 0 ? "0xc000000000" : "<nil>",
            f->omitempty ? "true" : "false", f->tname, *off);
        return false;
    }
    if (t.length < 0 || (uint64_t)t.length > n - *off)
        return fail(e, E_SYNTAX, "data truncated");
    {
        const uint8_t *inner = b + *off;
        size_t ninner = (size_t)t.length;

        *off += ninner;
        out->present = true;
        out->p = inner;
        out->n = ninner;
        switch (f->kind) {
        case F_RAW:
            out->raw_class = t.cls;
            out->raw_tag = (int)t.tag;
            out->raw_compound = t.compound;
            return true;
        case F_OID:
            return check_oid(inner, ninner, e);
        case F_BITS:
            if (ninner == 0)
                return fail(e, E_SYNTAX, "zero length BIT STRING");
            if (inner[0] > 7 || (ninner == 1 && inner[0] > 0) ||
                (inner[ninner - 1] & ((1u << inner[0]) - 1)) != 0)
                return fail(e, E_SYNTAX, "invalid padding bits in BIT STRING");
            return true;
        case F_BIGINT:
            return check_integer(inner, ninner, e);
        case F_INT:
            if (!check_integer(inner, ninner, e))
                return false;
            if (ninner > 8)
                return fail(e, E_STRUCT, "integer too large");
            {
                uint64_t v = 0;

                for (size_t i = 0; i < ninner; i++)
                    v = v << 8 | inner[i];
                if (ninner < 8 && (inner[0] & 0x80))
                    v |= ~(uint64_t)0 << (8 * ninner);
                memcpy(&out->i, &v, sizeof v);
            }
            return true;
        case F_OCTETS:
            return true;
        case F_SEQ:
            return parse_struct(ctx, f->sub, inner, ninner, out, e);
        case F_SEQOF: {
            /* parseSequenceOf: count and check the elements, then parse */
            size_t count = 0;
            size_t o = 0;

            while (o < ninner) {
                tag_len et;

                tfx_ctx_step(ctx);
                if (!tag_and_length(inner, ninner, &o, &et, e))
                    return false;
                if (et.cls != 0 || !et.compound || et.tag != 16)
                    return fail(e, E_STRUCT, "sequence tag mismatch");
                if (et.length < 0 || (uint64_t)et.length > ninner - o)
                    return fail(e, E_SYNTAX, "truncated sequence");
                o += (size_t)et.length;
                count++;
            }
            out->sub = tfx_ctx_alloc_array(ctx, count + 1, sizeof *out->sub);
            out->nsub = count;
            o = 0;
            for (size_t i = 0; i < count; i++) {
                field ef = {F_SEQ, "", false, false, false, -1, f->sub};

                if (!parse_field(ctx, &ef, inner, ninner, &o, &out->sub[i], e))
                    return false;
            }
            return true;
        }
        }
    }
    return true;
}

/* The fields of a struct, in order; extra elements at the end of the
 * SEQUENCE are allowed, as asn1 allows them. */
static bool parse_struct(tfx_ctx *ctx, const schema *s, const uint8_t *b, size_t n, dval *out,
                         derr *e)
{
    size_t off = 0;

    out->sub = tfx_ctx_alloc_array(ctx, s->n, sizeof *out->sub);
    out->nsub = s->n;
    for (size_t i = 0; i < s->n; i++)
        if (!parse_field(ctx, &s->fields[i], b, n, &off, &out->sub[i], e))
            return false;
    return true;
}

/* asn1.Unmarshal(der, &struct): the value, and the bytes after it in
 * *rest (NULL to ignore them). */
static bool unmarshal(tfx_ctx *ctx, const schema *s, const char *tname, const uint8_t *der,
                      size_t n, dval *out, size_t *rest, derr *e)
{
    field top = {F_SEQ, tname, false, false, false, -1, s};
    size_t off = 0;

    memset(out, 0, sizeof *out);
    e->kind = E_NONE;
    e->msg = NULL;
    if (!parse_field(ctx, &top, der, n, &off, out, e))
        return false;
    if (rest != NULL)
        *rest = n - off;
    return true;
}

/* pkcs1PrivateKey and pkcs1AdditionalRSAPrime */
static const field additional_prime_fields[] = {
    {F_BIGINT, "", false, false, false, -1, NULL},
    {F_BIGINT, "", false, false, false, -1, NULL},
    {F_BIGINT, "", false, false, false, -1, NULL},
};
static const schema additional_prime = {additional_prime_fields, 3};
static const field pkcs1_fields[] = {
    {F_INT, "int", false, false, false, -1, NULL},       /* Version */
    {F_BIGINT, "", false, false, false, -1, NULL},       /* N */
    {F_INT, "int", false, false, false, -1, NULL},       /* E */
    {F_BIGINT, "", false, false, false, -1, NULL},       /* D */
    {F_BIGINT, "", false, false, false, -1, NULL},       /* P */
    {F_BIGINT, "", false, false, false, -1, NULL},       /* Q */
    {F_BIGINT, "", true, false, false, -1, NULL},        /* Dp */
    {F_BIGINT, "", true, false, false, -1, NULL},        /* Dq */
    {F_BIGINT, "", true, false, false, -1, NULL},        /* Qinv */
    {F_SEQOF, "", true, false, true, -1, &additional_prime},
};
static const schema pkcs1 = {pkcs1_fields, TFX_COUNTOF(pkcs1_fields)};

/* ecPrivateKey */
static const field ec_fields[] = {
    {F_INT, "int", false, false, false, -1, NULL},
    {F_OCTETS, "", false, false, false, -1, NULL},
    {F_OID, "ObjectIdentifier", true, true, false, 0, NULL},
    {F_BITS, "BitString", true, true, false, 1, NULL},
};
static const schema ec_key = {ec_fields, TFX_COUNTOF(ec_fields)};

/* pkcs8 and pkix.AlgorithmIdentifier */
static const field algo_id_fields[] = {
    {F_OID, "ObjectIdentifier", false, false, false, -1, NULL},
    {F_RAW, "RawValue", true, false, false, -1, NULL},
};
static const schema algo_id = {algo_id_fields, TFX_COUNTOF(algo_id_fields)};
static const field pkcs8_fields[] = {
    {F_INT, "int", false, false, false, -1, NULL},
    {F_SEQ, "AlgorithmIdentifier", false, false, false, -1, &algo_id},
    {F_OCTETS, "", false, false, false, -1, NULL},
};
static const schema pkcs8 = {pkcs8_fields, TFX_COUNTOF(pkcs8_fields)};

/* ssh's DSA key struct */
static const field dsa_fields[] = {
    {F_INT, "int", false, false, false, -1, NULL},
    {F_BIGINT, "", false, false, false, -1, NULL},
    {F_BIGINT, "", false, false, false, -1, NULL},
    {F_BIGINT, "", false, false, false, -1, NULL},
    {F_BIGINT, "", false, false, false, -1, NULL},
    {F_BIGINT, "", false, false, false, -1, NULL},
};
static const schema dsa_key = {dsa_fields, TFX_COUNTOF(dsa_fields)};

/* DER contents of the OIDs x509 compares with */
static const uint8_t oid_rsa[] = {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01};
static const uint8_t oid_ecdsa[] = {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01};
static const uint8_t oid_ed25519[] = {0x2b, 0x65, 0x70};
static const uint8_t oid_p224[] = {0x2b, 0x81, 0x04, 0x00, 0x21};
static const uint8_t oid_p256[] = {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07};
static const uint8_t oid_p384[] = {0x2b, 0x81, 0x04, 0x00, 0x22};
static const uint8_t oid_p521[] = {0x2b, 0x81, 0x04, 0x00, 0x23};

/* ---- Errors, as Terraform words them ---- */

/* What a parse ended with: the Go error's text and whether it is one of
 * asn1's own error types (which Terraform's rsadecrypt words apart). */
typedef struct {
    tfx_rsakey_status status;
    const char *text;
    err_kind asn1;   /* E_NONE: another error type */
} outcome;

static outcome other_error(const char *text)
{
    outcome o = {TFX_RSAKEY_INVALID, text, E_NONE};
    return o;
}

static outcome asn1_error(tfx_ctx *ctx, const derr *e)
{
    outcome o = {TFX_RSAKEY_INVALID, NULL, e->kind};

    o.text = tfx_ctx_printf(ctx, "asn1: %s error: %s", e->kind == E_SYNTAX ? "syntax" : "structure",
                            e->msg);
    return o;
}

static const char *go_error_text(tfx_ctx *ctx, const derr *e)
{
    return asn1_error(ctx, e).text;
}

/* ---- GMP helpers ---- */

/* x = the two's complement big-endian integer b[0..n) (parseBigInt) */
static void mpz_from_twos(mpz_t x, const uint8_t *b, size_t n)
{
    mpz_import(x, n, 1, 1, 1, 0, b);
    if (n > 0 && (b[0] & 0x80)) {
        mpz_t t;

        mpz_init(t);
        mpz_setbit(t, 8 * n);
        mpz_sub(x, x, t);
        mpz_clear(t);
    }
}

/* x = the ssh wire mpint b[0..n) (parseInt: negative when the top bit is
 * set, as two's complement) */
#define mpz_from_ssh mpz_from_twos

/* The magnitude of x, big-endian, in the arena (x >= 0). */
static const uint8_t *mpz_bytes(tfx_ctx *ctx, const mpz_t x, size_t *n)
{
    size_t count = (mpz_sizeinbase(x, 2) + 7) / 8;
    uint8_t *out = tfx_ctx_alloc(ctx, count + 1);

    if (mpz_sgn(x) == 0) {
        *n = 0;
        return out;
    }
    mpz_export(out, &count, 1, 1, 1, 0, x);
    *n = count;
    return out;
}

/* Charges the steps of arithmetic on numbers of `bits` bits: a cube of
 * their limbs, the cost of an exponentiation, over 64 [fn.rsadecrypt.limits]. */
static void charge(tfx_ctx *ctx, size_t bits)
{
    size_t limbs = bits / 64 + 1;
    size_t cost = limbs > 4096 ? SIZE_MAX : limbs * limbs * limbs / 64 + 1;

    if (cost > ctx->limits.max_steps)
        cost = ctx->limits.max_steps + 1;
    for (size_t i = 0; i < cost; i++)
        tfx_ctx_step(ctx);
}

/* ---- The RSA key: Validate ---- */

/* The numbers of a key while it is checked; cleared by the caller. */
typedef struct {
    mpz_t n, d;
    mpz_t *primes;
    size_t nprimes;
    size_t ninit;      /* primes initialised */
    int64_t e;
} rsa_nums;

/* [fn.rsadecrypt.validate] crypto/rsa's Validate (checkPub first). */
static const char *rsa_validate(tfx_ctx *ctx, rsa_nums *k)
{
    const char *msg = NULL;
    mpz_t m, de, pm1, r;

    if (k->e < 2)
        return "crypto/rsa: public exponent too small";
    if (k->e > INT32_MAX)
        return "crypto/rsa: public exponent too large";
    charge(ctx, mpz_sizeinbase(k->n, 2));
    mpz_inits(m, de, pm1, r, NULL);
    mpz_set_ui(m, 1);
    for (size_t i = 0; i < k->nprimes && msg == NULL; i++) {
        if (mpz_cmp_ui(k->primes[i], 1) <= 0)
            msg = "crypto/rsa: invalid prime value";
        else
            mpz_mul(m, m, k->primes[i]);
    }
    if (msg == NULL && mpz_cmp(m, k->n) != 0)
        msg = "crypto/rsa: invalid modulus";
    if (msg == NULL) {
        mpz_set_si(de, (long)k->e);
        mpz_mul(de, de, k->d);
        for (size_t i = 0; i < k->nprimes && msg == NULL; i++) {
            mpz_sub_ui(pm1, k->primes[i], 1);
            mpz_fdiv_r(r, de, pm1);
            if (mpz_cmp_ui(r, 1) != 0)
                msg = "crypto/rsa: invalid exponents";
        }
    }
    mpz_clears(m, de, pm1, r, NULL);
    return msg;
}

static void rsa_nums_init(rsa_nums *k, tfx_ctx *ctx, size_t nprimes)
{
    mpz_init(k->n);
    mpz_init(k->d);
    k->primes = tfx_ctx_alloc_array(ctx, nprimes, sizeof *k->primes);
    for (size_t i = 0; i < nprimes; i++)
        mpz_init(k->primes[i]);
    k->nprimes = nprimes;
    k->ninit = nprimes;
}

static void rsa_nums_clear(rsa_nums *k)
{
    mpz_clear(k->n);
    mpz_clear(k->d);
    for (size_t i = 0; i < k->ninit; i++)
        mpz_clear(k->primes[i]);
    k->ninit = 0;
}

/* Fills the public key from checked numbers. */
static void rsa_export(tfx_ctx *ctx, const rsa_nums *k, tfx_rsakey *key)
{
    key->n = mpz_bytes(ctx, k->n, &key->nn);
    key->d = NULL;
    key->nd = 0;
    key->e = k->e;
    key->nprimes = k->nprimes;
    key->primes = tfx_ctx_alloc_array(ctx, k->nprimes, sizeof *key->primes);
    key->nprime = tfx_ctx_alloc_array(ctx, k->nprimes, sizeof *key->nprime);
    for (size_t i = 0; i < k->nprimes; i++)
        key->primes[i] = mpz_bytes(ctx, k->primes[i], &key->nprime[i]);
}

/* The state of a parse that holds GMP numbers, for tfx_ctx_try: every
 * number that is live while the arena may fail is here, initialised
 * before the parse and cleared after it, also when a limit ends it. */
typedef struct {
    tfx_rsakey *key;
    outcome result;
    rsa_nums nums;
    bool have_nums;
    mpz_t tmp[4];
} parse_job;

/* ---- x509.ParsePKCS1PrivateKey ---- */

/* [fn.rsadecrypt.pkcs1] */
static outcome parse_pkcs1(tfx_ctx *ctx, parse_job *job, const uint8_t *der, size_t n)
{
    dval v, tmp;
    derr e, e2;
    size_t rest = 0;
    const dval *f;
    size_t nprimes;

    if (!unmarshal(ctx, &pkcs1, "pkcs1PrivateKey", der, n, &v, &rest, &e)) {
        if (unmarshal(ctx, &ec_key, "ecPrivateKey", der, n, &tmp, NULL, &e2))
            return other_error("x509: failed to parse private key (use ParseECPrivateKey instead "
                               "for this key format)");
        if (unmarshal(ctx, &pkcs8, "pkcs8", der, n, &tmp, NULL, &e2))
            return other_error("x509: failed to parse private key (use ParsePKCS8PrivateKey "
                               "instead for this key format)");
        return asn1_error(ctx, &e);
    }
    if (rest > 0) {
        derr t = {E_SYNTAX, "trailing data"};
        return asn1_error(ctx, &t);
    }
    f = v.sub;
    if (f[0].i > 1)
        return other_error("x509: unsupported private key version");
    {
        const int idx[4] = {1, 3, 4, 5};

        for (int i = 0; i < 4; i++) {
            const dval *x = &f[idx[i]];
            bool zero = true;

            for (size_t j = 0; j < x->n; j++)
                zero = zero && x->p[j] == 0;
            if (zero || (x->p[0] & 0x80))
                return other_error("x509: private key contains zero or negative value");
        }
    }
    nprimes = 2 + (f[9].present ? f[9].nsub : 0);
    rsa_nums_init(&job->nums, ctx, nprimes);
    job->have_nums = true;
    mpz_from_twos(job->nums.n, f[1].p, f[1].n);
    mpz_from_twos(job->nums.d, f[3].p, f[3].n);
    mpz_from_twos(job->nums.primes[0], f[4].p, f[4].n);
    mpz_from_twos(job->nums.primes[1], f[5].p, f[5].n);
    job->nums.e = f[2].i;
    for (size_t i = 2; i < nprimes; i++) {
        const dval *a = &f[9].sub[i - 2].sub[0];

        mpz_from_twos(job->nums.primes[i], a->p, a->n);
        if (mpz_sgn(job->nums.primes[i]) <= 0)
            return other_error("x509: private key contains zero or negative prime");
    }
    {
        const char *msg = rsa_validate(ctx, &job->nums);

        if (msg != NULL)
            return other_error(msg);
    }
    {
        outcome ok = {TFX_RSAKEY_OK, NULL, E_NONE};
        return ok;
    }
}

/* ---- Keys of other types: Go's %t of them, as Terraform prints them ---- */

/* fmt's %t of a *big.Int (its Format method, on a verb it lacks) */
static void put_bigint_t(tfx_textbuf *t, const mpz_t x)
{
    char *s = tfx_ctx_alloc(t->ctx, mpz_sizeinbase(x, 10) + 2);

    mpz_get_str(s, 10, x);
    tfx_textbuf_printf(t, "%%!t(big.Int=%s)", s);
}

/* [fn.rsadecrypt.not-rsa] An ed25519.PrivateKey (64 bytes) as %t shows
 * it: each byte as %!t(uint8=N), "&" first for a pointer to it. */
static outcome not_rsa_ed25519(tfx_ctx *ctx, const uint8_t *k, bool pointer)
{
    tfx_textbuf t;
    outcome o = {TFX_RSAKEY_NOT_RSA, NULL, E_NONE};

    tfx_textbuf_init(&t, ctx);
    tfx_textbuf_puts(&t, pointer ? "&[" : "[");
    for (size_t i = 0; i < 64; i++)
        tfx_textbuf_printf(&t, "%s%%!t(uint8=%u)", i ? " " : "", (unsigned)k[i]);
    tfx_textbuf_puts(&t, "]");
    o.text = tfx_textbuf_text(&t);
    return o;
}

/* The Go type of elliptic's curve value, as fmt names it (Go 1.19). */
static const char *curve_type(const struct ecc_curve *c)
{
    if (c == nettle_get_secp_256r1())
        return "*elliptic.p256Curve";
    if (c == nettle_get_secp_224r1())
        return "*elliptic.nistCurve[*crypto/internal/nistec.P224Point]";
    if (c == nettle_get_secp_384r1())
        return "*elliptic.nistCurve[*crypto/internal/nistec.P384Point]";
    return "*elliptic.nistCurve[*crypto/internal/nistec.P521Point]";
}

/* An *ecdsa.PrivateKey of curve c with private scalar d (0 <= d < the
 * order), its public point computed with Nettle.  The curve's own
 * fields are pointers that fmt prints as addresses, which differ from run
 * to run; tfexpr writes 0x0 for them. */
static outcome not_rsa_ecdsa(tfx_ctx *ctx, parse_job *job, const struct ecc_curve *c,
                             const mpz_t d)
{
    tfx_textbuf t;
    outcome o = {TFX_RSAKEY_NOT_RSA, NULL, E_NONE};
    mpz_ptr x = job->tmp[2], y = job->tmp[3];

    mpz_set_ui(x, 0);
    mpz_set_ui(y, 0);
    if (mpz_sgn(d) > 0) {
        struct ecc_scalar s;
        struct ecc_point p;

        ecc_scalar_init(&s, c);
        ecc_point_init(&p, c);
        if (ecc_scalar_set(&s, d)) {
            ecc_point_mul_g(&p, &s);
            ecc_point_get(&p, x, y);
        }
        ecc_point_clear(&p);
        ecc_scalar_clear(&s);
    }
    tfx_textbuf_init(&t, ctx);
    tfx_textbuf_printf(&t, "&{{%%!t(%s=%s) ", curve_type(c),
                       c == nettle_get_secp_256r1() ? "&{{0x0 0x0}}" : "&{0x0 0x0}");
    put_bigint_t(&t, x);
    tfx_textbuf_puts(&t, " ");
    put_bigint_t(&t, y);
    tfx_textbuf_puts(&t, "} ");
    put_bigint_t(&t, d);
    tfx_textbuf_puts(&t, "}");
    o.text = tfx_textbuf_text(&t);
    return o;
}

/* namedCurveFromOID */
static const struct ecc_curve *curve_from_oid(const dval *oid)
{
    if (oid == NULL || !oid->present)
        return NULL;
    if (oid_equal(oid, oid_p224, sizeof oid_p224))
        return nettle_get_secp_224r1();
    if (oid_equal(oid, oid_p256, sizeof oid_p256))
        return nettle_get_secp_256r1();
    if (oid_equal(oid, oid_p384, sizeof oid_p384))
        return nettle_get_secp_384r1();
    if (oid_equal(oid, oid_p521, sizeof oid_p521))
        return nettle_get_secp_521r1();
    return NULL;
}

/* The order of c, as a GMP number. */
static void curve_order(const struct ecc_curve *c, mpz_t q)
{
    static const char *const orders[] = {
        "ffffffffffffffffffffffffffff16a2e0b8f03e13dd29455c5c2a3d",
        "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
        "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973",
        "1fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409",
    };
    int i = c == nettle_get_secp_224r1() ? 0 : c == nettle_get_secp_256r1() ? 1
          : c == nettle_get_secp_384r1() ? 2 : 3;

    mpz_set_str(q, orders[i], 16);
}

/* [fn.rsadecrypt.ec] x509's parseECPrivateKey (named: the curve of a
 * PKCS #8 wrapping, NULL for a SEC 1 block). */
static outcome parse_ec(tfx_ctx *ctx, parse_job *job, const dval *named, const uint8_t *der,
                        size_t n)
{
    dval v, tmp;
    derr e, e2;
    const struct ecc_curve *c;
    outcome o;
    mpz_ptr k = job->tmp[0], q = job->tmp[1];
    size_t keylen;
    const uint8_t *kb;
    size_t nk;

    if (!unmarshal(ctx, &ec_key, "ecPrivateKey", der, n, &v, NULL, &e)) {
        if (unmarshal(ctx, &pkcs8, "pkcs8", der, n, &tmp, NULL, &e2))
            return other_error("x509: failed to parse private key (use ParsePKCS8PrivateKey "
                               "instead for this key format)");
        if (unmarshal(ctx, &pkcs1, "pkcs1PrivateKey", der, n, &tmp, NULL, &e2))
            return other_error("x509: failed to parse private key (use ParsePKCS1PrivateKey "
                               "instead for this key format)");
        return other_error(
            tfx_ctx_printf(ctx, "x509: failed to parse EC private key: %s", go_error_text(ctx, &e)));
    }
    if (v.sub[0].i != 1)
        return other_error(tfx_ctx_printf(ctx, "x509: unknown EC private key version %lld",
                                          (long long)v.sub[0].i));
    c = curve_from_oid(named != NULL ? named : &v.sub[2]);
    if (c == NULL)
        return other_error("x509: unknown elliptic curve");
    kb = v.sub[1].p;
    nk = v.sub[1].n;
    charge(ctx, 8 * nk);
    mpz_import(k, nk, 1, 1, 1, 0, kb);
    curve_order(c, q);
    keylen = (mpz_sizeinbase(q, 2) + 7) / 8;
    if (mpz_cmp(k, q) >= 0) {
        o = other_error("x509: invalid elliptic curve private key value");
    } else {
        while (nk > keylen && kb[0] == 0) {
            kb++;
            nk--;
        }
        if (nk > keylen)
            o = other_error("x509: invalid private key length");
        else
            o = not_rsa_ecdsa(ctx, job, c, k);
    }
    return o;
}

/* ---- x509.ParsePKCS8PrivateKey ---- */

/* [fn.rsadecrypt.pkcs8] */
static outcome parse_pkcs8(tfx_ctx *ctx, parse_job *job, const uint8_t *der, size_t n)
{
    dval v, tmp;
    derr e, e2;
    const dval *alg;

    if (!unmarshal(ctx, &pkcs8, "pkcs8", der, n, &v, NULL, &e)) {
        if (unmarshal(ctx, &ec_key, "ecPrivateKey", der, n, &tmp, NULL, &e2))
            return other_error("x509: failed to parse private key (use ParseECPrivateKey instead "
                               "for this key format)");
        if (unmarshal(ctx, &pkcs1, "pkcs1PrivateKey", der, n, &tmp, NULL, &e2))
            return other_error("x509: failed to parse private key (use ParsePKCS1PrivateKey "
                               "instead for this key format)");
        return asn1_error(ctx, &e);
    }
    alg = &v.sub[1].sub[0];
    if (oid_equal(alg, oid_rsa, sizeof oid_rsa)) {
        outcome o = parse_pkcs1(ctx, job, v.sub[2].p, v.sub[2].n);

        if (o.status != TFX_RSAKEY_OK)
            return other_error(tfx_ctx_printf(
                ctx, "x509: failed to parse RSA private key embedded in PKCS#8: %s", o.text));
        return o;
    }
    if (oid_equal(alg, oid_ecdsa, sizeof oid_ecdsa)) {
        const dval *params = &v.sub[1].sub[1];
        dval named;
        bool have = false;
        outcome o;

        /* asn1.Unmarshal(Parameters.FullBytes, &oid): a failure means none */
        if (params->present && params->raw_class == 0 && params->raw_tag == 6 &&
            !params->raw_compound) {
            derr e3;

            memset(&named, 0, sizeof named);
            if (check_oid(params->p, params->n, &e3)) {
                named.present = true;
                named.p = params->p;
                named.n = params->n;
                have = true;
            }
        }
        o = parse_ec(ctx, job, have ? &named : NULL, v.sub[2].p, v.sub[2].n);
        if (o.status == TFX_RSAKEY_INVALID)
            return other_error(tfx_ctx_printf(
                ctx, "x509: failed to parse EC private key embedded in PKCS#8: %s", o.text));
        return o;
    }
    if (oid_equal(alg, oid_ed25519, sizeof oid_ed25519)) {
        const dval *params = &v.sub[1].sub[1];
        dval seed;
        derr e3;
        size_t off = 0;
        field octets = {F_OCTETS, "", false, false, false, -1, NULL};

        if (params->present)
            return other_error("x509: invalid Ed25519 private key parameters");
        memset(&seed, 0, sizeof seed);
        e3.kind = E_NONE;
        if (!parse_field(ctx, &octets, v.sub[2].p, v.sub[2].n, &off, &seed, &e3))
            return other_error(tfx_ctx_printf(ctx, "x509: invalid Ed25519 private key: %s",
                                              go_error_text(ctx, &e3)));
        if (!seed.present)
            return other_error("x509: invalid Ed25519 private key length: 0");
        if (seed.n != 32)
            return other_error(
                tfx_ctx_printf(ctx, "x509: invalid Ed25519 private key length: %zu", seed.n));
        {
            uint8_t k[64];

            ed25519_sha512_public_key(k + 32, seed.p);
            memcpy(k, seed.p, 32);
            return not_rsa_ed25519(ctx, k, false);
        }
    }
    return other_error(tfx_ctx_printf(
        ctx, "x509: PKCS#8 wrapping contained private key with unknown algorithm: %s",
        oid_text(ctx, alg->p, alg->n)));
}

/* ---- ssh.ParseDSAPrivateKey ---- */

static outcome parse_dsa(tfx_ctx *ctx, parse_job *job, const uint8_t *der, size_t n)
{
    dval v;
    derr e;
    size_t rest = 0;
    tfx_textbuf t;
    mpz_ptr x = job->tmp[0];
    outcome o = {TFX_RSAKEY_NOT_RSA, NULL, E_NONE};
    static const char *const open[] = {"&{{{", " ", " ", "} ", "} "};

    if (!unmarshal(ctx, &dsa_key, "", der, n, &v, &rest, &e))
        return other_error(
            tfx_ctx_printf(ctx, "ssh: failed to parse DSA key: %s", go_error_text(ctx, &e)));
    if (rest > 0)
        return other_error("ssh: garbage after DSA key");
    charge(ctx, 8 * n);
    tfx_textbuf_init(&t, ctx);
    for (int i = 0; i < 5; i++) {
        tfx_textbuf_puts(&t, open[i]);
        mpz_from_twos(x, v.sub[i + 1].p, v.sub[i + 1].n);
        put_bigint_t(&t, x);
    }
    tfx_textbuf_puts(&t, "}");
    o.text = tfx_textbuf_text(&t);
    return o;
}

/* ---- The openssh-key-v1 format ---- */

typedef struct {
    const uint8_t *p;
    size_t n;
} span;

/* parseString */
static bool ssh_string(span *in, span *out)
{
    uint32_t len;

    if (in->n < 4)
        return false;
    len = (uint32_t)in->p[0] << 24 | (uint32_t)in->p[1] << 16 | (uint32_t)in->p[2] << 8 | in->p[3];
    if (in->n - 4 < len)
        return false;
    out->p = in->p + 4;
    out->n = len;
    in->p += 4 + (size_t)len;
    in->n -= 4 + (size_t)len;
    return true;
}

static bool ssh_uint32(span *in, uint32_t *v)
{
    if (in->n < 4)
        return false;
    *v = (uint32_t)in->p[0] << 24 | (uint32_t)in->p[1] << 16 | (uint32_t)in->p[2] << 8 | in->p[3];
    in->p += 4;
    in->n -= 4;
    return true;
}

static bool span_is(span s, const char *text)
{
    return s.n == strlen(text) && memcmp(s.p, text, s.n) == 0;
}

/* checkOpenSSHKeyPadding */
static bool ssh_padding_ok(span pad)
{
    for (size_t i = 0; i < pad.n; i++)
        if (pad.p[i] != (uint8_t)(i + 1))
            return false;
    return true;
}

/* The text of Go's %v of the bytes s[0..n) (raw, NUL included). */
static const char *raw_text(tfx_ctx *ctx, const char *prefix, span s)
{
    tfx_textbuf t;

    tfx_textbuf_init(&t, ctx);
    tfx_textbuf_puts(&t, prefix);
    tfx_textbuf_put(&t, (const char *)s.p, s.n);
    return tfx_textbuf_text(&t);
}

/* The bit length of the ssh mpint b[0..n) (of its absolute value). */
static size_t ssh_bitlen(span b)
{
    mpz_t x;
    size_t bits;

    mpz_init(x);
    mpz_from_twos(x, b.p, b.n);
    bits = mpz_sgn(x) == 0 ? 0 : mpz_sizeinbase(x, 2);
    mpz_clear(x);
    return bits;
}

/* Whether the point of `bytes` is one elliptic.Unmarshal accepts on c:
 * 0x04, then X and Y of the field's size, on the curve. */
static bool ec_point_ok(const struct ecc_curve *c, span bytes)
{
    size_t flen = c == nettle_get_secp_256r1() ? 32 : c == nettle_get_secp_384r1() ? 48 : 66;
    mpz_t x, y;
    struct ecc_point p;
    bool ok;

    if (bytes.n != 1 + 2 * flen || bytes.p[0] != 4)
        return false;
    mpz_inits(x, y, NULL);
    mpz_import(x, flen, 1, 1, 1, 0, bytes.p + 1);
    mpz_import(y, flen, 1, 1, 1, 0, bytes.p + 1 + flen);
    ecc_point_init(&p, c);
    ok = ecc_point_set(&p, x, y) != 0;
    ecc_point_clear(&p);
    mpz_clears(x, y, NULL);
    return ok;
}

/* [fn.rsadecrypt.openssh] The public key blob of an encrypted file, as
 * ssh's ParsePublicKey reads it (only its error matters): the RSA, DSA,
 * ECDSA and Ed25519 key types are checked as Go checks them; the
 * security-key and certificate types are taken as they are. */
static const char *ssh_pubkey_error(tfx_ctx *ctx, span pub)
{
    span algo, a, b;
    static const char *const taken[] = {
        "sk-ecdsa-sha2-nistp256@openssh.com", "sk-ssh-ed25519@openssh.com",
        "ssh-rsa-cert-v01@openssh.com", "ssh-dss-cert-v01@openssh.com",
        "ecdsa-sha2-nistp256-cert-v01@openssh.com", "ecdsa-sha2-nistp384-cert-v01@openssh.com",
        "ecdsa-sha2-nistp521-cert-v01@openssh.com", "ssh-ed25519-cert-v01@openssh.com",
        "sk-ecdsa-sha2-nistp256-cert-v01@openssh.com", "sk-ssh-ed25519-cert-v01@openssh.com",
    };

    if (!ssh_string(&pub, &algo))
        return "ssh: short read";
    if (span_is(algo, "ssh-rsa")) {
        /* parseRSA: E, N, rest */
        if (pub.n == 0)
            return "ssh: parse error in message type 0";
        if (!ssh_string(&pub, &a) || !ssh_string(&pub, &b))
            return "ssh: short read";
        if (ssh_bitlen(a) > 24)
            return "ssh: exponent too large";
        {
            mpz_t e;
            long v;

            mpz_init(e);
            mpz_from_twos(e, a.p, a.n);
            v = mpz_get_si(e);
            mpz_clear(e);
            if (v < 3 || (v & 1) == 0)
                return "ssh: incorrect exponent";
        }
        return NULL;
    }
    if (span_is(algo, "ssh-dss")) {
        span f[4];

        if (pub.n == 0)
            return "ssh: parse error in message type 0";
        for (int i = 0; i < 4; i++)
            if (!ssh_string(&pub, &f[i]))
                return "ssh: short read";
        if (ssh_bitlen(f[0]) != 1024)
            return tfx_ctx_printf(ctx, "ssh: unsupported DSA key size %zu", ssh_bitlen(f[0]));
        return NULL;
    }
    if (span_is(algo, "ecdsa-sha2-nistp256") || span_is(algo, "ecdsa-sha2-nistp384") ||
        span_is(algo, "ecdsa-sha2-nistp521")) {
        const struct ecc_curve *c;

        if (pub.n == 0)
            return "ssh: parse error in message type 0";
        if (!ssh_string(&pub, &a))
            return "ssh: unmarshal error for field Curve of type ";
        if (!ssh_string(&pub, &b))
            return "ssh: short read";
        if (span_is(a, "nistp256"))
            c = nettle_get_secp_256r1();
        else if (span_is(a, "nistp384"))
            c = nettle_get_secp_384r1();
        else if (span_is(a, "nistp521"))
            c = nettle_get_secp_521r1();
        else
            return "ssh: unsupported curve";
        return ec_point_ok(c, b) ? NULL : "ssh: invalid curve point";
    }
    if (span_is(algo, "ssh-ed25519")) {
        if (pub.n == 0)
            return "ssh: parse error in message type 0";
        if (!ssh_string(&pub, &a))
            return "ssh: short read";
        if (a.n != 32)
            return tfx_ctx_printf(ctx, "invalid size %zu for Ed25519 public key", a.n);
        return NULL;
    }
    for (size_t i = 0; i < TFX_COUNTOF(taken); i++)
        if (span_is(algo, taken[i]))
            return NULL;
    return raw_text(ctx, "ssh: unknown key algorithm: ", algo);
}

/* [fn.rsadecrypt.openssh] parseOpenSSHPrivateKey with
 * unencryptedOpenSSHKey */
static outcome parse_openssh(tfx_ctx *ctx, parse_job *job, const uint8_t *b, size_t n)
{
    static const char magic[] = "openssh-key-v1";
    span in, cipher, kdf, kdfopts, pub, priv;
    uint32_t nkeys, c1, c2;
    span pk, ktype;

    if (n < sizeof magic || memcmp(b, magic, sizeof magic) != 0)
        return other_error("ssh: invalid openssh private key format");
    in.p = b + sizeof magic;
    in.n = n - sizeof magic;
    if (in.n == 0)
        return other_error("ssh: parse error in message type 0");
    if (!ssh_string(&in, &cipher))
        return other_error("ssh: unmarshal error for field CipherName of type ");
    if (!ssh_string(&in, &kdf))
        return other_error("ssh: unmarshal error for field KdfName of type ");
    if (!ssh_string(&in, &kdfopts))
        return other_error("ssh: unmarshal error for field KdfOpts of type ");
    if (!ssh_uint32(&in, &nkeys) || !ssh_string(&in, &pub) || !ssh_string(&in, &priv))
        return other_error("ssh: short read");
    if (in.n != 0)
        return other_error("ssh: parse error in message type 0");
    if (nkeys != 1)
        return other_error("ssh: multi-key files are not supported");
    if (!span_is(kdf, "none") || !span_is(cipher, "none")) {
        const char *perr = ssh_pubkey_error(ctx, pub);

        if (perr != NULL)
            return other_error(
                tfx_ctx_printf(ctx, "ssh: failed to parse embedded public key: %s", perr));
        return other_error("ssh: this private key is passphrase protected");
    }
    if (kdfopts.n != 0)
        return other_error("ssh: invalid openssh private key");
    /* pk1: Check1, Check2, Keytype, Rest */
    pk = priv;
    if (pk.n == 0 || !ssh_uint32(&pk, &c1) || !ssh_uint32(&pk, &c2) || !ssh_string(&pk, &ktype) ||
        c1 != c2)
        return other_error("ssh: malformed OpenSSH key");
    if (span_is(ktype, "ssh-rsa")) {
        span f[6], comment;
        mpz_t e;
        rsa_nums *k = &job->nums;

        if (pk.n == 0)
            return other_error("ssh: parse error in message type 0");
        for (int i = 0; i < 6; i++)
            if (!ssh_string(&pk, &f[i]))
                return other_error("ssh: short read");
        if (!ssh_string(&pk, &comment))
            return other_error("ssh: unmarshal error for field Comment of type ");
        if (!ssh_padding_ok(pk))
            return other_error("ssh: padding not as expected");
        /* N E D Iqmp P Q */
        rsa_nums_init(k, ctx, 2);
        job->have_nums = true;
        charge(ctx, 8 * f[0].n);
        mpz_from_ssh(k->n, f[0].p, f[0].n);
        mpz_from_ssh(k->d, f[2].p, f[2].n);
        mpz_from_ssh(k->primes[0], f[4].p, f[4].n);
        mpz_from_ssh(k->primes[1], f[5].p, f[5].n);
        /* E: int(big.Int.Int64()): the low 64 bits of |E|, negated with E */
        mpz_init(e);
        mpz_from_ssh(e, f[1].p, f[1].n);
        {
            uint64_t low = 0;
            mpz_t a;

            mpz_init(a);
            mpz_abs(a, e);
            mpz_fdiv_r_2exp(a, a, 64);
            for (int i = 1; i >= 0; i--) {
                mpz_t part;

                mpz_init(part);
                mpz_fdiv_q_2exp(part, a, (mp_bitcnt_t)32 * (mp_bitcnt_t)i);
                mpz_fdiv_r_2exp(part, part, 32);
                low = low << 32 | (uint64_t)mpz_get_ui(part);
                mpz_clear(part);
            }
            if (mpz_sgn(e) < 0)
                low = ~low + 1;
            memcpy(&k->e, &low, sizeof low);
            mpz_clear(a);
        }
        mpz_clear(e);
        {
            const char *msg = rsa_validate(ctx, k);

            if (msg != NULL)
                return other_error(msg);
        }
        {
            outcome ok = {TFX_RSAKEY_OK, NULL, E_NONE};
            return ok;
        }
    }
    if (span_is(ktype, "ssh-ed25519")) {
        span kpub, kpriv, comment;

        if (pk.n == 0)
            return other_error("ssh: parse error in message type 0");
        if (!ssh_string(&pk, &kpub) || !ssh_string(&pk, &kpriv))
            return other_error("ssh: short read");
        if (!ssh_string(&pk, &comment))
            return other_error("ssh: unmarshal error for field Comment of type ");
        if (kpriv.n != 64)
            return other_error("ssh: private key unexpected length");
        if (!ssh_padding_ok(pk))
            return other_error("ssh: padding not as expected");
        return not_rsa_ed25519(ctx, kpriv.p, true);
    }
    if (span_is(ktype, "ecdsa-sha2-nistp256") || span_is(ktype, "ecdsa-sha2-nistp384") ||
        span_is(ktype, "ecdsa-sha2-nistp521")) {
        span curve, kpub, d, comment;
        const struct ecc_curve *c;
        outcome o;
        mpz_ptr dz = job->tmp[0], q = job->tmp[1], x = job->tmp[2], y = job->tmp[3];
        size_t flen;

        if (pk.n == 0)
            return other_error("ssh: parse error in message type 0");
        if (!ssh_string(&pk, &curve))
            return other_error("ssh: unmarshal error for field Curve of type ");
        if (!ssh_string(&pk, &kpub) || !ssh_string(&pk, &d))
            return other_error("ssh: short read");
        if (!ssh_string(&pk, &comment))
            return other_error("ssh: unmarshal error for field Comment of type ");
        if (!ssh_padding_ok(pk))
            return other_error("ssh: padding not as expected");
        if (span_is(curve, "nistp256"))
            c = nettle_get_secp_256r1();
        else if (span_is(curve, "nistp384"))
            c = nettle_get_secp_384r1();
        else if (span_is(curve, "nistp521"))
            c = nettle_get_secp_521r1();
        else
            return other_error(raw_text(ctx, "ssh: unhandled elliptic curve: ", curve));
        charge(ctx, 8 * d.n);
        curve_order(c, q);
        flen = c == nettle_get_secp_256r1() ? 32 : c == nettle_get_secp_384r1() ? 48 : 66;
        mpz_from_ssh(dz, d.p, d.n);
        o.status = TFX_RSAKEY_INVALID;
        o.asn1 = E_NONE;
        o.text = NULL;
        if (!ec_point_ok(c, kpub)) {
            o.text = "ssh: failed to unmarshal public key";
        } else {
            mpz_import(x, flen, 1, 1, 1, 0, kpub.p + 1);
            mpz_import(y, flen, 1, 1, 1, 0, kpub.p + 1 + flen);
        }
        if (o.text == NULL && mpz_cmp(dz, q) >= 0)
            o.text = "ssh: scalar is out of range";
        if (o.text == NULL) {
            struct ecc_scalar s;
            struct ecc_point p;
            mpz_t gx, gy;
            bool same = false;

            mpz_inits(gx, gy, NULL);
            ecc_scalar_init(&s, c);
            ecc_point_init(&p, c);
            if (mpz_sgn(dz) > 0 && ecc_scalar_set(&s, dz)) {
                ecc_point_mul_g(&p, &s);
                ecc_point_get(&p, gx, gy);
                same = mpz_cmp(gx, x) == 0 && mpz_cmp(gy, y) == 0;
            }
            ecc_point_clear(&p);
            ecc_scalar_clear(&s);
            mpz_clears(gx, gy, NULL);
            if (!same)
                o.text = "ssh: public key does not match private key";
        }
        if (o.text == NULL)
            o = not_rsa_ecdsa(ctx, job, c, dz);
        return o;
    }
    return other_error("ssh: unhandled key type");
}

/* ---- ParseRawPrivateKey ---- */

typedef struct {
    pem_block block;
    parse_job job;
} parse_state;

static void parse_run(tfx_ctx *ctx, void *arg)
{
    parse_state *st = arg;
    const char *type = st->block.type;
    const uint8_t *b = st->block.bytes;
    size_t n = st->block.nbytes;

    if (strcmp(type, "RSA PRIVATE KEY") == 0)
        st->job.result = parse_pkcs1(ctx, &st->job, b, n);
    else if (strcmp(type, "PRIVATE KEY") == 0)
        st->job.result = parse_pkcs8(ctx, &st->job, b, n);
    else if (strcmp(type, "EC PRIVATE KEY") == 0)
        st->job.result = parse_ec(ctx, &st->job, NULL, b, n);
    else if (strcmp(type, "DSA PRIVATE KEY") == 0)
        st->job.result = parse_dsa(ctx, &st->job, b, n);
    else
        st->job.result = parse_openssh(ctx, &st->job, b, n);
    if (st->job.result.status == TFX_RSAKEY_OK)
        rsa_export(ctx, &st->job.nums, st->job.key);
    if (st->job.result.status == TFX_RSAKEY_OK) {
        /* keep d for the decryption, as Go keeps it (possibly negative
         * from an OpenSSH file): sign and magnitude */
        mpz_ptr a = st->job.tmp[0];

        mpz_abs(a, st->job.nums.d);
        st->job.key->d = mpz_bytes(ctx, a, &st->job.key->nd);
        if (mpz_sgn(st->job.nums.d) < 0) {
            /* Only d mod (p-1) of each prime is used: store d mod the
             * product of the (p-1), nonnegative, which gives the same. */
            mpz_ptr l = st->job.tmp[1], t = st->job.tmp[2];

            mpz_set_ui(l, 1);
            for (size_t i = 0; i < st->job.nums.nprimes; i++) {
                mpz_sub_ui(t, st->job.nums.primes[i], 1);
                mpz_mul(l, l, t);
            }
            mpz_fdiv_r(t, st->job.nums.d, l);
            st->job.key->d = mpz_bytes(ctx, t, &st->job.key->nd);
        }
    }
}

/* [fn.rsadecrypt.key] */
tfx_rsakey_status tfx_rsakey_parse(tfx_ctx *ctx, const char *pem, size_t n, tfx_rsakey *key,
                                   const char **message)
{
    parse_state st;
    bool ok;

    memset(&st, 0, sizeof st);
    memset(key, 0, sizeof *key);
    if (!pem_decode(ctx, pem, n, &st.block)) {
        *message = "invalid private key: ssh: no key found";
        return TFX_RSAKEY_INVALID;
    }
    if (st.block.encrypted) {
        *message = "invalid private key: ssh: this private key is passphrase protected";
        return TFX_RSAKEY_INVALID;
    }
    if (strcmp(st.block.type, "RSA PRIVATE KEY") != 0 && strcmp(st.block.type, "PRIVATE KEY") != 0 &&
        strcmp(st.block.type, "EC PRIVATE KEY") != 0 &&
        strcmp(st.block.type, "DSA PRIVATE KEY") != 0 &&
        strcmp(st.block.type, "OPENSSH PRIVATE KEY") != 0) {
        *message = tfx_ctx_printf(ctx, "invalid private key: ssh: unsupported key type %s",
                                  tfx_textbuf_quoted(ctx, st.block.type, strlen(st.block.type)));
        return TFX_RSAKEY_INVALID;
    }
    st.job.key = key;
    mpz_inits(st.job.tmp[0], st.job.tmp[1], st.job.tmp[2], st.job.tmp[3], NULL);
    ok = tfx_ctx_try(ctx, parse_run, &st);
    mpz_clears(st.job.tmp[0], st.job.tmp[1], st.job.tmp[2], st.job.tmp[3], NULL);
    if (st.job.have_nums)
        rsa_nums_clear(&st.job.nums);
    if (!ok)
        tfx_ctx_fail(ctx, ctx->fail_summary, "%s", ctx->fail_detail);
    switch (st.job.result.status) {
    case TFX_RSAKEY_OK:
        *message = NULL;
        return TFX_RSAKEY_OK;
    case TFX_RSAKEY_NOT_RSA:
        *message = tfx_ctx_printf(ctx, "invalid private key type %s", st.job.result.text);
        return TFX_RSAKEY_NOT_RSA;
    default:
        break;
    }
    /* Terraform's wording: asn1.SyntaxError reworded, asn1.StructuralError
     * as it is (its replacement text misspells "structure"), others after
     * "invalid private key: " */
    if (st.job.result.asn1 == E_SYNTAX) {
        const char *t = st.job.result.text;
        const char *p = "asn1: syntax error";

        *message = tfx_ctx_printf(ctx, "invalid ASN1 data in the given private key%s", t + strlen(p));
    } else if (st.job.result.asn1 == E_STRUCT) {
        *message = st.job.result.text;
    } else {
        *message = tfx_ctx_printf(ctx, "invalid private key: %s", st.job.result.text);
    }
    return TFX_RSAKEY_INVALID;
}

/* ---- Decryption ---- */

typedef struct {
    const tfx_rsakey *key;
    const uint8_t *c;
    size_t nc;
    uint8_t *out;
    size_t nout;
    const char *message;
    bool ok;
    mpz_t n, d, cz, m;
    mpz_t *p;
    size_t np;
    bool pn;            /* Go 1.23's rules [fn.rsadecrypt.decrypt.pn] */
} dec_job;

/* Go's decryptPKCS1v15 check of em[0..k): 0x00 0x02, eight or more
 * nonzero bytes, 0x00, the message. */
static bool unpad(const uint8_t *em, size_t k, size_t *index)
{
    size_t i;

    if (em[0] != 0 || em[1] != 2)
        return false;
    for (i = 2; i < k && em[i] != 0; i++)
        ;
    if (i == k || i < 10)
        return false;
    *index = i + 1;
    return true;
}

/* Go's decrypt (rsa.go) with its precomputed CRT values, on GMP: for the
 * keys Nettle's preconditions exclude.  Returns false where Go's
 * ModInverse gives nil, which Go's decrypt then dereferences. */
static bool go_crt(dec_job *j)
{
    mpz_t m2, dp, h, r, coeff, exp;
    bool ok = true;

    mpz_inits(m2, dp, h, r, coeff, exp, NULL);
    mpz_sub_ui(dp, j->p[0], 1);
    mpz_fdiv_r(dp, j->d, dp);
    mpz_powm(j->m, j->cz, dp, j->p[0]);
    mpz_sub_ui(dp, j->p[1], 1);
    mpz_fdiv_r(dp, j->d, dp);
    mpz_powm(m2, j->cz, dp, j->p[1]);
    if (!mpz_invert(h, j->p[1], j->p[0]))
        ok = false;
    if (ok) {
        mpz_sub(j->m, j->m, m2);
        if (mpz_sgn(j->m) < 0)
            mpz_add(j->m, j->m, j->p[0]);
        mpz_mul(j->m, j->m, h);
        mpz_fdiv_r(j->m, j->m, j->p[0]);
        mpz_mul(j->m, j->m, j->p[1]);
        mpz_add(j->m, j->m, m2);
        mpz_mul(r, j->p[0], j->p[1]);
        for (size_t i = 2; i < j->np && ok; i++) {
            mpz_sub_ui(exp, j->p[i], 1);
            mpz_fdiv_r(exp, j->d, exp);
            if (!mpz_invert(coeff, r, j->p[i])) {
                ok = false;
                break;
            }
            mpz_powm(m2, j->cz, exp, j->p[i]);
            mpz_sub(m2, m2, j->m);
            mpz_mul(m2, m2, coeff);
            mpz_fdiv_r(m2, m2, j->p[i]);
            mpz_mul(m2, m2, r);
            mpz_add(j->m, j->m, m2);
            mpz_mul(r, r, j->p[i]);
        }
    }
    mpz_clears(m2, dp, h, r, coeff, exp, NULL);
    return ok;
}

/* Whether Nettle's rsa_decrypt computes what Go does for this key: two
 * distinct odd probable primes (its CRT is then Go's). */
static bool nettle_fits(const dec_job *j)
{
    return j->np == 2 && mpz_odd_p(j->p[0]) && mpz_odd_p(j->p[1]) &&
           mpz_cmp(j->p[0], j->p[1]) != 0 && mpz_probab_prime_p(j->p[0], 2) != 0 &&
           mpz_probab_prime_p(j->p[1], 2) != 0;
}

static const char NIL_PANIC[] =
    "panic in function implementation: runtime error: invalid memory address or nil pointer "
    "dereference";

/* [fn.rsadecrypt.decrypt.pn] Go 1.23's checks before its decryption
 * proper, after the size check: the panic of a two-prime key whose q has
 * no inverse modulo p (its precomputed inverse is nil), an even modulus
 * (bigmod refuses it), a ciphertext longer than the modulus's 64-bit
 * words hold (bigmod's setBytes, leading zeros included) or not below
 * the modulus.  Sets j->message and returns false on failure; j->cz is
 * the ciphertext's number. */
static bool go123_checks(dec_job *j)
{
    size_t words = (mpz_sizeinbase(j->n, 2) + 63) / 64;

    if (j->np == 2 && mpz_odd_p(j->n)) {
        mpz_t h;
        int invertible;

        mpz_init(h);
        invertible = mpz_invert(h, j->p[1], j->p[0]);
        mpz_clear(h);
        if (!invertible) {
            j->message = NIL_PANIC;
            return false;
        }
    }
    if (mpz_even_p(j->n) || j->nc > words * 8)
        return false;
    return mpz_cmp(j->cz, j->n) < 0;
}

/* Decrypts with Nettle when nettle_fits(j) and Nettle takes the key:
 * true when that decided the result (j->ok, j->out: the message itself),
 * false to go on with Go's steps. */
static bool nettle_decrypt(dec_job *j, uint8_t *em, size_t k)
{
    struct rsa_private_key priv;
    size_t len = k;
    bool decided = false;

    if (!nettle_fits(j))
        return false;
    rsa_private_key_init(&priv);
    mpz_set(priv.p, j->p[0]);
    mpz_set(priv.q, j->p[1]);
    mpz_sub_ui(priv.a, j->p[0], 1);
    mpz_fdiv_r(priv.a, j->d, priv.a);
    mpz_sub_ui(priv.b, j->p[1], 1);
    mpz_fdiv_r(priv.b, j->d, priv.b);
    mpz_invert(priv.c, j->p[1], j->p[0]);
    mpz_set(priv.d, j->d);
    if (rsa_private_key_prepare(&priv) && priv.size == k) {
        decided = true;
        if (rsa_decrypt(&priv, &len, em, j->cz)) {
            j->out = em;
            j->nout = len;
            j->ok = true;
            j->message = NULL;
        }
    }
    rsa_private_key_clear(&priv);
    return decided;
}

static void decrypt_run(tfx_ctx *ctx, void *arg)
{
    dec_job *j = arg;
    size_t k = (mpz_sizeinbase(j->n, 2) + 7) / 8;
    uint8_t *em;
    size_t index = 0;

    j->message = "crypto/rsa: decryption error";
    if (mpz_sgn(j->n) == 0 || k < 11)
        return;
    charge(ctx, mpz_sizeinbase(j->n, 2));
    mpz_import(j->cz, j->nc, 1, 1, 1, 0, j->c);
    if (j->pn ? !go123_checks(j) : mpz_cmp(j->cz, j->n) > 0)
        return;
    em = tfx_ctx_alloc(ctx, k + 1);
    if (j->pn && j->np > 2) {
        /* Go 1.23 has no CRT values for more than two primes: c^d mod n */
        mpz_powm(j->m, j->cz, j->d, j->n);
    } else if (nettle_decrypt(j, em, k)) {
        return;
    } else if (!go_crt(j)) {
        j->message = NIL_PANIC;
        return;
    }
    mpz_export(em + k - (mpz_sizeinbase(j->m, 2) + 7) / 8, NULL, 1, 1, 1, 0, j->m);
    if (mpz_sgn(j->m) == 0)
        memset(em, 0, k);
    if (!unpad(em, k, &index))
        return;
    j->out = em + index;
    j->nout = k - index;
    j->ok = true;
    j->message = NULL;
}

/* [fn.rsadecrypt.decrypt] */
bool tfx_rsakey_decrypt(tfx_ctx *ctx, const tfx_rsakey *key, const uint8_t *c, size_t nc,
                        uint8_t **out, size_t *out_n, const char **message)
{
    dec_job j;
    bool ran;

    memset(&j, 0, sizeof j);
    j.key = key;
    j.c = c;
    j.nc = nc;
    j.np = key->nprimes;
    j.pn = ctx->pn;
    j.p = tfx_ctx_alloc_array(ctx, j.np, sizeof *j.p);
    mpz_inits(j.n, j.d, j.cz, j.m, NULL);
    for (size_t i = 0; i < j.np; i++) {
        mpz_init(j.p[i]);
        mpz_import(j.p[i], key->nprime[i], 1, 1, 1, 0, key->primes[i]);
    }
    mpz_import(j.n, key->nn, 1, 1, 1, 0, key->n);
    mpz_import(j.d, key->nd, 1, 1, 1, 0, key->d);
    ran = tfx_ctx_try(ctx, decrypt_run, &j);
    for (size_t i = 0; i < j.np; i++)
        mpz_clear(j.p[i]);
    mpz_clears(j.n, j.d, j.cz, j.m, NULL);
    if (!ran)
        tfx_ctx_fail(ctx, ctx->fail_summary, "%s", ctx->fail_detail);
    *out = j.out;
    *out_n = j.nout;
    *message = j.message;
    return j.ok;
}
