/* SPDX-License-Identifier: MPL-2.0 */
/*
 * deflate.c — Go 1.19's compress/flate at level 6 and compress/gzip's
 * member format, written from their description (spec/functions-gzip.md).
 *
 * The compressor keeps Go's state exactly, because every detail shows in
 * the bytes: a 64 KiB buffer that slides by 32 KiB, hash chains over 4-byte
 * prefixes whose positions carry an offset, lazy matching with the level's
 * lazy/nice/chain parameters, blocks of at most 16,384 tokens, and for
 * each block the smallest of stored, fixed and dynamic Huffman coding as
 * Go estimates them, with Go's length-limited code construction.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "deflate.h"

/* [gzip.level] The window and limits of the format and of Go's compressor. */
enum {
    WIN_SIZE = 1 << 15,
    WIN_MASK = WIN_SIZE - 1,
    BUF_SIZE = 2 * WIN_SIZE, /* the buffer holds two windows */
    MIN_MATCH = 4,          /* the shortest match Go emits */
    MAX_MATCH = 258,
    LOOKAHEAD = MIN_MATCH + MAX_MATCH,
    MAX_BLOCK_TOKENS = 1 << 14,
    MAX_STORED = 65535,
    HASH_BITS = 17,
    HASH_SIZE = 1 << HASH_BITS,
    MAX_HASH_OFFSET = 1 << 24,
    /* level 6 */
    /* good = 8 never applies: every search starts from length 3 */
    LEVEL_LAZY = 16,
    LEVEL_NICE = 128,
    LEVEL_CHAIN = 128,
    /* the alphabets */
    NUM_LIT = 286,
    NUM_OFF = 30,
    NUM_CODEGEN = 19,
    END_BLOCK = 256,
    WORK_PER_STEP = 1024
};

#define HASH_MUL 0x1e35a7bdU
#define MATCH_FLAG ((uint32_t)1 << 30)
#define NO_BLOCK_START ((int64_t)INT32_MAX)
/* A literal token is its byte, or END_BLOCK; a match token is MATCH_FLAG
 * plus (length - 3) << 22 plus (distance - 1). */

/* ---- Output: a growable byte buffer and an LSB-first bit writer ---- */

typedef struct {
    tfx_ctx *ctx;
    unsigned char *bytes;
    size_t nbytes, cap;
    uint64_t bits;
    unsigned nbits;
} bit_writer;

static void out_reserve(bit_writer *w, size_t more)
{
    size_t cap;
    unsigned char *bigger;

    if (w->cap - w->nbytes >= more)
        return;
    cap = w->cap < 256 ? 256 : w->cap;
    while (cap - w->nbytes < more) {
        if (cap > SIZE_MAX / 2)
            tfx_ctx_fail(w->ctx, "Memory limit exceeded", "compressed data too large");
        cap *= 2;
    }
    bigger = tfx_ctx_alloc(w->ctx, cap);
    if (w->nbytes > 0)
        memcpy(bigger, w->bytes, w->nbytes);
    w->bytes = bigger;
    w->cap = cap;
}

static void out_bytes(bit_writer *w, const unsigned char *p, size_t n)
{
    if (n == 0)
        return;
    out_reserve(w, n);
    memcpy(w->bytes + w->nbytes, p, n);
    w->nbytes += n;
}

/* Appends the low nbits bits of value (value < 2^nbits, nbits <= 16). */
static void put_bits(bit_writer *w, uint32_t value, unsigned nbits)
{
    w->bits |= (uint64_t)value << w->nbits;
    w->nbits += nbits;
    if (w->nbits >= 32) {
        unsigned char b[4];

        b[0] = (unsigned char)w->bits;
        b[1] = (unsigned char)(w->bits >> 8);
        b[2] = (unsigned char)(w->bits >> 16);
        b[3] = (unsigned char)(w->bits >> 24);
        out_bytes(w, b, 4);
        w->bits >>= 32;
        w->nbits -= 32;
    }
}

/* Pads with zero bits to a byte boundary and writes what is pending. */
static void flush_bits(bit_writer *w)
{
    while (w->nbits > 0) {
        unsigned char b = (unsigned char)w->bits;

        out_bytes(w, &b, 1);
        w->bits >>= 8;
        w->nbits = w->nbits > 8 ? w->nbits - 8 : 0;
    }
    w->bits = 0;
}

