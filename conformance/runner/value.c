/* SPDX-License-Identifier: MPL-2.0 */
/*
 * value.c — typed values (conformance/README.md, "Typed values"): checking
 * them against the grammar, comparing them level by level, rendering them.
 *
 * Values stay jansson trees; the type of each node is walked alongside.
 * A node's effective type is its static type (from the enclosing type),
 * or its own "type" where the static type is dynamic.
 *
 * Comparison ("Comparing results"): the type level compares the top types
 * structurally (object attribute order is irrelevant, as json_equal has
 * it) and the own types of nodes under a dynamic static type; the value
 * level compares null/unknown/known and payloads (numbers by exact decimal
 * value, strings by code points, lists and tuples in order, sets as
 * multisets, maps and objects by key, a console request's type() result
 * by its text); the marks level compares the mark sets of corresponding
 * nodes; the refinements level (only for an adapter that declares
 * value.refinements) compares the refinements of corresponding unknown
 * nodes, an absent bound as unbounded.  The levels are independent: a list and a
 * tuple with the same elements differ in type, not in value; a marks
 * difference never fails the value level.  No floating point is used.
 */
#include "runner.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef enum type_kind {
    TK_INVALID,
    TK_BOOL,
    TK_NUMBER,
    TK_STRING,
    TK_DYNAMIC,
    TK_TYPE,     /* a type() result: only in a console answer */
    TK_LIST,
    TK_SET,
    TK_MAP,
    TK_TUPLE,
    TK_OBJECT
} type_kind;

/* The kind of a type that rn_type_check accepted. */
static type_kind kind_of(json_t *type)
{
    const char *s = json_string_value(type);

    if (s == NULL)
        s = json_string_value(json_array_get(type, 0));
    if (s == NULL)
        return TK_INVALID;
    if (json_is_string(type)) {
        if (strcmp(s, "bool") == 0)
            return TK_BOOL;
        if (strcmp(s, "number") == 0)
            return TK_NUMBER;
        if (strcmp(s, "string") == 0)
            return TK_STRING;
        if (strcmp(s, "dynamic") == 0)
            return TK_DYNAMIC;
        if (strcmp(s, "type") == 0)
            return TK_TYPE;
        return TK_INVALID;
    }
    if (strcmp(s, "list") == 0)
        return TK_LIST;
    if (strcmp(s, "set") == 0)
        return TK_SET;
    if (strcmp(s, "map") == 0)
        return TK_MAP;
    if (strcmp(s, "tuple") == 0)
        return TK_TUPLE;
    if (strcmp(s, "object") == 0)
        return TK_OBJECT;
    return TK_INVALID;
}

/* Payload classes: values of different types can still hold the same
 * data (a list and a tuple), which the value level compares. */
typedef enum payload_class {
    PC_BOOL,
    PC_NUMBER,
    PC_STRING,
    PC_SEQUENCE, /* list, tuple */
    PC_SET,
    PC_MAPPING,  /* map, object */
    PC_NONE      /* dynamic: no known values */
} payload_class;

static payload_class class_of(type_kind k)
{
    switch (k) {
    case TK_BOOL:
        return PC_BOOL;
    case TK_NUMBER:
        return PC_NUMBER;
    case TK_STRING:
    case TK_TYPE: /* the console's text of the type */
        return PC_STRING;
    case TK_LIST:
    case TK_TUPLE:
        return PC_SEQUENCE;
    case TK_SET:
        return PC_SET;
    case TK_MAP:
    case TK_OBJECT:
        return PC_MAPPING;
    case TK_INVALID:
    case TK_DYNAMIC:
        break;
    }
    return PC_NONE;
}

/* The type of element i (list, set, tuple) or of member `key` (map,
 * object) of a value of type `type`. */
static json_t *elem_type(json_t *type, size_t i, const char *key)
{
    switch (kind_of(type)) {
    case TK_LIST:
    case TK_SET:
    case TK_MAP:
        return json_array_get(type, 1);
    case TK_TUPLE:
        return json_array_get(json_array_get(type, 1), i);
    case TK_OBJECT:
        return json_object_get(json_array_get(type, 1), key);
    default:
        return NULL;
    }
}

/* The node's effective type given its static type. */
static json_t *effective_type(json_t *node, json_t *static_type)
{
    json_t *own = json_object_get(node, "type");

    if (own != NULL && kind_of(static_type) == TK_DYNAMIC)
        return own;
    return static_type;
}

typedef enum node_state { NS_KNOWN, NS_NULL, NS_UNKNOWN } node_state;

static node_state state_of(json_t *node)
{
    if (json_object_get(node, "null") != NULL)
        return NS_NULL;
    if (json_object_get(node, "unknown") != NULL)
        return NS_UNKNOWN;
    return NS_KNOWN;
}

/* ------------------------------------------------------------------ */
/* Numbers */

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* An exponent beyond this is not a cty number (big.Float exponents are
 * 32-bit binary exponents) and would risk overflow here. */
#define MAX_EXPONENT 1000000000000000LL

/* Whether s is `word` in any case (ASCII). */
static bool is_word(const char *s, const char *word)
{
    for (; *word != '\0'; s++, word++) {
        /* *word is a lower-case letter: *s matches it or its upper case */
        if (*s != *word && *s != *word - 'a' + 'A')
            return false;
    }
    return *s == '\0';
}

/* The number texts an answer may hold (conformance/README.md, "Number
 * texts"):
 *
 *   number   := sign? (mantissa exponent? | "inf" | "infinity" | "nan")
 *   sign     := "-" | "+"
 *   mantissa := digit+ ("." digit*)? | "." digit+
 *   exponent := ("e" | "E") sign? digit+
 *
 * the words in any case.  Leading zeros are allowed ("007"). */
