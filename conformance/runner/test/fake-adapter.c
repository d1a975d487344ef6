/* SPDX-License-Identifier: MPL-2.0 */
/*
 * fake-adapter.c — a conformance-protocol adapter that misbehaves on
 * command, for the runner's self-tests (conformance/runner/test/).
 *
 * It evaluates nothing.  The input text of each case is a command saying
 * what to answer; the self-test corpus pairs each command with the
 * expectation a correct runner must judge it against.
 *
 * Commands (the case's "input"; a case with "input_base64" is answered
 * with the string value of its base64 text):
 *
 *   value JSON          answer {"seq": N, "value": JSON}
 *   diags JSON          answer {"seq": N, "diagnostics": JSON}
 *   answer JSON         answer the JSON object, with "seq": N put first
 *                       (a "seq" in JSON overrides it)
 *   error PHASE START END SUMMARY...
 *                       one error diagnostic without a category: the
 *                       summary, subject bytes START-END on line 1,
 *                       columns START+1 to END+1
 *   echo                a string value: the run request's "case", as JSON
 *   hello               a string value: the hello request, as JSON
 *   count               a number value: the run requests this process got
 *   crash [STATUS]      say so on stderr and exit with STATUS (default 3)
 *   kill                say so on stderr and die of SIGKILL
 *   hang                say so on stderr and never answer
 *   closeout            close stdout and never exit
 *   malformed           answer a line that is not JSON
 *   notobject           answer a JSON array
 *   badseq              a valid value answer with seq N+1
 *   noseq               a valid value answer without seq
 *   noform              answer {"seq": N} and nothing else
 *   errored             answer {"seq": N, "errored": true, "message": ...}
 *   unsupported         answer {"seq": N, "unsupported": true, "message": ...}
 *   long NBYTES         a string value of NBYTES 'x', on one line
 *   slow MS COMMAND     wait MS milliseconds, then do COMMAND
 *   split COMMAND       do COMMAND, writing its answer in two parts 100 ms
 *                       apart
 *   twice COMMAND       do COMMAND, and write its answer twice
 *   noisy NBYTES COMMAND
 *                       write NBYTES of text to stderr, then do COMMAND
 *   anything else       answer errored ("unknown fake command")
 *
 * Options:
 *   --caps LIST     the capabilities declared, comma-separated ("" for
 *                   none; default mode.expression, mode.template,
 *                   request.parse, request.convert, request.refs,
 *                   request.console, unknown, marks, ranges.column, fn:*)
 *   --name NAME     the implementation's name (default fake-adapter)
 *   --no-hello      exit with status 1 at hello, without answering
 *   --bad-hello     answer hello with "protocol": 2
 *   --ignore-stop   at stop or end of input, never exit
 *   --log FILE      append every request line to FILE
 */
#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_CAPS \
    "mode.expression,mode.template,request.parse,request.convert,request.refs," \
    "request.console,unknown,marks,ranges.column,fn:*"

typedef struct fake {
    const char *caps;
    const char *name;
    bool no_hello;
    bool bad_hello;
    bool ignore_stop;
    FILE *log;
    char *hello;      /* the hello request as received */
    long nruns;       /* run requests received */
} fake;

static void sleep_ms(long ms)
{
    struct timespec ts;

    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&ts, NULL);
}

static void never_return(void)
{
    for (;;)
        pause();
}

/* Writes `text` and a newline to stdout, in two parts if `split`,
 * twice if `twice`. */
static void put_line(const char *text, bool split, bool twice)
{
    size_t n = strlen(text);

    if (split) {
        fwrite(text, 1, n / 2, stdout);
        fflush(stdout);
        sleep_ms(100);
        fwrite(text + n / 2, 1, n - n / 2, stdout);
    } else
        fwrite(text, 1, n, stdout);
    fputc('\n', stdout);
    if (twice) {
        fwrite(text, 1, n, stdout);
        fputc('\n', stdout);
    }
    fflush(stdout);
}

