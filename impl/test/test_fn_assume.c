/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_fn_assume.c — unit tests of OpenTofu's assume* functions
 * (funcs_assume.c; spec/functions-opentofu.md, [fn.assume.profile]
 * [fn.assume.upheld] [fn.assume.value] [fn.assume.bound]
 * [fn.assume.length] [fn.assumenotnull] [fn.assumestringprefix]
 * [fn.assumeequal] [fn.assumeequal.type] [fn.assumeequal.mismatch]
 * [fn.assumeequal.marks]) and of the tables that hold them.
 *
 * Every expected value and message was given by the PN reference adapter
 * (conformance/adapters/go-hcl, tf_opentofu_pn.go), not by tfexpr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "func.h"
#include "funcs_meta.h"
#include "tfexpr.h"
#include "testval.h"

/* The variables u (an unknown string) and ul (an unknown list of
 * strings) and OpenTofu's table under the profile *arg. */
static const char *set_up(tfx_context *ctx, void *arg)
{
    static const char variables[] =
        "{\"u\": {\"type\": \"string\", \"unknown\": true},"
        " \"ul\": {\"type\": [\"list\", \"string\"], \"unknown\": true}}";

    CHECK(tfx_context_set_flavor(ctx, TFX_FLAVOR_OPENTOFU) == 0);
    CHECK(tfx_context_set_profile(ctx, *(const tfx_profile *)arg) == 0);
    CHECK(tfx_context_set_typed_all(ctx, variables, strlen(variables), NULL) == 0);
    return NULL;
}

/* The value (as tfexpr eval shows it) or "summary: detail" of the first
 * error of text evaluated with OpenTofu's table under the profile, with
 * the variables u and ul (eval_outcome). */
static const char *run_profile(const char *text, tfx_profile profile)
{
    return eval_outcome(NULL, text, profile, NULL, set_up, &profile);
}

static const char *pn(const char *text)
{
    return run_profile(text, TFX_PROFILE_PN);
}

#define NOT_UPHELD "Invalid function argument: Invalid value for \"value\" parameter: " \
                   "assumption was not upheld."
#define NOT_WHOLE(P) "Invalid function argument: Invalid value for \"" P "\" parameter: " \
                     "must be a whole number between 0 and 9223372036854775807."

static const char *const assume_names[] = {
    "assumeequal",     "assumelistlength",   "assumelistlengthmax", "assumelistlengthmin",
    "assumemaplength", "assumemaplengthmax", "assumemaplengthmin",  "assumenotnull",
    "assumesetlength", "assumesetlengthmax", "assumesetlengthmin",  "assumestringprefix",
};

/* [fn.assume.profile] Only OpenTofu's table under PN has them; every
 * name of the other tables is in it too, in the same order. */