char *rn_number_canonical(const char *s)
{
    bool negative = false;
    const char *int_digits;
    size_t nint;
    const char *frac_digits = "";
    size_t nfrac = 0;
    long long exponent = 0;
    rn_buf digits = {0};
    long long point;
    size_t i;
    size_t nlead = 0;
    char *canon;

    if (*s == '-' || *s == '+')
        negative = *s++ == '-';
    if (is_word(s, "inf") || is_word(s, "infinity"))
        return rn_xstrdup(negative ? "-inf" : "inf");
    if (is_word(s, "nan"))
        return rn_xstrdup("nan");
    int_digits = s;
    while (is_digit(*s))
        s++;
    nint = (size_t)(s - int_digits);
    if (*s == '.') {
        frac_digits = ++s;
        while (is_digit(*s))
            s++;
        nfrac = (size_t)(s - frac_digits);
    }
    if (nint + nfrac == 0)
        return NULL;
    if (*s == 'e' || *s == 'E') {
        bool exp_negative = false;

        s++;
        if (*s == '+' || *s == '-')
            exp_negative = *s++ == '-';
        if (!is_digit(*s))
            return NULL;
        while (is_digit(*s)) {
            if (exponent > MAX_EXPONENT)
                return NULL;
            exponent = exponent * 10 + (*s++ - '0');
        }
        if (exp_negative)
            exponent = -exponent;
    }
    if (*s != '\0')
        return NULL;

    /* value = 0.DIGITS * 10^point, DIGITS = int_digits frac_digits */
    rn_buf_addn(&digits, int_digits, nint);
    rn_buf_addn(&digits, frac_digits, nfrac);
    while (nlead < digits.nbytes && digits.data[nlead] == '0')
        nlead++;
    if (nlead == digits.nbytes) {
        rn_buf_free(&digits);
        return rn_xstrdup(negative ? "-0" : "0");
    }
    i = digits.nbytes;
    while (digits.data[i - 1] == '0')
        i--;
    digits.data[i] = '\0';
    point = (long long)nint - (long long)nlead + exponent;
    canon = rn_xasprintf("%s0.%se%lld", negative ? "-" : "",
                         digits.data + nlead, point);
    rn_buf_free(&digits);
    return canon;
}

/* Whether a number text is NaN (an answer may hold one; it equals
 * nothing). */
static bool is_nan_text(const char *s)
{
    if (*s == '-' || *s == '+')
        s++;
    return is_word(s, "nan");
}

static bool numbers_equal(const char *a, const char *b)
{
    char *ca = rn_number_canonical(a);
    char *cb = rn_number_canonical(b);
    bool equal = ca != NULL && cb != NULL && strcmp(ca, "nan") != 0 &&
                 strcmp(ca, cb) == 0;

    free(ca);
    free(cb);
    return equal;
}

/* Adds `key` as a JSON string literal. */
static void render_key(rn_buf *b, const char *key)
{
    json_t *k = json_string(key);
    char *quoted = rn_json_compact(k);

    json_decref(k);
    rn_buf_adds(b, quoted);
    free(quoted);
}

/* ------------------------------------------------------------------ */
/* Checking */

/* Where a check is in the value, for messages: `.v["a"].v[2]`. */
typedef struct checker {
    rn_buf path;
    char *why;
    bool constraint;   /* a type constraint: objects may name optional attributes */
    bool console;      /* a console answer: the type `type` is allowed */
    bool answer;       /* an adapter's answer: NaN and "v_base64" are allowed */
} checker;

static bool check_fail(checker *c, const char *fmt, ...) RN_PRINTF(2, 3);

/* Records why the check failed, and where; returns false. */
static bool check_fail(checker *c, const char *fmt, ...)
{
    va_list ap;
    char *what;

    va_start(ap, fmt);
    what = rn_xvasprintf(fmt, ap);
    va_end(ap);
    if (c->path.nbytes > 0) {
        c->why = rn_xasprintf("at %s: %s", c->path.data, what);
        free(what);
    } else
        c->why = what;
    return false;
}

static bool check_type(checker *c, json_t *type)
{
    size_t i;
    json_t *item;
    const char *key;

    switch (kind_of(type)) {
    case TK_BOOL:
    case TK_NUMBER:
    case TK_STRING:
    case TK_DYNAMIC:
        return true;
    case TK_TYPE:
        if (!c->console)
            return check_fail(c, "the type \"type\" (of a type() result) is allowed only in "
                                 "the value of a console request");
        return true;
    case TK_LIST:
    case TK_SET:
    case TK_MAP:
        if (json_array_size(type) != 2)
            return check_fail(c, "a collection type is [kind, element type]");
        return check_type(c, json_array_get(type, 1));
    case TK_TUPLE:
        item = json_array_get(type, 1);
        if (json_array_size(type) != 2 || !json_is_array(item))
            return check_fail(c, "a tuple type is [\"tuple\", [type, ...]]");
        json_array_foreach(json_array_get(type, 1), i, item) {
            if (!check_type(c, item))
                return false;
        }
        return true;
    case TK_OBJECT:
        item = json_array_get(type, 1);
        if (c->constraint && json_array_size(type) == 3 && json_is_object(item)) {
            /* [conv.object.optional] the optional attributes: distinct
             * names of declared attributes */
            json_t *opt = json_array_get(type, 2);
            json_t *name;
            size_t j, k;

            if (!json_is_array(opt))
                return check_fail(c, "an object type constraint's optional attributes are "
                                     "an array of names");
            json_array_foreach(opt, j, name) {
                if (!json_is_string(name) || json_object_get(item, json_string_value(name)) == NULL)
                    return check_fail(c, "an optional attribute must name an attribute of "
                                         "the object type");
                for (k = 0; k < j; k++)
                    if (json_equal(json_array_get(opt, k), name))
                        return check_fail(c, "optional attribute \"%s\" is named twice",
                                          json_string_value(name));
            }
        } else if (json_array_size(type) != 2 || !json_is_object(item))
            return check_fail(c,
                              "an object type is [\"object\", {name: type, ...}]");
        json_object_foreach(json_array_get(type, 1), key, item) {
            if (!check_type(c, item))
                return false;
        }
        return true;
    case TK_INVALID:
        break;
    }
    return check_fail(c, "not a type (bool, number, string, dynamic, "
                         "[list|set|map, T], [tuple, [T...]], [object, {...}])");
}