static void put_json(json_t *answer, bool split, bool twice)
{
    char *text = json_dumps(answer, JSON_COMPACT | JSON_PRESERVE_ORDER);

    put_line(text != NULL ? text : "null", split, twice);
    free(text);
    json_decref(answer);
}

static json_t *with_seq(json_t *seq)
{
    json_t *answer = json_object();

    if (seq != NULL)
        json_object_set(answer, "seq", seq);
    return answer;
}

static json_t *message_answer(json_t *seq, const char *flag, const char *message)
{
    json_t *answer = with_seq(seq);

    json_object_set_new(answer, flag, json_true());
    json_object_set_new(answer, "message", json_string(message));
    return answer;
}

static json_t *string_value(json_t *seq, const char *s, size_t nbytes)
{
    json_t *answer = with_seq(seq);
    json_t *value = json_object();

    json_object_set_new(value, "type", json_string("string"));
    json_object_set_new(value, "v", json_stringn(s, nbytes));
    json_object_set_new(answer, "value", value);
    return answer;
}

static json_t *number_value(json_t *seq, long n)
{
    json_t *answer = with_seq(seq);
    json_t *value = json_object();
    char text[32];

    snprintf(text, sizeof(text), "%ld", n);
    json_object_set_new(value, "type", json_string("number"));
    json_object_set_new(value, "v", json_string(text));
    json_object_set_new(answer, "value", value);
    return answer;
}

/* `key` JSON from `arg`, or an errored answer if it does not parse. */
static json_t *json_member_answer(json_t *seq, const char *key, const char *arg)
{
    json_error_t error;
    json_t *payload = json_loads(arg, JSON_DECODE_ANY, &error);
    json_t *answer;

    if (payload == NULL)
        return message_answer(seq, "errored", "fake: the command's JSON does not parse");
    if (key == NULL) {
        if (!json_is_object(payload)) {
            json_decref(payload);
            return message_answer(seq, "errored", "fake: 'answer' needs an object");
        }
        answer = with_seq(seq);
        json_object_update(answer, payload);
        json_decref(payload);
        return answer;
    }
    answer = with_seq(seq);
    json_object_set_new(answer, key, payload);
    return answer;
}

/* error PHASE START END SUMMARY... */
static json_t *error_answer(json_t *seq, const char *arg)
{
    size_t nphase = strcspn(arg, " ");
    char *rest;
    long start;
    long end;
    json_t *answer;
    json_t *diag;
    json_t *subject;
    json_t *pos;

    start = strtol(arg + nphase, &rest, 10);
    end = strtol(rest, &rest, 10);
    if (nphase == 0 || *rest != ' ')
        return message_answer(seq, "errored", "fake: error PHASE START END SUMMARY");
    diag = json_object();
    json_object_set_new(diag, "severity", json_string("error"));
    json_object_set_new(diag, "phase", json_stringn(arg, nphase));
    json_object_set_new(diag, "summary", json_string(rest + 1));
    subject = json_object();
    pos = json_object();
    json_object_set_new(pos, "byte", json_integer(start));
    json_object_set_new(pos, "line", json_integer(1));
    json_object_set_new(pos, "column", json_integer(start + 1));
    json_object_set_new(subject, "start", pos);
    pos = json_object();
    json_object_set_new(pos, "byte", json_integer(end));
    json_object_set_new(pos, "line", json_integer(1));
    json_object_set_new(pos, "column", json_integer(end + 1));
    json_object_set_new(subject, "end", pos);
    json_object_set_new(diag, "subject", subject);
    answer = with_seq(seq);
    json_object_set_new(answer, "diagnostics", json_array());
    json_array_append_new(json_object_get(answer, "diagnostics"), diag);
    return answer;
}

static bool is_command(const char *input, const char *word, const char **arg)
{
    size_t n = strlen(word);

    if (strncmp(input, word, n) != 0 || (input[n] != '\0' && input[n] != ' '))
        return false;
    *arg = input + n + (input[n] == ' ' ? 1 : 0);
    return true;
}

static void say(const char *what)
{
    fprintf(stderr, "fake-adapter: %s\n", what);
    fflush(stderr);
}

