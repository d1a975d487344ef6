/* SPDX-License-Identifier: MPL-2.0 */
/*
 * corpus.c — the suite's own files (categories.json, profiles.json), the
 * case files (conformance/README.md, "Case files"), selection by filters,
 * and whether a case applies to a profile and an adapter's capabilities.
 *
 * A case inherits every field it lacks from its file's "defaults" (no deep
 * merge).  What the runner relies on is checked when loading, and a defect
 * is an error naming the file and the case.
 */
#include "runner.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Suite files */

static bool check_categories(json_t *j, const char *path)
{
    size_t i;
    json_t *cat;
    json_t *list = json_object_get(j, "categories");

    if (!json_is_array(list)) {
        rn_error("%s: \"categories\" must be an array", path);
        return false;
    }
    json_array_foreach(list, i, cat) {
        if (rn_json_str(cat, "id") == NULL ||
            !rn_json_is_str_array(json_object_get(cat, "summaries"))) {
            rn_error("%s: category %zu needs a string \"id\" and a \"summaries\" "
                     "array of strings", path, i + 1);
            return false;
        }
    }
    return true;
}

static bool check_profiles(json_t *j, const char *path)
{
    size_t i;
    json_t *p;
    json_t *list = json_object_get(j, "profiles");
    json_t *def = json_object_get(j, "default");

    if (!json_is_array(list) || json_array_size(list) == 0) {
        rn_error("%s: \"profiles\" must be a non-empty array", path);
        return false;
    }
    json_array_foreach(list, i, p) {
        if (rn_json_str(p, "id") == NULL) {
            rn_error("%s: profile %zu needs a string \"id\"", path, i + 1);
            return false;
        }
    }
    if (def != NULL && !json_is_string(def)) {
        rn_error("%s: \"default\" must be a string", path);
        return false;
    }
    return true;
}

static json_t *load_suite_file(const char *dir, const char *name)
{
    char *path = rn_xasprintf("%s/%s", dir, name);
    char *why = NULL;
    json_t *j = rn_json_load_file(path, &why);

    if (j == NULL) {
        rn_error("%s", why);
        free(why);
    } else if (!json_is_object(j)) {
        rn_error("%s: not a JSON object", path);
        json_decref(j);
        j = NULL;
    }
    free(path);
    return j;
}

bool rn_suite_load(rn_suite *s, const char *dir)
{
    char *path;
    bool ok;

    s->dir = rn_xstrdup(dir);
    s->categories = load_suite_file(dir, "categories.json");
    if (s->categories == NULL)
        return false;
    path = rn_xasprintf("%s/categories.json", dir);
    ok = check_categories(s->categories, path);
    free(path);
    if (!ok)
        return false;
    s->profiles = load_suite_file(dir, "profiles.json");
    if (s->profiles == NULL)
        return false;
    path = rn_xasprintf("%s/profiles.json", dir);
    ok = check_profiles(s->profiles, path);
    free(path);
    return ok;
}

const char *rn_suite_default_profile(rn_suite *s)
{
    const char *def = rn_json_str(s->profiles, "default");

    if (def != NULL)
        return def;
    return rn_json_str(json_array_get(json_object_get(s->profiles, "profiles"), 0),
                       "id");
}

bool rn_suite_has_profile(rn_suite *s, const char *profile)
{
    size_t i;
    json_t *p;

    json_array_foreach(json_object_get(s->profiles, "profiles"), i, p) {
        if (strcmp(rn_json_str(p, "id"), profile) == 0)
            return true;
    }
    return false;
}

/* ------------------------------------------------------------------ */
/* Finding case files */

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s);
    size_t m = strlen(suffix);

    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Adds the *.json files under `dir`, recursively, skipping hidden names. */
