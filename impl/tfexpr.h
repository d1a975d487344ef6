/* SPDX-License-Identifier: MPL-2.0 */
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
 * Lifetimes: a tfx_source (parsed text) and a tfx_context (variables and
 * functions) must outlive every tfx_result evaluated from them, because
 * results share memory with both; likewise a tfx_source must outlive every
 * tfx_refs listed from it.  Free results and refs first, then contexts
 * and sources, in any order.
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
 * Positions and diagnostics
 *
 * Positions are HCL's: byte offsets from 0, lines and columns from 1,
 * columns counted in Unicode grapheme clusters.  A range's end is
 * exclusive.
 * ------------------------------------------------------------------ */

typedef struct {
    size_t byte;
    size_t line;
    size_t column;
} tfx_pos;

typedef struct {
    tfx_pos start;
    tfx_pos end;
} tfx_range;

typedef enum { TFX_SEV_ERROR, TFX_SEV_WARNING } tfx_severity;
typedef enum { TFX_PHASE_PARSE, TFX_PHASE_EVAL } tfx_phase;

/* One diagnostic.  The strings live as long as the object that reported
 * the diagnostic (a tfx_source). */
typedef struct {
    tfx_severity severity;
    tfx_phase phase;
    const char *category;  /* an id of conformance/categories.json, e.g. "syntax.unterminated" */
    const char *summary;   /* upstream HCL's summary for the same error */
    const char *detail;    /* an explanation */
    int has_subject;
    tfx_range subject;     /* the construct at fault */
    int has_context;
    tfx_range context;     /* the construct around it */
} tfx_diagnostic;

/* ---------------------------------------------------------------------
 * Limits
 *
 * Every limit is set by the caller; tfx_limits_init gives the defaults,
 * which no ordinary input reaches.  Input beyond a limit gets a
 * diagnostic of category "resource.limit", never a crash.
 * ------------------------------------------------------------------ */

typedef struct {
    size_t max_source_bytes;   /* longest input parsed (default 16 MiB; at most 4 GiB - 2) */
    size_t max_depth;          /* deepest nesting of constructs (default 256) */
    size_t max_memory_bytes;   /* memory one parse may take (default 1 GiB) */
} tfx_limits;

/* Fills *limits with the defaults. */
TFX_API void tfx_limits_init(tfx_limits *limits);

/* ---------------------------------------------------------------------
 * Parsing
 * ------------------------------------------------------------------ */

typedef enum {
    TFX_MODE_EXPRESSION,   /* one native-syntax expression */
    TFX_MODE_TEMPLATE      /* a bare template, as a template file */
} tfx_mode;

/* A parsed source: its text, syntax tree and diagnostics. */
typedef struct tfx_source tfx_source;

/* The upstream versions whose behaviour the library reproduces
 * (conformance/profiles.json; spec/profiles.md, profile.*). */
typedef enum {
    TFX_PROFILE_P14,  /* HCL 2.14.1 + cty 1.12.1 (Debian 12's; the 2022 language) */
    TFX_PROFILE_PN    /* HCL 2.24.0 + cty 1.18.1, what current Terraform pins */
} tfx_profile;

/* [profile.default] The profile of tfx_source_parse, of a new context, of
 * tfx_evaluate without a context and of the adapter when a hello names
 * none: PN, since PN is complete (it was P14 before).  For P14, pass
 * TFX_PROFILE_P14 to tfx_source_parse_profile and tfx_context_set_profile. */
#define TFX_PROFILE_DEFAULT TFX_PROFILE_PN

/* Parses text[0..nbytes) (any bytes; not NUL-terminated) in `mode`, with
 * the syntax of TFX_PROFILE_DEFAULT (PN).  `filename` names the source in rendered diagnostics (NULL: "case.hcl").
 * `limits` may be NULL for the defaults.  The text is copied: the caller
 * keeps ownership of its buffer.  Returns NULL only if memory for the
 * object itself cannot be had; otherwise errors are diagnostics.  Free
 * with tfx_source_free. */
TFX_API tfx_source *tfx_source_parse(const char *filename, const char *text, size_t nbytes,
                                     tfx_mode mode, const tfx_limits *limits);

/* tfx_source_parse with the syntax of `profile` (tfx_source_parse is this
 * with TFX_PROFILE_DEFAULT).  A profile that is not a tfx_profile parses
 * as TFX_PROFILE_DEFAULT. */
