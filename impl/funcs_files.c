/* SPDX-License-Identifier: MPL-2.0 */
/*
 * funcs_files.c — the functions that need the outside world: file,
 * filebase64, fileexists, fileset, templatefile, filemd5, filesha1,
 * filesha256, filesha512, filebase64sha256, filebase64sha512, abspath,
 * dirname, basename, pathexpand, timestamp, plantimestamp, uuid, bcrypt.
 *
 * Terraform's own functions (its internal/lang/funcs/filesystem.go,
 * datetime.go, crypto.go), rules fn.file*, fn.path*, fn.time*, fn.uuid.*,
 * fn.bcrypt.salt of spec/functions-files.md.  Everything outside comes
 * from the host (host.h) attached to the evaluation's ctx.
 */
#include <nettle/base64.h>
#include <nettle/md5.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <stdint.h>
#include <string.h>

#include "common.h"
#include "funcs_crypto.h"
#include "funcs_internal.h"
#include "host.h"
#include "parse.h"
#include "text.h"

/* [host.missing] What a function says when the part of the host it needs
 * is not there. */
static const char no_fs[] = "the file system is not available: no host with a base directory "
                            "or files is attached to this evaluation";
static const char no_clock[] = "the clock is not available: no host with a clock is attached "
                               "to this evaluation";
static const char no_random[] = "the random source is not available: no host with a random "
                                "source is attached to this evaluation";
static const char no_home[] = "the home directory is not available: no host with a home "
                              "directory is attached to this evaluation";
static const char no_cwd[] = "the working directory is not available: no host with a working "
                             "directory is attached to this evaluation";

static const tfx_param path_param[] = {
    {.name = "path", .type = &tfx_type_str, .allow_unknown = true, .allow_marked = true},
};

static const tfx_param plain_path_param[] = {
    {.name = "path", .type = &tfx_type_str},
};

/* Terraform's redacted path in messages: Go's %q of it, or "(sensitive
 * value)" when marked sensitive. */
static const char *redacted(tfx_ctx *ctx, const char *s, const tfx_marks *m1,
                            const tfx_marks *m2)
{
    if ((m1 != NULL && tfx_marks_has(m1, "sensitive"))
        || (m2 != NULL && tfx_marks_has(m2, "sensitive")))
        return "(sensitive value)";
    return tfx_textbuf_quoted(ctx, s, strlen(s));
}

/* Go's text of a system error: strerror with a lower-case start. */
static const char *go_errno(tfx_ctx *ctx, const char *text)
{
    char *t = tfx_ctx_printf(ctx, "%s", text != NULL ? text : "input/output error");

    if (t[0] >= 'A' && t[0] <= 'Z')
        t[0] = (char)(t[0] - 'A' + 'a');
    return t;
}

/* [fn.path.join] Go's filepath.Join(a, b) of two path texts. */
static const char *join(tfx_ctx *ctx, const char *a, const char *b)
{
    if (a[0] == '\0')
        return tfx_host_clean(ctx, b, strlen(b));
    if (b[0] == '\0')
        return tfx_host_clean(ctx, a, strlen(a));
    {
        const char *j = tfx_ctx_printf(ctx, "%s/%s", a, b);

        return tfx_host_clean(ctx, j, strlen(j));
    }
}

/* [fn.pathexpand] go-homedir's Expand: "~" or "~/..." joined to the home
 * directory; "~user" refused; anything else unchanged.  NULL with *err
 * set on failure. */
static const char *expand(tfx_ctx *ctx, const char *p, const char **why)
{
    const char *home;

    *why = NULL;
    if (p[0] != '~')
        return p;
    if (p[1] != '\0' && p[1] != '/' && p[1] != '\\') {
        *why = "cannot expand user-specific home dir";
        return NULL;
    }
    home = tfx_host_home(ctx->host);
    if (home == NULL) {
        *why = no_home;
        return NULL;
    }
    return join(ctx, home, p + 1);
}

/* [fn.file.resolve] Terraform's resolvePath: "~" expanded, then cleaned
 * (a relative path joined to "."). */
static const char *resolve(tfx_ctx *ctx, const char *p, const char **why)
{
    const char *e = expand(ctx, p, why);

    if (e == NULL) {
        if (*why != no_home)
            *why = tfx_ctx_printf(ctx, "failed to expand ~: %s", *why);
        return NULL;
    }
    return tfx_host_clean(ctx, e, strlen(e));
}

/* [files.confine] The message of a path refused by the confinement. */
static const char *outside(tfx_ctx *ctx, const char *given, const tfx_marks *marks)
{
    return tfx_ctx_printf(ctx,
                          "%s leads outside the base directory; the file functions read only "
                          "files inside it",
                          redacted(ctx, given, marks, NULL));
}

/* [fn.file.read] Reads the file `given` as Terraform's readFileBytes does,
 * with its errors: NULL and *err set on failure. */
static const char *read_file(tfx_ctx *ctx, const char *given, const tfx_marks *marks, size_t *n,
                             tfx_func_error *err)
{
    const char *why;
    const char *p = resolve(ctx, given, &why);
    const char *data = NULL;
    tfx_host_kind k;

    if (p == NULL)
        return why == no_home ? tfx_fn_error(err, why) : tfx_fn_arg_error(err, 0, why);
    k = tfx_host_read(ctx, ctx->host, p, &data, n, &why);
    switch (k) {
    case TFX_HF_FILE:
        return data;
    case TFX_HF_NOFS:
        return tfx_fn_error(err, no_fs);
    case TFX_HF_OUTSIDE:
        return tfx_fn_arg_error(err, 0, outside(ctx, given, marks));
    case TFX_HF_NOENT:
        return tfx_fn_arg_error(
            err, 0,
            tfx_ctx_printf(ctx,
                           "no file exists at %s; this function works only with files that are "
                           "distributed as part of the configuration source code, so if this "
                           "file will be created by a resource in this configuration you must "
                           "instead obtain this result from an attribute of that resource",
                           redacted(ctx, given, marks, NULL)));
    case TFX_HF_NOTDIR:
        return tfx_fn_arg_error(err, 0, tfx_ctx_printf(ctx, "open %s: not a directory", p));
    case TFX_HF_LOOP:
        return tfx_fn_arg_error(
            err, 0, tfx_ctx_printf(ctx, "open %s: too many levels of symbolic links", p));
    case TFX_HF_DIR:
        return tfx_fn_arg_error(
            err, 0, tfx_ctx_printf(ctx, "failed to read file: read %s: is a directory", p));
    case TFX_HF_OTHER:
        return tfx_fn_arg_error(
            err, 0, tfx_ctx_printf(ctx, "failed to read file: read %s: not a regular file", p));
    default:
        return tfx_fn_arg_error(err, 0,
                                tfx_ctx_printf(ctx, "open %s: %s", p, go_errno(ctx, why)));
    }
}

/* ---------------------------------------------------------------------
 * file, filebase64 [fn.file.*]
 * ------------------------------------------------------------------ */

/* [fn.file] [fn.filebase64] The file's bytes as a string (UTF-8 required)
 * or in base64; the path's marks on the result; an unknown path gives an
 * unknown string with them. */
