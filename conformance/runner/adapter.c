/* SPDX-License-Identifier: MPL-2.0 */
/*
 * adapter.c — the adapter process and the JSON-lines protocol
 * (conformance/README.md, "The protocol").
 *
 * The adapter runs as `/bin/sh -c COMMAND` in a process group of its own,
 * with pipes for stdin, stdout and stderr.  Every exchange writes one
 * request line and reads one answer line under a deadline, with poll(2)
 * over all three pipes, so that neither side can block the other: stderr
 * is drained all along into a buffer that keeps the last
 * RN_STDERR_TAIL_NBYTES, and answer lines may be of any length.
 *
 * A crash, a timeout or a malformed answer is reported to the caller, who
 * kills the process group (rn_adapter_kill) and starts a new adapter.
 */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* An answer line longer than this is malformed (it bounds memory). */
#define MAX_LINE_NBYTES ((size_t)256 * 1024 * 1024)
/* How long a stopped adapter may take to exit. */
#define STOP_WAIT_MS RN_STOP_WAIT_MS
/* How long to wait for the exit status of an adapter that closed stdout. */
#define EXIT_WAIT_MS 1000
/* How long to wait for the last stderr output of a killed adapter. */
#define DRAIN_WAIT_MS 200

struct rn_adapter {
    char *command;
    char *profile;
    long timeout_ms;
    pid_t pid;        /* 0 when not running */
    bool reaped;      /* the process has been waited for */
    int status;       /* its wait status, once reaped */
    int to_child;     /* its stdin, or -1 */
    int from_child;   /* its stdout, or -1 */
    int err_child;    /* its stderr, or -1 */
    rn_buf in;        /* bytes read from stdout, not yet a whole line */
    size_t scanned;   /* in.data[0..scanned) holds no newline */
    rn_buf err;       /* the tail of stderr */
    json_t *hello;    /* the latest hello answer */
    /* the exchange under way (begin_exchange) */
    rn_buf out;       /* the request line */
    size_t written;   /* how much of it the adapter has taken */
    long long deadline; /* rn_now_ms() by which the answer must have come */
    long long seq;    /* the run request's seq, or -1 for hello */
    bool busy;        /* an exchange is under way */
    size_t nstarted;  /* processes started, restarts included */
};

typedef enum xchg {
    XCHG_LINE,
    XCHG_EOF,      /* stdout closed */
    XCHG_NOREAD,   /* stdin closed: the adapter stopped reading */
    XCHG_TIMEOUT,
    XCHG_TOO_LONG,
    XCHG_EARLY,    /* an answer came before the request was written */
    XCHG_PENDING   /* no answer yet: poll and go on */
} xchg;

long long rn_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

rn_adapter *rn_adapter_new(const char *command, const char *profile,
                           long timeout_ms)
{
    rn_adapter *a = rn_xcalloc(1, sizeof(*a));

    a->command = rn_xstrdup(command);
    a->profile = rn_xstrdup(profile);
    a->timeout_ms = timeout_ms;
    a->to_child = -1;
    a->from_child = -1;
    a->err_child = -1;
    return a;
}

bool rn_adapter_running(const rn_adapter *a)
{
    return a->pid > 0;
}

size_t rn_adapter_nstarted(const rn_adapter *a)
{
    return a->nstarted;
}

json_t *rn_adapter_hello(rn_adapter *a)
{
    return a->hello;
}

/* ------------------------------------------------------------------ */
/* Reading stderr */

static void keep_stderr(rn_adapter *a, const char *bytes, size_t nbytes)
{
    rn_buf_addn(&a->err, bytes, nbytes);
    if (a->err.nbytes > (size_t)2 * RN_STDERR_TAIL_NBYTES) {
        size_t drop = a->err.nbytes - RN_STDERR_TAIL_NBYTES;

        memmove(a->err.data, a->err.data + drop, RN_STDERR_TAIL_NBYTES);
        a->err.nbytes = RN_STDERR_TAIL_NBYTES;
        a->err.data[a->err.nbytes] = '\0';
    }
}

/* Reads what stderr has now; closes it at end of file. */
static void read_stderr(rn_adapter *a)
{
    char chunk[4096];

    while (a->err_child >= 0) {
        ssize_t n = read(a->err_child, chunk, sizeof(chunk));

        if (n > 0)
            keep_stderr(a, chunk, (size_t)n);
        else if (n == 0 || (errno != EINTR && errno != EAGAIN))
            close_fd(&a->err_child);
        else if (errno == EAGAIN)
            break;
    }
}

