/* SPDX-License-Identifier: MPL-2.0 */
/*
 * host.h — the host: what an evaluation may know of the outside world
 * (spec/functions-files.md, rules host.* and files.*).
 *
 * The library never touches the outside world by itself.  A caller that
 * wants the file functions, the clock, randomness, the home or working
 * directory builds a tfx_host (tfexpr.h) and attaches it to a context;
 * the functions of funcs_files.c reach it through tfx_ctx.host.  Each part
 * is optional: a function whose part is missing fails with a diagnostic
 * naming it [host.missing].
 *
 * The file system is either a real directory (every path resolved inside
 * it, component by component from a directory descriptor of the base with
 * O_NOFOLLOW, symbolic links read and followed by hand, never leaving it
 * [files.confine]) or files held in memory (directories implied).  Paths
 * given to these functions are relative to the file system's root, which
 * is the working directory; an absolute path is accepted only when it
 * names something under the working directory.
 */
#ifndef TFX_HOST_H
#define TFX_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctx.h"
#include "eval_internal.h"
#include "func.h"
#include "tfexpr.h"

/* What a path names [files.resolve]. */
typedef enum {
    TFX_HF_FILE,      /* a regular file (after following links) */
    TFX_HF_DIR,       /* a directory */
    TFX_HF_OTHER,     /* a device, pipe, socket */
    TFX_HF_NOENT,     /* nothing there */
    TFX_HF_NOTDIR,    /* a component before the last is not a directory */
    TFX_HF_OUTSIDE,   /* the path, or a link on it, leads outside the root */
    TFX_HF_LOOP,      /* too many symbolic links */
    TFX_HF_NOFS,      /* the host has no file system */
    TFX_HF_ERROR      /* another system error (errno text in the message) */
} tfx_host_kind;

/* Whether the host has a file system. */
bool tfx_host_has_fs(const tfx_host *h);

/* The lexical form Terraform resolves a path to (Go's filepath.Clean of
 * filepath.Join(".", path) for a relative path, Clean for an absolute
 * one), in the ctx's arena. */
const char *tfx_host_clean(tfx_ctx *ctx, const char *path, size_t n);
/* The same, with its length in *out_n: a path function's argument may
 * hold U+0000, which its result keeps. */
const char *tfx_host_clean_n(tfx_ctx *ctx, const char *path, size_t n, size_t *out_n);

/* What `path` (a cleaned path, tfx_host_clean) names.  *err_text gets a
 * system error text for TFX_HF_ERROR. */
tfx_host_kind tfx_host_stat(tfx_ctx *ctx, const tfx_host *h, const char *path,
                            const char **err_text);

/* Reads the regular file `path` (cleaned) into the ctx's arena, checking
 * the string limit [files.limit.bytes].  Returns TFX_HF_FILE with *data and
 * *n set, or what the path names instead. */
tfx_host_kind tfx_host_read(tfx_ctx *ctx, const tfx_host *h, const char *path, const char **data,
                            size_t *n, const char **err_text);

/* The names in directory `path` (cleaned), sorted by bytes, in the arena;
 * false when it cannot be listed. */
bool tfx_host_list(tfx_ctx *ctx, const tfx_host *h, const char *path, const char ***names,
                   size_t *count);

/* The working directory (absolute, cleaned), or NULL. */
const char *tfx_host_cwd(const tfx_host *h);

/* The home directory, or NULL. */
const char *tfx_host_home(const tfx_host *h);

/* The current time as Terraform's timestamp() writes it (UTC, whole
 * seconds); false when the host has no clock. */
bool tfx_host_now(tfx_ctx *ctx, const tfx_host *h, const char **text);

/* The plan time as RFC 3339 in its own offset; false when none. */
bool tfx_host_plan_time(tfx_ctx *ctx, const tfx_host *h, const char **text);

/* n random bytes into out; 0 on success, -1 when the host has no random
 * source, -2 when its fixed bytes are used up, -3 when the system source
 * failed. */
int tfx_host_random(tfx_host *h, unsigned char *out, size_t n);

/* --- For the fuzz harness and unit tests: the resolution alone --- */

/* Resolves cleaned `path` inside the directory open as root_fd (which
 * must stay open), as tfx_host_stat does for a real base directory; on
 * TFX_HF_FILE/DIR/OTHER with out_fd not NULL, *out_fd is an O_PATH
 * descriptor of what was found (the caller closes it). */
tfx_host_kind tfx_host_resolve_at(int root_fd, const char *path, int *out_fd);

/* --- Templates (funcs_closure.c), shared by templatestring and
 * templatefile --- */

/* [fn.templatestring.render] Renders tmpl with vars in a scope whose
 * functions are the caller's less the template functions (and less the
 * file functions unless allow_fs); ranges in messages name `file`. */
const tfx_value *tfx_template_render(tfx_ev *ev, const tfx_env *caller, const tfx_node *tmpl,
                                     const tfx_value *vars, const char *file, bool allow_fs,
                                     tfx_func_error *err);

/* HCL's Diagnostics.Error() of d, ranges in `file`. */
const char *tfx_template_diags_error(tfx_ev *ev, const tfx_diags *d, const char *file);

/* [fn.templatefile.recursion] [fn.templatestring.files] The stand-in for
 * function `name` inside a template: templatefile refused as recursion;
 * inside a templatestring template (in_templatestring) each file function
 * refused as filesystem access; NULL for any other name. */
const tfx_function *tfx_files_refused(const char *name, size_t nbytes, bool in_templatestring);

#endif /* TFX_HOST_H */