static const tfx_value *file_common(tfx_ctx *ctx, const tfx_value *arg, bool b64,
                                    tfx_func_error *err)
{
    const tfx_marks *marks = NULL;
    const tfx_value *path = tfx_value_unmark(ctx, arg, &marks);
    const char *data;
    size_t n = 0;

    if (tfx_value_is_unknown(path))
        return tfx_value_mark(ctx, tfx_value_unknown(ctx, &tfx_type_str), marks);
    data = read_file(ctx, path->as.string.s, marks, &n, err);
    if (data == NULL)
        return NULL;
    if (b64) {
        size_t nout = BASE64_ENCODE_RAW_LENGTH(n);
        char *out;

        tfx_ctx_check_string(ctx, nout);
        out = tfx_ctx_alloc(ctx, nout + 1);
        base64_encode_raw(out, n, (const uint8_t *)data);
        return tfx_value_mark(ctx, tfx_value_string_raw(ctx, out, nout), marks);
    }
    if (!tfx_text_valid((const unsigned char *)data, n))
        return tfx_fn_error(
            err, tfx_ctx_printf(ctx,
                                "contents of %s are not valid UTF-8; use the filebase64 function "
                                "to obtain the Base64 encoded contents or the other file "
                                "functions (e.g. filemd5, filesha256) to obtain file hashing "
                                "results instead",
                                redacted(ctx, path->as.string.s, marks, NULL)));
    return tfx_value_mark(ctx, tfx_value_string(ctx, data, n), marks);
}

static const tfx_value *file_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                  const tfx_value *const *args, size_t nargs,
                                  tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    return file_common(ctx, args[0], false, err);
}

static const tfx_value *filebase64_impl(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_type *ret, const tfx_value *const *args,
                                        size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    return file_common(ctx, args[0], true, err);
}

/* ---------------------------------------------------------------------
 * fileexists [fn.fileexists.*]
 * ------------------------------------------------------------------ */

/* [fn.fileexists] true for a regular file, false for nothing there; a
 * directory or another kind of file is an error naming the resolved
 * path (an argument error of a parameter fileexists does not have, so an
 * "Error in function call"); another failure is "failed to stat". */
static const tfx_value *fileexists_impl(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_type *ret, const tfx_value *const *args,
                                        size_t nargs, tfx_func_error *err)
{
    const tfx_marks *marks = NULL;
    const tfx_value *path = tfx_value_unmark(ctx, args[0], &marks);
    const char *why;
    const char *p;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (tfx_value_is_unknown(path))
        return tfx_value_mark(ctx, tfx_value_unknown(ctx, &tfx_type_bool), marks);
    p = resolve(ctx, path->as.string.s, &why);
    if (p == NULL)
        return tfx_fn_error(err, why);
    switch (tfx_host_stat(ctx, ctx->host, p, &why)) {
    case TFX_HF_FILE:
        return tfx_value_mark(ctx, tfx_value_bool(true), marks);
    case TFX_HF_NOENT:
        return tfx_value_mark(ctx, tfx_value_bool(false), marks);
    case TFX_HF_NOFS:
        return tfx_fn_error(err, no_fs);
    case TFX_HF_OUTSIDE:
        return tfx_fn_arg_error(err, 0, outside(ctx, path->as.string.s, marks));
    case TFX_HF_DIR:
        return tfx_fn_arg_error(err, 1, tfx_ctx_printf(ctx, "%s is a directory, not a file",
                                                       redacted(ctx, p, marks, NULL)));
    case TFX_HF_OTHER:
        return tfx_fn_arg_error(err, 1, tfx_ctx_printf(ctx, "%s is not a regular file",
                                                       redacted(ctx, p, marks, NULL)));
    default:
        return tfx_fn_error(err,
                            tfx_ctx_printf(ctx, "failed to stat %s", redacted(ctx, p, marks, NULL)));
    }
}

/* ---------------------------------------------------------------------
 * fileset [fn.fileset.*]: doublestar 2.0.4's Glob over the host
 * ------------------------------------------------------------------ */

/* A growable list of strings in the arena. */
typedef struct {
    tfx_ctx *ctx;
    const char **items;
    size_t n;
    size_t cap;
} strvec;

static void sv_push(strvec *v, const char *s)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 8;
        const char **items = tfx_ctx_alloc_array(v->ctx, cap, sizeof(*items));

        tfx_ctx_check_items(v->ctx, v->n + 1);
        if (v->n > 0)
            memcpy(items, v->items, v->n * sizeof(*items));
        v->items = items;
        v->cap = cap;
    }
    v->items[v->n++] = s;
}

/* One rune of s[i..n) as Go's utf8.DecodeRuneInString: *adj its width
 * (1 for a byte that is not UTF-8, whose rune is U+FFFD); 0 at the end
 * (rune U+FFFD, as Go's RuneError). */
static int32_t rune_at(const char *s, size_t n, size_t i, size_t *adj)
{
    int32_t cp;
    size_t w;

    if (i >= n) {
        *adj = 0;
        return 0xFFFD;
    }
    w = tfx_text_decode((const unsigned char *)s + i, n - i, &cp);
    if (w == 0 || cp < 0) {
        *adj = 1;
        return 0xFFFD;
    }
    *adj = w;
    return cp;
}

/* [fn.fileset.glob] The first index of r in s[0..n) not preceded by a
 * backslash (a preceded one is skipped and the search goes on after it). */
static long index_unescaped(const char *s, size_t n, char r)
{
    size_t base = 0;

    for (;;) {
        const char *hit = memchr(s + base, r, n - base);
        size_t end;

        if (hit == NULL)
            return -1;
        end = (size_t)(hit - s);
        if (r == '\\' || end == base || s[end - 1] != '\\')
            return (long)end;
        base = end + 1;
    }
}

/* The last '/' of s[0..n) not preceded by a backslash. */
static long last_slash_unescaped(const char *s, size_t n)
{
    for (;;) {
        long end = -1;

        for (size_t i = n; i > 0; i--)
            if (s[i - 1] == '/') {
                end = (long)(i - 1);
                break;
            }
        if (end > 0 && s[end - 1] == '\\') {
            n = (size_t)end - 1;
            continue;
        }
        return end;
    }
}

/* The alternatives of "{a,b}" after its '{' in s[0..n): their texts
 * (arena) and the index after the closing brace, or -1. */
static long split_alternatives(tfx_ctx *ctx, const char *s, size_t n, strvec *out)
{
    size_t idx = 0;
    size_t start = 0;
    int braces = 1;
    bool esc = false;

    out->ctx = ctx;
    out->n = 0;
    while (braces > 0) {
        size_t adj;
        int32_t r;

        if (idx >= n)
            return -1;
        r = rune_at(s, n, idx, &adj);
        if (esc)
            esc = false;
        else if (r == '\\')
            esc = true;
        else if (r == '{')
            braces++;
        else if (r == '}')
            braces--;
        else if (r == ',' && braces == 1) {
            sv_push(out, tfx_ctx_strndup(ctx, s + start, idx - start));
            start = idx + adj;
        }
        idx += adj;
    }
    sv_push(out, tfx_ctx_strndup(ctx, s + start, idx - 1 - start));
    return (long)idx;
}

/* isZeroLengthPattern: 1 yes, 0 no, -1 a bad pattern. */
static int zero_length(tfx_ctx *ctx, const char *p, size_t n)
{
    tfx_ctx_step(ctx);
    if (n == 0 || (n == 1 && p[0] == '*') || (n == 2 && p[0] == '*' && p[1] == '*'))
        return 1;
    if (p[0] == '{') {
        strvec opts = {0};
        long end = split_alternatives(ctx, p + 1, n - 1, &opts);
        int z;

        if (end < 0)
            return -1;
        z = zero_length(ctx, p + 1 + end, n - 1 - (size_t)end);
        if (z != 1)
            return z;
        for (size_t i = 0; i < opts.n; i++) {
            z = zero_length(ctx, opts.items[i], strlen(opts.items[i]));
            if (z != 0)
                return z;
        }
    }
    return 0;
}