/* Waits up to `ms` for stderr to reach end of file, keeping what comes. */
static void drain_stderr(rn_adapter *a, long ms)
{
    long long deadline = rn_now_ms() + ms;

    read_stderr(a);
    while (a->err_child >= 0) {
        struct pollfd pfd = {a->err_child, POLLIN, 0};
        long long left = deadline - rn_now_ms();

        if (left <= 0)
            break;
        if (poll(&pfd, 1, (int)left) > 0)
            read_stderr(a);
    }
}

char *rn_adapter_stderr_tail(rn_adapter *a)
{
    size_t start;

    read_stderr(a);
    if (a->err.nbytes == 0)
        return NULL;
    start = a->err.nbytes > RN_STDERR_TAIL_NBYTES
                ? a->err.nbytes - RN_STDERR_TAIL_NBYTES
                : 0;
    return rn_utf8_clean(a->err.data + start, a->err.nbytes - start);
}

/* ------------------------------------------------------------------ */
/* Process management */

static void set_flags(int fd, bool nonblock)
{
    int fl = fcntl(fd, F_GETFD);

    if (fl >= 0)
        (void)fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
    if (nonblock) {
        fl = fcntl(fd, F_GETFL);
        if (fl >= 0)
            (void)fcntl(fd, F_SETFL, fl | O_NONBLOCK);
    }
}

static bool spawn(rn_adapter *a, char **why)
{
    int in[2] = {-1, -1};
    int out[2] = {-1, -1};
    int err[2] = {-1, -1};
    pid_t pid;

    if (pipe(in) != 0 || pipe(out) != 0 || pipe(err) != 0) {
        *why = rn_xasprintf("cannot create pipes: %s", strerror(errno));
        close_fd(&in[0]);
        close_fd(&in[1]);
        close_fd(&out[0]);
        close_fd(&out[1]);
        close_fd(&err[0]);
        close_fd(&err[1]);
        return false;
    }
    set_flags(in[0], false);
    set_flags(in[1], true);
    set_flags(out[0], true);
    set_flags(out[1], false);
    set_flags(err[0], true);
    set_flags(err[1], false);
    pid = fork();
    if (pid < 0) {
        *why = rn_xasprintf("cannot fork: %s", strerror(errno));
        close_fd(&in[0]);
        close_fd(&in[1]);
        close_fd(&out[0]);
        close_fd(&out[1]);
        close_fd(&err[0]);
        close_fd(&err[1]);
        return false;
    }
    if (pid == 0) {
        /* The child: only async-signal-safe calls from here on. */
        struct sigaction sa;
        static const char msg[] = RN_PROGRAM ": cannot run /bin/sh\n";

        (void)setpgid(0, 0);
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = SIG_DFL;
        (void)sigaction(SIGPIPE, &sa, NULL);
        if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0 || dup2(err[1], 2) < 0)
            _exit(127);
        execl("/bin/sh", "sh", "-c", a->command, (char *)NULL);
        (void)!write(2, msg, sizeof(msg) - 1);
        _exit(127);
    }
    (void)setpgid(pid, pid); /* also done by the child; whoever is first */
    close_fd(&in[0]);
    close_fd(&out[1]);
    close_fd(&err[1]);
    a->pid = pid;
    a->nstarted++;
    a->reaped = false;
    a->status = 0;
    a->to_child = in[1];
    a->from_child = out[0];
    a->err_child = err[0];
    rn_buf_free(&a->in);
    a->scanned = 0;
    rn_buf_free(&a->err);
    a->busy = false;
    return true;
}

/* Reaps the adapter if it has exited, waiting up to `ms` (draining
 * stderr meanwhile).  Returns whether it is reaped. */
static bool reap(rn_adapter *a, long ms)
{
    long long deadline = rn_now_ms() + ms;

    while (!a->reaped) {
        int status;
        pid_t r = waitpid(a->pid, &status, WNOHANG);

        if (r == a->pid) {
            a->reaped = true;
            a->status = status;
            break;
        }
        if (r < 0 && errno != EINTR) {
            a->reaped = true; /* not our child any more: nothing to wait for */
            a->status = -1;
            break;
        }
        if (rn_now_ms() >= deadline)
            break;
        if (a->err_child >= 0) {
            struct pollfd pfd = {a->err_child, POLLIN, 0};

            if (poll(&pfd, 1, 10) > 0)
                read_stderr(a);
        } else {
            struct timespec ts = {0, 10000000L}; /* 10 ms */

            nanosleep(&ts, NULL);
        }
    }
    return a->reaped;
}

