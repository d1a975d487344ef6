/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_opentofu.c — OpenTofu's own pure functions base64gunzip,
 * cidrcontains and urldecode (spec/functions-opentofu.md, rules
 * fn.base64gunzip.*, fn.cidrcontains.*, fn.urldecode.*), offered only with
 * OpenTofu's function table [flavor.table]: tfx_func_builtin does not
 * search tfx_builtins_opentofu, tfx_func_builtin_opentofu does.
 *
 * Their behaviour is OpenTofu's (1.7 and later, checked against the
 * reference adapter's tf_opentofu.go): base64 as Go's StdEncoding
 * (funcs_encoding.c), gzip as Go 1.19's compress/gzip reader (members read
 * one after another, its error texts) and compress/flate decoder (which
 * corrupt streams fail, and where: zlib's inflate differs, see
 * [fn.base64gunzip.inflate]; zlib gives the CRC-32), URL unescaping as
 * Go's url.QueryUnescape, addresses with Terraform's parser (funcs_cidr.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <zlib.h>

#include "common.h"
#include "funcs_internal.h"
#include "text.h"

/* [fn.opentofu.bytes] A string value of bytes that need not be UTF-8, as
 * cty.StringVal makes it: NFC as Go's norm package gives it, which treats
 * each byte that is not part of valid UTF-8 as a boundary nothing
 * combines across, so each run of valid text is normalised by itself and
 * the other bytes are kept as they are. */
static const tfx_value *bytes_value(tfx_ctx *ctx, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    tfx_textbuf b;
    size_t i = 0, start = 0;

    if (tfx_text_valid(u, n))
        return tfx_value_string(ctx, s, n);
    tfx_ctx_check_string(ctx, n);
    tfx_textbuf_init(&b, ctx);
    while (i <= n) {
        int32_t cp = -1;

        if (i < n) {
            size_t len = tfx_text_decode(u + i, n - i, &cp);

            if (cp >= 0) {
                i += len;
                continue;
            }
        }
        if (i > start) { /* the valid run s[start..i) */
            size_t m = 0;
            char *norm = tfx_text_nfc(ctx->arena, s + start, i - start, &m);

            if (norm == NULL)
                tfx_fn_nomem(ctx);
            tfx_textbuf_put(&b, norm, m);
        }
        if (i < n)
            tfx_textbuf_putc(&b, s[i]);
        i++;
        start = i;
    }
    tfx_ctx_check_string(ctx, b.nbytes);
    return tfx_value_string_raw(ctx, tfx_textbuf_text(&b), b.nbytes);
}

/* ---- base64gunzip ---- */

typedef struct {
    const unsigned char *p;
    size_t n, pos;
} gz_input;

/* io.ReadFull of k bytes: 0 = read, 1 = none there (io.EOF), 2 = some but
 * not all (io.ErrUnexpectedEOF). */
static int gz_read_full(gz_input *in, unsigned char *out, size_t k)
{
    size_t avail = in->n - in->pos;

    if (avail >= k) {
        memcpy(out, in->p + in->pos, k);
        in->pos += k;
        return 0;
    }
    in->pos = in->n;
    return avail == 0 ? 1 : 2; /* (k > avail here) */
}

static const char msg_eof[] = "EOF";
static const char msg_unexpected_eof[] = "unexpected EOF";
static const char msg_header[] = "gzip: invalid header";
static const char msg_checksum[] = "gzip: invalid checksum";

/* Go's gzip readString: bytes up to a NUL (inclusive) added to the header
 * CRC; 512 bytes without one is ErrHeader; the end of input is an error
 * (unexpected EOF, as readHeader reports it). */
static const char *gz_read_string(gz_input *in, uLong *crc)
{
    for (size_t i = 0;; i++) {
        if (i >= 512)
            return msg_header;
        if (in->pos >= in->n)
            return msg_unexpected_eof;
        if (in->p[in->pos] == 0) {
            *crc = crc32(*crc, in->p + in->pos - i, (uInt)(i + 1));
            in->pos++;
            return NULL;
        }
        in->pos++;
    }
}

/* [fn.base64gunzip.gzip] Go's gzip readHeader: NULL when a member header
 * was read, else the error text.  A clean end of input before it is
 * "EOF" (msg_eof), which the caller treats as the end of the stream after
 * the first member. */
static const char *gz_read_header(gz_input *in)
{
    unsigned char h[10], b2[2];
    uLong crc;
    int r = gz_read_full(in, h, 10);

    if (r != 0)
        return r == 1 ? msg_eof : msg_unexpected_eof;
    if (h[0] != 0x1f || h[1] != 0x8b || h[2] != 8)
        return msg_header;
    crc = crc32(0L, h, 10);
    if (h[3] & 0x04) { /* FEXTRA */
        size_t xlen;

        if (gz_read_full(in, b2, 2) != 0)
            return msg_unexpected_eof;
        crc = crc32(crc, b2, 2);
        xlen = (size_t)b2[0] | (size_t)b2[1] << 8;
        if (in->n - in->pos < xlen) {
            in->pos = in->n;
            return msg_unexpected_eof;
        }
        crc = crc32(crc, in->p + in->pos, (uInt)xlen);
        in->pos += xlen;
    }
    if (h[3] & 0x08) { /* FNAME */
        const char *e = gz_read_string(in, &crc);

        if (e != NULL)
            return e;
    }
    if (h[3] & 0x10) { /* FCOMMENT */
        const char *e = gz_read_string(in, &crc);

        if (e != NULL)
            return e;
    }
    if (h[3] & 0x02) { /* FHCRC */
        if (gz_read_full(in, b2, 2) != 0)
            return msg_unexpected_eof;
        if (((unsigned)b2[0] | (unsigned)b2[1] << 8) != (crc & 0xffffu))
            return msg_header;
    }
    return NULL;
}

/* ---- Go's DEFLATE decompressor ----
 *
 * [fn.base64gunzip.inflate] Go 1.19's compress/flate reader, step for
 * step where it shows: which streams it accepts, and for a corrupt one the
 * count of bytes it had read when it gave up ("flate: corrupt input before
 * offset N", counted from the start of the member's DEFLATE data).  zlib's
 * inflate decodes the same valid streams but not the same corrupt ones: it
 * refuses a code-length code of one 1-bit code (Go takes it), takes an
 * empty one (Go refuses it when it is used), refuses a literal/length code
 * without the end-of-block code at once, and reads other amounts of input
 * before it reports an error; so the decoder is written here after Go's
 * description of DEFLATE decoding (RFC 1951 with Go's reading order). */

#define GO_CHUNK_BITS 9
#define GO_NUM_CHUNKS (1u << GO_CHUNK_BITS)
#define GO_COUNT_MASK 15u
#define GO_VALUE_SHIFT 4
#define GO_MAX_LIT 286
#define GO_MAX_DIST 30
#define GO_WINDOW 32768u

/* A Huffman decoder as Go's: chunks indexed by the next 9 bits (bit
 * reversed code), each the symbol << 4 | the code length; 0 is no code;
 * codes longer than 9 bits go through a link table. */
typedef struct {
    unsigned min;
    uint32_t chunks[GO_NUM_CHUNKS];
    uint32_t *links;      /* nlinks tables of link_mask + 1 entries */
    uint32_t link_mask;
} go_huff;

static unsigned reverse_bits(unsigned v, unsigned n)
{
    unsigned r = 0;

    for (unsigned i = 0; i < n; i++)
        r |= ((v >> i) & 1u) << (n - 1 - i);
    return r;
}

/* Go's huffmanDecoder.init: false for an over-subscribed or incomplete
 * code, except that a single code of length 1 is allowed; an empty code
 * (all lengths 0) is accepted and fails when it is used. */
static bool huff_init(tfx_ctx *ctx, go_huff *h, const int *lengths, size_t n)
{
    unsigned count[16] = {0}, nextcode[16] = {0};
    unsigned min = 0, max = 0, code = 0;

    memset(h, 0, sizeof(*h));
    for (size_t i = 0; i < n; i++) {
        unsigned len = (unsigned)lengths[i];

        if (len == 0)
            continue;
        if (len > 15) /* never: DEFLATE's lengths are 0..15 */
            return false;
        if (min == 0 || len < min)
            min = len;
        if (len > max)
            max = len;
        count[len]++;
    }
    if (max == 0)
        return true;
    for (unsigned i = min; i <= max; i++) {
        code <<= 1;
        nextcode[i] = code;
        code += count[i];
    }
    if (code != 1u << max && !(code == 1 && max == 1))
        return false;
    h->min = min;
    if (max > GO_CHUNK_BITS) {
        unsigned nlinks_each = 1u << (max - GO_CHUNK_BITS);
        unsigned link = nextcode[GO_CHUNK_BITS + 1] >> 1;

        h->link_mask = nlinks_each - 1;
        h->links = tfx_ctx_alloc_array(ctx, (size_t)(GO_NUM_CHUNKS - link) * nlinks_each,
                                       sizeof(uint32_t));
        for (unsigned j = link; j < GO_NUM_CHUNKS; j++) {
            unsigned rev = reverse_bits(j, GO_CHUNK_BITS);

            h->chunks[rev] = (uint32_t)((j - link) << GO_VALUE_SHIFT | (GO_CHUNK_BITS + 1));
        }
    }
    for (size_t i = 0; i < n; i++) {
        unsigned len = (unsigned)lengths[i];
        uint32_t chunk;
        unsigned rev;

        if (len == 0 || len > 15)
            continue;
        chunk = (uint32_t)(i << GO_VALUE_SHIFT | len);
        rev = reverse_bits(nextcode[len]++, len);
        if (len <= GO_CHUNK_BITS) {
            for (unsigned off = rev; off < GO_NUM_CHUNKS; off += 1u << len)
                h->chunks[off] = chunk;
        } else {
            uint32_t value = h->chunks[rev & (GO_NUM_CHUNKS - 1)] >> GO_VALUE_SHIFT;
            uint32_t *table = h->links + (size_t)value * (h->link_mask + 1);

            for (unsigned off = rev >> GO_CHUNK_BITS; off <= h->link_mask;
                 off += 1u << (len - GO_CHUNK_BITS))
                table[off] = chunk;
        }
    }
    return true;
}

typedef struct {
    tfx_ctx *ctx;
    gz_input *in;
    size_t start;         /* where the member's DEFLATE data starts */
    uint32_t b;           /* bits read and not used, the next in the low bits */
    unsigned nb;
    bool corrupt;         /* the error is CorruptInputError at in->pos - start */
    tfx_textbuf *out;
    size_t member_start;  /* where this member's output starts in out */
    unsigned work;        /* symbols since the last step charged */
} go_inflater;

/* [fn.base64gunzip.limits] One evaluation step for every 16 symbols decoded. */
static void charge_symbol(go_inflater *f)
{
    if (++f->work >= 16) {
        f->work = 0;
        tfx_ctx_step(f->ctx);
    }
}

/* moreBits: one more byte into the bit buffer; false at the end of input
 * (unexpected EOF). */
static bool more_bits(go_inflater *f)
{
    if (f->in->pos >= f->in->n)
        return false;
    f->b |= (uint32_t)f->in->p[f->in->pos++] << f->nb;
    f->nb += 8;
    return true;
}

static bool need_bits(go_inflater *f, unsigned n)
{
    while (f->nb < n)
        if (!more_bits(f))
            return false;
    return true;
}

static uint32_t take_bits(go_inflater *f, unsigned n)
{
    uint32_t v = f->b & ((1u << n) - 1);

    f->b >>= n;
    f->nb -= n;
    return v;
}

/* huffSym: reads the code's minimum length of bits, then as many as the
 * chunk says; a chunk of length 0 is corrupt input.  -1 on error
 * (f->corrupt says which). */
static int huff_sym(go_inflater *f, const go_huff *h)
{
    unsigned n = h->min;

    for (;;) {
        uint32_t chunk;

        if (!need_bits(f, n))
            return -1;
        chunk = h->chunks[f->b & (GO_NUM_CHUNKS - 1)];
        n = chunk & GO_COUNT_MASK;
        if (n > GO_CHUNK_BITS) {
            chunk = h->links[(size_t)(chunk >> GO_VALUE_SHIFT) * (h->link_mask + 1) +
                             ((f->b >> GO_CHUNK_BITS) & h->link_mask)];
            n = chunk & GO_COUNT_MASK;
        }
        if (n <= f->nb) {
            if (n == 0) {
                f->corrupt = true;
                return -1;
            }
            take_bits(f, n);
            return (int)(chunk >> GO_VALUE_SHIFT);
        }
    }
}

static const unsigned char code_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5,
                                             11, 4, 12, 3, 13, 2, 14, 1, 15};

