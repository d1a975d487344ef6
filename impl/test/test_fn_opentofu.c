/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_fn_opentofu.c — unit tests of the function tables' flavors and of
 * OpenTofu's base64gunzip, urldecode and cidrcontains (funcs_opentofu.c;
 * spec/functions-opentofu.md, [flavor.table] [flavor.default]
 * [flavor.option] [fn.base64gunzip] [fn.base64gunzip.gzip]
 * [fn.base64gunzip.inflate] [fn.base64gunzip.redact] [fn.opentofu.bytes]
 * [fn.urldecode] [fn.urldecode.error] [fn.cidrcontains]
 * [fn.cidrcontains.parse] [fn.cidrcontains.family]).
 *
 * Every expected value and message was given by the reference adapter
 * (conformance/adapters/go-hcl, tf_opentofu.go), not by tfexpr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "func.h"
#include "funcs_meta.h"
#include "tfexpr.h"
#include "testval.h"

/* Sets the flavor *arg (-1: none). */
static const char *set_flavor(tfx_context *ctx, void *arg)
{
    int flavor = *(const int *)arg;

    if (flavor >= 0)
        CHECK(tfx_context_set_flavor(ctx, (tfx_flavor)flavor) == 0);
    return NULL;
}

/* The value (as tfexpr eval shows it) or "summary: detail" of the first
 * error of text evaluated with the given flavor (-1: none set) and at most
 * max_string bytes per string (0: the default) (eval_outcome). */
static const char *run_flavor(const char *text, int flavor, size_t max_string)
{
    tfx_eval_limits limits;

    tfx_eval_limits_init(&limits);
    if (max_string > 0)
        limits.max_string_bytes = max_string;
    /* the expectations are profile P14's */
    return eval_outcome(NULL, text, TFX_PROFILE_P14, &limits, set_flavor, &flavor);
}

static const char *tofu(const char *text)
{
    return run_flavor(text, TFX_FLAVOR_OPENTOFU, 0);
}

#define CALL_FAILED(fn) "Error in function call: Call to function \"" fn "\" failed: "

/* [flavor.default] [flavor.option] */
static void test_flavors(void)
{
    tfx_context *ctx = tfx_context_new();

    CHECK(ctx != NULL);
    CHECK(tfx_context_set_flavor(ctx, TFX_FLAVOR_OPENTOFU) == 0);
    CHECK(tfx_context_set_flavor(ctx, TFX_FLAVOR_TERRAFORM) == 0);
    CHECK(tfx_context_set_flavor(ctx, (tfx_flavor)7) == -1);
    tfx_context_free(ctx);

    /* Terraform's table, by default and when asked for */
    CHECK(strncmp(run_flavor("urldecode(\"a\")", -1, 0), "Call to unknown function: ", 26) == 0);
    CHECK(strncmp(run_flavor("base64gunzip(\"\")", TFX_FLAVOR_TERRAFORM, 0),
                  "Call to unknown function: ", 26) == 0);
    CHECK(strncmp(run_flavor("cidrcontains(\"a\", \"b\")", TFX_FLAVOR_TERRAFORM, 0),
                  "Call to unknown function: ", 26) == 0);
    /* Terraform's functions in OpenTofu's table */
    CHECK_STR(tofu("urlencode(\"a b\")"), "\"a+b\"");
    CHECK_STR(tofu("cidrhost(\"10.0.0.0/8\", 1)"), "\"10.0.0.1\"");
    /* a template renders with the caller's table */
    CHECK_STR(tofu("templatestring(\"$${urldecode(\\\"%7E\\\")}\", {})"),
              "Invalid function argument: Invalid value for \"template\" parameter: invalid "
              "template expression: templatestring is only for rendering templates retrieved "
              "dynamically from elsewhere; to render an inline template, consider using a "
              "plain template string expression.");
    CHECK_STR(tofu("\"${urldecode(\"%7E\")}\""), "\"~\"");
}

