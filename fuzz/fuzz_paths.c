/* SPDX-License-Identifier: MPL-2.0 */
/*
 * fuzz_paths.c — the base directory of the host (impl/host.c, public API
 * tfx_host_* of tfexpr.h, spec/functions-files.md [files.confine.*]): no
 * path leaves the root.
 *
 * At the first input the harness builds a scratch tree in a fresh
 * temporary directory T (removed at exit):
 *
 *   T/base/       the base directory: files, subdirectories, a FIFO, odd
 *                 names (glob syntax, "~", dots, spaces, UTF-8), symbolic
 *                 links of every kind (relative inside, climbing out of
 *                 the base and back in, leading outside, absolute inside
 *                 and outside, loops, chains, dangling, links to
 *                 directories inside and outside), two templates, and
 *                 scratch/, which each input may change;
 *   T/outside/    next to it: files holding a secret marker, a directory,
 *                 a link back into the base;
 *   T/base2/      a sibling whose name extends the base's ("/T/base2/x"
 *                 starts with "/T/base"), holding a secret too.
 *
 * Input: a selector byte (the function), a flags byte, then up to four
 * NUL-separated strings: the path, the pattern (fileset, or the path a
 * template reads), and two link targets.  The flags pick the home
 * directory (base, base/sub, outside, a relative name), the working
 * directory (base, base/sub, outside) and a change of base/scratch/ (its
 * entries are removed before every input): none, a link to the first
 * target, two links, a directory holding a link, or a link that is then
 * retargeted, replaced by a directory or by a file between two rounds of
 * checks.
 *
 * Each round checks, against a model of its own (lstat and readlink on
 * whole paths from the base's real path, the walk of [files.confine.walk]
 * and [files.confine.links] written over strings):
 *   - tfx_host_resolve_at on the raw path and on the cleaned one gives
 *     the model's kind; what it finds (its O_PATH descriptor) is the very
 *     object the model found (device and inode), and lies under the base
 *     (/proc/self/fd);
 *   - tfx_host_clean agrees with Go's Clean as the harness computes it;
 *     tfx_host_stat gives the model's kind, tfx_host_read the bytes of the
 *     model's file, tfx_host_list the entries of the model's directory;
 *   - through the public API (tfx_source_parse, a tfx_context with the
 *     host, tfx_evaluate) the selected function — file, filebase64,
 *     fileexists, fileset, templatefile (a template of the tree that reads
 *     the path, or the path as a template), the six file hashes, abspath,
 *     pathexpand, dirname and basename — never yields the secret marker,
 *     an outside file's name, base64 or hash (unless the input itself
 *     holds the text); every failure is a diagnostic of a known category
 *     with a summary; a file the model finds inside is read (file,
 *     templatefile: its bytes; fileexists: true; the hashes and
 *     filebase64: no error), a read that succeeds is of a file the model
 *     finds, fileexists is false only where the model finds nothing, and
 *     every name fileset lists is a regular file inside for the model.
 * The sanitizers check the rest (no crash, no leak); the harness checks
 * that no descriptor is left open on the tree (it counts them).
 */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "categories.h"
#include "ctx.h"
#include "fuzz_common.h"
#include "host.h"

#define MAX_LINKS 40      /* host.c's [files.resolve.links] */
#define MAX_STR 256       /* longest path, pattern or link target taken */
/* A failure report's detail, cut to the buffer if need be. */
#define DETAIL(...) \
    do { \
        if (snprintf(detail, sizeof(detail), __VA_ARGS__) < 0) \
            detail[0] = '\0'; \
    } while (0)

/* ---------------------------------------------------------------------
 * The tree
 * ------------------------------------------------------------------ */

static char top[PATH_MAX];      /* T */
static char base[PATH_MAX];     /* T/base, its real path */
static char outside_dir[PATH_MAX];
static char scratch[PATH_MAX];
static int root_fd = -1;
static tfx_host *host;
static tfx_source *sources[16];
static size_t nsources;

/* Texts no result may hold: the secrets, their base64 and hashes, the
 * names only outside directories have. */
static char *forbidden[32];
static size_t nforbidden;

static const char secret[] = "S3CRET-OUTSIDE-7c1e9a04b2";
static const char secret2[] = "S3CRET-SIBLING-f09d33ae71";