static bool walk(const char *dir, rn_strlist *files)
{
    DIR *d = opendir(dir);
    const struct dirent *ent;
    bool ok = true;

    if (d == NULL) {
        rn_error("%s: cannot open directory: %s", dir, strerror(errno));
        return false;
    }
    while (ok && (ent = readdir(d)) != NULL) {
        char *path;
        struct stat st;

        if (ent->d_name[0] == '.')
            continue;
        path = rn_xasprintf("%s/%s", dir, ent->d_name);
        if (stat(path, &st) != 0) {
            rn_error("%s: %s", path, strerror(errno));
            ok = false;
        } else if (S_ISDIR(st.st_mode))
            ok = walk(path, files);
        else if (S_ISREG(st.st_mode) && has_suffix(path, ".json")) {
            rn_strlist_add(files, path);
            path = NULL;
        }
        free(path);
    }
    closedir(d);
    return ok;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* `path` made absolute (against the working directory) and normalised
 * lexically: no "." or ".." components, no repeated or trailing '/'.
 * (realpath(3) is XSI, outside the POSIX base this builds against.) */
static char *absolute_path(const char *path)
{
    rn_buf whole = {0};
    rn_buf norm = {0};
    char *p;

    if (path[0] != '/') {
        char cwd[4096];

        if (getcwd(cwd, sizeof(cwd)) == NULL)
            return NULL;
        rn_buf_adds(&whole, cwd);
        rn_buf_addc(&whole, '/');
    }
    rn_buf_adds(&whole, path);
    p = whole.data;
    while (*p != '\0') {
        size_t n;

        while (*p == '/')
            p++;
        n = strcspn(p, "/");
        if (n == 0 || (n == 1 && p[0] == '.')) {
            /* nothing */
        } else if (n == 2 && p[0] == '.' && p[1] == '.') {
            while (norm.nbytes > 0 && norm.data[norm.nbytes - 1] != '/')
                norm.nbytes--;
            if (norm.nbytes > 0) {
                norm.nbytes--;
                norm.data[norm.nbytes] = '\0';
            }
        } else {
            rn_buf_addc(&norm, '/');
            rn_buf_addn(&norm, p, n);
        }
        p += n;
    }
    rn_buf_free(&whole);
    if (norm.nbytes == 0)
        rn_buf_addc(&norm, '/');
    return rn_buf_steal(&norm);
}

/* The path shown for a case file: relative to the suite dir when inside,
 * as valid UTF-8 (reports are JSON and XML). */
static char *display_path(const char *suite_abs, const char *path)
{
    char *abs = absolute_path(path);
    const char *shown = path;
    size_t n = suite_abs != NULL ? strlen(suite_abs) : 0;
    char *clean;

    if (abs != NULL && suite_abs != NULL && strncmp(abs, suite_abs, n) == 0 &&
        abs[n] == '/')
        shown = abs + n + 1;
    clean = rn_utf8_clean(shown, strlen(shown));
    free(abs);
    return clean;
}

/* ------------------------------------------------------------------ */
/* Checking a case */

static bool is_case_id(const char *s)
{
    size_t i;

    if (s == NULL || strlen(s) != 8)
        return false;
    for (i = 0; i < 8; i++) {
        char c = s[i];

        if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')) || c == 'I' ||
            c == 'L' || c == 'O' || c == 'U')
            return false;
    }
    return true;
}

static bool is_case_name(const char *s)
{
    if (s == NULL || !((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')))
        return false;
    for (; *s != '\0'; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
              strchr("_./-", *s) != NULL))
            return false;
    return true;
}

static bool is_base64(const char *s)
{
    size_t n = strlen(s);
    size_t i = 0;

    size_t npad;

    while (i < n && s[i] != '=') {
        char c = s[i++];

        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
              (c >= '0' && c <= '9') || c == '+' || c == '/'))
            return false;
    }
    npad = strspn(s + i, "=");
    return i + npad == n && npad <= 2;
}

static bool one_of(const char *s, const char *const *allowed)
{
    size_t i;

    if (s == NULL)
        return false;
    for (i = 0; allowed[i] != NULL; i++)
        if (strcmp(s, allowed[i]) == 0)
            return true;
    return false;
}

/* A case's expectation; `parse` says the case is a parse request, which
 * expects a list of diagnostics that may be empty; `refs` a refs request,
 * which expects a list of traversals (or the parse's errors); `console` a
 * console request, whose value may be of (or hold) the type "type". */
