/*
 * tfexpr.h — the public interface of libtfexpr, the reference evaluator of
 * the Terraform / OpenTofu expression language (HCL2 native-syntax
 * expressions and templates over cty values).
 *
 * This is the only header a user of the library includes.  Everything in it
 * is prefixed tfx_ / TFX_.
 *
 * Ownership, in brief:
 *   - Every pointer argument is borrowed: the library never keeps or frees
 *     what the caller passes in.
 *   - An object created by a tfx_<thing>_new function is freed with the
 *     matching tfx_<thing>_free; passing NULL to a _free function does
 *     nothing.
 *   - A string the library returns as `char *` (not const) was allocated by
 *     the library and is freed by the caller with tfx_free.
 *
 * Status of this version: the library provides the conformance-protocol
 * adapter (below).  The lexer, parser and evaluator are not written yet; the
 * adapter says so by answering every case "unsupported".
 */
#ifndef TFEXPR_H
#define TFEXPR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TFX_API __attribute__((visibility("default")))
#else
#define TFX_API
#endif

/* ---------------------------------------------------------------------
 * Version
 * ------------------------------------------------------------------ */

#define TFX_VERSION_MAJOR 0
#define TFX_VERSION_MINOR 1
#define TFX_VERSION_PATCH 0

/* The library's version as "MAJOR.MINOR.PATCH".  Static storage; never
 * freed. */
TFX_API const char *tfx_version(void);

/* Frees a string or buffer the library returned as `char *`.  NULL is
 * allowed. */
TFX_API void tfx_free(void *p);

/* ---------------------------------------------------------------------
 * Conformance protocol adapter
 *
 * The conformance runner drives implementations through a JSON-lines
 * protocol (conformance/README.md, "The protocol"): a `hello` request, one
 * `run` request per case, then `stop`.  tfx_adapter answers those requests
 * for libtfexpr, so a program only has to move lines between a pipe and
 * tfx_adapter_handle (the `tfexpr adapter` command does exactly that).
 * ------------------------------------------------------------------ */

typedef struct tfx_adapter tfx_adapter;

/* Creates an adapter.  Returns NULL only if memory is exhausted.  Free it
 * with tfx_adapter_free. */
TFX_API tfx_adapter *tfx_adapter_new(void);

/* Frees an adapter made by tfx_adapter_new.  NULL is allowed. */
TFX_API void tfx_adapter_free(tfx_adapter *a);

/* Handles one request: `line` points at `nbytes` bytes holding one JSON
 * object (a trailing newline is allowed; no NUL terminator is needed).
 *
 * Returns the answer as one line of JSON without the newline, allocated by
 * the library (free it with tfx_free), or NULL when the request needs no
 * answer (`stop`) or memory is exhausted.  Sets *stop to 1 when the request
 * was `stop`, to 0 otherwise.
 *
 * Bad input never crashes: a line that is not a JSON object, or an unknown
 * command, gets an `errored` answer saying what was wrong. */
TFX_API char *tfx_adapter_handle(tfx_adapter *a, const char *line,
                                 size_t nbytes, int *stop);

#ifdef __cplusplus
}
#endif

#endif /* TFEXPR_H */
