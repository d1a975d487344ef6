/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_host.c — unit tests of the host interface (host.c) and the
 * functions that use it (funcs_files.c), spec/functions-files.md: what the
 * conformance corpus cannot show — a real base directory with symbolic
 * links leading outside, a link swapped while paths are resolved, the
 * limits on bytes read and files listed, the host API's refusals, the
 * seeded random source, and the errors of missing host parts.
 */
#define _GNU_SOURCE 1
#include "tfexpr.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "host.h"
#include "testval.h"

/* Sets the host arg. */
static const char *set_host(tfx_context *ctx, void *arg)
{
    tfx_context_set_host(ctx, arg);
    return NULL;
}

/* The outcome of evaluating `text` with host h (NULL: none) and at most
 * `max_string` bytes per string, `max_items` items (0: defaults): the
 * rendered value or "SUMMARY: DETAIL" of the first error (eval_outcome). */
static const char *run_limits(tfx_host *h, const char *text, size_t max_string, size_t max_items)
{
    tfx_eval_limits limits;

    tfx_eval_limits_init(&limits);
    if (max_string > 0)
        limits.max_string_bytes = max_string;
    if (max_items > 0)
        limits.max_collection_items = max_items;
    return eval_outcome(NULL, text, TFX_PROFILE_DEFAULT, &limits, set_host, h);
}

static const char *run_host(tfx_host *h, const char *text)
{
    return run_limits(h, text, 0, 0);
}

static int contains(const char *s, const char *part)
{
    return strstr(s, part) != NULL;
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "w");
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
    }
}

static void link_at(const char *dir, const char *name, const char *target)
{
    char path[4096];

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    CHECK(symlink(target, path) == 0);
}

/* [host.missing] Every part missing says which. */
static void test_missing(void)
{
    tfx_host *empty = tfx_host_new();

    CHECK(contains(run_host(NULL, "file(\"a\")"), "the file system is not available"));
    CHECK(contains(run_host(NULL, "fileset(\".\", \"*\")"), "the file system is not available"));
    CHECK(contains(run_host(NULL, "filemd5(\"a\")"), "the file system is not available"));
    CHECK(contains(run_host(NULL, "templatefile(\"a\", {})"), "the file system is not available"));
    CHECK(contains(run_host(NULL, "timestamp()"),
                   "Error in function call: Call to function \"timestamp\" failed: the clock is "
                   "not available"));
    CHECK(contains(run_host(NULL, "uuid()"), "the random source is not available"));
    CHECK(contains(run_host(NULL, "bcrypt(\"x\")"), "the random source is not available"));
    CHECK(contains(run_host(NULL, "pathexpand(\"~/x\")"), "the home directory is not available"));
    CHECK(contains(run_host(NULL, "file(\"~/x\")"), "the home directory is not available"));
    CHECK(contains(run_host(NULL, "abspath(\"x\")"), "the working directory is not available"));
    CHECK_STR(run_host(NULL, "abspath(\"/a/../b\")"), "\"/b\"");
    CHECK_STR(run_host(NULL, "pathexpand(\"x/~\")"), "\"x/~\"");
    CHECK_STR(run_host(NULL, "plantimestamp()"), "(known after apply)");
    CHECK_STR(run_host(NULL, "basename(\"a/b.txt\")"), "\"b.txt\"");
    CHECK(contains(run_host(empty, "file(\"a\")"), "the file system is not available"));
    CHECK(contains(run_host(empty, "uuid()"), "the random source is not available"));
    tfx_host_free(empty);
}

/* [fn.fileset.pn] fileset under the default profile PN (doublestar
 * 1.1.5) on a memory host; each result as the PN reference gives it on
 * the same files (fileset("glob", ...) in cases/functions/files.json). */
