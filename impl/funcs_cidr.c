/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_cidr.c — the IP network functions cidrhost, cidrnetmask,
 * cidrsubnet and cidrsubnets (spec/functions-network.md, rules fn.cidr*):
 * Terraform's internal/lang/funcs/cidr.go over its own address parser
 * (internal/ipaddr: Go 1.16's, IPv4 parts with leading zeros allowed) and
 * go-cidr 1.1.0's arithmetic, with Go's net.IP / net.IPNet printing.
 *
 * go-cidr works on Go's byte slices: an address or mask is 0 (nil), 4 or
 * 16 bytes long, and the functions below follow what each of net's and
 * go-cidr's operations does with every length, including the corners
 * where go-cidr panics (cty reports a panic as a plain error, [fn.cidr.panic]).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common.h"
#include "funcs_internal.h"

/* A Go net.IP or net.IPMask: len 0 (nil), 4 or 16 bytes. */
typedef struct {
    unsigned char b[16];
    size_t len;
} go_ip;

typedef struct {
    go_ip ip, mask;
} go_net;

static const unsigned char v4_in_v6[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

/* gocty's messages for numbers that do not convert [fn.cidr.numbers]. */
static const char int_message[] =
    "value must be a whole number, between -9223372036854775808 and 9223372036854775807";
static const char whole_message[] = "value must be a whole number";

/* What Go reports when go-cidr writes outside a slice [fn.cidr.panic]. */
static const char panic_index[] = "panic in function implementation: runtime error: index out of range [-1]";

/* ---- Terraform's address parser [fn.cidr.parse] ---- */

#define CIDR_BIG 0xFFFFFF

/* dtoi: decimal digits at the start of s[0..n); false when there are none
 * or the value reaches 0xFFFFFF. */
static bool parse_dec(const char *s, size_t n, long *value, size_t *used)
{
    long v = 0;
    size_t i = 0;

    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        v = v * 10 + (s[i] - '0');
        if (v >= CIDR_BIG)
            return false;
    }
    *value = v;
    *used = i;
    return i > 0;
}

/* xtoi: hexadecimal digits at the start of s[0..n), as parse_dec. */
static bool parse_hex(const char *s, size_t n, long *value, size_t *used)
{
    long v = 0;
    size_t i = 0;

    for (; i < n; i++) {
        int d;

        if (s[i] >= '0' && s[i] <= '9')
            d = s[i] - '0';
        else if (s[i] >= 'a' && s[i] <= 'f')
            d = s[i] - 'a' + 10;
        else if (s[i] >= 'A' && s[i] <= 'F')
            d = s[i] - 'A' + 10;
        else
            break;
        v = v * 16 + d;
        if (v >= CIDR_BIG)
            return false;
    }
    *value = v;
    *used = i;
    return i > 0;
}

/* Four dot-separated decimal parts of at most 255 making all of s, as the
 * 16-byte IPv4-mapped form. */
static bool parse_ipv4(const char *s, size_t n, go_ip *out)
{
    memset(out->b, 0, 16);
    out->b[10] = out->b[11] = 0xff;
    out->len = 16;
    for (int i = 0; i < 4; i++) {
        long v;
        size_t used;

        if (n == 0)
            return false;
        if (i > 0) {
            if (s[0] != '.')
                return false;
            s++;
            n--;
        }
        if (!parse_dec(s, n, &v, &used) || v > 0xFF)
            return false;
        s += used;
        n -= used;
        out->b[12 + i] = (unsigned char)v;
    }
    return n == 0;
}

/* Groups of hex digits separated by ':', one "::" at most, an IPv4
 * address allowed as the last 32 bits. */
static bool parse_ipv6(const char *s, size_t n, go_ip *out)
{
    int ellipsis = -1, i = 0;

    memset(out->b, 0, 16);
    out->len = 16;
    if (n >= 2 && s[0] == ':' && s[1] == ':') {
        ellipsis = 0;
        s += 2;
        n -= 2;
        if (n == 0)
            return true;
    }
    while (i < 16) {
        long v;
        size_t c;

        if (!parse_hex(s, n, &v, &c) || v > 0xFFFF)
            return false;
        if (c < n && s[c] == '.') {
            go_ip v4;

            if (ellipsis < 0 && i != 12)
                return false;
            if (i + 4 > 16)
                return false;
            if (!parse_ipv4(s, n, &v4))
                return false;
            memcpy(out->b + i, v4.b + 12, 4);
            n = 0;
            i += 4;
            break;
        }
        out->b[i] = (unsigned char)(v >> 8);
        out->b[i + 1] = (unsigned char)v;
        i += 2;
        s += c;
        n -= c;
        if (n == 0)
            break;
        if (s[0] != ':' || n == 1)
            return false;
        s++;
        n--;
        if (s[0] == ':') {
            if (ellipsis >= 0)
                return false;
            ellipsis = i;
            s++;
            n--;
            if (n == 0)
                break;
        }
    }
    if (n != 0)
        return false;
    if (i < 16) {
        int shift = 16 - i;

        if (ellipsis < 0)
            return false;
        for (int j = i - 1; j >= ellipsis; j--)
            out->b[j + shift] = out->b[j];
        for (int j = ellipsis + shift - 1; j >= ellipsis; j--)
            out->b[j] = 0;
    } else if (ellipsis >= 0) {
        return false;
    }
    return true;
}

/* ---- net's operations on slices ---- */

/* net.CIDRMask(ones, bits): len 0 unless bits is 32 or 128 and ones is
 * within 0..bits. */
static go_ip go_cidr_mask(int64_t ones, int64_t bits)
{
    go_ip m;

    memset(&m, 0, sizeof m);
    if ((bits != 32 && bits != 128) || ones < 0 || ones > bits)
        return m;
    m.len = (size_t)bits / 8;
    for (size_t i = 0; i < m.len; i++) {
        if (ones >= 8) {
            m.b[i] = 0xff;
            ones -= 8;
        } else {
            m.b[i] = (unsigned char)(0xff00u >> ones);
            ones = 0;
        }
    }
    return m;
}

/* IP.To4: the 4-byte form, or false. */
static bool go_to4(const go_ip *ip, go_ip *out)
{
    if (ip->len == 4) {
        *out = *ip;
        return true;
    }
    if (ip->len == 16 && memcmp(ip->b, v4_in_v6, 12) == 0) {
        memset(out, 0, sizeof *out);
        memcpy(out->b, ip->b + 12, 4);
        out->len = 4;
        return true;
    }
    return false;
}

/* go-cidr's checkIPv4: To4 when it gives something, else ip. */
static go_ip check_ipv4(const go_ip *ip)
{
    go_ip out;

    if (go_to4(ip, &out))
        return out;
    return *ip;
}

/* IP.Mask(mask). */
static go_ip go_mask(const go_ip *ip_in, const go_ip *mask_in)
{
    const unsigned char *ip = ip_in->b, *mask = mask_in->b;
    size_t ilen = ip_in->len, mlen = mask_in->len;
    go_ip out;

    memset(&out, 0, sizeof out);
    if (mlen == 16 && ilen == 4) {
        bool all_ff = true;

        for (int i = 0; i < 12; i++)
            all_ff = all_ff && mask[i] == 0xff;
        if (all_ff) {
            mask += 12;
            mlen = 4;
        }
    }
    if (mlen == 4 && ilen == 16 && memcmp(ip, v4_in_v6, 12) == 0) {
        ip += 12;
        ilen = 4;
    }
    if (ilen != mlen)
        return out;
    out.len = ilen;
    for (size_t i = 0; i < ilen; i++)
        out.b[i] = ip[i] & mask[i];
    return out;
}

/* simpleMaskLength: the count of leading ones, -1 if the mask is not
 * ones then zeros. */
static int simple_mask_length(const go_ip *m)
{
    int n = 0;

    for (size_t i = 0; i < m->len; i++) {
        unsigned v = m->b[i];

        if (v == 0xff) {
            n += 8;
            continue;
        }
        while (v & 0x80u) {
            n++;
            v = (v << 1) & 0xffu;
        }
        if (v != 0)
            return -1;
        for (i++; i < m->len; i++)
            if (m->b[i] != 0)
                return -1;
        break;
    }
    return n;
}

/* IPMask.Size. */
static void go_mask_size(const go_ip *m, int *ones, int *bits)
{
    *ones = simple_mask_length(m);
    *bits = (int)m->len * 8;
    if (*ones == -1)
        *ones = *bits = 0;
}

/* IP.Equal. */
static bool go_equal(const go_ip *a, const go_ip *x)
{
    if (a->len == x->len)
        return memcmp(a->b, x->b, a->len) == 0;
    if (a->len == 4 && x->len == 16)
        return memcmp(x->b, v4_in_v6, 12) == 0 && memcmp(a->b, x->b + 12, 4) == 0;
    if (a->len == 16 && x->len == 4)
        return memcmp(a->b, v4_in_v6, 12) == 0 && memcmp(a->b + 12, x->b, 4) == 0;
    return false;
}

/* networkNumberAndMask: false where Go gives nil. */
static bool go_network_and_mask(const go_net *n, go_ip *ip, go_ip *m)
{
    if (!go_to4(&n->ip, ip)) {
        *ip = n->ip;
        if (ip->len != 16)
            return false;
    }
    *m = n->mask;
    switch (m->len) {
    case 4:
        return ip->len == 4;
    case 16:
        if (ip->len == 4) {
            memmove(m->b, m->b + 12, 4);
            m->len = 4;
        }
        return true;
    default:
        return false;
    }
}

/* IPNet.Contains. */
static bool go_contains(const go_net *n, const go_ip *ip_in)
{
    go_ip nn, m, ip = *ip_in, x;

    if (!go_network_and_mask(n, &nn, &m))
        nn.len = 0;
    if (go_to4(&ip, &x))
        ip = x;
    if (ip.len != nn.len)
        return false;
    for (size_t i = 0; i < ip.len; i++)
        if ((nn.b[i] & m.b[i]) != (ip.b[i] & m.b[i]))
            return false;
    return true;
}

/* [fn.cidr.text] IP.String: "<nil>" for no bytes; dotted decimal when
 * To4 gives 4 bytes; for 16 bytes, groups in lower-case hex without
 * leading zeros, the first longest run of two or more zero groups as
 * "::"; other lengths "?" and the hex bytes. */
static void put_ip(tfx_textbuf *b, const go_ip *ip)
{
    static const char hex[] = "0123456789abcdef";
    go_ip p4;

    if (ip->len == 0) {
        tfx_textbuf_puts(b, "<nil>");
        return;
    }
    if (go_to4(ip, &p4)) {
        tfx_textbuf_printf(b, "%u.%u.%u.%u", p4.b[0], p4.b[1], p4.b[2], p4.b[3]);
        return;
    }
    if (ip->len != 16) {
        tfx_textbuf_putc(b, '?');
        for (size_t i = 0; i < ip->len; i++) {
            tfx_textbuf_putc(b, hex[ip->b[i] >> 4]);
            tfx_textbuf_putc(b, hex[ip->b[i] & 15]);
        }
        return;
    }
    {
        unsigned g[8];
        int e0 = -1, e1 = -1;

        for (int i = 0; i < 8; i++)
            g[i] = ((unsigned)ip->b[(size_t)i * 2] << 8) | ip->b[(size_t)i * 2 + 1];
        for (int i = 0; i < 8; i++) {
            int j = i;

            while (j < 8 && g[j] == 0)
                j++;
            if (j > i && j - i > e1 - e0) {
                e0 = i;
                e1 = j;
                i = j;
            }
        }
        if (e1 - e0 <= 1)
            e0 = e1 = -1;
        for (int i = 0; i < 8; i++) {
            if (i == e0) {
                tfx_textbuf_put(b, "::", 2);
                i = e1;
                if (i >= 8)
                    break;
            } else if (i > 0) {
                tfx_textbuf_putc(b, ':');
            }
            tfx_textbuf_printf(b, "%x", g[i]);
        }
    }
}

/* IPNet.String: address "/" prefix length, "<nil>" where Go has no
 * network number or mask. */
static void put_net(tfx_textbuf *b, const go_net *n)
{
    go_ip nn, m;
    int l;

    if (!go_network_and_mask(n, &nn, &m)) {
        tfx_textbuf_puts(b, "<nil>");
        return;
    }
    put_ip(b, &nn);
    l = simple_mask_length(&m);
    if (l == -1) {
        tfx_textbuf_putc(b, '/');
        for (size_t i = 0; i < m.len; i++)
            tfx_textbuf_printf(b, "%02x", m.b[i]);
        return;
    }
    tfx_textbuf_printf(b, "/%d", l);
}

static const char *ip_text(tfx_ctx *ctx, const go_ip *ip)
{
    tfx_textbuf b;

    tfx_textbuf_init(&b, ctx);
    put_ip(&b, ip);
    return tfx_textbuf_text(&b);
}

static const char *net_text(tfx_ctx *ctx, const go_net *n)
{
    tfx_textbuf b;

    tfx_textbuf_init(&b, ctx);
    put_net(&b, n);
    return tfx_textbuf_text(&b);
}

/* [fn.cidr.parse] ParseCIDR: split at the first '/'; an IPv4 address
 * (then 32 bits) or else an IPv6 one (128 bits); the length decimal
 * digits only, up to the bits; the network is the address masked.  The
 * message on failure is the plain error text of every function. */
static bool parse_cidr(tfx_ctx *ctx, const char *s, size_t n, go_net *net, const char **error)
{
    const char *slash = memchr(s, '/', n);
    go_ip ip;
    int bits = 32;
    long len = 0;
    size_t used = 0, alen, mlen;
    bool ok;

    if (slash == NULL)
        goto bad;
    alen = (size_t)(slash - s);
    mlen = n - alen - 1;
    ok = parse_ipv4(s, alen, &ip);
    if (!ok) {
        bits = 128;
        ok = parse_ipv6(s, alen, &ip);
    }
    if (!ok || !parse_dec(slash + 1, mlen, &len, &used) || used != mlen || len > bits)
        goto bad;
    net->mask = go_cidr_mask(len, bits);
    net->ip = go_mask(&ip, &net->mask);
    return true;
bad:
    *error = tfx_ctx_printf(ctx, "invalid CIDR expression: invalid CIDR address: %.*s", (int)n, s);
    return false;
}

/* ---- Big numbers, as go-cidr sees them ---- */

/* An integer argument as a *big.Int: its sign and the hex digits of its
 * magnitude (no leading zeros; "0" for zero). */
typedef struct {
    bool neg;
    const char *hex;
    size_t nhex;
    const tfx_num *num;
} big_int;

static int hex_val(char c)
{
    return c <= '9' ? c - '0' : c - 'a' + 10;
}

/* [fn.cidr.numbers] gocty's conversion to *big.Int: whole numbers only. */
static bool to_big(tfx_ctx *ctx, const tfx_value *v, big_int *out, tfx_func_error *err)
{
    const tfx_num *x = v->as.number;
    tfx_num_err st;

    if (!tfx_num_is_integer(x)) {
        tfx_fn_error(err, whole_message);
        return false;
    }
    out->neg = tfx_num_sign(x) < 0;
    out->num = x;
    st = tfx_num_format_int(ctx->arena, x, 16, ctx->limits.max_string_bytes, &out->hex,
                            &out->nhex);
    if (st == TFX_NUM_ERR_TOO_LONG)
        tfx_ctx_check_string(ctx, ctx->limits.max_string_bytes + 1);
    if (st != TFX_NUM_OK)
        tfx_fn_nomem(ctx);
    return true;
}

static bool big_is_zero(const big_int *x)
{
    return x->nhex == 1 && x->hex[0] == '0';
}

/* The bit length of |x| (0 for zero). */
static uint64_t big_bitlen(const big_int *x)
{
    int top = hex_val(x->hex[0]), b = 0;

    if (big_is_zero(x))
        return 0;
    while (top > 0) {
        b++;
        top >>= 1;
    }
    return (uint64_t)(x->nhex - 1) * 4 + (uint64_t)b;
}

/* Whether |x| is a power of two. */
static bool big_is_pow2(const big_int *x)
{
    int top = hex_val(x->hex[0]);

    if (big_is_zero(x) || (top & (top - 1)) != 0)
        return false;
    for (size_t i = 1; i < x->nhex; i++)
        if (x->hex[i] != '0')
            return false;
    return true;
}

/* big.Int.Uint64 of x: the low 64 bits of |x|. */
static uint64_t big_low64(const big_int *x)
{
    uint64_t v = 0;
    size_t start = x->nhex > 16 ? x->nhex - 16 : 0;

    for (size_t i = start; i < x->nhex; i++)
        v = (v << 4) | (uint64_t)hex_val(x->hex[i]);
    return v;
}

/* |x| into the 17 bytes out (big-endian), x below 2^136. */
static void big_bytes(const big_int *x, unsigned char out[17])
{
    memset(out, 0, 17);
    for (size_t i = 0; i < x->nhex && i < 34; i++) {
        size_t pos = x->nhex - 1 - i; /* digit i from the right */
        int d = hex_val(x->hex[pos]);

        out[16 - i / 2] |= (unsigned char)(i % 2 ? d << 4 : d);
    }
}

/* The decimal digits of |x|. */
static const char *big_decimal(tfx_ctx *ctx, const big_int *x)
{
    const char *text;
    size_t n;
    tfx_num_err st = tfx_num_format_int(ctx->arena, x->num, 10, ctx->limits.max_string_bytes,
                                        &text, &n);

    if (st == TFX_NUM_ERR_TOO_LONG)
        tfx_ctx_check_string(ctx, ctx->limits.max_string_bytes + 1);
    if (st != TFX_NUM_OK)
        tfx_fn_nomem(ctx);
    return text;
}

/* The decimal digits of a - 2^k, for a decimal a > 2^k, k <= 128. */
static const char *decimal_minus_pow2(tfx_ctx *ctx, const char *a, int k)
{
    char p[64]; /* 2^k, least significant digit first */
    size_t np = 1, na = strlen(a);
    char *out = tfx_ctx_alloc(ctx, na + 1);
    int borrow = 0;
    size_t start = 0;

    p[0] = 1;
    for (int i = 0; i < k; i++) {
        int carry = 0;

        for (size_t j = 0; j < np; j++) {
            int d = p[j] * 2 + carry;

            p[j] = (char)(d % 10);
            carry = d / 10;
        }
        if (carry)
            p[np++] = (char)carry;
    }
    out[na] = '\0';
    for (size_t i = 0; i < na; i++) {
        int d = (a[na - 1 - i] - '0') - borrow - (i < np ? p[i] : 0);

        borrow = d < 0;
        out[na - 1 - i] = (char)('0' + (d < 0 ? d + 10 : d));
    }
    while (out[start] == '0' && out[start + 1] != '\0')
        start++;
    return out + start;
}

/* "-" for negative x, then its decimal digits (Go's %d of a *big.Int). */
static const char *big_signed_decimal(tfx_ctx *ctx, const big_int *x)
{
    return tfx_ctx_printf(ctx, "%s%s", x->neg ? "-" : "", big_decimal(ctx, x));
}

/* [fn.cidr.panic] math/big's Lsh of a nonzero magnitude of `words` 64-bit
 * words by s bits asks for a slice of words + s/64 + 1 words with four
 * more of capacity: Go's limit for one allocation is 2^48 bytes. */
static const char *lsh_panic(uint64_t words, uint64_t s)
{
    uint64_t len = words + s / 64 + 1;

    if (len + 4 > ((uint64_t)1 << 45))
        return len > ((uint64_t)1 << 45)
                   ? "panic in function implementation: runtime error: makeslice: len out of range"
                   : "panic in function implementation: runtime error: makeslice: cap out of range";
    return NULL;
}

/* Big-endian arithmetic on up to 17 bytes (136 bits). */
static void bytes_or_shifted(unsigned char acc[17], const unsigned char v[17], unsigned s)
{
    for (int bit = 0; bit < 136; bit++) {
        int from = bit - (int)s;

        if (from < 0)
            continue;
        if (v[16 - from / 8] & (1u << (from % 8)))
            acc[16 - bit / 8] |= (unsigned char)(1u << (bit % 8));
    }
}

/* go-cidr's insertNumIntoIP(ip, num, prefixLen): ip as an integer of its
 * own width (4 or 16 bytes; another length panics), OR num shifted left by
 * width - prefixLen (two's complement for a negative num: the magnitude
 * ((|num| << s) - 1) &^ ip, plus one), back into as many bytes (a result
 * that needs more panics). */
static const char *insert_num(const go_ip *ip, const big_int *num, int64_t prefix_len,
                              go_ip *out)
{
    unsigned total = (unsigned)ip->len * 8;
    uint64_t s, bl, need;
    unsigned char acc[17], v[17];

    if (ip->len != 4 && ip->len != 16)
        return NULL; /* not reached: parsed networks have 4 or 16 bytes */
    s = (uint64_t)total - (uint64_t)prefix_len;
    memset(acc, 0, sizeof acc);
    memcpy(acc + 17 - ip->len, ip->b, ip->len);
    *out = *ip;
    if (big_is_zero(num))
        return NULL;
    bl = big_bitlen(num);
    {
        const char *p = lsh_panic((bl + 63) / 64, s);

        if (p != NULL)
            return p;
    }
    if (s >= 1024 || bl >= 1024)
        return panic_index;
    need = bl + s;
    if (!num->neg) {
        if (need > total)
            return panic_index;
        big_bytes(num, v);
        bytes_or_shifted(acc, v, (unsigned)s);
    } else {
        unsigned char m1[17], ones[17];
        int carry = 1;

        if (big_is_pow2(num))
            need--;
        if (need > total)
            return panic_index;
        /* (|num| << s) - 1 == ((|num| - 1) << s) | (2^s - 1) */
        big_bytes(num, v);
        for (int i = 16; i >= 0; i--) { /* v -= 1 */
            if (v[i]-- != 0)
                break;
        }
        memset(m1, 0, sizeof m1);
        bytes_or_shifted(m1, v, (unsigned)s);
        memset(ones, 0, sizeof ones);
        for (uint64_t bit = 0; bit < s && bit < 136; bit++)
            ones[16 - bit / 8] |= (unsigned char)(1u << (bit % 8));
        for (int i = 0; i < 17; i++)
            m1[i] = (unsigned char)((m1[i] | ones[i]) & ~acc[i]);
        for (int i = 16; i >= 0; i--) { /* + 1 */
            int d = m1[i] + carry;

            m1[i] = (unsigned char)d;
            carry = d >> 8;
        }
        memcpy(acc, m1, sizeof acc);
    }
    for (size_t i = 0; i < 17 - ip->len; i++)
        if (acc[i] != 0)
            return panic_index;
    memcpy(out->b, acc + 17 - ip->len, ip->len);
    return NULL;
}

/* ---- go-cidr's range arithmetic [fn.cidrsubnets.result] ---- */

/* AddressRange: first and last addresses.  Panics where go-cidr does: an
 * address of another length than 4 or 16 bytes when the mask is not all
 * ones, and a host length that wrapped around (a 4-byte address with a
 * 16-byte mask). */
static const char *address_range(const go_net *n, go_ip *last)
{
    int prefix, bits;
    uint64_t host_len;

    go_mask_size(&n->mask, &prefix, &bits);
    *last = n->ip;
    if (prefix == bits)
        return NULL;
    if (n->ip.len != 4 && n->ip.len != 16)
        return n->ip.len == 0 ? "panic in function implementation: Unsupported address length 0"
                              : "panic in function implementation: Unsupported address length";
    host_len = (uint64_t)n->ip.len * 8 - (uint64_t)prefix;
    {
        const char *p = lsh_panic(1, host_len);

        if (p != NULL)
            return p;
    }
    if (host_len > n->ip.len * 8)
        return panic_index;
    for (uint64_t bit = 0; bit < host_len; bit++)
        last->b[n->ip.len - 1 - bit / 8] |= (unsigned char)(1u << (bit % 8));
    return NULL;
}

/* Inc and Dec: one up or down, in the 4-byte form when there is one. */
static go_ip ip_step(const go_ip *ip, int dir)
{
    go_ip r = check_ipv4(ip);

    for (size_t j = r.len; j-- > 0;) {
        r.b[j] = (unsigned char)(r.b[j] + dir);
        if (dir > 0 ? r.b[j] > 0 : r.b[j] < 255)
            break;
    }
    return r;
}

static const go_ip ipv4_zero = {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 0, 0}, 16};
static const go_ip ipv6_zero = {{0}, 16};