/* snprintf that fails the run instead of cutting a path short. */
static void fmt(char *out, size_t cap, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void fmt(char *out, size_t cap, const char *format, ...)
{
    va_list ap;
    int n;

    va_start(ap, format);
    n = vsnprintf(out, cap, format, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= cap)
        fuzz_fail("a path too long for the harness's buffers");
}

static void put_file(const char *dir, const char *name, const char *text, size_t n)
{
    char p[PATH_MAX];
    FILE *f;

    fmt(p, sizeof(p), "%s/%s", dir, name);
    f = fopen(p, "wb");
    if (f == NULL || fwrite(text, 1, n, f) != n || fclose(f) != 0)
        fuzz_fail("cannot write %s: %s", p, strerror(errno));
}

static void put_text(const char *dir, const char *name, const char *text)
{
    put_file(dir, name, text, strlen(text));
}

static void put_dir(const char *dir, const char *name)
{
    char p[PATH_MAX];

    fmt(p, sizeof(p), "%s/%s", dir, name);
    if (mkdir(p, 0755) != 0)
        fuzz_fail("cannot make %s: %s", p, strerror(errno));
}

static void put_link(const char *dir, const char *name, const char *target)
{
    char p[PATH_MAX];

    fmt(p, sizeof(p), "%s/%s", dir, name);
    if (symlink(target, p) != 0)
        fuzz_fail("cannot link %s: %s", p, strerror(errno));
}

static int remove_one(const char *p, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (type == FTW_DP)
        rmdir(p);
    else
        unlink(p);
    return 0;
}

static void remove_tree(void)
{
    if (top[0] != '\0')
        nftw(top, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    top[0] = '\0';
}

/* Everything the harness holds, freed at exit (LeakSanitizer). */
static void at_exit(void)
{
    for (size_t i = 0; i < nsources; i++)
        tfx_source_free(sources[i]);
    for (size_t i = 0; i < nforbidden; i++)
        free(forbidden[i]);
    tfx_host_free(host);
    if (root_fd >= 0)
        close(root_fd);
    remove_tree();
}

static void add_forbidden(const char *s)
{
    if (nforbidden == sizeof(forbidden) / sizeof(forbidden[0]))
        fuzz_fail("too many forbidden texts");
    forbidden[nforbidden] = strdup(s);
    if (forbidden[nforbidden] == NULL)
        fuzz_fail("strdup");
    nforbidden++;
}

/* The expressions of the selector byte; var.p is the path, var.q the
 * pattern or the second path. */
static const char *const exprs[] = {
    "file(var.p)",
    "filebase64(var.p)",
    "fileexists(var.p)",
    "fileset(var.p, var.q)",
    "templatefile(var.p, {p = var.q})",
    "templatefile(\"tmpl\", {p = var.p})",
    "filemd5(var.p)",
    "filesha1(var.p)",
    "filesha256(var.p)",
    "filesha512(var.p)",
    "filebase64sha256(var.p)",
    "filebase64sha512(var.p)",
    "abspath(var.p)",
    "pathexpand(var.p)",
    "\"${dirname(var.p)}|${basename(var.p)}\"",
    "templatefile(\"tmpl_set\", {p = var.p, q = var.q})",
};
#define NEXPRS (sizeof(exprs) / sizeof(exprs[0]))
enum {
    S_FILE, S_FILEBASE64, S_FILEEXISTS, S_FILESET, S_TEMPLATE_PATH, S_TEMPLATE_READS,
    S_MD5, S_SHA1, S_SHA256, S_SHA512, S_B64SHA256, S_B64SHA512, S_ABSPATH, S_PATHEXPAND,
    S_DIRBASE, S_TEMPLATE_SET
};

/* The value of expression `text` evaluated with a host whose base is
 * `dir` (the typed JSON's "v", malloc'd), for the forbidden list. */
static char *value_in(const char *dir, const char *text)
{
    tfx_host *h = tfx_host_new();
    tfx_context *c = tfx_context_new();
    tfx_source *src = tfx_source_parse("init.hcl", text, strlen(text), TFX_MODE_EXPRESSION, NULL);
    tfx_result *r;
    char *json;
    json_t *root;
    char *out;

    if (h == NULL || c == NULL || src == NULL || tfx_host_set_base_dir(h, dir, NULL) != 0)
        fuzz_fail("cannot set up a host on %s", dir);
    tfx_context_set_host(c, h);
    r = tfx_evaluate(src, c, NULL);
    json = r != NULL ? tfx_result_json(r) : NULL;
    if (json == NULL || tfx_result_has_errors(r))
        fuzz_fail("%s fails in %s", text, dir);
    root = json_loads(json, 0, NULL);
    if (root == NULL || !json_is_string(json_object_get(root, "v")))
        fuzz_fail("%s: unexpected result %s", text, json);
    out = strdup(json_string_value(json_object_get(root, "v")));
    json_decref(root);
    tfx_free(json);
    tfx_result_free(r);
    tfx_source_free(src);
    tfx_context_free(c);
    tfx_host_free(h);
    if (out == NULL)
        fuzz_fail("strdup");
    return out;
}

static void build_tree(void)
{
    const char *tmp = getenv("TMPDIR");
    char p[PATH_MAX];
    char *real;
    static const char *const hashes[] = {"file", "filebase64", "filemd5", "filesha1",
                                         "filesha256", "filesha512", "filebase64sha256",
                                         "filebase64sha512"};
    static const char binary[] = {'\xff', '\xfe', 'b', 'i', 'n', '\0', '\x80'};

    fmt(top, sizeof(top), "%s/tfx-fuzzpaths-XXXXXX",
             tmp != NULL && tmp[0] == '/' ? tmp : "/tmp");
    if (mkdtemp(top) == NULL)
        fuzz_fail("mkdtemp %s: %s", top, strerror(errno));
    real = realpath(top, NULL);
    if (real == NULL)
        fuzz_fail("realpath %s", top);
    fmt(top, sizeof(top), "%s", real);
    free(real);
    atexit(at_exit);
    fmt(base, sizeof(base), "%s/base", top);
    fmt(outside_dir, sizeof(outside_dir), "%s/outside", top);
    fmt(scratch, sizeof(scratch), "%s/scratch", base);

    /* outside */
    put_dir(top, "outside");
    put_text(outside_dir, "secret", secret);
    put_text(outside_dir, "a.txt", secret);  /* same name as a file of the base */
    put_dir(outside_dir, "odir");
    put_text(outside_dir, "odir/zz-outside-entry", secret);
    put_link(outside_dir, "link_back", "../base");
    put_dir(top, "base2");
    fmt(p, sizeof(p), "%s/base2", top);
    put_text(p, "secret", secret2);

    /* base */
    put_dir(top, "base");
    put_text(base, "a.txt", "inside:a.txt\n");
    put_file(base, "b.bin", binary, sizeof(binary));
    put_text(base, "empty", "");
    put_text(base, "tmpl", "${file(p)}");
    put_text(base, "tmpl_set", "%{for f in fileset(p, q)}${f}=${file(\"${p}/${f}\")};%{endfor}");
    put_text(base, "tmpl_bad", "${");
    put_text(base, "tmpl_out", "${file(\"../outside/secret\")}");
    put_text(base, "sp ace", "inside:sp ace\n");
    put_text(base, "star*", "inside:star*\n");
    put_text(base, "q?", "inside:q?\n");
    put_text(base, "br[a]", "inside:br[a]\n");
    put_text(base, "{x,y}", "inside:{x,y}\n");
    put_text(base, "back\\slash", "inside:back\\slash\n");
    put_text(base, "~tilde", "inside:~tilde\n");
    put_text(base, "..dots", "inside:..dots\n");
    put_text(base, "...", "inside:...\n");
    put_text(base, "\xc3\xa9t\xc3\xa9", "inside:\xc3\xa9t\xc3\xa9\n");
    put_text(base, "secret", "inside:secret\n");  /* the outside's name, inside */
    put_dir(base, "sub");
    put_text(base, "sub/c.txt", "inside:sub/c.txt\n");
    put_dir(base, "sub/deep");
    put_text(base, "sub/deep/d.txt", "inside:sub/deep/d.txt\n");
    put_dir(base, "sub/deep/deeper");
    put_text(base, "sub/deep/deeper/e.txt", "inside:sub/deep/deeper/e.txt\n");
    put_dir(base, "home");
    put_text(base, "home/h.txt", "inside:home/h.txt\n");
    put_dir(base, "scratch");
    fmt(p, sizeof(p), "%s/fifo", base);
    if (mkfifo(p, 0644) != 0)
        fuzz_fail("mkfifo %s: %s", p, strerror(errno));
    put_link(base, "l_file", "a.txt");
    put_link(base, "l_sub", "sub");
    put_link(base, "l_sub_slash", "sub/");
    put_link(base, "l_sub_file", "sub/c.txt");
    put_link(base, "l_file_slash", "a.txt/");
    put_link(base, "l_dot", ".");
    put_link(base, "l_chain1", "l_chain2");
    put_link(base, "l_chain2", "l_chain3");
    put_link(base, "l_chain3", "l_file");
    put_link(base, "l_loop", "l_loop");
    put_link(base, "l_loop_a", "l_loop_b");
    put_link(base, "l_loop_b", "l_loop_a");
    put_link(base, "l_dangling", "nothing-here");
    put_link(base, "l_dangling_dir", "nowhere/x");
    put_link(base, "l_through_file", "a.txt/x");
    put_link(base, "l_out", "../outside/secret");
    put_link(base, "l_out_dir", "../outside");
    put_link(base, "l_out_back", "../base/a.txt");
    put_link(base, "l_via_out", "l_out_dir/link_back/a.txt");
    put_link(base, "l_sibling", "../base2/secret");
    put_link(base, "l_deep_up", "sub/deep/../../a.txt");
    put_link(base, "l_fifo", "fifo");
    put_link(base, "l_dev", "/dev/null");
    put_link(base, "l_abs_root", "/");
    put_link(base, "l_abs_out", outside_dir);
    fmt(p, sizeof(p), "%s/a.txt", base);
    put_link(base, "l_abs_in", p);
    fmt(p, sizeof(p), "%s/sub", base);
    put_link(base, "l_abs_sub", p);
    put_link(base, "sub/l_up", "../a.txt");
    put_link(base, "sub/l_root", "..");
    put_link(base, "sub/l_out2", "../../outside/secret");
    put_link(base, "sub/l_sub_out", "../l_out_dir");
    put_link(base, "sub/deep/l_up2", "../../sub/c.txt");
    put_link(base, "sub/deep/l_cycle", "../..");
    put_link(base, "sub/deep/l_top", "../../..");
    put_link(base, "home/l_home_out", "../../outside");

    /* the texts no result may hold */
    add_forbidden(secret);
    add_forbidden(secret2);
    add_forbidden("zz-outside-entry");
    for (size_t i = 0; i < sizeof(hashes) / sizeof(hashes[0]); i++) {
        char text[64];

        fmt(text, sizeof(text), "%s(\"secret\")", hashes[i]);
        if (i > 0)
            forbidden[nforbidden++] = value_in(outside_dir, text);
        fmt(p, sizeof(p), "%s/base2", top);
        if (i > 0)
            forbidden[nforbidden++] = value_in(p, text);
    }

    /* the host of every input */
    host = tfx_host_new();
    if (host == NULL || tfx_host_set_base_dir(host, base, NULL) != 0)
        fuzz_fail("cannot set the base directory %s", base);
    tfx_host_set_now(host, "2024-01-02T03:04:05Z", NULL);
    root_fd = open(base, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (root_fd < 0)
        fuzz_fail("open %s", base);
    for (size_t i = 0; i < NEXPRS; i++) {
        tfx_limits lim = fuzz_limits();

        sources[i] = tfx_source_parse("paths.hcl", exprs[i], strlen(exprs[i]),
                                      TFX_MODE_EXPRESSION, &lim);
        if (sources[i] == NULL || tfx_source_has_errors(sources[i]))
            fuzz_fail("expression %s does not parse", exprs[i]);
        nsources++;
    }
}

/* Removes every entry of base/scratch (what the last input made). */
static int scratch_one(const char *p, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    if (ftw->level == 0)
        return 0;
    if (type == FTW_DP)
        rmdir(p);
    else
        unlink(p);
    return 0;
}

static void reset_scratch(void)
{
    nftw(scratch, scratch_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---------------------------------------------------------------------
 * The model: the walk of [files.confine.walk] over whole paths
 * ------------------------------------------------------------------ */

typedef struct {
    tfx_host_kind kind;
    bool known;             /* false: the model cannot tell (path too long) */
    struct stat st;         /* FILE, DIR, OTHER: what was found */
    char path[PATH_MAX];    /* FILE, DIR, OTHER: its physical path */
} model;

static void model_walk(const char *path, model *m)
{
    size_t qlen = strlen(path);
    char *queue = malloc(qlen + 1);
    size_t qpos = 0;
    int links = 0;
    size_t nbase = strlen(base);

    m->known = true;
    m->kind = TFX_HF_DIR;
    fmt(m->path, sizeof(m->path), "%s", base);
    if (queue == NULL)
        fuzz_fail("malloc");
    memcpy(queue, path, qlen + 1);
    for (;;) {
        size_t start;
        size_t len;
        size_t k;
        bool last;
        char next[PATH_MAX];
        struct stat st;

        while (qpos < qlen && queue[qpos] == '/')
            qpos++;
        if (qpos >= qlen)
            break;
        start = qpos;
        while (qpos < qlen && queue[qpos] != '/')
            qpos++;
        len = qpos - start;
        for (k = qpos; k < qlen && queue[k] == '/'; k++)
            ;
        last = k >= qlen;
        if (len == 1 && queue[start] == '.')
            continue;
        if (len == 2 && queue[start] == '.' && queue[start + 1] == '.') {
            if (strlen(m->path) == nbase) {
                m->kind = TFX_HF_OUTSIDE;
                goto done;
            }
            *strrchr(m->path, '/') = '\0';
            continue;
        }
        if (len > NAME_MAX) {
            m->kind = TFX_HF_ERROR;
            goto done;
        }
        if (strlen(m->path) + 1 + len >= sizeof(next)) {
            m->known = false;
            goto done;
        }
        fmt(next, sizeof(next), "%s/%.*s", m->path, (int)len, queue + start);
        if (lstat(next, &st) != 0) {
            m->kind = errno == ENOENT ? TFX_HF_NOENT
                      : errno == ENOTDIR ? TFX_HF_NOTDIR
                                         : TFX_HF_ERROR;
            goto done;
        }
        if (S_ISLNK(st.st_mode)) {
            char target[PATH_MAX];
            ssize_t tn = readlink(next, target, sizeof(target) - 1);
            size_t rest = qlen - qpos;
            char *nq;

            if (tn <= 0) {
                m->kind = TFX_HF_ERROR;
                goto done;
            }
            if (++links > MAX_LINKS) {
                m->kind = TFX_HF_LOOP;
                goto done;
            }
            if (target[0] == '/') {
                m->kind = TFX_HF_OUTSIDE;
                goto done;
            }
            nq = malloc((size_t)tn + rest + 2);
            if (nq == NULL)
                fuzz_fail("malloc");
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
            fmt(m->path, sizeof(m->path), "%s", next);
            continue;
        }
        if (!last) {
            m->kind = TFX_HF_NOTDIR;
            goto done;
        }
        fmt(m->path, sizeof(m->path), "%s", next);
        m->kind = S_ISREG(st.st_mode) ? TFX_HF_FILE : TFX_HF_OTHER;
        m->st = st;
        free(queue);
        return;
    }
    if (stat(m->path, &m->st) != 0)
        fuzz_fail("stat %s", m->path);
done:
    free(queue);
}

/* Go's filepath.Clean on Linux, written as a stack of components. */
static char *go_clean(const char *p)
{
    size_t n = strlen(p);
    bool rooted = p[0] == '/';
    char *out = malloc(n + 3);
    size_t w = 0;
    size_t keep = 0;   /* leading ".." of a relative path, never popped */
    size_t i = 0;

    if (out == NULL)
        fuzz_fail("malloc");
    while (i < n) {
        size_t s;
        size_t len;

        while (i < n && p[i] == '/')
            i++;
        s = i;
        while (i < n && p[i] != '/')
            i++;
        len = i - s;
        if (len == 0 || (len == 1 && p[s] == '.'))
            continue;
        if (len == 2 && p[s] == '.' && p[s + 1] == '.') {
            if (w > keep) {
                while (w > keep && out[w - 1] != '/')
                    w--;
                if (w > keep)
                    w--;
            } else if (!rooted) {
                if (w > 0)
                    out[w++] = '/';
                out[w++] = '.';
                out[w++] = '.';
                keep = w;
            }
            continue;
        }
        if (w > 0)
            out[w++] = '/';
        memcpy(out + w, p + s, len);
        w += len;
    }
    if (rooted) {
        memmove(out + 1, out, w);
        out[0] = '/';
        w++;
    } else if (w == 0) {
        out[w++] = '.';
    }
    out[w] = '\0';
    return out;
}

/* host.c's relative_to_root: the root-relative form of a cleaned path,
 * or NULL when it leads outside [files.confine.lexical]. */
static const char *root_relative(const char *cwd, const char *c)
{
    size_t nc = strlen(cwd);

    if (c[0] == '/') {
        if (strcmp(cwd, "/") == 0)
            return c[1] != '\0' ? c + 1 : ".";
        if (strncmp(c, cwd, nc) != 0)
            return NULL;
        if (c[nc] == '\0')
            return ".";
        return c[nc] == '/' ? c + nc + 1 : NULL;
    }
    if (c[0] == '.' && c[1] == '.' && (c[2] == '\0' || c[2] == '/'))
        return NULL;
    return c;
}

/* What a cleaned path names for the model. */
static void model_of(const char *cwd, const char *cleaned, model *m)
{
    const char *rel = root_relative(cwd, cleaned);

    if (rel == NULL) {
        m->known = true;
        m->kind = TFX_HF_OUTSIDE;
        return;
    }
    model_walk(rel, m);
}

/* The bytes of the model's file (malloc'd). */
static char *slurp(const char *path, size_t *n)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    size_t cap = 256;
    char *buf = malloc(cap + 1);

    *n = 0;
    if (fd < 0 || buf == NULL)
        fuzz_fail("cannot open %s: %s", path, strerror(errno));
    for (;;) {
        ssize_t r;

        if (*n == cap) {
            char *nb = realloc(buf, 2 * cap + 1);

            if (nb == NULL)
                fuzz_fail("realloc");
            buf = nb;
            cap *= 2;
        }
        r = read(fd, buf + *n, cap - *n);
        if (r < 0)
            fuzz_fail("read %s: %s", path, strerror(errno));
        if (r == 0)
            break;
        *n += (size_t)r;
    }
    close(fd);
    buf[*n] = '\0';
    return buf;
}

static const char *kind_name(tfx_host_kind k)
{
    static const char *const names[] = {"FILE",   "DIR",     "OTHER", "NOENT", "NOTDIR",
                                        "OUTSIDE", "LOOP",   "NOFS",  "ERROR"};

    return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

/* ---------------------------------------------------------------------
 * One input
 * ------------------------------------------------------------------ */

typedef struct {
    const char *p;        /* the path */
    const char *q;        /* the pattern or second path */
    const char *t1;       /* link targets */
    const char *t2;
    const char *cwd;
    const char *home;
    const uint8_t *data;  /* the whole input */
    size_t size;
} input;

static void fail_with(const input *in, const char *what, const char *detail)
{
    fuzz_print_bytes("path", in->p, strlen(in->p));
    fuzz_print_bytes("pattern", in->q, strlen(in->q));
    fuzz_print_bytes("target1", in->t1, strlen(in->t1));
    fuzz_print_bytes("target2", in->t2, strlen(in->t2));
    fprintf(stderr, "cwd %s, home %s, base %s\n", in->cwd, in->home, base);
    fuzz_fail("%s: %s", what, detail);
}

/* Whether the input itself holds 8 bytes of f in a row (a result may echo
 * the path or pattern as given). */
static bool input_holds(const input *in, const char *f)
{
    size_t nf = strlen(f);
    size_t w = nf < 8 ? nf : 8;

    for (size_t i = 0; i + w <= nf; i++)
        for (size_t j = 0; j + w <= in->size; j++)
            if (memcmp(in->data + j, f + i, w) == 0)
                return true;
    return false;
}

static void check_forbidden(const input *in, const char *text, const char *what)
{
    if (text == NULL)
        return;
    for (size_t i = 0; i < nforbidden; i++)
        if (strstr(text, forbidden[i]) != NULL && !input_holds(in, forbidden[i])) {
            fprintf(stderr, "%s: %s\n", what, text);
            fail_with(in, "a result holds what only the outside has", forbidden[i]);
        }
}

/* The walk alone: tfx_host_resolve_at against the model on `path`. */
static void check_resolve(const input *in, const char *path)
{
    model m;
    int fd = -1;
    tfx_host_kind k;
    char detail[PATH_MAX + 256];

    model_walk(path, &m);
    k = tfx_host_resolve_at(root_fd, path, &fd);
    if (m.known && k != m.kind) {
        DETAIL("tfx_host_resolve_at(\"%s\") is %s, the model says %s",
                 path, kind_name(k), kind_name(m.kind));
        fail_with(in, "resolution", detail);
    }
    if (fd >= 0) {
        char proc[64];
        char where[PATH_MAX];
        ssize_t n;
        struct stat st;
        size_t nb = strlen(base);

        if (k != TFX_HF_FILE && k != TFX_HF_DIR && k != TFX_HF_OTHER)
            fail_with(in, "resolution", "a descriptor for nothing found");
        fmt(proc, sizeof(proc), "/proc/self/fd/%d", fd);
        n = readlink(proc, where, sizeof(where) - 1);
        if (n < 0 || fstat(fd, &st) != 0)
            fail_with(in, "resolution", "the descriptor found cannot be read");
        where[n] = '\0';
        /* [files.confine] what was found is the base or under it */
        if (strncmp(where, base, nb) != 0 || (where[nb] != '\0' && where[nb] != '/')) {
            DETAIL("\"%s\" resolves to %s", path, where);
            fail_with(in, "ESCAPE", detail);
        }
        if (m.known && (st.st_dev != m.st.st_dev || st.st_ino != m.st.st_ino)) {
            DETAIL("\"%s\" resolves to %s, the model to %s", path,
                     where, m.path);
            fail_with(in, "resolution", detail);
        }
        close(fd);
    } else if (k == TFX_HF_FILE || k == TFX_HF_DIR || k == TFX_HF_OTHER) {
        fail_with(in, "resolution", "no descriptor for what was found");
    }
}

typedef struct {
    const input *in;
    const char *path;
} host_job;

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The host's operations on a path (tfx_host_clean, _stat, _read, _list)
 * against the model. */
static void host_work(tfx_ctx *ctx, void *arg)
{
    const host_job *job = arg;
    const input *in = job->in;
    const char *c = tfx_host_clean(ctx, job->path, strlen(job->path));
    char *mine = go_clean(job->path);
    const char *why = NULL;
    const char *data = NULL;
    size_t n = 0;
    model m;
    tfx_host_kind k;
    char detail[PATH_MAX + 256];

    if (strcmp(c, mine) != 0) {
        DETAIL("tfx_host_clean gives \"%s\", Go's Clean \"%s\"", c,
                 mine);
        free(mine);
        fail_with(in, "clean", detail);
    }
    free(mine);
    model_of(in->cwd, c, &m);
    k = tfx_host_stat(ctx, host, c, &why);
    if (m.known && k != m.kind) {
        DETAIL("tfx_host_stat(\"%s\") is %s, the model says %s", c,
                 kind_name(k), kind_name(m.kind));
        fail_with(in, "stat", detail);
    }
    k = tfx_host_read(ctx, host, c, &data, &n, &why);
    if (m.known && k != m.kind && !(m.kind == TFX_HF_OTHER && k == TFX_HF_ERROR)) {
        DETAIL("tfx_host_read(\"%s\") is %s, the model says %s", c,
                 kind_name(k), kind_name(m.kind));
        fail_with(in, "read", detail);
    }
    if (k == TFX_HF_FILE) {
        size_t en;
        char *expect;

        if (!m.known || m.kind != TFX_HF_FILE)
            fail_with(in, "read", "a file read where the model finds none");
        expect = slurp(m.path, &en);
        if (en != n || memcmp(expect, data, n) != 0) {
            free(expect);
            DETAIL("tfx_host_read(\"%s\") differs from %s", c, m.path);
            fail_with(in, "read", detail);
        }
        free(expect);
    }
    {
        const char **names;
        size_t count;
        bool ok = tfx_host_list(ctx, host, c, &names, &count);

        if (ok && (!m.known || m.kind != TFX_HF_DIR))
            fail_with(in, "list", "a directory listed where the model finds none");
        if (m.known && m.kind == TFX_HF_DIR) {
            DIR *d = opendir(m.path);
            char *mine_names[64];
            size_t nm = 0;
            const struct dirent *e;

            if (!ok)
                fail_with(in, "list", "the model's directory is not listed");
            if (d == NULL)
                fail_with(in, "list", "opendir");
            while ((e = readdir(d)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                    continue;
                if (nm == 64)
                    break;
                mine_names[nm] = strdup(e->d_name);
                if (mine_names[nm] == NULL)
                    fail_with(in, "list", "strdup");
                nm++;
            }
            closedir(d);
            qsort(mine_names, nm, sizeof(char *), compare_names);
            ok = nm == count;
            for (size_t i = 0; ok && i < nm; i++)
                ok = strcmp(mine_names[i], names[i]) == 0;
            for (size_t i = 0; i < nm; i++)
                free(mine_names[i]);
            if (!ok) {
                DETAIL("tfx_host_list(\"%s\") differs from %s", c,
                         m.path);
                fail_with(in, "list", detail);
            }
        }
    }
}

static void check_host(const input *in, const char *path)
{
    tfx_ctx_limits lim;
    tfx_ctx ctx;
    host_job job = {in, path};

    tfx_ctx_limits_init(&lim);
    lim.max_steps = 100000;
    lim.max_memory_bytes = 64u << 20;
    lim.max_string_bytes = 1u << 20;
    lim.max_collection_items = 10000;
    if (!tfx_ctx_init(&ctx, &lim))
        fuzz_fail("tfx_ctx_init");
    ctx.host = host;
    if (!tfx_ctx_try(&ctx, host_work, &job))
        fail_with(in, "the host's operations ran into a limit", ctx.fail_summary);
    tfx_ctx_free(&ctx);
}

/* [fn.pathexpand] "~" and "~/..." with the home directory; NULL for
 * "~user" (malloc'd). */
static char *expand(const char *p, const char *home)
{
    char *out;

    if (p[0] != '~')
        return strdup(p);
    if (p[1] != '\0' && p[1] != '/')
        return NULL;
    out = malloc(strlen(home) + strlen(p) + 2);
    if (out != NULL)
        sprintf(out, "%s/%s", home, p + 1);
    return out;
}

/* The model of what a file function reads at `p` (expanded, cleaned). */
static void model_path(const input *in, const char *p, model *m)
{
    char *e = expand(p, in->home);
    char *c;

    if (e == NULL) {
        m->known = true;
        m->kind = TFX_HF_ERROR;
        return;
    }
    c = go_clean(e);
    model_of(in->cwd, c, m);
    free(c);
    free(e);
}

/* Whether s[0..n) is valid UTF-8 with no NUL (file() refuses the rest). */
static bool plain_utf8(const char *s, size_t n)
{
    json_t *j = json_stringn(s, n);
    bool ok = j != NULL && memchr(s, '\0', n) == NULL;

    json_decref(j);
    return ok;
}

static void check_api(const input *in, unsigned sel)
{
    tfx_context *c;
    json_t *vars = json_object();
    json_t *jp = json_string(in->p);
    json_t *jq = json_string(in->q);
    char *vtext;
    char *error = NULL;
    tfx_eval_limits limits;
    tfx_result *r;
    bool errors = false;
    char *json;
    json_t *value = NULL;
    const json_t *v = NULL;
    model m;
    char *expect = NULL;
    size_t en = 0;

    m.known = false;
    m.kind = TFX_HF_ERROR;
    if (jp == NULL || jq == NULL) {  /* not UTF-8: not a string of the language */
        json_decref(jp);
        json_decref(jq);
        json_decref(vars);
        return;
    }
    json_object_set_new(vars, "p", jp);
    json_object_set_new(vars, "q", jq);
    vtext = json_dumps(vars, JSON_COMPACT);
    json_decref(vars);
    c = tfx_context_new();
    if (vtext == NULL || c == NULL || tfx_context_set_json(c, "var", vtext, strlen(vtext), &error) != 0)
        fail_with(in, "the variables do not load", error != NULL ? error : "out of memory");
    free(vtext);
    tfx_context_set_host(c, host);
    tfx_eval_limits_init(&limits);
    limits.max_steps = 20000;
    limits.max_depth = 64;
    limits.max_string_bytes = (size_t)1 << 20;
    limits.max_collection_items = 10000;
    limits.max_memory_bytes = FUZZ_MAX_MEMORY;
    r = tfx_evaluate(sources[sel], c, &limits);
    if (r == NULL)
        fuzz_fail("out of memory outside the library's budget");
    for (size_t i = 0; i < tfx_result_diagnostic_count(r); i++) {
        const tfx_diagnostic *d = tfx_result_diagnostic(r, i);

        if (d->phase != TFX_PHASE_EVAL || !fuzz_known_category(d->category) || d->summary == NULL
            || d->summary[0] == '\0')
            fail_with(in, "a malformed diagnostic", d->category != NULL ? d->category : "-");
        check_forbidden(in, d->summary, "summary");
        check_forbidden(in, d->detail, "detail");
        if (d->severity == TFX_SEV_ERROR)
            errors = true;
    }
    if (errors != (tfx_result_has_errors(r) != 0))
        fail_with(in, "has_errors", "disagrees with the diagnostics");
    json = errors ? NULL : tfx_result_json(r);
    if (!errors) {
        if (json == NULL)
            fail_with(in, "no value", exprs[sel]);
        check_forbidden(in, json, "value");
        value = json_loads(json, 0, NULL);
        v = json_object_get(value, "v");
        if (v == NULL)
            fail_with(in, "the value's JSON has no v", json);
    }

    /* what the model says of the path read */
    switch (sel) {
    case S_FILE: case S_FILEBASE64: case S_FILEEXISTS: case S_TEMPLATE_PATH:
    case S_TEMPLATE_READS: case S_MD5: case S_SHA1: case S_SHA256: case S_SHA512:
    case S_B64SHA256: case S_B64SHA512:
        model_path(in, in->p, &m);
        if (!m.known)
            break;
        if (m.kind == TFX_HF_FILE)
            expect = slurp(m.path, &en);
        if (!errors && sel != S_FILEEXISTS && m.kind != TFX_HF_FILE)
            fail_with(in, exprs[sel], "read where the model finds no file");
        if (m.kind != TFX_HF_FILE)
            break;
        if ((sel == S_FILE || sel == S_TEMPLATE_READS) && plain_utf8(expect, en)) {
            if (errors)
                fail_with(in, exprs[sel], "fails on a file the model finds inside");
            if (!json_is_string(v) || json_string_length(v) != en
                || memcmp(json_string_value(v), expect, en) != 0)
                fail_with(in, exprs[sel], "gives other bytes than the file's");
        }
        if (sel == S_FILEBASE64 || (sel >= S_MD5 && sel <= S_B64SHA512) || sel == S_FILEEXISTS) {
            if (errors)
                fail_with(in, exprs[sel], "fails on a file the model finds inside");
        }
        break;
    default:
        break;
    }
    if (sel == S_FILEEXISTS && !errors) {
        if (!json_is_boolean(v))
            fail_with(in, "fileexists", "not a bool");
        if (json_is_true(v) && m.known && m.kind != TFX_HF_FILE)
            fail_with(in, "fileexists", "true where the model finds no file");
        if (json_is_false(v) && m.known && m.kind != TFX_HF_NOENT)
            fail_with(in, "fileexists", "false where the model finds something");
    }
    if (sel == S_FILESET && !errors) {
        size_t i;
        const json_t *name;
        char *dir = in->p[0] == '/' ? go_clean(in->p) : NULL;

        if (dir == NULL) {
            char *j = malloc(strlen(in->p) + 3);

            if (j == NULL)
                fuzz_fail("malloc");
            sprintf(j, "./%s", in->p);
            dir = go_clean(j);
            free(j);
        }
        if (!json_is_array(v))
            fail_with(in, "fileset", "not a set");
        json_array_foreach(v, i, name) {
            /* each element is {"v": NAME} */
            const json_t *nv = json_object_get(name, "v");
            char *j;
            char *cj;
            model fm;

            if (!json_is_string(nv))
                fail_with(in, "fileset", "an element is not a known string");
            j = malloc(strlen(dir) + json_string_length(nv) + 2);
            if (j == NULL)
                fuzz_fail("malloc");
            sprintf(j, "%s/%s", dir, json_string_value(nv));
            cj = go_clean(j);
            model_of(in->cwd, cj, &fm);
            if (fm.known && fm.kind != TFX_HF_FILE) {
                fprintf(stderr, "%s: %s\n", cj, kind_name(fm.kind));
                fail_with(in, "fileset", "lists a name the model finds no file at");
            }
            free(cj);
            free(j);
        }
        free(dir);
    }
    free(expect);
    json_decref(value);
    tfx_free(json);
    tfx_result_free(r);
    tfx_context_free(c);
}

static void round_of_checks(const input *in, unsigned sel)
{
    char *e = expand(in->p, in->home);

    check_resolve(in, in->p);
    if (e != NULL) {
        char *c = go_clean(e);
        const char *rel = root_relative(in->cwd, c);

        if (rel != NULL)
            check_resolve(in, rel);
        check_host(in, e);
        free(c);
        free(e);
    }
    check_host(in, in->q);
    check_api(in, sel);
}

/* The next NUL-terminated string of the input, at most MAX_STR bytes. */
static const char *take(const uint8_t **d, size_t *n, char *buf)
{
    size_t k = 0;

    while (*n > 0 && **d != 0) {
        if (k < MAX_STR)
            buf[k++] = (char)**d;
        (*d)++;
        (*n)--;
    }
    if (*n > 0) {
        (*d)++;
        (*n)--;
    }
    buf[k] = '\0';
    return buf;
}

static void link_at(const char *name, const char *target)
{
    char p[PATH_MAX];

    if (target[0] == '\0')
        return;
    fmt(p, sizeof(p), "%s/%s", scratch, name);
    unlink(p);
    rmdir(p);
    if (symlink(target, p) != 0 && errno != ENOENT && errno != EEXIST)
        fuzz_fail("symlink %s: %s", p, strerror(errno));
}

/* Whether path is dir or lies under it. */
static bool is_under(const char *path, const char *dir)
{
    size_t n = strlen(dir);

    return n > 0 && strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/* The descriptors open on the scratch tree T, counted in /proc/self/fd.
 * Counting every descriptor is not enough: libFuzzer starts a symbolizer
 * (and keeps pipes to it) the first time it prints a new function, in the
 * middle of a run; a descriptor the library left open points into T. */
static size_t tree_fds(void)
{
    char real_top[PATH_MAX];
    const char *slash = strrchr(base, '/');
    DIR *d = opendir("/proc/self/fd");
    const struct dirent *e;
    size_t count = 0;

    if (d == NULL)
        fuzz_fail("opendir /proc/self/fd: %s", strerror(errno));
    /* base is T/base with T resolved: T's real path is base's parent */
    fmt(real_top, sizeof(real_top), "%.*s", (int)(slash != NULL ? slash - base : 0), base);
    while ((e = readdir(d)) != NULL) {
        char link[PATH_MAX];
        char target[PATH_MAX];
        ssize_t n;

        if (e->d_name[0] == '.')
            continue;
        fmt(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
        n = readlink(link, target, sizeof(target) - 1);
        if (n < 0)
            continue;
        target[n] = '\0';
        if (is_under(target, top) || is_under(target, real_top))
            count++;
    }
    closedir(d);
    return count;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char subdir[PATH_MAX];
    static char home_out[PATH_MAX];
    char bp[MAX_STR + 1], bq[MAX_STR + 1], b1[MAX_STR + 1], b2[MAX_STR + 1];
    const uint8_t *d = data;
    size_t n = size;
    unsigned sel;
    unsigned flags;
    input in;
    char p[PATH_MAX];

    if (host == NULL) {
        build_tree();
        fmt(subdir, sizeof(subdir), "%s/sub", base);
        fmt(home_out, sizeof(home_out), "%s", outside_dir);
    }
    if (size < 2)
        return 0;
    sel = data[0] % NEXPRS;
    flags = data[1];
    d += 2;
    n -= 2;
    in.p = take(&d, &n, bp);
    in.q = take(&d, &n, bq);
    in.t1 = take(&d, &n, b1);
    in.t2 = take(&d, &n, b2);
    in.data = data + 2;
    in.size = size - 2;
    {
        static const char *homes[4];
        static const char *cwds[4];

        homes[0] = base;
        homes[1] = subdir;
        homes[2] = home_out;
        homes[3] = "home";
        cwds[0] = base;
        cwds[1] = base;
        cwds[2] = subdir;
        cwds[3] = home_out;
        in.home = homes[flags & 3];
        in.cwd = cwds[(flags >> 2) & 3];
    }
    if (tfx_host_set_home(host, in.home, NULL) != 0 || tfx_host_set_cwd(host, in.cwd, NULL) != 0)
        fuzz_fail("cannot set the home or working directory");

    reset_scratch();
    switch ((flags >> 4) & 7) {
    case 1:
    case 4:
    case 5:
    case 6:
        link_at("m", in.t1);
        break;
    case 2:
        link_at("m", in.t1);
        link_at("n", in.t2);
        break;
    case 3:
        fmt(p, sizeof(p), "%s/d", scratch);
        mkdir(p, 0755);
        link_at("d/m", in.t1);
        break;
    default:
        break;
    }
    round_of_checks(&in, sel);
    /* a change between two rounds: what was checked must not stay
     * cached anywhere */
    switch ((flags >> 4) & 7) {
    case 4:
        link_at("m", in.t2);
        round_of_checks(&in, sel);
        break;
    case 5:
        fmt(p, sizeof(p), "%s/m", scratch);
        unlink(p);
        mkdir(p, 0755);
        put_text(p, "f", "inside:scratch/m/f\n");
        round_of_checks(&in, sel);
        break;
    case 6:
        fmt(p, sizeof(p), "%s/m", scratch);
        unlink(p);
        put_text(scratch, "m", "inside:scratch/m\n");
        round_of_checks(&in, sel);
        break;
    default:
        break;
    }
    /* the same host, back at its defaults */
    if (tfx_host_set_cwd(host, base, NULL) != 0)
        fuzz_fail("cannot set the working directory");
    /* no descriptor left open: as many on the tree as after the first
     * input (the host's own base directory) */
    {
        static size_t first = (size_t)-1;
        size_t now = tree_fds();

        if (first == (size_t)-1)
            first = now;
        if (now != first)
            fuzz_fail("a file descriptor was left open on the scratch tree (%zu open, were %zu)",
                      now, first);
    }
    return 0;
}
