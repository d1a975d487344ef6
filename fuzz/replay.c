/* SPDX-License-Identifier: MPL-2.0 */
/*
 * replay.c — a standalone main() for any one harness, without libFuzzer.
 *
 *     build/fuzz/replay/fuzz_lex FILE-OR-DIR...
 *
 * Calls LLVMFuzzerTestOneInput once on the bytes of every file named on
 * the command line, and of every file under every directory named
 * (recursively, in name order, skipping names that start with '.'), then
 * prints how many inputs it replayed.  Built with ASan and UBSan by
 * `make fuzz-replay`, with gcc or clang (utf8proc's fuzz_main.c, jansson's
 * standaloneengine.cc).  A harness that finds a broken property aborts,
 * so the first failing input ends the run, and its name is printed on
 * stderr (from the abort handler, or the sanitizers' death callback).
 * With REPLAY_VERBOSE set in the environment every name is printed
 * before its input runs.
 *
 * Exit status: 0 all inputs replayed, 1 an input could not be read,
 * 2 usage.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The sanitizers' hook for a function to run before they end the
 * process after a report. */
void __sanitizer_set_death_callback(void (*callback)(void));

/* Optional in a harness, as with libFuzzer; present only in sanitizer
 * builds. */
#if defined(__GNUC__) || defined(__clang__)
#pragma weak LLVMFuzzerInitialize
#pragma weak __sanitizer_set_death_callback
#endif

static const char *current;      /* the input being replayed */
static unsigned long replayed;
static int verbose;

/* Names the input being replayed on stderr; only async-signal-safe
 * calls, since it runs from a signal handler too. */
static void name_current(void)
{
    static const char msg[] = "replay: the input that failed: ";
    size_t n = current != NULL ? strlen(current) : 0;

    if (n == 0)
        return;
    if (write(2, msg, sizeof(msg) - 1) < 0 || write(2, current, n) < 0)
        return;
    if (write(2, "\n", 1) < 0)
        return;
}

static void on_abort(int sig)
{
    name_current();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Reads the whole file into a malloc'd buffer (never NULL on success, even
 * when empty). */
static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t cap = 0;
    size_t n = 0;

    if (f == NULL)
        return NULL;
    for (;;) {
        size_t got;

        if (n == cap) {
            size_t ncap = cap == 0 ? 4096 : cap * 2;
            uint8_t *p = realloc(buf, ncap);

            if (p == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = p;
            cap = ncap;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    /* an exact-size copy, so that ASan sees reads past the input */
    {
        uint8_t *exact = malloc(n > 0 ? n : 1);

        if (exact != NULL)
            memcpy(exact, buf, n);
        free(buf);
        *size = n;
        return exact;
    }
}

static int replay_file(const char *path)
{
    size_t size = 0;
    uint8_t *data = read_file(path, &size);

    if (data == NULL) {
        fprintf(stderr, "replay: cannot read %s: %s\n", path, strerror(errno));
        return 1;
    }
    if (verbose)
        fprintf(stderr, "replay: %s (%zu bytes)\n", path, size);
    current = path;
    LLVMFuzzerTestOneInput(data, size);
    current = NULL;
    free(data);
    replayed++;
    return 0;
}

static int skip_hidden(const struct dirent *e)
{
    return e->d_name[0] != '.';
}

static int replay_path(const char *path)
{
    struct stat st;
    struct dirent **names;
    int n;
    int i;
    int status = 0;

    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return 1;
    }
    if (!S_ISDIR(st.st_mode))
        return replay_file(path);
    n = scandir(path, &names, skip_hidden, alphasort);
    if (n < 0) {
        fprintf(stderr, "replay: cannot list %s: %s\n", path, strerror(errno));
        return 1;
    }
    for (i = 0; i < n; i++) {
        size_t len = strlen(path) + strlen(names[i]->d_name) + 2;
        char *child = malloc(len);

        if (child == NULL) {
            status = 1;
        } else {
            snprintf(child, len, "%s/%s", path, names[i]->d_name);
            if (replay_path(child) != 0)
                status = 1;
            free(child);
        }
        free(names[i]);
    }
    free(names);
    return status;
}

int main(int argc, char **argv)
{
    int status = 0;
    int i;

    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE-OR-DIR...\n", argv[0]);
        return 2;
    }
    verbose = getenv("REPLAY_VERBOSE") != NULL;
    signal(SIGABRT, on_abort);
    if (__sanitizer_set_death_callback != NULL)
        __sanitizer_set_death_callback(name_current);
    if (LLVMFuzzerInitialize != NULL)
        LLVMFuzzerInitialize(&argc, &argv);
    for (i = 1; i < argc; i++)
        if (replay_path(argv[i]) != 0)
            status = 1;
    printf("%s: replayed %lu inputs\n", argv[0], replayed);
    return status;
}
