/* SPDX-License-Identifier: MPL-2.0 */
/*
 * expectations.c — an implementation's known failures
 * (conformance/README.md, "The runner"; schema/expectations.schema.json):
 *
 *   {"format": "tfexpr-expectations/1", "implementation": "...",
 *    "entries": {"<id>": {"status": "fail"|"skip", "reason": "..."}}}
 *
 * Reading one, and writing one from a run (--update-expectations): every
 * case that ran and failed or crashed gets a "fail" entry (its reason kept
 * from an existing entry, else made from the failure); entries of cases
 * that did not run this time are kept as they were; entries of cases that
 * passed are dropped.
 */
#include "runner.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool rn_expectations_load(rn_expectations *e, const char *path)
{
    char *why = NULL;
    json_t *j = rn_json_load_file(path, &why);
    json_t *entries;
    const char *id;
    json_t *entry;
    const char *format;

    if (j == NULL) {
        rn_error("%s", why);
        free(why);
        return false;
    }
    format = rn_json_str(j, "format");
    entries = json_object_get(j, "entries");
    if (format == NULL || strcmp(format, "tfexpr-expectations/1") != 0) {
        rn_error("%s: \"format\" must be \"tfexpr-expectations/1\"", path);
        json_decref(j);
        return false;
    }
    if (!json_is_object(entries)) {
        rn_error("%s: \"entries\" must be an object", path);
        json_decref(j);
        return false;
    }
    json_object_foreach(entries, id, entry) {
        const char *status = rn_json_str(entry, "status");
        json_t *reason = json_object_get(entry, "reason");

        if (status == NULL || (strcmp(status, "fail") != 0 && strcmp(status, "skip") != 0)) {
            rn_error("%s: entry %s: \"status\" must be \"fail\" or \"skip\"", path, id);
            json_decref(j);
            return false;
        }
        if (json_string_length(reason) == 0) {
            rn_error("%s: entry %s: \"reason\" must be a non-empty string", path, id);
            json_decref(j);
            return false;
        }
    }
    e->path = rn_xstrdup(path);
    e->implementation = rn_json_str(j, "implementation") != NULL
                            ? rn_xstrdup(rn_json_str(j, "implementation"))
                            : NULL;
    e->entries = json_incref(entries);
    json_decref(j);
    return true;
}

void rn_expectations_check_ids(rn_expectations *e, rn_suite *s)
{
    const char *id;
    json_t *entry;

    json_object_foreach(e->entries, id, entry) {
        if (rn_suite_find(s, id) == NULL)
            rn_warn("%s: no loaded case has the id %s", e->path, id);
    }
}

bool rn_expectations_get(rn_expectations *e, const char *id,
                         const char **status, const char **reason)
{
    json_t *entry;

    if (e == NULL || e->entries == NULL)
        return false;
    entry = json_object_get(e->entries, id);
    if (entry == NULL)
        return false;
    *status = rn_json_str(entry, "status");
    *reason = rn_json_str(entry, "reason");
    return true;
}

void rn_expectations_free(rn_expectations *e)
{
    free(e->path);
    free(e->implementation);
    json_decref(e->entries);
    memset(e, 0, sizeof(*e));
}

/* ------------------------------------------------------------------ */
/* Updating */

static bool still_fails(const rn_case *c, bool unsupported_fails)
{
    switch (c->result.outcome) {
    case RN_OUT_FAIL:
    case RN_OUT_XFAIL:
    case RN_OUT_CRASHED:
        return true;
    case RN_OUT_UNSUPPORTED:
        return unsupported_fails;
    default:
        return false;
    }
}

/* A reason for a new entry, made from the failure. */
static char *made_reason(const rn_case *c)
{
    const char *outcome = rn_outcome_name(c->result.outcome);
    char *text;
    char *reason;

    if (c->result.outcome == RN_OUT_CRASHED || c->result.outcome == RN_OUT_UNSUPPORTED) {
        if (c->result.reason == NULL)
            return rn_xstrdup(outcome);
        text = rn_utf8_quote(c->result.reason, strlen(c->result.reason),
                             RN_QUOTE_NBYTES);
        reason = rn_xasprintf("%s: %s", outcome, text);
    } else {
        text = rn_result_failed_levels(&c->result);
        reason = rn_xasprintf("fails at %s", text[0] != '\0' ? text : "some level");
    }
    free(text);
    return reason;
}

