/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_parse.c — unit tests of parsing: limits (nesting, size),
 * pathological nesting of every construct, dumps and diagnostics rendering
 * through the public interface; the printer's round trip through the
 * internal tree (ast.h, parse.h).
 */
#include "tfexpr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "parse.h"

#include "check.h"

/* Builds prefix * n + middle + suffix * n in a malloc'd string. */
static char *nest(const char *prefix, const char *middle, const char *suffix, size_t n, size_t *len)
{
    size_t lp = strlen(prefix), lm = strlen(middle), ls = strlen(suffix);
    char *s = malloc(n * (lp + ls) + lm + 1);
    char *p = s;
    size_t i;

    *len = 0;
    if (s == NULL)
        return NULL;
    for (i = 0; i < n; i++, p += lp)
        memcpy(p, prefix, lp);
    memcpy(p, middle, lm);
    p += lm;
    for (i = 0; i < n; i++, p += ls)
        memcpy(p, suffix, ls);
    *p = '\0';
    *len = (size_t)(p - s);
    return s;
}

/* Whether some diagnostic of src has category `cat`. */
static int has_category(const tfx_source *src, const char *cat)
{
    size_t i;

    for (i = 0; i < tfx_source_diagnostic_count(src); i++)
        if (strcmp(tfx_source_diagnostic(src, i)->category, cat) == 0)
            return 1;
    return 0;
}

/* [limit.depth] 100,000 levels of every nesting construct: a
 * resource.limit error, no crash, nothing else needed. */
static void test_deep_nesting(void)
{
    static const struct {
        const char *prefix, *middle, *suffix;
        tfx_mode mode;
    } shapes[] = {
        {"[", "1", "]", TFX_MODE_EXPRESSION},
        {"(", "1", ")", TFX_MODE_EXPRESSION},
        {"{a = ", "1", "}", TFX_MODE_EXPRESSION},
        {"f(", "1", ")", TFX_MODE_EXPRESSION},
        {"-", "1", "", TFX_MODE_EXPRESSION},
        {"!", "true", "", TFX_MODE_EXPRESSION},
        {"true ? 1 : ", "2", "", TFX_MODE_EXPRESSION},
        {"x[", "0", "]", TFX_MODE_EXPRESSION},
        {"\"${", "1", "}\"", TFX_MODE_EXPRESSION},
        {"[for x in ", "[]", " : x]", TFX_MODE_EXPRESSION},
        {"%{ if true }", "x", "%{ endif }", TFX_MODE_TEMPLATE},
        {"%{ for x in [] }", "x", "%{ endfor }", TFX_MODE_TEMPLATE},
        {"${\"", "x", "\"}", TFX_MODE_TEMPLATE},
        {"", "a", "[*]", TFX_MODE_EXPRESSION},
    };
    size_t i;

    for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        size_t n;
        char *text = nest(shapes[i].prefix, shapes[i].middle, shapes[i].suffix, 100000, &n);
        tfx_source *src = text != NULL ? tfx_source_parse(NULL, text, n, shapes[i].mode, NULL) : NULL;

        CHECK(src != NULL);
        if (src != NULL) {
            CHECK(tfx_source_has_errors(src));
            if (!has_category(src, "resource.limit"))
                fprintf(stderr, "no resource.limit for shape %zu (%s)\n", i, shapes[i].prefix);
            CHECK(has_category(src, "resource.limit"));
        }
        tfx_source_free(src);
        free(text);
    }
}

/* [limit.depth] the limit is the caller's: depth 10 passes at 9 levels
 * and fails at 20; the default passes at 200. */
static void test_depth_limit_is_settable(void)
{
    tfx_limits limits;
    size_t n;
    char *nine = nest("(", "1", ")", 9, &n);
    tfx_source *src;
    char *twenty;
    char *deep;

    tfx_limits_init(&limits);
    CHECK(limits.max_depth == 256);
    limits.max_depth = 10;
    src = tfx_source_parse(NULL, nine, n, TFX_MODE_EXPRESSION, &limits);
    CHECK(!tfx_source_has_errors(src));
    tfx_source_free(src);
    twenty = nest("(", "1", ")", 20, &n);
    src = tfx_source_parse(NULL, twenty, n, TFX_MODE_EXPRESSION, &limits);
    CHECK(tfx_source_has_errors(src) && has_category(src, "resource.limit"));
    tfx_source_free(src);
    deep = nest("[", "1", "]", 200, &n);
    src = tfx_source_parse(NULL, deep, n, TFX_MODE_EXPRESSION, NULL);
    CHECK(!tfx_source_has_errors(src));
    tfx_source_free(src);
    free(nine);
    free(twenty);
    free(deep);
}