static bool check_expect(json_t *expect, bool parse, bool refs_request, bool console,
                         char **why)
{
    const char *key;
    json_t *item;
    json_t *value = json_object_get(expect, "value");
    json_t *diags = json_object_get(expect, "diagnostics");
    json_t *refs = json_object_get(expect, "refs");
    char *sub = NULL;

    if (!json_is_object(expect)) {
        *why = rn_xstrdup("\"expect\" is required and must be an object");
        return false;
    }
    json_object_foreach(expect, key, item) {
        if (strcmp(key, "value") != 0 && strcmp(key, "diagnostics") != 0 &&
            strcmp(key, "refs") != 0) {
            *why = rn_xasprintf("unexpected member \"%s\" in \"expect\"", key);
            return false;
        }
    }
    if (refs_request) {
        if (value != NULL || (refs == NULL) == (diags == NULL)) {
            *why = rn_xstrdup("a refs case's \"expect\" holds exactly one of \"refs\" "
                              "and \"diagnostics\"");
            return false;
        }
        if (refs != NULL && !rn_refs_check(refs, &sub)) {
            *why = rn_xasprintf("expect.%s", sub);
            free(sub);
            return false;
        }
        if (refs != NULL)
            return true;
    } else if (refs != NULL) {
        *why = rn_xstrdup("only a refs case expects \"refs\"");
        return false;
    }
    if ((value == NULL) == (diags == NULL)) {
        *why = rn_xstrdup("\"expect\" holds exactly one of \"value\" and "
                          "\"diagnostics\"");
        return false;
    }
    if (value != NULL && !(console ? rn_console_value_check(value, &sub)
                                   : rn_value_check(value, &sub))) {
        *why = rn_xasprintf("expect.value: %s", sub);
        free(sub);
        return false;
    }
    if (diags != NULL && !rn_diags_check(diags, true, &sub)) {
        *why = rn_xasprintf("expect.diagnostics: %s", sub);
        free(sub);
        return false;
    }
    if (parse && value != NULL) {
        *why = rn_xstrdup("a parse case expects \"diagnostics\", not a \"value\"");
        return false;
    }
    if (!parse && diags != NULL && json_array_size(diags) == 0) {
        *why = rn_xstrdup("expected \"diagnostics\" must not be empty (only a parse case "
                          "may expect none)");
        return false;
    }
    return true;
}

/* The fields of a convert request (conformance/README.md, "Conversion
 * requests"): "convert_to" a type, required; "convert_mode" "unsafe" or
 * "safe"; neither of them in any other request. */
static bool check_conversion(json_t *c, char **why)
{
    static const char *const conv_modes[] = {"unsafe", "safe", NULL};
    const char *request = rn_json_str(c, "request");
    json_t *to = json_object_get(c, "convert_to");
    json_t *mode = json_object_get(c, "convert_mode");

    if (request == NULL || strcmp(request, "convert") != 0) {
        if (to != NULL || mode != NULL) {
            *why = rn_xstrdup("\"convert_to\" and \"convert_mode\" belong to a "
                              "\"convert\" request");
            return false;
        }
        return true;
    }
    if (to == NULL) {
        *why = rn_xstrdup("a \"convert\" request needs \"convert_to\"");
        return false;
    }
    if (!rn_constraint_check(to, why)) {
        char *sub = *why;

        *why = rn_xasprintf("convert_to: %s", sub);
        free(sub);
        return false;
    }
    if (mode != NULL && !one_of(json_string_value(mode), conv_modes)) {
        *why = rn_xstrdup("\"convert_mode\" must be \"unsafe\" or \"safe\"");
        return false;
    }
    return true;
}

/* A case's "host" (conformance/README.md, "Host description"): an object
 * of "files" (path -> base64), "random" (base64), and the strings "now",
 * "plan_timestamp", "home", "cwd"; nothing else. */
static bool check_host(json_t *host, char **why)
{
    static const char *const strings[] = {"now", "plan_timestamp", "home", "cwd", NULL};
    json_t *files = json_object_get(host, "files");
    json_t *random = json_object_get(host, "random");
    const char *key;
    json_t *item;
    size_t i;

    if (!json_is_object(host)) {
        *why = rn_xstrdup("\"host\" must be an object");
        return false;
    }
    json_object_foreach(host, key, item) {
        bool known = strcmp(key, "files") == 0 || strcmp(key, "random") == 0;

        for (i = 0; strings[i] != NULL && !known; i++)
            known = strcmp(key, strings[i]) == 0;
        if (!known) {
            *why = rn_xasprintf("host: unknown field \"%s\"", key);
            return false;
        }
    }
    for (i = 0; strings[i] != NULL; i++) {
        item = json_object_get(host, strings[i]);
        if (item != NULL && !json_is_string(item)) {
            *why = rn_xasprintf("host.%s must be a string", strings[i]);
            return false;
        }
    }
    if (random != NULL && (!json_is_string(random) || !is_base64(json_string_value(random)))) {
        *why = rn_xstrdup("host.random must be a base64 string");
        return false;
    }
    if (files != NULL) {
        if (!json_is_object(files)) {
            *why = rn_xstrdup("host.files must be an object of path -> base64 contents");
            return false;
        }
        json_object_foreach(files, key, item) {
            if (!json_is_string(item) || !is_base64(json_string_value(item))) {
                *why = rn_xasprintf("host.files.%s must be a base64 string", key);
                return false;
            }
        }
    }
    return true;
}

