/* SPDX-License-Identifier: MPL-2.0 */
/*
 * ast.h — the syntax tree of expressions and templates (spec/grammar.md).
 *
 * Node kinds follow the constructs of the grammar one to one.  Every node
 * has the source range of its construct; some kinds keep more ranges (the
 * brackets of an index, the name of a call) because diagnostics point at
 * them.  All nodes live in the arena of the parse that made them.
 */
#ifndef TFX_AST_H
#define TFX_AST_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "diag.h"
#include "num.h"

#define TFX_NODE_KINDS(X) \
    X(LITERAL, "literal")                 /* a constant: number, string, bool, null */ \
    X(TEMPLATE, "template")               /* parts joined into a string */ \
    X(TEMPLATE_WRAP, "template-wrap")     /* "${x}": the interpolation's own value */ \
    X(TEMPLATE_JOIN, "template-join")     /* %{for}: a tuple for-expression joined */ \
    X(SCOPE_TRAVERSAL, "scope-traversal") /* a root name and attribute/index steps */ \
    X(RELATIVE_TRAVERSAL, "relative-traversal") /* steps applied to a source node */ \
    X(FUNCTION_CALL, "call") \
    X(CONDITIONAL, "conditional") \
    X(BINARY_OP, "binary") \
    X(UNARY_OP, "unary") \
    X(TUPLE_CONS, "tuple") \
    X(OBJECT_CONS, "object") \
    X(OBJECT_CONS_KEY, "object-key")      /* a key of an object constructor */ \
    X(FOR, "for") \
    X(INDEX, "index")                     /* collection[key], key not a literal */ \
    X(SPLAT, "splat") \
    X(ANON_SYMBOL, "splat-item")          /* the current element inside a splat */ \
    X(PARENTHESES, "parens")

typedef enum {
#define TFX_NODE_ENUM(name, str) TFX_NODE_##name,
    TFX_NODE_KINDS(TFX_NODE_ENUM)
#undef TFX_NODE_ENUM
    TFX_NODE_COUNT
} tfx_node_kind;

const char *tfx_node_kind_name(tfx_node_kind k);

/* Constants written in the source, before they become values. */
typedef enum {
    TFX_LIT_NUMBER,    /* text: the number literal as written */
    TFX_LIT_STRING,    /* text: the decoded string (not yet NFC) */
    TFX_LIT_BOOL,
    TFX_LIT_NULL,      /* null of type dynamic */
    TFX_LIT_UNKNOWN,   /* a placeholder after a syntax error: unknown of type dynamic */
    TFX_LIT_UNKNOWN_NUMBER  /* an invalid number literal: unknown number */
} tfx_literal_kind;

typedef struct {
    tfx_literal_kind kind;
    bool boolean;          /* BOOL (beside kind, in its padding) */
    const char *text;      /* NUMBER, STRING: NUL-terminated */
    size_t ntext;          /* bytes of text */
    /* The literal's value as the parser worked it out once
     * (tfx_p_literal_value), for every evaluation to take; NULL when the
     * parser did not, and the evaluation works it out itself. */
    union {
        const tfx_num *num;    /* NUMBER: text read at 512 bits */
        struct {
            const char *s;     /* STRING: text in NFC, NUL-terminated */
            size_t n;
        } nfc;
    } value;
} tfx_literal;

typedef enum {
#define TFX_BINARY_OPS(X) \
    X(OR, "||") X(AND, "&&") X(EQUAL, "==") X(NOT_EQUAL, "!=") \
    X(GREATER, ">") X(GREATER_EQUAL, ">=") X(LESS, "<") X(LESS_EQUAL, "<=") \
    X(ADD, "+") X(SUBTRACT, "-") X(MULTIPLY, "*") X(DIVIDE, "/") X(MODULO, "%")
#define TFX_OP_ENUM(name, str) TFX_OP_##name,
    TFX_BINARY_OPS(TFX_OP_ENUM)
#undef TFX_OP_ENUM
    TFX_OP_NEGATE,
    TFX_OP_NOT
} tfx_op;

const char *tfx_op_text(tfx_op op);

/* One step of a traversal: `.name` or `[literal]` (also `.0`). */
typedef struct {
    bool is_attr;
    bool legacy;           /* written as .N */
    union {                /* one or the other, as is_attr says */
        struct {
            const char *name;   /* is_attr */
            size_t nname;
        };
        tfx_literal key;        /* !is_attr */
    };
    tfx_range range;
} tfx_step;

typedef struct tfx_node tfx_node;

