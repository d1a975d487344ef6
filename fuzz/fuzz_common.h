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

/* Fails unless the string is valid JSON (checked with jansson), and, when
 * one_line is set, holds no line break.  Returns nothing; `what` names the
 * text in the report. */
void fuzz_check_json(const char *text, int one_line, const char *what);

/* The checks of tfx_source_refs on any parsed source. */
void fuzz_check_refs(const tfx_source *src, size_t size);

/* Every check of a public parse result that does not need the tree:
 * each diagnostic has a known category, phase parse, a summary, ranges in
 * bounds, renders and serialises to valid JSON; has_errors agrees with
 * the diagnostics; without errors every dump exists and the JSON dump is
 * valid JSON. */
void fuzz_check_source(const tfx_source *src, size_t nbytes);

/* The whole parse check of fuzz_parse_expr and fuzz_parse_template: a
 * public parse under fuzz_limits checked by fuzz_check_source, then the
 * same parse with the internal tfx_parse on an arena of its own, which
 * must report the same diagnostics and give a tree that tfx_ast_check
 * accepts (with FUZZ_CHECK_ERROR_TREES, also when the parse had errors)
 * and that dumps and prints without trouble.  Inputs above
 * FUZZ_MAX_SOURCE only check the library's refusal. */
void fuzz_parse_one(const uint8_t *data, size_t size, tfx_mode mode);

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

#endif /* TFX_FUZZ_COMMON_H */