static void test_fileset_pn(void)
{
    tfx_host *h = tfx_host_new();
    static const char *const files[] = {"a.txt", "b.txt", "c.md", "x/y.txt", "x/z/w.txt", "\xc3\xa9.txt"};

    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
        CHECK(tfx_host_add_file(h, files[i], "1", 1, NULL) == 0);
    /* alternatives end at the first '}': a}.*, {b}.*, c}.* */
    CHECK_STR(run_host(h, "fileset(\".\", \"{a,{b,c}}.*\")"), "toset([\n  \"b.txt\",\n])");
    /* split at '/' before alternatives: "{x" is left open */
    CHECK(contains(run_host(h, "fileset(\".\", \"{x/z,x}/*\")"), "syntax error in pattern"));
    /* an error after a '*' is no match */
    CHECK_STR(run_host(h, "fileset(\".\", \"*[\")"), "toset([])");
    CHECK_STR(run_host(h, "fileset(\".\", \"*\\\\\")"), "toset([])");
    CHECK(contains(run_host(h, "fileset(\".\", \"?\\\\\")"), "syntax error in pattern"));
    /* steps of the first character's width after a '*': not the e-acute name */
    CHECK_STR(run_host(h, "fileset(\".\", \"*?\")"),
              "toset([\n  \"a.txt\",\n  \"b.txt\",\n  \"c.md\",\n])");
    CHECK_STR(run_host(h, "sort(tolist(fileset(\".\", \"**/*.txt\")))"),
              "tolist([\n  \"a.txt\",\n  \"b.txt\",\n  \"x/y.txt\",\n  \"x/z/w.txt\",\n  \"\xc3\xa9.txt\",\n])");
    tfx_host_free(h);
}

/* [host.api] The setters' refusals. */
static void test_api(void)
{
    tfx_host *h = tfx_host_new();
    char *error = NULL;

    CHECK(tfx_host_add_file(h, "a/b.txt", "x", 1, NULL) == 0);
    CHECK(tfx_host_add_file(h, "a", "x", 1, &error) == -1);
    CHECK(error != NULL && contains(error, "conflicts"));
    tfx_free(error);
    error = NULL;
    CHECK(tfx_host_add_file(h, "a/b.txt/c", "x", 1, NULL) == -1);
    CHECK(tfx_host_add_file(h, "../x", "x", 1, NULL) == -1);
    CHECK(tfx_host_add_file(h, "/x", "x", 1, NULL) == -1);
    CHECK(tfx_host_add_file(h, ".", "x", 1, NULL) == -1);
    CHECK(tfx_host_add_file(h, "./c//d.txt", "", 0, NULL) == 0);
    CHECK(tfx_host_set_cwd(h, "relative", &error) == -1);
    tfx_free(error);
    error = NULL;
    CHECK(tfx_host_set_cwd(h, "/w//x/", NULL) == 0);
    CHECK_STR(run_host(h, "abspath(\"y\")"), "\"/w/x/y\"");
    CHECK_STR(run_host(h, "file(\"/w/x/c/d.txt\")"), "\"\"");
    CHECK_STR(run_host(h, "file(\"c/d.txt\")"), "\"\"");
    CHECK(contains(run_host(h, "file(\"/w/c/d.txt\")"), "leads outside the base directory"));
    CHECK_STR(run_host(h, "fileexists(\"a/b.txt\")"), "true");
    CHECK(contains(run_host(h, "fileexists(\"a\")"), "\"a\" is a directory, not a file"));
    CHECK_STR(run_host(h, "sort(tolist(fileset(\".\", \"**\")))"),
              "tolist([\n  \"a/b.txt\",\n  \"c/d.txt\",\n])");
    CHECK(tfx_host_set_now(h, "2024-02-30T00:00:00Z", &error) == -1);
    CHECK(error != NULL && contains(error, "not an RFC 3339 time"));
    tfx_free(error);
    error = NULL;
    CHECK(tfx_host_set_now(h, "2023-02-29T00:00:00Z", NULL) == -1);
    CHECK(tfx_host_set_now(h, "2024-02-29T00:00:00", NULL) == -1);
    CHECK(tfx_host_set_now(h, "2024-02-29T24:00:00Z", NULL) == -1);
    CHECK(tfx_host_set_now(h, "2024-02-29T00:00:00.Z", NULL) == -1);
    CHECK(tfx_host_set_now(h, "2024-02-29T00:00:00+1:00", NULL) == -1);
    CHECK(tfx_host_set_now(h, "2024-02-29T23:30:00.123-01:00", NULL) == 0);
    CHECK_STR(run_host(h, "timestamp()"), "\"2024-03-01T00:30:00Z\"");
    CHECK(tfx_host_set_plan_timestamp(h, "2024-02-29T23:30:00.9-01:00", NULL) == 0);
    CHECK_STR(run_host(h, "plantimestamp()"), "\"2024-02-29T23:30:00-01:00\"");
    CHECK(tfx_host_set_plan_timestamp(h, "1969-12-31T23:59:59+00:00", NULL) == 0);
    CHECK_STR(run_host(h, "plantimestamp()"), "\"1969-12-31T23:59:59Z\"");
    CHECK(tfx_host_set_home(h, "", NULL) == -1);
    CHECK(tfx_host_set_home(h, "/home/u/", NULL) == 0);
    CHECK_STR(run_host(h, "pathexpand(\"~/a/../b\")"), "\"/home/u/b\"");
    CHECK(contains(run_host(h, "pathexpand(\"~x\")"), "cannot expand user-specific home dir"));
    tfx_host_free(h);
}