static void test_tables(void)
{
    size_t n = sizeof(assume_names) / sizeof(assume_names[0]), nopentofu = 0, npn = 0, i;
    tfx_func_lookup_fn lookup = NULL;
    tfx_func_name_fn name_at = NULL;
    char *error = NULL;
    char *text;

    for (i = 0; i < n; i++) {
        const char *name = assume_names[i];

        CHECK(tfx_func_builtin(name, strlen(name)) == NULL);
        CHECK(tfx_func_builtin_opentofu(name, strlen(name)) == NULL);
        CHECK(tfx_func_builtin_opentofu_pn(name, strlen(name)) != NULL);
        CHECK_STR(tfx_func_opentofu_pn_only_name(i), name);
    }
    CHECK(tfx_func_opentofu_pn_only_name(n) == NULL);
    CHECK(tfx_func_builtin_opentofu_pn("upper", 5) == tfx_func_builtin("upper", 5));
    CHECK(tfx_func_builtin_opentofu_pn("urldecode", 9) == tfx_func_builtin_opentofu("urldecode", 9));
    CHECK(tfx_func_builtin_opentofu_pn("assumenotnul", 12) == NULL);
    while (tfx_func_builtin_opentofu_name(nopentofu) != NULL)
        nopentofu++;
    while (tfx_func_builtin_opentofu_pn_name(npn) != NULL)
        npn++;
    CHECK(npn == nopentofu + n);
    for (i = 0; i < npn; i++) {
        const char *name = tfx_func_builtin_opentofu_pn_name(i);

        CHECK_STR(name, i < nopentofu ? tfx_func_builtin_opentofu_name(i) : assume_names[i - nopentofu]);
        CHECK(tfx_func_builtin_opentofu_pn(name, strlen(name)) != NULL);
    }

    tfx_func_table_for(false, true, &lookup, &name_at);
    CHECK(lookup == tfx_func_builtin && name_at == tfx_func_builtin_name);
    tfx_func_table_for(true, false, &lookup, &name_at);
    CHECK(lookup == tfx_func_builtin_opentofu && name_at == tfx_func_builtin_opentofu_name);
    tfx_func_table_for(true, true, &lookup, NULL);
    CHECK(lookup == tfx_func_builtin_opentofu_pn);

    /* tfexpr functions --flavor opentofu [--profile PN] */
    text = tfx_fn_table_profile(0, 1, 1, &error);
    CHECK(text != NULL &&
          strstr(text, "assumelistlength(value list(dynamic), min_length number, max_length "
                       "number) list(dynamic)\n") != NULL &&
          strstr(text, "assumeequal(actual_value dynamic, expected_value dynamic) dynamic\n") !=
              NULL);
    free(text);
    text = tfx_fn_table_profile(0, 1, 0, &error);
    CHECK(text != NULL && strstr(text, "assume") == NULL && strstr(text, "urldecode(") != NULL);
    free(text);
    text = tfx_fn_table_profile(0, 0, 1, &error);
    CHECK(text != NULL && strstr(text, "assume") == NULL);
    free(text);
    text = tfx_fn_table_profile(1, 1, 1, &error);
    CHECK(text != NULL && strstr(text, "\"assumestringprefix\":{\"description\":") != NULL);
    free(text);
}

/* [fn.assume.profile] Under P14 the names are unknown, also in
 * OpenTofu's table. */
static void test_p14(void)
{
    CHECK_STR(run_profile("assumenotnull(\"a\")", TFX_PROFILE_P14),
              "Call to unknown function: There is no function named \"assumenotnull\".");
    CHECK_STR(pn("assumenotnull(\"a\")"), "\"a\"");
}

/* [fn.assumenotnull] [fn.assume.upheld] */
static void test_notnull(void)
{
    CHECK_STR(pn("assumenotnull(tostring(null))"), NOT_UPHELD);
    CHECK_STR(pn("assumenotnull(null)"),
              "Invalid function argument: Invalid value for \"value\" parameter: given value must "
              "have a known type; consider using the \\\"convert\\\" function to specify a type "
              "to assume.");
    CHECK_STR(pn("assumenotnull([1])"), "[\n  1,\n]");
    CHECK_STR(pn("assumenotnull(tostring(null)) == null"), NOT_UPHELD);
}

/* [fn.assumestringprefix] */
static void test_prefix(void)
{
    CHECK_STR(pn("assumestringprefix(\"ami-1\", \"ami-\")"), "\"ami-1\"");
    CHECK_STR(pn("assumestringprefix(\"ab\", \"ab-x\")"), "\"ab\"");
    /* only the safe part "ab" of "abc" is checked */
    CHECK_STR(pn("assumestringprefix(\"abd\", \"abc\")"), "\"abd\"");
    CHECK_STR(pn("assumestringprefix(\"ubuntu\", \"ami-\")"), NOT_UPHELD);
    CHECK_STR(pn("assumestringprefix(tostring(null), \"x-\")"), "tostring(null)");
    CHECK_STR(pn("assumestringprefix(\"a-${u}\", \"b-\")"), NOT_UPHELD);
    CHECK_STR(pn("assumestringprefix(\"a-${u}\", \"a-b-\") == \"a-c\""), "false");
}