/* Does one command; `request_case` is the run request's case. */
static void do_command(fake *f, json_t *seq, json_t *request_case, const char *input,
                       bool split, bool twice)
{
    const char *arg = "";
    long long seqv = json_integer_value(seq);

    if (is_command(input, "slow", &arg)) {
        char *rest = NULL;
        long ms = strtol(arg, &rest, 10);

        sleep_ms(ms);
        do_command(f, seq, request_case, rest[0] == ' ' ? rest + 1 : rest, split, twice);
    } else if (is_command(input, "split", &arg))
        do_command(f, seq, request_case, arg, true, twice);
    else if (is_command(input, "twice", &arg))
        do_command(f, seq, request_case, arg, split, true);
    else if (is_command(input, "noisy", &arg)) {
        char *rest = NULL;
        long n = strtol(arg, &rest, 10);
        char *noise = malloc(n > 0 ? (size_t)n : 1);
        long i;

        if (noise == NULL)
            _exit(4);
        for (i = 0; i < n; i++)
            noise[i] = (char)(i % 64 == 63 ? '\n' : "noise"[i % 5]);
        fwrite(noise, 1, n > 0 ? (size_t)n : 0, stderr);
        fflush(stderr);
        free(noise);
        do_command(f, seq, request_case, rest[0] == ' ' ? rest + 1 : rest, split, twice);
    } else if (is_command(input, "value", &arg))
        put_json(json_member_answer(seq, "value", arg), split, twice);
    else if (is_command(input, "diags", &arg))
        put_json(json_member_answer(seq, "diagnostics", arg), split, twice);
    else if (is_command(input, "answer", &arg))
        put_json(json_member_answer(seq, NULL, arg), split, twice);
    else if (is_command(input, "error", &arg))
        put_json(error_answer(seq, arg), split, twice);
    else if (is_command(input, "echo", &arg)) {
        char *text = json_dumps(request_case, JSON_COMPACT | JSON_PRESERVE_ORDER);

        put_json(string_value(seq, text != NULL ? text : "", text != NULL ? strlen(text) : 0),
                 split, twice);
        free(text);
    } else if (is_command(input, "hello", &arg))
        put_json(string_value(seq, f->hello != NULL ? f->hello : "",
                              f->hello != NULL ? strlen(f->hello) : 0), split, twice);
    else if (is_command(input, "count", &arg))
        put_json(number_value(seq, f->nruns), split, twice);
    else if (is_command(input, "crash", &arg)) {
        say("crashing as told");
        _exit(arg[0] != '\0' ? (int)strtol(arg, NULL, 10) : 3);
    } else if (is_command(input, "kill", &arg)) {
        say("killing myself as told");
        raise(SIGKILL);
    } else if (is_command(input, "hang", &arg)) {
        say("hanging as told");
        never_return();
    } else if (is_command(input, "closeout", &arg)) {
        fclose(stdout);
        never_return();
    } else if (is_command(input, "malformed", &arg))
        put_line("this is not JSON", split, twice);
    else if (is_command(input, "notobject", &arg))
        put_line("[1, 2, 3]", split, twice);
    else if (is_command(input, "badseq", &arg)) {
        json_t *wrong = json_integer(seqv + 1);

        put_json(number_value(wrong, 1), split, twice);
        json_decref(wrong);
    } else if (is_command(input, "noseq", &arg))
        put_json(number_value(NULL, 1), split, twice);
    else if (is_command(input, "noform", &arg))
        put_json(with_seq(seq), split, twice);
    else if (is_command(input, "errored", &arg)) {
        say("about to report an internal error");
        put_json(message_answer(seq, "errored", "fake internal error"), split, twice);
    } else if (is_command(input, "unsupported", &arg))
        put_json(message_answer(seq, "unsupported", "the fake supports nothing here"),
                 split, twice);
    else if (is_command(input, "long", &arg)) {
        long n = strtol(arg, NULL, 10);
        char *s = malloc(n > 0 ? (size_t)n : 1);

        if (s == NULL)
            _exit(4);
        memset(s, 'x', n > 0 ? (size_t)n : 0);
        put_json(string_value(seq, s, n > 0 ? (size_t)n : 0), split, twice);
        free(s);
    } else
        put_json(message_answer(seq, "errored", "unknown fake command"), split, twice);
}