/* [limit.source] input beyond max_source_bytes is refused with a
 * resource.limit error; [limit.memory] so is a parse beyond its memory. */
static void test_size_limits(void)
{
    tfx_limits limits;
    tfx_source *src;
    size_t n;
    char *big = nest("[", "1", "]", 100, &n);

    tfx_limits_init(&limits);
    limits.max_source_bytes = 10;
    src = tfx_source_parse(NULL, "1 + 2 + 3 + 4", 13, TFX_MODE_EXPRESSION, &limits);
    CHECK(src != NULL && tfx_source_has_errors(src) && has_category(src, "resource.limit"));
    tfx_source_free(src);
    tfx_limits_init(&limits);
    limits.max_memory_bytes = 4000;
    src = tfx_source_parse(NULL, big, n, TFX_MODE_EXPRESSION, &limits);
    CHECK(src == NULL || (tfx_source_has_errors(src) && has_category(src, "resource.limit")));
    tfx_source_free(src);
    free(big);
}

/* Parses text with the internal parser into `arena`; NULL on errors. */
static tfx_node *parse_internal(tfx_arena *arena, const char *text, tfx_lex_mode mode)
{
    tfx_diags diags;
    tfx_node *root;

    tfx_diags_init(&diags, arena);
    root = tfx_parse(arena, (const unsigned char *)text, strlen(text), mode, 0, &diags);
    return tfx_diags_has_errors(&diags) ? NULL : root;
}

/* [ast.print] [ast.equal] printing gives source that parses to an equal
 * tree (ranges aside, adjacent template literals joined). */
static void test_print_round_trip(void)
{
    static const char *const exprs[] = {
        "1 + 2 * 3", "(1 + 2) * 3", "a ? b : c ? d : e", "!-x", "a.b[0].c",
        "a[*].b[0]", "a.*.b.0", "f(a, b...)", "{a = 1, \"b\" = 2, (c) = 3}",
        "[for k, v in m : v if k != \"x\"]", "{for k, v in m : k => v... if v}",
        "\"a${b}c%{if d}e%{else}f%{endif}%{for x in y}${x}%{endfor}\"",
        "\"$${literal} %%{literal} $ % \\\\ \\\" \\n\\t\"", "<<-EOT\n    a\n      ${b}\n    EOT\n",
        "\" ${~x}\"", "\"${x ~} \"", "\"a $ ${~b}\"", "\"%{if a}%{endif}\"", "[]", "{}",
        "\"${\"${\"x\"}\"}\"", "x[\"k\"][true][null]", "-1.5e3", "a - -b",
        "\"%{ if a }% %{~ endif }\"", "\"%{ for x in y ~} ${x} %{~ endfor }\"",
    };
    size_t i;

    for (i = 0; i < sizeof(exprs) / sizeof(exprs[0]); i++) {
        tfx_arena *arena = tfx_arena_new(0);
        tfx_node *a = parse_internal(arena, exprs[i], TFX_LEX_EXPRESSION);
        char *printed = a != NULL ? tfx_ast_print(a) : NULL;
        tfx_node *b = printed != NULL ? parse_internal(arena, printed, TFX_LEX_EXPRESSION) : NULL;

        CHECK(a != NULL);
        CHECK(b != NULL);
        CHECK(a != NULL && b != NULL && tfx_ast_equal(a, b));
        if (a != NULL && (b == NULL || !tfx_ast_equal(a, b)))
            fprintf(stderr, "round trip of %s gave %s\n", exprs[i], printed ? printed : "(null)");
        free(printed);
        tfx_arena_free(arena);
    }
}

/* Dumps and rendering: the S-expression of a known tree, the JSON form,
 * and a diagnostic rendered with its source line and caret. */
