/* SPDX-License-Identifier: MPL-2.0 */
/*
 * arena.h — bump allocation with a byte budget (style.md 3.5).
 *
 * Every object belongs to one arena and is freed with it.  An allocation
 * that would take the arena past its budget, or that malloc refuses,
 * returns NULL and sets tfx_arena_exhausted(); callers turn that into a
 * resource.limit diagnostic.
 */
#ifndef TFX_ARENA_H
#define TFX_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef struct tfx_arena tfx_arena;

/* Alignment of every allocation: enough for any object. */
#define TFX_ARENA_ALIGN 16

/* The arena's fields are here only so that the common allocation can be
 * inline (tfx_arena_alloc_raw); nothing outside arena.c and this header
 * reads or writes them. */
struct tfx_arena {
    unsigned char *next;        /* the next free byte of the newest chunk */
    size_t avail;               /* bytes that may be handed out from `next`
                                 * without arena.c: the chunk's room or the
                                 * budget's, the smaller (0 when exhausted) */
    size_t avail_synced;        /* `avail` when the fields below were last
                                 * brought up to date (arena.c: sync) */
    struct tfx_arena_chunk *chunks;          /* newest first */
    struct tfx_arena_finalizer *finalizers;  /* newest first */
    size_t budget;              /* 0: none */
    size_t used;                /* bytes handed out, as of the last sync */
    bool exhausted;
};

/* A new arena that may hand out at most `budget_bytes` (0 = no budget).
 * NULL if malloc fails. */
tfx_arena *tfx_arena_new(size_t budget_bytes);

/* Frees the arena and everything allocated in it; runs its finalizers in
 * reverse order of registration.  NULL is allowed. */
void tfx_arena_free(tfx_arena *a);

/* What tfx_arena_alloc_raw does when the fast path cannot: a new chunk,
 * the budget's and malloc's refusals, zero-byte and overflowing sizes;
 * zeroes the bytes when `zero`. */
void *tfx_arena_alloc_slow(tfx_arena *a, size_t nbytes, bool zero);

/* nbytes of memory aligned for any object, not cleared, or NULL.
 *
 * The fast path bumps the pointer when the newest chunk and the budget both
 * have room: exactly the case in which the general path (arena.c) would
 * take the bytes from the newest chunk, and it takes the same bytes
 * (`need`, the size rounded up to the alignment).  A size of 0 or one
 * that overflows when rounded makes `need - 1` wrap to SIZE_MAX and goes
 * to the general path, as does everything once the arena is exhausted
 * (avail 0). */
static inline void *tfx_arena_alloc_raw(tfx_arena *a, size_t nbytes)
{
    size_t need = (nbytes + (TFX_ARENA_ALIGN - 1)) & ~(size_t)(TFX_ARENA_ALIGN - 1);

    if (need - 1 < a->avail) {
        unsigned char *p = a->next;

        a->next += need;
        a->avail -= need;
        return p;
    }
    return tfx_arena_alloc_slow(a, nbytes, false);
}

/* nbytes of zeroed memory aligned for any object, or NULL. */
static inline void *tfx_arena_alloc(tfx_arena *a, size_t nbytes)
{
    size_t need = (nbytes + (TFX_ARENA_ALIGN - 1)) & ~(size_t)(TFX_ARENA_ALIGN - 1);

    if (need - 1 < a->avail) {
        unsigned char *p = a->next;

        a->next += need;
        a->avail -= need;
        memset(p, 0, nbytes);
        return p;
    }
    return tfx_arena_alloc_slow(a, nbytes, true);
}

/* A NUL-terminated copy of s[0..n), or NULL. */
char *tfx_arena_strndup(tfx_arena *a, const char *s, size_t n);

/* Registers fn(p) to run when the arena is freed.  Returns false (and
 * sets exhausted) if it cannot. */
bool tfx_arena_finalizer(tfx_arena *a, void (*fn)(void *), void *p);

/* Whether an allocation has failed. */
bool tfx_arena_exhausted(const tfx_arena *a);

/* Bytes handed out so far. */
size_t tfx_arena_used(const tfx_arena *a);

#endif /* TFX_ARENA_H */