/* The result of matching one path component (doublestar's matchComponent):
 * NO_MATCH, or a match with the patterns left for what follows (none:
 * the pattern is done). */
#define NO_MATCH (-1)
#define BAD_PATTERN (-2)

/* Is rune r in the class s[0..n) (after its '['), as doublestar reads
 * classes: 1 in, 0 out, -2 bad. */
static int class_match(const char *s, size_t n, int32_t r)
{
    int32_t runes[1024];
    size_t nr = 0;
    size_t i = 0;
    size_t ci = 0;
    bool matched = false;

    while (i < n) {
        size_t adj;

        if (nr == TFX_COUNTOF(runes))
            return BAD_PATTERN;
        runes[nr++] = rune_at(s, n, i, &adj);
        i += adj;
    }
    if (nr == 0)
        return BAD_PATTERN;
    if (runes[0] == '^')
        ci++;
    while (ci < nr) {
        int32_t lo = runes[ci++];
        int32_t hi;

        if (lo == '-')
            return BAD_PATTERN;
        if (lo == '\\') {
            if (ci >= nr)
                return BAD_PATTERN;
            lo = runes[ci++];
        }
        hi = lo;
        if (ci < nr && runes[ci] == '-') {
            if (++ci >= nr)
                return BAD_PATTERN;
            hi = runes[ci++];
            if (hi == '-')
                return BAD_PATTERN;
            if (hi == '\\') {
                if (ci >= nr)
                    return BAD_PATTERN;
                hi = runes[ci++];
            }
        }
        if (lo <= r && r <= hi)
            matched = true;
    }
    return matched == (runes[0] == '^') ? 0 : 1;
}

/* One step of doublestar's matchComponent (2.0.4 and 1.1.5 alike) at
 * p[*pi], an escape '\\' or a class '[' (pr, padj: the pattern's rune
 * there), against the name's rune sr: 1 matched (*pi past the step), 0
 * not, BAD_PATTERN. */
static int match_escape_or_class(const char *p, size_t np, size_t *pi, int32_t pr, size_t padj,
                                 int32_t sr)
{
    *pi += padj;
    if (pr == '\\') {
        pr = rune_at(p, np, *pi, &padj);
        if (pr == 0xFFFD)
            return BAD_PATTERN;
        if (pr != sr)
            return 0;
        *pi += padj;
        return 1;
    }
    {
        long end = index_unescaped(p + *pi, np - *pi, ']');
        int c;

        if (end < 0)
            return BAD_PATTERN;
        c = class_match(p + *pi, (size_t)end, sr);
        if (c == 1)
            *pi += (size_t)end + 1;
        return c;
    }
}

/* [fn.fileset.match] doublestar's matchComponent of pattern p[0..np)
 * against the name s[0..ns): NO_MATCH, BAD_PATTERN, or 0 with the
 * patterns left in *rest (rest->n == 0: matched to the end). */
static int match_component(tfx_ctx *ctx, const char *p, size_t np, const char *s, size_t ns,
                           strvec *rest)
{
    size_t pi = 0;
    size_t si = 0;

    tfx_ctx_step(ctx);
    rest->ctx = ctx;
    rest->n = 0;
    while (pi < np && si < ns) {
        size_t padj;
        size_t sadj;
        int32_t pr = rune_at(p, np, pi, &padj);
        int32_t sr = rune_at(s, ns, si, &sadj);

        if (pr == '/') {
            pi++;
            break;
        }
        if (pr == '\\' || pr == '[') {
            int c = match_escape_or_class(p, np, &pi, pr, padj, sr);

            if (c != 1)
                return c == 0 ? NO_MATCH : c;
            si += sadj;
        } else if (pr == '*') {
            pi += padj;
            if (pi >= np)
                return 0;
            pr = rune_at(p, np, pi, &padj);
            if (pr == '/') {
                sv_push(rest, tfx_ctx_strndup(ctx, p + pi + padj, np - pi - padj));
                return 0;
            }
            for (; si < ns; si += sadj) {
                int m = match_component(ctx, p + pi, np - pi, s + si, ns - si, rest);

                if (m != NO_MATCH)
                    return m;
                rune_at(s, ns, si, &sadj);
            }
            return NO_MATCH;
        } else if (pr == '{') {
            strvec opts = {0};
            long end;
            bool any = false;
            strvec all = {.ctx = ctx};

            pi += padj;
            end = split_alternatives(ctx, p + pi, np - pi, &opts);
            if (end < 0)
                return BAD_PATTERN;
            pi += (size_t)end;
            for (size_t i = 0; i < opts.n; i++) {
                const char *alt = tfx_ctx_printf(ctx, "%s%.*s", opts.items[i], (int)(np - pi),
                                                 p + pi);
                strvec sub = {0};
                int m = match_component(ctx, alt, strlen(alt), s + si, ns - si, &sub);

                if (m == BAD_PATTERN)
                    return m;
                if (m == 0) {
                    any = true;
                    for (size_t j = 0; j < sub.n; j++)
                        sv_push(&all, sub.items[j]);
                }
            }
            if (!any)
                return NO_MATCH;
            *rest = all;
            return 0;
        } else if (pr == '?' || pr == sr) {
            pi += padj;
            si += sadj;
        } else {
            return NO_MATCH;
        }
    }
    if (si >= ns) {
        long slash;
        int z;

        if (pi >= np)
            return 0;
        p += pi;
        np -= pi;
        slash = index_unescaped(p, np, '/');
        z = zero_length(ctx, p, slash >= 0 ? (size_t)slash : np);
        if (z < 0)
            return BAD_PATTERN;
        if (z == 1) {
            if (slash >= 0)
                sv_push(rest, tfx_ctx_strndup(ctx, p + slash + 1, np - (size_t)slash - 1));
            return 0;
        }
    }
    return NO_MATCH;
}

/* [fn.fileset.glob] doublestar's doGlob over the host's file system:
 * matches appended to *m; false on a bad pattern (its error is the last
 * the walk met, as doublestar keeps it). */
static bool do_glob(tfx_ctx *ctx, const char *basedir, const char *pat, strvec *m)
{
    size_t np = strlen(pat);
    long gi = -1;
    const char *why;
    tfx_host_kind k;
    const char **names;
    size_t count;
    long slash;
    bool last;
    bool ok = true;

    tfx_ctx_step(ctx);
    for (size_t i = 0; i < np; i++)
        if (strchr("*?[{\\", pat[i]) != NULL) {
            gi = (long)i;
            break;
        }
    if (gi > 0)
        gi = last_slash_unescaped(pat, (size_t)gi);
    else if (gi == -1)
        gi = last_slash_unescaped(pat, np);
    if (gi > 0) {
        basedir = join(ctx, basedir, tfx_ctx_strndup(ctx, pat, (size_t)gi));
        pat += gi + 1;
        np -= (size_t)gi + 1;
    }
    k = tfx_host_stat(ctx, ctx->host, basedir, &why);
    if (k != TFX_HF_FILE && k != TFX_HF_DIR && k != TFX_HF_OTHER)
        return true;
    if (np == 0) {
        sv_push(m, basedir);
        return true;
    }
    if (k != TFX_HF_DIR || !tfx_host_list(ctx, ctx->host, basedir, &names, &count))
        return true;
    slash = index_unescaped(pat, np, '/');
    last = slash < 0;
    if (last)
        slash = (long)np;
    if (slash == 2 && pat[0] == '*' && pat[1] == '*') {
        for (size_t i = 0; i < count; i++) {
            const char *child = join(ctx, basedir, names[i]);
            tfx_host_kind ck = tfx_host_stat(ctx, ctx->host, child, &why);

            if (ck == TFX_HF_DIR) {
                if (last)
                    sv_push(m, child);
                ok = do_glob(ctx, child, pat, m);
            } else if (ck == TFX_HF_FILE || ck == TFX_HF_OTHER) {
                if (last)
                    sv_push(m, child);
            }
        }
        if (last)
            return ok;
        pat += slash + 1;
        np -= (size_t)slash + 1;
    }
    for (size_t i = 0; i < count; i++) {
        strvec rest = {0};
        int r = match_component(ctx, pat, np, names[i], strlen(names[i]), &rest);

        if (r == BAD_PATTERN)
            return false;
        ok = true;
        if (r == 0) {
            const char *child = join(ctx, basedir, names[i]);

            if (rest.n == 0)
                sv_push(m, child);
            for (size_t j = 0; j < rest.n; j++)
                ok = do_glob(ctx, child, rest.items[j], m);
        }
    }
    return ok;
}