/* ---- Huffman codes: Go's construction [gzip.huffman] ---- */

typedef struct {
    uint16_t code; /* bit-reversed, ready to be written LSB first */
    uint8_t len;   /* 0: the symbol has no code */
} hcode;

typedef struct {
    uint16_t sym;
    int32_t freq;
} leaf;

static int leaf_by_freq(const void *a, const void *b)
{
    const leaf *x = a, *y = b;

    if (x->freq != y->freq)
        return x->freq < y->freq ? -1 : 1;
    return (x->sym > y->sym) - (x->sym < y->sym);
}

static uint16_t reverse_bits(uint16_t code, unsigned len)
{
    uint16_t r = 0;
    unsigned i;

    for (i = 0; i < len; i++) {
        r = (uint16_t)((r << 1) | (code & 1));
        code >>= 1;
    }
    return r;
}

/* [gzip.huffman.canonical] Codes from lengths: shorter codes first, and
 * within a length in symbol order (RFC 1951 3.2.2), which is also the order
 * Go assigns them in. */
static void assign_codes(hcode *codes, size_t n)
{
    unsigned count[17] = {0}, next[17] = {0};
    unsigned code = 0, bits;
    size_t i;

    for (i = 0; i < n; i++)
        count[codes[i].len]++;
    count[0] = 0;
    for (bits = 1; bits <= 16; bits++) {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    for (i = 0; i < n; i++)
        if (codes[i].len > 0)
            codes[i].code = reverse_bits((uint16_t)next[codes[i].len]++, codes[i].len);
}

typedef struct {
    int32_t last_freq, next_char_freq, next_pair_freq, needed;
} level_info;

/* [gzip.huffman.lengths] How many of the n leaves (sorted by frequency,
 * then symbol; list[n] a sentinel of the greatest frequency) get each code
 * length from 1 to max_bits: Go's level-by-level construction of a
 * length-limited tree (its bitCounts), which counts, per level, the leaves
 * to the left of the rightmost node's ancestors. */
static void bit_counts(const leaf *list, int32_t n, int32_t max_bits, int32_t *bit_count)
{
    level_info levels[18];
    int32_t leaf_counts[17][17];
    int32_t level, bits;

    memset(levels, 0, sizeof levels);
    memset(leaf_counts, 0, sizeof leaf_counts);
    if (max_bits > n - 1)
        max_bits = n - 1;
    for (level = 1; level <= max_bits; level++) {
        levels[level].last_freq = list[1].freq;
        levels[level].next_char_freq = list[2].freq;
        levels[level].next_pair_freq = level == 1 ? INT32_MAX : list[0].freq + list[1].freq;
        leaf_counts[level][level] = 2;
    }
    levels[max_bits].needed = 2 * n - 4;
    level = max_bits;
    for (;;) {
        level_info *l = &levels[level];
        int32_t prev_freq;

        if (l->next_pair_freq == INT32_MAX && l->next_char_freq == INT32_MAX) {
            /* neither leaves nor pairs are left for this level */
            l->needed = 0;
            levels[level + 1].next_pair_freq = INT32_MAX;
            level++;
            continue;
        }
        prev_freq = l->last_freq;
        if (l->next_char_freq < l->next_pair_freq) {
            int32_t k = leaf_counts[level][level] + 1;

            l->last_freq = l->next_char_freq;
            leaf_counts[level][level] = k;
            l->next_char_freq = list[k].freq;
        } else {
            l->last_freq = l->next_pair_freq;
            memcpy(leaf_counts[level], leaf_counts[level - 1], (size_t)level * sizeof(int32_t));
            levels[level - 1].needed = 2;
        }
        if (--l->needed == 0) {
            if (level == max_bits)
                break;
            levels[level + 1].next_pair_freq = prev_freq + l->last_freq;
            level++;
        } else {
            while (levels[level - 1].needed > 0)
                level--;
        }
    }
    for (bits = 0; bits <= 16; bits++)
        bit_count[bits] = 0;
    bits = 1;
    for (level = max_bits; level > 0; level--) {
        bit_count[bits] = leaf_counts[max_bits][level] - leaf_counts[max_bits][level - 1];
        bits++;
    }
}

/* [gzip.huffman] The code Go makes for freq[0..n) with at most max_bits
 * bits: symbols of frequency 0 get none; with one or two used symbols each
 * gets one bit; otherwise the most frequent leaves take the shortest
 * lengths as bit_counts decides. */
static void build_code(const int32_t *freq, size_t n, int32_t max_bits, hcode *codes)
{
    leaf list[NUM_LIT + 1];
    int32_t bit_count[17];
    size_t count = 0, i;
    int32_t bits;

    for (i = 0; i < n; i++) {
        codes[i].len = 0;
        codes[i].code = 0;
        if (freq[i] != 0) {
            list[count].sym = (uint16_t)i;
            list[count].freq = freq[i];
            count++;
        }
    }
    if (count <= 2) {
        for (i = 0; i < count; i++) {
            codes[list[i].sym].len = 1;
            codes[list[i].sym].code = (uint16_t)i;
        }
        return;
    }
    qsort(list, count, sizeof list[0], leaf_by_freq);
    list[count].sym = UINT16_MAX;
    list[count].freq = INT32_MAX;
    bit_counts(list, (int32_t)count, max_bits, bit_count);
    /* the last (most frequent) bit_count[1] leaves get 1 bit, the ones
     * before them bit_count[2] bits, and so on */
    i = count;
    for (bits = 1; bits <= 16; bits++) {
        int32_t k;

        for (k = 0; k < bit_count[bits]; k++) {
            i--;
            codes[list[i].sym].len = (uint8_t)bits;
        }
    }
    assign_codes(codes, n);
}

static int64_t code_bits(const hcode *codes, const int32_t *freq, size_t n)
{
    int64_t total = 0;
    size_t i;

    for (i = 0; i < n; i++)
        total += (int64_t)freq[i] * codes[i].len;
    return total;
}

/* ---- Length and distance codes (RFC 1951 3.2.5) ---- */

static const uint32_t length_base[29] = {0,  1,  2,  3,  4,  5,  6,   7,   8,   10,
                                         12, 14, 16, 20, 24, 28, 32,  40,  48,  56,
                                         64, 80, 96, 112, 128, 160, 192, 224, 255};

static const uint32_t offset_base[30] = {
    0x0000, 0x0001, 0x0002, 0x0003, 0x0004, 0x0006, 0x0008, 0x000c, 0x0010, 0x0018,
    0x0020, 0x0030, 0x0040, 0x0060, 0x0080, 0x00c0, 0x0100, 0x0180, 0x0200, 0x0300,
    0x0400, 0x0600, 0x0800, 0x0c00, 0x1000, 0x1800, 0x2000, 0x3000, 0x4000, 0x6000};

static unsigned top_bit(uint32_t v)
{
    unsigned b = 0;

    while (v >>= 1)
        b++;
    return b;
}

/* The length code (0..28) of xlength = match length - 3. */
static unsigned length_code(uint32_t xlength)
{
    unsigned t;

    if (xlength < 8)
        return xlength;
    if (xlength == 255)
        return 28;
    t = top_bit(xlength);
    return 4 * (t - 1) + ((xlength >> (t - 2)) & 3);
}

static unsigned length_extra(unsigned lc)
{
    return lc < 8 || lc == 28 ? 0 : (lc - 4) / 4;
}

/* The distance code (0..29) of xoffset = distance - 1. */
static unsigned offset_code(uint32_t xoffset)
{
    unsigned t;

    if (xoffset < 4)
        return xoffset;
    t = top_bit(xoffset);
    return 2 * t + ((xoffset >> (t - 1)) & 1);
}

static unsigned offset_extra(unsigned oc)
{
    return oc < 4 ? 0 : oc / 2 - 1;
}

/* ---- Blocks [gzip.block] ---- */

static const uint8_t codegen_order[NUM_CODEGEN] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                                   11, 4,  12, 3, 13, 2, 14, 1, 15};

