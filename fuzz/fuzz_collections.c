/* SPDX-License-Identifier: MPL-2.0 */
/*
 * fuzz_collections.c — `for` expressions, splats and grouping over a rich
 * context.
 *
 * Input: as fuzz_eval's, an expression (or, after a first byte 0x01, a
 * bare template).  Context: collections of every kind nested in each
 * other — lists, sets, maps and tuples of objects, lists of lists, sets of
 * lists and of objects, maps of objects and of lists — with null, unknown
 * and marked elements and attributes at every level, empty collections,
 * typed nulls, unknowns (wholly and nested) and sensitive and other marks:
 * the fixed part of tools/difftest's context plus four more deeply mixed
 * values.  Its dictionary, fuzz_collections.dict, holds the tokens of
 * `for` expressions, template `for` directives, splats and grouping and
 * the context's variable and attribute names, on top of hcl.dict.
 * Properties: fuzz_eval's (fuzz_eval_input in fuzz_common.c): known
 * categories, phase eval and ranges in the input for every diagnostic;
 * without errors the value's typed JSON conforms to its type at every
 * node and carries only the context's marks; evaluating twice gives the
 * same diagnostics and the same value, byte for byte; nothing leaks or
 * crashes.
 *
 * Variables: b big both dyn es f l lempty ll ln lnul lo lol lon lou lu m mempty ml
 * mn mo mobj mu n neg nest nfd nul nulb nulll nullm nullo nullset nullt
 * nuln nuls o other s sb sempty sens sensb sensk sensl senslo senslw
 * sensm sensn sensnull senso senss sensu sensul sl sn so sobj st stu t
 * tempty tmix to tu ub ul ulo um un uni uo us ust ut.
 */
#include "fuzz_common.h"

/* The fixed variables, in the corpus's typed encoding (written from
 * tools/difftest's core context). */