/* PreviousSubnet (its rollover flag is not used by Terraform). */
static go_net previous_subnet(const go_net *n, int64_t prefix_len)
{
    go_ip start = check_ipv4(&n->ip), prev;
    go_net out;

    out.mask = go_cidr_mask(prefix_len, (int64_t)start.len * 8);
    prev = ip_step(&start, -1);
    out.ip = go_mask(&prev, &out.mask);
    return out;
}

/* NextSubnet: the subnet of prefix_len after the one holding n's last
 * address; *rollover when it wrapped to the zero address. */
static const char *next_subnet(const go_net *n, int64_t prefix_len, go_net *next, bool *rollover)
{
    go_ip current_last, last;
    go_net current;
    const char *p = address_range(n, &current_last);

    if (p != NULL)
        return p;
    current.mask = go_cidr_mask(prefix_len, (int64_t)current_last.len * 8);
    current.ip = go_mask(&current_last, &current.mask);
    p = address_range(&current, &last);
    if (p != NULL)
        return p;
    last = ip_step(&last, 1);
    next->mask = current.mask;
    next->ip = go_mask(&last, &current.mask);
    *rollover = go_equal(&last, &ipv4_zero) || go_equal(&last, &ipv6_zero);
    return NULL;
}

/* ---- The functions ---- */

