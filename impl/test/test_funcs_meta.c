/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_funcs_meta.c — unit tests of the function descriptions and of the
 * function table of `tfexpr functions` (funcs_meta.c).
 *
 * Every registered built-in function must have a description with a
 * sentence for each of its parameters, by the same names: a function
 * added without one fails here.  The JSON table must have the shape of
 * `terraform metadata functions -json` (Terraform's
 * internal/command/jsonfunction): members in Terraform's order, names
 * sorted, is_nullable only when true, types in cty's JSON type syntax
 * that agree with the registered parameters; the text table must say the
 * same, one line per function.
 */
#include "funcs_meta.h"

#include <jansson.h>
#include <stdlib.h>

#include "check.h"
#include "ctx.h"
#include "func.h"
#include "jsonio.h"
#include "type.h"

/* The functions of issues 10 and 11 (the rest of Terraform's library and
 * OpenTofu's three), which must be described before they are
 * registered. */
static const char *const coming[] = {
    "try", "can", "regex", "regexall", "replace", "startswith", "endswith", "strcontains",
    "templatestring", "alltrue", "anytrue", "index", "list", "map", "matchkeys", "one", "sum",
    "transpose", "sensitive", "nonsensitive", "issensitive", "ephemeralasnull", "convert",
    "timecmp", "type",
    "base64encode", "base64decode", "base64gzip", "textencodebase64", "textdecodebase64",
    "urlencode", "yamlencode", "yamldecode", "md5", "sha1", "sha256", "sha512", "base64sha256",
    "base64sha512", "uuidv5", "bcrypt", "rsadecrypt", "cidrhost", "cidrnetmask", "cidrsubnet",
    "cidrsubnets", "file", "filebase64", "fileexists", "fileset", "templatefile", "filemd5",
    "filesha1", "filesha256", "filesha512", "filebase64sha256", "filebase64sha512", "abspath",
    "dirname", "basename", "pathexpand", "timestamp", "plantimestamp", "uuid", "base64gunzip",
    "urldecode", "cidrcontains",
};

/* What *error holds before tfx_fn_table sets it. */
static char unset[] = "unset";

static const tfx_function *builtin(const char *name)
{
    return tfx_func_builtin(name, strlen(name));
}

/* A sentence: not empty, printable ASCII, none of the characters Go's
 * encoding/json escapes in HTML (so our bytes are the ones Terraform's
 * encoder would write), ending with a full stop. */
static int good_sentence(const char *s)
{
    size_t n = s != NULL ? strlen(s) : 0;
    size_t i;

    if (n < 2 || s[n - 1] != '.')
        return 0;
    for (i = 0; i < n; i++)
        if (s[i] < ' ' || s[i] > '~' || s[i] == '<' || s[i] == '>' || s[i] == '&')
            return 0;
    return 1;
}

static size_t meta_param_count(const tfx_fn_meta *m)
{
    size_t n = 0;

    while (n < TFX_FN_META_PARAMS && m->params[n].name != NULL)
        n++;
    return n;
}

/* The table of descriptions: sorted, each sentence good, the parameters'
 * names contiguous. */
static void test_descriptions(void)
{
    const tfx_fn_meta *m, *prev = NULL;
    size_t i, j;

    for (i = 0; (m = tfx_fn_meta_at(i)) != NULL; i++) {
        size_t np = meta_param_count(m);

        if (prev != NULL && strcmp(prev->name, m->name) >= 0)
            fprintf(stderr, "descriptions out of order at %s\n", m->name);
        CHECK(prev == NULL || strcmp(prev->name, m->name) < 0);
        if (!good_sentence(m->text))
            fprintf(stderr, "%s: bad description\n", m->name);
        CHECK(good_sentence(m->text));
        for (j = 0; j < TFX_FN_META_PARAMS; j++) {
            if (j < np) {
                CHECK(m->params[j].name[0] != '\0');
                if (!good_sentence(m->params[j].text))
                    fprintf(stderr, "%s(%s): bad description\n", m->name, m->params[j].name);
                CHECK(good_sentence(m->params[j].text));
            } else {
                CHECK(m->params[j].name == NULL && m->params[j].text == NULL);
            }
        }
        CHECK(tfx_fn_meta_find(m->name) == m);
        prev = m;
    }
    CHECK(i >= 125); /* Terraform's 122 functions and OpenTofu's 3 */
    CHECK(tfx_fn_meta_find("nosuch") == NULL);
    CHECK(tfx_fn_meta_find("") == NULL);
    for (i = 0; i < sizeof(coming) / sizeof(coming[0]); i++) {
        if (tfx_fn_meta_find(coming[i]) == NULL)
            fprintf(stderr, "%s is not described\n", coming[i]);
        CHECK(tfx_fn_meta_find(coming[i]) != NULL);
    }
}