static bool check_node(checker *c, json_t *node, json_t *static_type,
                       bool top);

static bool check_child(checker *c, json_t *node, json_t *type,
                        size_t index, const char *key)
{
    size_t saved = c->path.nbytes;
    bool ok;

    if (key != NULL) {
        rn_buf_adds(&c->path, ".v[");
        render_key(&c->path, key);
        rn_buf_addc(&c->path, ']');
    } else {
        rn_buf_adds(&c->path, ".v[");
        rn_buf_add_size(&c->path, index);
        rn_buf_addc(&c->path, ']');
    }
    ok = check_node(c, node, type, false);
    if (ok) {
        c->path.nbytes = saved;
        c->path.data[saved] = '\0';
    }
    return ok;
}

static bool check_payload(checker *c, json_t *v, json_t *type)
{
    size_t i;
    json_t *item;
    const char *key;
    json_t *attrs;
    char *canon;

    switch (kind_of(type)) {
    case TK_BOOL:
        if (!json_is_boolean(v))
            return check_fail(c, "a bool payload must be true or false");
        return true;
    case TK_NUMBER:
        if (!json_is_string(v))
            return check_fail(c, "a number payload must be a string");
        canon = rn_number_canonical(json_string_value(v));
        if (canon == NULL)
            return check_fail(c, "not a number text (optional sign, decimal digits "
                                 "with optional fraction and exponent, inf, infinity)");
        if (strcmp(canon, "nan") == 0 && !c->answer) {
            free(canon);
            return check_fail(c, "NaN is no cty number (only an answer may hold it)");
        }
        free(canon);
        return true;
    case TK_STRING:
        if (!json_is_string(v))
            return check_fail(c, "a string payload must be a JSON string");
        return true;
    case TK_TYPE:
        if (!json_is_string(v))
            return check_fail(c, "a type payload must be a JSON string (the console's text "
                                 "of the type)");
        return true;
    case TK_LIST:
    case TK_SET:
    case TK_TUPLE:
        if (!json_is_array(v))
            return check_fail(c, "a list, set or tuple payload must be an array");
        if (kind_of(type) == TK_TUPLE &&
            json_array_size(v) != json_array_size(json_array_get(type, 1)))
            return check_fail(c, "the tuple payload's length differs from its type's");
        json_array_foreach(v, i, item) {
            if (!check_child(c, item, elem_type(type, i, NULL), i, NULL))
                return false;
        }
        return true;
    case TK_MAP:
    case TK_OBJECT:
        if (!json_is_object(v))
            return check_fail(c, "a map or object payload must be an object");
        attrs = json_array_get(type, 1);
        if (kind_of(type) == TK_OBJECT) {
            json_object_foreach(attrs, key, item) {
                if (json_object_get(v, key) == NULL)
                    return check_fail(c, "the object lacks attribute \"%s\"", key);
            }
        }
        json_object_foreach(v, key, item) {
            json_t *t = elem_type(type, 0, key);

            if (t == NULL)
                return check_fail(c, "attribute \"%s\" is not in the object type", key);
            if (!check_child(c, item, t, 0, key))
                return false;
        }
        return true;
    case TK_DYNAMIC:
        return check_fail(c, "a known value needs a concrete type, but the type "
                             "here is dynamic (give the node its own \"type\")");
    case TK_INVALID:
        break;
    }
    return check_fail(c, "invalid type");
}

/* An answer's string payload given as "v_base64" (conformance/README.md,
 * "Text in requests and answers"): base64 of the string's bytes.  When the
 * bytes are valid UTF-8 the node is rewritten with "v", so that it
 * compares as any string; otherwise "v_base64" stays, and the string
 * equals no expected one. */
static bool check_base64_string(checker *c, json_t *node, json_t *type)
{
    json_t *v64 = json_object_get(node, "v_base64");
    rn_buf bytes = {0};

    if (kind_of(type) != TK_STRING)
        return check_fail(c, "\"v_base64\" is only for a string payload");
    if (!json_is_string(v64) ||
        !rn_base64_decode(json_string_value(v64), json_string_length(v64), &bytes)) {
        rn_buf_free(&bytes);
        return check_fail(c, "\"v_base64\" must be a base64 string");
    }
    if (rn_utf8_valid(bytes.data != NULL ? bytes.data : "", bytes.nbytes)) {
        json_object_set_new(node, "v", json_stringn(bytes.data != NULL ? bytes.data : "",
                                                    bytes.nbytes));
        json_object_del(node, "v_base64");
    }
    rn_buf_free(&bytes);
    return true;
}

/* Whether `name` is a refinement a value of kind k can have
 * (conformance/README.md, "Refinements"). */
static bool refinement_allowed(const char *name, type_kind k)
{
    if (strcmp(name, "not_null") == 0)
        return k != TK_DYNAMIC;
    if (strcmp(name, "string_prefix") == 0)
        return k == TK_STRING;
    if (strcmp(name, "number_lower") == 0 || strcmp(name, "number_upper") == 0 ||
        strcmp(name, "number_lower_inclusive") == 0 ||
        strcmp(name, "number_upper_inclusive") == 0)
        return k == TK_NUMBER;
    if (strcmp(name, "length_lower") == 0 || strcmp(name, "length_upper") == 0)
        return k == TK_LIST || k == TK_SET || k == TK_MAP;
    return false;
}

/* Whether a refinement's value has the shape its name asks for. */
static bool refinement_value_ok(const char *name, json_t *item)
{
    if (strcmp(name, "not_null") == 0)
        return json_is_true(item);
    if (strcmp(name, "string_prefix") == 0)
        return json_string_length(item) > 0;
    if (strcmp(name, "number_lower") == 0 || strcmp(name, "number_upper") == 0) {
        char *canon = json_is_string(item) ? rn_number_canonical(json_string_value(item))
                                           : NULL;
        bool ok = canon != NULL && strcmp(canon, "nan") != 0;

        free(canon);
        return ok;
    }
    if (strcmp(name, "length_lower") == 0)
        return json_is_integer(item) && json_integer_value(item) >= 1;
    if (strcmp(name, "length_upper") == 0)
        return json_is_integer(item) && json_integer_value(item) >= 0;
    return json_is_boolean(item); /* the _inclusive flags */
}

