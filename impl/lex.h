/* SPDX-License-Identifier: MPL-2.0 */
/*
 * lex.h — tokens and the lexer (spec/lexical.md, rules lex.*).
 *
 * The lexer turns source bytes into a token array (or, for the parser, a
 * window of it at a time: tfx_lex_step), exactly as upstream HCL's
 * scanner does: the same token boundaries, kinds and ranges.  It
 * never fails: bytes that form no token become INVALID or BAD_UTF8 tokens,
 * which tfx_lex_check reports.
 */
#ifndef TFX_LEX_H
#define TFX_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "diag.h"

/* Token kinds, with upstream's names (TokenXxx without the prefix). */
#define TFX_TOKENS(X) \
    X(OBRACE, "OBrace") X(CBRACE, "CBrace") X(OBRACK, "OBrack") \
    X(CBRACK, "CBrack") X(OPAREN, "OParen") X(CPAREN, "CParen") \
    X(OQUOTE, "OQuote") X(CQUOTE, "CQuote") X(OHEREDOC, "OHeredoc") \
    X(CHEREDOC, "CHeredoc") X(STAR, "Star") X(SLASH, "Slash") \
    X(PLUS, "Plus") X(MINUS, "Minus") X(PERCENT, "Percent") \
    X(EQUAL, "Equal") X(EQUAL_OP, "EqualOp") X(NOT_EQUAL, "NotEqual") \
    X(LESS_THAN, "LessThan") X(LESS_THAN_EQ, "LessThanEq") \
    X(GREATER_THAN, "GreaterThan") X(GREATER_THAN_EQ, "GreaterThanEq") \
    X(AND, "And") X(OR, "Or") X(BANG, "Bang") X(DOT, "Dot") \
    X(COMMA, "Comma") X(ELLIPSIS, "Ellipsis") X(FAT_ARROW, "FatArrow") \
    X(QUESTION, "Question") X(COLON, "Colon") \
    X(TEMPLATE_INTERP, "TemplateInterp") \
    X(TEMPLATE_CONTROL, "TemplateControl") \
    X(TEMPLATE_SEQ_END, "TemplateSeqEnd") \
    X(QUOTED_LIT, "QuotedLit") X(STRING_LIT, "StringLit") \
    X(NUMBER_LIT, "NumberLit") X(IDENT, "Ident") X(COMMENT, "Comment") \
    X(NEWLINE, "Newline") X(EOF, "EOF") \
    X(BITWISE_AND, "BitwiseAnd") X(BITWISE_OR, "BitwiseOr") \
    X(BITWISE_NOT, "BitwiseNot") X(BITWISE_XOR, "BitwiseXor") \
    X(APOSTROPHE, "Apostrophe") X(BACKTICK, "Backtick") \
    X(SEMICOLON, "Semicolon") X(INVALID, "Invalid") \
    X(BAD_UTF8, "BadUTF8") X(QUOTED_NEWLINE, "QuotedNewline") \
    X(DOUBLE_COLON, "DoubleColon")

typedef enum {
#define TFX_TOK_ENUM(name, str) TFX_TOK_##name,
    TFX_TOKENS(TFX_TOK_ENUM)
#undef TFX_TOK_ENUM
    TFX_TOK_COUNT
} tfx_token_kind;

/* Upstream's name of a token kind, e.g. "OBrace". */
const char *tfx_token_name(tfx_token_kind k);

/* Whether tokens of kind k are errors in themselves, which tfx_lex_check
 * reports [lex.invalid.*]. */
static inline bool tfx_token_error_in_itself(tfx_token_kind k)
{
    switch (k) {
    case TFX_TOK_BITWISE_AND: case TFX_TOK_BITWISE_OR: case TFX_TOK_BITWISE_XOR:
    case TFX_TOK_BITWISE_NOT: case TFX_TOK_BACKTICK: case TFX_TOK_APOSTROPHE:
    case TFX_TOK_SEMICOLON: case TFX_TOK_BAD_UTF8: case TFX_TOK_QUOTED_NEWLINE:
    case TFX_TOK_INVALID:
        return true;
    default:
        return false;
    }
}

/* A token with everything spelled out, as the parser sees it. */
typedef struct {
    tfx_token_kind kind;
    const unsigned char *bytes;   /* into the source */
    size_t nbytes;
    tfx_range range;
} tfx_token;

/* A token as the lexer stores it: 20 bytes instead of 72, because a parse
 * holds one per token and memory traffic is most of its cost.  The end
 * position is not stored: only spaces and tabs lie between two tokens, so
 * a token ends on the line the next one starts on, as many columns before
 * it as there are bytes between them (the last token, EOF, is empty). */
typedef struct {
    uint32_t start;    /* byte offsets in the source, BOM included */
    uint32_t end;
    uint32_t line;     /* of the start */
    uint32_t column;
    uint32_t kind;     /* a tfx_token_kind (a whole word: the struct has room
                        * for it, and a byte store would make the compiler
                        * assume it may change the lexer's own fields) */
} tfx_lexeme;

/* The longest source the lexer takes: offsets must fit 32 bits. */
#define TFX_LEX_MAX_BYTES ((size_t)UINT32_MAX - 1)