static void test_dumps_and_rendering(void)
{
    tfx_source *src = tfx_source_parse("x.hcl", "a + 1", 5, TFX_MODE_EXPRESSION, NULL);
    char *sexpr = tfx_source_dump(src, TFX_DUMP_SEXPR);
    char *json = tfx_source_dump(src, TFX_DUMP_JSON);
    char *text;
    const tfx_diagnostic *d;

    CHECK_STR(sexpr, "(binary + (scope-traversal a) (literal 1))");
    CHECK(json != NULL && strncmp(json, "{\"kind\":\"binary\"", 16) == 0);
    tfx_free(sexpr);
    tfx_free(json);
    tfx_source_free(src);

    src = tfx_source_parse("x.hcl", "[1,\n  2 3]", 10, TFX_MODE_EXPRESSION, NULL);
    CHECK(tfx_source_diagnostic_count(src) == 1);
    d = tfx_source_diagnostic(src, 0);
    CHECK_STR(d->summary, "Missing item separator");
    CHECK_STR(d->category, "syntax.missing-token");
    CHECK(d->subject.start.byte == 8 && d->subject.start.line == 2 && d->subject.start.column == 5);
    text = tfx_diagnostic_render(src, d);
    CHECK(text != NULL && strstr(text, "x.hcl:2:5: error: Missing item separator") != NULL);
    CHECK(text != NULL && strstr(text, " 2 |   2 3]\n   |     ^\n") != NULL);
    tfx_free(text);
    CHECK(tfx_source_dump(src, TFX_DUMP_SEXPR) == NULL);
    tfx_source_free(src);
}

/* [lex.pos.column] [lex.pos.column.pn] The caret of a rendered diagnostic
 * counts the clusters of the profile the source was parsed with, as its
 * column does: U+0898 (a combining mark since Unicode 14) is a cluster of
 * its own in P14 and joins the "a" before it in PN; a value that is not a
 * tfx_profile parses, and renders, as PN (the default). */
static void test_render_profile(void)
{
    static const char text[] = "\"a\xe0\xa2\x98\" +";
    static const struct {
        tfx_profile profile;
        size_t column;
        const char *rendered;
    } cases[] = {
        {TFX_PROFILE_P14, 7, " 1 | \"a\xe0\xa2\x98\" +\n   |       ^\n"},
        {TFX_PROFILE_PN, 6, " 1 | \"a\xe0\xa2\x98\" +\n   |      ^\n"},
        {(tfx_profile)7, 6, " 1 | \"a\xe0\xa2\x98\" +\n   |      ^\n"},
    };
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        tfx_source *src = tfx_source_parse_profile("x.hcl", text, strlen(text),
                                                   TFX_MODE_EXPRESSION, NULL, cases[i].profile);
        const tfx_diagnostic *d = src != NULL ? tfx_source_diagnostic(src, 0) : NULL;
        char *rendered = d != NULL ? tfx_diagnostic_render(src, d) : NULL;

        CHECK(d != NULL && d->subject.start.column == cases[i].column);
        CHECK(rendered != NULL && strstr(rendered, cases[i].rendered) != NULL);
        if (rendered == NULL || strstr(rendered, cases[i].rendered) == NULL)
            fprintf(stderr, "render, case %zu: %s\n", i, rendered != NULL ? rendered : "(null)");
        tfx_free(rendered);
        tfx_source_free(src);
    }
}

/* The S-expression of text parsed with profile PN (pn) or P14, or the
 * first diagnostic's summary and subject bytes ("ERR Summary 3-4"). */
static char *profile_outcome(const char *text, bool pn)
{
    tfx_source *src = tfx_source_parse_profile(NULL, text, strlen(text), TFX_MODE_EXPRESSION, NULL,
                                               pn ? TFX_PROFILE_PN : TFX_PROFILE_P14);
    char *out;

    if (src != NULL && tfx_source_diagnostic_count(src) > 0) {
        const tfx_diagnostic *d = tfx_source_diagnostic(src, 0);

        out = malloc(200);
        if (out != NULL)
            snprintf(out, 200, "ERR %.100s %zu-%zu", d->summary, d->subject.start.byte,
                     d->subject.end.byte);
    } else {
        char *dump = src != NULL ? tfx_source_dump(src, TFX_DUMP_SEXPR) : NULL;

        out = dump != NULL ? strdup(dump) : NULL;
        tfx_free(dump);
    }
    tfx_source_free(src);
    return out;
}

/* [gram.pn.call] [gram.pn.call.name] [gram.pn.call.open] [tmpl.pn.meld]
 * Profile PN's syntax beside P14's: namespaced calls, their errors, and
 * literal runs joined (static keys); P14 keeps its own answers. */