/* readHuffman: a dynamic block's code-length code and its two codes. */
static bool read_dynamic(go_inflater *f, go_huff *hl, go_huff *hd)
{
    int codebits[19] = {0}, bits[GO_MAX_LIT + GO_MAX_DIST];
    unsigned nlit, ndist, nclen;
    size_t i = 0, n;

    if (!need_bits(f, 14))
        return false;
    nlit = take_bits(f, 5) + 257;
    if (nlit > GO_MAX_LIT) {
        f->corrupt = true;
        return false;
    }
    ndist = take_bits(f, 5) + 1;
    if (ndist > GO_MAX_DIST) {
        f->corrupt = true;
        return false;
    }
    nclen = take_bits(f, 4) + 4;
    for (unsigned k = 0; k < nclen; k++) {
        if (!need_bits(f, 3))
            return false;
        codebits[code_order[k]] = (int)take_bits(f, 3);
    }
    if (!huff_init(f->ctx, hl, codebits, 19)) {
        f->corrupt = true;
        return false;
    }
    n = nlit + ndist;
    while (i < n) {
        int x = huff_sym(f, hl);
        unsigned rep, nbits;
        int value = 0;

        if (x < 0)
            return false;
        if (x < 16) {
            bits[i++] = x;
            continue;
        }
        if (x == 16) {
            rep = 3;
            nbits = 2;
            if (i == 0) {
                f->corrupt = true;
                return false;
            }
            value = bits[i - 1];
        } else if (x == 17) {
            rep = 3;
            nbits = 3;
        } else {
            rep = 11;
            nbits = 7;
        }
        if (!need_bits(f, nbits))
            return false;
        rep += take_bits(f, nbits);
        if (i + rep > n) {
            f->corrupt = true;
            return false;
        }
        for (unsigned j = 0; j < rep; j++)
            bits[i++] = value;
    }
    if (!huff_init(f->ctx, hl, bits, nlit) || !huff_init(f->ctx, hd, bits + nlit, ndist)) {
        f->corrupt = true;
        return false;
    }
    /* the end-of-block code's length is the least read for a symbol */
    if (hl->min < (unsigned)bits[256])
        hl->min = (unsigned)bits[256];
    return true;
}

