/* SPDX-License-Identifier: MPL-2.0 */
/*
 * lex.c — the lexer (spec/lexical.md, rules lex.*).
 *
 * Upstream's scanner is a set of longest-match scanners, one per lexical
 * state, with a stack of states: the expression state (`main`), the inside
 * of a quoted string, the inside of a heredoc, and a bare template.  Here
 * each state is a function that looks at the input from the current offset,
 * finds every rule that matches there, and takes the longest match; on a
 * tie the rule listed first wins [lex.longest-match].  The state stack,
 * the brace counter that tells a `}` closing an interpolation from one
 * closing an object, and the stack of open heredocs follow upstream's.
 * That is the general path.  The common tokens take fast paths (see "Fast
 * paths" below) that find the same tokens from their first byte, scan
 * each byte once, and count columns only in tokens that hold non-ASCII
 * bytes or line endings; tfx_lex_general lexes without them, for tests.
 */
#include "lex.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ident_tables.h"
#include "text.h"

static const char *const token_names[] = {
#define TFX_TOK_NAME(name, str) str,
    TFX_TOKENS(TFX_TOK_NAME)
#undef TFX_TOK_NAME
};

const char *tfx_token_name(tfx_token_kind k)
{
    return (size_t)k < TFX_TOK_COUNT ? token_names[k] : "?";
}

typedef enum { ST_MAIN, ST_STRING, ST_HEREDOC, ST_BARE } scan_state;

typedef struct {
    const unsigned char *marker;
    size_t nmarker;
    bool start_of_line;
} heredoc;

/* A growable array of T in malloc'd memory. */
#define VEC(T) struct { T *items; size_t n; size_t cap; }

typedef struct {
    const unsigned char *src;   /* after the byte order mark */
    size_t n;
    size_t base;                /* bytes of the byte order mark */
    /* Where the next token starts [lex.pos]: on line `line`, and at
     * column b + colbase (modulo 2^64) if it starts at offset b.  Only
     * spaces and tabs lie between two tokens, a column each, so this
     * holds from the end of one token to the start of the next. */
    size_t line;
    size_t colbase;
    VEC(tfx_lexeme) tokens;
    VEC(scan_state) states;
    VEC(int) ret_braces;        /* brace levels whose `}` ends a sequence */
    VEC(heredoc) heredocs;
    int braces;
    bool failed;                /* malloc refused */
    bool error_tokens;          /* a token is one that tfx_lex_check reports */
    tfx_lex_mode mode;
    bool fast;                  /* the fast paths taken (else the general
                                 * scanners alone) */
    size_t pos;                 /* where lexing goes on (after the mark) */
    size_t target;              /* lex_until stops when this many tokens
                                 * are in the array */
    size_t max_stretch;         /* bytes lex_run lexes before it checks */
    bool eof;                   /* the EOF token is in the array */
    bool pn;                    /* profile PN's clusters [lex.pos.column.pn] */
} lexer;

/* Makes room for one more item in vector v; false when malloc refuses. */
#define VEC_GROW(lx, v) \
    ((v).n < (v).cap || vec_grow((lx), (void **)&(v).items, &(v).cap, sizeof(*(v).items)))

static bool vec_grow(lexer *lx, void **items, size_t *cap, size_t size)
{
    size_t ncap = *cap == 0 ? 16 : *cap * 2;
    void *p = ncap > ((size_t)-1) / size ? NULL : realloc(*items, ncap * size);

    if (p == NULL) {
        lx->failed = true;
        return false;
    }
    *items = p;
    *cap = ncap;
    return true;
}

/* ---------------------------------------------------------------------
 * Emitting tokens [lex.pos]
 * ------------------------------------------------------------------ */

/* What emit needs to know of a token's text to find where it ends
 * [lex.pos.column].  Columns count grapheme clusters; in ASCII text every
 * byte is a cluster of its own but CR LF, so a scanner that has seen
 * every byte of its token says so and saves emit a second pass. */
typedef enum {
    SHAPE_ANY,    /* anything: its clusters are counted */
    SHAPE_PLAIN,  /* ASCII without CR or LF: one column per byte */
    SHAPE_LINE    /* ASCII without CR or LF, then LF or CR LF: it ends at
                   * column 1 of the next line */
} shape;

/* Where a token of any shape that starts at `start` and covers
 * src[ts..te) ends: one column per grapheme cluster (profile PN's with
 * lx->pn, [lex.pos.column.pn]), a cluster that is a newline (LF or CR LF)
 * starting a new line. */
static tfx_pos counted_end(const lexer *lx, tfx_pos start, size_t ts, size_t te)
{
    tfx_pos end = start;
    size_t i = ts;

    while (i < te) {
        size_t len;

        /* ASCII followed by ASCII is a cluster of one byte (but CR LF is
         * one cluster); anything else asks the segmenter. */
        if (lx->src[i] < 0x80 && (i + 1 == te || (lx->src[i + 1] < 0x80
                                                  && !(lx->src[i] == '\r' && lx->src[i + 1] == '\n')))) {
            if (lx->src[i] == '\n') {
                end.line++;
                end.column = 1;
            } else {
                end.column++;
            }
            i++;
            continue;
        }
        len = tfx_text_grapheme_len_profile(lx->src + i, te - i, lx->pn);
        if ((len == 1 && lx->src[i] == '\n')
            || (len == 2 && lx->src[i] == '\r' && lx->src[i + 1] == '\n')) {
            end.line++;
            end.column = 1;
        } else {
            end.column++;
        }
        i += len;
    }
    end.byte = lx->base + te;
    return end;
}

/* Makes the token array larger; false when malloc refuses.  It grows to
 * the number of tokens the whole source would have at the density of the
 * part lexed so far (an eighth more), or to twice its size if that is
 * more: a source that needs more room than the first guess (lex_source)
 * is mostly copied once, not once per doubling, which for a large array
 * is memory traffic that instruction counts do not show. */
static bool grow_tokens(lexer *lx)
{
    size_t n = lx->tokens.n;
    size_t done = n > 0 ? lx->tokens.items[n - 1].end - lx->base : 0;
    size_t cap = lx->tokens.cap;

    if (done > 0 && n <= SIZE_MAX / lx->n) {
        size_t guess = n * lx->n / done;

        guess += guess / 8 + 16;
        if (guess / 2 > cap) {
            tfx_lexeme *p = guess <= SIZE_MAX / sizeof(*p) ? realloc(lx->tokens.items, guess * sizeof(*p)) : NULL;

            if (p != NULL) {
                lx->tokens.items = p;
                lx->tokens.cap = guess;
                return true;
            }
        }
    }
    return vec_grow(lx, (void **)&lx->tokens.items, &lx->tokens.cap, sizeof(*lx->tokens.items));
}

/* Makes room for at least k more tokens; false when malloc refuses. */
static bool token_room(lexer *lx, size_t k)
{
    while (lx->tokens.cap - lx->tokens.n < k)
        if (!grow_tokens(lx))
            return false;
    return true;
}

/* Appends a token for src[ts..te) that starts at column `column` of the
 * current line.  Every value fits: the source is at most TFX_LEX_MAX_BYTES
 * long and lines and columns never exceed offsets + 1.  Every token that
 * is an error in itself comes this way (the fast run leaves them to the
 * general path), so that tfx_lex_check need not read the array again
 * when there is none. */
static inline bool push_token(lexer *lx, tfx_token_kind kind, size_t ts, size_t te, size_t column)
{
    tfx_lexeme *t;

    if (lx->tokens.n == lx->tokens.cap && !grow_tokens(lx))
        return false;
    if (tfx_token_error_in_itself(kind))
        lx->error_tokens = true;
    t = &lx->tokens.items[lx->tokens.n++];
    t->kind = (uint32_t)kind;
    t->start = (uint32_t)(lx->base + ts);
    t->end = (uint32_t)(lx->base + te);
    t->line = (uint32_t)lx->line;
    t->column = (uint32_t)column;
    return true;
}

/* Appends a token of shape SHAPE_PLAIN: it ends on its line as many
 * columns after its start as it has bytes, so the column of the next
 * token is still found with colbase. */
static inline bool emit_plain(lexer *lx, tfx_token_kind kind, size_t ts, size_t te)
{
    return push_token(lx, kind, ts, te, lx->base + ts + lx->colbase);
}

/* Appends a token of shape SHAPE_LINE: the next token starts on the next
 * line, whose first column is at offset te. */
static inline bool emit_line(lexer *lx, tfx_token_kind kind, size_t ts, size_t te)
{
    if (!push_token(lx, kind, ts, te, lx->base + ts + lx->colbase))
        return false;
    lx->line++;
    lx->colbase = (size_t)1 - (lx->base + te);
    return true;
}

/* Appends a token of shape SHAPE_ANY: the clusters of its text tell
 * where the next token starts. */
static bool emit_counted(lexer *lx, tfx_token_kind kind, size_t ts, size_t te)
{
    tfx_pos end;

    end.byte = lx->base + ts;
    end.line = lx->line;
    end.column = end.byte + lx->colbase;
    if (!push_token(lx, kind, ts, te, end.column))
        return false;
    end = counted_end(lx, end, ts, te);
    lx->line = end.line;
    lx->colbase = end.column - end.byte;
    return true;
}

/* Appends a token for src[ts..te) of shape sh [lex.pos]; false when
 * malloc refuses. */