static bool check_case(json_t *c, char **why)
{
    static const char *const modes[] = {"expression", "template", NULL};
    static const char *const flavors[] = {"terraform", "opentofu", NULL};
    static const char *const requests[] = {"eval", "parse", "convert", "refs", "console",
                                           NULL};
    static const char *const lists[] = {"profiles", "requires", "tags", "spec",
                                        NULL};
    json_t *input = json_object_get(c, "input");
    json_t *input64 = json_object_get(c, "input_base64");
    json_t *vars = json_object_get(c, "variables");
    json_t *request = json_object_get(c, "request");
    size_t i;

    if (!is_case_id(rn_json_str(c, "id"))) {
        *why = rn_xstrdup("\"id\" must be 8 characters of Crockford base32 "
                          "([0-9A-HJKMNP-TV-Z]{8})");
        return false;
    }
    if (!is_case_name(rn_json_str(c, "name"))) {
        *why = rn_xstrdup("\"name\" must be a slug (lower case, digits, _ . / -)");
        return false;
    }
    if (!one_of(rn_json_str(c, "mode"), modes)) {
        *why = rn_xstrdup("\"mode\" must be \"expression\" or \"template\"");
        return false;
    }
    if (request != NULL && !one_of(json_string_value(request), requests)) {
        *why = rn_xstrdup("\"request\" must be \"eval\", \"parse\", \"convert\", "
                          "\"refs\" or \"console\"");
        return false;
    }
    if (!check_conversion(c, why))
        return false;
    if (json_object_get(c, "host") != NULL && !check_host(json_object_get(c, "host"), why))
        return false;
    /* "flavor" (conformance/README.md, "Function tables") */
    if (json_object_get(c, "flavor") != NULL &&
        !one_of(json_string_value(json_object_get(c, "flavor")), flavors)) {
        *why = rn_xstrdup("\"flavor\" must be \"terraform\" or \"opentofu\"");
        return false;
    }
    if ((input == NULL) == (input64 == NULL)) {
        *why = rn_xstrdup("a case has exactly one of \"input\" and \"input_base64\"");
        return false;
    }
    if (input != NULL && !json_is_string(input)) {
        *why = rn_xstrdup("\"input\" must be a string");
        return false;
    }
    if (input64 != NULL &&
        (!json_is_string(input64) || !is_base64(json_string_value(input64)))) {
        *why = rn_xstrdup("\"input_base64\" must be a base64 string");
        return false;
    }
    if (vars != NULL) {
        const char *key;
        json_t *item;

        if (!json_is_object(vars)) {
            *why = rn_xstrdup("\"variables\" must be an object");
            return false;
        }
        json_object_foreach(vars, key, item) {
            char *sub = NULL;

            if (!rn_value_check(item, &sub)) {
                *why = rn_xasprintf("variables.%s: %s", key, sub);
                free(sub);
                return false;
            }
        }
    }
    for (i = 0; lists[i] != NULL; i++) {
        if (!rn_json_is_str_array(json_object_get(c, lists[i]))) {
            *why = rn_xasprintf("\"%s\" must be an array of strings", lists[i]);
            return false;
        }
    }
    return check_expect(json_object_get(c, "expect"),
                        rn_json_str(c, "request") != NULL
                        && strcmp(rn_json_str(c, "request"), "parse") == 0,
                        rn_json_str(c, "request") != NULL
                        && strcmp(rn_json_str(c, "request"), "refs") == 0,
                        rn_json_str(c, "request") != NULL
                        && strcmp(rn_json_str(c, "request"), "console") == 0, why);
}

/* ------------------------------------------------------------------ */
/* Loading case files */