TFX_API tfx_source *tfx_source_parse_profile(const char *filename, const char *text,
                                             size_t nbytes, tfx_mode mode,
                                             const tfx_limits *limits, tfx_profile profile);

/* Frees a source and everything it owns, diagnostics included.  NULL is
 * allowed. */
TFX_API void tfx_source_free(tfx_source *src);

/* Whether the parse reported an error. */
TFX_API int tfx_source_has_errors(const tfx_source *src);

/* The parse's diagnostics, in the order upstream reports them: lexical
 * ones first, then the parser's.  i < tfx_source_diagnostic_count. */
TFX_API size_t tfx_source_diagnostic_count(const tfx_source *src);
TFX_API const tfx_diagnostic *tfx_source_diagnostic(const tfx_source *src, size_t i);

typedef enum {
    TFX_DUMP_SEXPR,        /* an S-expression of the tree, without ranges */
    TFX_DUMP_SEXPR_RANGES, /* the same with every node's range */
    TFX_DUMP_JSON,         /* the tree as JSON, with ranges */
    TFX_DUMP_SOURCE        /* source text that parses to the same tree */
} tfx_dump_format;

/* The tree in `format`, as a string the caller frees with tfx_free; NULL
 * if the parse had errors or memory ran out. */
TFX_API char *tfx_source_dump(const tfx_source *src, tfx_dump_format format);

/* A diagnostic as people read it: "file:line:col: error: summary", the
 * detail, the source line and a caret line under the subject (placed by
 * the grapheme clusters of the profile `src` was parsed with, as its
 * columns are counted).  The caller frees the string with tfx_free; NULL
 * if memory ran out. */
TFX_API char *tfx_diagnostic_render(const tfx_source *src, const tfx_diagnostic *d);

/* A diagnostic as one JSON object (severity, phase, category, summary,
 * detail, subject, context), for machine-readable output.  Free with
 * tfx_free. */
TFX_API char *tfx_diagnostic_json(const tfx_diagnostic *d);

/* ---------------------------------------------------------------------
 * Evaluation context
 *
 * A context holds the variables (root names such as `var`, `local`,
 * `each`) and the functions an expression may use.  Its values live in
 * the context's own memory: the context must outlive every result
 * evaluated with it, because a result may share values with it.
 * ------------------------------------------------------------------ */

typedef struct tfx_context tfx_context;

/* A new context with no variables and the built-in function table.
 * NULL only if memory is exhausted.  Free with tfx_context_free. */
TFX_API tfx_context *tfx_context_new(void);

/* Frees a context.  Free every result evaluated with it first.  NULL is
 * allowed. */
TFX_API void tfx_context_free(tfx_context *ctx);

/* Defines (or redefines) variable `name` from `json`, a value in the
 * corpus's typed JSON encoding (conformance/README.md, "Typed values":
 * {"type": ..., "v": ...}, with nulls, unknowns and marks).  Returns 0 on
 * success; on error returns -1 and, if `error` is not NULL, stores a
 * message the caller frees with tfx_free. */
TFX_API int tfx_context_set_typed(tfx_context *ctx, const char *name, const char *json,
                                  size_t nbytes, char **error);

/* As tfx_context_set_typed for plain JSON, typed as cty's JSON decoder
 * implies (objects become objects, arrays tuples, numbers exact), as
 * `terraform console -var` takes it. */
TFX_API int tfx_context_set_json(tfx_context *ctx, const char *name, const char *json,
                                 size_t nbytes, char **error);

/* Defines every variable of `json`, a JSON object of name -> typed value
 * (the `variables` of a conformance case). */
TFX_API int tfx_context_set_typed_all(tfx_context *ctx, const char *json, size_t nbytes,
                                      char **error);

/* Defines every variable of `json`, a JSON object of name -> plain JSON
 * value, typed as tfx_context_set_json types each. */
TFX_API int tfx_context_set_json_all(tfx_context *ctx, const char *json, size_t nbytes,
                                     char **error);

/* Whether expressions may reference variables at all (default 1).  With 0
 * every reference is the error "Variables not allowed". */
TFX_API void tfx_context_allow_variables(tfx_context *ctx, int allow);

/* Whether the built-in functions are available (default 1).  With 0 every
 * call is the error "Function calls not allowed". */
TFX_API void tfx_context_allow_functions(tfx_context *ctx, int allow);