/* [files.memory] In-memory paths are walked as a file system walks them:
 * a component longer than NAME_MAX is "file name too long" once the walk
 * reaches it (after a missing directory or a file it is not reached). */
static void test_memory_names(void)
{
    tfx_host *h = tfx_host_new();
    char name[NAME_MAX + 2];
    char text[NAME_MAX + 64];

    memset(name, 'x', sizeof(name) - 1);
    name[sizeof(name) - 1] = '\0';
    CHECK(tfx_host_add_file(h, "a/b.txt", "x", 1, NULL) == 0);
    CHECK(tfx_host_set_cwd(h, "/w", NULL) == 0);
    snprintf(text, sizeof(text), "fileexists(\"%s\")", name);
    CHECK(contains(run_host(h, text),
                   "Error in function call: Call to function \"fileexists\" failed: failed to stat"));
    snprintf(text, sizeof(text), "file(\"a/%s\")", name);
    CHECK(contains(run_host(h, text), "file name too long"));
    snprintf(text, sizeof(text), "filemd5(\"/w/a/%s/c\")", name);
    CHECK(contains(run_host(h, text), "file name too long"));
    snprintf(text, sizeof(text), "fileexists(\"nosuch/%s\")", name);
    CHECK_STR(run_host(h, text), "false");
    snprintf(text, sizeof(text), "file(\"a/b.txt/%s\")", name);
    CHECK(contains(run_host(h, text), "not a directory"));
    name[NAME_MAX] = '\0';
    snprintf(text, sizeof(text), "fileexists(\"a/%s\")", name);
    CHECK_STR(run_host(h, text), "false");
    tfx_host_free(h);
}

/* [host.random] Fixed bytes run out; a seed repeats; the system's differs. */
static void test_random(void)
{
    tfx_host *h = tfx_host_new();
    tfx_host *a = tfx_host_new();
    tfx_host *b = tfx_host_new();
    unsigned char bytes[20];
    char first[64];

    for (size_t i = 0; i < sizeof(bytes); i++)
        bytes[i] = (unsigned char)(i * 17);
    CHECK(tfx_host_set_random_bytes(h, bytes, sizeof(bytes)) == 0);
    CHECK_STR(run_host(h, "uuid()"), "\"00112233-4455-6677-8899-aabbccddeeff\"");
    CHECK(contains(run_host(h, "uuid()"), "the host's random bytes are used up"));
    /* a bcrypt whose checks fail reads no salt */
    CHECK(tfx_host_set_random_bytes(h, bytes, 16) == 0);
    CHECK(contains(run_host(h, "bcrypt(\"x\", 32)"), "cost 32 is outside allowed range (4,31)"));
    CHECK(contains(run_host(h, "bcrypt(\"x\", 1.5)"), "value must be a whole number"));
    CHECK_STR(run_host(h, "uuid()"), "\"00112233-4455-6677-8899-aabbccddeeff\"");
    tfx_host_set_random_seed(a, 42);
    tfx_host_set_random_seed(b, 42);
    snprintf(first, sizeof(first), "%s", run_host(a, "uuid()"));
    CHECK_STR(run_host(b, "uuid()"), first);
    CHECK(strcmp(run_host(a, "uuid()"), first) != 0);
    CHECK(strlen(run_host(a, "bcrypt(\"x\", 4)")) == 62);
    CHECK(contains(run_host(a, "bcrypt(\"x\", 4)"), "\"$2a$04$"));
    tfx_host_use_system_random(b);
    CHECK(strlen(run_host(b, "uuid()")) == 38);
    tfx_host_free(h);
    tfx_host_free(a);
    tfx_host_free(b);
}