/* An unknown node's "refinements": known names, allowed by its type, with
 * values of the right shape; each number bound with its inclusiveness. */
static bool check_refinements(checker *c, json_t *node, json_t *type)
{
    json_t *ref = json_object_get(node, "refinements");
    const char *key;
    json_t *item;

    if (state_of(node) != NS_UNKNOWN)
        return check_fail(c, "only an unknown node has \"refinements\"");
    if (!json_is_object(ref))
        return check_fail(c, "\"refinements\" must be an object");
    json_object_foreach(ref, key, item) {
        if (!refinement_allowed(key, kind_of(type)))
            return check_fail(c, "the refinement \"%s\" is unknown or not allowed on a "
                                 "value of this type", key);
        if (!refinement_value_ok(key, item))
            return check_fail(c, "the refinement \"%s\" has an invalid value", key);
    }
    if ((json_object_get(ref, "number_lower") == NULL) !=
        (json_object_get(ref, "number_lower_inclusive") == NULL))
        return check_fail(c, "\"number_lower\" and \"number_lower_inclusive\" go together");
    if ((json_object_get(ref, "number_upper") == NULL) !=
        (json_object_get(ref, "number_upper_inclusive") == NULL))
        return check_fail(c, "\"number_upper\" and \"number_upper_inclusive\" go together");
    return true;
}

static bool check_node(checker *c, json_t *node, json_t *static_type, bool top)
{
    const char *key;
    json_t *item;
    size_t nforms = 0;
    json_t *type = static_type;
    json_t *own;

    if (!json_is_object(node))
        return check_fail(c, "a value node must be a JSON object");
    json_object_foreach(node, key, item) {
        if (strcmp(key, "v") == 0 || (strcmp(key, "v_base64") == 0 && c->answer))
            nforms++;
        else if (strcmp(key, "null") == 0 || strcmp(key, "unknown") == 0) {
            nforms++;
            if (!json_is_true(item))
                return check_fail(c, "\"null\" and \"unknown\" must be true");
        } else if (strcmp(key, "marks") == 0) {
            size_t i;
            json_t *mark;

            if (!json_is_array(item))
                return check_fail(c, "\"marks\" must be an array of strings");
            json_array_foreach(item, i, mark) {
                if (json_string_length(mark) == 0)
                    return check_fail(c, "a mark must be a non-empty string");
            }
        } else if (strcmp(key, "type") != 0 && strcmp(key, "refinements") != 0)
            return check_fail(c, "unexpected member \"%s\" in a value node", key);
    }
    if (nforms != 1)
        return check_fail(c, c->answer ? "a value node has exactly one of \"v\", "
                                         "\"v_base64\", \"null\", \"unknown\""
                                       : "a value node has exactly one of \"v\", "
                                         "\"null\", \"unknown\"");
    own = json_object_get(node, "type");
    if (top) {
        if (own == NULL)
            return check_fail(c, "a typed value needs \"type\"");
        type = own;
    } else if (own != NULL) {
        if (kind_of(static_type) != TK_DYNAMIC)
            return check_fail(c, "\"type\" is allowed on an inner node only where "
                                 "the enclosing type says dynamic");
        type = own;
    }
    if (own != NULL && !check_type(c, own))
        return false;
    if (json_object_get(node, "refinements") != NULL)
        return check_refinements(c, node, type);
    if (state_of(node) != NS_KNOWN)
        return true;
    if (json_object_get(node, "v_base64") != NULL)
        return check_base64_string(c, node, type);
    return check_payload(c, json_object_get(node, "v"), type);
}

bool rn_value_check(json_t *tv, char **why)
{
    /* a value's type may keep optional markers where cty leaves them
     * (spec [conv.object.optional], items 3 and 4) */
    checker c = {{0}, NULL, true, false, false};
    bool ok = check_node(&c, tv, NULL, true);

    if (!ok)
        *why = c.why;
    rn_buf_free(&c.path);
    return ok;
}

bool rn_answer_value_check(json_t *tv, bool console, char **why)
{
    checker c = {{0}, NULL, true, console, true};
    bool ok = check_node(&c, tv, NULL, true);

    if (!ok)
        *why = c.why;
    rn_buf_free(&c.path);
    return ok;
}

bool rn_value_is_nan(json_t *tv)
{
    json_t *v = json_object_get(tv, "v");

    return kind_of(json_object_get(tv, "type")) == TK_NUMBER && json_is_string(v) &&
           is_nan_text(json_string_value(v));
}

bool rn_console_value_check(json_t *tv, char **why)
{
    checker c = {{0}, NULL, true, true, false};
    bool ok = check_node(&c, tv, NULL, true);

    if (!ok)
        *why = c.why;
    rn_buf_free(&c.path);
    return ok;
}

bool rn_type_check(json_t *type, char **why)
{
    checker c = {{0}, NULL, false, false, false};
    bool ok = check_type(&c, type);

    if (!ok)
        *why = c.why;
    rn_buf_free(&c.path);
    return ok;
}

