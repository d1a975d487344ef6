/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_profile.c — the default profile and the way to P14 (spec/profiles.md
 * [profile.default] [profile.option] [profile.adapter]): what
 * tfx_source_parse, a new context, tfx_evaluate without a context and the
 * adapter do when no profile is named, and that naming P14 still gives
 * P14.  The probes are behaviours the two profiles answer differently:
 *   - `core::upper("a")`: a namespaced call, PN's syntax (HCL 2.20) and
 *     Terraform's core:: alias; P14 does not parse "::";
 *   - `null || true`: PN's logical operators take null as false (HCL 2.22),
 *     P14's refuse a null operand.
 */
#include "tfexpr.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

/* "ERROR <summary>" of the first error of evaluating src with ctx (NULL
 * allowed), or the value's typed JSON; in a static buffer. */
static const char *outcome(const tfx_source *src, const tfx_context *ctx)
{
    static char out[512];
    tfx_result *r;

    if (tfx_source_has_errors(src)) {
        snprintf(out, sizeof(out), "ERROR %s", tfx_source_diagnostic(src, 0)->summary);
        return out;
    }
    r = tfx_evaluate(src, ctx, NULL);
    if (r == NULL) {
        snprintf(out, sizeof(out), "(no result)");
    } else if (tfx_result_has_errors(r)) {
        snprintf(out, sizeof(out), "ERROR %s", tfx_result_diagnostic(r, 0)->summary);
    } else {
        char *json = tfx_result_json(r);

        snprintf(out, sizeof(out), "%s", json != NULL ? json : "(no JSON)");
        tfx_free(json);
    }
    tfx_result_free(r);
    return out;
}

static tfx_source *parse(const char *text)
{
    tfx_source *src = tfx_source_parse(NULL, text, strlen(text), TFX_MODE_EXPRESSION, NULL);

    CHECK(src != NULL);
    return src;
}

static tfx_source *parse_as(const char *text, tfx_profile profile)
{
    tfx_source *src = tfx_source_parse_profile(NULL, text, strlen(text), TFX_MODE_EXPRESSION,
                                               NULL, profile);

    CHECK(src != NULL);
    return src;
}

#define VALUE_A "{\"type\":\"string\",\"v\":\"A\"}"
#define VALUE_TRUE "{\"type\":\"bool\",\"v\":true}"

/* [profile.default] tfx_source_parse and a new context follow PN */
static void test_library_default(void)
{
    tfx_context *ctx = tfx_context_new();
    tfx_source *call = parse("core::upper(\"a\")");
    tfx_source *logic = parse("null || true");

    CHECK(TFX_PROFILE_DEFAULT == TFX_PROFILE_PN);
    CHECK(ctx != NULL);
    CHECK_STR(outcome(call, ctx), VALUE_A);
    CHECK_STR(outcome(logic, ctx), VALUE_TRUE);
    /* without a context: PN's rules too */
    CHECK_STR(outcome(logic, NULL), VALUE_TRUE);
    tfx_source_free(call);
    tfx_source_free(logic);
    tfx_context_free(ctx);

    /* a value that is not a tfx_profile parses as the default */
    call = parse_as("core::upper(\"a\")", (tfx_profile)7);
    CHECK(!tfx_source_has_errors(call));
    tfx_source_free(call);
}

/* [profile.option] P14 when asked for, for the syntax and the rules */
static void test_library_p14(void)
{
    tfx_context *ctx = tfx_context_new();
    tfx_source *call = parse_as("core::upper(\"a\")", TFX_PROFILE_P14);
    tfx_source *logic = parse_as("null || true", TFX_PROFILE_P14);
    tfx_source *logic_pn = parse("null || true");

    CHECK(ctx != NULL);
    CHECK(tfx_context_set_profile(ctx, TFX_PROFILE_P14) == 0);
    CHECK_STR(outcome(call, ctx), "ERROR Extra characters after expression");
    CHECK_STR(outcome(logic, ctx), "ERROR Operation failed");
    /* [profile.syntax] the rules are the context's, whatever the parse's */
    CHECK_STR(outcome(logic_pn, ctx), "ERROR Operation failed");
    CHECK(tfx_context_set_profile(ctx, (tfx_profile)7) == -1);
    CHECK_STR(outcome(logic, ctx), "ERROR Operation failed");
    /* and back */
    CHECK(tfx_context_set_profile(ctx, TFX_PROFILE_PN) == 0);
    CHECK_STR(outcome(logic, ctx), VALUE_TRUE);
    tfx_source_free(call);
    tfx_source_free(logic);
    tfx_source_free(logic_pn);
    tfx_context_free(ctx);
}

/* Whether the hello answer to `hello` declares value.refinements, which
 * tfexpr's adapter declares under PN only ([refine.adapter]); -1 for an
 * answer without capabilities. */
static int hello_refines(const char *hello)
{
    tfx_adapter *a = tfx_adapter_new();
    int stop = -1;
    char *text = tfx_adapter_handle(a, hello, strlen(hello), &stop);
    json_t *ans = text != NULL ? json_loads(text, 0, NULL) : NULL;
    json_t *caps = json_object_get(ans, "capabilities");
    int found = caps != NULL ? 0 : -1;
    size_t i;
    json_t *c;

    json_array_foreach(caps, i, c)
        if (json_is_string(c) && strcmp(json_string_value(c), "value.refinements") == 0)
            found = 1;
    json_decref(ans);
    tfx_free(text);
    tfx_adapter_free(a);
    return found;
}

/* [profile.adapter] the hello's profile, the default when it names none */
static void test_adapter_default(void)
{
    CHECK(hello_refines("{\"cmd\":\"hello\",\"protocol\":1}") == 1);
    CHECK(hello_refines("{\"cmd\":\"hello\",\"protocol\":1,\"profile\":\"PN\"}") == 1);
    CHECK(hello_refines("{\"cmd\":\"hello\",\"protocol\":1,\"profile\":\"P14\"}") == 0);
    CHECK(hello_refines("{\"cmd\":\"hello\",\"protocol\":1,\"profile\":\"P99\"}") == -1);
}

int main(void)
{
    test_library_default();
    test_library_p14();
    test_adapter_default();
    return check_report("test_profile");
}