static const tfx_type list_of_string = {.kind = TFX_TYPE_LIST, .elem = &tfx_type_str};

/* [fn.cidrhost] cidrhost(prefix, hostnum) */
static const tfx_param cidrhost_params[] = {
    {.name = "prefix", .type = &tfx_type_str},
    {.name = "hostnum", .type = &tfx_type_number},
};

/* [fn.cidrhost.result] hostnum converts to a *big.Int first, then the
 * prefix parses; go-cidr's HostBig: a negative hostnum counts back from
 * the end (2^hostbits + hostnum), the range check looks at the low 64
 * bits of a positive hostnum read as a signed number, and the number goes
 * in at bit 0 of the address (bit 96 of a 16-byte IPv4-mapped one). */
static const tfx_value *cidrhost_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                      const tfx_value *const *args, size_t nargs,
                                      tfx_func_error *err)
{
    big_int num;
    go_net net;
    go_ip ip, v4;
    const char *error = NULL, *p;
    int parent, addr, host_len;
    bool too_big;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (!to_big(ctx, args[1], &num, err))
        return NULL;
    if (!parse_cidr(ctx, args[0]->as.string.s, args[0]->as.string.nbytes, &net, &error))
        return tfx_fn_error(err, error);
    go_mask_size(&net.mask, &parent, &addr);
    host_len = addr - parent;
    if (!num.neg) {
        int64_t low = (int64_t)big_low64(&num);

        too_big = low >= 0 && host_len < 64 && (uint64_t)low > ((uint64_t)1 << host_len) - 1;
        if (too_big)
            return tfx_fn_error(err, tfx_ctx_printf(ctx,
                                                    "prefix of %d does not accommodate a host "
                                                    "numbered %s",
                                                    parent, big_decimal(ctx, &num)));
    } else {
        uint64_t bl = big_bitlen(&num);

        too_big = bl > (uint64_t)host_len + 1 || (bl == (uint64_t)host_len + 1 && !big_is_pow2(&num));
        if (too_big)
            return tfx_fn_error(
                err, tfx_ctx_printf(ctx, "prefix of %d does not accommodate a host numbered -%s",
                                    parent,
                                    decimal_minus_pow2(ctx, big_decimal(ctx, &num), host_len)));
        /* 2^host_len - |num|, within 0 .. 2^host_len - 1 */
        {
            unsigned char pw[17], v[17];
            int borrow = 0;

            big_bytes(&num, v);
            memset(pw, 0, sizeof pw);
            pw[16 - host_len / 8] = (unsigned char)(1u << (host_len % 8));
            for (int i = 16; i >= 0; i--) {
                int d = pw[i] - v[i] - borrow;

                borrow = d < 0;
                pw[i] = (unsigned char)d;
            }
            /* as a non-negative big_int in hex */
            {
                char *hex = tfx_ctx_alloc(ctx, 35);
                static const char digits[] = "0123456789abcdef";
                size_t k = 0;

                for (int i = 0; i < 17; i++) {
                    hex[k++] = digits[pw[i] >> 4];
                    hex[k++] = digits[pw[i] & 15];
                }
                hex[k] = '\0';
                while (k > 1 && *hex == '0') {
                    hex++;
                    k--;
                }
                num.neg = false;
                num.hex = hex;
                num.nhex = k;
            }
        }
    }
    p = insert_num(&net.ip, &num, go_to4(&net.ip, &v4) ? 32 : 128, &ip);
    if (p != NULL)
        return tfx_fn_error(err, p);
    error = ip_text(ctx, &ip);
    return tfx_value_string(ctx, error, strlen(error));
}

