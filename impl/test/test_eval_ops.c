/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_eval_ops.c — the direct call of operator and built-in functions
 * (eval.c's tfx_ev_func_call) against the generic machinery
 * (tfx_func_call) on random operands [call.machinery] [op.*]: the same
 * outcome and the same number of evaluation steps for every operator
 * function and every deterministic built-in function of ordinary value
 * parameters.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "convert.h"
#include "eval_internal.h"
#include "testval.h"

/* A fixed-seed xorshift generator: the same operands on every run. */
static uint64_t rng_state = 0xD1B54A32D192ED03u;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Numbers: small whole ones, decimals, zeros, huge and tiny ones,
 * infinities, at 512, 64 and 53 bits. */
static const tfx_value *random_number(void)
{
    static const char *const texts[] = {
        "0", "-0", "1", "-1", "2.5", "0.1", "-7", "3", "1e308", "1e-300", "123456789012345678901234567890",
        "Inf", "-Inf", "0.3333333333333333333",
    };
    char buf[32];

    switch (rng() % 4) {
    case 0:
        return N(texts[rng() % (sizeof(texts) / sizeof(texts[0]))]);
    case 1:
        return I((int64_t)(rng() % 2001) - 1000);
    case 2:
        return F((double)((int64_t)(rng() % 20001) - 10000) / 8.0);
    default:
        snprintf(buf, sizeof buf, "%" PRId64 ".%02d", (int64_t)(rng() % 200) - 100, (int)(rng() % 100));
        return N(buf);
    }
}

/* An operand for a parameter of type t: mostly a known, unmarked value of
 * t; now and then marked, unknown, null, of type dynamic or of the other
 * primitive type, so that both paths of tfx_ev_func_call are taken. */
static const tfx_value *random_operand(const tfx_type *t)
{
    const tfx_type *want = t->kind == TFX_TYPE_DYNAMIC ? (rng() % 2 ? TNUM : TBOOL) : t;
    const tfx_value *v = want == TNUM ? random_number() : B(rng() % 2 == 0);

    switch (rng() % 12) {
    case 0:
        return SENS(v);
    case 1:
        return UNK(want);
    case 2:
        return NUL(want);
    case 3:
        return UNK(TDYN);
    case 4:
        return want == TNUM ? B(true) : random_number();
    default:
        return v;
    }
}

static int same;
static int total;

/* f called with the n values of args both ways, tfx_func_call and
 * tfx_ev_func_call: counted in total, and in same when both give the same
 * outcome, the same argument of an error and the same number of steps. */
static void compare_calls(tfx_ctx *ctx, const tfx_function *f, const tfx_value *const *args,
                          size_t n)
{
    tfx_func_error e1;
    tfx_func_error e2;
    const tfx_value *r1;
    const tfx_value *r2;
    const char *o1;
    const char *o2;
    size_t steps;
    size_t steps1;
    size_t steps2;

    memset(&e1, 0, sizeof e1);
    memset(&e2, 0, sizeof e2);
    steps = ctx->steps;
    r1 = tfx_func_call(ctx, f, args, n, &e1);
    steps1 = ctx->steps - steps;
    steps = ctx->steps;
    r2 = tfx_ev_func_call(ctx, f, args, n, &e2);
    steps2 = ctx->steps - steps;
    o1 = outcome(r1, &e1);
    o2 = outcome(r2, &e2);
    total++;
    if (strcmp(o1, o2) == 0 && steps1 == steps2 && e1.arg == e2.arg)
        same++;
    else
        fprintf(stderr, "%s: %s against %s\n", f->name, o1, o2);
}

/* Every operator function on random operands, both ways. */
static void body(tfx_ctx *ctx, void *unused)
{
    int op;
    int i;

    (void)unused;
    CHECK_STR(call_fn(tfx_func_operator(TFX_FOP_ADD), 2, I(1), I(2)), "3 :: number");
    for (op = TFX_FOP_ADD; op <= TFX_FOP_NEGATE; op++) {
        const tfx_function *f = tfx_func_operator((tfx_func_op)op);

        for (i = 0; i < 3000; i++) {
            const tfx_value *args[2];
            size_t k;

            for (k = 0; k < f->nparams; k++)
                args[k] = random_operand(f->params[k].type);
            compare_calls(ctx, f, args, f->nparams);
        }
    }
}

/* An argument for a built-in function's parameter: a small number, a
 * short string (ASCII, non-ASCII, digits, a bool's text, JSON) or a bool,
 * now and then marked, unknown, null or of type dynamic. */
static const tfx_value *random_argument(void)
{
    static const char *const strings[] = {
        "", "a", "abc", "Hello, World", "caf\xc3\xa9", "\xe2\x82\xac\x35", "12", "-3.5", "true",
        "false", "a,b,c", "[1,2]", "{\"a\":1}", "  x  ", "10.0.0.0/8", "YWJj", "%s-%d", "AbC",
        "2024-01-02T03:04:05Z", "a\nb",
    };
    static const char *const numbers[] = {"0", "-0", "1", "2.5", "0.1", "-7", "3", "16", "64"};
    const tfx_value *v;

    switch (rng() % 3) {
    case 0:
        v = S(strings[rng() % (sizeof(strings) / sizeof(strings[0]))]);
        break;
    case 1:
        v = N(numbers[rng() % (sizeof(numbers) / sizeof(numbers[0]))]);
        break;
    default:
        v = B(rng() % 2 == 0);
        break;
    }
    switch (rng() % 16) {
    case 0:
        return SENS(v);
    case 1:
        return UNK(v->type);
    case 2:
        return NUL(v->type);
    case 3:
        return UNK(TDYN);
    default:
        return v;
    }
}

static const tfx_function *builtin_under_test;

/* Whether the built-in f is called the same both ways: not those whose
 * result changes from call to call (the clock, random bytes) and not
 * those of expression or type parameters (which no call of them passes
 * directly). */
static bool comparable(const tfx_function *f)
{
    static const char *const unstable[] = {"bcrypt", "plantimestamp", "timestamp", "uuid"};
    size_t i;

    for (i = 0; i < sizeof(unstable) / sizeof(unstable[0]); i++)
        if (strcmp(f->name, unstable[i]) == 0)
            return false;
    for (i = 0; i < f->nparams; i++)
        if (f->params[i].kind != TFX_PARAM_VALUE)
            return false;
    return f->varparam == NULL || f->varparam->kind == TFX_PARAM_VALUE;
}

/* One built-in function on random arguments, both ways (a context of
 * its own for each function keeps the arena small). */
static void builtin_body(tfx_ctx *ctx, void *unused)
{
    const tfx_function *f = builtin_under_test;
    int i;

    (void)unused;
    for (i = 0; i < 300; i++) {
        const tfx_value *args[8];
        size_t n = f->nparams + (f->varparam != NULL ? (size_t)(rng() % 3) : 0);
        size_t k;

        if (n > 8)
            return;
        for (k = 0; k < n; k++)
            args[k] = random_argument();
        compare_calls(ctx, f, args, n);
    }
}

/* tfx_ev_convert (with its fast path for a value of the wanted primitive
 * type) against tfx_convert on random arguments and wanted types
 * [conv.def]: the same value or the same error. */
static void convert_body(tfx_ctx *ctx, void *unused)
{
    static const tfx_type *const wanted[] = {TSTR, TNUM, TBOOL, TDYN};
    tfx_ev ev;
    int i;

    (void)unused;
    memset(&ev, 0, sizeof ev);
    ev.ctx = ctx;
    for (i = 0; i < 20000; i++) {
        const tfx_value *v = random_argument();
        const tfx_type *want = wanted[rng() % (sizeof(wanted) / sizeof(wanted[0]))];
        const char *e1 = NULL;
        const char *e2 = NULL;
        const tfx_value *r1 = tfx_convert(ctx, v, want, TFX_CONVERT_UNSAFE, &e1);
        const tfx_value *r2 = tfx_ev_convert(&ev, v, want, &e2);
        tfx_func_error f1 = {-1, e1};
        tfx_func_error f2 = {-1, e2};
        const char *o1 = outcome(r1, &f1);
        const char *o2 = outcome(r2, &f2);

        total++;
        if (strcmp(o1, o2) == 0 && (r1 == v) == (r2 == v))
            same++;
        else
            fprintf(stderr, "convert: %s against %s\n", o1, o2);
    }
}

/* tfx_ev_object_attr against tfx_value_lookup on random objects of up to
 * 4 attributes (distinct names in random order), with right, wrong and
 * missing names and indexes [attr.step]. */
static void attr_body(tfx_ctx *ctx, void *unused)
{
    static const char *const names[] = {"a", "b", "ab", "ba", "", "name", "n", "zz"};
    int i;

    (void)unused;
    (void)ctx;
    for (i = 0; i < 20000; i++) {
        const char *nm[8];
        const tfx_value *obj;
        const char *name = names[rng() % 8];
        long ai;
        size_t k;

        for (k = 0; k < 8; k++)
            nm[k] = names[k];
        for (k = 7; k > 0; k--) { /* shuffle */
            size_t j = (size_t)(rng() % (k + 1));
            const char *t = nm[k];

            nm[k] = nm[j];
            nm[j] = t;
        }
        switch (rng() % 6) {
        case 0: obj = OBJ(0); break;
        case 1: obj = UNK(OBJT(1, "a", TNUM)); break;
        case 2: obj = OBJ(1, nm[0], I(0)); break;
        case 3: obj = OBJ(2, nm[0], I(0), nm[1], I(1)); break;
        case 4: obj = OBJ(3, nm[0], I(0), nm[1], I(1), nm[2], I(2)); break;
        default: obj = OBJ(4, nm[0], I(0), nm[1], I(1), nm[2], I(2), nm[3], S("x")); break;
        }
        ai = obj->type->kind == TFX_TYPE_OBJECT && rng() % 4 != 0
                 ? tfx_type_attr_index(obj->type, name, strlen(name))
                 : (long)(rng() % 8) - 1;
        total++;
        if (tfx_ev_object_attr(obj, ai, name, strlen(name))
            == tfx_value_lookup(obj, name, strlen(name)))
            same++;
        else
            fprintf(stderr, "object attribute %s at %ld differs\n", name, ai);
    }
}

int main(void)
{
    const char *name;
    size_t i;
    int functions = 0;

    CHECK(run("operators", body));
    CHECK(total > 0 && same == total);
    CHECK(run("convert", convert_body));
    CHECK(same == total);
    CHECK(run("attributes", attr_body));
    CHECK(same == total);
    for (i = 0; (name = tfx_func_builtin_opentofu_name(i)) != NULL; i++) {
        const tfx_function *f = tfx_func_builtin_opentofu(name, strlen(name));

        if (f == NULL || !comparable(f))
            continue;
        builtin_under_test = f;
        CHECK(run(name, builtin_body));
        functions++;
    }
    printf("test_eval_ops: %d built-in functions, %d calls compared, %d the same\n", functions,
           total, same);
    CHECK(functions > 100);
    CHECK(total > 0 && same == total);
    return check_report("test_eval_ops");
}
