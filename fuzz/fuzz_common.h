/* SPDX-License-Identifier: MPL-2.0 */
/*
 * fuzz_common.h — what the libFuzzer harnesses of fuzz/ share: the limits
 * they parse under, the failure report, and checks of positions and
 * diagnostics.
 *
 * A harness defines only LLVMFuzzerTestOneInput.  It is linked either with
 * libFuzzer (make fuzz, make oss-fuzz) or with fuzz/replay.c (make
 * fuzz-replay), which calls it on files.  A broken property is reported
 * with fuzz_fail, which prints the reason and aborts, so that libFuzzer
 * saves the input and the replay driver stops with a stack trace.
 */
#ifndef TFX_FUZZ_COMMON_H
#define TFX_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "tfexpr.h"

/* The entry point every harness defines (libFuzzer's interface). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The limits the parse harnesses parse under (conformance.md c.7): inputs
 * above FUZZ_MAX_SOURCE bytes only check that the library refuses them
 * with a resource.limit diagnostic; nesting is cut at FUZZ_MAX_DEPTH so
 * that the depth limit is reached often, and memory at FUZZ_MAX_MEMORY so
 * that the library's own budget trips long before libFuzzer's rss limit. */
#define FUZZ_MAX_SOURCE ((size_t)8 << 10)
#define FUZZ_MAX_DEPTH ((size_t)64)
#define FUZZ_MAX_MEMORY ((size_t)64 << 20)

/* The limits above as a tfx_limits. */
tfx_limits fuzz_limits(void);

/* Prints "fuzz: " and the message to stderr, then aborts. */
void fuzz_fail(const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

/* Prints the bytes as a C string literal to stderr (for failure reports). */
void fuzz_print_bytes(const char *label, const void *data, size_t size);

/* Whether id is a category of conformance/categories.json (the list is
 * generated from that file into categories.h by fuzz/gen-categories). */
int fuzz_known_category(const char *id);

/* Fails unless r is a well-formed range inside a source of nbytes bytes:
 * start <= end in bytes and in (line, column), end <= nbytes, lines and
 * columns from 1.  `what` names the range in the report. */
void fuzz_check_range(const tfx_range *r, size_t nbytes, const char *what);

/* Whether text[0..nbytes) is one valid JSON text (RFC 8259, strict
 * UTF-8, as jansson's json_loads with JSON_DECODE_ANY | JSON_ALLOW_NUL
 * takes it, without its limits on number ranges and NUL in keys), checked
 * in one pass without building it: NULL if it is, otherwise what is wrong,
 * with its byte offset in *where (where may be NULL). */
const char *fuzz_json_scan(const char *text, size_t nbytes, size_t *where);

/* Fails unless the string is valid JSON (fuzz_json_scan; with
 * -DFUZZ_JSON_CROSSCHECK also jansson, which must agree), and, when
 * one_line is set, holds no line break.  Returns nothing; `what` names the
 * text in the report. */
void fuzz_check_json(const char *text, int one_line, const char *what);

/* The cheap checks of one diagnostic (number i) of a source of nbytes
 * bytes: not NULL, a known category, the phase, a severity, a summary,
 * subject and context ranges inside the source and ordered. */
void fuzz_check_diagnostic(const tfx_diagnostic *d, size_t i, size_t nbytes, tfx_phase phase);

/* The checks of tfx_source_refs on any parsed source. */
void fuzz_check_refs(const tfx_source *src, size_t size);

/* The diagnostic checks of a public parse result: each diagnostic passes
 * fuzz_check_diagnostic (phase parse); has_errors agrees with them; the
 * first few (FUZZ_RENDER_DIAGS in fuzz_common.c) and the last render and
 * serialise to valid one-line JSON. */
void fuzz_check_source(const tfx_source *src, size_t nbytes);

/* The whole parse check of fuzz_parse_expr and fuzz_parse_template: one
 * public parse under fuzz_limits checked by fuzz_check_source; no limit
 * but depth reached; its tree (impl/source.h) passes tfx_ast_check (with
 * FUZZ_CHECK_ERROR_TREES, also the partial tree of a parse with errors)
 * and dumps once in each format (tfx_source_dump without errors, the
 * tfx_ast_* functions on a partial tree), the JSON dump valid JSON; its
 * references pass fuzz_check_refs.  Inputs above FUZZ_MAX_SOURCE only
 * check the library's refusal. */
void fuzz_parse_one(const uint8_t *data, size_t size, tfx_mode mode);

/* The check of the fast parse harnesses (fuzz_parse_expr_fast,
 * fuzz_parse_template_fast): one public parse under fuzz_limits, every
 * diagnostic through fuzz_check_diagnostic, has_errors agrees with them
 * (so a parse without errors has a tree), no limit but depth reached;
 * no dumps, rendering, JSON or references.  Inputs above FUZZ_MAX_SOURCE
 * only check the refusal. */
void fuzz_parse_fast(const uint8_t *data, size_t size, tfx_mode mode);

/* The fixed context of an evaluation harness: the typed variables of the
 * JSON object `variables` (nbytes bytes, the corpus's typed encoding);
 * fails unless it loads. */
tfx_context *fuzz_eval_context(const char *variables, size_t nbytes);

/* The check of fuzz_eval and fuzz_collections on one input: an
 * expression (or, after a first byte 0x01, a bare template) parsed under
 * fuzz_limits and, when it parses, evaluated twice against ctx under
 * tight evaluation limits (100,000 steps, depth 64, 1 MiB strings, 10,000
 * items, FUZZ_MAX_MEMORY).  Every diagnostic has a known category, phase
 * eval, a summary and ranges inside the input; has_errors agrees with
 * them; without errors the value's typed JSON conforms to its type at
 * every node and carries no marks but "sensitive" and "other" (the marks
 * of the harnesses' contexts); both evaluations give the same diagnostics
 * and the same value, byte for byte. */
void fuzz_eval_input(const tfx_context *ctx, const uint8_t *data, size_t size);

/* The check of fuzz_eval_fast on one input (read as fuzz_eval_input
 * reads it): parsed and, without parse errors, evaluated once under the
 * same limits; every diagnostic through fuzz_check_diagnostic (phase
 * eval), has_errors agrees with them, and an evaluation without errors
 * has a value (tfx_result_type_json).  No JSON, no second evaluation. */
void fuzz_eval_fast(const tfx_context *ctx, const uint8_t *data, size_t size);

/* The context of fuzz_eval and fuzz_eval_fast (fuzz_eval_context of
 * their fixed variables: every kind of value, marks, unknowns). */
tfx_context *fuzz_eval_default_context(void);

#endif /* TFX_FUZZ_COMMON_H */
