/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_fn_provider.c — profile PN's namespaced functions: the core::
 * aliases, the errors of unknown namespaced names, and the functions of
 * Terraform's provider "terraform" (funcs_provider.c, eval.c;
 * spec/functions.md [call.pn.core] [call.pn.provider] [call.pn.unknown],
 * spec/functions-provider.md [fn.provider] [fn.provider.call]
 * [fn.provider.tokens] [fn.provider.string] [fn.provider.format]
 * [fn.encode-expr.text] [fn.encode-tfvars.text] [fn.encode-tfvars.type]
 * [fn.encode-tfvars.name] [fn.decode-tfvars]).
 *
 * Every expected value and error summary was given by the PN reference
 * adapter (conformance/adapters/go-hcl built with tag pn,
 * tf_provider_pn.go), not by tfexpr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tfexpr.h"

/* The typed JSON of text's value evaluated as profile PN (or P14), or
 * "ERROR " and the summary of its first error, in a static buffer. */
static const char *outcome_of(const char *text, tfx_profile profile)
{
    static char out[4096];
    tfx_source *src = tfx_source_parse_profile(NULL, text, strlen(text), TFX_MODE_EXPRESSION,
                                               NULL, profile);
    tfx_context *ctx = tfx_context_new();
    tfx_result *r = NULL;

    snprintf(out, sizeof(out), "(none)");
    if (src != NULL && ctx != NULL && tfx_source_has_errors(src)) {
        snprintf(out, sizeof(out), "ERROR %s", tfx_source_diagnostic(src, 0)->summary);
    } else if (src != NULL && ctx != NULL) {
        CHECK(tfx_context_set_profile(ctx, profile) == 0);
        r = tfx_evaluate(src, ctx, NULL);
    }
    if (r != NULL && tfx_result_has_errors(r)) {
        snprintf(out, sizeof(out), "ERROR %s", tfx_result_diagnostic(r, 0)->summary);
    } else if (r != NULL) {
        char *json = tfx_result_json(r);

        snprintf(out, sizeof(out), "%s", json != NULL ? json : "(no JSON)");
        tfx_free(json);
    }
    tfx_result_free(r);
    tfx_context_free(ctx);
    tfx_source_free(src);
    return out;
}