/* A scratch tree: ROOT/base (the base directory) and ROOT/outside. */
static char root[256];
static char base[512];
static char outside[512];

static void make_tree(void)
{
    char path[1024];

    snprintf(root, sizeof(root), "/tmp/tfx-host-XXXXXX");
    CHECK(mkdtemp(root) != NULL);
    snprintf(base, sizeof(base), "%s/base", root);
    snprintf(outside, sizeof(outside), "%s/outside", root);
    CHECK(mkdir(base, 0755) == 0);
    CHECK(mkdir(outside, 0755) == 0);
    snprintf(path, sizeof(path), "%s/sub", base);
    CHECK(mkdir(path, 0755) == 0);
    snprintf(path, sizeof(path), "%s/sub/deep", base);
    CHECK(mkdir(path, 0755) == 0);
    write_file(base, "a.txt", "inside");
    write_file(base, "sub/b.txt", "bee");
    write_file(base, "sub/deep/c.txt", "sea");
    write_file(outside, "secret.txt", "SECRET");
    link_at(base, "ok", "sub/b.txt");
    link_at(base, "dirlink", "sub");
    link_at(base, "esc", "../outside/secret.txt");
    link_at(base, "escdir", "../outside");
    link_at(base, "abs", outside);
    link_at(base, "loop", "loop");
    link_at(base, "sub/up", "..");
    link_at(base, "sub/up2", "../..");
    link_at(base, "sub/deep/back", "../../a.txt");
    link_at(base, "dangling", "nothing-here");
}

/* nftw's callback: removes one entry (links themselves, not their
 * targets; directories after their contents). */
static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    return type == FTW_DP ? rmdir(path) : unlink(path);
}

static void remove_tree(void)
{
    CHECK(nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0);
}

