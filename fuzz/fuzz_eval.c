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
 * fuzz_collections shares with a context of its own.
 */
#include "fuzz_common.h"

/* The fixed variables: the fixtures of the design notes, in the corpus's
 * typed encoding. */
static const char variables[] =
    "{"
    "\"s\":{\"type\":\"string\",\"v\":\"hello\"},"
    "\"n\":{\"type\":\"number\",\"v\":\"5\"},"
    "\"f\":{\"type\":\"number\",\"v\":\"1.5\"},"
    "\"b\":{\"type\":\"bool\",\"v\":true},"
    "\"nul\":{\"type\":\"dynamic\",\"null\":true},"
    "\"nuls\":{\"type\":\"string\",\"null\":true},"
    "\"l\":{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"a\"},{\"v\":\"b\"},{\"v\":\"c\"}]},"
    "\"ln\":{\"type\":[\"list\",\"number\"],\"v\":[{\"v\":\"1\"},{\"v\":\"2\"},{\"v\":\"3\"}]},"
    "\"t\":{\"type\":[\"tuple\",[\"string\",\"number\",\"bool\"]],"
    "\"v\":[{\"v\":\"a\"},{\"v\":\"1\"},{\"v\":true}]},"
    "\"st\":{\"type\":[\"set\",\"string\"],\"v\":[{\"v\":\"b\"},{\"v\":\"a\"},{\"v\":\"c\"}]},"
    "\"m\":{\"type\":[\"map\",\"string\"],\"v\":{\"a\":{\"v\":\"x\"},\"b\":{\"v\":\"y\"}}},"
    "\"o\":{\"type\":[\"object\",{\"a\":\"string\",\"b\":\"number\",\"c\":[\"list\",\"number\"]}],"
    "\"v\":{\"a\":{\"v\":\"x\"},\"b\":{\"v\":\"1\"},\"c\":{\"v\":[{\"v\":\"1\"},{\"v\":\"2\"}]}}},"
    "\"lo\":{\"type\":[\"list\",[\"object\",{\"name\":\"string\",\"id\":\"number\"}]],"
    "\"v\":[{\"v\":{\"name\":{\"v\":\"a\"},\"id\":{\"v\":\"1\"}}},"
    "{\"v\":{\"name\":{\"v\":\"b\"},\"id\":{\"null\":true}}}]},"
    "\"us\":{\"type\":\"string\",\"unknown\":true},"
    "\"un\":{\"type\":\"number\",\"unknown\":true},"
    "\"ub\":{\"type\":\"bool\",\"unknown\":true},"
    "\"ul\":{\"type\":[\"list\",\"string\"],\"unknown\":true},"
    "\"uo\":{\"type\":[\"object\",{\"a\":\"string\"}],\"unknown\":true},"
    "\"dyn\":{\"type\":\"dynamic\",\"unknown\":true},"
    "\"lu\":{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"a\"},{\"unknown\":true}]},"
    "\"sens\":{\"type\":\"string\",\"v\":\"secret\",\"marks\":[\"sensitive\"]},"
    "\"sensn\":{\"type\":\"number\",\"v\":\"7\",\"marks\":[\"sensitive\"]},"
    "\"sensl\":{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"a\"},"
    "{\"v\":\"b\",\"marks\":[\"sensitive\"]}]},"
    "\"sensu\":{\"type\":\"string\",\"unknown\":true,\"marks\":[\"sensitive\"]},"
    "\"other\":{\"type\":\"string\",\"v\":\"o\",\"marks\":[\"other\"]}"
    "}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static tfx_context *ctx;

    if (ctx == NULL)
        ctx = fuzz_eval_context(variables, sizeof(variables) - 1);
    fuzz_eval_input(ctx, data, size);
    return 0;
}
