/* SPDX-License-Identifier: MPL-2.0 */
/*
 * keysort.c — the stable sort of tfx_keyed entries by their 128-bit key:
 * a least-significant-digit radix sort, one byte per pass.
 */
#include "keysort.h"

#include <string.h>

/* The number of byte digits of a key, and the values of one. */
#define KEY_DIGITS 16
#define DIGIT_VALUES 256

/* Digit d of e's key: d = 0 is the lowest byte of k1, d = 15 the highest
 * byte of k0, so that the last pass orders by the most significant byte. */
static unsigned digit_of(const tfx_keyed *e, unsigned d)
{
    uint64_t half = d < 8 ? e->k1 : e->k0;

    return (unsigned)(half >> (8 * (d % 8))) & 0xffu;
}

/* A least-significant-digit radix sort: a pass per digit, from the lowest,
 * each a stable counting sort of the entries by that digit, so that after
 * the last pass the entries are in key order and, among equal keys, in
 * their first order.  A digit that is the same in every entry (its bits
 * are zero in the OR of every key XOR the first) would leave the order as
 * it is, so its pass is skipped. */
void tfx_keysort(tfx_keyed *a, tfx_keyed *tmp, size_t n)
{
    size_t count[DIGIT_VALUES];
    tfx_keyed differ = {0, 0, 0};
    tfx_keyed *src = a;
    tfx_keyed *dst = tmp;

    if (n < 2)
        return;
    for (size_t i = 1; i < n; i++) {
        differ.k0 |= a[i].k0 ^ a[0].k0;
        differ.k1 |= a[i].k1 ^ a[0].k1;
    }
    for (unsigned d = 0; d < KEY_DIGITS; d++) {
        size_t at = 0;
        tfx_keyed *t;

        if (digit_of(&differ, d) == 0)
            continue;
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++)
            count[digit_of(&src[i], d)]++;
        for (unsigned v = 0; v < DIGIT_VALUES; v++) {
            size_t c = count[v];

            count[v] = at; /* now where the next entry of digit v goes */
            at += c;
        }
        for (size_t i = 0; i < n; i++)
            dst[count[digit_of(&src[i], d)]++] = src[i];
        t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
}