typedef enum {
    TFX_LEX_EXPRESSION,  /* a native-syntax expression */
    TFX_LEX_TEMPLATE     /* a bare template (template-file form) */
} tfx_lex_mode;

typedef struct {
    const unsigned char *src;   /* the source the offsets refer to */
    tfx_lexeme *items;          /* freed with the arena; the last one is EOF */
    size_t n;
    bool error_tokens;          /* some token is one that tfx_lex_check
                                 * reports (else it has nothing to read) */
} tfx_tokens;

/* Token i spelled out (i < t->n).  Inline: the parser asks for every
 * token, and a call returning 72 bytes costs about as much as the work.
 * Every token but EOF, the last, has the next one after it in the array
 * (also in tfx_lex_step's window, where that one may not be readable
 * yet). */
static inline tfx_token tfx_token_at(const tfx_tokens *t, size_t i)
{
    const tfx_lexeme *l = &t->items[i];
    tfx_token tok;

    tok.kind = (tfx_token_kind)l->kind;
    tok.bytes = t->src + l->start;
    tok.nbytes = (size_t)l->end - l->start;
    tok.range.start.byte = l->start;
    tok.range.start.line = l->line;
    tok.range.start.column = l->column;
    tok.range.end.byte = l->end;
    if (l->kind != TFX_TOK_EOF) {
        const tfx_lexeme *next = &t->items[i + 1];

        tok.range.end.line = next->line;
        tok.range.end.column = next->column - (next->start - l->end);
    } else {
        tok.range.end.line = l->line;
        tok.range.end.column = l->column;
    }
    return tok;
}

/* Lexes src[0..nbytes).  A leading UTF-8 byte order mark is skipped (its
 * bytes still count in offsets).  Returns false only when the arena
 * refuses memory or nbytes exceeds TFX_LEX_MAX_BYTES. */
bool tfx_lex(tfx_arena *arena, const unsigned char *src, size_t nbytes,
             tfx_lex_mode mode, tfx_tokens *out);

/* tfx_lex under a profile: with pn, columns count the grapheme clusters
 * of profile PN (go-textseg v15, [lex.pos.column.pn]); the tokens are the
 * same. */
bool tfx_lex_profile(tfx_arena *arena, const unsigned char *src, size_t nbytes,
                     tfx_lex_mode mode, bool pn, tfx_tokens *out);

/* The same tokens, found by the general scanners alone (every rule of the
 * state tried, the longest match kept), without the fast paths that tfx_lex
 * takes for common tokens: the reference the fast paths are tested
 * against (impl/test/test_lex.c). */
bool tfx_lex_general(tfx_arena *arena, const unsigned char *src, size_t nbytes,
                     tfx_lex_mode mode, tfx_tokens *out);

/* [lex.pn.double-colon] Profile PN's token stream from profile P14's: each
 * two Colon tokens with nothing between them become one DoubleColon (in
 * place; t->n goes down by one for each).  Called on the tokens of
 * tfx_lex or tfx_lex_general when a source is lexed as PN. */
void tfx_lex_join_double_colons(tfx_tokens *t);

/* Lexing in step with a reader (the parser), which then needs no array
 * of the whole source's tokens: a window of about TFX_LEX_WINDOW tokens
 * is lexed at a time, while the reader still has them in cache (an array
 * of a large source's tokens, written long before it is read, went to
 * main memory and back).  The tokens are tfx_lex's, in the same order.
 *
 * tfx_lex_start sets up a lexer for src[0..nbytes) (NULL when malloc
 * refuses or the source is too long), with profile PN's Colon pairs
 * joined as tfx_lex_join_double_colons joins them and PN's columns
 * ([lex.pos.column.pn]) if pn.  tfx_lex_step
 * drops the window's first `drop` readable tokens, lexes on, and sets
 * *out to the tokens of the window that are readable: the kept ones, then
 * at least TFX_LEX_WINDOW / 2 more unless the source has ended, when the
 * last is EOF.  Each readable token but EOF has the next one after it in
 * the array (tfx_token_at reads it).  The tokens that became readable are
 * reported into diags as tfx_lex_check reports them (its limits counted
 * over all steps).  False when malloc refuses.  tfx_lex_free frees the
 * lexer and its window. */
#define TFX_LEX_WINDOW ((size_t)1024)

typedef struct tfx_lexer tfx_lexer;

tfx_lexer *tfx_lex_start(const unsigned char *src, size_t nbytes, tfx_lex_mode mode, bool pn);
bool tfx_lex_step(tfx_lexer *s, size_t drop, tfx_tokens *out, tfx_diags *diags);
void tfx_lex_free(tfx_lexer *s);

/* Reports the tokens that are errors in themselves: invalid characters,
 * bad UTF-8, unsupported operators, quotes and semicolons, newlines in
 * quoted strings [lex.invalid.*].  Reads the tokens only when the lexer
 * saw such a token (error_tokens): a large array read again long after
 * it was written comes from main memory. */
void tfx_lex_check(const tfx_tokens *tokens, tfx_diags *diags);

#endif /* TFX_LEX_H */