/* [flavor.table] The tables as func.h lists them. */
static void test_tables(void)
{
    static const char *const own[] = {"base64gunzip", "cidrcontains", "urldecode"};
    size_t nterraform = 0, nopentofu = 0, i;
    char *error = NULL;
    char *json;

    for (i = 0; i < 3; i++) {
        CHECK(tfx_func_builtin(own[i], strlen(own[i])) == NULL);
        CHECK(tfx_func_builtin_opentofu(own[i], strlen(own[i])) != NULL);
        CHECK_STR(tfx_func_opentofu_only_name(i), own[i]);
    }
    CHECK(tfx_func_opentofu_only_name(3) == NULL);
    CHECK(tfx_func_builtin_opentofu("upper", 5) == tfx_func_builtin("upper", 5));
    CHECK(tfx_func_builtin_opentofu("nosuch", 6) == NULL);
    while (tfx_func_builtin_name(nterraform) != NULL)
        nterraform++;
    while (tfx_func_builtin_opentofu_name(nopentofu) != NULL)
        nopentofu++;
    CHECK(nopentofu == nterraform + 3);
    for (i = 0; i < nterraform; i++)
        CHECK_STR(tfx_func_builtin_opentofu_name(i), tfx_func_builtin_name(i));

    /* tfexpr functions --json --flavor ... */
    json = tfx_fn_table_flavor(1, 1, &error);
    CHECK(json != NULL && strstr(json, "\"base64gunzip\":") != NULL &&
          strstr(json, "\"containing_prefix\"") != NULL && strstr(json, "\"urldecode\":") != NULL);
    free(json);
    json = tfx_fn_table_flavor(1, 0, &error);
    CHECK(json != NULL && strstr(json, "\"base64gunzip\"") == NULL &&
          strstr(json, "\"base64gzip\":") != NULL);
    free(json);
    json = tfx_fn_table_flavor(0, 1, &error);
    CHECK(json != NULL &&
          strstr(json, "cidrcontains(containing_prefix string, contained_ip_or_prefix string) "
                       "bool\n") != NULL);
    free(json);
}

/* [fn.base64gunzip] [fn.base64gunzip.gzip] [fn.base64gunzip.inflate] */
static void test_base64gunzip(void)
{
    CHECK_STR(tofu("base64gunzip(\"H4sIAAAAAAACA8tIzcnJVyjPL8pJAQCFEUoNCwAAAA==\")"),
              "\"hello world\"");
    /* two members */
    CHECK_STR(tofu("base64gunzip(\"H4sIAAAAAAACA8tIzcnJVyjPL8pJAQCFEUoNCwAAAB+LCAAAAAAAAgNTBADT/"
                   "2ueAQAAAA==\")"),
              "\"hello world!\"");
    CHECK_STR(tofu("base64gunzip(base64gzip(\"round trip\"))"), "\"round trip\"");
    /* [fn.opentofu.bytes] bytes that are not UTF-8 are kept */
    CHECK_STR(tofu("base64encode(base64gunzip(\"H4sIAAAAAAACA/vvCACLnibTAgAAAA==\"))"),
              "\"/0E=\"");
    CHECK_STR(tofu("base64gunzip(\"\")"), CALL_FAILED("base64gunzip")
              "failed to gunzip bytestream: EOF.");
    CHECK_STR(tofu("base64gunzip(\"H4sI\")"), CALL_FAILED("base64gunzip")
              "failed to gunzip bytestream: unexpected EOF.");
    /* block type 3; a distance before the output; an empty code-length code */
    CHECK_STR(tofu("base64gunzip(\"H4sIAAAAAAAA/wcAAAAAAAAAAA==\")"), CALL_FAILED("base64gunzip")
              "failed to read gunzip raw data: flate: corrupt input before offset 1.");
    CHECK_STR(tofu("base64gunzip(\"H4sIAAAAAAAA/wMCAAAAAAAAAAAA\")"), CALL_FAILED("base64gunzip")
              "failed to read gunzip raw data: flate: corrupt input before offset 2.");
    CHECK_STR(tofu("base64gunzip(\"H4sIAAAAAAAA/wUAAAAAAAAAAAAAAAAA\")"),
              CALL_FAILED("base64gunzip")
              "failed to read gunzip raw data: flate: corrupt input before offset 4.");
    CHECK_STR(tofu("base64gunzip(\"H4sIAAAAAAACA8tIzcnJVyjPL8pJAQAAAAAACwAAAA==\")"),
              CALL_FAILED("base64gunzip") "failed to read gunzip raw data: gzip: invalid checksum.");
    /* three bytes after the member: a second header cut short */
    CHECK_STR(tofu("base64gunzip(\"H4sIAAAAAAACA8tIzcnJVyjPL8pJAQCFEUoNCwAAAHh5eg==\")"),
              CALL_FAILED("base64gunzip") "failed to read gunzip raw data: unexpected EOF.");
    /* [fn.base64gunzip.redact] */
    CHECK_STR(tofu("base64gunzip(\"not base64!\")"), CALL_FAILED("base64gunzip")
              "failed to decode base64 data \"not base64!\".");
    CHECK_STR(tofu("base64gunzip(sensitive(\"not base64!\"))"), CALL_FAILED("base64gunzip")
              "failed to decode base64 data (sensitive value).");
    /* a result past the string limit stops the evaluation, and frees all */
    CHECK(strstr(run_flavor("base64gunzip(base64gzip(join(\"\", [for i in range(1000) : "
                            "\"abcdefgh\"])))",
                            TFX_FLAVOR_OPENTOFU, 4000),
                 "limit") != NULL);
}

