/* SPDX-License-Identifier: MPL-2.0 */
/*
 * testval.h — what the unit tests of functions share: short constructors
 * of values and types in the evaluation context C, direct calls through
 * tfx_func_call with their outcome as text, a runner of test bodies
 * inside tfx_ctx_try, and the outcome as text of an expression evaluated
 * through the public interface (tfexpr.h).
 *
 * Outcomes are in the notation of render.h's tfx_render_debug
 * (`"ABC"@sensitive :: string`); errors as "arg N: message" (an argument
 * error) or "error: message".
 */
#ifndef TFX_TEST_TESTVAL_H
#define TFX_TEST_TESTVAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "common.h"
#include "func.h"
#include "tfexpr.h"

/* The context every constructor and call below uses; run() sets it. */
extern tfx_ctx *C;

/* ---- Values ---- */

const tfx_value *S(const char *s);
const tfx_value *SN(const char *s, size_t n);  /* n bytes, which may hold U+0000 */
const tfx_value *N(const char *text);   /* a 512-bit number from its text; exits if bad */
const tfx_value *F(double d);           /* a 53-bit number, as a float64 host value gives it */
const tfx_value *I(int64_t i);
const tfx_value *B(bool b);
const tfx_value *NUL(const tfx_type *t);
const tfx_value *UNK(const tfx_type *t);
const tfx_value *MARK(const tfx_value *v, const char *name);
const tfx_value *SENS(const tfx_value *v);
const tfx_value *EPH(const tfx_value *v);
const tfx_value *LIST(const tfx_type *elem, size_t n, ...);
const tfx_value *SET(const tfx_type *elem, size_t n, ...);
const tfx_value *TUP(size_t n, ...);
const tfx_value *OBJ(size_t n, ...);                        /* n name, value pairs */
const tfx_value *MAP(const tfx_type *elem, size_t n, ...);  /* n name, value pairs */
/* The n values of ap in an array of the context. */
const tfx_value *const *tv_items(size_t n, va_list ap);

/* ---- Types ---- */

#define TSTR (&tfx_type_str)
#define TNUM (&tfx_type_number)
#define TBOOL (&tfx_type_bool)
#define TDYN (&tfx_type_dynamic)

const tfx_type *LISTT(const tfx_type *e);
const tfx_type *SETT(const tfx_type *e);
const tfx_type *TUPT(size_t n, ...);
const tfx_type *OBJT(size_t n, ...);                        /* n name, type pairs */

/* ---- Calls ---- */

/* The built-in function `name`; exits when there is none. */
const tfx_function *fn(const char *name);
/* A call's outcome as text: the result, or its error. */
const char *outcome(const tfx_value *r, const tfx_func_error *err);
/* The built-in `name` ("no such function" when there is none) or f,
 * called with the n values that follow. */
const char *call(const char *name, size_t n, ...);
const char *call_fn(const tfx_function *f, size_t n, ...);
/* The same with the arguments in an array. */
const char *call_args(const char *name, size_t n, const tfx_value *const *args);
/* An outcome without the " :: string" of a string result (any other
 * outcome as it is). */
const char *bare(const char *outcome);

/* Runs test(ctx, NULL) in a fresh context with the default limits (C set
 * to it); false, with the failure on stderr, when the context failed. */
bool run(const char *name, void (*test)(tfx_ctx *, void *));
/* Runs test(ctx, arg) in a fresh context with the given limits (C set to
 * it); the summary of its failure ("Evaluation step limit exceeded"...),
 * or "completed".  The text lives until the next call. */
const char *run_limited(const tfx_ctx_limits *limits, void (*test)(tfx_ctx *, void *), void *arg);

/* ---- Evaluations through the public interface ---- */

/* What a test does to the new context of eval_outcome before the
 * evaluation (set a flavor, variables, a host...; its CHECKs count in the
 * test's own file).  Returns NULL to go on, or a text that eval_outcome
 * returns instead of evaluating. */
typedef const char *tv_setup_fn(tfx_context *ctx, void *arg);

/* The outcome of the expression `text` parsed as the file `file` (NULL:
 * the default name) and evaluated in a new context, both under `profile`,
 * with `limits` (NULL: the defaults), after setup(ctx, arg) (setup NULL:
 * nothing): the value as tfx_result_render shows it (as `tfexpr eval`
 * prints it), "SUMMARY: DETAIL" of the first error, "parse error" when
 * text does not parse, or "no result" when tfx_evaluate had no memory.
 * The text lives in a static buffer until the next call. */
const char *eval_outcome(const char *file, const char *text, tfx_profile profile,
                         const tfx_eval_limits *limits, tv_setup_fn *setup, void *arg);

#endif /* TFX_TEST_TESTVAL_H */