typedef struct {
    bit_writer out;
    int32_t lit_freq[NUM_LIT], off_freq[NUM_OFF], codegen_freq[NUM_CODEGEN];
    hcode lit_codes[NUM_LIT], off_codes[NUM_OFF], codegen_codes[NUM_CODEGEN];
    hcode fixed_lit[NUM_LIT], fixed_off[NUM_OFF];
    uint8_t codegen[NUM_LIT + NUM_OFF + 1]; /* symbols and their extra values */
    size_t ncodegen;
} block_writer;

/* [gzip.block.fixed] The fixed codes of RFC 1951 3.2.6. */
static void init_fixed(block_writer *b)
{
    hcode all[288]; /* the fixed code is defined over 288 symbols */
    size_t i;

    for (i = 0; i < 288; i++)
        all[i].len = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
    assign_codes(all, 288);
    memcpy(b->fixed_lit, all, sizeof b->fixed_lit);
    for (i = 0; i < NUM_OFF; i++)
        b->fixed_off[i].len = 5;
    assign_codes(b->fixed_off, NUM_OFF);
}

/* [gzip.block.header] The code lengths of the literal/length and distance
 * codes as one sequence, run-length coded Go's way: a run of a nonzero
 * length is written once and then repeated with 16 (3..6 at a time) while
 * 3 or more remain; a run of zeros takes 18 (11..138) while 11 or more
 * remain, then 17 (3..10) if 3 or more; what is left is written
 * literally.  Counts the frequency of each symbol. */