/* "exited with status 3", "killed by signal 9 (Killed)", ... */
static char *describe_exit(rn_adapter *a)
{
    if (!a->reaped)
        return rn_xstrdup("but is still running");
    if (a->status == -1)
        return rn_xstrdup("and its exit status is unknown");
    if (WIFEXITED(a->status)) {
        int code = WEXITSTATUS(a->status);

        /* /bin/sh reports a child killed by signal N as status 128+N. */
        if (code > 128 && code < 128 + 64)
            return rn_xasprintf("and exited with status %d (as a shell reports a "
                                "command killed by signal %d, %s)", code, code - 128,
                                strsignal(code - 128));
        return rn_xasprintf("and exited with status %d", code);
    }
    if (WIFSIGNALED(a->status))
        return rn_xasprintf("and was killed by signal %d (%s)", WTERMSIG(a->status),
                            strsignal(WTERMSIG(a->status)));
    return rn_xstrdup("and stopped");
}

static void release(rn_adapter *a)
{
    close_fd(&a->to_child);
    close_fd(&a->from_child);
    close_fd(&a->err_child);
    rn_buf_free(&a->in);
    a->scanned = 0;
    a->pid = 0;
    a->busy = false;
}

void rn_adapter_kill(rn_adapter *a)
{
    if (a->pid <= 0)
        return;
    close_fd(&a->to_child);
    (void)kill(-a->pid, SIGKILL);
    if (!a->reaped) {
        (void)kill(a->pid, SIGKILL);
        while (!a->reaped) {
            int status;
            pid_t r = waitpid(a->pid, &status, 0);

            if (r == a->pid) {
                a->reaped = true;
                a->status = status;
            } else if (r < 0 && errno != EINTR) {
                a->reaped = true;
                a->status = -1;
            }
        }
    }
    drain_stderr(a, DRAIN_WAIT_MS);
    release(a);
}

void rn_adapter_send_stop(rn_adapter *a)
{
    static const char stop[] = "{\"cmd\":\"stop\"}\n";

    if (a->pid <= 0 || a->to_child < 0)
        return;
    (void)!write(a->to_child, stop, sizeof(stop) - 1);
    close_fd(&a->to_child);
    close_fd(&a->from_child); /* anything it still says is of no interest */
}

void rn_adapter_stop_until(rn_adapter *a, long long deadline)
{
    long long left;

    if (a->pid <= 0)
        return;
    rn_adapter_send_stop(a);
    left = deadline - rn_now_ms();
    if (reap(a, left > 0 ? (long)left : 0))
        (void)kill(-a->pid, SIGKILL); /* members left in its group, if any */
    rn_adapter_kill(a);
}

void rn_adapter_stop(rn_adapter *a)
{
    rn_adapter_stop_until(a, rn_now_ms() + STOP_WAIT_MS);
}

void rn_adapter_free(rn_adapter *a)
{
    if (a == NULL)
        return;
    rn_adapter_kill(a);
    rn_buf_free(&a->err);
    rn_buf_free(&a->out);
    json_decref(a->hello);
    free(a->command);
    free(a->profile);
    free(a);
}

/* ------------------------------------------------------------------ */
/* Exchanging lines */

/* Takes a complete line out of a->in, if there is one. */
static char *take_line(rn_adapter *a, size_t *nbytes)
{
    char *nl;
    char *line;
    size_t n;

    if (a->in.nbytes == a->scanned)
        return NULL;
    nl = memchr(a->in.data + a->scanned, '\n', a->in.nbytes - a->scanned);
    if (nl == NULL) {
        a->scanned = a->in.nbytes;
        return NULL;
    }
    n = (size_t)(nl - a->in.data);
    line = rn_xstrndup(a->in.data, n);
    memmove(a->in.data, nl + 1, a->in.nbytes - n - 1);
    a->in.nbytes -= n + 1;
    a->in.data[a->in.nbytes] = '\0';
    a->scanned = 0;
    *nbytes = n;
    return line;
}

/* One exchange writes a request line and reads one answer line under the
 * adapter's timeout.  It is driven step by step (exchange_check,
 * rn_adapter_fds, poll, rn_adapter_collect), so that the runner can have
 * exchanges under way with several adapters at once (--jobs) and wait on
 * all of them with one poll(2). */