/* The previous entries: the target file's, overlaid by the loaded ones. */
static json_t *previous_entries(const char *path, rn_expectations *loaded,
                                char **implementation)
{
    json_t *prev = json_object();
    char *why = NULL;
    json_t *target = rn_json_load_file(path, &why);
    json_t *entries = json_object_get(target, "entries");
    const char *key;
    json_t *entry;

    free(why);
    if (json_is_object(entries)) {
        json_object_foreach(entries, key, entry) {
            if (json_is_object(entry))
                json_object_set(prev, key, entry);
        }
        if (rn_json_str(target, "implementation") != NULL)
            *implementation = rn_xstrdup(rn_json_str(target, "implementation"));
    }
    json_decref(target);
    if (loaded != NULL && loaded->entries != NULL) {
        json_object_foreach(loaded->entries, key, entry) {
            json_object_set(prev, key, entry);
        }
        if (loaded->implementation != NULL) {
            free(*implementation);
            *implementation = rn_xstrdup(loaded->implementation);
        }
    }
    return prev;
}

static int compare_keys(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool write_file(const char *path, const char *implementation, json_t *entries)
{
    char *tmp = rn_xasprintf("%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    const char **keys;
    size_t n = json_object_size(entries);
    size_t i = 0;
    const char *key;
    json_t *entry;
    json_t *impl = json_string(implementation);
    char *impl_text = rn_json_compact(impl);
    bool ok;

    json_decref(impl);
    if (f == NULL) {
        rn_error("%s: %s", tmp, strerror(errno));
        free(tmp);
        free(impl_text);
        return false;
    }
    keys = rn_xcalloc(n, sizeof(*keys));
    json_object_foreach(entries, key, entry) {
        keys[i++] = key;
    }
    qsort(keys, n, sizeof(*keys), compare_keys);
    fprintf(f, "{\n  \"format\": \"tfexpr-expectations/1\",\n"
               "  \"implementation\": %s,\n  \"entries\": {", impl_text);
    for (i = 0; i < n; i++) {
        json_t *e = json_object_get(entries, keys[i]);
        json_t *out = json_object();
        char *text;

        json_object_set(out, "status", json_object_get(e, "status"));
        json_object_set(out, "reason", json_object_get(e, "reason"));
        text = json_dumps(out, JSON_COMPACT | JSON_PRESERVE_ORDER);
        fprintf(f, "%s\n    \"%s\": %s", i > 0 ? "," : "", keys[i],
                text != NULL ? text : "{}");
        free(text);
        json_decref(out);
    }
    fprintf(f, "%s}\n}\n", n > 0 ? "\n  " : "");
    free(keys);
    free(impl_text);
    ok = !ferror(f);
    if (fclose(f) != 0)
        ok = false;
    if (ok && rename(tmp, path) != 0)
        ok = false;
    if (!ok) {
        rn_error("%s: cannot write: %s", path, strerror(errno));
        (void)remove(tmp);
    }
    free(tmp);
    return ok;
}

bool rn_expectations_update(const char *path, rn_expectations *loaded,
                            rn_suite *s, const char *implementation,
                            bool unsupported_fails)
{
    char *impl = NULL;
    json_t *prev = previous_entries(path, loaded, &impl);
    json_t *entries = json_object();
    const char *key;
    json_t *entry;
    size_t i;
    bool ok;

    /* Entries of cases that did not run now (or are not loaded) stay. */
    json_object_foreach(prev, key, entry) {
        rn_case *c = rn_suite_find(s, key);

        if (c == NULL || !c->result.ran)
            json_object_set(entries, key, entry);
    }
    for (i = 0; i < s->ncases; i++) {
        const rn_case *c = &s->cases[i];
        json_t *old = json_object_get(prev, c->id);
        const char *old_reason = rn_json_str(old, "reason");
        json_t *e;

        if (!c->result.ran || !still_fails(c, unsupported_fails))
            continue;
        e = json_object();
        json_object_set_new(e, "status", json_string("fail"));
        if (old_reason != NULL && old_reason[0] != '\0')
            json_object_set_new(e, "reason", json_string(old_reason));
        else {
            char *reason = made_reason(c);

            json_object_set_new(e, "reason", json_string(reason));
            free(reason);
        }
        json_object_set_new(entries, c->id, e);
    }
    if (impl == NULL)
        impl = rn_xstrdup(implementation != NULL ? implementation : "unknown");
    ok = write_file(path, impl, entries);
    free(impl);
    json_decref(prev);
    json_decref(entries);
    return ok;
}
