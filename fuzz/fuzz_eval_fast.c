/* SPDX-License-Identifier: MPL-2.0 */
/*
 * fuzz_eval_fast.c — parse and evaluate arbitrary input against
 * fuzz_eval's context, with only the cheap checks, for speed (fuzz_eval
 * is the deep one).
 *
 * Input: any bytes, an expression (or, after a first byte 0x01, a bare
 * template).  Context and limits: fuzz_eval's (fuzz_eval_default_context;
 * 100,000 steps, depth 64, 1 MiB strings, 10,000 items, 64 MiB).
 * Properties (fuzz_eval_fast in fuzz_common.c): no crash, no leak, no
 * undefined behaviour; every evaluation diagnostic is well formed (a
 * known category, phase eval, a severity, a summary, ranges inside the
 * input and ordered); has_errors agrees with them; an evaluation without
 * errors has a value.  One evaluation, no JSON: the typed JSON walk and
 * the determinism check are fuzz_eval's.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static tfx_context *ctx;

    if (ctx == NULL)
        ctx = fuzz_eval_default_context();
    fuzz_eval_fast(ctx, data, size);
    return 0;
}