/* Whether the exchange is over: a line, or a failure; XCHG_PENDING when
 * it must wait for the adapter. */
static xchg exchange_check(rn_adapter *a, char **line, size_t *line_nbytes)
{
    *line = take_line(a, line_nbytes);
    if (*line != NULL)
        return a->written == a->out.nbytes ? XCHG_LINE : XCHG_EARLY;
    if (a->in.nbytes > MAX_LINE_NBYTES)
        return XCHG_TOO_LONG;
    if (a->from_child < 0)
        return XCHG_EOF;
    if (a->written < a->out.nbytes && a->to_child < 0)
        return XCHG_NOREAD;
    if (rn_now_ms() >= a->deadline)
        return XCHG_TIMEOUT;
    return XCHG_PENDING;
}

size_t rn_adapter_fds(const rn_adapter *a, struct pollfd *pfd, long long *deadline)
{
    size_t n = 0;

    if (!a->busy)
        return 0;
    if (a->written < a->out.nbytes && a->to_child >= 0)
        pfd[n++] = (struct pollfd){a->to_child, POLLOUT, 0};
    if (a->from_child >= 0)
        pfd[n++] = (struct pollfd){a->from_child, POLLIN, 0};
    if (a->err_child >= 0)
        pfd[n++] = (struct pollfd){a->err_child, POLLIN, 0};
    if (a->deadline < *deadline)
        *deadline = a->deadline;
    return n;
}

/* Does the I/O that poll(2) found possible on the fds rn_adapter_fds
 * gave (pfd[0..n)). */
static void exchange_io(rn_adapter *a, const struct pollfd *pfd, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (pfd[i].revents == 0)
            continue;
        if (pfd[i].fd == a->err_child) {
            read_stderr(a);
        } else if (pfd[i].fd == a->to_child) {
            ssize_t w = write(a->to_child, a->out.data + a->written,
                              a->out.nbytes - a->written);

            if (w > 0)
                a->written += (size_t)w;
            else if (w < 0 && errno != EAGAIN && errno != EINTR)
                close_fd(&a->to_child);
        } else if (pfd[i].fd == a->from_child) {
            char chunk[65536];
            ssize_t r = read(a->from_child, chunk, sizeof(chunk));

            if (r > 0)
                rn_buf_addn(&a->in, chunk, (size_t)r);
            else if (r == 0 || (errno != EAGAIN && errno != EINTR))
                close_fd(&a->from_child);
        }
    }
}

/* Explains a failed exchange (not XCHG_LINE). */
static char *describe_failure(rn_adapter *a, xchg x)
{
    char *exit_text;
    char *why;

    switch (x) {
    case XCHG_TIMEOUT:
        if (a->timeout_ms % 1000 == 0)
            return rn_xasprintf("timeout: no answer within %ld s", a->timeout_ms / 1000);
        return rn_xasprintf("timeout: no answer within %ld ms", a->timeout_ms);
    case XCHG_TOO_LONG:
        return rn_xasprintf("malformed answer: a line longer than %zu bytes",
                            MAX_LINE_NBYTES);
    case XCHG_EARLY:
        break; /* finish_exchange() explains it, quoting the line */
    case XCHG_EOF:
    case XCHG_NOREAD:
        reap(a, EXIT_WAIT_MS);
        exit_text = describe_exit(a);
        why = rn_xasprintf("crash: the adapter %s %s",
                           x == XCHG_EOF ? "closed its stdout"
                                         : "stopped reading its stdin",
                           exit_text);
        free(exit_text);
        return why;
    case XCHG_LINE:
    case XCHG_PENDING:
        break;
    }
    return rn_xstrdup("?");
}

/* Starts an exchange whose line to send is in a->out. */
static void start_exchange(rn_adapter *a, long long seq)
{
    a->written = 0;
    a->seq = seq;
    a->deadline = rn_now_ms() + a->timeout_ms;
    a->busy = true;
}

/* Starts an exchange: `request` serialised as the line to send. */
static void begin_exchange(rn_adapter *a, json_t *request, long long seq)
{
    char *text = json_dumps(request, JSON_COMPACT | JSON_PRESERVE_ORDER);

    a->out.nbytes = 0;
    if (text != NULL) {
        rn_buf_adds(&a->out, text);
        rn_buf_addc(&a->out, '\n');
        free(text);
    }
    start_exchange(a, seq);
}

