/*
 * test_eval_ops.c — the operators' direct call (eval.c's
 * tfx_ev_operator_call) against the generic machinery (tfx_func_call) on
 * random operands [call.machinery] [op.*]: the same outcome and the same
 * number of evaluation steps for every operator function.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
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
 * primitive type, so that both paths of tfx_ev_operator_call are taken. */
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
            tfx_func_error e1;
            tfx_func_error e2;
            const tfx_value *r1;
            const tfx_value *r2;
            const char *o1;
            const char *o2;
            size_t steps;
            size_t steps1;
            size_t steps2;
            size_t k;

            for (k = 0; k < f->nparams; k++)
                args[k] = random_operand(f->params[k].type);
            memset(&e1, 0, sizeof e1);
            memset(&e2, 0, sizeof e2);
            steps = ctx->steps;
            r1 = tfx_func_call(ctx, f, args, f->nparams, &e1);
            steps1 = ctx->steps - steps;
            steps = ctx->steps;
            r2 = tfx_ev_operator_call(ctx, f, args, f->nparams, &e2);
            steps2 = ctx->steps - steps;
            o1 = outcome(r1, &e1);
            o2 = outcome(r2, &e2);
            total++;
            if (strcmp(o1, o2) == 0 && steps1 == steps2 && e1.arg == e2.arg)
                same++;
            else
                fprintf(stderr, "%s: %s against %s\n", f->name, o1, o2);
        }
    }
}

int main(void)
{
    CHECK(run("operators", body));
    CHECK(total > 0 && same == total);
    return check_report("test_eval_ops");
}