static void add_case(rn_suite *s, json_t *fields, char *request, const char *file)
{
    rn_case *c;

    s->cases = rn_xrealloc(s->cases, (s->ncases + 1) * sizeof(*s->cases));
    c = &s->cases[s->ncases++];
    memset(c, 0, sizeof(*c));
    c->fields = fields;
    c->request = request;
    c->id = rn_json_str(fields, "id");
    c->name = rn_json_str(fields, "name");
    c->file = rn_xstrdup(file);
}

/* A name for case i of a file in messages: its id or name if it has one. */
static char *case_label(json_t *c, size_t i)
{
    const char *id = rn_json_str(c, "id");
    const char *name = rn_json_str(c, "name");

    if (id != NULL && name != NULL)
        return rn_xasprintf("case %zu (%s %s)", i + 1, id, name);
    if (id != NULL || name != NULL)
        return rn_xasprintf("case %zu (%s)", i + 1, id != NULL ? id : name);
    return rn_xasprintf("case %zu", i + 1);
}

/* A case file made ready on a loading thread: its cases merged with the
 * file's defaults, checked, and each one's run request serialised; or
 * what is wrong with it. */
typedef struct loaded_file {
    char *error;      /* the message for rn_error, or NULL */
    json_t **cases;   /* the merged cases */
    char **requests;  /* rn_case.request of each */
    size_t ncases;
} loaded_file;

