/*
 * num.c — numbers over GMP and MPFR.
 */
#include "num.h"

#include <gmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool tfx_num_literal_ok(const char *text, size_t n)
{
    size_t i = 0;
    size_t nfrac = 0;
    bool point = false;
    bool nonzero = false;
    int64_t exp = 0;
    char *digits;
    size_t ndigits = 0;
    mpz_t m;
    int64_t exp2;
    bool ok;

    /* mantissa: digits with at most one point */
    digits = malloc(n + 1);
    if (digits == NULL)
        return false;
    for (; i < n && text[i] != 'e' && text[i] != 'E'; i++) {
        if (text[i] == '.') {
            if (point) {
                free(digits);
                return false;
            }
            point = true;
            continue;
        }
        if (text[i] < '0' || text[i] > '9') {
            free(digits);
            return false;
        }
        if (text[i] != '0')
            nonzero = true;
        if (nonzero)
            digits[ndigits++] = text[i];
        if (point)
            nfrac++;
    }
    digits[ndigits] = '\0';
    /* exponent: e, an optional sign, digits, fitting in 64 bits */
    if (i < n) {
        bool neg = false;

        i++;
        if (i < n && (text[i] == '+' || text[i] == '-'))
            neg = text[i++] == '-';
        if (i == n) {
            free(digits);
            return false;
        }
        /* accumulate as a negative number: -2^63 fits, 2^63 does not */
        for (; i < n; i++) {
            int d = text[i] - '0';

            if (d < 0 || d > 9 || exp < (INT64_MIN + d) / 10) {
                free(digits);
                return false;
            }
            exp = exp * 10 - d;
        }
        if (!neg) {
            if (exp == INT64_MIN) {
                free(digits);
                return false;
            }
            exp = -exp;
        }
    }
    if (!nonzero) {
        free(digits);
        return true;
    }
    /* bitlen(m) + exp - nfrac, with the exponent in range */
    mpz_init_set_str(m, digits, 10);
    free(digits);
    exp2 = (int64_t)mpz_sizeinbase(m, 2);
    mpz_clear(m);
    if (nfrac > (size_t)INT32_MAX || exp < INT64_MIN + (int64_t)nfrac)
        return false;
    exp -= (int64_t)nfrac;
    ok = (exp >= 0 || exp2 >= INT64_MIN - exp) && exp <= INT64_MAX - exp2;
    if (ok) {
        exp2 += exp;
        ok = exp2 >= INT32_MIN && exp2 <= INT32_MAX;
    }
    return ok;
}