/* [files.confine] [files.confine.walk] [files.confine.links] */
static void test_confinement(void)
{
    tfx_host *h = tfx_host_new();
    char *error = NULL;
    char expr[2048];
    const char *got;

    CHECK(tfx_host_set_base_dir(h, "/nonexistent/dir", &error) == -1);
    tfx_free(error);
    error = NULL;
    CHECK(tfx_host_set_base_dir(h, base, &error) == 0);
    CHECK_STR(run_host(h, "file(\"a.txt\")"), "\"inside\"");
    CHECK_STR(run_host(h, "file(\"ok\")"), "\"bee\"");
    CHECK_STR(run_host(h, "file(\"dirlink/b.txt\")"), "\"bee\"");
    CHECK_STR(run_host(h, "file(\"sub/up/a.txt\")"), "\"inside\"");
    CHECK_STR(run_host(h, "file(\"sub/deep/back\")"), "\"inside\"");
    CHECK_STR(run_host(h, "file(\"sub/deep/../b.txt\")"), "\"bee\"");
    {
        char want[256];

        snprintf(want, sizeof(want), "%s", run_host(h, "md5(\"bee\")"));
        CHECK_STR(run_host(h, "filemd5(\"ok\")"), want);
        snprintf(want, sizeof(want), "%s", run_host(h, "sha512(\"sea\")"));
        CHECK_STR(run_host(h, "filesha512(\"dirlink/deep/c.txt\")"), want);
    }
    for (size_t i = 0; i < 9; i++) {
        static const char *const bad[] = {
            "file(\"esc\")",         "file(\"escdir/secret.txt\")", "file(\"abs/secret.txt\")",
            "file(\"../outside/secret.txt\")", "file(\"sub/up2/outside/secret.txt\")",
            "file(\"sub/../../outside/secret.txt\")", "fileexists(\"esc\")",
            "filesha256(\"escdir/secret.txt\")", "templatefile(\"esc\", {})",
        };

        got = run_host(h, bad[i]);
        CHECK(contains(got, "leads outside the base directory"));
        CHECK(!contains(got, "SECRET"));
    }
    snprintf(expr, sizeof(expr), "file(\"%s/secret.txt\")", outside);
    CHECK(contains(run_host(h, expr), "leads outside the base directory"));
    snprintf(expr, sizeof(expr), "file(\"%s/a.txt\")", base);
    CHECK_STR(run_host(h, expr), "\"inside\"");
    CHECK(contains(run_host(h, "file(\"loop\")"), "too many levels of symbolic links"));
    CHECK(contains(run_host(h, "file(\"dangling\")"), "no file exists at \"dangling\""));
    CHECK_STR(run_host(h, "fileexists(\"dangling\")"), "false");
    CHECK_STR(run_host(h, "fileexists(\"ok\")"), "true");
    CHECK(contains(run_host(h, "fileexists(\"dirlink\")"), "is a directory, not a file"));
    /* fileset: a dangling or looping link is a stat error, as in the
     * reference; inside only, links leading outside left out */
    CHECK(contains(run_host(h, "fileset(\".\", \"*\")"), "failed to stat"));
    got = run_host(h, "sort(tolist(fileset(\".\", \"{a,e,o}*\")))");
    CHECK_STR(got, "tolist([\n  \"a.txt\",\n  \"ok\",\n])");
    got = run_host(h, "length(fileset(\".\", \"**\"))");
    CHECK(!contains(got, "Error"));
    CHECK_STR(run_host(h, "fileset(\"..\", \"*\")"), "toset([])");
    CHECK_STR(run_host(h, "fileset(\"escdir\", \"*\")"), "toset([])");
    CHECK_STR(run_host(h, "fileset(\"sub\", \"up2/**\")"), "toset([])");
    CHECK_STR(run_host(h, "sort(tolist(fileset(\"sub\", \"*/*.txt\")))"),
              "tolist([\n  \"deep/c.txt\",\n  \"up/a.txt\",\n])");
    {
        char *real = realpath(base, NULL);

        snprintf(expr, sizeof(expr), "\"%s/x\"", real != NULL ? real : "?");
        CHECK_STR(run_host(h, "abspath(\"x\")"), expr);
        free(real);
    }
    tfx_host_free(h);
}

/* [files.limit.bytes] [files.limit.items] */
static void test_limits(void)
{
    tfx_host *h = tfx_host_new();
    char name[64];

    CHECK(tfx_host_set_base_dir(h, base, NULL) == 0);
    CHECK(contains(run_limits(h, "file(\"a.txt\")", 3, 0), "String length limit exceeded"));
    CHECK_STR(run_limits(h, "file(\"a.txt\")", 6, 0), "\"inside\"");
    CHECK(contains(run_limits(h, "filemd5(\"a.txt\")", 3, 0), "String length limit exceeded"));
    for (int i = 0; i < 30; i++) {
        snprintf(name, sizeof(name), "sub/deep/f%02d.txt", i);
        write_file(base, name, "x");
    }
    CHECK(contains(run_limits(h, "fileset(\"sub/deep\", \"*\")", 0, 10),
                   "Collection size limit exceeded"));
    CHECK_STR(run_limits(h, "length(fileset(\"sub/deep\", \"*\"))", 0, 100), "32");
    tfx_host_free(h);
}

