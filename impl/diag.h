/* SPDX-License-Identifier: MPL-2.0 */
/*
 * diag.h — source positions, ranges and diagnostics.
 *
 * Positions are as HCL's: byte offsets from 0, lines and columns from 1,
 * columns counted in grapheme clusters.  A range's end is exclusive.
 */
#ifndef TFX_DIAG_H
#define TFX_DIAG_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "tfexpr.h"

/* The range from the start of a to the end of b, whatever their order
 * (as HCL's RangeBetween). */
tfx_range tfx_range_between(tfx_range a, tfx_range b);

/* The empty range at p. */
tfx_range tfx_range_at(tfx_pos p);


/* The error categories (conformance/categories.json), in one list. */
#define TFX_CATEGORIES(X) \
    X(INVALID_CHARACTER, "syntax.invalid-character") \
    X(UNSUPPORTED_OPERATOR, "syntax.unsupported-operator") \
    X(UNTERMINATED, "syntax.unterminated") \
    X(MISSING_TOKEN, "syntax.missing-token") \
    X(INVALID_EXPRESSION, "syntax.invalid-expression") \
    X(INVALID_STRING, "syntax.invalid-string") \
    X(INVALID_ESCAPE, "syntax.invalid-escape") \
    X(INVALID_NUMBER, "syntax.invalid-number") \
    X(TRAILING_INPUT, "syntax.trailing-input") \
    X(TEMPLATE_DIRECTIVE, "syntax.template-directive") \
    X(FOR_EXPRESSION, "syntax.for-expression") \
    X(SPLAT, "syntax.splat") \
    X(UNKNOWN_VARIABLE, "eval.unknown-variable") \
    X(UNSUPPORTED_ATTRIBUTE, "eval.unsupported-attribute") \
    X(INVALID_INDEX, "eval.invalid-index") \
    X(NULL_ACCESS, "eval.null-access") \
    X(OPERAND_TYPE, "eval.operand-type") \
    X(INCONSISTENT_TYPES, "eval.inconsistent-types") \
    X(NESTED_SPLAT, "eval.nested-splat") \
    X(NULL_CONDITION, "eval.null-condition") \
    X(ITERATION, "eval.iteration") \
    X(OBJECT_KEY, "eval.object-key") \
    X(UNKNOWN_FUNCTION, "eval.unknown-function") \
    X(ARITY, "eval.arity") \
    X(FUNCTION_ARGUMENT, "eval.function-argument") \
    X(FUNCTION_ERROR, "eval.function-error") \
    X(TYPE_CONSTRAINT, "eval.type-constraint") \
    X(OPERATION_FAILED, "eval.operation-failed") \
    X(CONVERSION, "eval.conversion") \
    X(RESOURCE_LIMIT, "resource.limit")

typedef enum {
#define TFX_CAT_ENUM(name, id) TFX_CAT_##name,
    TFX_CATEGORIES(TFX_CAT_ENUM)
#undef TFX_CAT_ENUM
    TFX_CAT_COUNT
} tfx_category;

/* The category's id, e.g. "syntax.unterminated". */
const char *tfx_category_id(tfx_category c);

typedef struct {
    tfx_severity severity;
    tfx_phase phase;
    tfx_category category;
    const char *summary;   /* upstream's summary text for this diagnostic */
    const char *detail;    /* our own explanation */
    bool has_subject;
    tfx_range subject;
    bool has_context;
    tfx_range context;
} tfx_diag;

/* A growable list of diagnostics in an arena. */
typedef struct {
    tfx_arena *arena;
    tfx_diag *items;
    size_t n;
    size_t cap;
    bool out_of_memory;    /* an append was lost */
} tfx_diags;

void tfx_diags_init(tfx_diags *d, tfx_arena *arena);

/* Appends a diagnostic; returns it (NULL when memory ran out, in which
 * case out_of_memory is set).  `detail` is formatted printf-style. */
tfx_diag *tfx_diags_add(tfx_diags *d, tfx_phase phase, tfx_category cat,
                        const char *summary, const tfx_range *subject,
                        const tfx_range *context, const char *detail_fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

/* Whether the list holds an error. */
bool tfx_diags_has_errors(const tfx_diags *d);

#endif /* TFX_DIAG_H */
