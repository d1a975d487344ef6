/* SPDX-License-Identifier: MPL-2.0 */
/*
 * cli.h — what the files of the `tfexpr` command line tool (impl/main.c,
 * the .c files of impl/cli) share.  None of it is in libtfexpr.
 */
#ifndef TFX_CLI_H
#define TFX_CLI_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Exit statuses, the same for every command. */
#define EXIT_INPUT_ERRORS 1
#define EXIT_USAGE 2

#if defined(__GNUC__) || defined(__clang__)
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLI_PRINTF(f, a)
#endif

/* ---- Output that is always valid UTF-8 (impl/cli/out.c) ----
 * Every byte the tool writes goes through these: a byte that does not
 * belong to a well-formed UTF-8 sequence is written as U+FFFD. */

/* Writes s[0..n) to f with invalid UTF-8 replaced by U+FFFD. */
void cli_write(FILE *f, const char *s, size_t n);
/* cli_write of a NUL-terminated string (NULL writes nothing). */
void cli_puts(FILE *f, const char *s);
/* cli_puts(stdout, s) and a newline. */
void cli_putline(const char *s);
/* printf to f, the formatted text written as cli_write writes it. */
void cli_printf(FILE *f, const char *fmt, ...) CLI_PRINTF(2, 3);
/* A message on standard error, as cli_printf. */
void cli_msg(const char *fmt, ...) CLI_PRINTF(1, 2);
/* s[0..n) as a JSON string, quotes included: '"' and '\' escaped, control
 * characters as \n, \t, ... or \u00XX, invalid UTF-8 as \ufffd. */
void cli_json_string(FILE *f, const char *s, size_t n);
/* The length of the well-formed UTF-8 sequence at s[0..n), or 0 if the
 * bytes there do not start one. */
size_t cli_utf8_len(const unsigned char *s, size_t n);

#endif
