/* SPDX-License-Identifier: MPL-2.0 */
/*
 * scan.c — where an expression of HCL's native syntax ends, without
 * parsing it: at the first newline outside brackets, quoted strings,
 * heredocs, interpolations and directives (${ }, %{ }) and comments.
 * Variable definitions files (varfile.c) use it to split a file into
 * attributes; the console to know whether the input so far is still open.
 * Syntax errors are left to the parser: the scanner only has to find the
 * end the parser would find for well-formed input, and some end for the
 * rest.
 */
#include "cli.h"

#include <string.h>

#define MAX_NEST 256

typedef enum { C_BRACKET, C_STRING, C_INTERP, C_HEREDOC } ctx_kind;

typedef struct {
    ctx_kind kind;
    char close;             /* C_BRACKET: ')', ']' or '}' */
    const char *marker;     /* C_HEREDOC: the marker and its length */
    size_t marker_len;
} nest;

static int is_ident_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

static int is_ident_char(unsigned char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9') || c == '-';
}

/* Whether text[i..] is a heredoc introducer <<ID or <<-ID ending its line;
 * sets the marker and where the heredoc's first line starts. */
static int heredoc_start(const char *t, size_t n, size_t i, nest *h, size_t *body)
{
    size_t j = i + 2;
    size_t k;

    if (j < n && t[j] == '-')
        j++;
    if (j >= n || !is_ident_start((unsigned char)t[j]))
        return 0;
    for (k = j; k < n && is_ident_char((unsigned char)t[k]); k++)
        ;
    if (k < n && t[k] == '\r')
        k++;
    if (k < n && t[k] != '\n')
        return 0;
    h->kind = C_HEREDOC;
    h->marker = t + j;
    h->marker_len = (size_t)(k - j) - (t[k - 1] == '\r');
    *body = k < n ? k + 1 : n;
    return 1;
}

/* Whether the line starting at text[i] closes the heredoc h; sets *end to
 * the end of the marker. */
static int heredoc_end(const char *t, size_t n, size_t i, const nest *h, size_t *end)
{
    size_t j = i;

    while (j < n && (t[j] == ' ' || t[j] == '\t'))
        j++;
    if (n - j < h->marker_len || memcmp(t + j, h->marker, h->marker_len) != 0)
        return 0;
    j += h->marker_len;
    if (j < n && t[j] == '\r')
        j++;
    if (j < n && t[j] != '\n')
        return 0;
    *end = j;
    return 1;
}

size_t cli_scan_expr(const char *t, size_t n, int *open)
{
    nest stack[MAX_NEST];
    size_t depth = 0;
    size_t i = 0;
    int line_start = 0;     /* in a heredoc: at the start of one of its lines */

    *open = 0;
    while (i < n) {
        char c = t[i];
        nest *top = depth > 0 ? &stack[depth - 1] : NULL;

        if (top != NULL && (top->kind == C_STRING || top->kind == C_HEREDOC)) {
            size_t end;

            if (top->kind == C_HEREDOC && line_start && heredoc_end(t, n, i, top, &end)) {
                depth--;
                i = end;
                line_start = 0;
                continue;
            }
            line_start = 0;
            if ((c == '$' || c == '%') && i + 2 < n && t[i + 1] == c && t[i + 2] == '{') {
                i += 3;     /* $${ and %%{ are literal */
            } else if ((c == '$' || c == '%') && i + 1 < n && t[i + 1] == '{') {
                if (depth == MAX_NEST)
                    return n;
                stack[depth++] = (nest){C_INTERP, '}', NULL, 0};
                i += 2;
            } else if (top->kind == C_STRING && c == '\\') {
                i += 2;
            } else if (top->kind == C_STRING && (c == '"' || c == '\n')) {
                depth--;    /* a newline ends a quoted string: an error for the parser */
                if (c == '"')
                    i++;
            } else {
                if (c == '\n')
                    line_start = 1;
                i++;
            }
            continue;
        }
        /* outside any string: brackets, strings, heredocs, comments */
        if (c == '\n' && depth == 0)
            return i;
        if (c == '#' || (c == '/' && i + 1 < n && t[i + 1] == '/')) {
            while (i < n && t[i] != '\n')
                i++;
        } else if (c == '/' && i + 1 < n && t[i + 1] == '*') {
            const char *close = NULL;
            size_t j;

            for (j = i + 2; j + 1 < n; j++)
                if (t[j] == '*' && t[j + 1] == '/') {
                    close = t + j;
                    break;
                }
            if (close == NULL) {
                *open = 1;
                return n;
            }
            i = (size_t)(close - t) + 2;
        } else if (c == '"' || c == '(' || c == '[' || c == '{') {
            if (depth == MAX_NEST)
                return n;
            nest b = {C_STRING, 0, NULL, 0};

            if (c != '"') {
                b.kind = C_BRACKET;
                if (c == '(')
                    b.close = ')';
                else if (c == '[')
                    b.close = ']';
                else
                    b.close = '}';
            }
            stack[depth++] = b;
            i++;
        } else if ((c == ')' || c == ']' || c == '}') && top != NULL) {
            if ((top->kind == C_BRACKET && top->close == c) || (top->kind == C_INTERP && c == '}'))
                depth--;
            i++;
        } else if (c == '<' && i + 1 < n && t[i + 1] == '<') {
            nest h;
            size_t body;

            if (depth < MAX_NEST && heredoc_start(t, n, i, &h, &body)) {
                stack[depth++] = h;
                i = body;
                line_start = 1;
            } else {
                i += 2;
            }
        } else {
            i++;
        }
    }
    *open = depth > 0;
    return n;
}
