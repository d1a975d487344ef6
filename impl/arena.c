/* SPDX-License-Identifier: MPL-2.0 */
/*
 * arena.c — bump allocation with a byte budget; the inline fast path is in
 * arena.h.
 */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_BYTES 65536
#define ALIGN TFX_ARENA_ALIGN

typedef struct tfx_arena_chunk {
    struct tfx_arena_chunk *next;
    size_t size;   /* usable bytes after the header */
    size_t used;   /* as of the last sync, for the newest chunk */
} chunk;

typedef struct tfx_arena_finalizer {
    struct tfx_arena_finalizer *next;
    void (*fn)(void *);
    void *p;
} finalizer;

/* Bytes of the chunk header, rounded up so data stays aligned. */
#define HEADER_BYTES ((sizeof(chunk) + ALIGN - 1) / ALIGN * ALIGN)

tfx_arena *tfx_arena_new(size_t budget_bytes)
{
    tfx_arena *a = calloc(1, sizeof(*a));

    if (a != NULL)
        a->budget = budget_bytes;
    return a;
}

void tfx_arena_free(tfx_arena *a)
{
    chunk *c;
    finalizer *f;

    if (a == NULL)
        return;
    for (f = a->finalizers; f != NULL; f = f->next)
        f->fn(f->p);
    c = a->chunks;
    while (c != NULL) {
        chunk *next = c->next;

        free(c);
        c = next;
    }
    free(a);
}

/* Counts what the inline fast path handed out since the last sync in
 * `used` and in the newest chunk's `used`. */
static void sync(tfx_arena *a)
{
    size_t taken = a->avail_synced - a->avail;

    a->used += taken;
    if (a->chunks != NULL)
        a->chunks->used += taken;
    a->avail_synced = a->avail;
}

/* Opens the fast path's window on the newest chunk: its free bytes, no
 * more than the budget has left. */
static void open_window(tfx_arena *a)
{
    chunk *c = a->chunks;
    size_t room = c->size - c->used;

    if (a->budget != 0 && a->budget - a->used < room)
        room = a->budget - a->used;
    a->next = (unsigned char *)c + HEADER_BYTES + c->used;
    a->avail = a->avail_synced = room;
}

static void *refuse(tfx_arena *a)
{
    a->exhausted = true;
    a->avail = a->avail_synced = 0;
    return NULL;
}

void *tfx_arena_alloc_slow(tfx_arena *a, size_t nbytes, bool zero)
{
    chunk *c;
    size_t need = (nbytes + ALIGN - 1) / ALIGN * ALIGN;
    unsigned char *p;

    sync(a);
    if (need < nbytes || a->exhausted
        || (a->budget != 0 && (need > a->budget - a->used || a->used > a->budget)))
        return refuse(a);
    if (need == 0)
        need = ALIGN;
    c = a->chunks;
    if (c == NULL || c->size - c->used < need) {
        size_t size = need > CHUNK_BYTES ? need : CHUNK_BYTES;

        if (size > SIZE_MAX - HEADER_BYTES)
            return refuse(a);
        c = malloc(HEADER_BYTES + size);
        if (c == NULL)
            return refuse(a);
        c->size = size;
        c->used = 0;
        c->next = a->chunks;
        a->chunks = c;
    }
    p = (unsigned char *)c + HEADER_BYTES + c->used;
    c->used += need;
    a->used += need;
    open_window(a);
    if (zero)
        memset(p, 0, need);
    return p;
}

char *tfx_arena_strndup(tfx_arena *a, const char *s, size_t n)
{
    char *p = n == SIZE_MAX ? NULL : tfx_arena_alloc_raw(a, n + 1);

    if (p != NULL) {
        if (n > 0)
            memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

bool tfx_arena_finalizer(tfx_arena *a, void (*fn)(void *), void *p)
{
    finalizer *f = tfx_arena_alloc(a, sizeof(*f));

    if (f == NULL)
        return false;
    f->fn = fn;
    f->p = p;
    f->next = a->finalizers;
    a->finalizers = f;
    return true;
}

bool tfx_arena_exhausted(const tfx_arena *a)
{
    return a->exhausted;
}

size_t tfx_arena_used(const tfx_arena *a)
{
    return a->used + (a->avail_synced - a->avail);
}