/* Whether Terraform's console-only function type(value) is available
 * (default 0; `tfexpr eval` turns it on).  With 1, a result that is
 * exactly a type() result is a type: tfx_result_render prints it as
 * `terraform console` does ("tuple([\n    string,\n])"), tfx_result_json
 * gives it as a typed value of type "type" holding that text
 * ({"type":"type","v":"tuple([\n    string,\n])"}, without marks) and
 * tfx_result_type gives "type"; a null or unknown value of that type (from
 * `false ? type(1) : null`) is an ordinary result, of type "type" in
 * tfx_result_json wherever it is; a result that uses a type() result in
 * any other way is the error "Invalid use of type function"
 * (spec/functions-closures.md, fn.type.*). */
TFX_API void tfx_context_allow_type_function(tfx_context *ctx, int allow);

/* The function tables (spec/functions-opentofu.md, flavor.*). */
typedef enum {
    TFX_FLAVOR_TERRAFORM,  /* Terraform's functions (the default) */
    TFX_FLAVOR_OPENTOFU    /* OpenTofu's: Terraform's, with the same semantics,
                              plus base64gunzip, cidrcontains and urldecode */
} tfx_flavor;

/* Which function table calls in expressions and templates see (default
 * TFX_FLAVOR_TERRAFORM).  Returns 0, or -1 (nothing changed) for a value
 * that is not a tfx_flavor. */
TFX_API int tfx_context_set_flavor(tfx_context *ctx, tfx_flavor flavor);

/* Whose evaluation rules evaluations with this context follow (default
 * TFX_PROFILE_DEFAULT, i.e. PN).  Set it before defining variables: typed
 * values are decoded under the context's profile (refinements of unknowns
 * exist in PN only).  Returns 0, or -1 (nothing changed) for a value that
 * is not a tfx_profile. */
TFX_API int tfx_context_set_profile(tfx_context *ctx, tfx_profile profile);

/* ---------------------------------------------------------------------
 * The host: what an evaluation may know of the outside world
 * (spec/functions-files.md, rules host.*, files.*)
 *
 * The library never reads a file, the clock or a random source by
 * itself.  The file functions (file, fileset, templatefile, ...), abspath,
 * pathexpand, timestamp, plantimestamp, uuid and bcrypt use the host
 * attached to the context; each part is optional, and a function whose
 * part is missing fails with an "Error in function call" naming what is
 * not available.
 * ------------------------------------------------------------------ */

typedef struct tfx_host tfx_host;

/* A host with nothing in it.  NULL only if memory is exhausted.  Free with
 * tfx_host_free (after every context that uses it). */
TFX_API tfx_host *tfx_host_new(void);
TFX_API void tfx_host_free(tfx_host *h);

/* The file system is the real directory `dir`: every path is resolved
 * inside it, and `..`, absolute paths outside it and symbolic links whose
 * target leads outside are refused [files.confine].  The working
 * directory becomes dir's absolute path (tfx_host_set_cwd may change it
 * afterwards, for abspath only).  Returns 0, or -1 with a message in
 * *error (free with tfx_free; error may be NULL). */
TFX_API int tfx_host_set_base_dir(tfx_host *h, const char *dir, char **error);

/* The file system is held in memory: adds the file `path` (relative,
 * inside the root; directories implied) with bytes[0..n).  Replaces a
 * base directory. */
TFX_API int tfx_host_add_file(tfx_host *h, const char *path, const char *bytes, size_t n,
                              char **error);

/* An in-memory file system with no files yet. */
TFX_API void tfx_host_use_memory_files(tfx_host *h);

/* The working directory (absolute), for abspath and for absolute paths
 * given to the file functions (those under it name files of the root). */
TFX_API int tfx_host_set_cwd(tfx_host *h, const char *dir, char **error);

/* The home directory, for pathexpand and "~" in file paths. */
TFX_API int tfx_host_set_home(tfx_host *h, const char *dir, char **error);

/* The clock: fixed at an RFC 3339 time, or the system's. */
TFX_API int tfx_host_set_now(tfx_host *h, const char *rfc3339, char **error);
TFX_API void tfx_host_use_system_clock(tfx_host *h);

/* The plan's time, for plantimestamp (RFC 3339; its offset is kept). */
TFX_API int tfx_host_set_plan_timestamp(tfx_host *h, const char *rfc3339, char **error);