static inline bool emit(lexer *lx, tfx_token_kind kind, size_t ts, size_t te, shape sh)
{
    switch (sh) {
    case SHAPE_PLAIN: return emit_plain(lx, kind, ts, te);
    case SHAPE_LINE: return emit_line(lx, kind, ts, te);
    case SHAPE_ANY: default: return emit_counted(lx, kind, ts, te);
    }
}

static bool push_state(lexer *lx, scan_state s)
{
    if (!VEC_GROW(lx, lx->states))
        return false;
    lx->states.items[lx->states.n++] = s;
    return true;
}

static void pop_state(lexer *lx)
{
    if (lx->states.n > 0)
        lx->states.n--;
}

/* ---------------------------------------------------------------------
 * Character classes [lex.chars]
 * ------------------------------------------------------------------ */

/* Upstream's AnyUTF8: an ASCII byte, or a lead byte C0..F7 with the right
 * number of continuation bytes (80..BF).  Overlong forms, surrogates and
 * values above U+10FFFF pass; that is upstream's definition, not UTF-8's.
 * Returns the length of the sequence at s, 0 if there is none. */
static size_t any_utf8(const unsigned char *s, size_t n)
{
    size_t need;
    size_t i;

    if (n == 0)
        return 0;
    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xC0 && s[0] <= 0xDF)
        need = 2;
    else if (s[0] >= 0xE0 && s[0] <= 0xEF)
        need = 3;
    else if (s[0] >= 0xF0 && s[0] <= 0xF7)
        need = 4;
    else
        return 0;
    if (n < need)
        return 0;
    for (i = 1; i < need; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return need;
}

/* A character of a string literal: AnyUTF8 except CR and LF. */
static size_t string_char(const unsigned char *s, size_t n)
{
    if (n > 0 && (s[0] == '\r' || s[0] == '\n'))
        return 0;
    return any_utf8(s, n);
}

/* The length of the character of class (patterns, index) at s, 0 if none
 * [lex.ident.chars]. */
static size_t class_char(const tfx_ident_pattern *patterns,
                         const unsigned short *index,
                         const unsigned char *s, size_t n)
{
    size_t k;

    if (n == 0)
        return 0;
    for (k = index[s[0]]; k < index[s[0] + 1]; k++) {
        const tfx_ident_pattern *p = &patterns[k];
        size_t i;

        if (p->n > n)
            continue;
        for (i = 0; i < p->n; i++)
            if (s[i] < p->lo[i] || s[i] > p->hi[i])
                break;
        if (i == p->n)
            return p->n;
    }
    return 0;
}

/* ASCII characters of ID_Continue, as the tables have them: letters,
 * digits and '_' (a shortcut past the table search). */
