/* SPDX-License-Identifier: MPL-2.0 */
/*
 * parse_template.c — templates: quoted strings, heredocs and bare
 * templates (spec/templates.md, rules tmpl.*).
 *
 * A template is parsed in two passes, as upstream does:
 *   1. parse_parts reads tokens up to the template's end and makes a flat
 *      list of parts: literals (escapes decoded, strip markers applied),
 *      interpolations, and the directive markers %{if}, %{else}, %{endif},
 *      %{for}, %{endfor};
 *   2. for a "<<-" heredoc, flush_heredoc removes the common indentation;
 *   3. the directive structure is then built from the flat list
 *      (parse_sequence, parse_if, parse_for).
 * In a large template, pass 3 takes the parts of pass 1 in batches as they
 * settle (settle_parts), while they are still in the caches.
 * A template that is exactly one interpolation is its interpolation's own
 * value (TEMPLATE_WRAP) [tmpl.unwrap].
 */
#include "parse_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

typedef enum { PART_LITERAL, PART_INTERP, PART_IF, PART_FOR, PART_END_CTRL, PART_END } part_kind;
typedef enum { CTRL_ENDIF, CTRL_ELSE, CTRL_ENDFOR } ctrl_kind;

/* A part is 16 bytes: a template of a million parts is a list of 16 MB on
 * the scratch stack, where parts that held their text, ranges and
 * variables took 120 bytes each and made large templates slow by memory
 * traffic alone.  What a part stands for is in the node it points to,
 * made in pass 1 and completed in pass 3. */
typedef struct {
    unsigned char kind;      /* a part_kind */
    unsigned char ctrl;      /* END_CTRL: a ctrl_kind */
    bool indented;           /* LITERAL starting a line: loses the common indentation */
    bool ascii;              /* LITERAL: its text is known to be all ASCII */
    union {
        /* LITERAL: a string literal node (decoded text, range) whose value
         * is worked out in pass 3, after strip markers and flushing have
         * trimmed its text; INTERP: the expression; IF: a directive
         * CONDITIONAL node with its condition, ranging over the %{if}
         * marker; FOR: a FOR node with its variables, collection and
         * open_range, ranging over the %{for} marker */
        tfx_node *node;
        const tfx_range *range;  /* END_CTRL: the marker's range (arena) */
    } u;
} part;

/* Pass 3 run early (settle_parts): how many parts wait for it at least,
 * and what it has to know. */
#define SETTLE_BATCH 32
/* The most literal parts at the end of a batch that wait for the next
 * (profile PN: a run of them, [tmpl.pn.meld]). */
#define KEEP_MAX 8

typedef struct {
    bool on;              /* parts may still settle (false after a mismatch) */
    size_t seen;          /* parts looked at by note_part */
    size_t open;          /* directives open among them */
    uint64_t is_if;       /* bit d: the directive open at depth d + 1 is an if */
    uint64_t has_else;    /* bit d: that if has had its else */
    tfx_node **nodes;     /* pass 3's elements of the settled parts (malloc'd) */
    size_t n;
    size_t cap;
} early;

static const char *ctrl_name(ctrl_kind c)
{
    return c == CTRL_ENDIF ? "endif" : c == CTRL_ELSE ? "else" : "endfor";
}

/* ---------------------------------------------------------------------
 * Literal text [tmpl.literal]
 * ------------------------------------------------------------------ */

/* The length of the next slice of a literal token's text: an escape
 * (quoted strings only: a backslash and its selector, \u with up to four
 * hex digits, \U with up to eight), "$", "$$", "$${" or the same with '%',
 * a line ending, or a run of other bytes. */
static size_t next_slice(const unsigned char *s, size_t n, bool quoted)
{
    size_t i;

    if (quoted && s[0] == '\\') {
        if (n >= 2 && (s[1] == 'u' || s[1] == 'U')) {
            size_t max = s[1] == 'u' ? 4 : 8;

            for (i = 2; i < n && i - 2 < max && strchr("0123456789abcdefABCDEF", s[i]) != NULL
                        && s[i] != '\0'; i++)
                ;
            return i;
        }
        if (n >= 2) {
            size_t need = s[1] < 0x80 ? 1 : s[1] >= 0xC0 && s[1] <= 0xDF ? 2
                          : s[1] >= 0xE0 && s[1] <= 0xEF ? 3 : s[1] >= 0xF0 && s[1] <= 0xF7 ? 4 : 0;

            for (i = 2; need > 0 && i < 1 + need; i++)
                if (i >= n || s[i] < 0x80 || s[i] > 0xBF)
                    need = 0;
            return need > 0 ? 1 + need : 1;
        }
        return 1;
    }
    if (s[0] == '$' || s[0] == '%') {
        if (n >= 2 && s[1] == s[0])
            return n >= 3 && s[2] == '{' ? 3 : 2;
        return 1;
    }
    if (s[0] == '\r')
        return n >= 2 && s[1] == '\n' ? 2 : 1;
    if (s[0] == '\n')
        return 1;
    for (i = 0; i < n; i++)
        if ((quoted && s[i] == '\\') || s[i] == '$' || s[i] == '%' || s[i] == '\r' || s[i] == '\n')
            break;
    return i;
}