bool rn_constraint_check(json_t *type, char **why)
{
    checker c = {{0}, NULL, true, false, false};
    bool ok = check_type(&c, type);

    if (!ok)
        *why = c.why;
    rn_buf_free(&c.path);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Rendering */

void rn_type_render(rn_buf *b, json_t *type)
{
    size_t i;
    json_t *item;
    const char *key;
    bool first = true;

    switch (kind_of(type)) {
    case TK_BOOL:
    case TK_NUMBER:
    case TK_STRING:
    case TK_DYNAMIC:
    case TK_TYPE:
        rn_buf_adds(b, json_string_value(type));
        return;
    case TK_LIST:
    case TK_SET:
    case TK_MAP:
        rn_buf_printf(b, "%s(", json_string_value(json_array_get(type, 0)));
        rn_type_render(b, json_array_get(type, 1));
        rn_buf_addc(b, ')');
        return;
    case TK_TUPLE:
        rn_buf_adds(b, "tuple([");
        json_array_foreach(json_array_get(type, 1), i, item) {
            if (i > 0)
                rn_buf_adds(b, ", ");
            rn_type_render(b, item);
        }
        rn_buf_adds(b, "])");
        return;
    case TK_OBJECT:
        rn_buf_adds(b, "object({");
        json_object_foreach(json_array_get(type, 1), key, item) {
            if (!first)
                rn_buf_adds(b, ", ");
            first = false;
            rn_buf_printf(b, "%s=", key);
            rn_type_render(b, item);
        }
        rn_buf_adds(b, "})");
        return;
    case TK_INVALID:
        break;
    }
    rn_buf_adds(b, "?");
}

static void render_json_string(rn_buf *b, json_t *s)
{
    char *text = rn_json_compact(s);

    rn_buf_adds(b, text);
    free(text);
}

/* An answer's string that is not UTF-8 ("v_base64"): its bytes quoted
 * with \xNN escapes, and "(not UTF-8)". */
static void render_invalid_string(rn_buf *b, json_t *v64)
{
    rn_buf bytes = {0};
    char *text;

    (void)rn_base64_decode(json_string_value(v64), json_string_length(v64), &bytes);
    text = rn_bytes_escape(bytes.data != NULL ? bytes.data : "", bytes.nbytes);
    rn_buf_printf(b, "%s (not UTF-8)", text);
    free(text);
    rn_buf_free(&bytes);
}

/* "(sensitive, x)", or "(no marks)" */
static void render_mark_list(rn_buf *b, json_t *marks)
{
    size_t i;
    json_t *mark;

    if (json_array_size(marks) == 0) {
        rn_buf_adds(b, "(no marks)");
        return;
    }
    rn_buf_addc(b, '(');
    json_array_foreach(marks, i, mark) {
        if (i > 0)
            rn_buf_adds(b, ", ");
        rn_buf_adds(b, json_string_value(mark));
    }
    rn_buf_addc(b, ')');
}

static void render_marks(rn_buf *b, json_t *marks)
{
    if (json_array_size(marks) == 0)
        return;
    rn_buf_addc(b, ' ');
    render_mark_list(b, marks);
}

/* Whether an object key can be written bare, as an HCL identifier. */
static bool is_identifier(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return false;
    for (s++; *s != '\0'; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              is_digit(*s) || *s == '_' || *s == '-'))
            return false;
    return true;
}

/* ", not null, prefix \"ab\", >= 0, < 10, length >= 1, length <= 3";
 * nothing for none. */
static void render_refinements(rn_buf *b, json_t *ref)
{
    json_t *lo = json_object_get(ref, "number_lower");
    json_t *hi = json_object_get(ref, "number_upper");
    json_t *len;

    if (json_is_true(json_object_get(ref, "not_null")))
        rn_buf_adds(b, ", not null");
    if (json_object_get(ref, "string_prefix") != NULL) {
        rn_buf_adds(b, ", prefix ");
        render_json_string(b, json_object_get(ref, "string_prefix"));
    }
    if (lo != NULL) {
        rn_buf_adds(b, json_is_true(json_object_get(ref, "number_lower_inclusive")) ? ", >= "
                                                                                    : ", > ");
        rn_buf_adds(b, json_string_value(lo));
    }
    if (hi != NULL) {
        rn_buf_adds(b, json_is_true(json_object_get(ref, "number_upper_inclusive")) ? ", <= "
                                                                                    : ", < ");
        rn_buf_adds(b, json_string_value(hi));
    }
    if ((len = json_object_get(ref, "length_lower")) != NULL) {
        rn_buf_adds(b, ", length >= ");
        rn_buf_add_size(b, (size_t)json_integer_value(len));
    }
    if ((len = json_object_get(ref, "length_upper")) != NULL) {
        rn_buf_adds(b, ", length <= ");
        rn_buf_add_size(b, (size_t)json_integer_value(len));
    }
}

static void render_node(rn_buf *b, json_t *node, json_t *static_type, bool top)
{
    json_t *type = effective_type(node, static_type);
    json_t *v = json_object_get(node, "v");
    size_t i;
    json_t *item;
    const char *key;
    bool first = true;

    switch (state_of(node)) {
    case NS_NULL:
        rn_buf_adds(b, "null");
        break;
    case NS_UNKNOWN:
        rn_buf_adds(b, "(unknown");
        render_refinements(b, json_object_get(node, "refinements"));
        rn_buf_addc(b, ')');
        break;
    case NS_KNOWN:
        switch (kind_of(type)) {
        case TK_BOOL:
            rn_buf_adds(b, json_is_true(v) ? "true" : "false");
            break;
        case TK_NUMBER:
            rn_buf_adds(b, json_string_value(v));
            break;
        case TK_STRING:
            if (v != NULL)
                render_json_string(b, v);
            else
                render_invalid_string(b, json_object_get(node, "v_base64"));
            break;
        case TK_TYPE:
            rn_buf_adds(b, "type(");
            render_json_string(b, v);
            rn_buf_addc(b, ')');
            break;
        case TK_LIST:
        case TK_SET:
        case TK_TUPLE:
            rn_buf_addc(b, '[');
            json_array_foreach(v, i, item) {
                if (i > 0)
                    rn_buf_adds(b, ", ");
                render_node(b, item, elem_type(type, i, NULL), false);
            }
            rn_buf_addc(b, ']');
            break;
        case TK_MAP:
        case TK_OBJECT:
            rn_buf_addc(b, '{');
            json_object_foreach(v, key, item) {
                if (!first)
                    rn_buf_adds(b, ", ");
                first = false;
                if (kind_of(type) == TK_OBJECT && is_identifier(key))
                    rn_buf_adds(b, key);
                else
                    render_key(b, key);
                rn_buf_adds(b, " = ");
                render_node(b, item, elem_type(type, 0, key), false);
            }
            rn_buf_addc(b, '}');
            break;
        case TK_DYNAMIC:
        case TK_INVALID:
            rn_buf_adds(b, "?");
            break;
        }
        break;
    }
    render_marks(b, json_object_get(node, "marks"));
    if (top || type != static_type) {
        rn_buf_adds(b, " :: ");
        rn_type_render(b, type);
    }
}

