/* SPDX-License-Identifier: MPL-2.0 */
/*
 * diag.c — positions, ranges and diagnostic lists.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

tfx_range tfx_range_between(tfx_range a, tfx_range b)
{
    tfx_range r;

    r.start = a.start;
    r.end = b.end;
    return r;
}

tfx_range tfx_range_at(tfx_pos p)
{
    tfx_range r;

    r.start = p;
    r.end = p;
    return r;
}

static const char *const category_ids[] = {
#define TFX_CAT_ID(name, id) id,
    TFX_CATEGORIES(TFX_CAT_ID)
#undef TFX_CAT_ID
};

const char *tfx_category_id(tfx_category c)
{
    return (size_t)c < TFX_CAT_COUNT ? category_ids[c] : "unknown";
}

void tfx_diags_init(tfx_diags *d, tfx_arena *arena)
{
    memset(d, 0, sizeof(*d));
    d->arena = arena;
}

tfx_diag *tfx_diags_add(tfx_diags *d, tfx_phase phase, tfx_category cat,
                        const char *summary, const tfx_range *subject,
                        const tfx_range *context, const char *detail_fmt, ...)
{
    tfx_diag *item;
    va_list ap;
    int len;
    char *detail;

    if (d->n == d->cap) {
        size_t cap = d->cap == 0 ? 8 : d->cap * 2;
        tfx_diag *items = tfx_arena_alloc(d->arena, cap * sizeof(*items));

        if (items == NULL) {
            d->out_of_memory = true;
            return NULL;
        }
        if (d->n > 0)
            memcpy(items, d->items, d->n * sizeof(*items));
        d->items = items;
        d->cap = cap;
    }
    va_start(ap, detail_fmt);
    len = vsnprintf(NULL, 0, detail_fmt, ap);
    va_end(ap);
    detail = len < 0 ? NULL : tfx_arena_alloc(d->arena, (size_t)len + 1);
    if (detail == NULL) {
        d->out_of_memory = true;
        return NULL;
    }
    va_start(ap, detail_fmt);
    vsnprintf(detail, (size_t)len + 1, detail_fmt, ap);
    va_end(ap);
    item = &d->items[d->n++];
    memset(item, 0, sizeof(*item));
    item->severity = TFX_SEV_ERROR;
    item->phase = phase;
    item->category = cat;
    item->summary = summary;
    item->detail = detail;
    if (subject != NULL) {
        item->has_subject = true;
        item->subject = *subject;
    }
    if (context != NULL) {
        item->has_context = true;
        item->context = *context;
    }
    return item;
}

bool tfx_diags_has_errors(const tfx_diags *d)
{
    size_t i;

    if (d->out_of_memory)
        return true;
    for (i = 0; i < d->n; i++)
        if (d->items[i].severity == TFX_SEV_ERROR)
            return true;
    return false;
}