static const tfx_function tfx_fn_cidrhost = {.name = "cidrhost",
                                      .params = cidrhost_params,
                                      .nparams = TFX_COUNTOF(cidrhost_params),
                                      .varparam = NULL,
                                      .type = NULL,
                                      .ret_type = &tfx_type_str,
                                      .impl = cidrhost_impl};

/* [fn.cidrnetmask] cidrnetmask(prefix) */
static const tfx_param cidrnetmask_params[] = {
    {.name = "prefix", .type = &tfx_type_str},
};

/* [fn.cidrnetmask.result] The mask as an address; a network that has no
 * 4-byte form is the error "IPv6 addresses cannot have a netmask: <prefix>"
 * (a 16-byte IPv4-mapped network has one: its 16-byte mask is printed). */
static const tfx_value *cidrnetmask_impl(tfx_ctx *ctx, const tfx_function *fn,
                                         const tfx_type *ret, const tfx_value *const *args,
                                         size_t nargs, tfx_func_error *err)
{
    go_net net;
    go_ip v4;
    const char *error = NULL, *text;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (!parse_cidr(ctx, args[0]->as.string.s, args[0]->as.string.nbytes, &net, &error))
        return tfx_fn_error(err, error);
    if (!go_to4(&net.ip, &v4))
        return tfx_fn_error(err, tfx_ctx_printf(ctx, "IPv6 addresses cannot have a netmask: %.*s",
                                                (int)args[0]->as.string.nbytes,
                                                args[0]->as.string.s));
    text = ip_text(ctx, &net.mask);
    return tfx_value_string(ctx, text, strlen(text));
}