void rn_value_render(rn_buf *b, json_t *tv)
{
    render_node(b, tv, json_object_get(tv, "type"), true);
}

/* ------------------------------------------------------------------ */
/* Comparing */

/* Whether two mark arrays hold the same set of marks. */
static bool marks_equal(json_t *a, json_t *b)
{
    size_t i;
    json_t *m;

    json_array_foreach(a, i, m) {
        if (!rn_json_array_has_str(b, json_string_value(m)))
            return false;
    }
    json_array_foreach(b, i, m) {
        if (!rn_json_array_has_str(a, json_string_value(m)))
            return false;
    }
    return true;
}

/* Two string payloads; a missing one (an answer's "v_base64" that is not
 * UTF-8) equals nothing. */
static bool strings_equal(json_t *a, json_t *b)
{
    size_t n = json_string_length(a);

    return a != NULL && b != NULL && n == json_string_length(b) &&
           memcmp(json_string_value(a), json_string_value(b), n) == 0;
}

/* What nodes_equal compares besides the values. */
#define EQ_MARKS 1u
#define EQ_REFINEMENTS 2u

/* Whether two optional number texts (bounds) are equal, absent ones too. */
static bool bounds_equal(json_t *a, json_t *b)
{
    if (a == NULL || b == NULL)
        return a == b;
    return numbers_equal(json_string_value(a), json_string_value(b));
}

/* Whether two refinement objects (either may be absent: none) say the same:
 * absent bounds are unbounded, an absent prefix is "", an absent
 * length_lower is 0 (conformance/README.md, "Refinements"). */
static bool refinements_equal(json_t *a, json_t *b)
{
    static const char *const flags[] = {"not_null", "number_lower_inclusive",
                                        "number_upper_inclusive"};
    json_t *pa = json_object_get(a, "string_prefix");
    json_t *pb = json_object_get(b, "string_prefix");
    json_t *la = json_object_get(a, "length_upper");
    json_t *lb = json_object_get(b, "length_upper");
    size_t i;

    for (i = 0; i < 3; i++)
        if (json_is_true(json_object_get(a, flags[i])) !=
            json_is_true(json_object_get(b, flags[i])))
            return false;
    if (json_string_length(pa) != json_string_length(pb) ||
        (pa != NULL && pb != NULL &&
         memcmp(json_string_value(pa), json_string_value(pb), json_string_length(pa)) != 0))
        return false;
    if (json_integer_value(json_object_get(a, "length_lower")) !=
        json_integer_value(json_object_get(b, "length_lower")))
        return false;
    if ((la == NULL) != (lb == NULL) || json_integer_value(la) != json_integer_value(lb))
        return false;
    return bounds_equal(json_object_get(a, "number_lower"), json_object_get(b, "number_lower")) &&
           bounds_equal(json_object_get(a, "number_upper"), json_object_get(b, "number_upper"));
}

static bool nodes_equal(json_t *e, json_t *et, json_t *g, json_t *gt,
                        unsigned with);

/* Whether the arrays `e` and `g` (set payloads) are equal as multisets. */
static bool multisets_equal(json_t *e, json_t *et, json_t *g, json_t *gt,
                            unsigned with)
{
    size_t n = json_array_size(e);
    bool *used;
    size_t i;
    size_t j;
    bool equal = true;

    if (n != json_array_size(g))
        return false;
    used = rn_xcalloc(n, sizeof(*used));
    for (i = 0; i < n && equal; i++) {
        bool found = false;

        for (j = 0; j < n && !found; j++) {
            if (!used[j] && nodes_equal(json_array_get(e, i), json_array_get(et, 1),
                                        json_array_get(g, j), json_array_get(gt, 1),
                                        with)) {
                used[j] = true;
                found = true;
            }
        }
        equal = found;
    }
    free(used);
    return equal;
}

/* Value equality of two nodes (and mark equality at every node, if
 * with).  Types count only through their payload classes. */
static bool nodes_equal(json_t *e, json_t *et, json_t *g, json_t *gt,
                        unsigned with)
{
    json_t *ev;
    json_t *gv;
    size_t i;
    json_t *item;
    const char *key;

    et = effective_type(e, et);
    gt = effective_type(g, gt);
    if ((with & EQ_MARKS) != 0 && !marks_equal(json_object_get(e, "marks"),
                                               json_object_get(g, "marks")))
        return false;
    if (state_of(e) != state_of(g))
        return false;
    if (state_of(e) == NS_UNKNOWN && (with & EQ_REFINEMENTS) != 0)
        return refinements_equal(json_object_get(e, "refinements"),
                                 json_object_get(g, "refinements"));
    if (state_of(e) != NS_KNOWN)
        return true;
    if (class_of(kind_of(et)) != class_of(kind_of(gt)))
        return false;
    ev = json_object_get(e, "v");
    gv = json_object_get(g, "v");
    switch (class_of(kind_of(et))) {
    case PC_BOOL:
        return json_equal(ev, gv);
    case PC_NUMBER:
        return numbers_equal(json_string_value(ev), json_string_value(gv));
    case PC_STRING:
        return strings_equal(ev, gv);
    case PC_SEQUENCE:
        if (json_array_size(ev) != json_array_size(gv))
            return false;
        json_array_foreach(ev, i, item) {
            if (!nodes_equal(item, elem_type(et, i, NULL), json_array_get(gv, i),
                             elem_type(gt, i, NULL), with))
                return false;
        }
        return true;
    case PC_SET:
        return multisets_equal(ev, et, gv, gt, with);
    case PC_MAPPING:
        if (json_object_size(ev) != json_object_size(gv))
            return false;
        json_object_foreach(ev, key, item) {
            json_t *gitem = json_object_get(gv, key);

            if (gitem == NULL || !nodes_equal(item, elem_type(et, 0, key), gitem,
                                              elem_type(gt, 0, key), with))
                return false;
        }
        return true;
    case PC_NONE:
        break;
    }
    return false;
}

