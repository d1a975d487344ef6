/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_lex.c — the lexer's fast paths against its general path: random
 * inputs lexed by tfx_lex (first-byte dispatch, literal runs scanned once,
 * columns counted only where a token needs it) and by tfx_lex_general
 * (every rule of the state tried, the longest match kept
 * [lex.longest-match]) must give the same tokens, kinds, offsets, lines
 * and columns, in both modes.  Upstream's lexer is compared with ours by
 * `make lexdiff`.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "ast.h"
#include "check.h"
#include "lex.h"

/* xorshift64*: deterministic, the same sequence on every machine. */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Du;
}

static size_t rnd_below(size_t n)
{
    return (size_t)(rnd() % n);
}

/* Pieces the lexer's rules turn on: every state's openers and closers,
 * escapes, operators, numbers, comments, line endings, heredoc markers,
 * identifier characters beyond ASCII, combining marks (clusters of several
 * code points), and bytes that are not UTF-8. */
static const char *const pieces[] = {
    " ", "  ", "\t", "\n", "\r\n", "\r", "a", "Z", "_", "x-y", "abc", "-", "0", "12", "1.5",
    "1e3", "2E-", "3e+4", ".", "..", "...", "=", "==", "=>", "!", "!=", "<", "<=", ">", ">=",
    "&", "&&", "|", "||", "~", "~}", "{", "}", "[", "]", "(", ")", ",", ":", "?", "+", "*",
    "/", "%", "^", ";", "`", "'", "#", "//", "/*", "*/", "\"", "\\", "\\\"", "\\n", "\\$",
    "$", "${", "${~", "%{", "%{~", "$${", "%%{", "$$", "<<EOT\n", "<<-EOT\n", "EOT", "  EOT\n",
    "<<X\r\n", "X", "\xC3\xA9", "e\xCC\x81", "\xE2\x80\x9C", "\xF0\x9F\x98\x80", "\x80", "\xFF",
    "\xC3", "\xE2\x80", "\x00", "\x7F", "\xEF\xBB\xBF", "\xCC\x81", "\\\xC3\xA9",
    "::", ":::",
};

/* A random input of up to max_pieces: mostly pieces, sometimes any byte. */
static size_t random_input(unsigned char *buf, size_t cap, size_t max_pieces)
{
    size_t n = 0;
    size_t count = 1 + rnd_below(max_pieces);

    while (count-- > 0) {
        if (rnd_below(8) == 0) {
            if (n < cap)
                buf[n++] = (unsigned char)rnd_below(256);
        } else {
            const char *p = pieces[rnd_below(sizeof(pieces) / sizeof(pieces[0]))];
            size_t len = p[0] == '\0' ? 1 : strlen(p);   /* "\x00" is one NUL byte */

            size_t k;

            if (n + len > cap)
                break;
            for (k = 0; k < len; k++)
                buf[n++] = (unsigned char)p[k];
        }
    }
    return n;
}

/* Whether a token of t is one that tfx_lex_check reports: what
 * t->error_tokens says. */
static bool has_error_token(const tfx_tokens *t)
{
    size_t i;

    for (i = 0; i < t->n; i++)
        if (tfx_token_error_in_itself((tfx_token_kind)t->items[i].kind))
            return true;
    return false;
}

static bool same_tokens(const tfx_tokens *a, const tfx_tokens *b)
{
    size_t i;

    if (a->n != b->n || a->error_tokens != b->error_tokens || a->error_tokens != has_error_token(a))
        return false;
    for (i = 0; i < a->n; i++) {
        const tfx_lexeme *x = &a->items[i];
        const tfx_lexeme *y = &b->items[i];

        if (x->kind != y->kind || x->start != y->start || x->end != y->end
            || x->line != y->line || x->column != y->column)
            return false;
    }
    return true;
}

static void print_input(const unsigned char *s, size_t n)
{
    size_t i;

    fprintf(stderr, "  input: \"");
    for (i = 0; i < n; i++)
        fprintf(stderr, s[i] >= 0x20 && s[i] < 0x7F && s[i] != '"' && s[i] != '\\' ? "%c" : "\\x%02X", s[i]);
    fprintf(stderr, "\"\n");
}

/* Lexes s both ways in mode; true when they agree. */
static bool agree(const unsigned char *s, size_t n, tfx_lex_mode mode)
{
    tfx_arena *arena = tfx_arena_new(0);
    tfx_tokens fast;
    tfx_tokens general;
    bool ok = arena != NULL && tfx_lex(arena, s, n, mode, &fast)
              && tfx_lex_general(arena, s, n, mode, &general) && same_tokens(&fast, &general);

    tfx_arena_free(arena);
    return ok;
}