static int hex_value(unsigned char c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* Appends the UTF-8 encoding of cp to out. */
static size_t encode_utf8(unsigned long cp, unsigned char *out)
{
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (unsigned char)(0xC0 | (cp >> 6));
        out[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 | (cp >> 12));
        out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | (cp >> 18));
    out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Decodes one escape slice s[0..n) into out (at most n bytes); returns the
 * bytes written.  Reports an invalid escape at `r` [tmpl.literal.escape].
 * With `probe`, an invalid escape is not reported: (size_t)-1 says so, and
 * `r` is not looked at. */
static size_t decode_escape(parser *p, const unsigned char *s, size_t n, tfx_range r,
                            unsigned char *out, bool probe)
{
    if (probe) {
        /* only ask whether the escape is valid; decode it if it is */
        bool valid = n >= 2 && strchr("nrt\"\\uU", s[1]) != NULL && s[1] != '\0';

        if (valid && (s[1] == 'u' || s[1] == 'U')) {
            unsigned long cp = 0;
            size_t k;

            valid = n == (s[1] == 'u' ? 6u : 10u);
            for (k = 2; valid && k < n; k++)
                cp = cp * 16 + (unsigned long)hex_value(s[k]);
            valid = valid && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
        }
        if (!valid)
            return (size_t)-1;
    }
    if (n < 2) {
        tfx_p_error(p, TFX_CAT_INVALID_ESCAPE, "Invalid escape sequence", &r, NULL,
                    "A backslash must be followed by an escape character.");
        memcpy(out, s, n);
        return n;
    }
    switch (s[1]) {
    case 'n': out[0] = '\n'; return 1;
    case 'r': out[0] = '\r'; return 1;
    case 't': out[0] = '\t'; return 1;
    case '"': out[0] = '"'; return 1;
    case '\\': out[0] = '\\'; return 1;
    case 'u':
    case 'U': {
        size_t want = s[1] == 'u' ? 6 : 10;
        unsigned long cp = 0;
        size_t i;

        if (n != want) {
            tfx_p_error(p, TFX_CAT_INVALID_ESCAPE, "Invalid escape sequence", &r, NULL,
                        "\\%c must be followed by exactly %s hexadecimal digits.", s[1],
                        s[1] == 'u' ? "four" : "eight");
            memcpy(out, s, n);
            return n;
        }
        for (i = 2; i < n; i++)
            cp = cp * 16 + (unsigned long)hex_value(s[i]);
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            tfx_p_error(p, TFX_CAT_INVALID_ESCAPE, "Invalid escape sequence", &r, NULL,
                        "U+%04lx is not a character UTF-8 can encode.", cp);
            memcpy(out, s, n);
            return n;
        }
        return encode_utf8(cp, out);
    }
    default:
        tfx_p_error(p, TFX_CAT_INVALID_ESCAPE, "Invalid escape sequence", &r, NULL,
                    "\"\\%.*s\" is not an escape; the escapes are \\n \\r \\t \\\" \\\\ \\uNNNN "
                    "and \\UNNNNNNNN.", (int)(n - 1), (const char *)s + 1);
        memcpy(out, s + 1, n - 1);
        return n - 1;
    }
}

/* The position `nbytes` bytes into a token that starts at `start`,
 * counting lines and grapheme clusters (the profile's, [lex.pos.column.pn])
 * as the token's own range does (a cluster that begins with CR or LF
 * starts a line). */
static tfx_pos advance_pos(const parser *p, tfx_pos start, const unsigned char *s, size_t nbytes)
{
    size_t j = 0;

    while (j < nbytes) {
        size_t g = tfx_text_grapheme_len_profile(s + j, nbytes - j, p->pn);

        start.byte += g;
        if (s[j] == '\r' || s[j] == '\n') {
            start.line++;
            start.column = 1;
        } else {
            start.column++;
        }
        j += g;
    }
    return start;
}

/* Bytes that can change in a literal's decoding: 1 for '$' and '%' (they
 * may begin "$${" or "%%{"), 2 for a backslash (an escape, in quoted
 * strings). */
static const unsigned char literal_special[256] = {['$'] = 1, ['%'] = 1, ['\\'] = 2};

/* [tmpl.literal] The fast path of decode_literal: a literal with none of
 * those bytes decodes to its own bytes, copied at once.  Why
 * that is decode_literal's result: next_slice cuts such text into runs of
 * other bytes and line endings only (every other kind of slice begins with
 * one of those bytes), and decode_literal copies both kinds as they are.
 * *ascii says whether the text is all ASCII.  Returns false, having done
 * nothing, for any other text. */
static bool plain_literal(parser *p, tfx_token tok, bool quoted, const char **text, size_t *ntext,
                          bool *ascii)
{
    unsigned mask = quoted ? 3u : 1u;
    unsigned seen = 0;
    unsigned char any = 0;   /* the bytes or'ed: below 0x80 for ASCII */
    unsigned char *out;
    size_t i;

    for (i = 0; i < tok.nbytes; i++) {
        seen |= literal_special[tok.bytes[i]];
        any |= tok.bytes[i];
    }
    if ((seen & mask) != 0)
        return false;
    *ascii = any < 0x80;
    out = tfx_p_alloc_raw(p, tok.nbytes + 1);
    *text = "";
    *ntext = 0;
    if (out == NULL)
        return true;
    memcpy(out, tok.bytes, tok.nbytes);
    out[tok.nbytes] = '\0';
    *text = (const char *)out;
    *ntext = tok.nbytes;
    return true;
}

/* The text of a literal token: escapes decoded (quoted strings), "$${"
 * and "%%{" made "${" and "%{" (all templates) [tmpl.literal].  The range
 * of an escape is only worked out when the escape is in error.  *ascii:
 * the text is known to be all ASCII (only said by plain_literal). */
static void decode_literal(parser *p, tfx_token tok, bool quoted, const char **text, size_t *ntext,
                           bool *ascii)
{
    unsigned char *out;
    size_t nout = 0;
    size_t i = 0;

    *ascii = false;
    if (!p->general && plain_literal(p, tok, quoted, text, ntext, ascii))
        return;
    out = tfx_p_alloc_raw(p, tok.nbytes + 1);
    *text = "";
    *ntext = 0;
    if (out == NULL)
        return;
    while (i < tok.nbytes) {
        const unsigned char *s = tok.bytes + i;
        size_t len = next_slice(s, tok.nbytes - i, quoted);

        if (quoted && s[0] == '\\') {
            tfx_range r = tok.range;
            size_t wrote = decode_escape(p, s, len, r, out + nout, true);

            if (wrote == (size_t)-1) {
                /* an invalid escape: report it with its range */
                r.start = advance_pos(p, tok.range.start, tok.bytes, i);
                r.end = advance_pos(p, r.start, s, len);
                wrote = decode_escape(p, s, len, r, out + nout, false);
            }
            nout += wrote;
        } else if (len == 3 && (s[0] == '$' || s[0] == '%')) {
            out[nout++] = s[0];
            out[nout++] = '{';
        } else {
            memcpy(out + nout, s, len);
            nout += len;
        }
        i += len;
    }
    out[nout] = '\0';
    *text = (const char *)out;
    *ntext = nout;
}

/* [tmpl.strip] [tmpl.heredoc.flush] The bytes of white space at the start
 * of s[0..n) (tfx_text_space_prefix), with a fast path for ASCII: a run of
 * ASCII white space (09-0D, 20) is counted byte by byte, and only a
 * non-ASCII byte after it sends the rest to tfx_text_space_prefix.  Why
 * that is tfx_text_space_prefix's result: it walks the text code point by
 * code point while each is white space (the Unicode property, which among
 * ASCII code points is exactly 09-0D and 20); an ASCII byte is a code
 * point of its own, so the walk passes the same run and stops at the same
 * ASCII byte, and where it goes on past the run it goes on from a code
 * point boundary, as tfx_text_space_prefix of the rest does. */