/* [files.confine.walk] A race: while a child process keeps swapping
 * base/race between a real directory and a link to the outside, every
 * resolution of race/secret.txt either fails or finds the file inside,
 * never the one outside. */
static void test_race(void)
{
    char real_dir[1024];
    char link_path[1024];
    char spare[1024];
    char target[1024];
    int root_fd;
    struct stat outside_st;
    pid_t child;
    int escapes = 0;
    int found = 0;
    int tries;
    struct timespec start, now;

    snprintf(real_dir, sizeof(real_dir), "%s/race", base);
    snprintf(spare, sizeof(spare), "%s/race.dir", base);
    snprintf(link_path, sizeof(link_path), "%s/race.link", base);
    snprintf(target, sizeof(target), "%s/secret.txt", outside);
    CHECK(stat(target, &outside_st) == 0);
    CHECK(mkdir(spare, 0755) == 0);
    write_file(base, "race.dir/secret.txt", "inner");
    CHECK(symlink(outside, link_path) == 0);
    root_fd = open(base, O_PATH | O_DIRECTORY | O_CLOEXEC);
    CHECK(root_fd >= 0);
    child = fork();
    if (child == 0) {
        for (;;) {
            if (rename(spare, real_dir) != 0 || rename(real_dir, spare) != 0)
                _exit(1);
            if (rename(link_path, real_dir) != 0 || rename(real_dir, link_path) != 0)
                _exit(1);
        }
    }
    /* up to 20,000 resolutions; at most 3 s of them (on a loaded machine,
     * the renames and the lookups queue on the directory's lock) */
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (tries = 0; tries < 20000; tries++) {
        int fd = -1;
        tfx_host_kind k = tfx_host_resolve_at(root_fd, "race/secret.txt", &fd);

        if (fd >= 0) {
            struct stat st;

            if (fstat(fd, &st) == 0 && st.st_ino == outside_st.st_ino
                && st.st_dev == outside_st.st_dev)
                escapes++;
            close(fd);
        }
        if (k == TFX_HF_FILE)
            found++;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec >= 3)
            break;
    }
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    close(root_fd);
    CHECK(escapes == 0);
    CHECK(found > 0);
    printf("test_host: race: %d of %d resolutions found the inner file, %d escaped\n", found,
           tries, escapes);
}

/* [host.cli]-like: tfx_host_resolve_at on its own. */
static void test_resolve(void)
{
    int root_fd = open(base, O_PATH | O_DIRECTORY | O_CLOEXEC);
    int fd = -1;

    CHECK(root_fd >= 0);
    CHECK(tfx_host_resolve_at(root_fd, "a.txt", &fd) == TFX_HF_FILE);
    CHECK(fd >= 0);
    if (fd >= 0)
        close(fd);
    CHECK(tfx_host_resolve_at(root_fd, ".", NULL) == TFX_HF_DIR);
    CHECK(tfx_host_resolve_at(root_fd, "sub/up/sub/up/sub", NULL) == TFX_HF_DIR);
    CHECK(tfx_host_resolve_at(root_fd, "..", NULL) == TFX_HF_OUTSIDE);
    CHECK(tfx_host_resolve_at(root_fd, "sub/../..", NULL) == TFX_HF_OUTSIDE);
    CHECK(tfx_host_resolve_at(root_fd, "abs", NULL) == TFX_HF_OUTSIDE);
    CHECK(tfx_host_resolve_at(root_fd, "a.txt/x", NULL) == TFX_HF_NOTDIR);
    CHECK(tfx_host_resolve_at(root_fd, "nope", NULL) == TFX_HF_NOENT);
    CHECK(tfx_host_resolve_at(root_fd, "loop", NULL) == TFX_HF_LOOP);
    close(root_fd);
}

int main(void)
{
    test_missing();
    test_api();
    test_fileset_pn();
    test_memory_names();
    test_random();
    make_tree();
    test_confinement();
    test_resolve();
    test_limits();
    test_race();
    remove_tree();
    return check_report("test_host");
}