static void test_profile_pn(void)
{
    static const struct {
        const char *src;
        const char *pn;
        const char *p14;
    } cases[] = {
        {"a::b(1)", "(call a::b (literal 1))", "ERR Extra characters after expression 1-2"},
        {"a :: b /* c */ :: c()", "(call a::b::c)", "ERR Extra characters after expression 2-3"},
        {"provider::terraform::encode_expr(x)",
         "(call provider::terraform::encode_expr (scope-traversal x))", NULL},
        {"a::", "ERR Missing function name 3-3", NULL},
        {"a::(1)", "ERR Missing function name 3-4", NULL},
        {"a::b", "ERR Missing open parenthesis 4-4", NULL},
        {"[a::b, 1]", "ERR Missing open parenthesis 5-6", NULL},
        {"a:::b()", "ERR Missing function name 3-4", NULL},
        {"a ? b :: c", "ERR Missing open parenthesis 10-10", "ERR Invalid expression 7-8"},
        {"::a()", "ERR Invalid expression 0-2", "ERR Invalid expression 0-1"},
        {"a[\"$${x}\"]", "(scope-traversal a (index \"${x}\"))",
         "(index (scope-traversal a) (template (literal \"${\") (literal \"x}\")))"},
        {"a[\"%%{x}y\"].b", "(scope-traversal a (index \"%{x}y\") .b)", NULL},
        {"a[<<EOT\nx\ny\nEOT\n]", "(scope-traversal a (index \"x\\ny\\n\"))", NULL},
        {"\"a$${b}${c}d\"", "(template (literal \"a${b}\") (scope-traversal c) (literal \"d\"))",
         "(template (literal \"a\") (literal \"${\") (literal \"b}\") (scope-traversal c) "
         "(literal \"d\"))"},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *pn = profile_outcome(cases[i].src, true);
        char *p14 = profile_outcome(cases[i].src, false);

        CHECK_STR(pn, cases[i].pn);
        if (cases[i].p14 != NULL)
            CHECK_STR(p14, cases[i].p14);
        free(pn);
        free(p14);
    }

    /* [ast.print] a namespaced call prints as its whole name, which
     * parses back (as PN) to an equal tree */
    {
        tfx_arena *arena = tfx_arena_new(0);
        tfx_diags diags;
        const char *text = "x :: y(a::b(1), c :: d()...)";
        tfx_node *a;
        tfx_node *b = NULL;
        char *printed = NULL;

        tfx_diags_init(&diags, arena);
        a = tfx_parse_profile(arena, (const unsigned char *)text, strlen(text), TFX_LEX_EXPRESSION,
                              0, true, &diags);
        if (a != NULL && !tfx_diags_has_errors(&diags))
            printed = tfx_ast_print(a);
        if (printed != NULL)
            b = tfx_parse_profile(arena, (const unsigned char *)printed, strlen(printed),
                                  TFX_LEX_EXPRESSION, 0, true, &diags);
        CHECK_STR(printed, "x::y(a::b(1), c::d()...)");
        CHECK(b != NULL && !tfx_diags_has_errors(&diags) && tfx_ast_equal(a, b));
        free(printed);
        tfx_arena_free(arena);
    }

    /* the call's ranges: the name from its first part to its last */
    {
        tfx_arena *arena = tfx_arena_new(0);
        tfx_diags diags;
        const char *text = "x + a :: b(1)";
        tfx_node *root;

        tfx_diags_init(&diags, arena);
        root = tfx_parse_profile(arena, (const unsigned char *)text, strlen(text),
                                 TFX_LEX_EXPRESSION, 0, true, &diags);
        CHECK(root != NULL && !tfx_diags_has_errors(&diags) && root->kind == TFX_NODE_BINARY_OP);
        if (root != NULL && root->kind == TFX_NODE_BINARY_OP) {
            const tfx_node *call = root->as.op.rhs;

            CHECK(call->kind == TFX_NODE_FUNCTION_CALL && call->as.call.nname == 4
                  && memcmp(call->as.call.name, "a::b", 4) == 0);
            CHECK(call->as.call.name_range.start.byte == 4 && call->as.call.name_range.end.byte == 10);
            CHECK(call->range.start.byte == 4 && call->range.end.byte == 13);
            CHECK(call->as.call.open_range.start.byte == 10);
        }
        tfx_arena_free(arena);
    }
}

/* A random source of operator chains: mostly operands and binary
 * operators in turn, sometimes another piece: an operand with an error
 * that does or does not start recovery, a unary operator, a conditional,
 * brackets, a stray token, a newline or a comment. */