/* doublestar's Glob: leading alternatives expanded, then doGlob from "/"
 * or ".". */
static bool glob(tfx_ctx *ctx, const char *pat, strvec *m)
{
    size_t np = strlen(pat);

    if (np == 0)
        return true;
    if (pat[0] == '{') {
        strvec opts = {0};
        long end = split_alternatives(ctx, pat + 1, np - 1, &opts);

        if (end < 0)
            return false;
        for (size_t i = 0; i < opts.n; i++)
            if (!glob(ctx, tfx_ctx_printf(ctx, "%s%s", opts.items[i], pat + 1 + end), m))
                return false;
        return true;
    }
    if (pat[0] == '/' || pat[0] == '\\')
        return do_glob(ctx, "/", pat + 1, m);
    return do_glob(ctx, ".", pat, m);
}

/* ---- profile PN: doublestar 1.1.5 [fn.fileset.pn] ---- */

/* s[0..n) split at each r not right after a backslash (doublestar 1.1.5's
 * splitPathOnSeparator): a trailing r gives an empty last part. */
static void split_unescaped(tfx_ctx *ctx, const char *s, size_t n, char r, strvec *out)
{
    size_t start = 0;

    out->ctx = ctx;
    out->n = 0;
    for (;;) {
        long end = index_unescaped(s + start, n - start, r);

        if (end < 0) {
            sv_push(out, tfx_ctx_strndup(ctx, s + start, n - start));
            return;
        }
        sv_push(out, tfx_ctx_strndup(ctx, s + start, (size_t)end));
        start += (size_t)end + 1;
    }
}

/* [fn.fileset.pn] doublestar 1.1.5's matchComponent of the component
 * p[0..np) against the name s[0..ns): 1 a match, 0 none, BAD_PATTERN.
 * Alternatives end at the first '}' and do not nest; after a '*' the
 * rest is tried at steps of the width of the name's rune at the '*', and
 * an error there counts as no match. */
static int match_component_pn(tfx_ctx *ctx, const char *p, size_t np, const char *s, size_t ns)
{
    size_t pi = 0;
    size_t si = 0;

    tfx_ctx_step(ctx);
    if (np == 0)
        return ns == 0;
    if (ns == 0 && !(np == 1 && p[0] == '*'))
        return 0;
    while (pi < np && si < ns) {
        size_t padj;
        size_t sadj;
        int32_t pr = rune_at(p, np, pi, &padj);
        int32_t sr = rune_at(s, ns, si, &sadj);

        if (pr == '\\' || pr == '[') {
            int c = match_escape_or_class(p, np, &pi, pr, padj, sr);

            if (c != 1)
                return c;
            si += sadj;
        } else if (pr == '*') {
            pi += padj;
            if (pi >= np)
                return 1;
            for (; si < ns; si += sadj)
                if (match_component_pn(ctx, p + pi, np - pi, s + si, ns - si) == 1)
                    return 1;
            return 0;
        } else if (pr == '{') {
            strvec opts = {0};
            long end;

            pi += padj;
            end = index_unescaped(p + pi, np - pi, '}');
            if (end < 0)
                return BAD_PATTERN;
            split_unescaped(ctx, p + pi, (size_t)end, ',', &opts);
            pi += (size_t)end + 1;
            for (size_t i = 0; i < opts.n; i++) {
                const char *alt = tfx_ctx_printf(ctx, "%s%.*s", opts.items[i], (int)(np - pi),
                                                 p + pi);
                int m = match_component_pn(ctx, alt, strlen(alt), s + si, ns - si);

                if (m != 0)
                    return m;
            }
            return 0;
        } else if (pr == '?' || pr == sr) {
            pi += padj;
            si += sadj;
        } else {
            return 0;
        }
    }
    if (pi >= np && si >= ns)
        return 1;
    return si >= ns && ((np - pi == 1 && p[pi] == '*') || (np - pi == 2 && p[pi] == '*' && p[pi + 1] == '*'));
}

/* [fn.fileset.pn] doublestar 1.1.5's doGlob of the components c[0..nc)
 * from basedir: matches appended to *m; false on a bad pattern, which is
 * the error of the last step of the walk that could set it (a directory's
 * entries are taken in byte order). */
static bool do_glob_pn(tfx_ctx *ctx, const char *basedir, const char *const *c, size_t nc,
                       strvec *m)
{
    size_t pi = 0;
    const char *why;
    tfx_host_kind k;
    const char **names;
    size_t count;
    bool last;
    bool ok = true;

    tfx_ctx_step(ctx);
    while (pi < nc && strpbrk(c[pi], "*?[{\\") == NULL)
        pi++;
    for (size_t i = 0; i < pi; i++)
        basedir = join(ctx, basedir, c[i]);
    k = tfx_host_stat(ctx, ctx->host, basedir, &why);
    if (k != TFX_HF_FILE && k != TFX_HF_DIR && k != TFX_HF_OTHER)
        return true;
    if (pi >= nc) {
        sv_push(m, basedir);
        return true;
    }
    if (k != TFX_HF_DIR || !tfx_host_list(ctx, ctx->host, basedir, &names, &count))
        return true;
    last = pi + 1 >= nc;
    if (strcmp(c[pi], "**") == 0) {
        for (size_t i = 0; i < count; i++) {
            const char *child = join(ctx, basedir, names[i]);
            tfx_host_kind ck = tfx_host_stat(ctx, ctx->host, child, &why);

            if (ck == TFX_HF_DIR) {
                if (last)
                    sv_push(m, child);
                ok = do_glob_pn(ctx, child, c + pi, nc - pi, m);
            } else if ((ck == TFX_HF_FILE || ck == TFX_HF_OTHER) && last) {
                sv_push(m, child);
            }
        }
        if (last)
            return ok;
        pi++;
        last = pi + 1 >= nc;
    }
    for (size_t i = 0; i < count; i++) {
        int r = match_component_pn(ctx, c[pi], strlen(c[pi]), names[i], strlen(names[i]));

        if (r == BAD_PATTERN)
            return false;
        ok = true;
        if (r == 1) {
            const char *child = join(ctx, basedir, names[i]);

            if (last)
                sv_push(m, child);
            else
                ok = do_glob_pn(ctx, child, c + pi + 1, nc - pi - 1, m);
        }
    }
    return ok;
}

/* [fn.fileset.pn] doublestar 1.1.5's Glob: the pattern split into
 * components at each unescaped '/' first, then walked from "/" (an
 * absolute pattern) or ".". */