/* huffmanBlock: symbols until the end-of-block code.  hd NULL: the fixed
 * distance code (5 bits, reversed). */
static bool huffman_block(go_inflater *f, const go_huff *hl, const go_huff *hd)
{
    static const unsigned short len_base[] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,
                                              15, 17, 19, 23, 27, 31, 35, 43, 51,  59,
                                              67, 83, 99, 115, 131, 163, 195, 227, 258};
    static const unsigned char len_extra[] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                              2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};

    for (;;) {
        int v = huff_sym(f, hl);
        unsigned length, dist;
        size_t have;

        charge_symbol(f);
        if (v < 0)
            return false;
        if (v < 256) {
            char c = (char)v;

            tfx_ctx_check_string(f->ctx, f->out->nbytes + 1);
            tfx_textbuf_put(f->out, &c, 1);
            continue;
        }
        if (v == 256)
            return true;
        if (v >= GO_MAX_LIT) {
            f->corrupt = true;
            return false;
        }
        length = len_base[v - 257];
        if (len_extra[v - 257] > 0) {
            if (!need_bits(f, len_extra[v - 257]))
                return false;
            length += take_bits(f, len_extra[v - 257]);
        }
        if (hd == NULL) {
            if (!need_bits(f, 5))
                return false;
            dist = reverse_bits(take_bits(f, 5), 5);
        } else {
            int d = huff_sym(f, hd);

            if (d < 0)
                return false;
            dist = (unsigned)d;
        }
        if (dist < 4) {
            dist++;
        } else if (dist < GO_MAX_DIST) {
            unsigned nbits = (dist - 2) >> 1;
            unsigned extra = (dist & 1) << nbits;

            if (!need_bits(f, nbits))
                return false;
            extra |= take_bits(f, nbits);
            dist = (1u << (nbits + 1)) + 1 + extra;
        } else {
            f->corrupt = true;
            return false;
        }
        have = f->out->nbytes - f->member_start;
        if (dist > (have < GO_WINDOW ? have : GO_WINDOW)) {
            f->corrupt = true;
            return false;
        }
        tfx_ctx_check_string(f->ctx, f->out->nbytes + length);
        while (length > 0) { /* at most dist bytes at a time: they overlap */
            unsigned k = length < dist ? length : dist;
            char piece[258];

            memcpy(piece, f->out->s + f->out->nbytes - dist, k);
            tfx_textbuf_put(f->out, piece, k);
            length -= k;
        }
    }
}