typedef struct {
    tfx_node *key;         /* an OBJECT_CONS_KEY node */
    tfx_node *value;
} tfx_object_item;

struct tfx_node {
    tfx_node_kind kind;
    tfx_range range;
    union {
        tfx_literal literal;
        struct {
            tfx_node **parts;
            size_t nparts;
        } template;
        struct {
            tfx_node *wrapped;
        } wrap;
        struct {
            tfx_node *tuple;      /* a FOR node */
        } join;
        struct {
            /* one kind's fields or the other's, never both (a node of
             * each kind in a large tree: 16 bytes of each) */
            union {
                struct {
                    const char *root;     /* SCOPE_TRAVERSAL */
                    size_t nroot;
                    tfx_range root_range;
                };
                tfx_node *source;         /* RELATIVE_TRAVERSAL */
            };
            tfx_step *steps;
            size_t nsteps;
        } traversal;
        struct {
            const char *name;
            size_t nname;
            tfx_node **args;
            size_t nargs;
            bool expand_final;    /* the last argument ends with "..." */
            tfx_range name_range;
            tfx_range open_range;
            tfx_range close_range;
        } call;
        struct {
            tfx_node *cond;
            tfx_node *true_result;
            tfx_node *false_result;
            bool directive;       /* made from %{if} in a template */
        } conditional;
        struct {
            tfx_op op;
            tfx_node *lhs;
            tfx_node *rhs;        /* BINARY_OP only; UNARY_OP's
                                   * operator: tfx_node_lead_range */
        } op;
        struct {
            tfx_node **items;
            size_t nitems;        /* the `[`: tfx_node_lead_range */
        } tuple;
        struct {
            tfx_object_item *items;
            size_t nitems;        /* the `{`: tfx_node_lead_range */
        } object;
        struct {
            tfx_node *wrapped;
            bool force_non_literal;   /* the key was written in parentheses */
        } key;
        struct {
            const char *key_var;      /* NULL when there is one symbol */
            size_t nkey_var;
            const char *val_var;
            size_t nval_var;
            tfx_node *coll;
            tfx_node *key;            /* object form; NULL for tuples */
            tfx_node *value;
            tfx_node *cond;           /* NULL without `if` */
            bool group;               /* `...` after the value */
            tfx_range open_range;
            tfx_range close_range;
        } for_expr;
        struct {
            tfx_node *collection;
            tfx_node *key;
            tfx_range open_range;     /* the `[` */
            tfx_range bracket_range;  /* `[` to `]` */
        } index;
        struct {
            tfx_node *source;
            tfx_node *each;           /* evaluated per element, relative to item */
            tfx_node *item;           /* the ANON_SYMBOL node */
            tfx_range marker_range;   /* `[*]` or `.*` */
            bool legacy;              /* `.*`: attribute-only */
        } splat;
        struct {
            tfx_node *expr;
        } parens;
    } as;
};

/* The range of the one-byte token that a tuple or object constructor
 * (`[`, `{`) or a unary operation (`-`, `!`) starts with, which the node
 * does not keep (48 bytes of each such node, and of every binary
 * operation beside them, in a tree whose size makes most of a large
 * parse's memory traffic).  The node's range starts with that token,
 * which ends a byte and a column later on its line: in a tree without
 * syntax errors (the only ones evaluated) the next byte starts a grapheme
 * cluster of its own, being a space, a line ending or the start of a
 * token, none of which is a combining mark. */
static inline tfx_range tfx_node_lead_range(const tfx_node *n)
{
    tfx_range r;

    r.start = n->range.start;
    r.end = r.start;
    r.end.byte++;
    r.end.column++;
    return r;
}

/* Dumps: an S-expression (with ranges if asked), and JSON.  The text is
 * malloc'd (free it), NULL if memory ran out. */
char *tfx_ast_sexpr(const tfx_node *n, bool ranges);
char *tfx_ast_json(const tfx_node *n);

/* Source text that parses back to an equal tree (tfx_ast_equal), for a
 * tree from a parse without errors.  Malloc'd; NULL if memory ran out. */
char *tfx_ast_print(const tfx_node *n);

/* Whether two trees are equal apart from source ranges, adjacent literal
 * strings of a template compared as one. */
bool tfx_ast_equal(const tfx_node *a, const tfx_node *b);

/* Checks the tree's invariants: every child's range lies inside the
 * source (0..nbytes) and positions are ordered.  Returns NULL when it
 * holds, else a static description of the first violation. */
const char *tfx_ast_check(const tfx_node *n, size_t nbytes);

#endif /* TFX_AST_H */