static void test_fast_equals_general(void)
{
    unsigned char buf[256];
    int failures = 0;
    int i;

    for (i = 0; i < 200000; i++) {
        size_t n = random_input(buf, sizeof(buf), 24);
        tfx_lex_mode mode = i % 2 == 0 ? TFX_LEX_EXPRESSION : TFX_LEX_TEMPLATE;

        if (!agree(buf, n, mode)) {
            if (failures++ < 5) {
                fprintf(stderr, "test_lex: fast and general lexing differ (%s mode)\n",
                        mode == TFX_LEX_EXPRESSION ? "expression" : "template");
                print_input(buf, n);
            }
        }
    }
    CHECK(failures == 0);
}

/* Long random inputs: many states opened and closed in one input, runs
 * that cross the stretches tfx_lex checks the room for tokens in, and
 * token arrays that grow while a run goes on. */
static void test_long_inputs(void)
{
    static unsigned char buf[8192];
    int failures = 0;
    int i;

    for (i = 0; i < 4000; i++) {
        size_t n = random_input(buf, sizeof(buf), 2000);
        tfx_lex_mode mode = i % 2 == 0 ? TFX_LEX_EXPRESSION : TFX_LEX_TEMPLATE;

        if (!agree(buf, n, mode)) {
            if (failures++ < 3) {
                fprintf(stderr, "test_lex: fast and general lexing differ (%s mode, long input)\n",
                        mode == TFX_LEX_EXPRESSION ? "expression" : "template");
                print_input(buf, n);
            }
        }
    }
    CHECK(failures == 0);
}

/* [eval.start-range] tfx_node_lead_range takes the `[` or `{` that opens
 * a tuple or object constructor, and the `-` or `!` of a unary operation,
 * to end a byte and a column after it starts, on its line, in a source
 * without syntax errors: so it does in random inputs that hold no token
 * that is an error in itself (a combining mark after it is an invalid
 * token). */
static void test_open_bracket_ranges(void)
{
    unsigned char buf[256];
    int failures = 0;
    size_t checked = 0;
    int i;

    for (i = 0; i < 200000; i++) {
        size_t n = random_input(buf, sizeof(buf), 12);
        tfx_arena *arena = tfx_arena_new(0);
        tfx_tokens t;
        size_t k;

        if (arena == NULL || !tfx_lex(arena, buf, n, i % 2 == 0 ? TFX_LEX_EXPRESSION : TFX_LEX_TEMPLATE, &t)
            || t.error_tokens) {
            tfx_arena_free(arena);
            continue;
        }
        for (k = 0; k < t.n; k++) {
            tfx_token tok = tfx_token_at(&t, k);
            tfx_node node;
            tfx_range r;

            if (tok.kind != TFX_TOK_OBRACK && tok.kind != TFX_TOK_OBRACE && tok.kind != TFX_TOK_MINUS
                && tok.kind != TFX_TOK_BANG)
                continue;
            node.range = tok.range;
            r = tfx_node_lead_range(&node);
            checked++;
            if (memcmp(&r, &tok.range, sizeof(r)) != 0 && failures++ < 3) {
                fprintf(stderr, "test_lex: a leading token at byte %zu ends elsewhere\n", tok.range.start.byte);
                print_input(buf, n);
            }
        }
        tfx_arena_free(arena);
    }
    CHECK(failures == 0);
    CHECK(checked > 1000);
}

/* Every byte value after every prefix that opens a state, so that each
 * first-byte class and each byte ending a run is met. */
static void test_every_byte(void)
{
    static const char *const prefixes[] = {"", "a", "a-", "1", "\"", "\"a", "\"\\", "<<E\n", "<<E\nx",
                                           "${", "=", "<", ".", "\"$", "<<E\n$", "x\r", "\"${",
                                           "\"${a}", "<<E\n${a}", "<<E\na${", "%{ a ~", "{", "\"${{"};
    int failures = 0;
    size_t p;
    int c;
    int d;

    for (p = 0; p < sizeof(prefixes) / sizeof(prefixes[0]); p++) {
        for (c = 0; c < 256; c++) {
            for (d = 0; d < 256; d += 17) {
                unsigned char buf[32];
                size_t len = strlen(prefixes[p]);

                memcpy(buf, prefixes[p], len);
                buf[len] = (unsigned char)c;
                buf[len + 1] = (unsigned char)d;
                buf[len + 2] = 'z';
                if (!agree(buf, len + 3, TFX_LEX_EXPRESSION) || !agree(buf, len + 3, TFX_LEX_TEMPLATE)
                    || !agree(buf, len + 1, TFX_LEX_EXPRESSION) || !agree(buf, len + 1, TFX_LEX_TEMPLATE)) {
                    if (failures++ < 5) {
                        fprintf(stderr, "test_lex: fast and general lexing differ\n");
                        print_input(buf, len + 3);
                    }
                }
            }
        }
    }
    CHECK(failures == 0);
}