/* A comparison in progress: the result to fill and the current path. */
typedef struct comparer {
    rn_result *r;
    rn_buf path;
    bool refinements; /* compare them: the adapter declared value.refinements */
} comparer;

static const char *cmp_where(comparer *c)
{
    return c->path.nbytes > 0 ? c->path.data : "(top)";
}

/* A node rendered for a difference message, cut to RN_DIFF_NBYTES. */
static char *render_one(json_t *node, json_t *type)
{
    rn_buf b = {0};
    char *cut;

    render_node(&b, node, type, false);
    cut = rn_utf8_quote(b.data, b.nbytes, RN_DIFF_NBYTES);
    rn_buf_free(&b);
    return cut;
}

/* A failure at `level`, with both values rendered ("what at PATH:
 * expected ..., got ..."). */
static void level_differs(comparer *c, rn_level level, const char *what, json_t *e, json_t *et,
                          json_t *g, json_t *gt)
{
    char *es = render_one(e, et);
    char *gs = render_one(g, gt);

    rn_result_set(c->r, level, RN_ST_FAIL);
    rn_strlist_addf(&c->r->diffs, "%s at %s: expected %s, got %s", what, cmp_where(c), es, gs);
    free(es);
    free(gs);
}

static void value_differs(comparer *c, json_t *e, json_t *et, json_t *g,
                          json_t *gt)
{
    level_differs(c, RN_LV_VALUE, "value", e, et, g, gt);
}

static bool has_non_ascii(json_t *s)
{
    const unsigned char *p = (const unsigned char *)json_string_value(s);
    size_t n = json_string_length(s);
    size_t i;

    for (i = 0; i < n; i++)
        if (p[i] >= 0x80)
            return true;
    return false;
}

/* A NaN in the answer, where a number is expected:
 * a failure of its own kind, since no cty number is NaN. */
static void nan_differs(comparer *c, json_t *e, json_t *et)
{
    char *es = render_one(e, et);

    rn_result_set(c->r, RN_LV_VALUE, RN_ST_FAIL);
    rn_strlist_addf(&c->r->diffs, "value at %s: expected %s, got NaN (not a number: "
                    "no cty number is NaN)", cmp_where(c), es);
    free(es);
}

/* Like value_differs, but strings beyond ASCII, which can look alike (as
 * NFC and NFD forms do), are also shown with \u escapes. */
static void strings_differ(comparer *c, json_t *e, json_t *et, json_t *g,
                           json_t *gt)
{
    char *es = render_one(e, et);
    char *gs = render_one(g, gt);

    if (has_non_ascii(json_object_get(e, "v")) || has_non_ascii(json_object_get(g, "v"))) {
        char *ea = json_dumps(json_object_get(e, "v"), JSON_ENCODE_ANY | JSON_ENSURE_ASCII);
        char *ga = json_dumps(json_object_get(g, "v"), JSON_ENCODE_ANY | JSON_ENSURE_ASCII);

        rn_result_set(c->r, RN_LV_VALUE, RN_ST_FAIL);
        rn_strlist_addf(&c->r->diffs, "value at %s: expected %s, got %s (escaped: "
                        "expected %.*s, got %.*s)", cmp_where(c), es, gs,
                        RN_DIFF_NBYTES, ea != NULL ? ea : "?", RN_DIFF_NBYTES,
                        ga != NULL ? ga : "?");
        free(ea);
        free(ga);
    } else
        value_differs(c, e, et, g, gt);
    free(es);
    free(gs);
}

static void compare_node(comparer *c, json_t *e, json_t *et, json_t *g,
                         json_t *gt, bool inner);

static void compare_child(comparer *c, json_t *e, json_t *et, json_t *g,
                          json_t *gt, size_t index, const char *key)
{
    size_t saved = c->path.nbytes;

    if (key != NULL) {
        rn_buf_addc(&c->path, '[');
        render_key(&c->path, key);
        rn_buf_addc(&c->path, ']');
    } else {
        rn_buf_addc(&c->path, '[');
        rn_buf_add_size(&c->path, index);
        rn_buf_addc(&c->path, ']');
    }
    compare_node(c, e, et, g, gt, true);
    c->path.nbytes = saved;
    c->path.data[saved] = '\0';
}