static bool ascii_id_continue(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Ident: (ID_Start | '_') (ID_Continue | '-')* [lex.ident]. */
static size_t match_ident(const unsigned char *s, size_t n)
{
    size_t i;
    size_t len;

    if (n == 0)
        return 0;
    if (s[0] == '_')
        i = 1;
    else if ((i = class_char(id_start_patterns, id_start_index, s, n)) == 0)
        return 0;
    for (;;) {
        if (i < n && (s[i] == '-' || ascii_id_continue(s[i])))
            len = 1;
        else
            len = class_char(id_continue_patterns, id_continue_index, s + i, n - i);
        if (len == 0)
            return i;
        i += len;
    }
}

static bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* NumberLit: a digit, then any run of digits, dots and exponents
 * (e or E, an optional sign, a digit), not ending with a dot
 * [lex.number]. */
static size_t match_number(const unsigned char *s, size_t n)
{
    size_t i = 1;
    size_t last_good = 1;

    if (n == 0 || !is_digit(s[0]))
        return 0;
    while (i < n) {
        if (is_digit(s[i])) {
            i++;
            last_good = i;
        } else if (s[i] == '.') {
            i++;
        } else if ((s[i] == 'e' || s[i] == 'E') && i + 1 < n
                   && (is_digit(s[i + 1])
                       || ((s[i + 1] == '+' || s[i + 1] == '-') && i + 2 < n
                           && is_digit(s[i + 2])))) {
            i += is_digit(s[i + 1]) ? 2 : 3;
            last_good = i;
        } else {
            break;
        }
    }
    return last_good;
}

/* Comment: '#' or '//' up to and including the end of the line (which may
 * be missing at the end of input), or '/' '*' up to the first '*' '/'
 * [lex.comment].  An unterminated block comment is no comment. */
static size_t match_comment(const unsigned char *s, size_t n)
{
    size_t i;

    if (n >= 1 && s[0] == '#')
        i = 1;
    else if (n >= 2 && s[0] == '/' && s[1] == '/')
        i = 2;
    else if (n >= 2 && s[0] == '/' && s[1] == '*') {
        for (i = 2; i + 1 < n; i++)
            if (s[i] == '*' && s[i + 1] == '/')
                return i + 2;
        return 0;
    } else
        return 0;
    while (i < n && s[i] != '\n')
        i++;
    return i < n ? i + 1 : i;
}

/* Newline: LF or CR LF. */
static size_t match_newline(const unsigned char *s, size_t n)
{
    if (n >= 1 && s[0] == '\n')
        return 1;
    if (n >= 2 && s[0] == '\r' && s[1] == '\n')
        return 2;
    return 0;
}

/* '<<' '-'? Ident Newline: a heredoc introducer [lex.heredoc.open]. */
static size_t match_heredoc_open(const unsigned char *s, size_t n)
{
    size_t i = 2;
    size_t len;

    if (n < 3 || s[0] != '<' || s[1] != '<')
        return 0;
    if (s[i] == '-')
        i++;
    len = match_ident(s + i, n - i);
    if (len == 0)
        return 0;
    i += len;
    len = match_newline(s + i, n - i);
    return len == 0 ? 0 : i + len;
}

/* "${" or "%{" (lead is '$' or '%'), with an optional strip marker '~'. */
static size_t match_sequence_open(const unsigned char *s, size_t n, unsigned char lead)
{
    if (n < 2 || s[0] != lead || s[1] != '{')
        return 0;
    return n >= 3 && s[2] == '~' ? 3 : 2;
}

/* TemplateNotInterp / TemplateNotControl: a '$' (or '%') that does not
 * open a sequence.  Followed by a character other than '{' it is a
 * one-byte literal; followed by a whole "${" (or "%{", with an optional
 * '~') it is the escape "$${" of two or three more bytes.  At the end of
 * the input it matches nothing [lex.template.escape]. */
static size_t match_not_sequence(const unsigned char *s, size_t n, unsigned char lead)
{
    size_t len;

    if (n < 2 || s[0] != lead)
        return 0;
    if (s[1] != '{' && s[1] != lead)
        return 1;
    if (s[1] == '{')
        return 0;
    len = match_sequence_open(s + 1, n - 1, lead);
    return len > 0 ? 1 + len : 1;
}

/* ---------------------------------------------------------------------
 * Rules of each state
 *
 * A rule's match is (kind of action, length).  scan_* return the winner.
 * ------------------------------------------------------------------ */

typedef enum {
    ACT_NONE,            /* nothing matched: the scanner fails here */
    ACT_SKIP,            /* spaces */
    ACT_TOKEN,           /* emit a token of `kind` */
    ACT_OPEN_BRACE,
    ACT_CLOSE_BRACE,
    ACT_CLOSE_STRIP,     /* "~}" */
    ACT_OPEN_STRING,
    ACT_CLOSE_STRING,
    ACT_OPEN_HEREDOC,
    ACT_OPEN_INTERP,
    ACT_OPEN_CONTROL,
    ACT_HEREDOC_EOL,     /* heredoc literal ending with a newline */
    ACT_HEREDOC_MIDLINE  /* heredoc literal not ending with a newline */
} action;

typedef struct {
    action act;
    tfx_token_kind kind;
    size_t len;
    shape sh;            /* of the token's text, for emit */
} match;

/* Keeps `m` if it is longer than the best so far (earlier rules win
 * ties, so rules are offered in upstream's order). */
static void offer(match *best, action act, tfx_token_kind kind, size_t len)
{
    if (len > best->len) {
        best->act = act;
        best->kind = kind;
        best->len = len;
        best->sh = SHAPE_ANY;
    }
}

/* The one-byte tokens [lex.operators]: the kind of the
 * token that byte c makes alone, TFX_TOK_COUNT when it makes none.  A
 * constant expression, for the tables of the fast paths below. */
#define SELF_TOKEN(c) \
    ((c) == '[' ? TFX_TOK_OBRACK \
     : (c) == ']' ? TFX_TOK_CBRACK \
     : (c) == '(' ? TFX_TOK_OPAREN \
     : (c) == ')' ? TFX_TOK_CPAREN \
     : (c) == '.' ? TFX_TOK_DOT \
     : (c) == ',' ? TFX_TOK_COMMA \
     : (c) == '*' ? TFX_TOK_STAR \
     : (c) == '/' ? TFX_TOK_SLASH \
     : (c) == '%' ? TFX_TOK_PERCENT \
     : (c) == '+' ? TFX_TOK_PLUS \
     : (c) == '-' ? TFX_TOK_MINUS \
     : (c) == '=' ? TFX_TOK_EQUAL \
     : (c) == '<' ? TFX_TOK_LESS_THAN \
     : (c) == '>' ? TFX_TOK_GREATER_THAN \
     : (c) == '!' ? TFX_TOK_BANG \
     : (c) == '?' ? TFX_TOK_QUESTION \
     : (c) == ':' ? TFX_TOK_COLON \
     : (c) == '\n' ? TFX_TOK_NEWLINE \
     : (c) == '&' ? TFX_TOK_BITWISE_AND \
     : (c) == '|' ? TFX_TOK_BITWISE_OR \
     : (c) == '~' ? TFX_TOK_BITWISE_NOT \
     : (c) == '^' ? TFX_TOK_BITWISE_XOR \
     : (c) == ';' ? TFX_TOK_SEMICOLON \
     : (c) == '`' ? TFX_TOK_BACKTICK \
     : (c) == '\'' ? TFX_TOK_APOSTROPHE \
     : TFX_TOK_COUNT)

/* A table of f(c) for every byte value c. */
#define BYTES4(f, b) f(b), f((b) + 1), f((b) + 2), f((b) + 3)
#define BYTES16(f, b) BYTES4(f, b), BYTES4(f, (b) + 4), BYTES4(f, (b) + 8), BYTES4(f, (b) + 12)
#define BYTES64(f, b) BYTES16(f, b), BYTES16(f, (b) + 16), BYTES16(f, (b) + 32), BYTES16(f, (b) + 48)
#define BYTES256(f) BYTES64(f, 0), BYTES64(f, 64), BYTES64(f, 128), BYTES64(f, 192)

static const unsigned char self_tokens[256] = { BYTES256(SELF_TOKEN) };

static tfx_token_kind self_token(unsigned char c)
{
    return (tfx_token_kind)self_tokens[c];
}

/* Two-byte operators, and "..." [lex.operators]. */
static const struct {
    const char *text;
    tfx_token_kind kind;
} operators[] = {
    {"==", TFX_TOK_EQUAL_OP}, {"!=", TFX_TOK_NOT_EQUAL},
    {">=", TFX_TOK_GREATER_THAN_EQ}, {"<=", TFX_TOK_LESS_THAN_EQ},
    {"&&", TFX_TOK_AND}, {"||", TFX_TOK_OR}, {"...", TFX_TOK_ELLIPSIS},
    {"=>", TFX_TOK_FAT_ARROW},
};

/* The expression state [lex.main].  Rules whose first byte cannot match
 * are not tried (an ASCII byte that is not a letter or '_' starts no
 * identifier; only a digit starts a number; and so on). */
static match scan_main(const unsigned char *s, size_t n)
{
    match best = {ACT_NONE, TFX_TOK_INVALID, 0, SHAPE_ANY};
    unsigned char c = s[0];
    size_t len;
    tfx_token_kind self;

    for (len = 0; len < n && (s[len] == ' ' || s[len] == '\t'); len++)
        ;
    offer(&best, ACT_SKIP, TFX_TOK_INVALID, len);
    if (is_digit(c))
        offer(&best, ACT_TOKEN, TFX_TOK_NUMBER_LIT, match_number(s, n));
    if (c == '_' || c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
        offer(&best, ACT_TOKEN, TFX_TOK_IDENT, match_ident(s, n));
    if (c == '#' || c == '/')
        offer(&best, ACT_TOKEN, TFX_TOK_COMMENT, match_comment(s, n));
    if (c == '\n' || c == '\r')
        offer(&best, ACT_TOKEN, TFX_TOK_NEWLINE, match_newline(s, n));
    if (n >= 2 && (c == '=' || c == '!' || c == '<' || c == '>' || c == '&' || c == '|' || c == '.')) {
        for (size_t i = 0; i < sizeof(operators) / sizeof(operators[0]); i++) {
            const char *op = operators[i].text;

            len = op[2] == '\0' ? 2 : 3;
            if (n >= len && s[0] == (unsigned char)op[0] && s[1] == (unsigned char)op[1]
                && (len == 2 || s[2] == (unsigned char)op[2]))
                offer(&best, ACT_TOKEN, operators[i].kind, len);
        }
    }
    self = self_token(c);
    if (self != TFX_TOK_COUNT)
        offer(&best, ACT_TOKEN, self, 1);
    if (c == '{')
        offer(&best, ACT_OPEN_BRACE, TFX_TOK_OBRACE, 1);
    if (c == '}')
        offer(&best, ACT_CLOSE_BRACE, TFX_TOK_CBRACE, 1);
    if (n >= 2 && c == '~' && s[1] == '}')
        offer(&best, ACT_CLOSE_STRIP, TFX_TOK_TEMPLATE_SEQ_END, 2);
    if (c == '"')
        offer(&best, ACT_OPEN_STRING, TFX_TOK_OQUOTE, 1);
    if (c == '<')
        offer(&best, ACT_OPEN_HEREDOC, TFX_TOK_OHEREDOC, match_heredoc_open(s, n));
    if (c >= 0x80)
        offer(&best, ACT_TOKEN, TFX_TOK_BAD_UTF8, 1);
    offer(&best, ACT_TOKEN, TFX_TOK_INVALID, any_utf8(s, n));
    return best;
}

/* The inside of a quoted string [lex.string]. */
static match scan_string(const unsigned char *s, size_t n)
{
    match best = {ACT_NONE, TFX_TOK_INVALID, 0, SHAPE_ANY};
    size_t len = 0;

    offer(&best, ACT_OPEN_INTERP, TFX_TOK_TEMPLATE_INTERP, match_sequence_open(s, n, '$'));
    offer(&best, ACT_OPEN_CONTROL, TFX_TOK_TEMPLATE_CONTROL, match_sequence_open(s, n, '%'));
    if (s[0] == '"')
        offer(&best, ACT_CLOSE_STRING, TFX_TOK_CQUOTE, 1);
    /* A literal: "$" or "%" that opens nothing, or a run of characters and
     * backslash escapes (a backslash and any one character). */
    offer(&best, ACT_TOKEN, TFX_TOK_QUOTED_LIT, match_not_sequence(s, n, '$'));
    offer(&best, ACT_TOKEN, TFX_TOK_QUOTED_LIT, match_not_sequence(s, n, '%'));
    for (;;) {
        size_t c;

        if (len < n && s[len] == '\\')
            c = string_char(s + len + 1, n - len - 1) > 0
                ? 1 + string_char(s + len + 1, n - len - 1) : 0;
        else if (len < n && (s[len] == '$' || s[len] == '%' || s[len] == '"'))
            c = 0;
        else
            c = string_char(s + len, n - len);
        if (c == 0)
            break;
        len += c;
    }
    offer(&best, ACT_TOKEN, TFX_TOK_QUOTED_LIT, len);
    for (len = 0; len < n && (s[len] == '\r' || s[len] == '\n'); len++)
        ;
    offer(&best, ACT_TOKEN, TFX_TOK_QUOTED_NEWLINE, len);
    offer(&best, ACT_TOKEN, TFX_TOK_INVALID, any_utf8(s, n));
    if (s[0] >= 0x80)
        offer(&best, ACT_TOKEN, TFX_TOK_BAD_UTF8, 1);
    return best;
}

/* The literal of a heredoc or bare template that starts at s, and whether
 * it may run on into a line ending:
 *   - the escape "$${" or "%%{" (with an optional '~'): it may;
 *   - any other '$' or '%' followed by a byte X other than '{': just the
 *     '$', or "$X" when CR or LF follows X; it may not (what follows is
 *     lexed afresh) [lex.template.dollar];
 *   - a run of characters other than '$', '%', CR and LF: it may.
 * The length is 0 when none of these starts at s. */
static size_t template_literal(const unsigned char *s, size_t n, bool *may_end_line)
{
    size_t len = 0;

    *may_end_line = true;
    if (n >= 1 && (s[0] == '$' || s[0] == '%')) {
        if (n < 2 || s[1] == '{')
            return 0;
        if (s[1] == s[0] && (len = match_sequence_open(s + 1, n - 1, s[0])) > 0)
            return 1 + len;
        *may_end_line = false;
        return n >= 3 && (s[2] == '\r' || s[2] == '\n') ? 2 : 1;
    }
    while (len < n && s[len] != '$' && s[len] != '%') {
        size_t c = string_char(s + len, n - len);

        if (c == 0)
            break;
        len += c;
    }
    return len;
}

/* The inside of a heredoc [lex.heredoc]. */
static match scan_heredoc(const unsigned char *s, size_t n)
{
    match best = {ACT_NONE, TFX_TOK_INVALID, 0, SHAPE_ANY};
    bool may_end_line;
    size_t lit = template_literal(s, n, &may_end_line);
    size_t eol = may_end_line ? match_newline(s + lit, n - lit) : 0;

    offer(&best, ACT_OPEN_INTERP, TFX_TOK_TEMPLATE_INTERP, match_sequence_open(s, n, '$'));
    offer(&best, ACT_OPEN_CONTROL, TFX_TOK_TEMPLATE_CONTROL, match_sequence_open(s, n, '%'));
    if (eol > 0)
        offer(&best, ACT_HEREDOC_EOL, TFX_TOK_STRING_LIT, lit + eol);
    offer(&best, ACT_HEREDOC_MIDLINE, TFX_TOK_STRING_LIT, lit);
    if (s[0] >= 0x80)
        offer(&best, ACT_TOKEN, TFX_TOK_BAD_UTF8, 1);
    return best;
}

/* A bare template [lex.bare]. */
static match scan_bare(const unsigned char *s, size_t n)
{
    match best = {ACT_NONE, TFX_TOK_INVALID, 0, SHAPE_ANY};
    bool may_end_line;
    size_t lit = template_literal(s, n, &may_end_line);
    size_t eol = may_end_line ? match_newline(s + lit, n - lit) : 0;

    offer(&best, ACT_OPEN_INTERP, TFX_TOK_TEMPLATE_INTERP, match_sequence_open(s, n, '$'));
    offer(&best, ACT_OPEN_CONTROL, TFX_TOK_TEMPLATE_CONTROL, match_sequence_open(s, n, '%'));
    offer(&best, ACT_TOKEN, TFX_TOK_STRING_LIT, lit + eol);
    if (s[0] >= 0x80)
        offer(&best, ACT_TOKEN, TFX_TOK_BAD_UTF8, 1);
    return best;
}

/* Whether a `}` here ends the innermost sequence: we are at the brace
 * level it opened [lex.template.close]. */
static bool ends_sequence(const lexer *lx)
{
    return lx->ret_braces.n > 0 && lx->ret_braces.items[lx->ret_braces.n - 1] == lx->braces;
}

/* ---------------------------------------------------------------------
 * Fast paths
 *
 * The scanners above try every rule of a state and keep the longest match
 * [lex.longest-match]: the general path, which follows upstream's rules
 * one by one.  For the tokens that make up most of real sources, the first
 * byte alone tells which rule wins, and the token's bytes are seen once.
 * Each fast_* function below either finds the same match as the general
 * scanner of its state, with the token's shape for emit, or returns false
 * and leaves the token to the general scanner; the comments say why the
 * match is the same.  test_lex lexes random inputs both ways
 * (tfx_lex_general) and compares every token.
 * ------------------------------------------------------------------ */

/* Classes of a token's first byte in the expression state. */
enum {
    MC_GENERAL = 0,  /* left to scan_main */
    MC_SPACE,        /* ' ' '\t' */
    MC_IDENT,        /* ASCII letter or '_' */
    MC_DIGIT,
    MC_SELF,         /* a one-byte token that starts no longer rule */
    MC_PAIR,         /* '=' '!' '<' '>' '&' '|': a one-byte token or a two-byte operator */
    MC_DOT,          /* '.' or "..." */
    MC_LF,
    MC_OBRACE,
    MC_CBRACE,
    MC_QUOTE
};

/* The class of byte c, as a constant expression (for the table below).
 * MC_SELF: no rule but self_token's starts with these: '-' starts no
 * number, '*' no comment, '%' no sequence in this state [lex.main].
 * MC_GENERAL: '/' and '#' (comments), '~' ("~}"), CR, other ASCII and
 * every non-ASCII byte; also '^' ';' '`' and '\'', one-byte tokens that
 * are errors in themselves, which the fast run leaves to the general
 * path (push_token notes them). */
#define MAIN_CLASS(c) \
    ((c) == ' ' || (c) == '\t' ? MC_SPACE \
     : (c) == '_' || ((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') ? MC_IDENT \
     : (c) >= '0' && (c) <= '9' ? MC_DIGIT \
     : (c) == '[' || (c) == ']' || (c) == '(' || (c) == ')' || (c) == ',' || (c) == '*' \
       || (c) == '%' || (c) == '+' || (c) == '-' || (c) == '?' || (c) == ':' ? MC_SELF \
     : (c) == '=' || (c) == '!' || (c) == '<' || (c) == '>' || (c) == '&' || (c) == '|' ? MC_PAIR \
     : (c) == '.' ? MC_DOT \
     : (c) == '\n' ? MC_LF \
     : (c) == '{' ? MC_OBRACE \
     : (c) == '}' ? MC_CBRACE \
     : (c) == '"' ? MC_QUOTE \
     : MC_GENERAL)

/* MAIN_CLASS of every byte value. */
static const unsigned char main_class[256] = { BYTES256(MAIN_CLASS) };

/* The kind of the token of a byte of class MC_SELF, TFX_TOK_COUNT for the
 * other bytes: the first thing lex_main_run looks up, as most tokens of
 * real sources are punctuation. */
#define MAIN_SELF(c) (MAIN_CLASS(c) == MC_SELF ? SELF_TOKEN(c) : TFX_TOK_COUNT)
static const unsigned char main_self[256] = { BYTES256(MAIN_SELF) };

/* ASCII bytes of an identifier after its first [lex.ident]: ID_Continue's
 * ASCII members (letters, digits, '_') and '-'. */
#define IDENT_REST(c) \
    ((c) == '_' || (c) == '-' || ((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') \
     || ((c) >= '0' && (c) <= '9'))
static const bool ident_rest[256] = {
    BYTES256(IDENT_REST)
};

/* The length of an identifier of ASCII bytes at s, whose first byte is
 * a letter or '_' [lex.ident]: the run of ident_rest bytes after the
 * first.  No other ASCII byte is in ID_Continue, so the run ends the
 * identifier unless a non-ASCII byte follows, which may continue it: then
 * 0, and the general path decides.  No other rule matches more than one
 * byte at a letter or '_' (INVALID, one byte, is offered after Ident and
 * loses the tie when the identifier is one byte). */
static inline size_t ascii_ident_len(const unsigned char *s, size_t n)
{
    size_t i = 1;

    while (i < n && ident_rest[s[i]])
        i++;
    return i < n && s[i] >= 0x80 ? 0 : i;
}

/* The length of the token at s, whose first byte is '=' '!' '<' '>' '&' or
 * '|', and its kind: one of "==" "=>" "!=" "<=" ">=" "&&" "||" when its
 * second byte follows, else the one-byte token [lex.operators].  These
 * are the only rules that start with these bytes (INVALID's one byte
 * loses ties, being offered last) but the heredoc introducer "<<": then
 * 0, and the general path decides.  A lone '&' or '|' (a bitwise
 * operator, an error in itself) is 0 too, for push_token to note. */
static size_t pair_len(const unsigned char *s, size_t n, tfx_token_kind *kind)
{
    unsigned char next = n >= 2 ? s[1] : 0;
    tfx_token_kind two = TFX_TOK_COUNT;

    switch (s[0]) {
    case '=': two = next == '=' ? TFX_TOK_EQUAL_OP : next == '>' ? TFX_TOK_FAT_ARROW : two; break;
    case '!': two = next == '=' ? TFX_TOK_NOT_EQUAL : two; break;
    case '<':
        if (next == '<')
            return 0;
        two = next == '=' ? TFX_TOK_LESS_THAN_EQ : two;
        break;
    case '>': two = next == '=' ? TFX_TOK_GREATER_THAN_EQ : two; break;
    case '&':
        if (next != '&')
            return 0;
        two = TFX_TOK_AND;
        break;
    case '|':
        if (next != '|')
            return 0;
        two = TFX_TOK_OR;
        break;
    default: break;
    }
    *kind = two != TFX_TOK_COUNT ? two : self_token(s[0]);
    return two != TFX_TOK_COUNT ? 2 : 1;
}

/* The tokens of the expression state that change the state ('{', '}' and
 * '"', which start no other rule; "~}" starts with '~'), for the first-byte
 * classes above; every other token is lex_main_run's or the general
 * scanner's. */
static bool fast_main(const unsigned char *s, match *m)
{
    switch (main_class[s[0]]) {
    case MC_OBRACE:
        *m = (match){ACT_OPEN_BRACE, TFX_TOK_OBRACE, 1, SHAPE_PLAIN};
        return true;
    case MC_CBRACE:
        *m = (match){ACT_CLOSE_BRACE, TFX_TOK_CBRACE, 1, SHAPE_PLAIN};
        return true;
    case MC_QUOTE:
        *m = (match){ACT_OPEN_STRING, TFX_TOK_OQUOTE, 1, SHAPE_PLAIN};
        return true;
    default:
        return false;
    }
}

/* An ASCII byte that a heredoc or bare template literal takes as it is
 * [lex.heredoc], [lex.bare]: not '$', '%', CR or LF; in a quoted literal
 * [lex.string], not a backslash or '"' either. */
#define TEMPLATE_PLAIN(c) ((c) < 0x80 && (c) != '$' && (c) != '%' && (c) != '\r' && (c) != '\n')
#define STRING_PLAIN(c) (TEMPLATE_PLAIN(c) && (c) != '\\' && (c) != '"')
static const bool template_plain[256] = {
    BYTES256(TEMPLATE_PLAIN)
};
static const bool string_plain[256] = {
    BYTES256(STRING_PLAIN)
};

/* The inside of a quoted string [lex.string]:
 *   - a '"' closes it (the literal run is empty there, and INVALID, of the
 *     same length, is offered after CQuote);
 *   - "${" or "%{" (with an optional '~') opens a sequence (no literal
 *     starts there: "$" that opens nothing needs a byte other than '{');
 *   - a run of plain bytes and backslash escapes of ASCII bytes other than
 *     CR and LF is the literal scan_string finds, if what ends it cannot
 *     extend it: the end of input, or a byte that ends the general run too
 *     ('$', '%', '"', CR, LF, or a backslash before one of CR, LF or the
 *     end).  A non-ASCII byte may extend it: the general path decides.
 *     The literal is longer than any other rule's match at a plain byte or
 *     a backslash (one byte). */
/* The length of the run of string_plain bytes and backslash escapes of
 * ASCII bytes other than CR and LF at s. */
static size_t quoted_run_len(const unsigned char *s, size_t n)
{
    size_t len = 0;

    for (;;) {
        if (len < n && string_plain[s[len]])
            len++;
        else if (len + 1 < n && s[len] == '\\' && s[len + 1] < 0x80
                 && s[len + 1] != '\r' && s[len + 1] != '\n')
            len += 2;
        else
            return len;
    }
}

static bool fast_string(const unsigned char *s, size_t n, match *m)
{
    size_t len = 0;

    if (s[0] == '"') {
        *m = (match){ACT_CLOSE_STRING, TFX_TOK_CQUOTE, 1, SHAPE_PLAIN};
        return true;
    }
    if ((s[0] == '$' || s[0] == '%') && n >= 2 && s[1] == '{') {
        *m = (match){s[0] == '$' ? ACT_OPEN_INTERP : ACT_OPEN_CONTROL,
                     s[0] == '$' ? TFX_TOK_TEMPLATE_INTERP : TFX_TOK_TEMPLATE_CONTROL,
                     match_sequence_open(s, n, s[0]), SHAPE_PLAIN};
        return true;
    }
    len = quoted_run_len(s, n);
    if (len == 0 || (len < n && s[len] >= 0x80)
        || (len + 1 < n && s[len] == '\\' && s[len + 1] >= 0x80))
        return false;
    *m = (match){ACT_TOKEN, TFX_TOK_QUOTED_LIT, len, SHAPE_PLAIN};
    return true;
}

/* A heredoc or bare template, where a literal may run on into its line
 * ending (eol_act is ACT_HEREDOC_EOL in a heredoc, ACT_TOKEN in a bare
 * template; mid_act is ACT_HEREDOC_MIDLINE or ACT_TOKEN):
 *   - "${" or "%{" (with an optional '~') opens a sequence: template_literal
 *     matches nothing there and no line ending starts there;
 *   - '$' or '%' before a byte X that is neither '{' nor the same sign is
 *     template_literal's literal "$" (or "$X" when CR or LF follows X)
 *     that may not run on into a line ending [lex.template.dollar], the
 *     only match there;
 *   - a run of plain bytes ended by the end of input, '$', '%', CR or LF
 *     is template_literal's run (a non-ASCII byte may extend it: the
 *     general path decides), followed by a line ending or not; the same
 *     when the run is empty and a line ending starts here.  Nothing else
 *     matches as much at a plain byte or a line ending. */
static bool fast_template(const unsigned char *s, size_t n, action eol_act, action mid_act,
                          match *m)
{
    size_t len = 0;
    size_t eol;

    if ((s[0] == '$' || s[0] == '%') && n >= 2 && s[1] == '{') {
        *m = (match){s[0] == '$' ? ACT_OPEN_INTERP : ACT_OPEN_CONTROL,
                     s[0] == '$' ? TFX_TOK_TEMPLATE_INTERP : TFX_TOK_TEMPLATE_CONTROL,
                     match_sequence_open(s, n, s[0]), SHAPE_PLAIN};
        return true;
    }
    if ((s[0] == '$' || s[0] == '%') && n >= 2 && s[1] != s[0]) {
        len = n >= 3 && (s[2] == '\r' || s[2] == '\n') ? 2 : 1;
        *m = (match){mid_act, TFX_TOK_STRING_LIT, len,
                     len == 1 || template_plain[s[1]] ? SHAPE_PLAIN : SHAPE_ANY};
        return true;
    }
    while (len < n && template_plain[s[len]])
        len++;
    if (len < n && s[len] >= 0x80)
        return false;
    eol = match_newline(s + len, n - len);
    if (eol > 0)
        *m = (match){eol_act, TFX_TOK_STRING_LIT, len + eol, SHAPE_LINE};
    else if (len > 0)
        *m = (match){mid_act, TFX_TOK_STRING_LIT, len, SHAPE_PLAIN};
    else
        return false;
    return true;
}

/* Stores a token of kind for the source bytes [ts, te) (offsets from the
 * start of the source, byte order mark included) at line and column, as
 * push_token does, and returns the next free slot. */
static inline tfx_lexeme *put_token(tfx_lexeme *t, tfx_token_kind kind, size_t ts, size_t te,
                                    size_t line, size_t column)
{
    t->start = (uint32_t)ts;
    t->end = (uint32_t)te;
    t->line = (uint32_t)line;
    t->column = (uint32_t)column;
    t->kind = (uint32_t)kind;
    return t + 1;
}

/* The length of a number at s, whose first byte is a digit [lex.number]:
 * a run of digits, unless a '.', 'e' or 'E' follows it, which may extend
 * it: then match_number's.  match_number stops where the run stops when
 * none of these follow (only they continue a number after its digits). */
static inline size_t number_len(const unsigned char *s, size_t n)
{
    size_t i = 1;

    while (i < n && is_digit(s[i]))
        i++;
    if (i < n && (s[i] == '.' || s[i] == 'e' || s[i] == 'E'))
        return match_number(s, n);
    return i;
}

/* The fast path of state st at s, if it has one (see above). */
static bool fast_scan(scan_state st, const unsigned char *s, size_t n, match *m)
{
    switch (st) {
    case ST_STRING: return fast_string(s, n, m);
    case ST_HEREDOC: return fast_template(s, n, ACT_HEREDOC_EOL, ACT_HEREDOC_MIDLINE, m);
    case ST_BARE: return fast_template(s, n, ACT_TOKEN, ACT_TOKEN, m);
    case ST_MAIN: default: return fast_main(s, m);
    }
}

/* ---------------------------------------------------------------------
 * Actions
 * ------------------------------------------------------------------ */

static void heredoc_not_at_line_start(lexer *lx)
{
    if (lx->heredocs.n > 0)
        lx->heredocs.items[lx->heredocs.n - 1].start_of_line = false;
}

/* "${" or "%{": the sequence's expression is lexed in the expression
 * state until the `}` at this brace level [lex.template.sequence]. */
static void open_sequence(lexer *lx, tfx_token_kind kind, size_t ts, size_t te)
{
    emit_plain(lx, kind, ts, te);
    lx->braces++;
    if (!VEC_GROW(lx, lx->ret_braces))
        return;
    lx->ret_braces.items[lx->ret_braces.n++] = lx->braces;
    heredoc_not_at_line_start(lx);
    push_state(lx, ST_MAIN);
}

/* `}` or `~}`: ends the innermost sequence if we are at its brace level.
 * Otherwise `}` closes a brace, and `~}` is still a sequence end so that
 * the parser can report it [lex.template.close]. */
static void close_brace(lexer *lx, bool strip, size_t ts, size_t te)
{
    if (ends_sequence(lx)) {
        emit_plain(lx, TFX_TOK_TEMPLATE_SEQ_END, ts, te);
        lx->braces--;
        lx->ret_braces.n--;
        pop_state(lx);
        return;
    }
    emit_plain(lx, strip ? TFX_TOK_TEMPLATE_SEQ_END : TFX_TOK_CBRACE, ts, te);
    lx->braces--;
}

/* "<<ID" or "<<-ID" and its newline: the heredoc runs to a line that is
 * ID alone, give or take white space [lex.heredoc.open]. */
static void open_heredoc(lexer *lx, size_t ts, size_t te)
{
    const unsigned char *marker = lx->src + ts + 2;
    size_t nmarker = te - 1 - (ts + 2);
    heredoc *h;

    emit(lx, TFX_TOK_OHEREDOC, ts, te, SHAPE_ANY);
    if (marker[0] == '-') {
        marker++;
        nmarker--;
    }
    if (nmarker > 0 && marker[nmarker - 1] == '\r')
        nmarker--;
    if (!VEC_GROW(lx, lx->heredocs))
        return;
    h = &lx->heredocs.items[lx->heredocs.n++];
    h->marker = marker;
    h->nmarker = nmarker;
    h->start_of_line = true;
    push_state(lx, ST_HEREDOC);
}

/* A heredoc literal that ends with a newline.  At the start of a line, if
 * the line is the marker give or take white space, it closes the heredoc:
 * a CHeredoc token for the line, then a separate Newline token for its
 * line ending [lex.heredoc.close]. */
static void heredoc_line(lexer *lx, size_t ts, size_t te, shape sh)
{
    heredoc *h;

    /* The heredoc state is on the stack only above its heredoc (pushed
     * and popped together); an empty stack would be a lost allocation. */
    if (lx->heredocs.n == 0) {
        lx->failed = true;
        return;
    }
    h = &lx->heredocs.items[lx->heredocs.n - 1];
    if (h->start_of_line) {
        const unsigned char *line = lx->src + ts;
        size_t len = te - ts;
        size_t lead = tfx_text_space_prefix(line, len);
        size_t trail = tfx_text_space_suffix(line + lead, len - lead);

        if (len - lead - trail == h->nmarker
            && memcmp(line + lead, h->marker, h->nmarker) == 0) {
            size_t nl = lx->src[te - 2] == '\r' && te - 2 >= ts ? te - 2 : te - 1;

            emit(lx, TFX_TOK_CHEREDOC, ts, nl, sh == SHAPE_LINE ? SHAPE_PLAIN : SHAPE_ANY);
            emit_line(lx, TFX_TOK_NEWLINE, nl, te);
            lx->heredocs.n--;
            pop_state(lx);
            return;
        }
    }
    h->start_of_line = true;
    emit(lx, TFX_TOK_STRING_LIT, ts, te, sh);
}

static void run_action(lexer *lx, match m, size_t ts)
{
    size_t te = ts + m.len;

    switch (m.act) {
    case ACT_NONE:
    case ACT_SKIP:
        break;
    case ACT_TOKEN:
        emit(lx, m.kind, ts, te, m.sh);
        break;
    case ACT_OPEN_BRACE:
        emit_plain(lx, TFX_TOK_OBRACE, ts, te);
        lx->braces++;
        break;
    case ACT_CLOSE_BRACE:
        close_brace(lx, false, ts, te);
        break;
    case ACT_CLOSE_STRIP:
        close_brace(lx, true, ts, te);
        break;
    case ACT_OPEN_STRING:
        emit_plain(lx, TFX_TOK_OQUOTE, ts, te);
        push_state(lx, ST_STRING);
        break;
    case ACT_CLOSE_STRING:
        emit_plain(lx, TFX_TOK_CQUOTE, ts, te);
        pop_state(lx);
        break;
    case ACT_OPEN_HEREDOC:
        open_heredoc(lx, ts, te);
        break;
    case ACT_OPEN_INTERP:
    case ACT_OPEN_CONTROL:
        open_sequence(lx, m.kind, ts, te);
        break;
    case ACT_HEREDOC_EOL:
        heredoc_line(lx, ts, te, m.sh);
        break;
    case ACT_HEREDOC_MIDLINE:
        heredoc_not_at_line_start(lx);
        emit(lx, TFX_TOK_STRING_LIT, ts, te, m.sh);
        break;
    }
}

/* ---------------------------------------------------------------------
 * The fast run
 * ------------------------------------------------------------------ */

/* gcc would store a token's first four words (put_token) as one vector
 * built from four registers, which takes more instructions than four
 * stores (callgrind: 20 -> 17 instructions per token of the nesting
 * workload without it).  From here to the end of the file. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-tree-slp-vectorize")
#endif

/* Where the next token may start in the expression state after a token
 * that ends at q and leaves the state as it is: past one space, if one is
 * there.  A run of spaces and tabs is skipped [lex.space]; skipping its
 * first byte on its own changes nothing, as the rest of the run (if any)
 * is skipped next, spaces make no token, and columns follow from offsets.
 * A step without a branch: a single space after a token is common but
 * not predictable. */
static inline size_t skip_one_space(const unsigned char *s, size_t q, size_t n)
{
    return q < n ? q + (s[q] == ' ') : q;
}

/* The state on top of the stack (the expression state when it is empty,
 * as lex_source takes it). */
static scan_state top_state(const lexer *lx)
{
    return lx->states.n > 0 ? lx->states.items[lx->states.n - 1] : ST_MAIN;
}

/* Opens a sequence as open_sequence does, but for the token itself, which
 * the caller stores: the brace level whose `}` ends it, the heredoc's line
 * begun, the expression state pushed [lex.template.sequence].  False when
 * malloc refuses. */
static bool enter_sequence(lexer *lx, int braces)
{
    if (!VEC_GROW(lx, lx->ret_braces))
        return false;
    lx->ret_braces.items[lx->ret_braces.n++] = braces;
    heredoc_not_at_line_start(lx);
    return push_state(lx, ST_MAIN);
}

/* Tokens from p, one after another, in whatever state, as long as the
 * first byte in the state on top tells the match; each the match the
 * state's general scanner would find, with the action run_action would run
 * and the shape emit would be given:
 *
 *   - The expression state [lex.main]: spaces, identifiers, numbers,
 *     operators, punctuation, line feeds (the classes of main_class:
 *     ACT_SKIP, ACT_TOKEN, SHAPE_PLAIN or SHAPE_LINE); '{' (ACT_OPEN_BRACE);
 *     '}' (ACT_CLOSE_BRACE: close_brace ends the innermost sequence at its
 *     level and pops the state, else closes a brace); '"' (ACT_OPEN_STRING;
 *     and when the string's inside is a plain run, quoted_run_len, then
 *     '"', the string's OQuote, QuotedLit and CQuote at once, as the
 *     string state would lex them: fast_string finds that run, which ends
 *     at '"', an ASCII byte, and then the CQuote that pops the state).
 *   - A quoted string [lex.string]: fast_string's matches ('"', a sequence
 *     opener, a plain run).
 *   - A heredoc or bare template [lex.heredoc] [lex.bare]: fast_template's
 *     matches but '$' or '%' that opens nothing: a sequence opener, or a
 *     literal run of plain bytes ended by the end of input, '$', '%', CR or
 *     LF, with its line ending if one follows (ACT_HEREDOC_EOL, whose
 *     marker test is heredoc_line's, or ACT_HEREDOC_MIDLINE in a heredoc,
 *     ACT_TOKEN in a bare template).
 *
 * Returns where it stopped: at the end of input, when malloc refuses, or
 * at a token left to the general scanner of the state on top.
 *
 * The lexer's hot fields live in locals here (a compiler must reload
 * fields of *lx after every store into a token, which may alias them),
 * offsets count from the start of the source (byte order mark included,
 * as tokens store them), and the room for tokens is checked once per
 * stretch of input instead of per token: every token takes at least one
 * byte and no step stores more than three, so a stretch of k bytes, whose
 * last step may run past it, needs at most k + 2 slots.  In step with a
 * reader (tfx_lex_step) a stretch is also at most a quarter window long
 * (max_stretch), so that the window is not written far past its target
 * where a token takes a byte. */
static size_t lex_run(lexer *lx, size_t p)
{
    const size_t base = lx->base;
    const unsigned char *s = lx->src - base;   /* the whole source */
    const size_t n = lx->n + base;
    size_t q = p + base;
    size_t line = lx->line;
    size_t colbase = lx->colbase;   /* the column at offset q is q + colbase */
    int braces = lx->braces;
    scan_state st = top_state(lx);

/* Stores the locals into *lx before a call that reads or changes it, and
 * takes them back after. */
#define SYNC_OUT() (lx->tokens.n = (size_t)(t - lx->tokens.items), lx->line = line, \
                    lx->colbase = colbase, lx->braces = braces)
#define SYNC_IN() (t = lx->tokens.items + lx->tokens.n, line = lx->line, \
                   colbase = lx->colbase, braces = lx->braces, st = top_state(lx))

    while (q < n && !lx->failed && lx->tokens.n < lx->target && token_room(lx, 4)) {
        tfx_lexeme *t = lx->tokens.items + lx->tokens.n;
        size_t slots = lx->tokens.cap - lx->tokens.n - 2;
        size_t stop;

        if (slots > lx->max_stretch)
            slots = lx->max_stretch;
        stop = n - q < slots ? n : q + slots;

        while (q < stop) {
            unsigned char c = s[q];
            tfx_token_kind kind;
            size_t len;

            if (st != ST_MAIN) {
                if (c == '$' || c == '%') {
                    /* a sequence opener, in any of the three states */
                    if (q + 1 >= n || s[q + 1] != '{')
                        goto halt;
                    len = q + 2 < n && s[q + 2] == '~' ? 3 : 2;
                    t = put_token(t, c == '$' ? TFX_TOK_TEMPLATE_INTERP : TFX_TOK_TEMPLATE_CONTROL,
                                  q, q + len, line, q + colbase);
                    q += len;
                    braces++;
                    if (!enter_sequence(lx, braces))
                        goto halt;
                    st = ST_MAIN;
                    continue;
                }
                if (st == ST_STRING) {
                    if (c == '"') {
                        t = put_token(t, TFX_TOK_CQUOTE, q, q + 1, line, q + colbase);
                        q++;
                        pop_state(lx);
                        st = top_state(lx);
                        continue;
                    }
                    len = quoted_run_len(s + q, n - q);
                    if (len == 0 || (q + len < n && s[q + len] >= 0x80)
                        || (q + len + 1 < n && s[q + len] == '\\' && s[q + len + 1] >= 0x80)) {
                        goto halt;
                    }
                    t = put_token(t, TFX_TOK_QUOTED_LIT, q, q + len, line, q + colbase);
                    q += len;
                    continue;
                }
                /* a heredoc or bare template */
                for (len = 0; q + len < n && template_plain[s[q + len]]; len++)
                    ;
                if (q + len < n && s[q + len] >= 0x80)
                    goto halt;
                kind = TFX_TOK_STRING_LIT;
                if (q + len < n && s[q + len] == '\n')
                    len++;
                else if (q + len + 1 < n && s[q + len] == '\r' && s[q + len + 1] == '\n')
                    len += 2;
                else if (len == 0)
                    goto halt; else {
                    /* no line ending: ACT_HEREDOC_MIDLINE or ACT_TOKEN */
                    if (st == ST_HEREDOC)
                        heredoc_not_at_line_start(lx);
                    t = put_token(t, kind, q, q + len, line, q + colbase);
                    q += len;
                    continue;
                }
                if (st == ST_HEREDOC) {
                    /* ACT_HEREDOC_EOL: heredoc_line's, which a line that
                     * began with a sequence cannot close */
                    if (lx->heredocs.n == 0 || lx->heredocs.items[lx->heredocs.n - 1].start_of_line) {
                        SYNC_OUT();
                        heredoc_line(lx, q - base, q + len - base, SHAPE_LINE);
                        SYNC_IN();
                        q += len;
                        if (lx->failed)
                            goto halt;
                        continue;
                    }
                    lx->heredocs.items[lx->heredocs.n - 1].start_of_line = true;
                }
                t = put_token(t, kind, q, q + len, line, q + colbase);
                q += len;
                line++;
                colbase = (size_t)1 - q;
                continue;
            }

            /* The expression state, token after token while it stays
             * on top. */
            do {
                c = s[q];
                kind = (tfx_token_kind)main_self[c];
                if (kind != TFX_TOK_COUNT) {
                    /* MC_SELF: the one-byte token */
                    t = put_token(t, kind, q, q + 1, line, q + colbase);
                    q++;
                    continue;
                }
                switch (main_class[c]) {
                case MC_SPACE:
                    /* [lex.space] a run of spaces and tabs, which no other
                     * rule starts */
                    for (q++; q < n && main_class[s[q]] == MC_SPACE; q++)
                        ;
                    continue;
                case MC_IDENT:
                    kind = TFX_TOK_IDENT;
                    len = ascii_ident_len(s + q, n - q);
                    if (len == 0)
                        goto halt;
                    break;
                case MC_DIGIT:
                    /* [lex.number] at least the digit, ASCII only; only
                     * INVALID (offered later) also starts at a digit */
                    kind = TFX_TOK_NUMBER_LIT;
                    len = number_len(s + q, n - q);
                    break;
                case MC_PAIR:
                    len = pair_len(s + q, n - q, &kind);
                    if (len == 0)
                        goto halt;
                    break;
                case MC_DOT:
                    /* "..." or '.' [lex.operators]; no number starts with a
                     * dot */
                    len = n - q >= 3 && s[q + 1] == '.' && s[q + 2] == '.' ? 3 : 1;
                    kind = len == 3 ? TFX_TOK_ELLIPSIS : TFX_TOK_DOT;
                    break;
                case MC_OBRACE:
                    kind = TFX_TOK_OBRACE;
                    len = 1;
                    braces++;
                    break;
                case MC_CBRACE:
                    len = 1;
                    if (lx->ret_braces.n > 0 && lx->ret_braces.items[lx->ret_braces.n - 1] == braces) {
                        /* close_brace: the end of the innermost sequence */
                        t = put_token(t, TFX_TOK_TEMPLATE_SEQ_END, q, q + 1, line, q + colbase);
                        q++;
                        braces--;
                        lx->ret_braces.n--;
                        pop_state(lx);
                        st = top_state(lx);
                        goto next_state;
                    }
                    kind = TFX_TOK_CBRACE;
                    braces--;
                    break;
                case MC_QUOTE: {
                    size_t lit = quoted_run_len(s + q + 1, n - q - 1);
                    size_t close = q + 1 + lit;

                    t = put_token(t, TFX_TOK_OQUOTE, q, q + 1, line, q + colbase);
                    if (close >= n || s[close] != '"') {
                        /* ACT_OPEN_STRING */
                        q++;
                        if (!push_state(lx, ST_STRING))
                            goto halt;
                        st = ST_STRING;
                        goto next_state;
                    }
                    if (lit > 0)
                        t = put_token(t, TFX_TOK_QUOTED_LIT, q + 1, close, line, q + 1 + colbase);
                    t = put_token(t, TFX_TOK_CQUOTE, close, close + 1, line, close + colbase);
                    q = close + 1;
                    continue;
                }
                case MC_LF:
                    /* [lex.newline] Newline and self_token agree on a lone
                     * LF; the next token starts the next line (emit_line) */
                    t = put_token(t, TFX_TOK_NEWLINE, q, q + 1, line, q + colbase);
                    q++;
                    line++;
                    colbase = (size_t)1 - q;
                    continue;
                default:
                    goto halt;
                }
                t = put_token(t, kind, q, q + len, line, q + colbase);
                q = skip_one_space(s, q + len, n);
            } while (q < stop);
        next_state:;
        }
        SYNC_OUT();
        continue;
    halt:
        /* a token left to the general scanner, or malloc refused */
        SYNC_OUT();
        break;
    }
#undef SYNC_OUT
#undef SYNC_IN
    return q - base;
}

/* Sets up a lexer for src[0..nbytes) with room for `cap` tokens; false
 * when the source is too long or malloc refuses. */
static bool lexer_init(lexer *lx, const unsigned char *src, size_t nbytes, tfx_lex_mode mode,
                       bool fast, size_t cap)
{
    memset(lx, 0, sizeof(*lx));
    if (nbytes > TFX_LEX_MAX_BYTES)
        return false;
    /* [lex.bom] A leading byte order mark is skipped. */
    if (nbytes >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF)
        lx->base = 3;
    lx->src = src + lx->base;
    lx->n = nbytes - lx->base;
    lx->line = 1;
    lx->colbase = (size_t)1 - lx->base;
    lx->mode = mode;
    lx->fast = fast;
    lx->target = SIZE_MAX;
    lx->max_stretch = SIZE_MAX;
    lx->tokens.cap = cap;
    lx->tokens.items = malloc(cap * sizeof(*lx->tokens.items));
    if (lx->tokens.items == NULL || !push_state(lx, mode == TFX_LEX_TEMPLATE ? ST_BARE : ST_MAIN)) {
        free(lx->tokens.items);
        free(lx->states.items);
        return false;
    }
    return true;
}

static void lexer_free(lexer *lx)
{
    free(lx->tokens.items);
    free(lx->states.items);
    free(lx->ret_braces.items);
    free(lx->heredocs.items);
}

/* Lexes on from lx->pos until the array holds lx->target tokens (a step
 * may store a few more) or the source has ended, when the EOF token is
 * stored. */
static void lex_until(lexer *lx)
{
    /* in locals: the calls below could otherwise be taken to change them */
    const unsigned char *src = lx->src;
    const size_t n = lx->n;
    const size_t target = lx->target;
    const bool fast = lx->fast;
    size_t p = lx->pos;

    while (p < n && !lx->failed && lx->tokens.n < target) {
        scan_state st;
        match m;

        if (fast) {
            p = lex_run(lx, p);
            if (p >= n || lx->failed || lx->tokens.n >= target)
                break;
        }
        st = top_state(lx);
        if (!fast || !fast_scan(st, src + p, n - p, &m)) {
            switch (st) {
            case ST_STRING: m = scan_string(src + p, n - p); break;
            case ST_HEREDOC: m = scan_heredoc(src + p, n - p); break;
            case ST_BARE: m = scan_bare(src + p, n - p); break;
            case ST_MAIN: default: m = scan_main(src + p, n - p); break;
            }
        }
        if (m.act == ACT_NONE) {
            /* [lex.stuck] Nothing matches: the rest of the input is one
             * token, a literal in a bare template at the top level,
             * invalid anywhere else. */
            bool bare_top = lx->mode == TFX_LEX_TEMPLATE && lx->states.n == 1;

            emit(lx, bare_top ? TFX_TOK_STRING_LIT : TFX_TOK_INVALID, p, n, SHAPE_ANY);
            p = n;
            break;
        }
        run_action(lx, m, p);
        p += m.len;
    }
    lx->pos = p;
    if (p >= n && !lx->failed && !lx->eof) {
        emit_plain(lx, TFX_TOK_EOF, n, n);
        lx->eof = true;
    }
}

/* tfx_lex, with the fast paths or by the general scanners alone. */
static bool lex_source(tfx_arena *arena, const unsigned char *src, size_t nbytes,
                       tfx_lex_mode mode, bool fast, bool pn, tfx_tokens *out)
{
    lexer lx;
    bool ok;

    /* Room for a token per 64 bytes to begin with (real sources have one
     * per 2 to 6): the array fills after the first few per cent of a
     * large source, and grow_tokens then makes room for the whole source
     * at the density seen so far, copying only those few per cent (a
     * first guess of a token per 4 bytes was copied whole, 5 bytes per
     * byte of source, by every source denser than that).  The room left
     * over is given back when the tokens are all there. */
    size_t cap = nbytes / 64 < ((size_t)1 << 20) ? nbytes / 64 + 64 : (size_t)1 << 20;

    out->src = src;
    out->items = NULL;
    out->n = 0;
    out->error_tokens = false;
    if (!lexer_init(&lx, src, nbytes, mode, fast, cap))
        return false;
    lx.pn = pn;
    lex_until(&lx);
    if (!lx.failed && lx.tokens.cap - lx.tokens.n > lx.tokens.n / 8) {
        /* the room left over, given back (realloc shrinks in place) */
        tfx_lexeme *items = realloc(lx.tokens.items, lx.tokens.n * sizeof(*lx.tokens.items));

        if (items != NULL) {
            lx.tokens.items = items;
            lx.tokens.cap = lx.tokens.n;
        }
    }

    /* The token array stays in malloc'd memory; the arena frees it. */
    ok = !lx.failed && tfx_arena_finalizer(arena, free, lx.tokens.items);
    if (ok) {
        out->items = lx.tokens.items;
        out->n = lx.tokens.n;
        out->error_tokens = lx.error_tokens;
        lx.tokens.items = NULL;
    }
    lexer_free(&lx);
    return ok;
}

bool tfx_lex(tfx_arena *arena, const unsigned char *src, size_t nbytes,
             tfx_lex_mode mode, tfx_tokens *out)
{
    return lex_source(arena, src, nbytes, mode, true, false, out);
}

bool tfx_lex_profile(tfx_arena *arena, const unsigned char *src, size_t nbytes,
                     tfx_lex_mode mode, bool pn, tfx_tokens *out)
{
    return lex_source(arena, src, nbytes, mode, true, pn, out);
}

bool tfx_lex_general(tfx_arena *arena, const unsigned char *src, size_t nbytes,
                     tfx_lex_mode mode, tfx_tokens *out)
{
    return lex_source(arena, src, nbytes, mode, false, false, out);
}

/* [lex.pn.double-colon] Newer HCL's scanner has a rule for "::" before
 * the one-byte tokens of the expression state.  A Colon token is made by
 * that state's one-byte rule alone, which does not change the state, so
 * two Colon tokens with nothing between them were lexed at a "::" in the
 * expression state, where the longest match takes "::" whole; and at
 * every "::" of that state the one-byte rule made two such tokens.  Pairs
 * are taken from the left, as the scanner does (":::" is "::" and ":").
 * Joins the pairs in items[from..n), in place; returns the new count. */
static size_t join_double_colons(tfx_lexeme *items, size_t from, size_t n)
{
    size_t out = from;

    for (size_t i = from; i < n; i++) {
        tfx_lexeme l = items[i];

        if (l.kind == TFX_TOK_COLON && i + 1 < n && items[i + 1].kind == TFX_TOK_COLON
            && items[i + 1].start == l.end) {
            l.kind = TFX_TOK_DOUBLE_COLON;
            l.end = items[i + 1].end;
            i++;
        }
        items[out++] = l;
    }
    return out;
}

void tfx_lex_join_double_colons(tfx_tokens *t)
{
    t->n = join_double_colons(t->items, 0, t->n);
}

/* ---------------------------------------------------------------------
 * Tokens that are errors in themselves [lex.invalid]
 * ------------------------------------------------------------------ */

/* The index of the first token from `from` on that is an error in
 * itself, or n. */
static size_t next_error_token(const tfx_lexeme *items, size_t n, size_t from)
{
    size_t i;

    for (i = from; i < n; i++)
        if (tfx_token_error_in_itself((tfx_token_kind)items[i].kind))
            break;
    return i;
}

/* What tfx_lex_check has reported so far, where reports are limited. */
typedef struct {
    int bitwise;
    int backticks;
    int apostrophes;
    int semicolons;
    int bad_utf8;
} check_counts;

/* tfx_lex_check for tokens[from..n), the tokens before them reported
 * with the counts in *c. */
static void check_tokens(const tfx_tokens *tokens, size_t from, check_counts *c, tfx_diags *diags)
{
    size_t i = from;

    for (;;) {
        tfx_token tok;
        const tfx_token *t = &tok;
        const tfx_range *r = &t->range;

        /* Most tokens are none of these: skip to the next that is, in a
         * loop of its own (the array and its length in locals, which the
         * reports below could otherwise be taken to change), and spell out
         * only those. */
        i = next_error_token(tokens->items, tokens->n, i);
        if (i >= tokens->n)
            break;
        tok = tfx_token_at(tokens, i++);
        switch (t->kind) {
        case TFX_TOK_BITWISE_AND:
        case TFX_TOK_BITWISE_OR:
        case TFX_TOK_BITWISE_XOR:
        case TFX_TOK_BITWISE_NOT:
            /* [lex.invalid.bitwise] at most four are reported */
            if (c->bitwise++ < 4)
                tfx_diags_add(diags, TFX_PHASE_PARSE, TFX_CAT_UNSUPPORTED_OPERATOR,
                              "Unsupported operator", r, NULL,
                              "HCL has no bitwise operators.%s",
                              t->kind == TFX_TOK_BITWISE_AND ? " For logical AND, write \"&&\"."
                              : t->kind == TFX_TOK_BITWISE_OR ? " For logical OR, write \"||\"."
                              : t->kind == TFX_TOK_BITWISE_NOT ? " For logical NOT, write \"!\"."
                              : "");
            break;
        case TFX_TOK_BACKTICK:
            /* [lex.invalid.quote] every other one (the opening ones) of
             * the first three */
            if (c->backticks % 2 == 0)
                tfx_diags_add(diags, TFX_PHASE_PARSE, TFX_CAT_INVALID_CHARACTER,
                              "Invalid character", r, NULL,
                              "Backticks do not quote strings; for text over several lines use a heredoc (<<EOT).");
            if (c->backticks <= 2)
                c->backticks++;
            break;
        case TFX_TOK_APOSTROPHE:
            if (c->apostrophes % 2 == 0)
                tfx_diags_add(diags, TFX_PHASE_PARSE, TFX_CAT_INVALID_CHARACTER,
                              "Invalid character", r, NULL,
                              "Strings are quoted with double quotes (\"), not single quotes.");
            if (c->apostrophes <= 2)
                c->apostrophes++;
            break;
        case TFX_TOK_SEMICOLON:
            /* [lex.invalid.semicolon] reported once */
            if (c->semicolons++ < 1)
                tfx_diags_add(diags, TFX_PHASE_PARSE, TFX_CAT_INVALID_CHARACTER,
                              "Invalid character", r, NULL,
                              "Semicolons separate nothing here: items of a collection are separated by commas.");
            break;
        case TFX_TOK_BAD_UTF8:
            /* [lex.invalid.utf8] reported once */
            if (c->bad_utf8++ < 1)
                tfx_diags_add(diags, TFX_PHASE_PARSE, TFX_CAT_INVALID_CHARACTER,
                              "Invalid character encoding", r, NULL,
                              "The input is not valid UTF-8.");
            break;
        case TFX_TOK_QUOTED_NEWLINE:
            /* [lex.invalid.quoted-newline] */
            tfx_diags_add(diags, TFX_PHASE_PARSE, TFX_CAT_INVALID_STRING,
                          "Invalid multi-line string", r, NULL,
                          "A quoted string must stay on one line; write \\n for a newline, or use a heredoc.");
            break;
        case TFX_TOK_INVALID:
            /* [lex.invalid.char] curly quotes get their own explanation */
            if ((t->nbytes == 3 && memcmp(t->bytes, "\xE2\x80\x9C", 3) == 0)
                || (t->nbytes == 3 && memcmp(t->bytes, "\xE2\x80\x9D", 3) == 0))
                tfx_diags_add(diags, TFX_PHASE_PARSE, TFX_CAT_INVALID_CHARACTER,
                              "Invalid character", r, NULL,
                              "Curly quotes do not quote strings; replace them with straight double quotes (\").");
            else
                tfx_diags_add(diags, TFX_PHASE_PARSE, TFX_CAT_INVALID_CHARACTER,
                              "Invalid character", r, NULL,
                              "This character has no meaning in the language.");
            break;
        default:
            break;
        }
    }
}

void tfx_lex_check(const tfx_tokens *tokens, tfx_diags *diags)
{
    check_counts c;

    if (!tokens->error_tokens)
        return;
    memset(&c, 0, sizeof(c));
    check_tokens(tokens, 0, &c, diags);
}

/* ---------------------------------------------------------------------
 * Lexing in step with the parser
 * ------------------------------------------------------------------ */

struct tfx_lexer {
    lexer lx;
    bool pn;                 /* Colon pairs joined [lex.pn.double-colon] */
    size_t readable;         /* the tokens at the array's start that the
                              * reader may read */
    check_counts counts;     /* tfx_lex_check's, for the tokens made
                              * readable so far */
};

tfx_lexer *tfx_lex_start(const unsigned char *src, size_t nbytes, tfx_lex_mode mode, bool pn)
{
    tfx_lexer *s = malloc(sizeof(*s));

    if (s == NULL)
        return NULL;
    /* a window, and room for the few tokens that the last step of a
     * stretch may store past it */
    if (!lexer_init(&s->lx, src, nbytes, mode, true, 2 * TFX_LEX_WINDOW)) {
        free(s);
        return NULL;
    }
    s->lx.max_stretch = TFX_LEX_WINDOW / 4;
    s->lx.pn = pn; /* [lex.pos.column.pn] */
    s->pn = pn;
    s->readable = 0;
    memset(&s->counts, 0, sizeof(s->counts));
    return s;
}

bool tfx_lex_step(tfx_lexer *s, size_t drop, tfx_tokens *out, tfx_diags *diags)
{
    lexer *lx = &s->lx;
    size_t from;

    if (drop > s->readable)
        drop = s->readable;
    memmove(lx->tokens.items, lx->tokens.items + drop, (lx->tokens.n - drop) * sizeof(*lx->tokens.items));
    lx->tokens.n -= drop;
    s->readable -= drop;
    if (!lx->eof) {
        lx->target = lx->tokens.n + TFX_LEX_WINDOW;
        lex_until(lx);
    }
    if (lx->failed)
        return false;
    /* A token is readable once the next one is there (it tells where the
     * token ends, and whether a Colon is the first of a pair), or when it
     * is EOF. */
    from = s->readable;
    if (s->pn)
        lx->tokens.n = join_double_colons(lx->tokens.items, from, lx->tokens.n);
    s->readable = lx->eof ? lx->tokens.n : lx->tokens.n - 1;
    out->src = lx->src - lx->base;
    out->items = lx->tokens.items;
    out->n = s->readable;
    out->error_tokens = lx->error_tokens;
    if (lx->error_tokens)
        check_tokens(out, from, &s->counts, diags);
    return true;
}

void tfx_lex_free(tfx_lexer *s)
{
    if (s == NULL)
        return;
    lexer_free(&s->lx);
    free(s);
}