static void answer_hello(fake *f, const char *line)
{
    json_t *answer = json_object();
    json_t *impl = json_object();
    json_t *caps = json_array();
    json_t *profiles = json_array();
    const char *p = f->caps;

    if (f->no_hello) {
        say("not saying hello, as told");
        _exit(1);
    }
    free(f->hello);
    f->hello = strdup(line);
    while (*p != '\0') {
        size_t n = strcspn(p, ",");

        if (n > 0)
            json_array_append_new(caps, json_stringn(p, n));
        p += n;
        if (*p == ',')
            p++;
    }
    json_object_set_new(impl, "name", json_string(f->name));
    json_object_set_new(impl, "version", json_string("1.0"));
    json_object_set_new(impl, "language", json_string("c"));
    json_array_append_new(profiles, json_string("P14"));
    json_array_append_new(profiles, json_string("PN"));
    json_object_set_new(answer, "protocol", json_integer(f->bad_hello ? 2 : 1));
    json_object_set_new(answer, "implementation", impl);
    json_object_set_new(answer, "capabilities", caps);
    json_object_set_new(answer, "profiles", profiles);
    put_json(answer, false, false);
}

static void answer_run(fake *f, json_t *request)
{
    json_t *seq = json_object_get(request, "seq");
    json_t *c = json_object_get(request, "case");
    json_t *input = json_object_get(c, "input");
    json_t *input64 = json_object_get(c, "input_base64");

    f->nruns++;
    if (input64 != NULL)
        put_json(string_value(seq, json_string_value(input64),
                              json_string_length(input64)), false, false);
    else
        do_command(f, seq, c, json_string_value(input) != NULL ? json_string_value(input)
                                                             : "",
                   false, false);
}

static int usage(void)
{
    fputs("usage: fake-adapter [--caps LIST] [--name NAME] [--no-hello] [--bad-hello]\n"
          "                    [--ignore-stop] [--log FILE]\n", stderr);
    return 2;
}

int main(int argc, char **argv)
{
    fake f;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int i;

    memset(&f, 0, sizeof(f));
    f.caps = DEFAULT_CAPS;
    f.name = "fake-adapter";
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--caps") == 0 && i + 1 < argc)
            f.caps = argv[++i];
        else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
            f.name = argv[++i];
        else if (strcmp(argv[i], "--log") == 0 && i + 1 < argc) {
            f.log = fopen(argv[++i], "a");
            if (f.log == NULL)
                return usage();
        } else if (strcmp(argv[i], "--no-hello") == 0)
            f.no_hello = true;
        else if (strcmp(argv[i], "--bad-hello") == 0)
            f.bad_hello = true;
        else if (strcmp(argv[i], "--ignore-stop") == 0)
            f.ignore_stop = true;
        else
            return usage();
    }
    while ((n = getline(&line, &cap, stdin)) > 0) {
        json_error_t error;
        json_t *request;
        const char *cmd;

        if (f.log != NULL) {
            fputs(line, f.log);
            fflush(f.log);
        }
        request = json_loadb(line, (size_t)n, 0, &error);
        cmd = json_string_value(json_object_get(request, "cmd"));
        if (cmd == NULL)
            put_json(message_answer(NULL, "errored", "fake: not a request"), false, false);
        else if (strcmp(cmd, "hello") == 0) {
            line[strcspn(line, "\n")] = '\0';
            answer_hello(&f, line);
        } else if (strcmp(cmd, "run") == 0)
            answer_run(&f, request);
        else if (strcmp(cmd, "stop") == 0) {
            json_decref(request);
            break;
        }
        json_decref(request);
    }
    free(line);
    free(f.hello);
    if (f.log != NULL)
        fclose(f.log);
    if (f.ignore_stop) {
        say("ignoring stop, as told");
        never_return();
    }
    return 0;
}
