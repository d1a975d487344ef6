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

typedef struct tfx_arena tfx_arena;

/* A new arena that may hand out at most `budget_bytes` (0 = no budget).
 * NULL if malloc fails. */
tfx_arena *tfx_arena_new(size_t budget_bytes);

/* Frees the arena and everything allocated in it; runs its finalizers in
 * reverse order of registration.  NULL is allowed. */
void tfx_arena_free(tfx_arena *a);

/* nbytes of zeroed memory aligned for any object, or NULL. */
void *tfx_arena_alloc(tfx_arena *a, size_t nbytes);

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
