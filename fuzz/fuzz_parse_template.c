/* SPDX-License-Identifier: MPL-2.0 */
/*
 * fuzz_parse_template.c — tfx_source_parse on raw bytes as a bare template.
 *
 * Input: any bytes, the source text.  Limits: 8 KiB of source (larger
 * inputs only check the refusal), nesting depth 64, 64 MiB of memory.
 * Properties (fuzz_parse_one in fuzz_common.c): every diagnostic has a
 * category of conformance/categories.json and ranges inside the input;
 * tfx_ast_check holds on the tree; dumps exist and the JSON ones are
 * valid JSON; nothing leaks.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_parse_one(data, size, TFX_MODE_TEMPLATE);
    return 0;
}