/* Every registered function is described, with its parameters by name:
 * the fixed ones, then the variadic one. */
static void test_registered_described(void)
{
    const char *name;
    size_t i, j;

    for (i = 0; (name = tfx_func_builtin_name(i)) != NULL; i++) {
        const tfx_function *fn = builtin(name);
        const tfx_fn_meta *m = tfx_fn_meta_find(name);
        size_t nargs = fn->nparams + (fn->varparam != NULL ? 1 : 0);

        if (m == NULL) {
            fprintf(stderr, "built-in function %s has no description (impl/funcs_meta.c)\n", name);
            CHECK(m != NULL);
            continue;
        }
        if (meta_param_count(m) != nargs)
            fprintf(stderr, "%s: %zu parameters described, %zu registered\n", name,
                    meta_param_count(m), nargs);
        CHECK(meta_param_count(m) == nargs);
        for (j = 0; j < nargs && j < TFX_FN_META_PARAMS; j++) {
            const tfx_param *p = j < fn->nparams ? &fn->params[j] : fn->varparam;

            if (m->params[j].name == NULL || strcmp(m->params[j].name, p->name) != 0)
                fprintf(stderr, "%s: parameter %zu is %s, described as %s\n", name, j, p->name,
                        m->params[j].name != NULL ? m->params[j].name : "(none)");
            CHECK(m->params[j].name != NULL && strcmp(m->params[j].name, p->name) == 0);
        }
    }
    CHECK(i >= 58);
}

/* The names of the object's members, comma-separated. */
static void member_names(json_t *o, char *out, size_t cap)
{
    void *it;

    out[0] = '\0';
    for (it = json_object_iter(o); it != NULL; it = json_object_iter_next(o, it)) {
        if (it != json_object_iter(o))
            strncat(out, ",", cap - strlen(out) - 1);
        strncat(out, json_object_iter_key(it), cap - strlen(out) - 1);
    }
}

/* The cty JSON type text of j, compact. */
static char *json_text(json_t *j)
{
    return json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
}

/* One parameter of the JSON table against the registered one. */
static void check_param(tfx_ctx *ctx, const char *fname, json_t *jp, const tfx_param *p,
                        const char *described, int fixed)
{
    char members[128];
    char *type = json_text(json_object_get(jp, "type"));
    const char *error = NULL;

    member_names(jp, members, sizeof(members));
    CHECK_STR(json_string_value(json_object_get(jp, "name")), p->name);
    CHECK_STR(json_string_value(json_object_get(jp, "description")), described);
    if (strcmp(fname, "convert") == 0 && strcmp(p->name, "type") == 0)
        CHECK(json_object_get(jp, "is_nullable") == NULL);
    else
        CHECK(p->allow_null ? json_object_get(jp, "is_nullable") == json_true()
                            : json_object_get(jp, "is_nullable") == NULL);
    CHECK_STR(members, p->allow_null && json_object_get(jp, "is_nullable") != NULL
                           ? "name,description,is_nullable,type"
                           : "name,description,type");
    CHECK(type != NULL && tfx_json_decode_type(ctx, type, strlen(type), &error) != NULL);
    if (!fixed && type != NULL)
        CHECK_STR(type, tfx_json_encode_type(ctx, p->type, NULL));
    free(type);
}