static size_t space_prefix(const parser *p, const unsigned char *s, size_t n)
{
    size_t i = 0;

    if (p->general)
        return tfx_text_space_prefix(s, n);
    while (i < n && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')))
        i++;
    if (i < n && s[i] >= 0x80)
        i += tfx_text_space_prefix(s + i, n - i);
    return i;
}

/* ---------------------------------------------------------------------
 * Pass 1: the flat list of parts [tmpl.parts]
 * ------------------------------------------------------------------ */

static bool push_part(parser *p, vec *parts, const part *pt)
{
    return tfx_p_push(p, parts, pt, sizeof(*pt));
}

static part *last_part(parser *p, const vec *parts)
{
    return parts->n > 0 ? tfx_p_item(p, parts, sizeof(part), parts->n - 1) : NULL;
}

/* [tmpl.strip] "${~" and "%{~" remove the white space at the end of the
 * literal just before; "~}" removes it from the start of the literal just
 * after. */
static void strip_previous(parser *p, const vec *parts, tfx_token open, bool can_strip)
{
    part *prev = last_part(p, parts);

    if (can_strip && open.nbytes == 3 && open.bytes[2] == '~' && prev != NULL
        && prev->kind == PART_LITERAL && !p->oom) {
        tfx_literal *lit = &prev->u.node->as.literal;

        lit->ntext -= tfx_text_space_suffix((const unsigned char *)lit->text, lit->ntext);
    }
}

/* The interpolation after a "${" [tmpl.interp]. */
static void parse_interp_part(parser *p, vec *parts, tfx_token_kind end,
                              tfx_range start, bool *strip_next)
{
    part pt;
    tfx_token close;

    memset(&pt, 0, sizeof(pt));
    tfx_p_push_newlines(p, false);
    pt.u.node = tfx_p_expression(p);
    close = tfx_p_peek(p);
    if (close.kind != TFX_TOK_TEMPLATE_SEQ_END) {
        if (!p->recovery) {
            tfx_range ctx = tfx_p_between(start, close.range);

            if (close.kind == TFX_TOK_EOF)
                tfx_p_error(p, TFX_CAT_UNTERMINATED, "Unclosed template interpolation sequence",
                            &start, NULL, "The input ends before the closing brace of this interpolation.");
            else if (close.kind == TFX_TOK_COLON)
                tfx_p_error(p, TFX_CAT_TRAILING_INPUT, "Extra characters after interpolation expression",
                            &close.range, &ctx,
                            "A colon cannot follow an interpolated expression. If this is text for "
                            "another language, escape the sequence as \"$${\".");
            else if ((close.kind == TFX_TOK_CQUOTE || close.kind == TFX_TOK_OQUOTE)
                     && end == TFX_TOK_CQUOTE)
                tfx_p_error(p, TFX_CAT_UNTERMINATED, "Unclosed template interpolation sequence",
                            &start, NULL, "The quoted string ends before the closing brace of this interpolation.");
            else
                tfx_p_error(p, TFX_CAT_TRAILING_INPUT, "Extra characters after interpolation expression",
                            &close.range, &ctx,
                            "The interpolated expression is followed by more input before the closing "
                            "brace. If this is text for another language, escape the sequence as \"$${\".");
        }
        tfx_p_recover(p, TFX_TOK_TEMPLATE_SEQ_END);
    } else {
        tfx_p_skip(p);
        if (close.nbytes == 2 && close.bytes[0] == '~')
            *strip_next = true;
    }
    tfx_p_pop_newlines(p);
    pt.kind = PART_INTERP;
    push_part(p, parts, &pt);
}

/* The directive keywords [tmpl.directive]. */
typedef enum { KW_NONE, KW_IF, KW_ELSE, KW_ENDIF, KW_FOR, KW_ENDFOR } directive_keyword;

/* Which directive keyword an identifier token is, by its length and
 * bytes (one comparison instead of one per keyword). */
static directive_keyword keyword_of(tfx_token kw)
{
    switch (kw.nbytes) {
    case 2: return memcmp(kw.bytes, "if", 2) == 0 ? KW_IF : KW_NONE;
    case 3: return memcmp(kw.bytes, "for", 3) == 0 ? KW_FOR : KW_NONE;
    case 4: return memcmp(kw.bytes, "else", 4) == 0 ? KW_ELSE : KW_NONE;
    case 5: return memcmp(kw.bytes, "endif", 5) == 0 ? KW_ENDIF : KW_NONE;
    case 6: return memcmp(kw.bytes, "endfor", 6) == 0 ? KW_ENDFOR : KW_NONE;
    default: return KW_NONE;
    }
}

/* A directive after a "%{": if, else, endif, for, endfor
 * [tmpl.directive]. */
static void parse_directive_part(parser *p, vec *parts, tfx_token open, tfx_range start,
                                 bool *strip_next)
{
    part pt;
    tfx_token kw;
    directive_keyword which;
    tfx_token close;
    tfx_node *expr = NULL;       /* IF: condition; FOR: collection */
    const char *key_var = NULL;  /* FOR */
    size_t nkey_var = 0;
    const char *val_var = NULL;
    size_t nval_var = 0;
    tfx_range range;

    memset(&pt, 0, sizeof(pt));
    tfx_p_push_newlines(p, false);
    kw = tfx_p_peek(p);
    if (kw.kind != TFX_TOK_IDENT) {
        if (!p->recovery) {
            tfx_range ctx = tfx_p_between(open.range, kw.range);

            tfx_p_error(p, TFX_CAT_TEMPLATE_DIRECTIVE, "Invalid template directive", &kw.range, &ctx,
                        "A %%{ sequence must begin with a directive keyword: if, else, endif, for or endfor.");
        }
        tfx_p_recover(p, TFX_TOK_TEMPLATE_SEQ_END);
        tfx_p_pop_newlines(p);
        return;
    }
    tfx_p_skip(p);
    which = keyword_of(kw);
    if (which == KW_IF) {
        pt.kind = PART_IF;
        expr = tfx_p_expression(p);
    } else if (which == KW_ELSE || which == KW_ENDIF || which == KW_ENDFOR) {
        pt.kind = PART_END_CTRL;
        pt.ctrl = which == KW_ELSE ? CTRL_ELSE : which == KW_ENDIF ? CTRL_ENDIF : CTRL_ENDFOR;
    } else if (which == KW_FOR) {
        tfx_token name = tfx_p_peek(p);
        const char *why = NULL;

        if (name.kind != TFX_TOK_IDENT) {
            why = "The word for must be followed by a variable name.";
        } else {
            tfx_p_skip(p);
            val_var = (const char *)name.bytes;
            nval_var = name.nbytes;
            if (tfx_p_peek_kind(p) == TFX_TOK_COMMA) {
                key_var = val_var;
                nkey_var = nval_var;
                tfx_p_skip(p);
                name = tfx_p_peek(p);
                if (name.kind != TFX_TOK_IDENT) {
                    why = "The comma must be followed by the value's variable name.";
                } else {
                    tfx_p_skip(p);
                    val_var = (const char *)name.bytes;
                    nval_var = name.nbytes;
                }
            }
            if (why == NULL && !tfx_p_peek_keyword(p, "in"))
                why = "The variable names must be followed by the word in.";
        }
        if (why != NULL) {
            if (!p->recovery) {
                tfx_range subj = tfx_p_peek_range(p);

                tfx_p_error(p, TFX_CAT_TEMPLATE_DIRECTIVE, "Invalid 'for' directive", &subj, NULL,
                            "%s", why);
            }
            tfx_p_recover(p, TFX_TOK_TEMPLATE_SEQ_END);
            tfx_p_pop_newlines(p);
            return;
        }
        tfx_p_skip(p); /* "in" */
        pt.kind = PART_FOR;
        expr = tfx_p_expression(p);
    } else {
        if (!p->recovery) {
            tfx_range ctx = tfx_p_between(open.range, kw.range);

            tfx_p_error(p, TFX_CAT_TEMPLATE_DIRECTIVE, "Invalid template control keyword",
                        &kw.range, &ctx,
                        "\"%.*s\" is not a directive; the directives are if, else, endif, for and endfor.",
                        (int)kw.nbytes, (const char *)kw.bytes);
        }
        tfx_p_recover(p, TFX_TOK_TEMPLATE_SEQ_END);
        tfx_p_pop_newlines(p);
        return;
    }
    range = tfx_p_between(open.range, tfx_p_peek_range(p));
    if (pt.kind == PART_IF) {
        pt.u.node = tfx_p_node(p, TFX_NODE_CONDITIONAL, range);
        pt.u.node->as.conditional.cond = expr;
        pt.u.node->as.conditional.directive = true;
    } else if (pt.kind == PART_FOR) {
        tfx_node *f = tfx_p_node(p, TFX_NODE_FOR, range);

        f->as.for_expr.key_var = key_var;
        f->as.for_expr.nkey_var = nkey_var;
        f->as.for_expr.val_var = val_var;
        f->as.for_expr.nval_var = nval_var;
        f->as.for_expr.coll = expr;
        f->as.for_expr.open_range = range;
        pt.u.node = f;
    } else {
        tfx_range *r = tfx_p_alloc_raw(p, sizeof(*r));

        if (r != NULL)
            *r = range;
        pt.u.range = r;     /* NULL only when out of memory: never read then */
    }
    push_part(p, parts, &pt);
    close = tfx_p_peek(p);
    if (close.kind != TFX_TOK_TEMPLATE_SEQ_END) {
        if (!p->recovery) {
            char summary[64];
            const char *s;
            tfx_range ctx = tfx_p_between(start, close.range);

            /* The summary names the keyword; keep it in the arena. */
            snprintf(summary, sizeof(summary), "Extra characters in %.*s marker",
                     (int)(kw.nbytes < 16 ? kw.nbytes : 16), (const char *)kw.bytes);
            s = tfx_arena_strndup(p->arena, summary, strlen(summary));
            tfx_p_error(p, TFX_CAT_TRAILING_INPUT, s != NULL ? s : "Extra characters in marker",
                        &close.range, &ctx, "The directive is followed by more input before its closing brace.");
        }
        tfx_p_recover(p, TFX_TOK_TEMPLATE_SEQ_END);
    } else {
        tfx_p_skip(p);
        if (close.nbytes == 2 && close.bytes[0] == '~')
            *strip_next = true;
    }
    tfx_p_pop_newlines(p);
}

/* A string literal node of a LITERAL part, its value not yet worked out
 * (string_literal does that in pass 3). */
static tfx_node *literal_part_node(parser *p, const char *text, size_t ntext, tfx_range range)
{
    tfx_node *n = tfx_p_node(p, TFX_NODE_LITERAL, range);

    n->as.literal.kind = TFX_LIT_STRING;
    n->as.literal.text = text;
    n->as.literal.ntext = ntext;
    return n;
}

static void settle_parts(parser *p, early *e, vec *parts);

/* Reads the parts of a template up to a token of kind `end_kind`; the
 * last part is always PART_END, the end token's range in `end`.  Parts
 * that settle on the way are taken by pass 3 into e. */
static void parse_parts(parser *p, vec *parts, tfx_token_kind end_kind, tfx_range *end,
                        tfx_range *whole, early *e)
{
    tfx_range start = tfx_p_peek_range(p);
    tfx_range end_range;
    bool strip_next = false;
    bool last_was_literal = false;
    part pt;

    memset(&end_range, 0, sizeof(end_range));
    for (;;) {
        tfx_token next;
        bool strip = strip_next;
        bool can_strip = last_was_literal;

        if (e->on && parts->n >= SETTLE_BATCH)
            settle_parts(p, e, parts);
        next = tfx_p_read(p);

        if (next.kind == end_kind) {
            end_range = next.range;
            break;
        }
        strip_next = false;
        last_was_literal = false;
        if (next.kind == TFX_TOK_STRING_LIT || next.kind == TFX_TOK_QUOTED_LIT) {
            const char *text;
            size_t ntext;
            bool ascii;

            decode_literal(p, next, next.kind == TFX_TOK_QUOTED_LIT, &text, &ntext, &ascii);
            if (strip) {
                size_t lead = space_prefix(p, (const unsigned char *)text, ntext);

                text += lead;
                ntext -= lead;
            }
            memset(&pt, 0, sizeof(pt));
            pt.kind = PART_LITERAL;
            pt.ascii = ascii;
            pt.u.node = literal_part_node(p, text, ntext, next.range);
            push_part(p, parts, &pt);
            last_was_literal = true;
        } else if (next.kind == TFX_TOK_TEMPLATE_INTERP) {
            strip_previous(p, parts, next, can_strip);
            parse_interp_part(p, parts, end_kind, start, &strip_next);
        } else if (next.kind == TFX_TOK_TEMPLATE_CONTROL) {
            strip_previous(p, parts, next, can_strip);
            parse_directive_part(p, parts, next, start, &strip_next);
        } else {
            tfx_token final;

            if (!p->recovery) {
                tfx_range ctx = tfx_p_between(start, next.range);

                tfx_p_error(p, TFX_CAT_UNTERMINATED, "Unterminated template string", &next.range, &ctx,
                            "The template has no closing marker.");
            }
            final = tfx_p_recover(p, end_kind);
            end_range = final.range;
            break;
        }
    }
    if (parts->n == 0 && e->n == 0) {
        memset(&pt, 0, sizeof(pt));
        pt.kind = PART_LITERAL;
        pt.u.node = literal_part_node(p, "", 0, tfx_range_at(start.end));
        push_part(p, parts, &pt);
    }
    memset(&pt, 0, sizeof(pt));
    pt.kind = PART_END;
    push_part(p, parts, &pt);
    *end = end_range;
    *whole = tfx_p_between(start, end_range);
}

/* ---------------------------------------------------------------------
 * Pass 2: "<<-" indentation [tmpl.heredoc.flush]
 * ------------------------------------------------------------------ */

/* Whether s[0..n) is ASCII without CR: text in which every byte is a
 * grapheme cluster of its own, whatever follows it, when the byte after
 * it is ASCII too (or there is none) [lex.pos.column].  (Two ASCII bytes
 * are joined into one cluster only as CR LF; a non-ASCII byte after the
 * text may be a mark that joins its last byte.) */
static bool plain_columns(const unsigned char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (s[i] >= 0x80 || s[i] == '\r')
            return false;
    return true;
}

/* [tmpl.heredoc.flush] [tmpl.heredoc.flush.pn] The grapheme clusters (the
 * profile's) of a line's indentation s[0..lead)
 * (tfx_text_count_graphemes_profile), with a fast path: text that
 * plain_columns accepts has a cluster per byte in both profiles
 * (count_graphemes looks at those bytes alone, so what follows does not
 * matter). */
static size_t indent_columns(const parser *p, const unsigned char *s, size_t lead)
{
    if (!p->general && plain_columns(s, lead))
        return lead;
    return tfx_text_count_graphemes_profile(s, lead, p->pn);
}

/* [tmpl.heredoc.flush] [tmpl.heredoc.flush.pn] The bytes of the first
 * `columns` grapheme clusters (the profile's) of s[0..n)
 * (tfx_text_skip_graphemes_profile), with a fast path: when the first
 * `columns` bytes (all of s when it is shorter) are accepted by
 * plain_columns and the byte after them is ASCII or there is none, each
 * is a cluster, and the last one ends where they end. */
static size_t indent_bytes(const parser *p, const unsigned char *s, size_t n, size_t columns)
{
    size_t k = columns < n ? columns : n;
    size_t taken;

    if (!p->general && plain_columns(s, k) && (k == n || s[k] < 0x80))
        return k;
    return tfx_text_skip_graphemes_profile(s, n, columns, &taken, p->pn);
}

/* Removes from every line the indentation all its non-blank lines share.
 * A line's indentation is the white space (in grapheme clusters) at the
 * start of its first part when that part is literal; a line whose first
 * part is an interpolation or directive has none.  A line that is only
 * white space and its newline is blank: it neither counts nor changes. */
static void flush_heredoc(parser *p, const vec *parts)
{
    part *items = tfx_p_item(p, parts, sizeof(part), 0);
    size_t min = (size_t)-1;
    bool line_start = true;
    size_t i;

    for (i = 0; i < parts->n; i++) {
        part *pt = &items[i];

        if (line_start) {
            size_t spaces = 0;

            line_start = false;
            if (pt->kind == PART_LITERAL) {
                const tfx_literal *lit = &pt->u.node->as.literal;
                const unsigned char *s = (const unsigned char *)lit->text;
                size_t lead = space_prefix(p, s, lit->ntext);

                if (lead == lit->ntext && lit->ntext > 0 && s[lit->ntext - 1] == '\n') {
                    spaces = (size_t)-1;
                } else {
                    spaces = indent_columns(p, s, lead);
                    pt->indented = true;
                }
            } else if (pt->kind == PART_END) {
                break;
            }
            if (spaces < min)
                min = spaces;
        }
        if (pt->kind == PART_LITERAL && pt->u.node->as.literal.ntext > 0
            && pt->u.node->as.literal.text[pt->u.node->as.literal.ntext - 1] == '\n')
            line_start = true;
    }
    for (i = 0; i < parts->n; i++) {
        part *pt = &items[i];
        tfx_node *n;
        size_t skip;

        if (pt->kind != PART_LITERAL || !pt->indented)
            continue;
        n = pt->u.node;
        skip = indent_bytes(p, (const unsigned char *)n->as.literal.text, n->as.literal.ntext, min);
        n->as.literal.text += skip;
        n->as.literal.ntext -= skip;
        n->range.start.column += min;
        n->range.start.byte += skip;
    }
}

/* ---------------------------------------------------------------------
 * Pass 2b (profile PN): consecutive literals joined [tmpl.pn.meld]
 * ------------------------------------------------------------------ */

/* In profile PN each run of literal parts (left after strip markers and
 * flushing) becomes one literal part: its text the run's texts one after
 * the other, its range from the first's start to the last's end.  So a
 * quoted string of literal text alone, escapes such as "$${" included,
 * is one literal, a constant index key [gram.traversal.index]. */
static void meld_literals(parser *p, vec *parts)
{
    part *items = tfx_p_item(p, parts, sizeof(part), 0);
    size_t out = 0;
    size_t i = 0;

    while (i < parts->n) {
        size_t j = i + 1;

        if (items[i].kind == PART_LITERAL)
            while (j < parts->n && items[j].kind == PART_LITERAL)
                j++;
        if (j - i > 1) {
            tfx_node *first = items[i].u.node;
            size_t total = 0;
            char *text;

            for (size_t k = i; k < j; k++)
                total += items[k].u.node->as.literal.ntext;
            text = tfx_p_alloc_raw(p, total + 1);
            if (text != NULL) {
                size_t at = 0;

                for (size_t k = i; k < j; k++) {
                    const tfx_literal *lit = &items[k].u.node->as.literal;

                    memcpy(text + at, lit->text, lit->ntext);
                    at += lit->ntext;
                    items[i].ascii = items[i].ascii && items[k].ascii;
                }
                text[total] = '\0';
                first->as.literal.text = text;
                first->as.literal.ntext = total;
            }
            first->range = tfx_p_between(first->range, items[j - 1].u.node->range);
        }
        items[out++] = items[i];
        i = j;
    }
    parts->n = out;
}

/* ---------------------------------------------------------------------
 * Pass 3: directive structure [tmpl.if] [tmpl.for]
 * ------------------------------------------------------------------ */

/* Reads the parts from the scratch stack; a part's address is good until
 * the next push (the stack moves when it grows). */
typedef struct {
    parser *p;
    vec parts;
    size_t pos;
    tfx_range end_range;     /* of the END part: the template's end */
} cursor;

/* The range of a part other than INTERP. */
static tfx_range part_range(const cursor *c, const part *pt)
{
    switch (pt->kind) {
    case PART_END_CTRL: return *pt->u.range;
    case PART_END: return c->end_range;
    default: return pt->u.node->range;
    }
}

static part *cur_peek(cursor *c)
{
    return tfx_p_item(c->p, &c->parts, sizeof(part), c->pos);
}

/* Reads a part; the end part is never passed. */
static part *cur_read(cursor *c)
{
    part *pt = cur_peek(c);

    if (pt->kind != PART_END)
        c->pos++;
    return pt;
}

static tfx_node *sequence_node(parser *p, cursor *c);

/* [value.string.nfc] tfx_p_literal_value of a string literal whose text
 * plain_literal found all ASCII: such text, when it ends where its bytes
 * do (not cut short by a strip marker), is its own NFC form, as
 * tfx_p_literal_value finds after scanning it again; other text goes to
 * tfx_p_literal_value. */
static void ascii_literal_value(parser *p, tfx_literal *lit)
{
    if (lit->text[lit->ntext] == '\0') {
        lit->value.nfc.s = lit->text;
        lit->value.nfc.n = lit->ntext;
    } else {
        tfx_p_literal_value(p, lit);
    }
}

static tfx_node *string_literal(parser *p, const char *text, size_t ntext, tfx_range range)
{
    tfx_node *n = tfx_p_node(p, TFX_NODE_LITERAL, range);

    n->as.literal.kind = TFX_LIT_STRING;
    n->as.literal.text = text;
    n->as.literal.ntext = ntext;
    tfx_p_literal_value(p, &n->as.literal);
    return n;
}

/* A template node of the nodes in v, ranging from the first to the last. */
static tfx_node *template_of(parser *p, vec *v)
{
    tfx_node **items = tfx_p_item(p, v, sizeof(node_ptr), 0);
    size_t n = v->n;
    tfx_node *t = tfx_p_node(p, TFX_NODE_TEMPLATE,
                             tfx_p_between(items[0]->range, items[n - 1]->range));

    t->as.template.parts = tfx_p_finish(p, v, sizeof(node_ptr));
    t->as.template.nparts = t->as.template.parts != NULL ? n : 0;
    return t;
}

/* %{if} ... [%{else} ...] %{endif} becomes a conditional of two templates. */
static tfx_node *parse_if(parser *p, cursor *c)
{
    tfx_node *n = cur_read(c)->u.node;  /* the CONDITIONAL node of the %{if} */
    tfx_range open_range = n->range;
    vec then_parts = {0};
    vec else_parts = {0};
    vec *current = &then_parts;
    tfx_range endif_range;
    tfx_node *yes;
    tfx_node *no;
    tfx_node *item;

    for (;;) {
        part *next = cur_peek(c);
        tfx_range next_range;

        if (next->kind == PART_END) {
            next_range = part_range(c, next);
            tfx_p_error(p, TFX_CAT_TEMPLATE_DIRECTIVE, "Unexpected end of template", &next_range, NULL,
                        "The if directive at %zu:%zu has no matching endif.",
                        open_range.start.line, open_range.start.column);
            tfx_p_drop(p, &else_parts);
            tfx_p_drop(p, &then_parts);
            return tfx_p_placeholder(p, next_range);
        }
        if (next->kind == PART_END_CTRL) {
            cur_read(c);
            next_range = part_range(c, next);
            if (next->ctrl == CTRL_ELSE && current == &then_parts) {
                current = &else_parts;
                continue;
            }
            if (next->ctrl == CTRL_ENDIF) {
                endif_range = next_range;
                break;
            }
            if (next->ctrl == CTRL_ELSE)
                tfx_p_error(p, TFX_CAT_TEMPLATE_DIRECTIVE, "Unexpected else directive", &next_range,
                            NULL, "The if directive at %zu:%zu already has an else.",
                            open_range.start.line, open_range.start.column);
            else
                tfx_p_error(p, TFX_CAT_TEMPLATE_DIRECTIVE, "Unexpected endfor directive", &next_range,
                            NULL, "An endif was expected, for the if directive at %zu:%zu.",
                            open_range.start.line, open_range.start.column);
            tfx_p_drop(p, &else_parts);
            tfx_p_drop(p, &then_parts);
            return tfx_p_placeholder(p, next_range);
        }
        item = sequence_node(p, c);
        tfx_p_push(p, current, &item, sizeof(node_ptr));
    }
    if (then_parts.n == 0) {
        item = string_literal(p, "", 0, tfx_range_at(open_range.end));
        tfx_p_push(p, &then_parts, &item, sizeof(node_ptr));
    }
    if (else_parts.n == 0) {
        item = string_literal(p, "", 0, tfx_range_at(endif_range.start));
        tfx_p_push(p, &else_parts, &item, sizeof(node_ptr));
    }
    if (p->oom) {
        tfx_p_drop(p, &else_parts);
        tfx_p_drop(p, &then_parts);
        return tfx_p_placeholder(p, open_range);
    }
    yes = template_of(p, &then_parts);
    no = template_of(p, &else_parts);
    n->range = tfx_p_between(open_range, endif_range);
    n->as.conditional.true_result = yes;
    n->as.conditional.false_result = no;
    return n;
}

/* %{for k, v in coll} ... %{endfor} becomes a tuple for expression whose
 * elements are joined. */
static tfx_node *parse_for(parser *p, cursor *c)
{
    tfx_node *f = cur_read(c)->u.node;  /* the FOR node of the %{for} */
    tfx_range open_range = f->range;
    vec body = {0};
    tfx_range endfor_range;
    tfx_node *content;
    tfx_node *n;
    tfx_node *item;

    for (;;) {
        part *next = cur_peek(c);
        tfx_range next_range;

        if (next->kind == PART_END) {
            next_range = part_range(c, next);
            tfx_p_error(p, TFX_CAT_TEMPLATE_DIRECTIVE, "Unexpected end of template", &next_range, NULL,
                        "The for directive at %zu:%zu has no matching endfor.",
                        open_range.start.line, open_range.start.column);
            tfx_p_drop(p, &body);
            return tfx_p_placeholder(p, next_range);
        }
        if (next->kind == PART_END_CTRL) {
            cur_read(c);
            next_range = part_range(c, next);
            if (next->ctrl == CTRL_ENDFOR) {
                endfor_range = next_range;
                break;
            }
            if (next->ctrl == CTRL_ELSE)
                tfx_p_error(p, TFX_CAT_TEMPLATE_DIRECTIVE, "Unexpected else directive", &next_range,
                            NULL, "A for directive has no else clause.");
            else
                tfx_p_error(p, TFX_CAT_TEMPLATE_DIRECTIVE, "Unexpected endif directive", &next_range,
                            NULL, "An endfor was expected, for the for directive at %zu:%zu.",
                            open_range.start.line, open_range.start.column);
            tfx_p_drop(p, &body);
            return tfx_p_placeholder(p, next_range);
        }
        item = sequence_node(p, c);
        tfx_p_push(p, &body, &item, sizeof(node_ptr));
    }
    if (body.n == 0) {
        item = string_literal(p, "", 0, tfx_range_at(open_range.end));
        tfx_p_push(p, &body, &item, sizeof(node_ptr));
    }
    if (p->oom) {
        tfx_p_drop(p, &body);
        return tfx_p_placeholder(p, open_range);
    }
    content = template_of(p, &body);
    f->range = tfx_p_between(open_range, endfor_range);
    f->as.for_expr.value = content;
    f->as.for_expr.close_range = endfor_range;
    n = tfx_p_node(p, TFX_NODE_TEMPLATE_JOIN, f->range);
    n->as.join.tuple = f;
    return n;
}

/* One element of a template: a literal, an interpolation's expression, or
 * a whole if or for directive. */
static tfx_node *sequence_node(parser *p, cursor *c)
{
    part *pt = cur_peek(c);
    tfx_node *n;
    tfx_range r;

    switch (pt->kind) {
    case PART_LITERAL:
        cur_read(c);
        n = pt->u.node;
        if (pt->ascii)
            ascii_literal_value(p, &n->as.literal);
        else
            tfx_p_literal_value(p, &n->as.literal);
        return n;
    case PART_INTERP:
        cur_read(c);
        return pt->u.node;
    case PART_IF:
    case PART_FOR:
        if (!tfx_p_enter(p)) {
            /* Too deep: skip the directive's part and go on. */
            cur_read(c);
            return tfx_p_placeholder(p, pt->u.node->range);
        }
        n = pt->kind == PART_IF ? parse_if(p, c) : parse_for(p, c);
        tfx_p_leave(p);
        return n;
    case PART_END_CTRL:
        cur_read(c);
        r = part_range(c, pt);
        tfx_p_error(p, TFX_CAT_TEMPLATE_DIRECTIVE,
                    pt->ctrl == CTRL_ENDIF ? "Unexpected endif directive"
                    : pt->ctrl == CTRL_ELSE ? "Unexpected else directive" : "Unexpected endfor directive",
                    &r, NULL, "This %s matches no open directive.", ctrl_name((ctrl_kind)pt->ctrl));
        return tfx_p_placeholder(p, r);
    case PART_END:
    default:
        cur_read(c);
        r = part_range(c, pt);
        tfx_p_error(p, TFX_CAT_TEMPLATE_DIRECTIVE, "Unexpected end of template", &r, NULL,
                    "The template's directives are not balanced.");
        return tfx_p_placeholder(p, r);
    }
}

/* ---------------------------------------------------------------------
 * Pass 3 early: parts that have settled
 * ------------------------------------------------------------------ */

/* Pass 3 at the end of a large template reads parts and nodes that pass 1
 * made long before and that have left the caches by then (a bare template
 * of 1.6 MB: 51 MB in between).  So, in a template that is not flushed,
 * pass 3 takes the parts made so far whenever at least SETTLE_BATCH of
 * them have settled: every directive among them closed by its own marker
 * (an if by one else at most, then endif; a for by endfor) and no deeper
 * than the depth limit lets pass 3 go.  It then makes the same elements
 * as at the end, as it reads one element at a time and a directive's
 * element ends at its closing marker; it reports nothing for them, so its
 * diagnostics keep their place after pass 1's; and nothing later changes
 * those parts, but a literal at the end, whose trailing white space a
 * strip marker may still take ([tmpl.strip]): that part waits.  A marker
 * that would not close this way turns the early pass off for the rest of
 * the template (pass 3 at the end reports it).  The general path
 * (p->general) never runs it: the unit tests compare the two. */
/* Counts a new part into the open directives [tmpl.if] [tmpl.for]. */
static void note_part(const parser *p, early *e, const part *pt)
{
    uint64_t bit;

    if (pt->kind == PART_LITERAL || pt->kind == PART_INTERP)
        return;
    if (pt->kind == PART_IF || pt->kind == PART_FOR) {
        /* sequence_node enters one level per directive */
        if (e->open >= 64 || p->depth + e->open + 1 > p->max_depth) {
            e->on = false;
            return;
        }
        bit = (uint64_t)1 << e->open;
        e->open++;
        e->is_if = pt->kind == PART_IF ? e->is_if | bit : e->is_if & ~bit;
        e->has_else &= ~bit;
        return;
    }
    if (pt->kind != PART_END_CTRL)
        return;
    bit = e->open > 0 ? (uint64_t)1 << (e->open - 1) : 0;
    if (bit == 0 || ((e->is_if & bit) != 0) != (pt->ctrl != CTRL_ENDFOR)
        || (pt->ctrl == CTRL_ELSE && (e->has_else & bit) != 0)) {
        e->on = false;
        return;
    }
    if (pt->ctrl == CTRL_ELSE)
        e->has_else |= bit;
    else
        e->open--;
}

/* Notes the parts made since the last call, and takes the settled ones
 * into e (parse_parts calls it between parts, once SETTLE_BATCH wait). */
static void settle_parts(parser *p, early *e, vec *parts)
{
    cursor c;
    part kept[KEEP_MAX];
    size_t keep;
    size_t take;

    while (e->seen < parts->n && e->on) {
        note_part(p, e, tfx_p_item(p, parts, sizeof(part), e->seen));
        e->seen++;
    }
    if (!e->on || p->oom || e->open > 0)
        return;
    /* A literal at the end waits; in profile PN so does the whole run of
     * literals at the end, which pass 2b melds with whatever literals
     * follow [tmpl.pn.meld] (a run longer than KEEP_MAX waits for a later
     * call, when it has ended). */
    keep = 0;
    while (keep < parts->n && (keep == 0 || p->pn)
           && ((part *)tfx_p_item(p, parts, sizeof(part), parts->n - 1 - keep))->kind == PART_LITERAL) {
        if (keep == KEEP_MAX)
            return;
        kept[keep] = *(part *)tfx_p_item(p, parts, sizeof(part), parts->n - 1 - keep);
        keep++;
    }
    take = parts->n - keep;
    if (e->cap - e->n < take) {
        size_t cap = e->cap * 2 > e->n + take ? e->cap * 2 : e->n + take;
        tfx_node **nodes = cap <= SIZE_MAX / sizeof(tfx_node *)
                               ? realloc(e->nodes, cap * sizeof(tfx_node *))
                               : NULL;

        if (nodes == NULL) {
            p->oom = true;
            return;
        }
        e->nodes = nodes;
        e->cap = cap;
    }
    memset(&c, 0, sizeof(c));
    c.p = p;
    c.parts.base = parts->base;
    c.parts.n = take;
    /* [tmpl.pn.meld] the taken parts end in no literal that a later one
     * would join: melding them now melds what pass 2b would */
    if (p->pn)
        meld_literals(p, &c.parts);
    while (c.pos < c.parts.n)
        e->nodes[e->n++] = sequence_node(p, &c);
    tfx_p_drop(p, parts);
    while (keep > 0)
        push_part(p, parts, &kept[--keep]);
    e->seen = parts->n;
}

/* [tmpl.literal] [gram.term.template] The fast path of tfx_p_template for
 * a quoted string that is one literal token and its closing quote, the
 * commonest template: the template node of that one literal, made without
 * the part list.  Why it is tfx_p_template's result: parse_parts would
 * read the literal (decoding it the same way, with the same errors) and
 * then the quote, and no strip marker or directive can be among them, so
 * pass 3 makes the literal's string node the template's only part (not
 * unwrapped: it is no interpolation), ranging from the literal to the
 * quote.  Returns NULL, having read nothing, for any other template. */
static tfx_node *single_literal(parser *p, tfx_token_kind end)
{
    tfx_token lit;
    tfx_token close;
    const char *text;
    size_t ntext;
    bool ascii;
    tfx_node *n;
    tfx_node **parts;

    if (p->general || end != TFX_TOK_CQUOTE || tfx_p_peek_kind(p) != TFX_TOK_QUOTED_LIT
        || p->cache_after >= p->toks.n || p->toks.items[p->cache_after].kind != TFX_TOK_CQUOTE)
        return NULL;
    lit = tfx_p_read(p);
    decode_literal(p, lit, true, &text, &ntext, &ascii);
    close = tfx_p_read(p);
    parts = tfx_p_alloc_raw(p, sizeof(node_ptr));
    if (parts == NULL)
        return tfx_p_placeholder(p, tfx_p_between(lit.range, close.range));
    parts[0] = literal_part_node(p, text, ntext, lit.range);
    if (ascii)
        ascii_literal_value(p, &parts[0]->as.literal);
    else
        tfx_p_literal_value(p, &parts[0]->as.literal);
    n = tfx_p_node(p, TFX_NODE_TEMPLATE, tfx_p_between(lit.range, close.range));
    n->as.template.parts = parts;
    n->as.template.nparts = 1;
    return n;
}

tfx_node *tfx_p_template(parser *p, tfx_token_kind end, bool flush)
{
    vec parts = {0};
    vec nodes = {0};
    tfx_range whole;
    tfx_range end_range;
    cursor c;
    tfx_node *n;
    bool passthru;
    early e;

    n = single_literal(p, end);
    if (n != NULL)
        return n;
    memset(&e, 0, sizeof(e));
    e.on = !flush && !p->general;
    parse_parts(p, &parts, end, &end_range, &whole, &e);
    if (p->oom || parts.n == 0) {
        free(e.nodes);
        tfx_p_drop(p, &parts);
        return tfx_p_placeholder(p, whole);
    }
    if (flush)
        flush_heredoc(p, &parts);
    if (p->pn)
        meld_literals(p, &parts);
    /* [tmpl.unwrap] one interpolation and nothing else */
    passthru = e.n == 0 && parts.n == 2
               && ((part *)tfx_p_item(p, &parts, sizeof(part), 0))->kind == PART_INTERP;
    c.p = p;
    c.parts = parts;
    c.pos = 0;
    c.end_range = end_range;
    while (cur_peek(&c)->kind != PART_END) {
        tfx_node *item = sequence_node(p, &c);

        tfx_p_push(p, &nodes, &item, sizeof(node_ptr));
    }
    if (p->oom) {
        free(e.nodes);
        tfx_p_drop(p, &nodes);
        tfx_p_drop(p, &parts);
        return tfx_p_placeholder(p, whole);
    }
    if (passthru) {
        n = tfx_p_node(p, TFX_NODE_TEMPLATE_WRAP, whole);
        n->as.wrap.wrapped = *(tfx_node **)tfx_p_item(p, &nodes, sizeof(node_ptr), 0);
        tfx_p_drop(p, &nodes);
        tfx_p_drop(p, &parts);
        return n;
    }
    n = tfx_p_node(p, TFX_NODE_TEMPLATE, whole);
    if (e.n == 0) {
        size_t count = nodes.n;

        n->as.template.parts = tfx_p_finish(p, &nodes, sizeof(node_ptr));
        n->as.template.nparts = n->as.template.parts != NULL ? count : 0;
    } else {
        /* the settled elements, then the rest */
        size_t count = e.n + nodes.n;
        tfx_node **all = tfx_p_alloc_raw(p, count * sizeof(node_ptr));

        if (all != NULL) {
            memcpy(all, e.nodes, e.n * sizeof(node_ptr));
            if (nodes.n > 0)
                memcpy(all + e.n, tfx_p_item(p, &nodes, sizeof(node_ptr), 0), nodes.n * sizeof(node_ptr));
        }
        tfx_p_drop(p, &nodes);
        n->as.template.parts = all;
        n->as.template.nparts = all != NULL ? count : 0;
        free(e.nodes);
    }
    tfx_p_drop(p, &parts);
    return n;
}
