/* SPDX-License-Identifier: MPL-2.0 */
/*
 * keysort.h — a stable sort of entries by a 128-bit unsigned key.
 *
 * The fast paths of the orders the spec defines by comparisons ([fn.sort],
 * [type.object.names], [set.order]) give each element a key whose order
 * agrees with the comparison, sort the keys with tfx_keysort, and settle
 * what the key cannot tell (equal keys) themselves.  The sort reads no
 * element: its time is linear in n (a pass per byte of the key that is not
 * the same in every entry), not n log n comparisons.
 */
#ifndef TFX_KEYSORT_H
#define TFX_KEYSORT_H

#include <stddef.h>
#include <stdint.h>

/* One entry: the key k0 (high half) and k1 (low half), and what it stands
 * for (the caller's index). */
typedef struct {
    uint64_t k0, k1;
    size_t index;
} tfx_keyed;

/* Sorts a[0..n) by (k0, k1) ascending; entries with equal keys keep their
 * order (stable).  tmp is scratch space of n entries.  Allocates nothing. */
void tfx_keysort(tfx_keyed *a, tfx_keyed *tmp, size_t n);

#endif
