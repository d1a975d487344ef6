/* SPDX-License-Identifier: MPL-2.0 */
/*
 * bench_alloc.h — the malloc interposer of the benchmarks (bench_parse.c,
 * bench_eval.c), included once by each: with glibc and no sanitizer
 * (COUNT_MALLOC defined), malloc, calloc, realloc, free, posix_memalign
 * and aligned_alloc are counted while `counting` is set: n_calls
 * allocation calls, live_bytes usable bytes allocated less freed, and
 * their peak, peak_bytes.  Without glibc, or under AddressSanitizer
 * (which has its own malloc), nothing is defined and the figures are null.
 */
#ifndef TFX_TEST_BENCH_ALLOC_H
#define TFX_TEST_BENCH_ALLOC_H

#include <malloc.h>
#include <stddef.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define NO_INTERPOSER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define NO_INTERPOSER 1
#endif
#if defined(__GLIBC__) && !defined(NO_INTERPOSER)
#define COUNT_MALLOC 1
#endif

#ifdef COUNT_MALLOC
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t align, size_t n);
extern void __libc_free(void *p);

static int counting;          /* counting only during the measured run */
static size_t n_calls;        /* allocation calls: malloc, calloc, realloc, memalign */
static long long live_bytes;  /* usable bytes of blocks allocated (less freed) while counting */
static long long peak_bytes;

static void note_alloc(void *p)
{
    if (counting && p != NULL) {
        n_calls++;
        live_bytes += (long long)malloc_usable_size(p);
        if (live_bytes > peak_bytes)
            peak_bytes = live_bytes;
    }
}

static void note_free(void *p)
{
    if (counting && p != NULL)
        live_bytes -= (long long)malloc_usable_size(p);
}

void *malloc(size_t n)
{
    void *p = __libc_malloc(n);

    note_alloc(p);
    return p;
}

void *calloc(size_t n, size_t size)
{
    void *p = __libc_calloc(n, size);

    note_alloc(p);
    return p;
}

void *realloc(void *old, size_t n)
{
    void *p;

    note_free(old);
    p = __libc_realloc(old, n);
    if (p == NULL && n != 0 && old != NULL) {
        /* failed: the old block is still there */
        if (counting)
            live_bytes += (long long)malloc_usable_size(old);
        return NULL;
    }
    note_alloc(p);
    return p;
}

void free(void *p)
{
    note_free(p);
    __libc_free(p);
}

int posix_memalign(void **out, size_t align, size_t n)
{
    void *p = __libc_memalign(align, n);

    if (p == NULL)
        return 12; /* ENOMEM */
    note_alloc(p);
    *out = p;
    return 0;
}

void *aligned_alloc(size_t align, size_t n)
{
    void *p = __libc_memalign(align, n);

    note_alloc(p);
    return p;
}
#endif

#endif /* TFX_TEST_BENCH_ALLOC_H */