/* A few tokens by hand, so that a lexer broken both ways is noticed. */
static void test_examples(void)
{
    static const unsigned char src[] = "a.b[0] == \"x${y}\"";
    static const char *const want[] = {"Ident", "Dot", "Ident", "OBrack", "NumberLit", "CBrack",
                                       "EqualOp", "OQuote", "QuotedLit", "TemplateInterp", "Ident",
                                       "TemplateSeqEnd", "CQuote", "EOF"};
    tfx_arena *arena = tfx_arena_new(0);
    tfx_tokens t;
    size_t i;

    if (arena == NULL || !tfx_lex(arena, src, sizeof(src) - 1, TFX_LEX_EXPRESSION, &t)) {
        CHECK(!"lexes");
        tfx_arena_free(arena);
        return;
    }
    CHECK(t.n == sizeof(want) / sizeof(want[0]));
    for (i = 0; i < t.n && i < sizeof(want) / sizeof(want[0]); i++)
        CHECK_STR(tfx_token_name((tfx_token_kind)t.items[i].kind), want[i]);
    CHECK(t.n > 12 && t.items[12].start == 16 && t.items[12].column == 17);
    tfx_arena_free(arena);
}

/* [lex.pn.double-colon] Profile PN's tokens on random inputs: no two
 * Colon tokens touch after the join, every DoubleColon is the bytes "::",
 * and splitting each DoubleColon again gives P14's tokens back (so
 * nothing else moved). */
static void test_double_colons(void)
{
    unsigned char buf[256];
    int failures = 0;

    for (int i = 0; i < 50000; i++) {
        size_t n = random_input(buf, sizeof(buf), 24);
        tfx_lex_mode mode = i % 2 == 0 ? TFX_LEX_EXPRESSION : TFX_LEX_TEMPLATE;
        tfx_arena *arena = tfx_arena_new(0);
        tfx_tokens p14;
        tfx_tokens pn;
        bool ok = arena != NULL && tfx_lex(arena, buf, n, mode, &p14)
                  && tfx_lex(arena, buf, n, mode, &pn);
        size_t j = 0;

        if (ok)
            tfx_lex_join_double_colons(&pn);
        for (size_t k = 0; ok && k < pn.n; k++) {
            const tfx_lexeme *t = &pn.items[k];

            if (t->kind == TFX_TOK_DOUBLE_COLON) {
                ok = t->end == t->start + 2 && memcmp(buf + t->start, "::", 2) == 0
                     && j + 1 < p14.n && p14.items[j].kind == TFX_TOK_COLON
                     && p14.items[j + 1].kind == TFX_TOK_COLON
                     && p14.items[j].start == t->start && p14.items[j + 1].end == t->end
                     && p14.items[j].line == t->line && p14.items[j].column == t->column;
                j += 2;
            } else {
                ok = j < p14.n && memcmp(&p14.items[j], t, sizeof(*t)) == 0
                     && !(t->kind == TFX_TOK_COLON && k + 1 < pn.n
                          && pn.items[k + 1].kind == TFX_TOK_COLON
                          && pn.items[k + 1].start == t->end);
                j++;
            }
        }
        ok = ok && j == p14.n;
        if (!ok && failures++ < 5) {
            fprintf(stderr, "test_lex: PN's double colons wrong\n");
            print_input(buf, n);
        }
        tfx_arena_free(arena);
    }
    CHECK(failures == 0);
}

/* [lex.pn.double-colon] by hand: where "::" is one token in PN. */
static void test_double_colon_examples(void)
{
    static const struct {
        const char *src;
        tfx_lex_mode mode;
        const char *kinds;   /* the token kinds' initials, EOF left out */
    } cases[] = {
        {"a::b", TFX_LEX_EXPRESSION, "I::I"},
        {"a:::b", TFX_LEX_EXPRESSION, "I:::I"},
        {"a: :b", TFX_LEX_EXPRESSION, "I::I"},
        {"\"a::b\"", TFX_LEX_EXPRESSION, "\"Q\""},
        {"${a::b}::", TFX_LEX_TEMPLATE, "$I::I}S"},
        {"::::", TFX_LEX_EXPRESSION, "::::"},
    };

    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        tfx_arena *arena = tfx_arena_new(0);
        tfx_tokens t;
        char got[32];
        size_t at = 0;

        if (arena == NULL
            || !tfx_lex(arena, (const unsigned char *)cases[c].src, strlen(cases[c].src),
                        cases[c].mode, &t)) {
            CHECK(!"lexes");
            tfx_arena_free(arena);
            continue;
        }
        tfx_lex_join_double_colons(&t);
        for (size_t i = 0; i + 1 < t.n && at + 2 < sizeof(got); i++) {
            switch (t.items[i].kind) {
            case TFX_TOK_IDENT: got[at++] = 'I'; break;
            case TFX_TOK_COLON: got[at++] = ':'; break;
            case TFX_TOK_DOUBLE_COLON: got[at++] = ':'; got[at++] = ':'; break;
            case TFX_TOK_OQUOTE: case TFX_TOK_CQUOTE: got[at++] = '"'; break;
            case TFX_TOK_QUOTED_LIT: got[at++] = 'Q'; break;
            case TFX_TOK_TEMPLATE_INTERP: got[at++] = '$'; break;
            case TFX_TOK_TEMPLATE_SEQ_END: got[at++] = '}'; break;
            case TFX_TOK_STRING_LIT: got[at++] = 'S'; break;
            default: got[at++] = '?'; break;
            }
        }
        got[at] = '\0';
        CHECK_STR(got, cases[c].kinds);
        /* the kinds tell "::" from ": :" by count alone; the first two
         * cases' DoubleColon is one token */
        if (c == 0)
            CHECK(t.n == 4 && t.items[1].kind == TFX_TOK_DOUBLE_COLON && t.items[2].column == 4);
        if (c == 2)
            CHECK(t.n == 5 && t.items[1].kind == TFX_TOK_COLON);
        if (c == 5)
            CHECK(t.n == 3 && t.items[1].kind == TFX_TOK_DOUBLE_COLON);
        tfx_arena_free(arena);
    }
}