/* dataBlock: a stored block, from the next whole byte (the bits read and
 * not used are dropped). */
static bool stored_block(go_inflater *f)
{
    gz_input *in = f->in;
    unsigned len, nlen;

    f->b = 0;
    f->nb = 0;
    if (in->n - in->pos < 4) {
        in->pos = in->n;
        return false;
    }
    len = (unsigned)in->p[in->pos] | (unsigned)in->p[in->pos + 1] << 8;
    nlen = (unsigned)in->p[in->pos + 2] | (unsigned)in->p[in->pos + 3] << 8;
    in->pos += 4;
    if (len != (~nlen & 0xffffu)) {
        f->corrupt = true;
        return false;
    }
    if (in->n - in->pos < len) {
        in->pos = in->n;
        return false;
    }
    tfx_ctx_check_string(f->ctx, f->out->nbytes + len);
    tfx_textbuf_put(f->out, (const char *)in->p + in->pos, len);
    in->pos += len;
    return true;
}

/* One member's DEFLATE data from in->pos, appended to out, with its
 * CRC-32 and length (mod 2^32) in *crc and *size.  NULL, or the error:
 * "unexpected EOF" or Go's CorruptInputError. */
static const char *gz_inflate(tfx_ctx *ctx, gz_input *in, tfx_textbuf *out, uLong *crc,
                              uLong *size)
{
    go_inflater f;
    go_huff *hl = tfx_ctx_alloc(ctx, sizeof(go_huff));
    go_huff *hd = tfx_ctx_alloc(ctx, sizeof(go_huff));
    go_huff *fixed = NULL;
    bool final = false;
    uLong c = crc32(0L, Z_NULL, 0);
    memset(&f, 0, sizeof(f));
    f.ctx = ctx;
    f.in = in;
    f.start = in->pos;
    f.out = out;
    f.member_start = out->nbytes;
    while (!final) {
        unsigned type;
        bool ok;

        tfx_ctx_step(ctx);
        if (!need_bits(&f, 3))
            return msg_unexpected_eof;
        final = take_bits(&f, 1) == 1;
        type = take_bits(&f, 2);
        if (type == 0) {
            ok = stored_block(&f);
        } else if (type == 1) {
            if (fixed == NULL) {
                /* the fixed literal/length code: 288 symbols (286 and 287
                 * decode, and are corrupt input) */
                int lengths[288];

                for (int i = 0; i < 288; i++)
                    lengths[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
                fixed = tfx_ctx_alloc(ctx, sizeof(go_huff));
                (void)huff_init(ctx, fixed, lengths, 288);
            }
            ok = huffman_block(&f, fixed, NULL);
        } else if (type == 2) {
            ok = read_dynamic(&f, hl, hd) && huffman_block(&f, hl, hd);
        } else {
            f.corrupt = true;
            ok = false;
        }
        if (!ok)
            return f.corrupt ? tfx_ctx_printf(ctx, "flate: corrupt input before offset %zu",
                                              in->pos - f.start)
                             : msg_unexpected_eof;
    }
    for (size_t at = f.member_start; at < out->nbytes;) {
        size_t k = out->nbytes - at < 0x40000000u ? out->nbytes - at : 0x40000000u;

        c = crc32(c, (const Bytef *)out->s + at, (uInt)k);
        at += k;
    }
    *crc = c;
    *size = (uLong)((out->nbytes - f.member_start) & 0xffffffffu);
    return NULL;
}

/* [fn.base64gunzip.gzip] Go's gzip.NewReader then io.ReadAll of
 * data[0..n): members one after another until the input ends cleanly
 * after a trailer.  Returns the bytes, or NULL with *error the plain
 * error OpenTofu gives. */
static const char *gunzip(tfx_ctx *ctx, const unsigned char *data, size_t n, size_t *out_n,
                          const char **error)
{
    gz_input in = {data, n, 0};
    tfx_textbuf out;
    const char *e = gz_read_header(&in);

    tfx_textbuf_init(&out, ctx);
    if (e != NULL) {
        *error = tfx_ctx_printf(ctx, "failed to gunzip bytestream: %s", e);
        return NULL;
    }
    for (;;) {
        uLong crc = 0, size = 0;
        unsigned char t[8];

        e = gz_inflate(ctx, &in, &out, &crc, &size);
        if (e == NULL && gz_read_full(&in, t, 8) != 0)
            e = msg_unexpected_eof;
        if (e == NULL) {
            uLong want_crc = (uLong)t[0] | (uLong)t[1] << 8 | (uLong)t[2] << 16 |
                             (uLong)t[3] << 24;
            uLong want_size = (uLong)t[4] | (uLong)t[5] << 8 | (uLong)t[6] << 16 |
                              (uLong)t[7] << 24;

            if (want_crc != crc || want_size != size)
                e = msg_checksum;
        }
        if (e == NULL) {
            e = gz_read_header(&in);
            if (e == msg_eof)
                break;
        }
        if (e != NULL) {
            *error = tfx_ctx_printf(ctx, "failed to read gunzip raw data: %s", e);
            return NULL;
        }
    }
    *out_n = out.nbytes;
    return tfx_textbuf_text(&out);
}

/* [fn.base64gunzip.redact] How OpenTofu shows a value in a message: Go-quoted,
 * or a placeholder naming its ephemeral and sensitive marks. */
static const char *redacted(tfx_ctx *ctx, const tfx_value *str, const tfx_marks *marks)
{
    bool eph = tfx_marks_has(marks, "ephemeral"), sens = tfx_marks_has(marks, "sensitive");

    if (eph && sens)
        return "(ephemeral sensitive value)";
    if (eph)
        return "(ephemeral value)";
    if (sens)
        return "(sensitive value)";
    return tfx_textbuf_quoted(ctx, str->as.string.s, str->as.string.nbytes);
}

/* Marked arguments are the implementation's own [fn.base64gunzip.params]. */
static const tfx_param base64gunzip_params[] = {
    {.name = "str", .type = &tfx_type_str, .allow_marked = true},
};

/* [fn.base64gunzip] str decoded as base64 ([fn.base64.decode]; failure:
 * "failed to decode base64 data <str redacted>"), then gunzipped
 * ([fn.base64gunzip.gzip]); the result is the bytes as they are (NFC, no
 * UTF-8 check) with str's marks [fn.base64gunzip.params]. */
static const tfx_value *base64gunzip_impl(tfx_ctx *ctx, const tfx_function *fn,
                                          const tfx_type *ret, const tfx_value *const *args,
                                          size_t nargs, tfx_func_error *err)
{
    const tfx_marks *marks = NULL;
    const tfx_value *str = tfx_value_unmark(ctx, args[0], &marks);
    const unsigned char *raw;
    const char *text, *error = NULL;
    size_t n = 0, out_n = 0;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    raw = tfx_base64_std_decode(ctx, (const unsigned char *)str->as.string.s,
                                str->as.string.nbytes, &n);
    if (raw == NULL)
        return tfx_fn_error(err, tfx_ctx_printf(ctx, "failed to decode base64 data %s",
                                                redacted(ctx, str, marks)));
    text = gunzip(ctx, raw, n, &out_n, &error);
    if (text == NULL)
        return tfx_fn_error(err, error);
    return tfx_value_mark(ctx, bytes_value(ctx, text, out_n), marks);
}

static const tfx_function tfx_fn_base64gunzip = {.name = "base64gunzip",
                                                 .params = base64gunzip_params,
                                                 .nparams = TFX_COUNTOF(base64gunzip_params),
                                                 .varparam = NULL,
                                                 .type = NULL,
                                                 .ret_type = &tfx_type_str,
                                                 .impl = base64gunzip_impl};

/* ---- urldecode ---- */

static int hex_digit(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Whether the escape at e[0..n) (e[0] == '%') lacks two hex digits. */
static bool bad_escape(const unsigned char *e, size_t n)
{
    return n < 3 || hex_digit(e[1]) < 0 || hex_digit(e[2]) < 0;
}

static const tfx_param urldecode_params[] = {
    {.name = "str", .type = &tfx_type_str},
};

/* [fn.urldecode] Go's url.QueryUnescape: "+" is a space, "%XX" (either
 * case of hex) the byte XX, every other byte itself; the result is not
 * checked for UTF-8.  [fn.urldecode.error] A "%" without two hex digits
 * after it fails the whole call: "failed to decode URL '': invalid URL
 * escape <the '%' and up to two bytes after it, Go-quoted>" (OpenTofu
 * quotes QueryUnescape's result, which is empty on failure). */
static const tfx_value *urldecode_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                       const tfx_value *const *args, size_t nargs,
                                       tfx_func_error *err)
{
    const unsigned char *s = (const unsigned char *)args[0]->as.string.s;
    size_t n = args[0]->as.string.nbytes, k = 0;
    char *out;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '%')
            continue;
        if (bad_escape(s + i, n - i)) /* Go quotes the '%' and up to two bytes */
            return tfx_fn_error(
                err, tfx_ctx_printf(ctx, "failed to decode URL '': invalid URL escape %s",
                                    tfx_textbuf_quoted(ctx, (const char *)s + i,
                                                       n - i < 3 ? n - i : 3)));
        i += 2;
    }
    out = tfx_ctx_alloc(ctx, n + 1);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '%') {
            out[k++] = (char)(hex_digit(s[i + 1]) << 4 | hex_digit(s[i + 2]));
            i += 2;
        } else {
            out[k++] = (char)(s[i] == '+' ? ' ' : s[i]);
        }
    }
    return bytes_value(ctx, out, k);
}