static bool glob_pn(tfx_ctx *ctx, const char *pat, strvec *m)
{
    strvec c = {0};

    split_unescaped(ctx, pat, strlen(pat), '/', &c);
    if (c.items[0][0] == '\0')
        return do_glob_pn(ctx, "/", c.items + 1, c.n - 1, m);
    return do_glob_pn(ctx, ".", c.items, c.n, m);
}

/* Go's filepath.Rel(base, target) for cleaned paths of the same kind. */
static const char *rel_path(tfx_ctx *ctx, const char *base, const char *target)
{
    size_t nb = strlen(base);
    tfx_textbuf t;
    size_t i = 0;
    size_t common = 0;

    if (strcmp(base, ".") == 0)
        return target;
    if (strcmp(base, target) == 0)
        return ".";
    if (strncmp(target, base, nb) == 0 && (target[nb] == '/' || strcmp(base, "/") == 0))
        return target + nb + (strcmp(base, "/") == 0 ? 0 : 1);
    /* the common leading components, then ".." for each left in base */
    while (base[i] != '\0' && base[i] == target[i]) {
        if (base[i] == '/')
            common = i + 1;
        i++;
    }
    if ((base[i] == '\0' && target[i] == '/') || (base[i] == '/' && target[i] == '\0'))
        common = i + 1;
    tfx_textbuf_init(&t, ctx);
    for (size_t j = common; j < nb; j++) {
        if (j == common || base[j - 1] == '/') {
            if (t.nbytes > 0)
                tfx_textbuf_putc(&t, '/');
            tfx_textbuf_puts(&t, "..");
        }
    }
    if (common < strlen(target)) {
        if (t.nbytes > 0)
            tfx_textbuf_putc(&t, '/');
        tfx_textbuf_puts(&t, target + common);
    }
    return tfx_textbuf_text(&t);
}

static const tfx_param fileset_params[] = {
    {.name = "path", .type = &tfx_type_str, .allow_unknown = true, .allow_marked = true},
    {.name = "pattern", .type = &tfx_type_str, .allow_unknown = true, .allow_marked = true},
};

static const tfx_type set_of_string = {.kind = TFX_TYPE_SET, .elem = &tfx_type_str};

/* [fn.fileset] The regular files (links followed) doublestar's Glob finds
 * for the pattern joined to the path, relative to the path, as a set of
 * strings with both arguments' marks; at most the collection limit of
 * them [files.limit.items].  Entries whose links lead outside the base
 * directory are left out [files.confine.fileset]. */
static const tfx_value *fileset_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                     const tfx_value *const *args, size_t nargs,
                                     tfx_func_error *err)
{
    const tfx_marks *pm = NULL;
    const tfx_marks *qm = NULL;
    const tfx_value *path = tfx_value_unmark(ctx, args[0], &pm);
    const tfx_value *pattern = tfx_value_unmark(ctx, args[1], &qm);
    const tfx_marks *marks = tfx_marks_union(ctx, pm, qm);
    const char *dir;
    const char *full;
    strvec m = {.ctx = ctx};
    const tfx_value **items;
    size_t n = 0;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (tfx_value_is_unknown(path) || tfx_value_is_unknown(pattern))
        return tfx_value_mark(ctx, tfx_value_unknown(ctx, &set_of_string), marks);
    if (!tfx_host_has_fs(ctx->host))
        return tfx_fn_error(err, no_fs);
    dir = path->as.string.s;
    dir = dir[0] == '/' ? tfx_host_clean(ctx, dir, strlen(dir)) : join(ctx, ".", dir);
    full = join(ctx, dir, pattern->as.string.s);
    if (!(ctx->pn ? glob_pn(ctx, full, &m) : glob(ctx, full, &m)))
        return tfx_fn_error(err, tfx_ctx_printf(ctx, "failed to glob pattern %s: syntax error "
                                                     "in pattern",
                                                redacted(ctx, full, pm, qm)));
    items = tfx_ctx_alloc_array(ctx, m.n + 1, sizeof(const tfx_value *));
    for (size_t i = 0; i < m.n; i++) {
        const char *why;
        tfx_host_kind k = tfx_host_stat(ctx, ctx->host, m.items[i], &why);
        const char *rel;

        if (k == TFX_HF_NOENT || k == TFX_HF_NOTDIR || k == TFX_HF_LOOP || k == TFX_HF_ERROR)
            return tfx_fn_error(
                err, tfx_ctx_printf(ctx, "failed to stat %s: stat %s: %s",
                                    redacted(ctx, m.items[i], pm, qm), m.items[i],
                                    k == TFX_HF_NOENT ? "no such file or directory"
                                    : k == TFX_HF_NOTDIR ? "not a directory"
                                    : k == TFX_HF_LOOP ? "too many levels of symbolic links"
                                                       : go_errno(ctx, why)));
        if (k != TFX_HF_FILE)
            continue;
        rel = rel_path(ctx, dir, m.items[i]);
        items[n++] = tfx_value_string(ctx, rel, strlen(rel));
    }
    tfx_ctx_check_items(ctx, n);
    if (n == 0)
        return tfx_value_mark(ctx, tfx_value_set(ctx, &tfx_type_str, NULL, 0), marks);
    return tfx_value_mark(ctx, tfx_value_set(ctx, &tfx_type_str, items, n), marks);
}

/* ---------------------------------------------------------------------
 * templatefile [fn.templatefile.*]
 * ------------------------------------------------------------------ */

static const tfx_param templatefile_params[] = {
    {.name = "path", .type = &tfx_type_str, .allow_unknown = true, .allow_marked = true},
    {.name = "vars", .type = &tfx_type_dynamic, .allow_unknown = true, .allow_marked = true},
};

/* [fn.templatefile] Reads and renders the template: NULL with *err on
 * failure. */
static const tfx_value *templatefile_render(tfx_ctx *ctx, const tfx_value *path_arg,
                                            const tfx_value *vars_arg, tfx_func_error *err)
{
    const tfx_marks *pm = NULL;
    const tfx_marks *vm = NULL;
    const tfx_value *path = tfx_value_unmark(ctx, path_arg, &pm);
    const tfx_value *vars = tfx_value_unmark_deep(ctx, vars_arg, &vm);
    const char *data;
    size_t n = 0;
    tfx_diags diags;
    const tfx_node *tmpl;
    const tfx_value *v;
    tfx_ev ev;
    tfx_env builtins;

    data = read_file(ctx, path->as.string.s, pm, &n, err);
    if (data == NULL)
        return NULL;
    if (!tfx_text_valid((const unsigned char *)data, n))
        return tfx_fn_error(
            err, tfx_ctx_printf(ctx,
                                "contents of %s are not valid UTF-8; use the filebase64 function "
                                "to obtain the Base64 encoded contents or the other file "
                                "functions (e.g. filemd5, filesha256) to obtain file hashing "
                                "results instead",
                                redacted(ctx, path->as.string.s, pm, NULL)));
    memset(&ev, 0, sizeof(ev));
    ev.ctx = ctx;
    ev.filename = path->as.string.s;
    tfx_diags_init(&diags, ctx->arena);
    ev.diags = &diags;
    tmpl = tfx_parse_profile(ctx->arena, (const unsigned char *)data, n, TFX_LEX_TEMPLATE,
                             ctx->limits.max_depth, ctx->pn, &diags);
    if (tmpl == NULL)
        tfx_fn_nomem(ctx);
    if (tfx_diags_has_errors(&diags))
        return tfx_fn_error(err, tfx_template_diags_error(&ev, &diags, path->as.string.s));
    memset(&builtins, 0, sizeof(builtins));
    builtins.has_functions = true;
    /* [flavor.table] the evaluation's table: Terraform's or OpenTofu's
     * (with the assume* functions under PN [fn.assume.profile]) */
    tfx_func_table_for(ctx->opentofu, ctx->pn, &builtins.function, &builtins.function_name);
    v = tfx_template_render(&ev, &builtins, tmpl, vars, path->as.string.s, true, err);
    if (v == NULL)
        return NULL;
    return tfx_value_mark(ctx, tfx_value_mark(ctx, v, pm), vm);
}