/* The random source: the bytes given, returned in order and then used
 * up; a reproducible generator from a seed; or the system's getrandom.
 * The source's position is the host's: evaluations sharing a host
 * consume the same sequence. */
TFX_API int tfx_host_set_random_bytes(tfx_host *h, const unsigned char *bytes, size_t n);
TFX_API void tfx_host_set_random_seed(tfx_host *h, unsigned long long seed);
TFX_API void tfx_host_use_system_random(tfx_host *h);

/* Attaches a host to a context (NULL: none, the default).  The host is
 * borrowed: it must outlive the context's evaluations. */
TFX_API void tfx_context_set_host(tfx_context *ctx, tfx_host *h);

/* ---------------------------------------------------------------------
 * Evaluation
 * ------------------------------------------------------------------ */

/* The limits of one evaluation.  Exceeding one ends the evaluation with a
 * single "resource.limit" diagnostic. */
typedef struct {
    size_t max_steps;            /* nodes evaluated, calls, conversion steps (default 100,000,000) */
    size_t max_depth;            /* nesting of evaluation (default 256) */
    size_t max_string_bytes;     /* longest string made (default 64 MiB) */
    size_t max_collection_items; /* most elements of one collection (default 10,000,000) */
    size_t max_memory_bytes;     /* memory of one evaluation (default 1 GiB) */
} tfx_eval_limits;

/* Fills *limits with the defaults. */
TFX_API void tfx_eval_limits_init(tfx_eval_limits *limits);

/* The outcome of one evaluation: a value and diagnostics. */
typedef struct tfx_result tfx_result;

/* Evaluates the expression or template of `src` in `ctx` (NULL: no
 * variables, no functions).  A source with parse errors is not evaluated:
 * the result carries no value and no diagnostics of its own (report the
 * source's).  `limits` may be NULL for the defaults.  Returns NULL only if
 * memory for the result object cannot be had.  The result refers to `src`
 * and `ctx`, which must outlive it; free it with tfx_result_free. */
TFX_API tfx_result *tfx_evaluate(const tfx_source *src, const tfx_context *ctx,
                                 const tfx_eval_limits *limits);

/* Frees a result and every value it made.  NULL is allowed. */
TFX_API void tfx_result_free(tfx_result *r);

/* Whether the evaluation reported an error. */
TFX_API int tfx_result_has_errors(const tfx_result *r);

/* The evaluation's diagnostics, in upstream's order; they live as long as
 * the result.  i < tfx_result_diagnostic_count. */
TFX_API size_t tfx_result_diagnostic_count(const tfx_result *r);
TFX_API const tfx_diagnostic *tfx_result_diagnostic(const tfx_result *r, size_t i);

/* The value in the corpus's typed JSON encoding (lossless: type, nulls,
 * unknowns, marks, exact numbers), e.g. {"type":"number","v":"3"}.  Free
 * with tfx_free; NULL if the evaluation produced no value or memory ran
 * out.  A number whose positional text would pass 4096 bytes is written
 * in exponent form, "1e+646456992" (a literal like that is a valid number
 * of 646 million digits).  (After errors upstream still returns a
 * placeholder value; so does this function.) */
TFX_API char *tfx_result_json(const tfx_result *r);

/* The value as `terraform console` shows it: strings quoted, objects and
 * maps with `=`, "(known after apply)" for unknowns, "(sensitive value)"
 * for sensitive ones, numbers written out in full as Go does.  Free with
 * tfx_free; NULL if there is no value, memory ran out, or a number's text
 * would be longer than the evaluation's max_string_bytes. */
TFX_API char *tfx_result_render(const tfx_result *r);

/* Converts the result's value to the type `type_json` (cty's JSON type
 * syntax, e.g. ["list","string"]) as cty's convert.Convert does, unsafe
 * conversions allowed when `unsafe` is nonzero (HCL's own choice).  On
 * success the result holds the converted value; if the value cannot be
 * converted, the result gets an "eval.conversion" diagnostic (subject: the
 * whole input) and has errors.  Returns 0 in both cases; -1 when type_json
 * is not a type or the result has no value, with a message in *error
 * (free with tfx_free). */
TFX_API int tfx_result_convert(tfx_result *r, const char *type_json, size_t nbytes, int unsafe,
                               char **error);

/* The value's type in type-constraint syntax, e.g. "list(string)".  Free
 * with tfx_free. */