static json_t *load_table(void)
{
    char *error = unset;
    char *text = tfx_fn_table(1, &error);
    json_t *root;

    CHECK(text != NULL && error == NULL);
    if (text == NULL)
        return NULL;
    CHECK(strchr(text, '\n') == NULL);
    root = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
    CHECK(root != NULL);
    free(text);
    return root;
}

/* The JSON table: its shape, every shown function's signature against
 * the registered function and its description. */
static void test_json_table(tfx_ctx *ctx)
{
    json_t *root = load_table();
    json_t *sigs, *sig;
    const char *name, *prev = "";
    char members[128];
    size_t shown = 0, i, j;

    if (root == NULL)
        return;
    member_names(root, members, sizeof(members));
    CHECK_STR(members, "format_version,function_signatures");
    CHECK_STR(json_string_value(json_object_get(root, "format_version")), "1.0");
    sigs = json_object_get(root, "function_signatures");
    CHECK(json_is_object(sigs));

    json_object_foreach(sigs, name, sig) {
        const tfx_function *fn = builtin(name);
        const tfx_fn_meta *m = tfx_fn_meta_find(name);
        json_t *params = json_object_get(sig, "parameters");
        json_t *var = json_object_get(sig, "variadic_parameter");
        int fixed = strcmp(name, "try") == 0 || strcmp(name, "can") == 0
                    || strcmp(name, "templatestring") == 0 || strcmp(name, "convert") == 0;
        char want[128];
        char *ret = json_text(json_object_get(sig, "return_type"));
        const char *error = NULL;

        CHECK(strcmp(prev, name) < 0);
        prev = name;
        CHECK(fn != NULL && m != NULL && !tfx_fn_table_omits(name));
        if (fn == NULL || m == NULL) {
            free(ret);
            continue;
        }
        shown++;
        snprintf(want, sizeof(want), "description,return_type%s%s",
                 fn->nparams > 0 ? ",parameters" : "", fn->varparam != NULL ? ",variadic_parameter" : "");
        member_names(sig, members, sizeof(members));
        CHECK_STR(members, want);
        CHECK_STR(json_string_value(json_object_get(sig, "description")), m->text);
        CHECK(ret != NULL && tfx_json_decode_type(ctx, ret, strlen(ret), &error) != NULL);
        free(ret);
        CHECK(fn->nparams == 0 ? params == NULL : json_array_size(params) == fn->nparams);
        for (j = 0; j < fn->nparams && j < json_array_size(params); j++)
            check_param(ctx, name, json_array_get(params, j), &fn->params[j], m->params[j].text,
                        fixed);
        CHECK((fn->varparam == NULL) == (var == NULL));
        if (fn->varparam != NULL && var != NULL)
            check_param(ctx, name, var, fn->varparam, m->params[fn->nparams].text, fixed);
    }
    for (i = 0; (name = tfx_func_builtin_name(i)) != NULL; i++)
        CHECK(tfx_fn_table_omits(name) ? json_object_get(sigs, name) == NULL
                                       : json_object_get(sigs, name) != NULL);
    CHECK(shown >= 58);
    CHECK(json_object_get(sigs, "list") == NULL && json_object_get(sigs, "map") == NULL
          && json_object_get(sigs, "type") == NULL);

    /* Signatures of functions that are registered from the start, with
     * the return types Terraform's table gives them: the type function's
     * answer for unknown arguments, dynamic when a parameter of type
     * dynamic does not allow dynamic arguments (contains). */
    sig = json_object_get(sigs, "substr");
    {
        char *text = json_text(sig);

        CHECK_STR(text,
                  "{\"description\":\"Returns the part of a string at an offset and of a length, "
                  "counted in characters (grapheme clusters).\",\"return_type\":\"string\","
                  "\"parameters\":[{\"name\":\"str\",\"description\":\"The string to take a part "
                  "of.\",\"type\":\"string\"},{\"name\":\"offset\",\"description\":\"Where the part "
                  "starts; a negative offset counts from the end.\",\"type\":\"number\"},"
                  "{\"name\":\"length\",\"description\":\"How many characters to take; -1 takes all "
                  "the rest.\",\"type\":\"number\"}]}");
        free(text);
    }
    {
        static const char *const rets[][2] = {
            {"length", "\"number\""},          {"tolist", "[\"list\",\"dynamic\"]"},
            {"range", "[\"list\",\"number\"]"}, {"contains", "\"dynamic\""},
            {"split", "[\"list\",\"string\"]"}, {"jsondecode", "\"dynamic\""},
            {"tobool", "\"bool\""},            {"coalesce", "\"dynamic\""},
        };

        for (i = 0; i < sizeof(rets) / sizeof(rets[0]); i++) {
            char *text = json_text(json_object_get(json_object_get(sigs, rets[i][0]), "return_type"));

            CHECK_STR(text, rets[i][1]);
            free(text);
        }
    }
    {
        char *text = json_text(json_object_get(json_object_get(sigs, "lookup"), "variadic_parameter"));

        CHECK_STR(text, "{\"name\":\"default\",\"description\":\"The value when the key is absent; "
                        "without it, an absent key is an error.\",\"is_nullable\":true,"
                        "\"type\":\"dynamic\"}");
        free(text);
    }
    /* The signatures Terraform writes by hand, once registered. */
    if (builtin("try") != NULL) {
        char *text = json_text(json_object_get(sigs, "try"));

        CHECK_STR(text, "{\"description\":\"Evaluates its argument expressions in turn and returns "
                        "the value of the first one that has no errors.\",\"return_type\":"
                        "\"dynamic\",\"variadic_parameter\":{\"name\":\"expressions\",\"description\":"
                        "\"The expressions to evaluate, in order.\",\"type\":\"dynamic\"}}");
        free(text);
    }
    if (builtin("can") != NULL) {
        char *text = json_text(json_object_get(json_object_get(sigs, "can"), "return_type"));

        CHECK_STR(text, "\"bool\"");
        free(text);
    }
    if (builtin("templatestring") != NULL) {
        json_t *ps = json_object_get(json_object_get(sigs, "templatestring"), "parameters");

        CHECK_STR(json_string_value(json_object_get(json_array_get(ps, 0), "type")), "string");
        CHECK_STR(json_string_value(json_object_get(json_array_get(ps, 1), "type")), "dynamic");
    }
    if (builtin("convert") != NULL) {
        json_t *c = json_object_get(sigs, "convert");
        json_t *ps = json_object_get(c, "parameters");

        CHECK_STR(json_string_value(json_object_get(c, "return_type")), "dynamic");
        CHECK(json_object_get(json_array_get(ps, 0), "is_nullable") == json_true());
        CHECK_STR(json_string_value(json_object_get(json_array_get(ps, 1), "type")), "dynamic");
    }
    json_decref(root);
}

