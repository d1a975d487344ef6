/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_closure.c — unit tests of the functions of
 * spec/functions-closures.md (funcs_closure.c and the decoded arguments
 * of eval.c): what the conformance corpus cannot show — the file name in
 * try's listing, the detail texts, one evaluation per try however deep
 * the nesting, the limits inside try, the type() switch of the public
 * interface and the console's rendering of types.
 *
 * Expectations marked "ref" were checked against the reference adapter
 * (bin/go-hcl-adapter) with the same expression.
 */
#include "tfexpr.h"

#include <stdlib.h>

#include "check.h"
#include "testval.h"

/* The variables of every evaluation: u an unknown string, t templates. */
static const char VARS[] =
    "{\"u\": {\"type\": \"string\", \"unknown\": true},"
    " \"t\": {\"type\": [\"object\", {\"ab\": \"string\", \"rec\": \"string\", \"nope\": \"string\","
    " \"null\": \"string\"}], \"v\": {\"ab\": {\"v\": \"${a}-${b}\"},"
    " \"rec\": {\"v\": \"${templatestring(t, {})}\"}, \"nope\": {\"v\": \"${nope}\"},"
    " \"null\": {\"v\": \"${x}\"}}}}";

/* The variables VARS, and the type function when *arg is not 0. */
static const char *set_up(tfx_context *ctx, void *arg)
{
    tfx_context_allow_type_function(ctx, *(const int *)arg);
    if (tfx_context_set_typed_all(ctx, VARS, strlen(VARS), NULL) != 0)
        return "cannot set the variables";
    return NULL;
}

/* The outcome of evaluating `text` (an expression) parsed under `file`
 * with at most max_steps steps (0: the default): the rendered value (as
 * tfexpr eval prints it) or "SUMMARY: DETAIL" of the first error
 * (eval_outcome). */
static const char *run_with(const char *text, const char *file, int allow_type, size_t max_steps)
{
    tfx_eval_limits limits;

    tfx_eval_limits_init(&limits);
    if (max_steps > 0)
        limits.max_steps = max_steps;
    /* the expectations are profile P14's (upstream 2.14.1 / 1.12.1) */
    return eval_outcome(file, text, TFX_PROFILE_P14, &limits, set_up, &allow_type);
}

static const char *eval(const char *text)
{
    return run_with(text, NULL, 1, 0);
}

/* [fn.try.message] every diagnostic with HCL's range text in the source's
 * file, the one-line and the multi-line forms (ref: same text but the
 * file name, case.hcl there) */
static void test_try_message(void)
{
    CHECK_STR(run_with("try(nope, [1][2])", "main.tf", 0, 0),
              "Error in function call: Call to function \"try\" failed: no expression "
              "succeeded:\n- Unknown variable (at main.tf:1,5-9)\n  There is no variable named "
              "\"nope\".\n- Invalid index (at main.tf:1,14-17)\n  The given key does not "
              "identify an element in this collection value.\n\nAt least one expression must "
              "produce a successful result.");
    CHECK(strstr(run_with("try(\n  nope,\n  \"${\n  x}\"\n)", NULL, 0, 0),
                 "- Unknown variable (at case.hcl:2,3-7)") != NULL);
    CHECK(strstr(run_with("try(<<EOT\n${nope}\nEOT\n)", "f.hcl", 0, 0),
                 "- Unknown variable (at f.hcl:2,3-7)") != NULL);
    CHECK_STR(run_with("try()", NULL, 0, 0),
              "Error in function call: Call to function \"try\" failed: at least one argument "
              "is required.");
    /* a nested try's message inside the outer one's */
    CHECK(strstr(run_with("try(try(nope), 0 + {})", NULL, 0, 0),
                 "- Error in function call (at case.hcl:1,5-9)\n  Call to function \"try\" "
                 "failed: no expression succeeded:\n- Unknown variable (at case.hcl:1,9-13)")
          != NULL);
}

/* [fn.try.first] [fn.try.unknowns] [fn.can] */
static void test_try_can(void)
{
    CHECK_STR(eval("try(nope, [1][5], \"third\")"), "\"third\"");
    CHECK_STR(eval("try(1, nope)"), "1");
    CHECK_STR(eval("try(u, 1)"), "(known after apply)");
    CHECK_STR(eval("try(1, u)"), "1");
    CHECK_STR(eval("can(u)"), "(known after apply)");
    CHECK_STR(eval("can(nope.x)"), "false");
    CHECK_STR(eval("[for x in [1, {}]: can(x + 1)]"), "[\n  true,\n  false,\n]");
}

/* [fn.try.type] each expression runs once: try nested 40 deep (2^40
 * evaluations if each level ran its arguments twice) ends at once */
static void test_try_runs_once(void)
{
    char text[1024];
    size_t i;
    size_t n = 0;

    for (i = 0; i < 40; i++)
        n += (size_t)snprintf(text + n, sizeof(text) - n, "try(");
    n += (size_t)snprintf(text + n, sizeof(text) - n, "nope");
    for (i = 0; i < 40; i++)
        n += (size_t)snprintf(text + n, sizeof(text) - n, ", %zu)", i);
    CHECK(n < sizeof(text));
    CHECK_STR(run_with(text, NULL, 0, 100000), "0");
}