static size_t random_chain(unsigned long *seed, char *out, size_t cap)
{
    static const char *const operands[] = {
        "1", "a", "a.b", "x[0]", "f(1)", "\"s\"", "\"${a}\"", "true", "null", "(1)", "-1",
        "!b", "a[*].b", "a.*.b", "[1, 2]", "{k = 1}", "(a + b)", "x ? y : z",
    };
    static const char *const operators[] = {
        "+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||",
    };
    static const char *const others[] = {
        "\"\\q\"", "1e99999999999", "a.", "(", ")", "[", "]", "{", "}", ",", "?", ":",
        "!", "-", "\n", "# c\n", "/* c */", "...", "=>", "=", "f(", "@", "(1", "[for",
        "a ?", "\"${", "}\"", "\"\\q\" ? 1 :", "x[*", "a.*.", "<<EOT\nx\nEOT\n",
    };
    size_t nchosen = 1 + (size_t)(*seed % 23);
    size_t len = 0;
    size_t i;

    for (i = 0; i < nchosen; i++) {
        const char *piece;
        size_t k;

        *seed = *seed * 6364136223846793005UL + 1442695040888963407UL;
        k = (size_t)(*seed >> 33);
        if (k % 8 == 0)
            piece = others[(k / 8) % (sizeof(others) / sizeof(others[0]))];
        else if (i % 2 == 0)
            piece = operands[(k / 8) % (sizeof(operands) / sizeof(operands[0]))];
        else
            piece = operators[(k / 8) % (sizeof(operators) / sizeof(operators[0]))];
        if (len + strlen(piece) + 2 >= cap)
            break;
        memcpy(out + len, piece, strlen(piece));
        len += strlen(piece);
        out[len++] = ' ';
    }
    out[len] = '\0';
    return len;
}

/* The tree (with ranges) and the diagnostics of a parse, as one string. */
static char *parse_outcome(const char *text, size_t n, tfx_lex_mode mode, bool general, bool pn)
{
    tfx_arena *arena = tfx_arena_new(0);
    tfx_diags diags;
    tfx_node *root;
    char *tree;
    char *out;
    size_t len;
    size_t i;

    tfx_diags_init(&diags, arena);
    root = general ? tfx_parse_general_profile(arena, (const unsigned char *)text, n, mode, 8, pn, &diags)
                   : tfx_parse_profile(arena, (const unsigned char *)text, n, mode, 8, pn, &diags);
    tree = root != NULL ? tfx_ast_sexpr(root, true) : NULL;
    len = (tree != NULL ? strlen(tree) : 0) + 64 + diags.n * 400;
    out = malloc(len);
    if (out == NULL) {
        free(tree);
        tfx_arena_free(arena);
        return NULL;
    }
    snprintf(out, len, "%s\n", tree != NULL ? tree : "(none)");
    for (i = 0; i < diags.n; i++) {
        const tfx_diag *d = &diags.items[i];
        size_t used = strlen(out);

        snprintf(out + used, len - used, "%.200s %zu-%zu %zu:%zu %zu-%zu\n", d->summary,
                 d->subject.start.byte, d->subject.end.byte, d->subject.start.line,
                 d->subject.start.column, d->context.start.byte, d->context.end.byte);
    }
    free(tree);
    tfx_arena_free(arena);
    return out;
}

/* Parses text by tfx_parse and by tfx_parse_general and compares the
 * outcomes; a difference is counted in *differ, the first three shown. */
static void compare_paths_profile(const char *what, const char *text, size_t n, tfx_lex_mode mode,
                                  bool pn, int *differ)
{
    char *fast = parse_outcome(text, n, mode, false, pn);
    char *general = parse_outcome(text, n, mode, true, pn);

    CHECK(fast != NULL && general != NULL);
    if (fast != NULL && general != NULL && strcmp(fast, general) != 0 && (*differ)++ < 3)
        fprintf(stderr, "%s fast path differs on: %s\nfast:\n%sgeneral:\n%s", what, text, fast, general);
    free(fast);
    free(general);
}

/* compare_paths_profile in profile P14. */
static void compare_paths(const char *what, const char *text, size_t n, tfx_lex_mode mode,
                          int *differ)
{
    compare_paths_profile(what, text, n, mode, false, differ);
}

/* compare_paths on 60,000 expressions made by gen from a seed. */
static void compare_random_expressions(const char *what,
                                       size_t (*gen)(unsigned long *, char *, size_t),
                                       unsigned long seed)
{
    char text[512];
    int i;
    int differ = 0;

    for (i = 0; i < 60000; i++) {
        size_t n;

        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        n = gen(&seed, text, sizeof(text));
        compare_paths(what, text, n, TFX_LEX_EXPRESSION, &differ);
    }
    CHECK(differ == 0);
}

/* [gram.binary] [gram.prec] tfx_p_binary's single loop (precedence
 * climbing) gives the tree, ranges and diagnostics of the grammar's rule
 * as written (tfx_parse_general), on random operator chains with errors in
 * and out of recovery; the nesting limit is low so that it is reached. */
static void test_binary_fast_path(void)
{
    compare_random_expressions("binary", random_chain, 12);
}

