/* SPDX-License-Identifier: MPL-2.0 */
/*
 * host.c — the host interface (spec/functions-files.md, rules host.*,
 * files.*): a file system confined to a base directory or held in memory,
 * a clock, a random source, the home and working directories.
 */
#define _GNU_SOURCE 1
#include "host.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

/* [files.resolve.links] Symbolic links followed on one path at most
 * (Linux's own limit). */
#define MAX_LINKS 40

typedef struct {
    char *path;           /* cleaned, relative to the root */
    unsigned char *data;
    size_t n;
} mem_file;

typedef enum { RANDOM_NONE, RANDOM_FIXED, RANDOM_SEED, RANDOM_SYSTEM } random_kind;
typedef enum { CLOCK_NONE, CLOCK_FIXED, CLOCK_SYSTEM } clock_kind;

/* A time as RFC 3339 gives it: the seconds since the epoch and the UTC
 * offset in seconds. */
typedef struct {
    bool set;
    int64_t unix;
    int offset;
} host_time;

struct tfx_host {
    int root_fd;             /* a real base directory (O_PATH), or -1 */
    bool memory;             /* in-memory files */
    mem_file *files;         /* sorted by path */
    size_t nfiles;
    char *cwd;
    char *home;
    clock_kind clock;
    host_time now;
    host_time plan;
    random_kind random;
    unsigned char *bytes;
    size_t nbytes;
    size_t used;
    uint64_t seed;
};

/* ---------------------------------------------------------------------
 * Paths [files.clean]
 * ------------------------------------------------------------------ */

/* Go's filepath.Clean on Linux into out (room for n + 2 bytes): returns
 * the length. */
static size_t clean_into(const char *p, size_t n, char *out)
{
    bool rooted = n > 0 && p[0] == '/';
    size_t r = 0;
    size_t w = 0;
    size_t dotdot = 0;

    if (n == 0) {
        out[0] = '.';
        out[1] = '\0';
        return 1;
    }
    if (rooted) {
        out[w++] = '/';
        r = 1;
        dotdot = 1;
    }
    while (r < n) {
        if (p[r] == '/' || (p[r] == '.' && (r + 1 == n || p[r + 1] == '/'))) {
            r++;
        } else if (p[r] == '.' && p[r + 1] == '.' && (r + 2 == n || p[r + 2] == '/')) {
            r += 2;
            if (w > dotdot) {
                w--;
                while (w > dotdot && out[w] != '/')
                    w--;
            } else if (!rooted) {
                if (w > 0)
                    out[w++] = '/';
                out[w++] = '.';
                out[w++] = '.';
                dotdot = w;
            }
        } else {
            if ((rooted && w != 1) || (!rooted && w != 0))
                out[w++] = '/';
            for (; r < n && p[r] != '/'; r++)
                out[w++] = p[r];
        }
    }
    if (w == 0)
        out[w++] = '.';
    out[w] = '\0';
    return w;
}

/* [files.clean] */
const char *tfx_host_clean_n(tfx_ctx *ctx, const char *path, size_t n, size_t *out_n)
{
    char *out;

    tfx_ctx_check_string(ctx, n);
    out = tfx_ctx_alloc(ctx, n + 3);
    *out_n = clean_into(path, n, out);
    return out;
}

const char *tfx_host_clean(tfx_ctx *ctx, const char *path, size_t n)
{
    size_t unused;

    return tfx_host_clean_n(ctx, path, n, &unused);
}

/* [files.confine.lexical] The cleaned path relative to the root, or NULL
 * when it leads outside: a leading "..", or an absolute path not under
 * the working directory.  Points into path or is ".". */
static const char *relative_to_root(const tfx_host *h, const char *path)
{
    if (path[0] == '/') {
        size_t nc;

        if (h->cwd == NULL)
            return NULL;
        nc = strlen(h->cwd);
        if (strcmp(h->cwd, "/") == 0)
            return path[1] != '\0' ? path + 1 : ".";
        if (strncmp(path, h->cwd, nc) != 0)
            return NULL;
        if (path[nc] == '\0')
            return ".";
        if (path[nc] != '/')
            return NULL;
        return path + nc + 1;
    }
    if (path[0] == '.' && path[1] == '.' && (path[2] == '\0' || path[2] == '/'))
        return NULL;
    return path;
}