/* [fn.urldecode] [fn.urldecode.error] */
static void test_urldecode(void)
{
    CHECK_STR(tofu("urldecode(\"a+b%20c%2Bd\")"), "\"a b c+d\"");
    CHECK_STR(tofu("urldecode(\"caf%C3%A9\")"), "\"caf\xc3\xa9\"");
    CHECK_STR(tofu("base64encode(urldecode(\"%ff%fe\"))"), "\"//4=\"");
    CHECK_STR(tofu("urldecode(\"100%\")"), CALL_FAILED("urldecode")
              "failed to decode URL '': invalid URL escape \"%\".");
    CHECK_STR(tofu("urldecode(\"%zz%41\")"), CALL_FAILED("urldecode")
              "failed to decode URL '': invalid URL escape \"%zz\".");
    CHECK_STR(tofu("urldecode(\"%\xc3\xa9\")"), CALL_FAILED("urldecode")
              "failed to decode URL '': invalid URL escape \"%\xc3\xa9\".");
}

/* [fn.cidrcontains] [fn.cidrcontains.parse] [fn.cidrcontains.family] */
static void test_cidrcontains(void)
{
    CHECK_STR(tofu("cidrcontains(\"10.0.0.0/8\", \"10.1.2.3\")"), "true");
    CHECK_STR(tofu("cidrcontains(\"10.0.0.0/8\", \"11.0.0.1\")"), "false");
    CHECK_STR(tofu("cidrcontains(\"10.0.0.0/8\", \"10.1.0.0/16\")"), "true");
    CHECK_STR(tofu("cidrcontains(\"10.0.0.0/16\", \"10.0.0.0/8\")"), "false");
    CHECK_STR(tofu("cidrcontains(\"::ffff:10.0.0.0/104\", \"10.0.0.1\")"), "true");
    CHECK_STR(tofu("cidrcontains(\"2001:db8::/32\", \"2001:db8:1::/48\")"), "true");
    CHECK_STR(tofu("cidrcontains(\"10.0.0.0\", \"10.0.0.1\")"), CALL_FAILED("cidrcontains")
              "invalid CIDR address: 10.0.0.0.");
    CHECK_STR(tofu("cidrcontains(\"10.0.0.0/8\", \"10.0.0.256\")"), CALL_FAILED("cidrcontains")
              "invalid IP address or prefix: 10.0.0.256.");
    CHECK_STR(tofu("cidrcontains(\"10.0.0.0/8\", \"2001:db8::1\")"), CALL_FAILED("cidrcontains")
              "address family mismatch: 10.0.0.0/8 vs. 2001:db8::1.");
}

int main(void)
{
    test_flavors();
    test_tables();
    test_base64gunzip();
    test_urldecode();
    test_cidrcontains();
    return check_report("test_fn_opentofu");
}