/* The text table: one line per function of the JSON table, in the same
 * order, each the signature in type-constraint notation. */
static void test_text_table(tfx_ctx *ctx)
{
    char *error = unset;
    char *text = tfx_fn_table(0, &error);
    json_t *root = load_table();
    json_t *sigs = json_object_get(root, "function_signatures");
    const char *name;
    json_t *sig;
    char *line;
    size_t lines = 0;

    CHECK(text != NULL && error == NULL);
    if (text == NULL || root == NULL) {
        free(text);
        json_decref(root);
        return;
    }
    CHECK(strstr(text, "\nsubstr(str string, offset number, length number) string\n") != NULL);
    CHECK(strstr(text, "\nmax(numbers number...) number\n") != NULL);
    CHECK(strstr(text, "\nlookup(inputMap dynamic, key string, default dynamic...) dynamic\n") != NULL);
    CHECK(strstr(text, "\nsetunion(first_set set(dynamic), other_sets set(dynamic)...) set(dynamic)\n")
          != NULL);
    CHECK(strncmp(text, "abs(num number) number\n", 23) == 0);
    CHECK(text[strlen(text) - 1] == '\n');

    line = text;
    json_object_foreach(sigs, name, sig) {
        const tfx_function *fn = builtin(name);
        char *end = strchr(line, '\n');
        size_t n = strlen(name);

        CHECK(end != NULL);
        if (end == NULL)
            break;
        *end = '\0';
        CHECK(strncmp(line, name, n) == 0 && line[n] == '(');
        if (fn != NULL) {
            const char *error2 = NULL;
            char *ret = json_text(json_object_get(sig, "return_type"));
            const tfx_type *t = ret != NULL ? tfx_json_decode_type(ctx, ret, strlen(ret), &error2) : NULL;
            const char *tail = t != NULL ? tfx_ctx_printf(ctx, ") %s", tfx_type_string(ctx, t)) : "?";
            size_t len = strlen(line), tl = strlen(tail);

            CHECK(len > tl && strcmp(line + len - tl, tail) == 0);
            CHECK((fn->varparam != NULL) == (strstr(line, "...)") != NULL));
            free(ret);
        }
        lines++;
        line = end + 1;
    }
    CHECK(*line == '\0');
    CHECK(lines == json_object_size(sigs));
    free(text);
    json_decref(root);
}