static const tfx_function tfx_fn_cidrnetmask = {.name = "cidrnetmask",
                                         .params = cidrnetmask_params,
                                         .nparams = TFX_COUNTOF(cidrnetmask_params),
                                         .varparam = NULL,
                                         .type = NULL,
                                         .ret_type = &tfx_type_str,
                                         .impl = cidrnetmask_impl};

/* [fn.cidrsubnet] cidrsubnet(prefix, newbits, netnum) */
static const tfx_param cidrsubnet_params[] = {
    {.name = "prefix", .type = &tfx_type_str},
    {.name = "newbits", .type = &tfx_type_number},
    {.name = "netnum", .type = &tfx_type_number},
};

/* [fn.cidrsubnet.result] newbits to an int, netnum to a *big.Int, then
 * the prefix; go-cidr's SubnetBig. */
static const tfx_value *cidrsubnet_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                        const tfx_value *const *args, size_t nargs,
                                        tfx_func_error *err)
{
    int64_t newbits, new_len;
    big_int num;
    go_net net, sub;
    const char *error = NULL, *p, *text;
    int parent, addr;
    uint64_t max_num;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (!tfx_num_to_int64(args[1]->as.number, &newbits))
        return tfx_fn_error(err, int_message);
    if (!to_big(ctx, args[2], &num, err))
        return NULL;
    if (!parse_cidr(ctx, args[0]->as.string.s, args[0]->as.string.nbytes, &net, &error))
        return tfx_fn_error(err, error);
    go_mask_size(&net.mask, &parent, &addr);
    new_len = (int64_t)((uint64_t)parent + (uint64_t)newbits);
    if (new_len > addr)
        return tfx_fn_error(err, tfx_ctx_printf(ctx,
                                                "insufficient address space to extend prefix "
                                                "of %d by %lld",
                                                parent, (long long)newbits));
    max_num = newbits >= 0 && newbits < 64 ? ((uint64_t)1 << newbits) - 1 : UINT64_MAX;
    if (big_low64(&num) > max_num)
        return tfx_fn_error(err, tfx_ctx_printf(ctx,
                                                "prefix extension of %lld does not accommodate "
                                                "a subnet numbered %s",
                                                (long long)newbits,
                                                big_signed_decimal(ctx, &num)));
    p = insert_num(&net.ip, &num, new_len, &sub.ip);
    if (p != NULL)
        return tfx_fn_error(err, p);
    sub.mask = go_cidr_mask(new_len, addr);
    text = net_text(ctx, &sub);
    return tfx_value_string(ctx, text, strlen(text));
}

