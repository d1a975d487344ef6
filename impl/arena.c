/*
 * arena.c — bump allocation with a byte budget.
 */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_BYTES 65536
#define ALIGN 16

typedef struct chunk {
    struct chunk *next;
    size_t size;   /* usable bytes after the header */
    size_t used;
} chunk;

typedef struct finalizer {
    struct finalizer *next;
    void (*fn)(void *);
    void *p;
} finalizer;

struct tfx_arena {
    chunk *chunks;          /* newest first */
    finalizer *finalizers;  /* newest first */
    size_t budget;          /* 0: none */
    size_t used;
    bool exhausted;
};

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

void *tfx_arena_alloc(tfx_arena *a, size_t nbytes)
{
    chunk *c = a->chunks;
    size_t need = (nbytes + ALIGN - 1) / ALIGN * ALIGN;
    unsigned char *p;

    if (need < nbytes || a->exhausted
        || (a->budget != 0 && (need > a->budget - a->used || a->used > a->budget))) {
        a->exhausted = true;
        return NULL;
    }
    if (need == 0)
        need = ALIGN;
    if (c == NULL || c->size - c->used < need) {
        size_t size = need > CHUNK_BYTES ? need : CHUNK_BYTES;

        if (size > SIZE_MAX - HEADER_BYTES) {
            a->exhausted = true;
            return NULL;
        }
        c = malloc(HEADER_BYTES + size);
        if (c == NULL) {
            a->exhausted = true;
            return NULL;
        }
        c->size = size;
        c->used = 0;
        c->next = a->chunks;
        a->chunks = c;
    }
    p = (unsigned char *)c + HEADER_BYTES + c->used;
    c->used += need;
    a->used += need;
    memset(p, 0, need);
    return p;
}

char *tfx_arena_strndup(tfx_arena *a, const char *s, size_t n)
{
    char *p = n == SIZE_MAX ? NULL : tfx_arena_alloc(a, n + 1);

    if (p != NULL && n > 0)
        memcpy(p, s, n);
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
    return a->used;
}