static const tfx_type *templatefile_type(tfx_ctx *ctx, const tfx_function *fn,
                                         const tfx_value *const *args, size_t nargs,
                                         tfx_func_error *err)
{
    const tfx_value *v;

    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (tfx_value_is_unknown(args[0]) || tfx_value_is_unknown(args[1]))
        return &tfx_type_dynamic;
    v = templatefile_render(ctx, args[0], args[1], err);
    return v != NULL ? v->type : NULL;
}

/* [fn.templatefile] Terraform's templatefile(path, vars): the file read
 * as file() reads it, parsed as a template whose ranges name the path as
 * given, rendered with vars alone (the file functions allowed, the
 * template functions refused: [fn.templatefile.recursion]); the result
 * has the path's and all of vars' marks; unknown arguments give an
 * unknown result. */
static const tfx_value *templatefile_impl(tfx_ctx *ctx, const tfx_function *fn,
                                          const tfx_type *ret, const tfx_value *const *args,
                                          size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(fn);
    TFX_UNUSED(nargs);
    if (tfx_value_is_unknown(args[0]) || tfx_value_is_unknown(args[1])) {
        const tfx_marks *pm = NULL;
        const tfx_marks *vm = NULL;

        tfx_value_unmark(ctx, args[0], &pm);
        tfx_value_unmark_deep(ctx, args[1], &vm);
        return tfx_value_mark(ctx, tfx_value_unknown(ctx, ret), tfx_marks_union(ctx, pm, vm));
    }
    return templatefile_render(ctx, args[0], args[1], err);
}

/* ---------------------------------------------------------------------
 * File hashes [fn.filehash.*]
 * ------------------------------------------------------------------ */

typedef enum { FH_MD5, FH_SHA1, FH_SHA256, FH_SHA512 } fh_kind;

/* [fn.filehash] The digest of the file's bytes in hex or base64; the path
 * is a plain string; errors are Go's open and read errors of the resolved
 * path, as call errors. */
static const tfx_value *filehash(tfx_ctx *ctx, const tfx_value *arg, fh_kind kind, bool b64,
                                 tfx_func_error *err)
{
    const char *why;
    const char *p = resolve(ctx, arg->as.string.s, &why);
    const char *data = NULL;
    size_t n = 0;
    uint8_t d[SHA512_DIGEST_SIZE];
    size_t nd;
    char *out;
    size_t nout;

    if (p == NULL)
        return tfx_fn_error(err, why);
    switch (tfx_host_read(ctx, ctx->host, p, &data, &n, &why)) {
    case TFX_HF_FILE:
        break;
    case TFX_HF_NOFS:
        return tfx_fn_error(err, no_fs);
    case TFX_HF_OUTSIDE:
        return tfx_fn_arg_error(err, 0, outside(ctx, arg->as.string.s, NULL));
    case TFX_HF_NOENT:
        return tfx_fn_error(err, tfx_ctx_printf(ctx, "open %s: no such file or directory", p));
    case TFX_HF_NOTDIR:
        return tfx_fn_error(err, tfx_ctx_printf(ctx, "open %s: not a directory", p));
    case TFX_HF_LOOP:
        return tfx_fn_error(
            err, tfx_ctx_printf(ctx, "open %s: too many levels of symbolic links", p));
    case TFX_HF_DIR:
        return tfx_fn_error(err, tfx_ctx_printf(ctx, "read %s: is a directory", p));
    case TFX_HF_OTHER:
        return tfx_fn_error(err, tfx_ctx_printf(ctx, "read %s: not a regular file", p));
    default:
        return tfx_fn_error(err, tfx_ctx_printf(ctx, "open %s: %s", p, go_errno(ctx, why)));
    }
    switch (kind) {
    case FH_MD5: {
        struct md5_ctx c;

        md5_init(&c);
        md5_update(&c, n, (const uint8_t *)data);
        md5_digest(&c, MD5_DIGEST_SIZE, d);
        nd = MD5_DIGEST_SIZE;
        break;
    }
    case FH_SHA1: {
        struct sha1_ctx c;

        sha1_init(&c);
        sha1_update(&c, n, (const uint8_t *)data);
        sha1_digest(&c, SHA1_DIGEST_SIZE, d);
        nd = SHA1_DIGEST_SIZE;
        break;
    }
    case FH_SHA256: {
        struct sha256_ctx c;

        sha256_init(&c);
        sha256_update(&c, n, (const uint8_t *)data);
        sha256_digest(&c, SHA256_DIGEST_SIZE, d);
        nd = SHA256_DIGEST_SIZE;
        break;
    }
    default: {
        struct sha512_ctx c;

        sha512_init(&c);
        sha512_update(&c, n, (const uint8_t *)data);
        sha512_digest(&c, SHA512_DIGEST_SIZE, d);
        nd = SHA512_DIGEST_SIZE;
        break;
    }
    }
    if (b64) {
        nout = BASE64_ENCODE_RAW_LENGTH(nd);
        out = tfx_ctx_alloc(ctx, nout + 1);
        base64_encode_raw(out, nd, d);
    } else {
        static const char digits[] = "0123456789abcdef";

        nout = 2 * nd;
        out = tfx_ctx_alloc(ctx, nout + 1);
        for (size_t i = 0; i < nd; i++) {
            out[2 * i] = digits[d[i] >> 4];
            out[2 * i + 1] = digits[d[i] & 15];
        }
    }
    return tfx_value_string_raw(ctx, out, nout);
}

#define FILEHASH_IMPL(fname, kind, b64)                                                       \
    static const tfx_value *fname(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret, \
                                  const tfx_value *const *args, size_t nargs,                \
                                  tfx_func_error *err)                                       \
    {                                                                                        \
        TFX_UNUSED(fn);                                                                      \
        TFX_UNUSED(ret);                                                                     \
        TFX_UNUSED(nargs);                                                                   \
        return filehash(ctx, args[0], kind, b64, err);                                       \
    }

FILEHASH_IMPL(filemd5_impl, FH_MD5, false)
FILEHASH_IMPL(filesha1_impl, FH_SHA1, false)
FILEHASH_IMPL(filesha256_impl, FH_SHA256, false)
FILEHASH_IMPL(filesha512_impl, FH_SHA512, false)
FILEHASH_IMPL(filebase64sha256_impl, FH_SHA256, true)
FILEHASH_IMPL(filebase64sha512_impl, FH_SHA512, true)

/* ---------------------------------------------------------------------
 * Paths [fn.path.*]
 * ------------------------------------------------------------------ */

static const tfx_value *str_result(tfx_ctx *ctx, const char *s)
{
    return tfx_value_string(ctx, s, strlen(s));
}

/* [fn.path.nul] The cleaned path of p[0..n) (which may hold U+0000, kept
 * as Go keeps it), joined first to dir when dir is not NULL (Go's
 * filepath.Join: an empty side is left out). */