/* Whether two lists of diagnostics say the same. */
static bool same_diags(const tfx_diags *a, const tfx_diags *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++) {
        const tfx_diag *x = &a->items[i];
        const tfx_diag *y = &b->items[i];

        if (x->category != y->category || strcmp(x->summary, y->summary) != 0
            || strcmp(x->detail, y->detail) != 0 || x->has_subject != y->has_subject
            || memcmp(&x->subject, &y->subject, sizeof(x->subject)) != 0)
            return false;
    }
    return true;
}

/* Lexing in step (tfx_lex_step) on long random inputs, P14 and PN, with
 * a reader that drops a random number of the readable tokens each time:
 * the readable tokens, spelled out (their ends read from the next token),
 * are tfx_lex's one after another (joined for PN), the last is EOF, and
 * the reports are tfx_lex_check's. */
static void test_steps(void)
{
    static unsigned char buf[16384];
    int failures = 0;

    for (int i = 0; i < 3000; i++) {
        size_t n = random_input(buf, sizeof(buf), 4000);
        tfx_lex_mode mode = i % 2 == 0 ? TFX_LEX_EXPRESSION : TFX_LEX_TEMPLATE;
        bool pn = i % 4 >= 2;
        tfx_arena *arena = tfx_arena_new(0);
        tfx_tokens whole;
        tfx_tokens win;
        tfx_diags want;
        tfx_diags got;
        tfx_lexer *lx = NULL;
        bool ok = arena != NULL && tfx_lex(arena, buf, n, mode, &whole)
                  && (lx = tfx_lex_start(buf, n, mode, pn)) != NULL;
        size_t at = 0;       /* tokens of `whole` seen */
        size_t seen = 0;     /* readable tokens of the window seen */

        tfx_diags_init(&want, arena);
        tfx_diags_init(&got, arena);
        if (ok) {
            if (pn)
                tfx_lex_join_double_colons(&whole);
            tfx_lex_check(&whole, &want);
            ok = tfx_lex_step(lx, 0, &win, &got);
        }
        while (ok) {
            for (; ok && seen < win.n; seen++, at++) {
                tfx_token x = tfx_token_at(&win, seen);
                tfx_token y;

                ok = at < whole.n;
                if (ok) {
                    y = tfx_token_at(&whole, at);
                    ok = x.kind == y.kind && x.bytes == y.bytes && x.nbytes == y.nbytes
                         && memcmp(&x.range, &y.range, sizeof(x.range)) == 0;
                }
            }
            if (!ok || win.items[win.n - 1].kind == TFX_TOK_EOF)
                break;
            {
                size_t drop = rnd_below(win.n + 1);

                ok = tfx_lex_step(lx, drop, &win, &got);
                seen -= drop;
            }
        }
        ok = ok && at == whole.n && same_diags(&want, &got);
        if (!ok && failures++ < 3) {
            fprintf(stderr, "test_lex: lexing in step differs from tfx_lex (%s mode%s)\n",
                    mode == TFX_LEX_EXPRESSION ? "expression" : "template", pn ? ", PN" : "");
            print_input(buf, n);
        }
        tfx_lex_free(lx);
        tfx_arena_free(arena);
    }
    CHECK(failures == 0);
}

int main(void)
{
    test_double_colon_examples();
    test_double_colons();
    test_examples();
    test_fast_equals_general();
    test_long_inputs();
    test_every_byte();
    test_open_bracket_ranges();
    test_steps();
    return check_report("test_lex");
}