/* A random template text: literal bytes (escapes, '$' and '%' alone,
 * doubled and before braces, line endings, white space, non-ASCII), with
 * sequences, strip markers and directives among them. */
static size_t random_template(unsigned long *seed, char *out, size_t cap)
{
    static const char *const pieces[] = {
        "a", "b c", " ", "\t", "\n", "\r\n", "$", "%", "$$", "%%", "$${", "%%{", "{", "}",
        "\\", "\\n", "\\u00e9", "\\U0001F600", "\\q", "\\u12", "\"", "\u00e9", "e\u0301",
        "${a}", "${~ a ~}", "%{ if a }", "%{ else }", "%{ endif }", "%{ for x in y ~}", "%{~ endfor }",
        "${", "~}", "\xff", "    ",
        /* white space beyond ASCII, and a space with a combining mark */
        "\u00a0", "\u2003", "\xc2\x85", " \u0301", "\v\f",
    };
    size_t nchosen = (size_t)(*seed % 19);
    size_t len = 0;
    size_t i;

    for (i = 0; i < nchosen; i++) {
        const char *piece;

        *seed = *seed * 6364136223846793005UL + 1442695040888963407UL;
        piece = pieces[(size_t)(*seed >> 33) % (sizeof(pieces) / sizeof(pieces[0]))];
        if (len + strlen(piece) + 1 >= cap)
            break;
        memcpy(out + len, piece, strlen(piece));
        len += strlen(piece);
    }
    out[len] = '\0';
    return len;
}

/* [tmpl.literal] Literal text decoded at once where it holds nothing to
 * decode (plain_literal) gives what slice-by-slice decoding gives, a
 * quoted string of one literal (single_literal) the template the part
 * list gives, and [tmpl.strip] [tmpl.heredoc.flush] white space counted by
 * space_prefix's
 * ASCII fast path is what tfx_text_space_prefix counts: random template
 * texts as bare templates, quoted strings and heredocs (flush and not),
 * compared with tfx_parse_general. */
static void test_literal_fast_path(void)
{
    unsigned long seed = 7;
    char body[256];
    char text[400];
    int i;
    int differ = 0;

    for (i = 0; i < 40000; i++) {
        size_t n = random_template(&seed, body, sizeof(body));
        tfx_lex_mode mode = TFX_LEX_EXPRESSION;

        switch (i % 4) {
        case 0:
            memcpy(text, body, n + 1);
            mode = TFX_LEX_TEMPLATE;
            break;
        case 1:
            n = (size_t)snprintf(text, sizeof(text), "\"%s\"", body);
            break;
        case 2:
            n = (size_t)snprintf(text, sizeof(text), "<<EOT\n%s\nEOT\n", body);
            break;
        default:
            n = (size_t)snprintf(text, sizeof(text), "<<-EOT\n  %s\n    %s\n  EOT\n", body, body);
            break;
        }
        compare_paths("literal", text, n, mode, &differ);
    }
    CHECK(differ == 0);
}

/* Whether every string literal in the templates of n has the value of
 * its text as it ended up (a strip marker after it shortens the text,
 * and the value must be worked out after that): for ASCII text, its NFC
 * form is the text itself. */
static bool literal_values_current(const tfx_node *n)
{
    size_t i;

    if (n == NULL)
        return true;
    switch (n->kind) {
    case TFX_NODE_LITERAL:
        if (n->as.literal.kind != TFX_LIT_STRING || n->as.literal.value.nfc.s == NULL)
            return true;
        for (i = 0; i < n->as.literal.ntext; i++)
            if ((unsigned char)n->as.literal.text[i] >= 0x80)
                return true;
        return n->as.literal.value.nfc.n == n->as.literal.ntext
               && memcmp(n->as.literal.value.nfc.s, n->as.literal.text, n->as.literal.ntext) == 0;
    case TFX_NODE_TEMPLATE:
        for (i = 0; i < n->as.template.nparts; i++)
            if (!literal_values_current(n->as.template.parts[i]))
                return false;
        return true;
    case TFX_NODE_TEMPLATE_WRAP:
        return literal_values_current(n->as.wrap.wrapped);
    case TFX_NODE_TEMPLATE_JOIN:
        return literal_values_current(n->as.join.tuple);
    case TFX_NODE_FOR:
        return literal_values_current(n->as.for_expr.value);
    case TFX_NODE_CONDITIONAL:
        return literal_values_current(n->as.conditional.true_result)
               && literal_values_current(n->as.conditional.false_result);
    default:
        return true;
    }
}