static void make_codegen(block_writer *b, size_t nlit, size_t noff)
{
    uint8_t lens[NUM_LIT + NUM_OFF + 1];
    size_t total = nlit + noff, in, out = 0;

    memset(b->codegen_freq, 0, sizeof b->codegen_freq);
    for (in = 0; in < nlit; in++)
        lens[in] = b->lit_codes[in].len;
    for (in = 0; in < noff; in++)
        lens[nlit + in] = b->off_codes[in].len;
    in = 0;
    while (in < total) {
        uint8_t size = lens[in];
        long count = 1;

        while (in + (size_t)count < total && lens[in + (size_t)count] == size)
            count++;
        in += (size_t)count;
        if (size != 0) {
            b->codegen[out++] = size;
            b->codegen_freq[size]++;
            count--;
            while (count >= 3) {
                long k = count < 6 ? count : 6;

                b->codegen[out++] = 16;
                b->codegen[out++] = (uint8_t)(k - 3);
                b->codegen_freq[16]++;
                count -= k;
            }
        } else {
            while (count >= 11) {
                long k = count < 138 ? count : 138;

                b->codegen[out++] = 18;
                b->codegen[out++] = (uint8_t)(k - 11);
                b->codegen_freq[18]++;
                count -= k;
            }
            if (count >= 3) {
                b->codegen[out++] = 17;
                b->codegen[out++] = (uint8_t)(count - 3);
                b->codegen_freq[17]++;
                count = 0;
            }
        }
        for (; count > 0; count--) {
            b->codegen[out++] = size;
            b->codegen_freq[size]++;
        }
    }
    b->ncodegen = out;
}

static void put_code(bit_writer *w, hcode c)
{
    put_bits(w, c.code, c.len);
}

static void write_dynamic_header(block_writer *b, size_t nlit, size_t noff, size_t ncodelens,
                                 bool eof)
{
    size_t i;

    put_bits(&b->out, eof ? 5 : 4, 3);
    put_bits(&b->out, (uint32_t)(nlit - 257), 5);
    put_bits(&b->out, (uint32_t)(noff - 1), 5);
    put_bits(&b->out, (uint32_t)(ncodelens - 4), 4);
    for (i = 0; i < ncodelens; i++)
        put_bits(&b->out, b->codegen_codes[codegen_order[i]].len, 3);
    for (i = 0; i < b->ncodegen; i++) {
        uint8_t sym = b->codegen[i];

        put_code(&b->out, b->codegen_codes[sym]);
        if (sym == 16)
            put_bits(&b->out, b->codegen[++i], 2);
        else if (sym == 17)
            put_bits(&b->out, b->codegen[++i], 3);
        else if (sym == 18)
            put_bits(&b->out, b->codegen[++i], 7);
    }
}