/* [fn.try.not-caught] a limit reached inside try ends the evaluation */
static void test_try_limits(void)
{
    static const char text[] = "try([for i in range(1000): [for j in range(1000): j]][0][0], 7)";
    const char *got = run_with(text, NULL, 0, 5000);

    CHECK(strstr(got, "The evaluation takes more than the limit of 5000 steps.") != NULL);
    CHECK_STR(run_with(text, NULL, 0, 0), "0");
}

/* [fn.convert] [fn.convert.defaults] [fn.typeexpr.default] */
static void test_convert(void)
{
    CHECK_STR(eval("convert({}, object({a = optional(string, \"d\")}))"), "{\n  \"a\" = \"d\"\n}");
    /* ref: a null object becomes its defaults */
    CHECK_STR(eval("convert(null, object({a = optional(number, 1)}))"), "{\n  \"a\" = 1\n}");
    /* ref: two set elements become one once the default is in */
    CHECK_STR(eval("length(convert([{}, {a = \"d\"}], set(object({a = optional(string, \"d\")}))))"),
              "1");
    CHECK_STR(eval("convert(1, strin)"),
              "Invalid type specification: The keyword \"strin\" is not a valid type "
              "specification.");
    CHECK_STR(eval("convert({}, object({a = optional(number, \"x\")}))"),
              "Invalid default value for optional attribute: This default value is not "
              "compatible with the attribute's type constraint: a number is required.");
    /* upstream crashes here (spec [fn.typeexpr.default]); the default
     * carried over is converted to the later type */
    CHECK_STR(eval("convert({}, object({a = optional(string, \"x\"), a = number}))"),
              "Invalid default value for optional attribute: This default value is not "
              "compatible with the attribute's type constraint: a number is required.");
    CHECK_STR(eval("convert({}, object({a = optional(number, \"1\"), a = string})).a"), "\"1\"");
    CHECK_STR(eval("convert({}, object({a = optional(string, nope)}))"),
              "Variables not allowed: Variables may not be used here.");
    CHECK_STR(eval("convert(null, object({a = optional(string, \"d\"), b = string}))"),
              "Error in function call: Call to function \"convert\" failed: panic in function "
              "implementation: returned value does not conform to expected return type: missing "
              "required attribute \"b\".");
}

/* [fn.templatestring.*] */
static void test_templatestring(void)
{
    CHECK_STR(eval("templatestring(t.ab, {a = 1, b = \"x\"})"), "\"1-x\"");
    CHECK_STR(eval("templatestring(t.rec, {t = \"x\"})"),
              "Error in function call: Call to function \"templatestring\" failed: <templatestring "
              "argument>:1,3-18: Error in function call; Call to function \"templatestring\" "
              "failed: cannot recursively call templatestring from inside another template "
              "function..");
    CHECK_STR(eval("templatestring(t.nope, {})"),
              "Invalid function argument: Invalid value for \"vars\" parameter: vars map does not "
              "contain key \"nope\", referenced at <templatestring argument>:1,3-7.");
    CHECK_STR(eval("templatestring(t[\"null\"], {x = null})"),
              "Error in function call: Call to function \"templatestring\" failed: <templatestring "
              "argument>:1,1-5: Template result is null; The result of the template is null, "
              "which is not a valid result for a templatestring call..");
}

/* [fn.type] [fn.type.text] [fn.type.value] [fn.type.console] the switch, the
 * rendering, conversions of a type value and the console */