/* tfx_parse of text: whether its template literals' values are current. */
static bool fast_literal_values_current(const char *text, size_t n, tfx_lex_mode mode)
{
    tfx_arena *arena = tfx_arena_new(0);
    tfx_diags diags;
    bool ok;

    if (arena == NULL)
        return false;
    tfx_diags_init(&diags, arena);
    ok = literal_values_current(tfx_parse(arena, (const unsigned char *)text, n, mode, 8, &diags));
    tfx_arena_free(arena);
    return ok;
}

/* [tmpl.parts] [tmpl.if] [tmpl.for] Pass 3 run early on the parts of a
 * large template that have settled (settle_parts) makes the tree and the
 * diagnostics that pass 3 at the end makes: long random templates of
 * random pieces and of directive blocks, nested (deeper than the depth
 * limit of 8 at times), balanced or not, as bare templates, quoted
 * strings and heredocs, compared with tfx_parse_general. */
static void test_settle_fast_path(void)
{
    static const char *const opens[] = {"%{ if a }", "%{ for x in y ~}", "%{~ if b ~}"};
    static const char *const mids[] = {"t", "${x}", "t ", " ${~ z }", "%{ else }"};
    static const char *const closes[] = {"%{ endif }", "%{~ endfor }", "%{ endif ~}"};
    /* texts the lexer splits into several literal tokens, which profile
     * PN melds into one part [tmpl.pn.meld] */
    static const char *const runs[] = {"% ", "$ ", "a$${b}", "%%{ c } ", "$$", "%"};
    unsigned long seed = 11;
    char body[4096];
    char text[4200];
    int i;
    size_t j;
    int differ = 0;

    /* all parts settled but one interpolation: still a template, not
     * that interpolation's own value */
    for (j = 0; j < 33; j++)
        memcpy(text + 4 * j, "${x}", 4);
    text[(size_t)4 * 33] = '\0';
    compare_paths("settle", text, (size_t)4 * 33, TFX_LEX_TEMPLATE, &differ);
    for (i = 0; i < 3000; i++) {
        size_t n = 0;
        size_t open[16] = {0};
        size_t nopen = 0;

        while (n + 300 < sizeof(body)) {
            size_t r;

            seed = seed * 6364136223846793005UL + 1442695040888963407UL;
            r = (size_t)(seed >> 33) % 48;
            if (r < 1) {
                n += random_template(&seed, body + n, sizeof(body) - n);
            } else if (r < 10 && nopen < 16) {
                size_t k = (size_t)(seed >> 40) % 3;

                open[nopen++] = k;
                n += (size_t)snprintf(body + n, sizeof(body) - n, "%s", opens[k]);
            } else if (r < 30 && (seed >> 56) % 4 == 0) {
                n += (size_t)snprintf(body + n, sizeof(body) - n, "%s", runs[(size_t)(seed >> 40) % 6]);
            } else if (r < 30) {
                /* an else mostly where it belongs: before an if's end */
                n += (size_t)snprintf(body + n, sizeof(body) - n, "%s", mids[(size_t)(seed >> 40) % ((seed >> 47) % 32 == 0 ? 5 : 4)]);
            } else if (r < 40 && nopen > 0) {
                /* mostly the matching close, sometimes the other one */
                size_t k = open[--nopen];

                if ((seed >> 45) % 64 == 0)
                    k = (k + 1) % 3;
                n += (size_t)snprintf(body + n, sizeof(body) - n, "%s%s",
                                      k != 1 && (seed >> 52) % 2 == 0 ? "%{ else }e " : "", closes[k]);
            } else {
                n += (size_t)snprintf(body + n, sizeof(body) - n, "line ${v}\n");
            }
        }
        while (nopen > 0 && (seed >> 50) % 4 != 0)
            n += (size_t)snprintf(body + n, sizeof(body) - n, "%s", closes[open[--nopen]]);
        body[n] = '\0';
        switch (i % 3) {
        case 0:
            memcpy(text, body, n + 1);
            compare_paths("settle", text, n, TFX_LEX_TEMPLATE, &differ);
            compare_paths_profile("settle PN", text, n, TFX_LEX_TEMPLATE, true, &differ);
            CHECK(fast_literal_values_current(text, n, TFX_LEX_TEMPLATE));
            break;
        case 1:
            n = (size_t)snprintf(text, sizeof(text), "\"%s\"", body);
            compare_paths("settle", text, n, TFX_LEX_EXPRESSION, &differ);
            compare_paths_profile("settle PN", text, n, TFX_LEX_EXPRESSION, true, &differ);
            CHECK(fast_literal_values_current(text, n, TFX_LEX_EXPRESSION));
            break;
        default:
            n = (size_t)snprintf(text, sizeof(text), "<<EOT\n%s\nEOT\n", body);
            compare_paths("settle", text, n, TFX_LEX_EXPRESSION, &differ);
            compare_paths_profile("settle PN", text, n, TFX_LEX_EXPRESSION, true, &differ);
            break;
        }
    }
    CHECK(differ == 0);
}