static const tfx_function tfx_fn_urldecode = {.name = "urldecode",
                                              .params = urldecode_params,
                                              .nparams = TFX_COUNTOF(urldecode_params),
                                              .varparam = NULL,
                                              .type = NULL,
                                              .ret_type = &tfx_type_str,
                                              .impl = urldecode_impl};

/* ---- cidrcontains ---- */

/* An address as Go's net.IP: 4 or 16 bytes. */
typedef struct {
    unsigned char b[16];
    size_t len;
} tofu_ip;

static const unsigned char v4_prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

/* IP.To4: the 4-byte form, or false. */
static bool to4(const tofu_ip *ip, tofu_ip *out)
{
    if (ip->len == 4) {
        *out = *ip;
        return true;
    }
    if (ip->len == 16 && memcmp(ip->b, v4_prefix, 12) == 0) {
        memset(out, 0, sizeof(*out));
        memcpy(out->b, ip->b + 12, 4);
        out->len = 4;
        return true;
    }
    return false;
}

/* IPNet.Contains, for a network of ParseCIDR (address and mask of one
 * length): the network's address in its 4-byte form when it has one, the
 * mask's last 4 bytes with it; the address likewise; lengths must agree. */
static bool net_contains(const tofu_ip *net, const unsigned char mask[16], const tofu_ip *ip_in)
{
    tofu_ip nn, ip = *ip_in, x;
    const unsigned char *m = mask;

    if (to4(net, &nn)) {
        if (net->len == 16)
            m = mask + 12;
    } else {
        nn = *net;
    }
    if (to4(&ip, &x))
        ip = x;
    if (ip.len != nn.len)
        return false;
    for (size_t i = 0; i < ip.len; i++)
        if ((nn.b[i] & m[i]) != (ip.b[i] & m[i]))
            return false;
    return true;
}

