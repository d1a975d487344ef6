/* SPDX-License-Identifier: MPL-2.0 */
/*
 * bench_rusage.c — runs a program and reports its wall time and peak
 * resident memory, for tools/bench/run-scale.  A benchmark tool, not
 * installed.
 *
 * usage: bench_rusage SECONDS REPORT PROGRAM [ARG...]
 *
 * Runs PROGRAM with its ARGs as a child (standard streams are this
 * process's), waits for it, killing it after SECONDS (a whole number, 0
 * for no limit), and writes one JSON line to the file REPORT: {"seconds":
 * wall time from fork to exit, "max_rss_kb": the child's peak resident
 * set, "status": its exit code, or 128 + the signal that ended it,
 * "timed_out": whether it was killed for taking too long}.  Exit status 0
 * when the report is written, 2 otherwise.
 *
 * Why a program of its own: Linux keeps a process's high-water mark of
 * resident memory across exec, and a child starts with its parent's
 * resident set.  A child forked straight from the benchmark's Python
 * process (tens of MB after it has read a large variables file) would
 * report at least that much however little it used; forked from this
 * small process, it starts from about a megabyte.  The time is measured
 * here, not by a parent that polls for the child's end.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The child, for the alarm's handler, and whether the handler killed it. */
static volatile pid_t child;
static volatile sig_atomic_t killed;

static void on_alarm(int sig)
{
    (void)sig;
    kill(child, SIGKILL);
    killed = 1;
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    struct rusage usage;
    double start;
    pid_t pid;
    int status;
    int code;
    unsigned limit;
    double took;
    struct sigaction act;
    FILE *report;

    if (argc < 4) {
        fprintf(stderr, "usage: bench_rusage SECONDS REPORT PROGRAM [ARG...]\n");
        return 2;
    }
    limit = (unsigned)strtoul(argv[1], NULL, 10);
    start = now();
    pid = fork();
    if (pid < 0) {
        perror("bench_rusage: fork");
        return 2;
    }
    if (pid == 0) {
        execv(argv[3], argv + 3);
        perror("bench_rusage: exec");
        _exit(127);
    }
    child = pid;
    memset(&act, 0, sizeof(act));
    act.sa_handler = on_alarm;
    sigemptyset(&act.sa_mask);
    sigaction(SIGALRM, &act, NULL);
    alarm(limit);
    while (waitpid(pid, &status, 0) != pid) {
        if (errno == EINTR)
            continue;
        perror("bench_rusage: waitpid");
        return 2;
    }
    /* the one child waited for: its own figures */
    if (getrusage(RUSAGE_CHILDREN, &usage) != 0) {
        perror("bench_rusage: getrusage");
        return 2;
    }
    took = now() - start;
    code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 255;
    report = fopen(argv[2], "w");
    if (report == NULL) {
        perror("bench_rusage: report");
        return 2;
    }
    fprintf(report, "{\"max_rss_kb\":%ld,\"seconds\":%.6f,\"status\":%d,\"timed_out\":%s}\n",
            usage.ru_maxrss, took, code, killed ? "true" : "false");
    return fclose(report) == 0 ? 0 : 2;
}