static const char variables[] =
    "{"
    "\"b\":{\"type\":\"bool\",\"v\":true},"
    "\"big\":{\"type\":\"number\",\"v\":\"123456789012345678901234567890.5\"},"
    "\"both\":{\"type\":\"number\",\"v\":\"3\",\"marks\":[\"sensitive\",\"other\"]},"
    "\"dyn\":{\"type\":\"dynamic\",\"unknown\":true},"
    "\"es\":{\"type\":\"string\",\"v\":\"\"},"
    "\"f\":{\"type\":\"number\",\"v\":\"1.5\"},"
    "\"l\":{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"a\"},{\"v\":\"b\"},{\"v\":\"c\"}]},"
    "\"lempty\":{\"type\":[\"list\",\"string\"],\"v\":[]},"
    "\"ll\":{\"type\":[\"list\",[\"list\",\"string\"]],\"v\":[{\"v\":[{\"v\":\"a\"}]},"
    "{\"v\":[{\"v\":\"b\"},{\"v\":\"c\"}]}]},"
    "\"ln\":{\"type\":[\"list\",\"number\"],\"v\":[{\"v\":\"1\"},{\"v\":\"2\"},"
    "{\"v\":\"3\"}]},"
    "\"lnul\":{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"a\"},{\"null\":true}]},"
    "\"lo\":{\"type\":[\"list\",[\"object\",{\"id\":\"number\",\"name\":\"string\","
    "\"tags\":[\"list\",\"string\"]}]],\"v\":[{\"v\":{\"id\":{\"v\":\"1\"},"
    "\"name\":{\"v\":\"a\"},\"tags\":{\"v\":[{\"v\":\"x\"},{\"v\":\"y\"}]}}},"
    "{\"v\":{\"id\":{\"v\":\"2\"},\"name\":{\"v\":\"b\"},\"tags\":{\"v\":[{\"v\":\"z\"}]}}}]},"
    "\"lol\":{\"type\":[\"list\",[\"object\",{\"items\":[\"list\",[\"object\","
    "{\"v\":\"number\"}]],\"n\":\"string\"}]],"
    "\"v\":[{\"v\":{\"items\":{\"v\":[{\"v\":{\"v\":{\"v\":\"1\"}}},"
    "{\"v\":{\"v\":{\"v\":\"2\"}}}]},\"n\":{\"v\":\"p\"}}},{\"v\":{\"items\":{\"v\":[]},"
    "\"n\":{\"v\":\"q\"}}},{\"v\":{\"items\":{\"null\":true},\"n\":{\"v\":\"r\"}}}]},"
    "\"lon\":{\"type\":[\"list\",[\"object\",{\"name\":\"string\"}]],"
    "\"v\":[{\"v\":{\"name\":{\"v\":\"a\"}}},{\"null\":true},"
    "{\"v\":{\"name\":{\"null\":true}}}]},"
    "\"lou\":{\"type\":[\"list\",[\"object\",{\"name\":\"string\"}]],"
    "\"v\":[{\"v\":{\"name\":{\"v\":\"a\"}}},{\"unknown\":true},"
    "{\"v\":{\"name\":{\"unknown\":true}}}]},"
    "\"lu\":{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"a\"},{\"unknown\":true}]},"
    "\"m\":{\"type\":[\"map\",\"string\"],\"v\":{\"b\":{\"v\":\"y\"},\"a\":{\"v\":\"x\"},"
    "\"B\":{\"v\":\"z\"},\"10\":{\"v\":\"ten\"},\"9\":{\"v\":\"nine\"}}},"
    "\"mempty\":{\"type\":[\"map\",\"string\"],\"v\":{}},"
    "\"ml\":{\"type\":[\"map\",[\"list\",\"number\"]],\"v\":{\"a\":{\"v\":[{\"v\":\"1\"},"
    "{\"v\":\"2\"}]},\"b\":{\"v\":[]}}},"
    "\"mn\":{\"type\":[\"map\",\"number\"],\"v\":{\"a\":{\"v\":\"1\"},\"b\":{\"v\":\"2\"}}},"
    "\"mo\":{\"type\":[\"map\",[\"object\",{\"name\":\"string\"}]],"
    "\"v\":{\"k1\":{\"v\":{\"name\":{\"v\":\"a\"}}},\"k2\":{\"v\":{\"name\":{\"v\":\"b\"}}}}},"
    "\"mobj\":{\"type\":[\"map\",[\"object\",{\"id\":\"number\",\"tags\":[\"list\","
    "\"string\"]}]],\"v\":{\"a\":{\"v\":{\"id\":{\"v\":\"1\"},\"tags\":{\"v\":[{\"v\":\"x\"},"
    "{\"v\":\"y\",\"marks\":[\"sensitive\"]}]}}},\"b\":{\"v\":{\"id\":{\"unknown\":true},"
    "\"tags\":{\"unknown\":true}}},\"c\":{\"v\":{\"id\":{\"v\":\"3\",\"marks\":[\"other\"]},"
    "\"tags\":{\"null\":true}},\"marks\":[\"sensitive\"]}}},"
    "\"mu\":{\"type\":[\"map\",\"string\"],\"v\":{\"a\":{\"v\":\"x\"},"
    "\"b\":{\"unknown\":true}}},"
    "\"n\":{\"type\":\"number\",\"v\":\"5\"},"
    "\"neg\":{\"type\":\"number\",\"v\":\"-2.5\"},"
    "\"nest\":{\"type\":[\"list\",[\"map\",[\"list\",\"string\"]]],"
    "\"v\":[{\"v\":{\"a\":{\"v\":[{\"v\":\"1\"},{\"v\":\"2\"}]},\"b\":{\"v\":[]}}},"
    "{\"v\":{\"a\":{\"v\":[{\"unknown\":true}],\"marks\":[\"sensitive\"]}}},{\"null\":true}]},"
    "\"nfd\":{\"type\":\"string\",\"v\":\"e\\u0301\"},"
    "\"nul\":{\"type\":\"dynamic\",\"null\":true},"
    "\"nulb\":{\"type\":\"bool\",\"null\":true},"
    "\"nulll\":{\"type\":[\"list\",\"string\"],\"null\":true},"
    "\"nullm\":{\"type\":[\"map\",\"string\"],\"null\":true},"
    "\"nullo\":{\"type\":[\"object\",{\"a\":\"string\"}],\"null\":true},"
    "\"nullset\":{\"type\":[\"set\",\"string\"],\"null\":true},"
    "\"nullt\":{\"type\":[\"tuple\",[\"string\"]],\"null\":true},"
    "\"nuln\":{\"type\":\"number\",\"null\":true},"
    "\"nuls\":{\"type\":\"string\",\"null\":true},"
    "\"o\":{\"type\":[\"object\",{\"a\":\"string\",\"b\":\"number\",\"c\":[\"list\","
    "\"number\"]}],\"v\":{\"a\":{\"v\":\"x\"},\"b\":{\"v\":\"1\"},\"c\":{\"v\":[{\"v\":\"1\"},"
    "{\"v\":\"2\"}]}}},"
    "\"other\":{\"type\":\"string\",\"v\":\"o\",\"marks\":[\"other\"]},"
    "\"s\":{\"type\":\"string\",\"v\":\"hello\"},"
    "\"sb\":{\"type\":[\"set\",\"bool\"],\"v\":[{\"v\":true},{\"v\":false}]},"
    "\"sempty\":{\"type\":[\"set\",\"string\"],\"v\":[]},"
    "\"sens\":{\"type\":\"string\",\"v\":\"secret\",\"marks\":[\"sensitive\"]},"
    "\"sensb\":{\"type\":\"bool\",\"v\":true,\"marks\":[\"sensitive\"]},"
    "\"sensk\":{\"type\":\"string\",\"v\":\"a\",\"marks\":[\"sensitive\"]},"
    "\"sensl\":{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"a\"},{\"v\":\"b\","
    "\"marks\":[\"sensitive\"]}]},"
    "\"senslo\":{\"type\":[\"list\",[\"object\",{\"id\":\"number\",\"name\":\"string\","
    "\"tags\":[\"list\",\"string\"]}]],\"v\":[{\"v\":{\"id\":{\"v\":\"1\","
    "\"marks\":[\"sensitive\"]},\"name\":{\"v\":\"a\"},\"tags\":{\"v\":[{\"v\":\"x\"}],"
    "\"marks\":[\"other\"]}}}]},"
    "\"senslw\":{\"type\":[\"list\",\"string\"],\"v\":[{\"v\":\"a\"},{\"v\":\"b\"}],"
    "\"marks\":[\"sensitive\"]},"
    "\"sensm\":{\"type\":[\"map\",\"string\"],\"v\":{\"a\":{\"v\":\"x\"}},"
    "\"marks\":[\"sensitive\"]},"
    "\"sensn\":{\"type\":\"number\",\"v\":\"7\",\"marks\":[\"sensitive\"]},"
    "\"sensnull\":{\"type\":\"string\",\"null\":true,\"marks\":[\"sensitive\"]},"
    "\"senso\":{\"type\":[\"object\",{\"a\":\"string\"}],\"v\":{\"a\":{\"v\":\"x\"}},"
    "\"marks\":[\"sensitive\"]},"
    "\"senss\":{\"type\":[\"set\",\"string\"],\"v\":[{\"v\":\"a\"},{\"v\":\"b\"}],"
    "\"marks\":[\"sensitive\"]},"
    "\"sensu\":{\"type\":\"string\",\"unknown\":true,\"marks\":[\"sensitive\"]},"
    "\"sensul\":{\"type\":[\"list\",\"string\"],\"unknown\":true,\"marks\":[\"sensitive\"]},"
    "\"sl\":{\"type\":[\"set\",[\"list\",\"number\"]],\"v\":[{\"v\":[{\"v\":\"2\"},"
    "{\"v\":\"1\"}]},{\"v\":[{\"v\":\"1\"}]},{\"v\":[]}]},"
    "\"sn\":{\"type\":[\"set\",\"number\"],\"v\":[{\"v\":\"10\"},{\"v\":\"2\"},{\"v\":\"1\"},"
    "{\"v\":\"-1.5\"},{\"v\":\"100\"}]},"
    "\"so\":{\"type\":[\"set\",[\"object\",{\"a\":\"string\"}]],"
    "\"v\":[{\"v\":{\"a\":{\"v\":\"z\"}}},{\"v\":{\"a\":{\"v\":\"y\"}}}]},"
    "\"sobj\":{\"type\":[\"set\",[\"object\",{\"k\":\"string\",\"l\":[\"list\",\"number\"]}]],"
    "\"v\":[{\"v\":{\"k\":{\"v\":\"p\"},\"l\":{\"v\":[{\"v\":\"1\"},{\"v\":\"2\"}]}}},"
    "{\"v\":{\"k\":{\"v\":\"q\"},\"l\":{\"v\":[]}}},{\"v\":{\"k\":{\"unknown\":true},"
    "\"l\":{\"v\":[{\"v\":\"3\"}]}}}]},"
    "\"st\":{\"type\":[\"set\",\"string\"],\"v\":[{\"v\":\"b\"},{\"v\":\"a\"},{\"v\":\"c\"},"
    "{\"v\":\"B\"},{\"v\":\"aa\"}]},"
    "\"stu\":{\"type\":[\"set\",\"string\"],\"v\":[{\"v\":\"a\"},{\"unknown\":true}]},"
    "\"t\":{\"type\":[\"tuple\",[\"string\",\"number\",\"bool\"]],\"v\":[{\"v\":\"a\"},"
    "{\"v\":\"1\"},{\"v\":true}]},"
    "\"tempty\":{\"type\":[\"tuple\",[]],\"v\":[]},"
    "\"tmix\":{\"type\":[\"tuple\",[[\"list\",\"string\"],\"dynamic\",[\"object\","
    "{\"a\":[\"set\",\"number\"]}],\"string\"]],\"v\":[{\"v\":[{\"v\":\"x\"}]},"
    "{\"null\":true},{\"v\":{\"a\":{\"v\":[{\"v\":\"1\"},{\"v\":\"2\"}]}}},{\"v\":\"s\","
    "\"marks\":[\"other\"]}]},"
    "\"to\":{\"type\":[\"tuple\",[[\"object\",{\"name\":\"string\"}],[\"object\","
    "{\"name\":\"number\"}]]],\"v\":[{\"v\":{\"name\":{\"v\":\"a\"}}},"
    "{\"v\":{\"name\":{\"v\":\"2\"}}}]},"
    "\"tu\":{\"type\":[\"tuple\",[\"string\",\"dynamic\"]],\"v\":[{\"v\":\"a\"},"
    "{\"unknown\":true}]},"
    "\"ub\":{\"type\":\"bool\",\"unknown\":true},"
    "\"ul\":{\"type\":[\"list\",\"string\"],\"unknown\":true},"
    "\"ulo\":{\"type\":[\"list\",[\"object\",{\"name\":\"string\"}]],\"unknown\":true},"
    "\"um\":{\"type\":[\"map\",\"string\"],\"unknown\":true},"
    "\"un\":{\"type\":\"number\",\"unknown\":true},"
    "\"uni\":{\"type\":\"string\",\"v\":\"\\u65e5\\u672c\\u00e9\"},"
    "\"uo\":{\"type\":[\"object\",{\"a\":\"string\",\"b\":\"number\"}],\"unknown\":true},"
    "\"us\":{\"type\":\"string\",\"unknown\":true},"
    "\"ust\":{\"type\":[\"set\",\"string\"],\"unknown\":true},"
    "\"ut\":{\"type\":[\"tuple\",[\"string\",\"number\"]],\"unknown\":true}"
    "}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static tfx_context *ctx;

    if (ctx == NULL)
        ctx = fuzz_eval_context(variables, sizeof(variables) - 1);
    fuzz_eval_input(ctx, data, size);
    return 0;
}