static const tfx_param cidrcontains_params[] = {
    {.name = "containing_prefix", .type = &tfx_type_str},
    {.name = "contained_ip_or_prefix", .type = &tfx_type_str},
};

/* "<what><s>" with s's bytes as they are (Go's %s). */
static const char *message_with(tfx_ctx *ctx, const char *what, const tfx_value *s)
{
    tfx_textbuf b;

    tfx_textbuf_init(&b, ctx);
    tfx_textbuf_puts(&b, what);
    tfx_textbuf_put(&b, s->as.string.s, s->as.string.nbytes);
    return tfx_textbuf_text(&b);
}

/* [fn.cidrcontains] Whether the address, or every address of the prefix,
 * that the second argument gives lies in the prefix the first gives.
 * [fn.cidrcontains.parse] The first must be a prefix ("invalid CIDR
 * address: <it>"); the second an address, or else a prefix ("invalid IP
 * address or prefix: <it>"), whose first and last addresses both count.
 * [fn.cidrcontains.family] The first argument's network address and the
 * second's (first) address must both have a 4-byte form or both not:
 * "address family mismatch: <first> vs. <second>". */
static const tfx_value *cidrcontains_impl(tfx_ctx *ctx, const tfx_function *fn,
                                          const tfx_type *ret, const tfx_value *const *args,
                                          size_t nargs, tfx_func_error *err)
{
    const tfx_value *prefix = args[0], *addr = args[1];
    tofu_ip net, first, last, x, y;
    unsigned char mask[16];
    bool has_last = false, in;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (!tfx_cidr_parse_prefix(ctx, prefix->as.string.s, prefix->as.string.nbytes, net.b, mask,
                               &net.len))
        return tfx_fn_error(err, message_with(ctx, "invalid CIDR address: ", prefix));
    first.len = 16;
    if (!tfx_cidr_parse_ip(addr->as.string.s, addr->as.string.nbytes, first.b)) {
        unsigned char amask[16];

        if (!tfx_cidr_parse_prefix(ctx, addr->as.string.s, addr->as.string.nbytes, first.b,
                                   amask, &first.len))
            return tfx_fn_error(err, message_with(ctx, "invalid IP address or prefix: ", addr));
        /* go-cidr's AddressRange: the last address is the network's with
         * every bit outside the mask set */
        last = first;
        for (size_t i = 0; i < last.len; i++)
            last.b[i] |= (unsigned char)~amask[i];
        has_last = true;
    }
    if (to4(&first, &x) != to4(&net, &y)) {
        tfx_textbuf b;

        tfx_textbuf_init(&b, ctx);
        tfx_textbuf_puts(&b, "address family mismatch: ");
        tfx_textbuf_put(&b, prefix->as.string.s, prefix->as.string.nbytes);
        tfx_textbuf_puts(&b, " vs. ");
        tfx_textbuf_put(&b, addr->as.string.s, addr->as.string.nbytes);
        return tfx_fn_error(err, tfx_textbuf_text(&b));
    }
    in = net_contains(&net, mask, &first);
    if (has_last)
        in = in && net_contains(&net, mask, &last);
    return tfx_value_bool(in);
}

static const tfx_function tfx_fn_cidrcontains = {.name = "cidrcontains",
                                                 .params = cidrcontains_params,
                                                 .nparams = TFX_COUNTOF(cidrcontains_params),
                                                 .varparam = NULL,
                                                 .type = NULL,
                                                 .ret_type = &tfx_type_bool,
                                                 .impl = cidrcontains_impl};

/* [flavor.table] Sorted by name. */
const tfx_builtin tfx_builtins_opentofu[] = {
    {"base64gunzip", &tfx_fn_base64gunzip},
    {"cidrcontains", &tfx_fn_cidrcontains},
    {"urldecode", &tfx_fn_urldecode},
    {NULL, NULL},
};
