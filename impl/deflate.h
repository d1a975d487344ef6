/* SPDX-License-Identifier: MPL-2.0 */
/*
 * deflate.h — a DEFLATE compressor that gives the bytes of Go 1.19's
 * compress/flate at its default level (6), and the gzip member Go's
 * compress/gzip writes around them (spec/functions-gzip.md, rules gzip.*).
 *
 * zlib's deflate finds other matches and builds other Huffman codes, so the
 * bytes would differ: this is Go's algorithm (lazy matching over hash
 * chains, its own length-limited code construction, its choice between
 * stored, fixed and dynamic blocks), written from its description.
 *
 * Memory comes from the ctx's arena; the work is charged with tfx_ctx_step
 * (one step per 1,024 units, a unit being a position or a chain candidate
 * examined), so the steps limit bounds it; both may fail through
 * tfx_ctx_fail, so callers run inside tfx_ctx_try.
 */
#ifndef TFX_DEFLATE_H
#define TFX_DEFLATE_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"

/* The raw DEFLATE stream of in[0..nbytes) as Go's flate.Writer at level 6
 * writes it when given the bytes in one Write, then (sync_flush) a Flush,
 * then Close [gzip.deflate.*]: arena memory, length in *out_nbytes. */
unsigned char *tfx_deflate_go(tfx_ctx *ctx, const unsigned char *in, size_t nbytes,
                              bool sync_flush, size_t *out_nbytes);

/* The gzip member Go's gzip.NewWriter writes for in[0..nbytes) given in one
 * Write, then Flush, then Close, as Terraform's base64gzip does
 * [gzip.member]: header, the DEFLATE stream above (with the sync flush),
 * CRC-32 and size. */
unsigned char *tfx_gzip_go(tfx_ctx *ctx, const unsigned char *in, size_t nbytes,
                           size_t *out_nbytes);

#endif /* TFX_DEFLATE_H */