/* The case of a run request as it is sent: see rn_case_request. */
static char *serialise_request(json_t *fields)
{
    rn_case c;
    json_t *request;
    char *text;

    memset(&c, 0, sizeof(c));
    c.fields = fields;
    request = rn_case_request(&c);
    text = json_dumps(request, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(request);
    return text;
}

/* Makes the parsed case file j ready (NULL: it did not parse, why says
 * why).  It touches nothing but j, so files are made ready on several
 * threads at once. */
static void prepare_case_file(loaded_file *f, const char *path, json_t *j, char *why)
{
    json_t *defaults;
    json_t *cases;
    json_t *item;
    size_t i;

    if (j == NULL) {
        f->error = why;
        return;
    }
    defaults = json_object_get(j, "defaults");
    cases = json_object_get(j, "cases");
    if (!json_is_object(j))
        f->error = rn_xasprintf("%s: a case file must be a JSON object", path);
    else if (strcmp(rn_json_str(j, "format") != NULL ? rn_json_str(j, "format") : "",
                    "tfexpr-cases/1") != 0)
        f->error = rn_xasprintf("%s: \"format\" must be \"tfexpr-cases/1\"", path);
    else if (defaults != NULL && !json_is_object(defaults))
        f->error = rn_xasprintf("%s: \"defaults\" must be an object", path);
    else if (!json_is_array(cases))
        f->error = rn_xasprintf("%s: \"cases\" must be an array", path);
    if (f->error != NULL) {
        json_decref(j);
        return;
    }
    f->cases = rn_xcalloc(json_array_size(cases) + 1, sizeof(json_t *));
    f->requests = rn_xcalloc(json_array_size(cases) + 1, sizeof(char *));
    json_array_foreach(cases, i, item) {
        json_t *merged;
        const char *key;
        json_t *value;

        if (!json_is_object(item)) {
            f->error = rn_xasprintf("%s: case %zu is not an object", path, i + 1);
            break;
        }
        /* the case's own object, taken out of the file's JSON (which
         * nothing else uses) rather than copied: the same keys in the
         * same order, the defaults added after its own */
        merged = json_incref(item);
        json_object_foreach(defaults, key, value) {
            if (json_object_get(merged, key) == NULL)
                json_object_set(merged, key, value);
        }
        if (!check_case(merged, &why)) {
            char *label = case_label(merged, i);

            f->error = rn_xasprintf("%s: %s: %s", path, label, why);
            free(label);
            free(why);
            json_decref(merged);
            break;
        }
        f->requests[f->ncases] = serialise_request(merged);
        f->cases[f->ncases++] = merged;
    }
    json_decref(j);
}

/* Takes the cases of a file made ready; false (with the message) if it
 * had an error, after the cases before the error, as when files were
 * read one at a time. */
static bool take_case_file(rn_suite *s, loaded_file *f, const char *shown)
{
    size_t i;
    bool ok = f->error == NULL;

    for (i = 0; i < f->ncases; i++)
        add_case(s, f->cases[i], f->requests[i], shown);
    if (!ok)
        rn_error("%s", f->error);
    free(f->error);
    free(f->cases);
    free(f->requests);
    return ok;
}

/* Frees a file made ready whose cases are not taken. */
static void drop_case_file(loaded_file *f)
{
    size_t i;

    for (i = 0; i < f->ncases; i++) {
        json_decref(f->cases[i]);
        free(f->requests[i]);
    }
    free(f->error);
    free(f->cases);
    free(f->requests);
}

/* ---- Loading the case files on several threads ----
 * Parsing the JSON of the corpus is most of loading it, and the files are
 * independent: --jobs threads parse them and make them ready (jansson's
 * decoder keeps no shared state but the hash seed, set before by the
 * suite's own files; the checks read nothing but the file's own JSON),
 * and the cases are then taken out of them in file order as before, so
 * the cases, their order and the messages do not change. */

typedef struct parse_work {
    char *const *paths;
    size_t npaths;
    loaded_file *out;
    size_t next;          /* the next file to take, under lock */
    pthread_mutex_t lock;
} parse_work;

static void *parse_files_worker(void *arg)
{
    parse_work *w = arg;

    for (;;) {
        size_t i;
        json_t *j;
        char *why = NULL;

        pthread_mutex_lock(&w->lock);
        i = w->next++;
        pthread_mutex_unlock(&w->lock);
        if (i >= w->npaths)
            return NULL;
        j = rn_json_load_file(w->paths[i], &why);
        prepare_case_file(&w->out[i], w->paths[i], j, why);
    }
}

/* Loads the files on up to nthreads threads (this one included); a
 * thread that cannot be created leaves its share to the others. */
static loaded_file *parse_files(char *const *paths, size_t npaths, size_t nthreads)
{
    parse_work w;
    pthread_t *threads;
    size_t nstarted = 0;
    size_t k;

    memset(&w, 0, sizeof(w));
    w.paths = paths;
    w.npaths = npaths;
    w.out = rn_xcalloc(npaths > 0 ? npaths : 1, sizeof(*w.out));
    pthread_mutex_init(&w.lock, NULL);
    if (nthreads > npaths)
        nthreads = npaths;
    threads = rn_xcalloc(nthreads > 0 ? nthreads : 1, sizeof(*threads));
    for (k = 1; k < nthreads; k++) {
        if (pthread_create(&threads[nstarted], NULL, parse_files_worker, &w) != 0)
            break;
        nstarted++;
    }
    (void)parse_files_worker(&w);
    for (k = 0; k < nstarted; k++)
        pthread_join(threads[k], NULL);
    pthread_mutex_destroy(&w.lock);
    free(threads);
    return w.out;
}

/* qsort_r is not POSIX: the comparators see the cases through this. */
static const rn_case *sorting;

static int compare_case_ids(const void *a, const void *b)
{
    return strcmp(sorting[*(const size_t *)a].id, sorting[*(const size_t *)b].id);
}

static int compare_case_names(const void *a, const void *b)
{
    return strcmp(sorting[*(const size_t *)a].name, sorting[*(const size_t *)b].name);
}

/* Sorts s->by_id and reports duplicate ids and names. */
static bool index_cases(rn_suite *s)
{
    size_t *by_name;
    size_t i;
    bool ok = true;

    s->by_id = rn_xcalloc(s->ncases, sizeof(size_t));
    by_name = rn_xcalloc(s->ncases, sizeof(size_t));
    for (i = 0; i < s->ncases; i++) {
        s->by_id[i] = i;
        by_name[i] = i;
    }
    sorting = s->cases;
    qsort(s->by_id, s->ncases, sizeof(size_t), compare_case_ids);
    qsort(by_name, s->ncases, sizeof(size_t), compare_case_names);
    sorting = NULL;
    for (i = 1; i < s->ncases; i++) {
        const rn_case *a = &s->cases[s->by_id[i - 1]];
        const rn_case *b = &s->cases[s->by_id[i]];

        if (strcmp(a->id, b->id) == 0) {
            rn_error("duplicate case id %s: %s (%s) and %s (%s)", a->id, a->name,
                     a->file, b->name, b->file);
            ok = false;
        }
        a = &s->cases[by_name[i - 1]];
        b = &s->cases[by_name[i]];
        if (strcmp(a->name, b->name) == 0) {
            rn_error("duplicate case name %s: %s (%s) and %s (%s)", a->name, a->id,
                     a->file, b->id, b->file);
            ok = false;
        }
    }
    free(by_name);
    return ok;
}

/* Adds `path` if it is a file, or the case files under it. */
static bool collect(const char *path, rn_strlist *files)
{
    struct stat st;

    if (stat(path, &st) != 0) {
        rn_error("%s: %s", path, strerror(errno));
        return false;
    }
    if (S_ISDIR(st.st_mode))
        return walk(path, files);
    rn_strlist_add(files, rn_xstrdup(path));
    return true;
}

bool rn_suite_load_cases(rn_suite *s, char **paths, size_t npaths, size_t nthreads)
{
    rn_strlist files = {0};
    char *suite_abs = absolute_path(s->dir);
    loaded_file *parsed = NULL;
    size_t i;
    bool ok = true;

    if (npaths == 0) {
        char *dir = rn_xasprintf("%s/cases", s->dir);

        ok = collect(dir, &files);
        free(dir);
    }
    for (i = 0; i < npaths && ok; i++)
        ok = collect(paths[i], &files);
    if (ok && files.n > 0) {
        size_t n = 0;

        qsort(files.items, files.n, sizeof(*files.items), compare_strings);
        /* each file once */
        for (i = 0; i < files.n; i++) {
            if (n > 0 && strcmp(files.items[i], files.items[n - 1]) == 0)
                free(files.items[i]);
            else
                files.items[n++] = files.items[i];
        }
        files.n = n;
        parsed = parse_files(files.items, files.n, nthreads);
    }
    for (i = 0; parsed != NULL && i < files.n; i++) {
        if (ok) {
            char *shown = display_path(suite_abs, files.items[i]);

            ok = take_case_file(s, &parsed[i], shown);
            free(shown);
        } else {
            drop_case_file(&parsed[i]);
        }
    }
    free(parsed);
    if (ok)
        ok = index_cases(s);
    rn_strlist_free(&files);
    free(suite_abs);
    return ok;
}

rn_case *rn_suite_find(rn_suite *s, const char *id)
{
    size_t lo = 0;
    size_t hi = s->by_id != NULL ? s->ncases : 0;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        rn_case *c = &s->cases[s->by_id[mid]];
        int cmp = strcmp(c->id, id);

        if (cmp == 0)
            return c;
        if (cmp < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

void rn_suite_free(rn_suite *s)
{
    size_t i;

    for (i = 0; i < s->ncases; i++) {
        json_decref(s->cases[i].fields);
        free(s->cases[i].request);
        free(s->cases[i].file);
        rn_result_free(&s->cases[i].result);
    }
    free(s->cases);
    free(s->by_id);
    free(s->dir);
    json_decref(s->categories);
    json_decref(s->profiles);
    memset(s, 0, sizeof(*s));
}

/* ------------------------------------------------------------------ */
/* Selection */

static const char *const filter_kinds[] = {"id:", "name:", "tag:", "rule:",
                                           "file:", NULL};

bool rn_filter_valid(const char *filter)
{
    size_t i;

    if (strchr(filter, ':') == NULL)
        return filter[0] != '\0';
    for (i = 0; filter_kinds[i] != NULL; i++) {
        size_t n = strlen(filter_kinds[i]);

        if (strncmp(filter, filter_kinds[i], n) == 0)
            return filter[n] != '\0';
    }
    return false;
}

static bool any_matches(json_t *list, const char *pattern)
{
    size_t i;
    json_t *item;

    json_array_foreach(list, i, item) {
        const char *s = json_string_value(item);

        if (s != NULL && fnmatch(pattern, s, 0) == 0)
            return true;
    }
    return false;
}

bool rn_filter_match(const char *filter, const rn_case *c)
{
    if (strncmp(filter, "id:", 3) == 0)
        return fnmatch(filter + 3, c->id, 0) == 0;
    if (strncmp(filter, "name:", 5) == 0)
        return fnmatch(filter + 5, c->name, 0) == 0;
    if (strncmp(filter, "tag:", 4) == 0)
        return any_matches(json_object_get(c->fields, "tags"), filter + 4);
    if (strncmp(filter, "rule:", 5) == 0)
        return any_matches(json_object_get(c->fields, "spec"), filter + 5);
    if (strncmp(filter, "file:", 5) == 0)
        return fnmatch(filter + 5, c->file, 0) == 0;
    return fnmatch(filter, c->name, 0) == 0;
}

/* Whether the adapter declares `cap`.  A declared capability ending in
 * '*' covers every longer one with its prefix: "fn:*" covers fn:<name>
 * (as tools/corpus has it). */
static bool declares(json_t *capabilities, const char *cap)
{
    size_t i;
    json_t *item;

    json_array_foreach(capabilities, i, item) {
        const char *c = json_string_value(item);
        size_t n = json_string_length(item);

        if (c == NULL)
            continue;
        if (strcmp(c, cap) == 0)
            return true;
        if (n > 0 && c[n - 1] == '*' && strlen(cap) >= n &&
            strncmp(c, cap, n - 1) == 0)
            return true;
    }
    return false;
}

/* The capabilities a case needs without listing them (conformance/README.md,
 * "Applicability"): "mode.<mode>"; "request.<request>" for a request other
 * than eval; "host" when it describes its host; "flavor.opentofu" for
 * flavor opentofu.  Added to `needs`. */
static void implied_requirements(const rn_case *c, rn_strlist *needs)
{
    const char *mode = rn_json_str(c->fields, "mode");
    const char *request = rn_json_str(c->fields, "request");
    const char *flavor = rn_json_str(c->fields, "flavor");

    if (mode != NULL)
        rn_strlist_addf(needs, "mode.%s", mode);
    if (request != NULL && strcmp(request, "eval") != 0)
        rn_strlist_addf(needs, "request.%s", request);
    if (json_object_get(c->fields, "host") != NULL)
        rn_strlist_addf(needs, "host");
    if (flavor != NULL && strcmp(flavor, "opentofu") == 0)
        rn_strlist_addf(needs, "flavor.opentofu");
}

static bool strlist_has(const rn_strlist *l, const char *s)
{
    size_t i;

    for (i = 0; i < l->n; i++)
        if (strcmp(l->items[i], s) == 0)
            return true;
    return false;
}

char *rn_case_not_applicable(const rn_case *c, const char *profile,
                             json_t *capabilities)
{
    json_t *profiles = json_object_get(c->fields, "profiles");
    json_t *requires = json_object_get(c->fields, "requires");
    rn_strlist needs = {0};
    rn_strlist missing = {0};
    rn_buf list = {0};
    size_t i;
    json_t *item;
    char *why;

    if (profiles != NULL && !rn_json_array_has_str(profiles, profile)) {
        char *text = rn_json_compact(profiles);

        why = rn_xasprintf("not applicable: profile %s is not among the "
                           "case's profiles %s", profile, text);
        free(text);
        return why;
    }
    /* what its mode, request, host and flavor imply, then its "requires" */
    implied_requirements(c, &needs);
    json_array_foreach(requires, i, item) {
        const char *cap = json_string_value(item);

        if (cap != NULL && !strlist_has(&needs, cap))
            rn_strlist_add(&needs, rn_xstrdup(cap));
    }
    for (i = 0; i < needs.n; i++)
        if (!declares(capabilities, needs.items[i]))
            rn_strlist_add(&missing, rn_xstrdup(needs.items[i]));
    rn_strlist_free(&needs);
    if (missing.n == 0)
        return NULL;
    for (i = 0; i < missing.n; i++) {
        if (i > 0)
            rn_buf_adds(&list, ", ");
        rn_buf_adds(&list, missing.items[i]);
    }
    why = rn_xasprintf("not applicable: the adapter does not declare "
                       "capabilit%s %s", missing.n == 1 ? "y" : "ies", list.data);
    rn_buf_free(&list);
    rn_strlist_free(&missing);
    return why;
}

json_t *rn_case_expect(const rn_case *c)
{
    return json_object_get(c->fields, "expect");
}

json_t *rn_case_request(const rn_case *c)
{
    static const char *const fields[] = {"id", "name", "request", "mode", "input",
                                         "input_base64", "variables", "convert_to",
                                         "convert_mode", "host", "flavor", NULL};
    json_t *request = json_object();
    size_t i;

    for (i = 0; fields[i] != NULL; i++) {
        json_t *v = json_object_get(c->fields, fields[i]);

        if (v != NULL)
            json_object_set(request, fields[i], v);
        else if (strcmp(fields[i], "request") == 0)
            json_object_set_new(request, "request", json_string("eval"));
    }
    return request;
}

char *rn_case_area(const rn_case *c)
{
    const char *slash = strchr(c->name, '/');

    return slash != NULL ? rn_xstrndup(c->name, (size_t)(slash - c->name))
                         : rn_xstrdup(c->name);
}