/* ---------------------------------------------------------------------
 * A real base directory [files.confine]
 * ------------------------------------------------------------------ */

static tfx_host_kind kind_of_mode(mode_t m)
{
    if (S_ISREG(m))
        return TFX_HF_FILE;
    if (S_ISDIR(m))
        return TFX_HF_DIR;
    return TFX_HF_OTHER;
}

static void close_stack(int *stack, size_t n)
{
    for (size_t i = 1; i < n; i++)
        close(stack[i]);
}

/* [files.confine.walk] The resolution: the path's components are taken
 * one at a time from a queue; each is opened with O_PATH | O_NOFOLLOW
 * relative to the directory descriptor on top of a stack that starts at
 * the root.  "." is nothing, ".." pops the stack (refused at the root: it
 * would leave it), a directory is pushed, a symbolic link's target
 * (read from the descriptor of the link itself) is put in front of the
 * rest of the queue, refused when absolute.  Every step is relative to a
 * descriptor already checked to be inside, so a rename or a new link made
 * while the walk runs can make it fail but never leave the root. */
static tfx_host_kind resolve(int root_fd, const char *path, int *out_fd, size_t *work)
{
    size_t cap = 16;
    size_t depth = 1;
    int *stack = malloc(cap * sizeof(int));
    char *queue;
    size_t qlen = strlen(path);
    size_t qpos = 0;
    int links = 0;
    int last_fd = -1;
    tfx_host_kind result = TFX_HF_DIR;

    if (out_fd != NULL)
        *out_fd = -1;
    queue = malloc(qlen + 1);
    if (stack == NULL || queue == NULL) {
        free(stack);
        free(queue);
        errno = ENOMEM;
        return TFX_HF_ERROR;
    }
    memcpy(queue, path, qlen + 1);
    stack[0] = root_fd;
    for (;;) {
        size_t start;
        size_t len;
        bool last;
        struct stat st;
        int fd;

        while (qpos < qlen && queue[qpos] == '/')
            qpos++;
        if (qpos >= qlen)
            break;
        start = qpos;
        while (qpos < qlen && queue[qpos] != '/')
            qpos++;
        len = qpos - start;
        if (work != NULL)
            (*work)++;
        {
            size_t k = qpos;

            while (k < qlen && queue[k] == '/')
                k++;
            last = k >= qlen;
        }
        if (last_fd >= 0) {
            close(last_fd);
            last_fd = -1;
        }
        if (len == 1 && queue[start] == '.') {
            result = TFX_HF_DIR;
            continue;
        }
        if (len == 2 && queue[start] == '.' && queue[start + 1] == '.') {
            if (depth == 1) {
                result = TFX_HF_OUTSIDE;
                goto done;
            }
            close(stack[--depth]);
            result = TFX_HF_DIR;
            continue;
        }
        if (len > NAME_MAX) {
            errno = ENAMETOOLONG;
            result = TFX_HF_ERROR;
            goto done;
        }
        {
            char name[NAME_MAX + 1];

            memcpy(name, queue + start, len);
            name[len] = '\0';
            fd = openat(stack[depth - 1], name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        }
        if (fd < 0) {
            result = errno == ENOENT ? TFX_HF_NOENT
                     : errno == ENOTDIR ? TFX_HF_NOTDIR
                                         : TFX_HF_ERROR;
            goto done;
        }
        if (fstat(fd, &st) != 0) {
            close(fd);
            result = TFX_HF_ERROR;
            goto done;
        }
        if (S_ISLNK(st.st_mode)) {
            char target[PATH_MAX];
            ssize_t tn = readlinkat(fd, "", target, sizeof(target) - 1);
            char *nq;
            size_t rest = qlen - qpos;

            close(fd);
            if (tn <= 0) {
                result = TFX_HF_ERROR;
                goto done;
            }
            if (++links > MAX_LINKS) {
                result = TFX_HF_LOOP;
                goto done;
            }
            if (target[0] == '/') {
                /* [files.confine.links] absolute targets are refused */
                result = TFX_HF_OUTSIDE;
                goto done;
            }
            nq = malloc((size_t)tn + rest + 2);
            if (nq == NULL) {
                errno = ENOMEM;
                result = TFX_HF_ERROR;
                goto done;
            }
            memcpy(nq, target, (size_t)tn);
            nq[tn] = '/';
            memcpy(nq + tn + 1, queue + qpos, rest + 1);
            free(queue);
            queue = nq;
            qlen = (size_t)tn + 1 + rest;
            qpos = 0;
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            if (depth == cap) {
                int *ns = realloc(stack, 2 * cap * sizeof(int));

                if (ns == NULL) {
                    close(fd);
                    errno = ENOMEM;
                    result = TFX_HF_ERROR;
                    goto done;
                }
                stack = ns;
                cap *= 2;
            }
            stack[depth++] = fd;
            result = TFX_HF_DIR;
            continue;
        }
        result = kind_of_mode(st.st_mode);
        if (!last) {
            close(fd);
            result = TFX_HF_NOTDIR;
            goto done;
        }
        last_fd = fd;
    }
    if (out_fd != NULL) {
        if (last_fd >= 0) {
            *out_fd = last_fd;
            last_fd = -1;
        } else {
            *out_fd = openat(stack[depth - 1], ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
            if (*out_fd < 0)
                result = TFX_HF_ERROR;
        }
    }
done:
    if (last_fd >= 0)
        close(last_fd);
    close_stack(stack, depth);
    free(stack);
    free(queue);
    return result;
}

tfx_host_kind tfx_host_resolve_at(int root_fd, const char *path, int *out_fd)
{
    return resolve(root_fd, path, out_fd, NULL);
}

/* [files.limit.items] Steps a walk counts for each component it took:
 * a component costs a few system calls (openat, fstat, readlinkat), as
 * much time as some hundreds of evaluation steps, so that the step limit
 * bounds a walk's time as it bounds an evaluation's. */
#define COMPONENT_STEPS 512

/* [files.limit.items] A walk counts COMPONENT_STEPS for every component
 * it took (those of links' targets included), so that a glob over link
 * cycles, whose paths grow at every level, ends at the step limit after
 * work in proportion to it.  fd (or -1), the walk's descriptor, is closed
 * first when the limit is reached. */
static void charge_walk(tfx_ctx *ctx, size_t work, int fd)
{
    size_t steps = work > SIZE_MAX / COMPONENT_STEPS ? SIZE_MAX : work * COMPONENT_STEPS;

    if (ctx->steps > ctx->limits.max_steps || steps > ctx->limits.max_steps - ctx->steps) {
        if (fd >= 0)
            close(fd);
    }
    for (size_t i = 0; i < steps; i++)
        tfx_ctx_step(ctx);
}

/* ---------------------------------------------------------------------
 * In-memory files [files.memory]
 * ------------------------------------------------------------------ */

/* What the first n bytes of a relative cleaned path name among the
 * in-memory files: a file, a directory that holds one, or nothing. */
static tfx_host_kind mem_prefix(const tfx_host *h, const char *rel, size_t n, const mem_file **file)
{
    for (size_t i = 0; i < h->nfiles; i++) {
        const char *p = h->files[i].path;
        size_t np = strlen(p);

        if (np == n && memcmp(p, rel, n) == 0) {
            *file = &h->files[i];
            return TFX_HF_FILE;
        }
        if (np > n && memcmp(p, rel, n) == 0 && p[n] == '/')
            return TFX_HF_DIR;
    }
    return TFX_HF_NOENT;
}

/* What a relative cleaned path names among the in-memory files, found as
 * a walk of the real file system finds it [files.memory]: component by
 * component, nothing there or a file before the last component ending
 * the walk; a component longer than NAME_MAX is ENAMETOOLONG (a
 * TFX_HF_ERROR, errno set) when the walk reaches it, as on Linux, where
 * the reference's file system says "file name too long". */
static tfx_host_kind mem_lookup(const tfx_host *h, const char *rel, const mem_file **file)
{
    size_t n = strlen(rel);
    size_t start = 0;

    *file = NULL;
    if (strcmp(rel, ".") == 0)
        return TFX_HF_DIR;
    for (;;) {
        size_t end = start;
        tfx_host_kind k;

        while (end < n && rel[end] != '/')
            end++;
        if (end - start > NAME_MAX) {
            errno = ENAMETOOLONG;
            return TFX_HF_ERROR;
        }
        k = mem_prefix(h, rel, end, file);
        if (end == n || k == TFX_HF_NOENT)
            return k;
        if (k == TFX_HF_FILE) {
            *file = NULL;
            return TFX_HF_NOTDIR;
        }
        start = end + 1;
    }
}

/* ---------------------------------------------------------------------
 * The operations
 * ------------------------------------------------------------------ */

bool tfx_host_has_fs(const tfx_host *h)
{
    return h != NULL && (h->root_fd >= 0 || h->memory);
}

tfx_host_kind tfx_host_stat(tfx_ctx *ctx, const tfx_host *h, const char *path,
                            const char **err_text)
{
    const char *rel;
    tfx_host_kind k;
    size_t work = 0;
    int e;

    *err_text = NULL;
    if (!tfx_host_has_fs(h))
        return TFX_HF_NOFS;
    rel = relative_to_root(h, path);
    if (rel == NULL)
        return TFX_HF_OUTSIDE;
    if (h->memory) {
        const mem_file *f;

        k = mem_lookup(h, rel, &f);
        if (k == TFX_HF_ERROR)
            *err_text = tfx_ctx_printf(ctx, "%s", strerror(ENAMETOOLONG));
        return k;
    }
    errno = 0;
    k = resolve(h->root_fd, rel, NULL, &work);
    e = errno;
    charge_walk(ctx, work, -1);
    if (k == TFX_HF_ERROR)
        *err_text = tfx_ctx_printf(ctx, "%s", strerror(e));
    return k;
}

/* Fails the evaluation: the arena refused n bytes for a file's contents. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noreturn))
#endif
static void out_of_memory(tfx_ctx *ctx, size_t n)
{
    tfx_ctx_fail(ctx, "Memory limit exceeded",
                 "Reading a file needs %zu bytes more than the memory limit allows.", n);
}

tfx_host_kind tfx_host_read(tfx_ctx *ctx, const tfx_host *h, const char *path, const char **data,
                            size_t *n, const char **err_text)
{
    const char *rel;
    tfx_host_kind k;
    int pfd;
    int fd;
    char proc[64];
    struct stat st;
    struct stat st2;
    char *buf;
    size_t got = 0;
    size_t work = 0;
    int e;

    *err_text = NULL;
    if (!tfx_host_has_fs(h))
        return TFX_HF_NOFS;
    rel = relative_to_root(h, path);
    if (rel == NULL)
        return TFX_HF_OUTSIDE;
    if (h->memory) {
        const mem_file *f;

        k = mem_lookup(h, rel, &f);
        if (k == TFX_HF_FILE) {
            tfx_ctx_check_string(ctx, f->n);
            *data = tfx_ctx_strndup(ctx, (const char *)f->data, f->n);
            *n = f->n;
        } else if (k == TFX_HF_ERROR) {
            *err_text = tfx_ctx_printf(ctx, "%s", strerror(ENAMETOOLONG));
        }
        return k;
    }
    errno = 0;
    k = resolve(h->root_fd, rel, &pfd, &work);
    e = errno;
    charge_walk(ctx, work, pfd);
    if (k != TFX_HF_FILE) {
        if (pfd >= 0)
            close(pfd);
        if (k == TFX_HF_ERROR)
            *err_text = tfx_ctx_printf(ctx, "%s", strerror(e));
        return k;
    }
    /* [files.confine.reopen] the O_PATH descriptor of the file found is
     * reopened for reading through /proc/self/fd, which names that very
     * file (no path is looked up again) */
    snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
    fd = open(proc, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0 || fstat(fd, &st) != 0 || fstat(pfd, &st2) != 0 || st.st_ino != st2.st_ino
        || st.st_dev != st2.st_dev || !S_ISREG(st.st_mode)) {
        *err_text = tfx_ctx_printf(ctx, "%s", fd < 0 ? strerror(errno) : "file changed");
        if (fd >= 0)
            close(fd);
        close(pfd);
        return TFX_HF_ERROR;
    }
    close(pfd);
    if ((uint64_t)st.st_size > ctx->limits.max_string_bytes) {
        close(fd);
        tfx_ctx_check_string(ctx, (size_t)st.st_size);
    }
    {
        size_t cap = (size_t)st.st_size + 1;

        buf = tfx_arena_alloc(ctx->arena, cap + 1);
        if (buf == NULL) {
            close(fd);
            out_of_memory(ctx, cap + 1);
        }
        for (;;) {
            ssize_t r;

            if (got == cap) {
                /* the file grew: read it on up to the limit */
                size_t ncap = cap * 2;
                char *nb;

                if (cap > ctx->limits.max_string_bytes) {
                    close(fd);
                    tfx_ctx_check_string(ctx, cap);
                }
                nb = tfx_arena_alloc(ctx->arena, ncap + 1);
                if (nb == NULL) {
                    close(fd);
                    out_of_memory(ctx, ncap + 1);
                }
                memcpy(nb, buf, got);
                buf = nb;
                cap = ncap;
            }
            r = read(fd, buf + got, cap - got);
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0) {
                *err_text = tfx_ctx_printf(ctx, "%s", strerror(errno));
                close(fd);
                return TFX_HF_ERROR;
            }
            if (r == 0)
                break;
            got += (size_t)r;
        }
    }
    close(fd);
    tfx_ctx_check_string(ctx, got);
    buf[got] = '\0';
    *data = buf;
    *n = got;
    return TFX_HF_FILE;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

bool tfx_host_list(tfx_ctx *ctx, const tfx_host *h, const char *path, const char ***names,
                   size_t *count)
{
    const char *rel;
    const char **out;
    size_t n = 0;
    size_t cap = 16;

    *names = NULL;
    *count = 0;
    if (!tfx_host_has_fs(h))
        return false;
    rel = relative_to_root(h, path);
    if (rel == NULL)
        return false;
    out = tfx_ctx_alloc_array(ctx, cap, sizeof(*out));
    if (h->memory) {
        size_t nr = strcmp(rel, ".") == 0 ? 0 : strlen(rel);

        for (size_t i = 0; i < h->nfiles; i++) {
            const char *p = h->files[i].path;
            const char *rest;
            size_t len;
            bool dup = false;

            if (nr > 0 && (strncmp(p, rel, nr) != 0 || p[nr] != '/'))
                continue;
            rest = nr > 0 ? p + nr + 1 : p;
            len = strcspn(rest, "/");
            for (size_t j = 0; j < n && !dup; j++)
                dup = strlen(out[j]) == len && memcmp(out[j], rest, len) == 0;
            if (dup)
                continue;
            if (n == cap) {
                const char **no = tfx_ctx_alloc_array(ctx, cap * 2, sizeof(*no));

                memcpy(no, out, n * sizeof(*no));
                out = no;
                cap *= 2;
            }
            out[n++] = tfx_ctx_strndup(ctx, rest, len);
        }
    } else {
        int pfd;
        int fd;
        DIR *d;
        char proc[64];
        size_t work = 0;
        tfx_host_kind k = resolve(h->root_fd, rel, &pfd, &work);

        charge_walk(ctx, work, pfd);
        if (k != TFX_HF_DIR) {
            if (pfd >= 0)
                close(pfd);
            return false;
        }
        snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
        fd = open(proc, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        close(pfd);
        if (fd < 0)
            return false;
        d = fdopendir(fd);
        if (d == NULL) {
            close(fd);
            return false;
        }
        /* names are copied with malloc'd growth so nothing can fail
         * through the ctx while the directory is open */
        {
            char **tmp = NULL;
            size_t tn = 0;
            size_t tcap = 0;
            bool ok = true;

            for (;;) {
                const struct dirent *e = readdir(d);

                if (e == NULL)
                    break;
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                    continue;
                if (tn == tcap) {
                    size_t ncap = tcap ? 2 * tcap : 16;
                    char **nt = realloc(tmp, ncap * sizeof(*nt));

                    if (nt == NULL) {
                        ok = false;
                        break;
                    }
                    tmp = nt;
                    tcap = ncap;
                }
                tmp[tn] = strdup(e->d_name);
                if (tmp[tn] == NULL) {
                    ok = false;
                    break;
                }
                tn++;
            }
            closedir(d);
            if (ok && tn > ctx->limits.max_collection_items)
                ok = false;
            if (ok) {
                const char **arena_names =
                    tfx_arena_alloc(ctx->arena, (tn + 1) * sizeof(char *));

                ok = arena_names != NULL;
                for (size_t i = 0; ok && i < tn; i++) {
                    size_t len = strlen(tmp[i]);
                    char *copy = tfx_arena_alloc(ctx->arena, len + 1);

                    ok = copy != NULL;
                    if (ok) {
                        memcpy(copy, tmp[i], len + 1);
                        arena_names[i] = copy;
                    }
                }
                if (ok) {
                    out = arena_names;
                    n = tn;
                }
            }
            for (size_t i = 0; i < tn; i++)
                free(tmp[i]);
            free(tmp);
            if (!ok) {
                tfx_ctx_check_items(ctx, tn);
                return false;
            }
        }
    }
    qsort(out, n, sizeof(*out), compare_names);
    *names = out;
    *count = n;
    return true;
}

const char *tfx_host_cwd(const tfx_host *h)
{
    return h != NULL ? h->cwd : NULL;
}

const char *tfx_host_home(const tfx_host *h)
{
    return h != NULL ? h->home : NULL;
}

/* ---------------------------------------------------------------------
 * Time [host.clock]
 * ------------------------------------------------------------------ */

/* Days since 1970-01-01 of a civil date (the proleptic Gregorian
 * calendar). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    int64_t era;
    int64_t yoe;
    int64_t doy;
    int64_t doe;

    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    int64_t era;
    int64_t doe;
    int64_t yoe;
    int64_t doy;
    int64_t mp;

    z += 719468;
    era = (z >= 0 ? z : z - 146096) / 146097;
    doe = z - era * 146097;
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

static bool digits(const char *s, int n, int *out)
{
    int v = 0;

    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

/* [host.clock.rfc3339] YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM),
 * the fraction dropped. */
static bool parse_rfc3339(const char *s, host_time *t)
{
    int y, mo, d, hh, mi, ss;
    int oh = 0;
    int om = 0;
    int sign = 0;
    size_t i = 19;
    size_t n = strlen(s);
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

    if (n < 20 || !digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &mo) || s[7] != '-'
        || !digits(s + 8, 2, &d) || (s[10] != 'T' && s[10] != 't') || !digits(s + 11, 2, &hh)
        || s[13] != ':' || !digits(s + 14, 2, &mi) || s[16] != ':' || !digits(s + 17, 2, &ss))
        return false;
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || hh > 23 || mi > 59 || ss > 59)
        return false;
    if (mo == 2 && d == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
        return false;
    if (s[i] == '.') {
        i++;
        if (i >= n || s[i] < '0' || s[i] > '9')
            return false;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
    }
    if (i + 1 == n && (s[i] == 'Z' || s[i] == 'z')) {
        sign = 0;
    } else if (i + 6 == n && (s[i] == '+' || s[i] == '-') && digits(s + i + 1, 2, &oh)
               && s[i + 3] == ':' && digits(s + i + 4, 2, &om) && oh < 24 && om < 60) {
        sign = s[i] == '-' ? -1 : 1;
    } else {
        return false;
    }
    t->set = true;
    t->offset = sign * (oh * 3600 + om * 60);
    t->unix = days_from_civil(y, mo, d) * 86400 + (int64_t)hh * 3600 + (int64_t)mi * 60 + ss
              - t->offset;
    return true;
}

/* RFC 3339 as Go's time.Format(time.RFC3339) writes t in its offset. */
static const char *format_time(tfx_ctx *ctx, int64_t unix, int offset)
{
    int64_t local = unix + offset;
    int64_t days = local >= 0 ? local / 86400 : -((-local + 86399) / 86400);
    int64_t secs = local - days * 86400;
    int64_t y;
    int m, d;

    civil_from_days(days, &y, &m, &d);
    if (offset == 0)
        return tfx_ctx_printf(ctx, "%04lld-%02d-%02dT%02d:%02d:%02dZ", (long long)y, m, d,
                              (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60));
    return tfx_ctx_printf(ctx, "%04lld-%02d-%02dT%02d:%02d:%02d%c%02d:%02d", (long long)y, m, d,
                          (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60),
                          offset < 0 ? '-' : '+', abs(offset) / 3600, abs(offset) / 60 % 60);
}

bool tfx_host_now(tfx_ctx *ctx, const tfx_host *h, const char **text)
{
    if (h == NULL || h->clock == CLOCK_NONE)
        return false;
    if (h->clock == CLOCK_SYSTEM) {
        struct timespec ts;

        clock_gettime(CLOCK_REALTIME, &ts);
        *text = format_time(ctx, (int64_t)ts.tv_sec, 0);
        return true;
    }
    *text = format_time(ctx, h->now.unix, 0);
    return true;
}

bool tfx_host_plan_time(tfx_ctx *ctx, const tfx_host *h, const char **text)
{
    if (h == NULL || !h->plan.set)
        return false;
    *text = format_time(ctx, h->plan.unix, h->plan.offset);
    return true;
}

/* ---------------------------------------------------------------------
 * Randomness [host.random]
 * ------------------------------------------------------------------ */

/* [host.random.seed] SplitMix64: the reproducible generator of --seed. */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int tfx_host_random(tfx_host *h, unsigned char *out, size_t n)
{
    if (h == NULL)
        return -1;
    switch (h->random) {
    case RANDOM_FIXED:
        if (h->nbytes - h->used < n)
            return -2;
        memcpy(out, h->bytes + h->used, n);
        h->used += n;
        return 0;
    case RANDOM_SEED:
        for (size_t i = 0; i < n; i += 8) {
            uint64_t r = splitmix64(&h->seed);

            for (size_t j = 0; j < 8 && i + j < n; j++)
                out[i + j] = (unsigned char)(r >> (8 * j));
        }
        return 0;
    case RANDOM_SYSTEM: {
        size_t got = 0;

        while (got < n) {
            ssize_t r = getrandom(out + got, n - got, 0);

            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                return -3;
            got += (size_t)r;
        }
        return 0;
    }
    default:
        return -1;
    }
}

/* ---------------------------------------------------------------------
 * The public interface [host.api]
 * ------------------------------------------------------------------ */

/* *error = before + arg + after (malloc'd), when error is not NULL. */
static void set_error(char **error, const char *before, const char *arg, const char *after)
{
    size_t a = strlen(before);
    size_t b = strlen(arg);
    size_t c = strlen(after);
    char *p;

    if (error == NULL)
        return;
    p = malloc(a + b + c + 1);
    if (p != NULL)
        snprintf(p, a + b + c + 1, "%s%s%s", before, arg, after);
    *error = p;
}

TFX_API tfx_host *tfx_host_new(void)
{
    tfx_host *h = calloc(1, sizeof(*h));

    if (h != NULL)
        h->root_fd = -1;
    return h;
}

static void drop_fs(tfx_host *h)
{
    if (h->root_fd >= 0)
        close(h->root_fd);
    h->root_fd = -1;
    for (size_t i = 0; i < h->nfiles; i++) {
        free(h->files[i].path);
        free(h->files[i].data);
    }
    free(h->files);
    h->files = NULL;
    h->nfiles = 0;
    h->memory = false;
}

TFX_API void tfx_host_free(tfx_host *h)
{
    if (h == NULL)
        return;
    drop_fs(h);
    free(h->cwd);
    free(h->home);
    free(h->bytes);
    free(h);
}

/* A cleaned absolute copy of dir (malloc'd), or NULL. */
static char *clean_abs(const char *dir)
{
    size_t n = strlen(dir);
    char *out = malloc(n + 3);

    if (out != NULL)
        clean_into(dir, n, out);
    return out;
}

TFX_API int tfx_host_set_base_dir(tfx_host *h, const char *dir, char **error)
{
    int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    char *abs;

    if (fd < 0) {
        set_error(error, "cannot open the base directory ", dir, "");
        return -1;
    }
    abs = realpath(dir, NULL);
    if (abs == NULL) {
        close(fd);
        set_error(error, "cannot resolve the base directory ", dir, "");
        return -1;
    }
    drop_fs(h);
    h->root_fd = fd;
    free(h->cwd);
    h->cwd = abs;
    return 0;
}

static int compare_files(const void *a, const void *b)
{
    return strcmp(((const mem_file *)a)->path, ((const mem_file *)b)->path);
}

TFX_API int tfx_host_add_file(tfx_host *h, const char *path, const char *bytes, size_t n,
                              char **error)
{
    size_t np = strlen(path);
    char *clean = malloc(np + 3);
    unsigned char *data = malloc(n > 0 ? n : 1);
    mem_file *nf;

    if (clean == NULL || data == NULL) {
        free(clean);
        free(data);
        set_error(error, "", "out of memory", "");
        return -1;
    }
    clean_into(path, np, clean);
    if (clean[0] == '/' || strcmp(clean, ".") == 0
        || (clean[0] == '.' && clean[1] == '.' && (clean[2] == '\0' || clean[2] == '/'))) {
        set_error(error, "file path ", path, " must be relative and inside the root");
        free(clean);
        free(data);
        return -1;
    }
    if (h->root_fd >= 0)
        drop_fs(h);
    for (size_t i = 0; i < h->nfiles; i++) {
        const char *p = h->files[i].path;
        size_t a = strlen(p);
        size_t b = strlen(clean);
        size_t m = a < b ? a : b;

        if (strncmp(p, clean, m) == 0 && (a == b || (a < b ? clean[a] : p[b]) == '/')) {
            set_error(error, "file path ", path, " conflicts with another file");
            free(clean);
            free(data);
            return -1;
        }
    }
    nf = realloc(h->files, (h->nfiles + 1) * sizeof(*nf));
    if (nf == NULL) {
        free(clean);
        free(data);
        set_error(error, "", "out of memory", "");
        return -1;
    }
    if (n > 0)
        memcpy(data, bytes, n);
    h->files = nf;
    h->files[h->nfiles].path = clean;
    h->files[h->nfiles].data = data;
    h->files[h->nfiles].n = n;
    h->nfiles++;
    h->memory = true;
    qsort(h->files, h->nfiles, sizeof(*h->files), compare_files);
    return 0;
}

TFX_API void tfx_host_use_memory_files(tfx_host *h)
{
    if (h->root_fd >= 0)
        drop_fs(h);
    h->memory = true;
}

static int set_dir(char **slot, const char *dir, char **error)
{
    char *c;

    if (dir[0] != '/') {
        set_error(error, "directory ", dir, " must be absolute");
        return -1;
    }
    c = clean_abs(dir);
    if (c == NULL) {
        set_error(error, "", "out of memory", "");
        return -1;
    }
    free(*slot);
    *slot = c;
    return 0;
}

TFX_API int tfx_host_set_cwd(tfx_host *h, const char *dir, char **error)
{
    return set_dir(&h->cwd, dir, error);
}

TFX_API int tfx_host_set_home(tfx_host *h, const char *dir, char **error)
{
    /* go-homedir joins whatever $HOME holds; only emptiness is refused */
    char *c;

    if (dir[0] == '\0') {
        set_error(error, "", "the home directory must not be empty", "");
        return -1;
    }
    c = strdup(dir);
    if (c == NULL) {
        set_error(error, "", "out of memory", "");
        return -1;
    }
    free(h->home);
    h->home = c;
    return 0;
}

TFX_API int tfx_host_set_now(tfx_host *h, const char *rfc3339, char **error)
{
    host_time t;

    if (!parse_rfc3339(rfc3339, &t)) {
        set_error(error, "", rfc3339, " is not an RFC 3339 time");
        return -1;
    }
    h->now = t;
    h->clock = CLOCK_FIXED;
    return 0;
}

TFX_API void tfx_host_use_system_clock(tfx_host *h)
{
    h->clock = CLOCK_SYSTEM;
}

TFX_API int tfx_host_set_plan_timestamp(tfx_host *h, const char *rfc3339, char **error)
{
    host_time t;

    if (!parse_rfc3339(rfc3339, &t)) {
        set_error(error, "", rfc3339, " is not an RFC 3339 time");
        return -1;
    }
    h->plan = t;
    return 0;
}

TFX_API int tfx_host_set_random_bytes(tfx_host *h, const unsigned char *bytes, size_t n)
{
    unsigned char *copy = malloc(n > 0 ? n : 1);

    if (copy == NULL)
        return -1;
    if (n > 0)
        memcpy(copy, bytes, n);
    free(h->bytes);
    h->bytes = copy;
    h->nbytes = n;
    h->used = 0;
    h->random = RANDOM_FIXED;
    return 0;
}

TFX_API void tfx_host_set_random_seed(tfx_host *h, unsigned long long seed)
{
    h->seed = seed;
    h->random = RANDOM_SEED;
}

TFX_API void tfx_host_use_system_random(tfx_host *h)
{
    h->random = RANDOM_SYSTEM;
}