static void test_type(void)
{
    tfx_source *src;
    tfx_context *ctx;
    tfx_result *r;
    char *s;

    CHECK_STR(run_with("type(1)", NULL, 0, 0),
              "Call to unknown function: There is no function named \"type\".");
    CHECK_STR(run_with("typee(1)", NULL, 1, 0),
              "Call to unknown function: There is no function named \"typee\". Did you mean "
              "\"type\"?");
    CHECK_STR(eval("type(1)"), "number");
    CHECK_STR(eval("type(null)"), "dynamic");
    CHECK_STR(eval("type(u)"), "string");
    CHECK_STR(eval("type(type(1))"), "type");
    CHECK_STR(eval("type({})"), "object({})");
    CHECK_STR(eval("type([])"), "tuple([])");
    CHECK_STR(eval("type({b = [1, {c = true}], a = \"x\"})"),
              "object({\n    a: string,\n    b: tuple([\n        number,\n        object({\n"
              "            c: bool,\n        }),\n    ]),\n})");
    CHECK_STR(eval("type([[1], [2]][*])"), "tuple([\n    tuple([\n        number,\n    ]),\n"
                                           "    tuple([\n        number,\n    ]),\n])");
    CHECK_STR(eval("type(convert([{a = 1}], list(object({a = number}))))"),
              "list(\n    object({\n        a: number,\n    }),\n)");
    CHECK_STR(eval("type(convert({k = [1]}, map(list(number))))"), "map(list(number))");
    CHECK_STR(eval("type(convert([], set(tuple([string]))))"),
              "set(\n    tuple([\n        string,\n    ]),\n)");
    CHECK_STR(eval("try(type(nope), type(\"a\"))"), "string");
    CHECK_STR(eval("can(type(1))"), "true");
    CHECK_STR(eval("[type(1)]"),
              "Invalid use of type function: The console-only \"type\" function cannot be used "
              "as part of an expression.");
    CHECK_STR(eval("type(1) == \"number\""),
              "Invalid use of type function: The console-only \"type\" function cannot be used "
              "as part of an expression.");
    CHECK_STR(eval("upper(type(1))"),
              "Invalid function argument: Invalid value for \"str\" parameter: string required.");
    CHECK_STR(eval("true ? type(1) : type(\"a\")"), "number");
    CHECK(strncmp(eval("true ? type(1) : \"a\""), "Inconsistent conditional result types", 37)
          == 0);
    /* [conv.capsule] the capsule converts to nothing else: tostring and
     * the other to* functions fail as upstream's do */
    CHECK_STR(eval("tostring(type(1))"),
              "Invalid function argument: Invalid value for \"v\" parameter: cannot convert type "
              "to string.");
    CHECK_STR(eval("convert(type(1), string)"),
              "Invalid function argument: Invalid value for \"value\" parameter: string required.");
    CHECK_STR(eval("convert(type(1), any)"), "number");
    CHECK_STR(eval("type(1) + 1"),
              "Invalid operand: Unsuitable value for left operand: number required.");
    CHECK_STR(eval("\"a${type(1)}\""),
              "Invalid template interpolation value: Cannot include the given value in a string "
              "template: string required.");
    CHECK_STR(eval("\"${type(1)}\""), "number");
    CHECK_STR(eval("type(1).a"), "Unsupported attribute: This value does not have any attributes.");
    CHECK_STR(eval("type(1)[0]"), "Invalid index: This value does not have any indices.");
    CHECK_STR(eval("length(type(1))"),
              "Error in function call: Call to function \"length\" failed: argument must be a "
              "string, a collection type, or a structural type.");
    CHECK_STR(eval("true ? type(1) : null"), "number");
    CHECK_STR(eval("false ? type(1) : null"), "null /* type */");
    CHECK_STR(eval("sensitive(type(1))"), "number");
    /* [fn.type.jsonencode] */
    CHECK_STR(eval("can(jsonencode(type(1)))"), "true");
    CHECK_STR(eval("jsonencode(type(type(1)))"),
              "Error in function call: Call to function \"jsonencode\" failed: json: error "
              "calling MarshalJSON for type *cty.Type: type not allowed: type.");
    CHECK_STR(eval("jsonencode({a = type({b = [type(1)]})})"),
              "Error in function call: Call to function \"jsonencode\" failed: json: error "
              "calling MarshalJSON for type *cty.Type: json: error calling MarshalJSON for type "
              "cty.Type: json: error calling MarshalJSON for type cty.Type: type not allowed: "
              "type.");
    CHECK_STR(eval("try(jsonencode(type(tolist([type(1)]))), 0)"), "0");

    /* the JSON and type of a type result */
    src = tfx_source_parse_profile(NULL, "type([1])", 9, TFX_MODE_EXPRESSION, NULL,
                                   TFX_PROFILE_P14);
    ctx = tfx_context_new();
    tfx_context_allow_type_function(ctx, 1);
    tfx_context_set_profile(ctx, TFX_PROFILE_P14);
    r = tfx_evaluate(src, ctx, NULL);
    CHECK(r != NULL && !tfx_result_has_errors(r));
    s = tfx_result_json(r);
    CHECK_STR(s, "{\"type\":\"type\",\"v\":\"tuple([\\n    number,\\n])\"}");
    tfx_free(s);
    s = tfx_result_type(r);
    CHECK_STR(s, "type");
    tfx_free(s);
    tfx_result_free(r);
    tfx_source_free(src);

    /* a null of the capsule type, without the mark: an ordinary result,
     * whose type is "type" at any depth */
    src = tfx_source_parse_profile(NULL, "[false ? type(1) : null]", 24, TFX_MODE_EXPRESSION, NULL,
                                   TFX_PROFILE_P14);
    r = tfx_evaluate(src, ctx, NULL);
    CHECK(r != NULL && !tfx_result_has_errors(r));
    s = tfx_result_json(r);
    CHECK_STR(s, "{\"type\":[\"tuple\",[\"type\"]],\"v\":[{\"null\":true}]}");
    tfx_free(s);
    tfx_result_free(r);
    tfx_context_free(ctx);
    tfx_source_free(src);
}

int main(void)
{
    test_try_message();
    test_try_can();
    test_try_runs_once();
    test_try_limits();
    test_convert();
    test_templatestring();
    test_type();
    return check_report("test_closure");
}