/* [gzip.block.stored] A stored block header: 3 bits, padding to a byte,
 * LEN and NLEN. */
static void write_stored_header(bit_writer *w, size_t nbytes, bool eof)
{
    put_bits(w, eof ? 1 : 0, 3);
    flush_bits(w);
    put_bits(w, (uint32_t)nbytes, 16);
    put_bits(w, (uint32_t)(~nbytes & 0xffff), 16);
}

static void write_tokens(bit_writer *w, const uint32_t *tokens, size_t ntokens,
                         const hcode *lit, const hcode *off)
{
    size_t i;

    for (i = 0; i < ntokens; i++) {
        uint32_t t = tokens[i], xlength, xoffset;
        unsigned lc, oc;

        if (t <= END_BLOCK) {
            put_code(w, lit[t]);
            continue;
        }
        xlength = (t - MATCH_FLAG) >> 22;
        xoffset = t & ((1U << 22) - 1);
        lc = length_code(xlength);
        put_code(w, lit[257 + lc]);
        if (length_extra(lc) > 0)
            put_bits(w, xlength - length_base[lc], length_extra(lc));
        oc = offset_code(xoffset);
        put_code(w, off[oc]);
        if (offset_extra(oc) > 0)
            put_bits(w, xoffset - offset_base[oc], offset_extra(oc));
    }
}

/* [gzip.block.choice] One block of tokens (an end-of-block token is added):
 * its codes from the frequencies, then the smallest of the three forms as
 * Go counts them (fixed; dynamic if strictly smaller; stored if the input
 * bytes are known, at most 65,535, and strictly smaller still). */
static void write_block(block_writer *b, uint32_t *tokens, size_t ntokens,
                        const unsigned char *input, size_t ninput, bool storable, bool eof)
{
    size_t i, nlit, noff, ncodelens;
    int64_t extra = 0, fixed_size, dyn_size, size;
    bool dynamic = false;

    tokens[ntokens++] = END_BLOCK;
    memset(b->lit_freq, 0, sizeof b->lit_freq);
    memset(b->off_freq, 0, sizeof b->off_freq);
    for (i = 0; i < ntokens; i++) {
        uint32_t t = tokens[i];

        if (t <= END_BLOCK) {
            b->lit_freq[t]++;
            continue;
        }
        b->lit_freq[257 + length_code((t - MATCH_FLAG) >> 22)]++;
        b->off_freq[offset_code(t & ((1U << 22) - 1))]++;
    }
    nlit = NUM_LIT;
    while (b->lit_freq[nlit - 1] == 0)
        nlit--;
    noff = NUM_OFF;
    while (noff > 0 && b->off_freq[noff - 1] == 0)
        noff--;
    if (noff == 0) {
        /* [gzip.block.no-distances] one distance code is declared anyway */
        b->off_freq[0] = 1;
        noff = 1;
    }
    build_code(b->lit_freq, NUM_LIT, 15, b->lit_codes);
    build_code(b->off_freq, NUM_OFF, 15, b->off_codes);

    storable = storable && ninput <= MAX_STORED;
    if (storable) {
        /* extra bits count only when the stored form is a candidate */
        for (i = 257 + 8; i < nlit; i++)
            extra += (int64_t)b->lit_freq[i] * length_extra((unsigned)(i - 257));
        for (i = 4; i < noff; i++)
            extra += (int64_t)b->off_freq[i] * offset_extra((unsigned)i);
    }
    fixed_size = 3 + code_bits(b->fixed_lit, b->lit_freq, NUM_LIT)
                 + code_bits(b->fixed_off, b->off_freq, NUM_OFF) + extra;

    make_codegen(b, nlit, noff);
    build_code(b->codegen_freq, NUM_CODEGEN, 7, b->codegen_codes);
    ncodelens = NUM_CODEGEN;
    while (ncodelens > 4 && b->codegen_freq[codegen_order[ncodelens - 1]] == 0)
        ncodelens--;
    dyn_size = 3 + 5 + 5 + 4 + 3 * (int64_t)ncodelens
               + code_bits(b->codegen_codes, b->codegen_freq, NUM_CODEGEN)
               + (int64_t)b->codegen_freq[16] * 2 + (int64_t)b->codegen_freq[17] * 3
               + (int64_t)b->codegen_freq[18] * 7 + code_bits(b->lit_codes, b->lit_freq, NUM_LIT)
               + code_bits(b->off_codes, b->off_freq, NUM_OFF) + extra;
    size = fixed_size;
    if (dyn_size < size) {
        size = dyn_size;
        dynamic = true;
    }
    if (storable && (int64_t)(ninput + 5) * 8 < size) {
        write_stored_header(&b->out, ninput, eof);
        out_bytes(&b->out, input, ninput);
        return;
    }
    if (dynamic) {
        write_dynamic_header(b, nlit, noff, ncodelens, eof);
        write_tokens(&b->out, tokens, ntokens, b->lit_codes, b->off_codes);
    } else {
        put_bits(&b->out, eof ? 3 : 2, 3);
        write_tokens(&b->out, tokens, ntokens, b->fixed_lit, b->fixed_off);
    }
}

