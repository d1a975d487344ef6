/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_refs.c — unit tests of the static reference analysis (refs.c,
 * spec/references.md) and of typed-unknown contexts (check.c) through the
 * public interface.
 */
#include "tfexpr.h"

#include <stdlib.h>

#include "check.h"

/* The references of `text` as one line: each traversal's text, then
 * "@" and its byte range, separated by spaces. */
static char *refs_line(const char *text, tfx_mode mode)
{
    tfx_source *src = tfx_source_parse(NULL, text, strlen(text), mode, NULL);
    tfx_refs *r;
    static char line[1024];
    size_t i;

    line[0] = '\0';
    CHECK(src != NULL && !tfx_source_has_errors(src));
    r = tfx_source_refs(src);
    CHECK(r != NULL);
    for (i = 0; i < tfx_refs_count(r); i++) {
        tfx_range rg = tfx_ref_range(r, i);
        size_t n = strlen(line);

        snprintf(line + n, sizeof(line) - n, "%s%s@%zu-%zu", i > 0 ? " " : "", tfx_ref_text(r, i),
                 rg.start.byte, rg.end.byte);
    }
    tfx_refs_free(r);
    tfx_source_free(src);
    return line;
}

/* [refs.result] [refs.walk] */
static void test_order(void)
{
    CHECK_STR(refs_line("a + b", TFX_MODE_EXPRESSION), "a@0-1 b@4-5");
    CHECK_STR(refs_line("f(a, b.c)", TFX_MODE_EXPRESSION), "a@2-3 b.c@5-8");
    CHECK_STR(refs_line("\"x\"", TFX_MODE_EXPRESSION), "");
    CHECK_STR(refs_line("a ? b : c", TFX_MODE_EXPRESSION), "a@0-1 b@4-5 c@8-9");
    CHECK_STR(refs_line("a + a", TFX_MODE_EXPRESSION), "a@0-1 a@4-5");
}

/* [refs.steps] [refs.step.index] [refs.text] [refs.static-end] [refs.splat] [refs.source] */
static void test_steps(void)
{
    CHECK_STR(refs_line("a.b[0][\"k\"]", TFX_MODE_EXPRESSION), "a.b[0][\"k\"]@0-11");
    CHECK_STR(refs_line("a[1.50][true][null]", TFX_MODE_EXPRESSION), "a[1.5][true][null]@0-19");
    CHECK_STR(refs_line("a.0.b", TFX_MODE_EXPRESSION), "a[0].b@0-5");
    CHECK_STR(refs_line("a[1e3]", TFX_MODE_EXPRESSION), "a[1000]@0-6");
    CHECK_STR(refs_line("a[\"\\n\"]", TFX_MODE_EXPRESSION), "a[\"\\n\"]@0-7");
    CHECK_STR(refs_line("a[b].c", TFX_MODE_EXPRESSION), "a@0-1 b@2-3");
    CHECK_STR(refs_line("a[-1]", TFX_MODE_EXPRESSION), "a@0-1");
    CHECK_STR(refs_line("a.b[*].c[0]", TFX_MODE_EXPRESSION), "a.b@0-3");
    CHECK_STR(refs_line("(a.b).c", TFX_MODE_EXPRESSION), "a.b@1-4");
    CHECK_STR(refs_line("f(a)[0]", TFX_MODE_EXPRESSION), "a@2-3");
}

/* [refs.object.key] [refs.scope] [refs.template] */
static void test_scopes(void)
{
    CHECK_STR(refs_line("{k = a}", TFX_MODE_EXPRESSION), "a@5-6");
    CHECK_STR(refs_line("{(k) = a}", TFX_MODE_EXPRESSION), "k@2-3 a@7-8");
    CHECK_STR(refs_line("{k.x = a}", TFX_MODE_EXPRESSION), "k.x@1-4 a@7-8");
    CHECK_STR(refs_line("{true = a}", TFX_MODE_EXPRESSION), "a@8-9");
    CHECK_STR(refs_line("[for x in x: x]", TFX_MODE_EXPRESSION), "x@10-11");
    CHECK_STR(refs_line("{for k, v in a: k => [v, w]...}", TFX_MODE_EXPRESSION), "a@13-14 w@25-26");
    CHECK_STR(refs_line("[for x in a: [for y in x: y + z]]", TFX_MODE_EXPRESSION), "a@10-11 z@30-31");
    CHECK_STR(refs_line("%{ for x in a }${x}${y}%{ endfor }", TFX_MODE_TEMPLATE), "a@12-13 y@21-22");
    CHECK_STR(refs_line("%{ if c }${a}%{ else }${b}%{ endif }", TFX_MODE_TEMPLATE), "c@6-7 a@11-12 b@24-25");
}