/* [tmpl.heredoc.flush] [tmpl.strip] space_prefix's ASCII fast path counts
 * the white space tfx_text_space_prefix counts, and indent_columns and
 * indent_bytes count the clusters tfx_text_count_graphemes and
 * tfx_text_skip_graphemes count: "<<-" heredocs whose lines begin with
 * random runs of white space, ASCII and not (CR, combining marks), after
 * strip markers too, compared with tfx_parse_general. */
static void test_space_fast_path(void)
{
    static const char *const spaces[] = {
        " ", "\t", "\v", "\f", "\u00a0", "\u2003", "\xc2\x85", " \u0301", "\u00e9", "\r",
        "\u0301",
    };
    static const char *const tails[] = {"x", "${a ~}", "%{ if a ~}", "%{ endif }", "", "~} y"};
    unsigned long seed = 5;
    char text[400];
    int i;
    int differ = 0;

    for (i = 0; i < 20000; i++) {
        size_t n = 0;
        int line;

        n += (size_t)snprintf(text + n, sizeof(text) - n, "<<-EOT\n");
        for (line = 0; line < 3; line++) {
            size_t k;
            size_t nspaces;

            seed = seed * 6364136223846793005UL + 1442695040888963407UL;
            nspaces = (size_t)(seed >> 33) % 5;
            for (k = 0; k < nspaces; k++) {
                seed = seed * 6364136223846793005UL + 1442695040888963407UL;
                n += (size_t)snprintf(text + n, sizeof(text) - n, "%s",
                                      spaces[(size_t)(seed >> 33) % (sizeof(spaces) / sizeof(spaces[0]))]);
            }
            seed = seed * 6364136223846793005UL + 1442695040888963407UL;
            n += (size_t)snprintf(text + n, sizeof(text) - n, "%s\n",
                                  tails[(size_t)(seed >> 33) % (sizeof(tails) / sizeof(tails[0]))]);
        }
        n += (size_t)snprintf(text + n, sizeof(text) - n, "EOT\n");
        compare_paths("space", text, n, TFX_LEX_EXPRESSION, &differ);
    }
    CHECK(differ == 0);
}

/* A random nest of brackets, calls and objects whose items are terms,
 * continued (a traversal, an operator, a '?') or not, with stray tokens. */
static size_t random_nest(unsigned long *seed, char *out, size_t cap)
{
    static const char *const pieces[] = {
        "(", "[", "{", "{k = ", "f(", ")", "]", "}", ",", "x", "1", "\"s\"", ".a", "[0]",
        "[*]", "+ 1", "* y", "? 1 : 2", "?", ":", "\n", "...", "!", "-", "=", "@", "true",
        "for x in y :", "a.b[1]", "(1)", "[for v in w : v]", "\"${", "}\"", "# c\n",
    };
    size_t nchosen = 1 + (size_t)(*seed >> 33) % 24;
    size_t n = 0;
    size_t k;

    for (k = 0; k < nchosen; k++) {
        const char *piece;

        *seed = *seed * 6364136223846793005UL + 1442695040888963407UL;
        piece = pieces[(size_t)(*seed >> 33) % (sizeof(pieces) / sizeof(pieces[0]))];
        if (n + strlen(piece) + 2 >= cap)
            break;
        n += (size_t)snprintf(out + n, cap - n, "%s ", piece);
    }
    return n;
}

/* [gram.cond] [gram.binary] expression_fast: an expression that is one
 * term, or a term that a traversal, an operator or a '?' continues, gives
 * the tree, ranges and diagnostics of tfx_parse_general, on random nests
 * (random_nest) with errors in and out of recovery (the nesting limit of 8
 * reached too). */
static void test_expression_fast_path(void)
{
    compare_random_expressions("expression", random_nest, 21);
}

int main(void)
{
    test_deep_nesting();
    test_depth_limit_is_settable();
    test_size_limits();
    test_print_round_trip();
    test_dumps_and_rendering();
    test_render_profile();
    test_profile_pn();
    test_binary_fast_path();
    test_literal_fast_path();
    test_settle_fast_path();
    test_space_fast_path();
    test_expression_fast_path();
    return check_report("test_parse");
}
