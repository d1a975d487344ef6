/* SPDX-License-Identifier: MPL-2.0 */
/*
 * console.c — `tfexpr console`: expressions read one after another and
 * answered as `terraform console` answers them, without a configuration.
 *
 * On a terminal: a prompt, line editing and history (libedit, BSD
 * licensed; linked into the tool only, never the library).  Otherwise
 * (a pipe, a file) none of that: expressions one per line, one result per
 * expression, exit status 1 if any failed.  In both, an expression goes on
 * over the next lines while a bracket, a quoted string, a heredoc, an
 * interpolation or a directive is open (impl/cli/scan.c).
 */
#include "cli.h"

#include <histedit.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help_text[] =
    "Type an expression and press Return to see its value, as `terraform console`\n"
    "shows it; it goes on over several lines while a bracket, a quote, a heredoc\n"
    "or a template directive is open.  type(EXPR) shows a type.  Input variables\n"
    "are var.NAME (--var, --var-file, TF_VAR_NAME); other names come from --vars.\n"
    "'exit' or Ctrl-D leaves; 'help' shows this.\n";

/* The line editor's prompts (libedit wants a function that returns one). */
static char prompt_first[] = "> ";
static char prompt_more[] = ". ";
static char *prompt_now = prompt_first;

static char *prompt(EditLine *el)
{
    (void)el;
    return prompt_now;
}

/* Where the lines come from: the line editor, or plain reading. */
typedef struct {
    EditLine *el;
    History *hist;
    char *buf;      /* plain reading: getline's buffer */
    size_t cap;
} reader;

/* The next line, with its newline if it had one; NULL at the end. */
static const char *next_line(reader *rd, int more, size_t *n)
{
    if (rd->el != NULL) {
        int count = 0;
        const char *line;

        prompt_now = more ? prompt_more : prompt_first;
        line = el_gets(rd->el, &count);
        *n = line != NULL && count > 0 ? (size_t)count : 0;
        return line != NULL && count > 0 ? line : NULL;
    } else {
        ssize_t got = getline(&rd->buf, &rd->cap, stdin);

        *n = got > 0 ? (size_t)got : 0;
        return got > 0 ? rd->buf : NULL;
    }
}

/* Whether text[0..n) is the word w, with spaces around it only. */
static int is_word(const char *text, size_t n, const char *w)
{
    size_t k = strlen(w);

    while (n > 0 && (*text == ' ' || *text == '\t')) {
        text++;
        n--;
    }
    while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t' || text[n - 1] == '\n'
                     || text[n - 1] == '\r'))
        n--;
    return n == k && memcmp(text, w, k) == 0;
}

/* Evaluates one expression and shows its value or its errors; false when
 * it failed. */
static int answer(const cli_opts *o, const tfx_context *ctx, const char *text, size_t n)
{
    tfx_source *src = tfx_source_parse_profile("<console-input>", text, n, o->mode,
                                               &o->parse_limits, o->profile);
    tfx_result *r = NULL;
    int ok = 0;

    if (src != NULL && !tfx_source_has_errors(src))
        r = tfx_evaluate(src, ctx, &o->eval_limits);
    if (src == NULL || (r == NULL && !tfx_source_has_errors(src))) {
        cli_puts(stderr, "tfexpr console: out of memory\n");
    } else {
        cli_print_diags(src, r);
        if (r != NULL && !tfx_result_has_errors(r)) {
            char *shown = tfx_result_render(r);

            if (shown == NULL) {
                cli_msg("tfexpr console: %s\n", cli_unshowable);
            } else {
                cli_putline(shown);
                ok = 1;
            }
            tfx_free(shown);
        }
    }
    fflush(stdout);
    fflush(stderr);
    tfx_result_free(r);
    tfx_source_free(src);
    return ok;
}

/* Reads and answers until the end of input or `exit`; the exit status. */
static int loop(const cli_opts *o, const tfx_context *ctx, reader *rd)
{
    char *expr = NULL;
    size_t len = 0, cap = 0;
    int failed = 0;

    for (;;) {
        size_t n;
        const char *line = next_line(rd, len > 0, &n);
        int open = 0;

        if (line == NULL)
            break;
        if (len + n + 1 > cap) {
            size_t want = (len + n + 1) * 2;
            char *more = realloc(expr, want);

            if (more == NULL) {
                cli_puts(stderr, "tfexpr console: out of memory\n");
                failed = 1;
                break;
            }
            expr = more;
            cap = want;
        }
        memcpy(expr + len, line, n);
        len += n;
        expr[len] = '\0';
        cli_scan_expr(expr, len, &open);
        if (open)
            continue;
        if (rd->hist != NULL) {
            HistEvent ev;
            char *entry = strndup(expr, len > 0 && expr[len - 1] == '\n' ? len - 1 : len);

            if (entry != NULL && entry[strspn(entry, " \t\r\n")] != '\0')
                history(rd->hist, &ev, H_ENTER, entry);
            free(entry);
        }
        if (is_word(expr, len, "exit")) {
            len = 0;
            break;
        }
        if (is_word(expr, len, "help"))
            cli_puts(stdout, help_text);
        else if (expr[strspn(expr, " \t\r\n")] != '\0' && !answer(o, ctx, expr, len))
            failed = 1;
        len = 0;
    }
    if (len > 0 && expr[strspn(expr, " \t\r\n")] != '\0') {
        /* the input ended inside an open construct: the parser says how */
        if (!answer(o, ctx, expr, len))
            failed = 1;
    }
    free(expr);
    return failed ? EXIT_INPUT_ERRORS : EXIT_SUCCESS;
}

int cli_console(const cli_opts *o, const tfx_context *ctx)
{
    reader rd = {NULL, NULL, NULL, 0};
    int status;

    if (isatty(STDIN_FILENO)) {
        rd.el = el_init("tfexpr", stdin, stdout, stderr);
        rd.hist = history_init();
        if (rd.el != NULL && rd.hist != NULL) {
            HistEvent ev;

            history(rd.hist, &ev, H_SETSIZE, 1000);
            el_set(rd.el, EL_EDITOR, "emacs");
            el_set(rd.el, EL_PROMPT, prompt);
            el_set(rd.el, EL_HIST, history, rd.hist);
            el_set(rd.el, EL_SIGNAL, 1);
            el_set(rd.el, EL_BIND, "^I", "ed-insert", NULL);   /* no completion */
            cli_puts(stdout, "tfexpr console: 'help' for help, 'exit' or Ctrl-D to leave\n");
            fflush(stdout);
        } else {
            if (rd.el != NULL)
                el_end(rd.el);
            if (rd.hist != NULL)
                history_end(rd.hist);
            rd.el = NULL;
            rd.hist = NULL;
        }
    }
    status = loop(o, ctx, &rd);
    if (rd.el != NULL) {
        /* on a terminal the person has seen the errors: leaving is success */
        status = EXIT_SUCCESS;
        el_end(rd.el);
        cli_puts(stdout, "\n");
    }
    if (rd.hist != NULL)
        history_end(rd.hist);
    free(rd.buf);
    return status;
}