static const tfx_value *path_result(tfx_ctx *ctx, const char *dir, const char *p, size_t n)
{
    size_t nd = dir != NULL ? strlen(dir) : 0;
    size_t nout;
    const char *out;

    if (nd > 0 && n > 0) {
        char *j;

        tfx_ctx_check_string(ctx, nd + 1 + n);
        j = tfx_ctx_alloc(ctx, nd + 1 + n);
        memcpy(j, dir, nd + 1); /* its NUL becomes the '/' */
        j[nd] = '/';
        memcpy(j + nd + 1, p, n);
        p = j;
        n = nd + 1 + n;
    } else if (nd > 0) {
        p = dir;
        n = nd;
    }
    out = tfx_host_clean_n(ctx, p, n, &nout);
    return tfx_value_string(ctx, out, nout);
}

/* [fn.abspath] Go's filepath.Abs: an absolute path cleaned, a relative
 * one joined to the host's working directory. */
static const tfx_value *abspath_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                     const tfx_value *const *args, size_t nargs,
                                     tfx_func_error *err)
{
    const char *p = args[0]->as.string.s;
    const char *cwd;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (p[0] == '/')
        return path_result(ctx, NULL, p, args[0]->as.string.nbytes);
    cwd = tfx_host_cwd(ctx->host);
    if (cwd == NULL)
        return tfx_fn_error(err, no_cwd);
    return path_result(ctx, cwd, p, args[0]->as.string.nbytes);
}

/* [fn.dirname] Go's filepath.Dir. */
static const tfx_value *dirname_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                     const tfx_value *const *args, size_t nargs,
                                     tfx_func_error *err)
{
    const char *p = args[0]->as.string.s;
    size_t n = args[0]->as.string.nbytes;
    size_t i = n;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    while (i > 0 && p[i - 1] != '/')
        i--;
    return path_result(ctx, NULL, p, i);
}

/* [fn.basename] Go's filepath.Base. */
static const tfx_value *basename_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                      const tfx_value *const *args, size_t nargs,
                                      tfx_func_error *err)
{
    const char *p = args[0]->as.string.s;
    size_t n = args[0]->as.string.nbytes;
    size_t i;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    if (n == 0)
        return str_result(ctx, ".");
    while (n > 0 && p[n - 1] == '/')
        n--;
    if (n == 0)
        return str_result(ctx, "/");
    i = n;
    while (i > 0 && p[i - 1] != '/')
        i--;
    return tfx_value_string(ctx, p + i, n - i);
}

/* [fn.pathexpand] go-homedir's Expand with the host's home directory. */
static const tfx_value *pathexpand_impl(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_type *ret, const tfx_value *const *args,
                                        size_t nargs, tfx_func_error *err)
{
    const char *p = args[0]->as.string.s;
    size_t n = args[0]->as.string.nbytes;
    const char *home;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(nargs);
    if (n == 0 || p[0] != '~')
        return args[0];
    /* as expand(), over the string's bytes ([fn.path.nul]) */
    if (n > 1 && p[1] != '/' && p[1] != '\\')
        return tfx_fn_error(err, "cannot expand user-specific home dir");
    home = tfx_host_home(ctx->host);
    if (home == NULL)
        return tfx_fn_error(err, no_home);
    return path_result(ctx, home, p + 1, n - 1);
}

/* ---------------------------------------------------------------------
 * Time and randomness [fn.timestamp] [fn.plantimestamp] [fn.uuid]
 * [fn.bcrypt.salt]
 * ------------------------------------------------------------------ */

/* [fn.timestamp] The host's current time in UTC, RFC 3339, whole
 * seconds. */
static const tfx_value *timestamp_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                       const tfx_value *const *args, size_t nargs,
                                       tfx_func_error *err)
{
    const char *t;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(args);
    TFX_UNUSED(nargs);
    if (!tfx_host_now(ctx, ctx->host, &t))
        return tfx_fn_error(err, no_clock);
    return str_result(ctx, t);
}

/* [fn.plantimestamp] The host's plan time in its own offset; an unknown
 * string when there is none (as in `terraform validate`). */
static const tfx_value *plantimestamp_impl(tfx_ctx *ctx, const tfx_function *fn,
                                           const tfx_type *ret, const tfx_value *const *args,
                                           size_t nargs, tfx_func_error *err)
{
    const char *t;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(args);
    TFX_UNUSED(nargs);
    TFX_UNUSED(err);
    if (!tfx_host_plan_time(ctx, ctx->host, &t))
        return tfx_value_unknown(ctx, &tfx_type_str);
    return str_result(ctx, t);
}

/* The host's random bytes, or the error text. */
static const char *random_bytes(tfx_ctx *ctx, unsigned char *out, size_t n)
{
    switch (tfx_host_random(ctx->host, out, n)) {
    case 0:
        return NULL;
    case -2:
        return "failed to read random bytes: the host's random bytes are used up";
    case -3:
        return "failed to read random bytes: the system's random source failed";
    default:
        return no_random;
    }
}

/* [fn.uuid] hashicorp/go-uuid's GenerateUUID: 16 random bytes as
 * 8-4-4-4-12 lower-case hex, no version or variant bits. */
static const tfx_value *uuid_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                  const tfx_value *const *args, size_t nargs,
                                  tfx_func_error *err)
{
    unsigned char b[16];
    const char *why = random_bytes(ctx, b, sizeof(b));

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    TFX_UNUSED(args);
    TFX_UNUSED(nargs);
    if (why != NULL)
        return tfx_fn_error(err, why);
    return str_result(ctx, tfx_ctx_printf(ctx,
                                          "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
                                          "%02x%02x%02x%02x%02x%02x",
                                          b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8],
                                          b[9], b[10], b[11], b[12], b[13], b[14], b[15]));
}

static const tfx_param bcrypt_params[] = {
    {.name = "str", .type = &tfx_type_str},
};

static const tfx_param bcrypt_cost = {.name = "cost", .type = &tfx_type_number};

/* [fn.bcrypt.salt] Terraform's bcrypt(str[, cost]): the cost read as a Go
 * int (default 10), a third argument refused, then the hash of
 * tfx_crypto_bcrypt with 16 salt bytes from the host's random source,
 * read only when the password and cost are good (as x/crypto reads its
 * salt after its checks). */
static const tfx_value *bcrypt_impl(tfx_ctx *ctx, const tfx_function *fn, const tfx_type *ret,
                                    const tfx_value *const *args, size_t nargs,
                                    tfx_func_error *err)
{
    int64_t cost = 10;
    uint8_t salt[16] = {0};
    const char *why = NULL;
    const char *h;
    size_t n = args[0]->as.string.nbytes;

    TFX_UNUSED(fn);
    TFX_UNUSED(ret);
    if (nargs > 1 && !tfx_num_to_int64(args[1]->as.number, &cost))
        return tfx_fn_error(
            err, "value must be a whole number, between -9223372036854775808 and "
                 "9223372036854775807");
    if (nargs > 2)
        return tfx_fn_error(err, "bcrypt() takes no more than two arguments");
    if (n <= 72 && cost <= 31) {
        why = random_bytes(ctx, salt, sizeof(salt));
        if (why != NULL)
            return tfx_fn_error(err, why);
    }
    h = tfx_crypto_bcrypt(ctx, args[0]->as.string.s, n, cost, salt, &why);
    if (h == NULL)
        return tfx_fn_error(err, why);
    return str_result(ctx, h);
}

/* ---------------------------------------------------------------------
 * The table
 * ------------------------------------------------------------------ */