/* ---- The compressor [gzip.deflate] ---- */

typedef struct {
    tfx_ctx *ctx;
    block_writer *bw;
    unsigned char *window; /* BUF_SIZE bytes */
    uint32_t *hash_head;   /* HASH_SIZE: position + hash_offset of the last
                              string with that hash, 0 for none */
    uint32_t *hash_prev;   /* WIN_SIZE: the chain, by position & WIN_MASK */
    int64_t hash_offset, chain_head;
    int64_t index, window_end, block_start, max_insert_index;
    int64_t length, offset;
    bool byte_available, sync;
    uint32_t *tokens;
    size_t ntokens;
    size_t work;
} deflater;

static void charge(deflater *d, size_t units)
{
    d->work += units;
    while (d->work >= WORK_PER_STEP) {
        d->work -= WORK_PER_STEP;
        tfx_ctx_step(d->ctx);
    }
}

/* [gzip.deflate.hash] The hash of the 4 bytes at p: big-endian, times
 * 0x1e35a7bd, the top 17 bits. */
static uint32_t hash4(const unsigned char *p)
{
    uint32_t v = (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16
                 | (uint32_t)p[0] << 24;

    return (v * HASH_MUL) >> (32 - HASH_BITS);
}

static void insert_hash(deflater *d, int64_t pos)
{
    uint32_t h = hash4(d->window + pos);

    d->hash_prev[pos & WIN_MASK] = d->hash_head[h];
    d->hash_head[h] = (uint32_t)(pos + d->hash_offset);
}

/* [gzip.deflate.window] Adds input to the window, first sliding it by
 * 32 KiB when the position has come within 262 bytes of its end. */
static size_t fill_window(deflater *d, const unsigned char *in, size_t nbytes)
{
    size_t room, k;

    if (d->index >= BUF_SIZE - LOOKAHEAD) {
        memmove(d->window, d->window + WIN_SIZE, WIN_SIZE);
        d->index -= WIN_SIZE;
        d->window_end -= WIN_SIZE;
        if (d->block_start >= WIN_SIZE)
            d->block_start -= WIN_SIZE;
        else
            d->block_start = NO_BLOCK_START;
        d->hash_offset += WIN_SIZE;
        if (d->hash_offset > MAX_HASH_OFFSET) {
            int64_t delta = d->hash_offset - 1;
            size_t i;

            d->hash_offset -= delta;
            d->chain_head -= delta;
            for (i = 0; i < WIN_SIZE; i++)
                d->hash_prev[i] = (int64_t)d->hash_prev[i] > delta
                                      ? (uint32_t)((int64_t)d->hash_prev[i] - delta)
                                      : 0;
            for (i = 0; i < HASH_SIZE; i++)
                d->hash_head[i] = (int64_t)d->hash_head[i] > delta
                                      ? (uint32_t)((int64_t)d->hash_head[i] - delta)
                                      : 0;
            charge(d, HASH_SIZE + WIN_SIZE);
        }
    }
    room = (size_t)(BUF_SIZE - d->window_end);
    k = nbytes < room ? nbytes : room;
    if (k > 0)
        memcpy(d->window + d->window_end, in, k);
    d->window_end += (int64_t)k;
    return k;
}

/* Emits the tokens so far as a block ending at window position end; the
 * stored form is possible only while the block's bytes are still in the
 * window. */
static void flush_block(deflater *d, int64_t end)
{
    if (end > 0) {
        bool storable = d->block_start <= end;
        const unsigned char *input = storable ? d->window + d->block_start : NULL;
        size_t ninput = storable ? (size_t)(end - d->block_start) : 0;

        d->block_start = end;
        write_block(d->bw, d->tokens, d->ntokens, input, ninput, storable, false);
    }
    d->ntokens = 0;
}

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* [gzip.deflate.match] The longest match for the string at pos along the
 * chain from prev_head, longer than 3: at most 128 candidates, a candidate
 * tried only if it agrees at the current best length's end byte, a match
 * of exactly 4 only within 4,096 bytes, stopping at 128 (or the
 * lookahead). */
static bool find_match(deflater *d, int64_t pos, int64_t prev_head, int64_t lookahead,
                       int64_t *out_length, int64_t *out_offset)
{
    const unsigned char *win = d->window;
    int64_t look = min64(lookahead, MAX_MATCH);
    int64_t nice = min64(look, LEVEL_NICE);
    int64_t length = MIN_MATCH - 1, min_index = pos - WIN_SIZE, i;
    int tries = LEVEL_CHAIN; /* Go quarters it when the starting length is
                                good (8), which it never is: it is 3 */
    unsigned char end_byte;
    bool found = false;

    end_byte = win[pos + length];
    for (i = prev_head; tries > 0; tries--) {
        charge(d, 1);
        if (win[i + length] == end_byte) {
            int64_t n = 0;

            while (n < look && win[i + n] == win[pos + n])
                n++;
            if (n > length && (n > MIN_MATCH || pos - i <= 4096)) {
                length = n;
                *out_offset = pos - i;
                found = true;
                if (n >= nice)
                    break;
                end_byte = win[pos + n];
            }
        }
        if (i == min_index)
            break;
        i = (int64_t)d->hash_prev[i & WIN_MASK] - d->hash_offset;
        if (i < min_index || i < 0)
            break;
    }
    if (found)
        *out_length = length;
    return found;
}

static void push_token(deflater *d, uint32_t t)
{
    d->tokens[d->ntokens++] = t;
}

/* [gzip.deflate.lazy] Processes the window: at each position the best match
 * is looked for (when the previous one is shorter than 16); the previous
 * position's match is taken unless this one is longer, otherwise the
 * previous byte becomes a literal.  Stops 262 bytes before the end unless
 * flushing. */
static void deflate_step(deflater *d)
{
    if (d->window_end - d->index < LOOKAHEAD && !d->sync)
        return;
    d->max_insert_index = d->window_end - (MIN_MATCH - 1);
    for (;;) {
        int64_t lookahead = d->window_end - d->index, prev_length, prev_offset, min_index;

        charge(d, 1);
        if (lookahead < LOOKAHEAD) {
            if (!d->sync)
                break;
            if (lookahead == 0) {
                if (d->byte_available) {
                    push_token(d, d->window[d->index - 1]);
                    d->byte_available = false;
                }
                if (d->ntokens > 0)
                    flush_block(d, d->index);
                break;
            }
        }
        if (d->index < d->max_insert_index) {
            uint32_t h = hash4(d->window + d->index);

            d->chain_head = d->hash_head[h];
            d->hash_prev[d->index & WIN_MASK] = (uint32_t)d->chain_head;
            d->hash_head[h] = (uint32_t)(d->index + d->hash_offset);
        }
        prev_length = d->length;
        prev_offset = d->offset;
        d->length = MIN_MATCH - 1;
        d->offset = 0;
        min_index = d->index - WIN_SIZE > 0 ? d->index - WIN_SIZE : 0;
        if (d->chain_head - d->hash_offset >= min_index && lookahead > prev_length
            && prev_length < LEVEL_LAZY)
            find_match(d, d->index, d->chain_head - d->hash_offset, lookahead, &d->length,
                       &d->offset);
        if (prev_length >= MIN_MATCH && d->length <= prev_length) {
            int64_t new_index = d->index + prev_length - 1, i;

            push_token(d, MATCH_FLAG + ((uint32_t)(prev_length - 3) << 22)
                              + (uint32_t)(prev_offset - 1));
            for (i = d->index + 1; i < new_index; i++)
                if (i < d->max_insert_index)
                    insert_hash(d, i);
            charge(d, (size_t)prev_length);
            d->index = new_index;
            d->byte_available = false;
            d->length = MIN_MATCH - 1;
            if (d->ntokens == MAX_BLOCK_TOKENS)
                flush_block(d, d->index);
        } else {
            if (d->byte_available) {
                push_token(d, d->window[d->index - 1]);
                if (d->ntokens == MAX_BLOCK_TOKENS)
                    flush_block(d, d->index);
            }
            d->index++;
            d->byte_available = true;
        }
    }
}

unsigned char *tfx_deflate_go(tfx_ctx *ctx, const unsigned char *in, size_t nbytes,
                              bool sync_flush, size_t *out_nbytes)
{
    deflater d;
    block_writer *bw = tfx_ctx_alloc(ctx, sizeof *bw);

    memset(&d, 0, sizeof d);
    d.ctx = ctx;
    d.bw = bw;
    bw->out.ctx = ctx;
    init_fixed(bw);
    d.window = tfx_ctx_alloc(ctx, BUF_SIZE);
    d.hash_head = tfx_ctx_alloc_array(ctx, HASH_SIZE, sizeof(uint32_t));
    d.hash_prev = tfx_ctx_alloc_array(ctx, WIN_SIZE, sizeof(uint32_t));
    d.tokens = tfx_ctx_alloc_array(ctx, MAX_BLOCK_TOKENS + 2, sizeof(uint32_t));
    d.hash_offset = 1;
    d.chain_head = -1;
    d.length = MIN_MATCH - 1;
    out_reserve(&bw->out, nbytes + nbytes / 8 + 64);

    /* [gzip.deflate.write] one Write: process, then fill, while input remains */
    while (nbytes > 0) {
        size_t k;

        deflate_step(&d);
        k = fill_window(&d, in, nbytes);
        in += k;
        nbytes -= k;
    }
    if (sync_flush) {
        /* [gzip.deflate.flush] Flush: the pending tokens, then an empty
         * stored block */
        d.sync = true;
        deflate_step(&d);
        write_stored_header(&bw->out, 0, false);
        flush_bits(&bw->out);
    }
    /* [gzip.deflate.close] Close: the pending tokens, then an empty final
     * stored block */
    d.sync = true;
    deflate_step(&d);
    write_stored_header(&bw->out, 0, true);
    flush_bits(&bw->out);
    *out_nbytes = bw->out.nbytes;
    return bw->out.bytes;
}

unsigned char *tfx_gzip_go(tfx_ctx *ctx, const unsigned char *in, size_t nbytes,
                           size_t *out_nbytes)
{
    /* [gzip.member.header] ID1 ID2, CM 8, no flags, MTIME 0, XFL 0, OS 255 */
    static const unsigned char header[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255};
    size_t ndeflate = 0, i, total;
    unsigned char *deflated = tfx_deflate_go(ctx, in, nbytes, true, &ndeflate);
    unsigned char *out;
    uLong crc = crc32(0L, Z_NULL, 0);
    const unsigned char *p = in;
    size_t left = nbytes;
    uint32_t isize = (uint32_t)nbytes;

    /* [gzip.member.trailer] CRC-32 (IEEE) of the input and its length mod
     * 2^32, both little-endian */
    while (left > 0) {
        uInt chunk = left > (1U << 30) ? (1U << 30) : (uInt)left;

        crc = crc32(crc, p, chunk);
        p += chunk;
        left -= chunk;
    }
    total = 10 + ndeflate + 8;
    out = tfx_ctx_alloc(ctx, total);
    memcpy(out, header, 10);
    if (ndeflate > 0)
        memcpy(out + 10, deflated, ndeflate);
    for (i = 0; i < 4; i++) {
        out[10 + ndeflate + i] = (unsigned char)(crc >> (8 * i));
        out[14 + ndeflate + i] = (unsigned char)(isize >> (8 * i));
    }
    *out_nbytes = total;
    return out;
}