TFX_API char *tfx_result_type(const tfx_result *r);

/* The value's type in cty's JSON type syntax, e.g. ["list","string"].
 * Free with tfx_free; NULL if there is no value or memory ran out. */
TFX_API char *tfx_result_type_json(const tfx_result *r);

/* ---------------------------------------------------------------------
 * References (static analysis, spec/references.md)
 *
 * The variables an expression or template refers to, found without
 * evaluating it, exactly as upstream's hclsyntax Variables() lists them:
 * one traversal per reference to a root name, in source order, names
 * bound by an enclosing `for` (or %{for}) left out.  A traversal is a
 * root name and the static steps after it: `.name` attributes and
 * `[literal]` indexes; it ends at the first step that is not static.
 * ------------------------------------------------------------------ */

/* The references of one source. */
typedef struct tfx_refs tfx_refs;

typedef enum { TFX_REF_ATTR, TFX_REF_INDEX } tfx_ref_step_kind;

/* One step after the root.  The strings live as long as the tfx_refs
 * (names point into its tfx_source, which must outlive it). */
typedef struct {
    tfx_ref_step_kind kind;
    const char *name;        /* ATTR: the attribute name (not NUL-terminated; nname bytes) */
    size_t nname;
    const char *key_json;    /* INDEX: the key in the corpus's typed JSON encoding,
                                e.g. {"type":"number","v":"0"} (NUL-terminated) */
    const char *key_text;    /* INDEX: the key as written in a traversal: 0, 1.5, "k",
                                true, null (NUL-terminated) */
    tfx_range range;         /* `.name` from the dot, `[key]` bracket to bracket */
} tfx_ref_step;

/* The references of a parsed source (its tree is walked as far as the
 * parse built it, also after syntax errors; callers usually report those
 * instead).  Returns NULL if memory runs out, or if a number index key
 * would have a text longer than 64 MiB (a literal like a[1e646456992] is
 * a valid number of 646 million digits).  The result refers to
 * `src`, which must outlive it; free it with tfx_refs_free. */
TFX_API tfx_refs *tfx_source_refs(const tfx_source *src);

/* Frees a tfx_refs.  NULL is allowed. */
TFX_API void tfx_refs_free(tfx_refs *r);

/* How many traversals; the accessors below take i < tfx_refs_count and
 * j < tfx_ref_step_count(r, i). */
TFX_API size_t tfx_refs_count(const tfx_refs *r);

/* The root name (not NUL-terminated; *nbytes its length). */
TFX_API const char *tfx_ref_root(const tfx_refs *r, size_t i, size_t *nbytes);

/* The range of the root name, and of the whole traversal (root name
 * through its last step). */
TFX_API tfx_range tfx_ref_root_range(const tfx_refs *r, size_t i);
TFX_API tfx_range tfx_ref_range(const tfx_refs *r, size_t i);

TFX_API size_t tfx_ref_step_count(const tfx_refs *r, size_t i);
TFX_API const tfx_ref_step *tfx_ref_step_at(const tfx_refs *r, size_t i, size_t j);

/* The traversal as text, e.g. a.b[0]["k"] (NUL-terminated; lives as
 * long as r). */
TFX_API const char *tfx_ref_text(const tfx_refs *r, size_t i);

/* Every traversal as the protocol's JSON list (conformance/README.md,
 * "Reference requests"): [{"root": ..., "steps": [...], "root_range":
 * ..., "range": ...}, ...].  Free with tfx_free; NULL if memory ran
 * out. */
TFX_API char *tfx_refs_json(const tfx_refs *r);

/* Defines every variable of `json`, a JSON object of name -> type in
 * cty's JSON type syntax ("string", ["list","number"], ...), as an
 * unknown value of that type: evaluating with such a context finds the
 * result type and the errors that do not depend on values (`tfexpr
 * check`, [check.types]).  Returns 0 on success; on error -1 and a
 * message in *error (free with tfx_free) if error is not NULL. */
TFX_API int tfx_context_set_unknown_all(tfx_context *ctx, const char *json, size_t nbytes,
                                        char **error);

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

/* Sets the limits of the adapter's parses and evaluations; NULL (either)
 * for the defaults, which a new adapter has.  The limits are copied. */
TFX_API void tfx_adapter_set_limits(tfx_adapter *a, const tfx_limits *parse,
                                    const tfx_eval_limits *eval);

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