static void test_against_reference(void)
{
    static const struct {
        const char *src;
        const char *want;
    } cases[] = {
        {"core::upper(\"a\")",
         "{\"type\":\"string\",\"v\":\"A\"}"},
        {"core::nosuch(1)",
         "ERROR Unknown provider function"},
        {"provider::terraform::nosuch(1)",
         "ERROR Unknown provider function"},
        {"provider::aws::f(1)",
         "ERROR Unknown provider function"},
        {"provider::f(1)",
         "ERROR Unknown provider function"},
        {"encode_tfvars({})",
         "ERROR Call to unknown function"},
        {"[for x in [1]: core::nosuch(x)]",
         "ERROR Unknown provider function"},
        {"try(core::nosuch(1))",
         "ERROR Error in function call"},
        {"provider::terraform::encode_expr({a = 1, bb = \"x\", c = [1, 2, {d = null}]})",
         "{\"type\":\"string\",\"v\":\"{\\n  a  = 1\\n  bb = \\\"x\\\"\\n  c = [1, 2, {\\n    d = null\\n  }]\\n}\"}"},
        {"provider::terraform::encode_expr(\"a\\u0007$${b}%%{c}\\\"\\\\\\u00ad\")",
         "{\"type\":\"string\",\"v\":\"\\\"a\\\\u0007$${b}%%{c}\\\\\\\"\\\\\\\\\\\\u00ad\\\"\"}"},
        {"provider::terraform::encode_expr({\"a b\" = 1, \"\xc3\xa9""\" = 2, for = [true, false]})",
         "{\"type\":\"string\",\"v\":\"{\\n  \\\"a b\\\" = 1\\n  for   = [true, false]\\n  \xc3\xa9""     = 2\\n}\"}"},
        {"provider::terraform::encode_tfvars({b = 1, a = \"x\"})",
         "{\"type\":\"string\",\"v\":\"a = \\\"x\\\"\\nb = 1\\n\"}"},
        {"provider::terraform::encode_tfvars({\"a b\" = 1})",
         "ERROR Error in function call"},
        /* [fn.provider.identifier] the whole key: no white space or
         * comment after the identifier */
        {"provider::terraform::encode_tfvars({\"tab\\t\" = 1})",
         "ERROR Error in function call"},
        {"provider::terraform::encode_expr({\"a \" = 1, \"b#\" = 2})",
         "{\"type\":\"string\",\"v\":\"{\\n  \\\"a \\\" = 1\\n  \\\"b#\\\" = 2\\n}\"}"},
        {"provider::terraform::encode_tfvars([1])",
         "ERROR Error in function call"},
        {"provider::terraform::decode_tfvars(\"a = 1\\nb = [\\\"x\\\", null]\\n\")",
         "{\"type\":[\"object\",{\"a\":\"number\",\"b\":[\"tuple\",[\"string\",\"dynamic\"]]}],\"v\":{\"a\":{\"v\":\"1\"},\"b\":{\"v\":[{\"v\":\"x\"},{\"null\":true}]}}}"},
        {"provider::terraform::decode_tfvars(\"a = b\")",
         "ERROR Error in function call"},
        {"provider::terraform::decode_tfvars(\"a = 1\\na = 2\")",
         "ERROR Error in function call"},
        {"core::can(core::nosuch())",
         "{\"type\":\"bool\",\"v\":false}"},
        {"core::max(1, 5, 3)",
         "{\"type\":\"number\",\"v\":\"5\"}"},
        {"provider::terraform::encode_expr(toset([\"b\", \"a\"]))",
         "{\"type\":\"string\",\"v\":\"[\\\"a\\\", \\\"b\\\"]\"}"},
        {"provider::terraform::encode_expr(tomap({b = \"1\", a = \"2\"}))",
         "{\"type\":\"string\",\"v\":\"{\\n  a = \\\"2\\\"\\n  b = \\\"1\\\"\\n}\"}"},
        {"provider::terraform::encode_expr(sensitive([1]))",
         "{\"type\":\"string\",\"v\":\"[1]\",\"marks\":[\"sensitive\"]}"},
        {"provider::terraform::encode_expr(null)",
         "ERROR Invalid function argument"},
        {"provider::terraform::encode_expr([null, 1.5, -0.25, 1e21])",
         "{\"type\":\"string\",\"v\":\"[null, 1.5, -0.25, 1000000000000000000000]\"}"},
        {"provider::terraform::encode_tfvars({})",
         "{\"type\":\"string\",\"v\":\"\"}"},
        {"provider::terraform::encode_expr({})",
         "{\"type\":\"string\",\"v\":\"{}\"}"},
        {"provider::terraform::decode_tfvars(\"# c\\nb = <<EOT\\nx\\nEOT\\na = {\\n  k = [1,\\n  2]\\n}\\n\")",
         "{\"type\":[\"object\",{\"a\":[\"object\",{\"k\":[\"tuple\",[\"number\",\"number\"]]}],\"b\":\"string\"}],\"v\":{\"a\":{\"v\":{\"k\":{\"v\":[{\"v\":\"1\"},{\"v\":\"2\"}]}}},\"b\":{\"v\":\"x\\n\"}}}"},
        {"provider::terraform::decode_tfvars(provider::terraform::encode_tfvars({a = [1, \"x\"], b = {c = null}}))",
         "{\"type\":[\"object\",{\"a\":[\"tuple\",[\"number\",\"string\"]],\"b\":[\"object\",{\"c\":\"dynamic\"}]}],\"v\":{\"a\":{\"v\":[{\"v\":\"1\"},{\"v\":\"x\"}]},\"b\":{\"v\":{\"c\":{\"null\":true}}}}}"},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *got = outcome_of(cases[i].src, TFX_PROFILE_PN);

        CHECK_STR(got, cases[i].want);
    }
}

/* P14 has none of these names (and parses no "::"). */
static void test_p14(void)
{
    CHECK_STR(outcome_of("core::upper(\"a\")", TFX_PROFILE_P14),
              "ERROR Extra characters after expression");
    CHECK_STR(outcome_of("encode_tfvars({})", TFX_PROFILE_P14), "ERROR Call to unknown function");
}

int main(void)
{
    test_against_reference();
    test_p14();
    return check_report("test_fn_provider");
}