static void compare_node(comparer *c, json_t *e, json_t *et, json_t *g,
                         json_t *gt, bool inner)
{
    json_t *ev;
    json_t *gv;
    size_t i;
    json_t *item;
    const char *key;
    json_t *emarks = json_object_get(e, "marks");
    json_t *gmarks = json_object_get(g, "marks");

    if (inner && kind_of(et) == TK_DYNAMIC && kind_of(gt) == TK_DYNAMIC) {
        json_t *own_e = effective_type(e, et);
        json_t *own_g = effective_type(g, gt);

        if (!json_equal(own_e, own_g)) {
            rn_buf eb = {0};
            rn_buf gb = {0};

            rn_type_render(&eb, own_e);
            rn_type_render(&gb, own_g);
            rn_result_set(c->r, RN_LV_TYPE, RN_ST_FAIL);
            rn_strlist_addf(&c->r->diffs, "type at %s: expected %s, got %s",
                            cmp_where(c), eb.data, gb.data);
            rn_buf_free(&eb);
            rn_buf_free(&gb);
        }
    }
    et = effective_type(e, et);
    gt = effective_type(g, gt);
    if (!marks_equal(emarks, gmarks)) {
        rn_buf eb = {0};
        rn_buf gb = {0};

        render_mark_list(&eb, emarks);
        render_mark_list(&gb, gmarks);
        rn_result_set(c->r, RN_LV_MARKS, RN_ST_FAIL);
        rn_strlist_addf(&c->r->diffs, "marks at %s: expected %s, got %s",
                        cmp_where(c), eb.data, gb.data);
        rn_buf_free(&eb);
        rn_buf_free(&gb);
    }
    if (state_of(e) != state_of(g)) {
        value_differs(c, e, et, g, gt);
        return;
    }
    if (state_of(e) == NS_UNKNOWN && c->refinements &&
        !refinements_equal(json_object_get(e, "refinements"), json_object_get(g, "refinements")))
        level_differs(c, RN_LV_REFINEMENTS, "refinements", e, et, g, gt);
    if (state_of(e) != NS_KNOWN)
        return;
    if (class_of(kind_of(et)) != class_of(kind_of(gt))) {
        value_differs(c, e, et, g, gt);
        return;
    }
    ev = json_object_get(e, "v");
    gv = json_object_get(g, "v");
    switch (class_of(kind_of(et))) {
    case PC_BOOL:
        if (!nodes_equal(e, et, g, gt, 0))
            value_differs(c, e, et, g, gt);
        return;
    case PC_NUMBER:
        if (is_nan_text(json_string_value(gv)))
            nan_differs(c, e, et);
        else if (!nodes_equal(e, et, g, gt, 0))
            value_differs(c, e, et, g, gt);
        return;
    case PC_STRING:
        if (gv == NULL) {
            /* a string that is not UTF-8 (an answer's "v_base64") equals no
             * cty string */
            char *es = render_one(e, et);
            char *gs = render_one(g, gt);

            rn_result_set(c->r, RN_LV_VALUE, RN_ST_FAIL);
            rn_strlist_addf(&c->r->diffs, "value at %s: expected %s, got a string that "
                            "is not valid UTF-8: %s", cmp_where(c), es, gs);
            free(es);
            free(gs);
        } else if (!strings_equal(ev, gv))
            strings_differ(c, e, et, g, gt);
        return;
    case PC_SEQUENCE:
        if (json_array_size(ev) != json_array_size(gv)) {
            rn_result_set(c->r, RN_LV_VALUE, RN_ST_FAIL);
            rn_strlist_addf(&c->r->diffs,
                            "value at %s: expected %zu elements, got %zu",
                            cmp_where(c), json_array_size(ev), json_array_size(gv));
        }
        json_array_foreach(ev, i, item) {
            if (i >= json_array_size(gv))
                break;
            compare_child(c, item, elem_type(et, i, NULL), json_array_get(gv, i),
                          elem_type(gt, i, NULL), i, NULL);
        }
        return;
    case PC_SET:
        if (!multisets_equal(ev, et, gv, gt, 0))
            value_differs(c, e, et, g, gt);
        else if (!multisets_equal(ev, et, gv, gt, EQ_MARKS)) {
            rn_result_set(c->r, RN_LV_MARKS, RN_ST_FAIL);
            rn_strlist_addf(&c->r->diffs, "marks at %s: the set's elements "
                            "carry different marks", cmp_where(c));
        } else if (c->refinements && !multisets_equal(ev, et, gv, gt, EQ_REFINEMENTS)) {
            rn_result_set(c->r, RN_LV_REFINEMENTS, RN_ST_FAIL);
            rn_strlist_addf(&c->r->diffs, "refinements at %s: the set's unknown elements "
                            "carry different refinements", cmp_where(c));
        }
        return;
    case PC_MAPPING:
        json_object_foreach(ev, key, item) {
            json_t *gitem = json_object_get(gv, key);

            if (gitem == NULL) {
                rn_result_set(c->r, RN_LV_VALUE, RN_ST_FAIL);
                rn_strlist_addf(&c->r->diffs, "value at %s: missing key \"%s\"",
                                cmp_where(c), key);
            } else
                compare_child(c, item, elem_type(et, 0, key), gitem,
                              elem_type(gt, 0, key), 0, key);
        }
        json_object_foreach(gv, key, item) {
            if (json_object_get(ev, key) == NULL) {
                rn_result_set(c->r, RN_LV_VALUE, RN_ST_FAIL);
                rn_strlist_addf(&c->r->diffs, "value at %s: unexpected key \"%s\"",
                                cmp_where(c), key);
            }
        }
        return;
    case PC_NONE:
        break;
    }
    value_differs(c, e, et, g, gt);
}

/* Whether some node of a typed value has non-empty refinements. */
static bool has_refinements(json_t *node)
{
    json_t *v = json_object_get(node, "v");
    size_t i;
    json_t *item;
    const char *key;

    if (json_object_size(json_object_get(node, "refinements")) > 0)
        return true;
    json_array_foreach(v, i, item) {
        if (has_refinements(item))
            return true;
    }
    json_object_foreach(v, key, item) {
        if (has_refinements(item))
            return true;
    }
    return false;
}

void rn_value_compare(json_t *expected, json_t *got, bool refinements, rn_result *r)
{
    comparer c = {r, {0}, refinements};
    json_t *et = json_object_get(expected, "type");
    json_t *gt = json_object_get(got, "type");

    rn_result_set(r, RN_LV_TYPE, RN_ST_PASS);
    rn_result_set(r, RN_LV_VALUE, RN_ST_PASS);
    rn_result_set(r, RN_LV_MARKS, RN_ST_PASS);
    if (refinements)
        rn_result_set(r, RN_LV_REFINEMENTS, RN_ST_PASS);
    else if (has_refinements(expected))
        rn_result_set(r, RN_LV_REFINEMENTS, RN_ST_NA);
    if (!json_equal(et, gt)) {
        rn_buf eb = {0};
        rn_buf gb = {0};

        rn_type_render(&eb, et);
        rn_type_render(&gb, gt);
        rn_result_set(r, RN_LV_TYPE, RN_ST_FAIL);
        rn_strlist_addf(&r->diffs, "type: expected %s, got %s", eb.data, gb.data);
        rn_buf_free(&eb);
        rn_buf_free(&gb);
    }
    compare_node(&c, expected, et, got, gt, false);
    rn_buf_free(&c.path);
}
