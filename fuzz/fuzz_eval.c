/* SPDX-License-Identifier: MPL-2.0 */
/*
 * fuzz_eval.c — parse and evaluate arbitrary input against a fixed context.
 *
 * Input: any bytes, an expression (or, after a first byte 0x01, a bare
 * template).  Context: variables of every kind — primitives, collections,
 * nested structures, typed nulls, unknowns (wholly and nested), sensitive
 * and otherwise marked values — and the built-in functions.  Limits:
 * 8 KiB of source, nesting 64, 100,000 evaluation steps, 1 MiB strings,
 * 10,000 collection items, 64 MiB of memory, so that every limit trips.
 * Properties:
 *   - every diagnostic has a known category, phase eval, a summary and
 *     ranges inside the input; has_errors agrees with them;
 *   - without errors the value encodes to typed JSON (unless a number's
 *     text is longer than the string limit) whose every node
 *     conforms to its type (fuzz_check_typed), and its marks are among
 *     the marks of the context;
 *   - evaluation is deterministic: a second evaluation gives the same
 *     diagnostics and the same value, byte for byte;
 *   - nothing leaks (LSan) and nothing crashes (ASan, UBSan).
 * The checks are fuzz_eval_input's (fuzz_common.c), which
 * fuzz_collections shares with a context of its own; the context is
 * fuzz_eval_default_context's, which fuzz_eval_fast shares.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static tfx_context *ctx;

    if (ctx == NULL)
        ctx = fuzz_eval_default_context();
    fuzz_eval_input(ctx, data, size);
    return 0;
}