/* Ends an exchange that is over (not XCHG_PENDING): parses the line
 * into a JSON object. */
static rn_call_status finish_exchange(rn_adapter *a, xchg x, char *line, size_t nbytes,
                                      json_t **answer, char **why)
{
    json_error_t error;
    json_t *j;

    a->busy = false;
    if (x == XCHG_EARLY) {
        char *quoted = rn_utf8_quote(line, nbytes, RN_QUOTE_NBYTES);

        *why = rn_xasprintf("malformed answer: a line came before the request was "
                            "sent (an extra answer to an earlier request?): %s",
                            quoted);
        free(quoted);
        free(line);
        return RN_CALL_MALFORMED;
    }
    if (x != XCHG_LINE) {
        free(line);
        *why = describe_failure(a, x);
        if (x == XCHG_TIMEOUT)
            return RN_CALL_TIMEOUT;
        return x == XCHG_EOF || x == XCHG_NOREAD ? RN_CALL_CRASH : RN_CALL_MALFORMED;
    }
    if (nbytes > 0 && line[nbytes - 1] == '\r')
        nbytes--;
    j = json_loadb(line, nbytes, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &error);
    if (j == NULL || !json_is_object(j)) {
        char *quoted = rn_utf8_quote(line, nbytes, RN_QUOTE_NBYTES);

        *why = j == NULL ? rn_xasprintf("malformed answer: not valid JSON (%s): %s",
                                        error.text, quoted)
                         : rn_xasprintf("malformed answer: not a JSON object: %s",
                                        quoted);
        free(quoted);
        json_decref(j);
        free(line);
        return RN_CALL_MALFORMED;
    }
    free(line);
    *answer = j;
    return RN_CALL_OK;
}

static char *quote_json(json_t *j)
{
    char *text = rn_json_compact(j);
    char *quoted = rn_utf8_quote(text, strlen(text), RN_QUOTE_NBYTES);

    free(text);
    return quoted;
}

/* A run request's answer must echo its seq. */
static rn_call_status check_seq(rn_adapter *a, json_t **answer, char **why)
{
    json_t *got_seq = json_object_get(*answer, "seq");
    char *quoted;

    if (json_is_integer(got_seq) && json_integer_value(got_seq) == a->seq)
        return RN_CALL_OK;
    quoted = quote_json(*answer);
    *why = got_seq == NULL
               ? rn_xasprintf("malformed answer: no \"seq\": %s", quoted)
               : rn_xasprintf("malformed answer: wrong \"seq\" (expected %lld): %s",
                              a->seq, quoted);
    free(quoted);
    json_decref(*answer);
    *answer = NULL;
    return RN_CALL_MALFORMED;
}

rn_call_status rn_adapter_collect(rn_adapter *a, const struct pollfd *pfd, size_t n,
                                  json_t **answer, char **why)
{
    char *line = NULL;
    size_t nbytes = 0;
    xchg x;
    rn_call_status st;

    *answer = NULL;
    /* a line already read is taken before any I/O: one that was there
     * before the request went out is an extra answer (XCHG_EARLY) */
    x = exchange_check(a, &line, &nbytes);
    if (x == XCHG_PENDING) {
        exchange_io(a, pfd, n);
        x = exchange_check(a, &line, &nbytes);
    }
    if (x == XCHG_PENDING)
        return RN_CALL_PENDING;
    st = finish_exchange(a, x, line, nbytes, answer, why);
    if (st == RN_CALL_OK && a->seq >= 0)
        st = check_seq(a, answer, why);
    return st;
}

/* Waits for the answer of the exchange under way. */
static rn_call_status wait_answer(rn_adapter *a, json_t **answer, char **why)
{
    struct pollfd pfd[RN_ADAPTER_NFDS];
    size_t n = 0;

    for (;;) {
        long long deadline = a->deadline;
        long long left;
        rn_call_status st = rn_adapter_collect(a, pfd, n, answer, why);

        if (st != RN_CALL_PENDING)
            return st;
        n = rn_adapter_fds(a, pfd, &deadline);
        left = deadline - rn_now_ms();
        if (left < 0)
            left = 0;
        if (poll(pfd, (nfds_t)n, left > INT_MAX ? INT_MAX : (int)left) < 0) {
            n = 0;
            if (errno != EINTR) {
                close_fd(&a->from_child); /* as the adapter's end of file */
            }
        }
    }
}