/* [refs.range] [refs.protocol] the accessors and the JSON list */
static void test_accessors(void)
{
    const char *text = "x\n .y [\"\\u00e9\"]";
    tfx_source *src = tfx_source_parse(NULL, text, strlen(text), TFX_MODE_EXPRESSION, NULL);
    tfx_refs *r = tfx_source_refs(src);
    const tfx_ref_step *s;
    size_t n = 0;
    const char *root;
    char *json;

    CHECK(tfx_refs_count(r) == 1);
    root = tfx_ref_root(r, 0, &n);
    CHECK(n == 1 && root[0] == 'x');
    CHECK(tfx_ref_root_range(r, 0).end.byte == 1);
    CHECK(tfx_ref_range(r, 0).end.line == 2);
    CHECK(tfx_ref_step_count(r, 0) == 2);
    s = tfx_ref_step_at(r, 0, 0);
    CHECK(s->kind == TFX_REF_ATTR && s->nname == 1 && s->name[0] == 'y');
    CHECK(s->range.start.byte == 3 && s->range.start.column == 2);
    s = tfx_ref_step_at(r, 0, 1);
    CHECK(s->kind == TFX_REF_INDEX);
    CHECK_STR(s->key_json, "{\"type\":\"string\",\"v\":\"\xc3\xa9\"}");
    CHECK_STR(s->key_text, "\"\xc3\xa9\"");
    json = tfx_refs_json(r);
    CHECK(json != NULL && strstr(json, "[{\"root\":\"x\",\"steps\":[{\"attr\":\"y\",\"range\":") == json);
    tfx_free(json);
    tfx_refs_free(r);
    tfx_source_free(src);
    tfx_refs_free(NULL);
    CHECK(tfx_refs_count(NULL) == 0);
}

/* Inputs with syntax errors still give a list (as far as parsed). */
static void test_partial(void)
{
    const char *text = "a + [for x in b: x +";
    tfx_source *src = tfx_source_parse(NULL, text, strlen(text), TFX_MODE_EXPRESSION, NULL);
    tfx_refs *r;

    CHECK(tfx_source_has_errors(src));
    r = tfx_source_refs(src);
    CHECK(r != NULL);
    tfx_refs_free(r);
    tfx_source_free(src);
}

/* [check.types] */
static void test_unknown_context(void)
{
    tfx_context *ctx = tfx_context_new();
    const char *types = "{\"v\": [\"list\", \"number\"], \"s\": \"string\"}";
    const char *text = "[v[0] + 1, s]";
    char *error = NULL;
    tfx_source *src = tfx_source_parse(NULL, text, strlen(text), TFX_MODE_EXPRESSION, NULL);
    tfx_result *res;
    char *type;

    CHECK(tfx_context_set_unknown_all(ctx, types, strlen(types), &error) == 0);
    res = tfx_evaluate(src, ctx, NULL);
    CHECK(!tfx_result_has_errors(res));
    type = tfx_result_type(res);
    CHECK_STR(type, "tuple([number,string])");
    tfx_free(type);
    type = tfx_result_type_json(res);
    CHECK_STR(type, "[\"tuple\",[\"number\",\"string\"]]");
    tfx_free(type);
    tfx_result_free(res);
    tfx_source_free(src);
    CHECK(tfx_context_set_unknown_all(ctx, "[1]", 3, &error) == -1 && error != NULL);
    tfx_free(error);
    error = NULL;
    CHECK(tfx_context_set_unknown_all(ctx, "{\"x\": \"nope\"}", 13, &error) == -1 && error != NULL);
    tfx_free(error);
    CHECK(tfx_context_set_unknown_all(ctx, "{", 1, NULL) == -1);
    tfx_context_free(ctx);
}

int main(void)
{
    test_order();
    test_steps();
    test_scopes();
    test_accessors();
    test_partial();
    test_unknown_context();
    return check_report("test_refs");
}