/* [fn.assume.length] [fn.assume.bound] */
static void test_length(void)
{
    CHECK_STR(pn("assumelistlength([\"a\", \"b\"], 2, 2)"), "tolist([\n  \"a\",\n  \"b\",\n])");
    CHECK_STR(pn("assumelistlengthmin([\"a\"], 2)"), NOT_UPHELD);
    CHECK_STR(pn("assumelistlengthmin([\"a\"], -3)"), "tolist([\n  \"a\",\n])");
    CHECK_STR(pn("assumelistlengthmax([\"a\"], -3)"), NOT_UPHELD);
    CHECK_STR(pn("assumemaplength({a = 1}, 2, 1)"), NOT_UPHELD);
    CHECK_STR(pn("assumesetlengthmax(tolist(null), 3)"), NOT_UPHELD);
    /* a set with unknown elements may shrink: only a bound below 1 fails */
    CHECK_STR(pn("assumesetlengthmax(toset([\"a\", u, \"c\"]), 1) != null"), "true");
    CHECK_STR(pn("assumesetlengthmax(toset([\"a\", u, \"c\"]), 0)"), NOT_UPHELD);
    CHECK_STR(pn("assumesetlength(toset([\"a\", u, \"c\"]), 2, 1)"), NOT_UPHELD);
    /* the bound's error is on the value for the one-bound forms */
    CHECK_STR(pn("assumelistlengthmin([\"a\"], 1.5)"), NOT_WHOLE("value"));
    CHECK_STR(pn("assumelistlength([\"a\"], 0, 1.5)"), NOT_WHOLE("max_length"));
    CHECK_STR(pn("assumelistlength([\"a\"], 1e30, 1.5)"), NOT_WHOLE("min_length"));
    CHECK_STR(pn("assumelistlengthmax([\"a\"], 9223372036854775807)"), NOT_WHOLE("value"));
    CHECK_STR(pn("assumelistlengthmax([\"a\"], 9223372036854775806)"), "tolist([\n  \"a\",\n])");
    /* an unknown refined: length() knows its bounds */
    CHECK_STR(pn("length(assumelistlength(ul, 1, 3)) > 0"), "true");
    CHECK_STR(pn("length(assumelistlengthmax(assumelistlengthmin(ul, 2), 1))"),
              NOT_UPHELD);
}

/* [fn.assumeequal] [fn.assumeequal.type] [fn.assumeequal.mismatch]
 * [fn.assumeequal.marks] */
static void test_equal(void)
{
    CHECK_STR(pn("assumeequal(u, \"hello\")"), "\"hello\"");
    CHECK_STR(pn("assumeequal(1, \"1\")"), "\"1\"");
    CHECK_STR(pn("assumeequal(1, 2)"),
              "Invalid function argument: Invalid value for \"actual_value\" parameter: the "
              "actual value does not match the assumed value.");
    CHECK_STR(pn("assumeequal(\"a\", 1)"),
              "Invalid function argument: Invalid value for \"actual_value\" parameter: actual "
              "value type string does not match assumed value type number.");
    CHECK_STR(pn("assumeequal(\"x-${u}\", \"y\")"),
              "Invalid function argument: Invalid value for \"actual_value\" parameter: the "
              "actual value does not match the assumed value.");
    CHECK_STR(pn("issensitive(assumeequal(sensitive(\"x\"), \"x\"))"), "false");
    CHECK_STR(pn("issensitive(assumeequal(\"x\", sensitive(\"x\")))"), "true");
}

int main(void)
{
    test_tables();
    test_p14();
    test_notnull();
    test_prefix();
    test_length();
    test_equal();
    return check_report("test_fn_assume");
}