static const tfx_function tfx_fn_cidrsubnet = {.name = "cidrsubnet",
                                        .params = cidrsubnet_params,
                                        .nparams = TFX_COUNTOF(cidrsubnet_params),
                                        .varparam = NULL,
                                        .type = NULL,
                                        .ret_type = &tfx_type_str,
                                        .impl = cidrsubnet_impl};

/* [fn.cidrsubnets] cidrsubnets(prefix, newbits...) */
static const tfx_param cidrsubnets_params[] = {
    {.name = "prefix", .type = &tfx_type_str},
};
static const tfx_param cidrsubnets_varparam = {.name = "newbits", .type = &tfx_type_number};

/* [fn.cidrsubnets.result] [fn.cidrsubnets.errors] Consecutive subnets:
 * the prefix parses first (argument error 0); each newbits converts to an
 * int, must be 1 to 32 and keep the prefix within the address (argument
 * errors at it); the first subnet follows the one of the first size
 * before the prefix, each next one follows the previous (go-cidr's
 * PreviousSubnet and NextSubnet) and must stay inside the prefix. */
static const tfx_value *cidrsubnets_impl(tfx_ctx *ctx, const tfx_function *fn,
                                         const tfx_type *ret, const tfx_value *const *args,
                                         size_t nargs, tfx_func_error *err)
{
    go_net net, current;
    const char *error = NULL;
    int start, bits;
    int64_t first;
    const tfx_value **out;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    if (!parse_cidr(ctx, args[0]->as.string.s, args[0]->as.string.nbytes, &net, &error))
        return tfx_fn_arg_error(err, 0, error);
    go_mask_size(&net.mask, &start, &bits);
    if (nargs == 1)
        return tfx_value_list(ctx, &tfx_type_str, NULL, 0);
    if (!tfx_num_to_int64(args[1]->as.number, &first))
        return tfx_fn_arg_error(err, 1, int_message);
    current = previous_subnet(&net, (int64_t)((uint64_t)first + (uint64_t)start));
    tfx_ctx_check_items(ctx, nargs - 1);
    out = tfx_ctx_alloc_array(ctx, nargs - 1, sizeof(const tfx_value *));
    for (size_t i = 1; i < nargs; i++) {
        int64_t length;
        go_net next;
        bool rollover = false;
        const char *p, *text;
        int addr_bits = (int)net.ip.len * 8;

        tfx_ctx_step(ctx);
        if (!tfx_num_to_int64(args[i]->as.number, &length))
            return tfx_fn_arg_error(err, (long)i, int_message);
        if (length < 1)
            return tfx_fn_arg_error(err, (long)i, "must extend prefix by at least one bit");
        if (length > 32)
            return tfx_fn_arg_error(err, (long)i, "may not extend prefix by more than 32 bits");
        length += start;
        if (length > addr_bits)
            return tfx_fn_arg_error(
                err, (long)i,
                tfx_ctx_printf(ctx,
                               "would extend prefix to %lld bits, which is too long for an %s "
                               "address",
                               (long long)length,
                               addr_bits == 32 ? "IPv4" : addr_bits == 128 ? "IPv6" : "IP"));
        p = next_subnet(&current, length, &next, &rollover);
        if (p != NULL)
            return tfx_fn_error(err, p);
        if (rollover || !go_contains(&net, &next.ip))
            return tfx_fn_arg_error(
                err, (long)i,
                tfx_ctx_printf(ctx,
                               "not enough remaining address space for a subnet with a prefix "
                               "of %lld bits after %s",
                               (long long)length, net_text(ctx, &current)));
        current = next;
        text = net_text(ctx, &current);
        out[i - 1] = tfx_value_string(ctx, text, strlen(text));
    }
    return tfx_value_list(ctx, &tfx_type_str, out, nargs - 1);
}