void rn_adapter_delay(rn_adapter *a, long long ms)
{
    if (a->busy)
        a->deadline += ms;
}

/* The line is built from the case's text as json_dumps(JSON_COMPACT |
 * JSON_PRESERVE_ORDER) would build it from {"cmd", "seq", "case"}: the
 * same bytes, without serialising the case again on this thread. */
bool rn_adapter_begin_run_text(rn_adapter *a, long long seq, const char *case_text,
                               char **why)
{
    if (a->pid <= 0) {
        *why = rn_xstrdup("crash: the adapter is not running");
        return false;
    }
    if (case_text == NULL) {
        *why = rn_xstrdup("cannot serialise the request");
        return false;
    }
    a->out.nbytes = 0;
    rn_buf_printf(&a->out, "{\"cmd\":\"run\",\"seq\":%lld,\"case\":", seq);
    rn_buf_adds(&a->out, case_text);
    rn_buf_adds(&a->out, "}\n");
    start_exchange(a, seq);
    return true;
}

bool rn_adapter_begin_run(rn_adapter *a, long long seq, json_t *request_case,
                          char **why)
{
    json_t *request;

    if (a->pid <= 0) {
        *why = rn_xstrdup("crash: the adapter is not running");
        return false;
    }
    request = json_object();
    json_object_set_new(request, "cmd", json_string("run"));
    json_object_set_new(request, "seq", json_integer(seq));
    json_object_set(request, "case", request_case);
    begin_exchange(a, request, seq);
    json_decref(request);
    if (a->out.nbytes == 0) {
        a->busy = false;
        *why = rn_xstrdup("cannot serialise the request");
        return false;
    }
    return true;
}

rn_call_status rn_adapter_run(rn_adapter *a, long long seq, json_t *request_case,
                              json_t **answer, char **why)
{
    *answer = NULL;
    if (!rn_adapter_begin_run(a, seq, request_case, why))
        return RN_CALL_CRASH;
    return wait_answer(a, answer, why);
}

/* Checks a hello answer; on a defect returns a description. */
static char *check_hello(json_t *hello)
{
    json_t *protocol = json_object_get(hello, "protocol");
    json_t *caps = json_object_get(hello, "capabilities");
    json_t *impl = json_object_get(hello, "implementation");
    json_t *profiles = json_object_get(hello, "profiles");

    if (!json_is_integer(protocol) || json_integer_value(protocol) != 1)
        return rn_xstrdup("the hello answer must say \"protocol\": 1");
    if (!json_is_array(caps) || !rn_json_is_str_array(caps))
        return rn_xstrdup("the hello answer needs \"capabilities\", an array of "
                          "strings");
    if (impl != NULL && (!json_is_object(impl) || rn_json_str(impl, "name") == NULL))
        return rn_xstrdup("\"implementation\" in the hello answer must be an object "
                          "with a string \"name\"");
    if (!rn_json_is_str_array(profiles))
        return rn_xstrdup("\"profiles\" in the hello answer must be an array of "
                          "strings");
    return NULL;
}

bool rn_adapter_start(rn_adapter *a, char **why)
{
    json_t *request;
    json_t *answer = NULL;
    char *defect;
    char *sub = NULL;
    rn_call_status st;

    rn_adapter_kill(a);
    if (!spawn(a, why))
        return false;
    request = json_object();
    json_object_set_new(request, "cmd", json_string("hello"));
    json_object_set_new(request, "protocol", json_integer(1));
    json_object_set_new(request, "profile", json_string(a->profile));
    begin_exchange(a, request, -1);
    json_decref(request);
    st = a->out.nbytes > 0 ? wait_answer(a, &answer, &sub) : RN_CALL_CRASH;
    if (st != RN_CALL_OK) {
        if (sub == NULL)
            sub = rn_xstrdup("cannot serialise the request");
        *why = rn_xasprintf("no valid answer to hello: %s", sub);
        free(sub);
        rn_adapter_kill(a);
        return false;
    }
    defect = check_hello(answer);
    if (defect != NULL) {
        char *quoted = quote_json(answer);

        *why = rn_xasprintf("%s: %s", defect, quoted);
        free(quoted);
        free(defect);
        json_decref(answer);
        rn_adapter_kill(a);
        return false;
    }
    json_decref(a->hello);
    a->hello = answer;
    return true;
}