#define FILES_FN(var, fname, plist, impl_fn, rtype)                                    \
    static const tfx_function var = {.name = (fname),                                  \
                                     .params = (plist),                                \
                                     .nparams = TFX_COUNTOF(plist),                    \
                                     .ret_type = (rtype),                              \
                                     .impl = (impl_fn)}

FILES_FN(fn_abspath, "abspath", plain_path_param, abspath_impl, &tfx_type_str);
FILES_FN(fn_basename, "basename", plain_path_param, basename_impl, &tfx_type_str);
FILES_FN(fn_dirname, "dirname", plain_path_param, dirname_impl, &tfx_type_str);
FILES_FN(fn_file, "file", path_param, file_impl, &tfx_type_str);
FILES_FN(fn_filebase64, "filebase64", path_param, filebase64_impl, &tfx_type_str);
FILES_FN(fn_filebase64sha256, "filebase64sha256", plain_path_param, filebase64sha256_impl,
         &tfx_type_str);
FILES_FN(fn_filebase64sha512, "filebase64sha512", plain_path_param, filebase64sha512_impl,
         &tfx_type_str);
FILES_FN(fn_fileexists, "fileexists", path_param, fileexists_impl, &tfx_type_bool);
FILES_FN(fn_filemd5, "filemd5", plain_path_param, filemd5_impl, &tfx_type_str);
FILES_FN(fn_filesha1, "filesha1", plain_path_param, filesha1_impl, &tfx_type_str);
FILES_FN(fn_filesha256, "filesha256", plain_path_param, filesha256_impl, &tfx_type_str);
FILES_FN(fn_filesha512, "filesha512", plain_path_param, filesha512_impl, &tfx_type_str);
FILES_FN(fn_pathexpand, "pathexpand", plain_path_param, pathexpand_impl, &tfx_type_str);

static const tfx_function fn_fileset = {
    .name = "fileset",
    .params = fileset_params,
    .nparams = 2,
    .ret_type = &set_of_string,
    .impl = fileset_impl,
};

static const tfx_function fn_templatefile = {
    .name = "templatefile",
    .params = templatefile_params,
    .nparams = 2,
    .type = templatefile_type,
    .impl = templatefile_impl,
};

static const tfx_function fn_timestamp = {
    .name = "timestamp", .ret_type = &tfx_type_str, .impl = timestamp_impl};
static const tfx_function fn_plantimestamp = {
    .name = "plantimestamp", .ret_type = &tfx_type_str, .impl = plantimestamp_impl};
static const tfx_function fn_uuid = {.name = "uuid", .ret_type = &tfx_type_str, .impl = uuid_impl};
static const tfx_function fn_bcrypt = {
    .name = "bcrypt",
    .params = bcrypt_params,
    .nparams = 1,
    .varparam = &bcrypt_cost,
    .ret_type = &tfx_type_str,
    .impl = bcrypt_impl,
};

const tfx_builtin tfx_builtins_files[] = {
    {"abspath", &fn_abspath},
    {"basename", &fn_basename},
    {"bcrypt", &fn_bcrypt},
    {"dirname", &fn_dirname},
    {"file", &fn_file},
    {"filebase64", &fn_filebase64},
    {"filebase64sha256", &fn_filebase64sha256},
    {"filebase64sha512", &fn_filebase64sha512},
    {"fileexists", &fn_fileexists},
    {"filemd5", &fn_filemd5},
    {"fileset", &fn_fileset},
    {"filesha1", &fn_filesha1},
    {"filesha256", &fn_filesha256},
    {"filesha512", &fn_filesha512},
    {"pathexpand", &fn_pathexpand},
    {"plantimestamp", &fn_plantimestamp},
    {"templatefile", &fn_templatefile},
    {"timestamp", &fn_timestamp},
    {"uuid", &fn_uuid},
    {NULL, NULL},
};

/* ---------------------------------------------------------------------
 * Stand-ins inside templates [fn.templatefile.recursion]
 * [fn.templatestring.files]
 * ------------------------------------------------------------------ */

static const tfx_type *refuse_recursion(tfx_ctx *ctx, const tfx_function *fn,
                                        const tfx_value *const *args, size_t nargs,
                                        tfx_func_error *err)
{
    TFX_UNUSED(args);
    TFX_UNUSED(nargs);
    return tfx_fn_error(err, tfx_ctx_printf(ctx, "cannot recursively call %s from inside "
                                                 "another template function", fn->name));
}

static const tfx_type *refuse_fs(tfx_ctx *ctx, const tfx_function *fn,
                                 const tfx_value *const *args, size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(args);
    TFX_UNUSED(nargs);
    return tfx_fn_error(err, tfx_ctx_printf(ctx, "cannot use filesystem access functions like "
                                                 "%s in templatestring templates; consider "
                                                 "passing the function result as a template "
                                                 "variable instead", fn->name));
}

static const tfx_value *refuse_recursion_impl(tfx_ctx *ctx, const tfx_function *fn,
                                              const tfx_type *ret, const tfx_value *const *args,
                                              size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(ret);
    return (const tfx_value *)refuse_recursion(ctx, fn, args, nargs, err);
}

static const tfx_value *refuse_fs_impl(tfx_ctx *ctx, const tfx_function *fn,
                                       const tfx_type *ret, const tfx_value *const *args,
                                       size_t nargs, tfx_func_error *err)
{
    TFX_UNUSED(ret);
    return (const tfx_value *)refuse_fs(ctx, fn, args, nargs, err);
}

static const tfx_function templatefile_refused = {
    .name = "templatefile", .params = templatefile_params, .nparams = 2,
    .type = refuse_recursion, .impl = refuse_recursion_impl};

#define FS_REFUSED(var, fname, plist)                                              \
    static const tfx_function var = {.name = (fname),                              \
                                     .params = (plist),                            \
                                     .nparams = TFX_COUNTOF(plist),                \
                                     .type = refuse_fs,                            \
                                     .impl = refuse_fs_impl}

FS_REFUSED(file_refused, "file", path_param);
FS_REFUSED(fileexists_refused, "fileexists", path_param);
FS_REFUSED(fileset_refused, "fileset", fileset_params);
FS_REFUSED(filebase64_refused, "filebase64", path_param);
FS_REFUSED(filebase64sha256_refused, "filebase64sha256", plain_path_param);
FS_REFUSED(filebase64sha512_refused, "filebase64sha512", plain_path_param);
FS_REFUSED(filemd5_refused, "filemd5", plain_path_param);
FS_REFUSED(filesha1_refused, "filesha1", plain_path_param);
FS_REFUSED(filesha256_refused, "filesha256", plain_path_param);
FS_REFUSED(filesha512_refused, "filesha512", plain_path_param);

static const tfx_function *const fs_refused[] = {
    &file_refused,         &fileexists_refused,       &fileset_refused,
    &filebase64_refused,   &filebase64sha256_refused, &filebase64sha512_refused,
    &filemd5_refused,      &filesha1_refused,         &filesha256_refused,
    &filesha512_refused,
};

const tfx_function *tfx_files_refused(const char *name, size_t nbytes, bool in_templatestring)
{
    if (nbytes == strlen("templatefile") && memcmp(name, "templatefile", nbytes) == 0)
        return &templatefile_refused;
    if (!in_templatestring)
        return NULL;
    for (size_t i = 0; i < TFX_COUNTOF(fs_refused); i++)
        if (strlen(fs_refused[i]->name) == nbytes && memcmp(fs_refused[i]->name, name, nbytes) == 0)
            return fs_refused[i];
    return NULL;
}