static const tfx_function tfx_fn_cidrsubnets = {.name = "cidrsubnets",
                                         .params = cidrsubnets_params,
                                         .nparams = TFX_COUNTOF(cidrsubnets_params),
                                         .varparam = &cidrsubnets_varparam,
                                         .type = NULL,
                                         .ret_type = &list_of_string,
                                         .impl = cidrsubnets_impl};

/* The functions this file registers [call.builtins], sorted by name. */
const tfx_builtin tfx_builtins_cidr[] = {
    {"cidrhost", &tfx_fn_cidrhost},
    {"cidrnetmask", &tfx_fn_cidrnetmask},
    {"cidrsubnet", &tfx_fn_cidrsubnet},
    {"cidrsubnets", &tfx_fn_cidrsubnets},
    {NULL, NULL},
};

/* ---- For OpenTofu's cidrcontains (funcs_opentofu.c) ---- */

/* [fn.cidr.parse] Terraform's ParseIP: an IPv4 address (as its 16-byte
 * IPv4-mapped form) or else an IPv6 one, into ip[0..16). */
bool tfx_cidr_parse_ip(const char *s, size_t n, unsigned char ip[16])
{
    go_ip out;

    if (!parse_ipv4(s, n, &out) && !parse_ipv6(s, n, &out))
        return false;
    memcpy(ip, out.b, 16);
    return true;
}

/* [fn.cidr.parse] Terraform's ParseCIDR: the network address and the mask,
 * both *len bytes (4 for an IPv4 address, 16 for an IPv6 one). */
bool tfx_cidr_parse_prefix(tfx_ctx *ctx, const char *s, size_t n, unsigned char ip[16],
                           unsigned char mask[16], size_t *len)
{
    go_net net;
    const char *error = NULL;

    if (!parse_cidr(ctx, s, n, &net, &error))
        return false;
    memset(ip, 0, 16);
    memset(mask, 0, 16);
    memcpy(ip, net.ip.b, net.ip.len);
    memcpy(mask, net.mask.b, net.mask.len);
    *len = net.ip.len;
    return true;
}
