/* SPDX-License-Identifier: MPL-2.0 */
/*
 * fuzz_roundtrip.c — parse, print, parse again: the printer's promise
 * (impl/ast.h, tfx_ast_print) that its text parses back to an equal tree.
 *
 * Input: a mode byte, then the source.  The low bit of the first byte
 * picks the mode: 0 expression ('0', 'b', ...), 1 bare template ('1',
 * 'a', ...); the seeds use '0' and '1'.  Limits as the parse harnesses.
 *
 * For a source that parses without errors:
 *   - the printed text parses in EXPRESSION mode without errors (the
 *     printer always writes an expression: the tree of a bare template,
 *     a TEMPLATE or TEMPLATE_WRAP node, prints as a quoted string whose
 *     parse gives the same node kinds);
 *   - the two trees are equal (tfx_ast_equal: ranges aside, adjacent
 *     literal parts of a template joined);
 *   - printing is idempotent: the reparsed tree prints to the same text
 *     (all of this for UTF-8 input only, see below);
 *   - tfx_ast_check holds on the reparsed tree.
 * A failure prints the input, both texts and both trees, then aborts.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "ast.h"
#include "text.h"
#include "diag.h"
#include "fuzz_common.h"
#include "parse.h"

/* The reparse may nest one level deeper than the original (a bare
 * template becomes a quoted string), and is given some room beyond. */
#define REPARSE_DEPTH (FUZZ_MAX_DEPTH + 16)

static void report(const char *what, const uint8_t *src, size_t nsrc, tfx_lex_mode mode,
                   const tfx_node *a, const char *printed, const tfx_node *b,
                   const char *reprinted, const tfx_diags *diags)
{
    size_t i;
    char *sexpr;

    fprintf(stderr, "fuzz_roundtrip: %s\n", what);
    fprintf(stderr, "mode: %s\n", mode == TFX_LEX_TEMPLATE ? "template" : "expression");
    fuzz_print_bytes("input", src, nsrc);
    sexpr = tfx_ast_sexpr(a, false);
    fprintf(stderr, "tree:      %s\n", sexpr != NULL ? sexpr : "(null)");
    free(sexpr);
    fuzz_print_bytes("printed", printed, strlen(printed));
    if (b != NULL) {
        sexpr = tfx_ast_sexpr(b, false);
        fprintf(stderr, "reparsed:  %s\n", sexpr != NULL ? sexpr : "(null)");
        free(sexpr);
    }
    if (reprinted != NULL)
        fuzz_print_bytes("reprinted", reprinted, strlen(reprinted));
    for (i = 0; diags != NULL && i < diags->n; i++)
        fprintf(stderr, "reparse diagnostic: %s: %s (%s) at byte %zu\n",
                tfx_category_id(diags->items[i].category), diags->items[i].summary,
                diags->items[i].detail != NULL ? diags->items[i].detail : "",
                diags->items[i].subject.start.byte);
    fuzz_fail("round trip failed: %s", what);
}

/* [ast.print] The one tree a UTF-8 source can have that the printer
 * cannot write back: in P14 a heredoc index key of several lines is an
 * index (its lines are literals of their own), and if its text holds a NUL
 * or a CR, which a heredoc cannot write, the printer writes it as a quoted
 * string, one literal, a static key.  Whether the source could hold one:
 * a heredoc and a NUL or CR byte. */
static bool may_have_unwritable_heredoc(const uint8_t *src, size_t n)
{
    size_t i;
    bool heredoc = false;

    for (i = 0; i + 1 < n && !heredoc; i++)
        heredoc = src[i] == '<' && src[i + 1] == '<';
    return heredoc && (memchr(src, '\0', n) != NULL || memchr(src, '\r', n) != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tfx_lex_mode mode;
    tfx_arena *arena;
    tfx_diags diags;
    tfx_diags rediags;
    tfx_node *root;
    tfx_node *again;
    char *printed;
    char *reprinted;
    const char *err;

    if (size < 1 || size - 1 > FUZZ_MAX_SOURCE)
        return 0;
    mode = (data[0] & 1) != 0 ? TFX_LEX_TEMPLATE : TFX_LEX_EXPRESSION;
    data++;
    size--;

    /* The printer promises an equal tree for sources that are UTF-8 (spec
     * ast.print): bytes that are not UTF-8 can reach a tree without error
     * (inside identifiers, through upstream's byte patterns, or in a bare
     * template after a lone CR) but cannot be written back. */
    if (!tfx_text_valid(data, size))
        return 0;
    arena = tfx_arena_new(FUZZ_MAX_MEMORY);
    if (arena == NULL)
        return 0;
    tfx_diags_init(&diags, arena);
    root = tfx_parse(arena, data, size, mode, FUZZ_MAX_DEPTH, &diags);
    if (root == NULL || tfx_diags_has_errors(&diags)) {
        tfx_arena_free(arena);
        return 0;
    }
    printed = tfx_ast_print(root);
    if (printed == NULL)
        fuzz_fail("tfx_ast_print returned NULL");

    tfx_diags_init(&rediags, arena);
    again = tfx_parse(arena, (const unsigned char *)printed, strlen(printed),
                      TFX_LEX_EXPRESSION, REPARSE_DEPTH, &rediags);
    if (again == NULL || tfx_diags_has_errors(&rediags))
        report("the printed text does not parse", data, size, mode, root, printed, NULL, NULL,
               &rediags);
    if (!tfx_ast_equal(root, again)) {
        if (may_have_unwritable_heredoc(data, size)) {
            free(printed);
            tfx_arena_free(arena);
            return 0;
        }
        report("the reparsed tree differs", data, size, mode, root, printed, again, NULL, NULL);
    }
    if ((err = tfx_ast_check(again, strlen(printed))) != NULL)
        report(err, data, size, mode, root, printed, again, NULL, NULL);
    reprinted = tfx_ast_print(again);
    if (reprinted == NULL)
        fuzz_fail("tfx_ast_print returned NULL");
    if (strcmp(printed, reprinted) != 0)
        report("printing is not idempotent", data, size, mode, root, printed, again, reprinted,
               NULL);
    free(reprinted);
    free(printed);
    tfx_arena_free(arena);
    return 0;
}
