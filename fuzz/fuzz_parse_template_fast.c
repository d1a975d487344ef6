/* SPDX-License-Identifier: MPL-2.0 */
/*
 * fuzz_parse_template_fast.c — tfx_source_parse on raw bytes as a bare template,
 * with only the cheap checks, for speed (fuzz_parse_template is the deep one).
 *
 * Input: any bytes, the source text.  Limits: 8 KiB of source (larger
 * inputs only check the refusal), nesting depth 64, 64 MiB of memory.
 * Properties (fuzz_parse_fast in fuzz_common.c): no crash, no leak, no
 * undefined behaviour; every diagnostic is well formed (a known category,
 * phase parse, a severity, a summary, subject and context ranges inside
 * the input and ordered); has_errors agrees with the diagnostics, so a
 * parse without errors has a tree; no limit but depth is reached.  No
 * dumps, rendering, JSON or references: those are fuzz_parse_template's.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_parse_fast(data, size, TFX_MODE_TEMPLATE);
    return 0;
}