/* [call.pn.core] Profile PN's table: P14's, and every function again as
 * core::NAME with the same signature; P14's is the flavor's table. */
static void test_pn_table(void)
{
    char *error = unset;
    char *p14 = tfx_fn_table_profile(1, 0, 0, &error);
    char *flavor = tfx_fn_table_flavor(1, 0, &error);
    char *pn = tfx_fn_table_profile(1, 0, 1, &error);
    json_t *a = p14 != NULL ? json_loads(p14, JSON_REJECT_DUPLICATES, NULL) : NULL;
    json_t *b = pn != NULL ? json_loads(pn, JSON_REJECT_DUPLICATES, NULL) : NULL;
    json_t *sa = json_object_get(a, "function_signatures");
    json_t *sb = json_object_get(b, "function_signatures");
    const char *name, *prev = "";
    json_t *sig;

    CHECK(p14 != NULL && flavor != NULL && pn != NULL && error == NULL);
    CHECK(p14 != NULL && flavor != NULL && strcmp(p14, flavor) == 0);
    CHECK(json_is_object(sa) && json_is_object(sb));
    CHECK(json_object_size(sb) == 2 * json_object_size(sa));
    json_object_foreach(sa, name, sig) {
        char core[64];

        snprintf(core, sizeof(core), "core::%s", name);
        CHECK(json_equal(sig, json_object_get(sb, name)));
        CHECK(json_equal(sig, json_object_get(sb, core)));
    }
    json_object_foreach(sb, name, sig) {
        CHECK(strcmp(prev, name) < 0);
        prev = name;
        CHECK(strncmp(name, "provider::", 10) != 0);
    }
    CHECK(json_object_get(sb, "core::list") == NULL && json_object_get(sb, "core::map") == NULL
          && json_object_get(sb, "core::type") == NULL);
    json_decref(a);
    json_decref(b);
    free(p14);
    free(flavor);
    free(pn);
}

static void run(tfx_ctx *ctx, void *arg)
{
    (void)arg;
    test_json_table(ctx);
    test_text_table(ctx);
    test_pn_table();
}

int main(void)
{
    tfx_ctx ctx;

    test_descriptions();
    test_registered_described();
    CHECK(tfx_ctx_init(&ctx, NULL));
    CHECK(tfx_ctx_try(&ctx, run, NULL));
    tfx_ctx_free(&ctx);
    CHECK(tfx_fn_table_omits("list") && tfx_fn_table_omits("map") && tfx_fn_table_omits("type"));
    CHECK(!tfx_fn_table_omits("lookup"));
    return check_report("test_funcs_meta");
}
