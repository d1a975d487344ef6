/* SPDX-License-Identifier: MPL-2.0 */
/*
 * render.c — values as text for people (render.h): Terraform's console
 * format, the notation of the design notes, and Go's string quoting.
 */
#include "render.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "text.h"

/* The text of a number as Go's Text('f', -1) writes it [num.format]. */
static void put_number(tfx_textbuf *b, const tfx_num *n)
{
    size_t len;
    const char *text = tfx_num_format(b->ctx->arena, n, &len);

    if (text == NULL)
        tfx_ctx_fail(b->ctx, "Memory limit exceeded",
                     "The evaluation needs more than the memory limit of %zu bytes.",
                     b->ctx->limits.max_memory_bytes);
    tfx_textbuf_put(b, text, len);
}

/* ---- terraform console ---- */

static void put_spaces(tfx_textbuf *b, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        tfx_textbuf_putc(b, ' ');
}

static void console_value(tfx_textbuf *b, const tfx_value *v, size_t indent);

/* A null: the conversion function that makes a null of its type, with
 * the element type in a comment for collections (FormatValue's null
 * cases). */
static void console_null(tfx_textbuf *b, const tfx_type *t)
{
    tfx_ctx *ctx = b->ctx;

    switch (t->kind) {
    case TFX_TYPE_DYNAMIC: tfx_textbuf_puts(b, "null"); break;
    case TFX_TYPE_STRING: tfx_textbuf_puts(b, "tostring(null)"); break;
    case TFX_TYPE_NUMBER: tfx_textbuf_puts(b, "tonumber(null)"); break;
    case TFX_TYPE_BOOL: tfx_textbuf_puts(b, "tobool(null)"); break;
    case TFX_TYPE_LIST:
        tfx_textbuf_printf(b, "tolist(null) /* of %s */", tfx_type_friendly(ctx, t->elem));
        break;
    case TFX_TYPE_SET:
        tfx_textbuf_printf(b, "toset(null) /* of %s */", tfx_type_friendly(ctx, t->elem));
        break;
    case TFX_TYPE_MAP:
        tfx_textbuf_printf(b, "tomap(null) /* of %s */", tfx_type_friendly(ctx, t->elem));
        break;
    default:
        tfx_textbuf_printf(b, "null /* %s */", tfx_type_friendly(ctx, t));
        break;
    }
}

/* Whether a line of a heredoc, trimmed of white space at both ends (Go's
 * strings.TrimSpace), is the delimiter delim[0..ndelim). */
static bool line_is_delimiter(const char *line, size_t nbytes, const char *delim, size_t ndelim)
{
    const unsigned char *u = (const unsigned char *)line;
    size_t lead = tfx_text_space_prefix(u, nbytes);
    size_t trail = lead == nbytes ? 0 : tfx_text_space_suffix(u + lead, nbytes - lead);
    size_t len = nbytes - lead - trail;

    return len == ndelim && memcmp(line + lead, delim, len) == 0;
}

/* A string of several lines as a heredoc (formatMultilineString): "<<"
 * at indent 0, "<<-" deeper; the delimiter EOT, with "_" added until no
 * line is the delimiter; every line and the closing delimiter indented.
 * False (nothing written) for a string without a newline. */
static bool console_heredoc(tfx_textbuf *b, tfx_str s, size_t indent)
{
    tfx_textbuf delim;
    size_t start;
    bool clash = true;

    if (s.nbytes == 0 || memchr(s.s, '\n', s.nbytes) == NULL)
        return false;
    tfx_textbuf_init(&delim, b->ctx);
    tfx_textbuf_puts(&delim, "EOT");
    while (clash) {
        clash = false;
        for (start = 0; start <= s.nbytes && !clash;) {
            const char *nl = memchr(s.s + start, '\n', s.nbytes - start);
            size_t end = nl == NULL ? s.nbytes : (size_t)(nl - s.s);

            clash = line_is_delimiter(s.s + start, end - start, delim.s, delim.nbytes);
            start = end + 1;
        }
        if (clash)
            tfx_textbuf_putc(&delim, '_');
    }
    tfx_textbuf_puts(b, indent > 0 ? "<<-" : "<<");
    tfx_textbuf_put(b, delim.s, delim.nbytes);
    for (start = 0; start <= s.nbytes;) {
        const char *nl = memchr(s.s + start, '\n', s.nbytes - start);
        size_t end = nl == NULL ? s.nbytes : (size_t)(nl - s.s);

        tfx_textbuf_putc(b, '\n');
        put_spaces(b, indent);
        tfx_textbuf_put(b, s.s + start, end - start);
        start = end + 1;
    }
    tfx_textbuf_putc(b, '\n');
    put_spaces(b, indent);
    tfx_textbuf_put(b, delim.s, delim.nbytes);
    return true;
}

static void console_string(tfx_textbuf *b, tfx_str s, size_t indent)
{
    if (!console_heredoc(b, s, indent))
        tfx_textbuf_quote(b, s.s, s.nbytes);
}

/* [ then each element on a line of its own, indented two more, with a
 * comma after it; the closing ] back at the indent (formatSequenceValue). */
static void console_sequence(tfx_textbuf *b, const tfx_value *v, size_t indent)
{
    size_t i;

    tfx_textbuf_putc(b, '[');
    for (i = 0; i < v->as.elems.n; i++) {
        tfx_textbuf_putc(b, '\n');
        put_spaces(b, indent + 2);
        console_value(b, v->as.elems.items[i], indent + 2);
        tfx_textbuf_putc(b, ',');
    }
    if (v->as.elems.n > 0) {
        tfx_textbuf_putc(b, '\n');
        put_spaces(b, indent);
    }
    tfx_textbuf_putc(b, ']');
}

/* { then `key = value` lines, keys formatted as strings, no commas
 * (formatMappingValue). */
static void console_mapping(tfx_textbuf *b, const tfx_value *v, size_t indent)
{
    size_t i;

    tfx_textbuf_putc(b, '{');
    for (i = 0; i < v->as.attrs.n; i++) {
        tfx_textbuf_putc(b, '\n');
        put_spaces(b, indent + 2);
        console_string(b, v->as.attrs.keys[i], indent + 2);
        tfx_textbuf_puts(b, " = ");
        console_value(b, v->as.attrs.vals[i], indent + 2);
    }
    if (v->as.attrs.n > 0) {
        tfx_textbuf_putc(b, '\n');
        put_spaces(b, indent);
    }
    tfx_textbuf_putc(b, '}');
}

static void type_indent(tfx_textbuf *b, size_t level)
{
    size_t i;

    for (i = 0; i < level; i++)
        tfx_textbuf_puts(b, "    ");
}

/* [fn.type.text] Terraform console's rendering of a type: type-constraint
 * syntax, an object's attributes (by name) and a tuple's elements one per
 * line with a trailing comma, four spaces per level; a list, set or map of
 * an object or tuple puts its element on a line of its own, one level
 * deeper; primitive types by name, `dynamic`, and a capsule type by its
 * name (`type` for the type of a type() result). */
static void write_type(tfx_ctx *ctx, tfx_textbuf *b, const tfx_type *t, size_t level)
{
    size_t i;

    tfx_ctx_step(ctx);
    switch (t->kind) {
    case TFX_TYPE_OBJECT:
        if (t->n == 0) {
            tfx_textbuf_puts(b, "object({})");
            return;
        }
        tfx_textbuf_puts(b, "object({\n");
        for (i = 0; i < t->n; i++) {
            type_indent(b, level + 1);
            tfx_textbuf_put(b, t->names[i].s, t->names[i].nbytes);
            tfx_textbuf_puts(b, ": ");
            write_type(ctx, b, t->elems[i], level + 1);
            tfx_textbuf_puts(b, ",\n");
        }
        type_indent(b, level);
        tfx_textbuf_puts(b, "})");
        return;
    case TFX_TYPE_TUPLE:
        if (t->n == 0) {
            tfx_textbuf_puts(b, "tuple([])");
            return;
        }
        tfx_textbuf_puts(b, "tuple([\n");
        for (i = 0; i < t->n; i++) {
            type_indent(b, level + 1);
            write_type(ctx, b, t->elems[i], level + 1);
            tfx_textbuf_puts(b, ",\n");
        }
        type_indent(b, level);
        tfx_textbuf_puts(b, "])");
        return;
    case TFX_TYPE_LIST:
    case TFX_TYPE_SET:
    case TFX_TYPE_MAP:
        tfx_textbuf_puts(b, t->kind == TFX_TYPE_LIST ? "list(" : t->kind == TFX_TYPE_SET ? "set(" : "map(");
        if (t->elem->kind == TFX_TYPE_OBJECT || t->elem->kind == TFX_TYPE_TUPLE) {
            tfx_textbuf_puts(b, "\n");
            type_indent(b, level + 1);
            write_type(ctx, b, t->elem, level + 1);
            tfx_textbuf_puts(b, ",\n");
            type_indent(b, level);
        } else {
            write_type(ctx, b, t->elem, level);
        }
        tfx_textbuf_puts(b, ")");
        return;
    case TFX_TYPE_DYNAMIC:
    case TFX_TYPE_BOOL:
    case TFX_TYPE_NUMBER:
    case TFX_TYPE_STRING:
    case TFX_TYPE_CAPSULE:
        tfx_textbuf_puts(b, tfx_type_friendly(ctx, t));
        return;
    }
}

const char *tfx_render_type_in(tfx_ctx *ctx, const tfx_type *t, size_t *nbytes)
{
    tfx_textbuf b;

    tfx_textbuf_init(&b, ctx);
    write_type(ctx, &b, t, 0);
    if (nbytes != NULL)
        *nbytes = b.nbytes;
    return tfx_textbuf_text(&b);
}

/* One value (FormatValue).  Marks other than "sensitive" are not shown;
 * a capsule of type `type` shows the type it holds [fn.type.text]. */
static void console_value(tfx_textbuf *b, const tfx_value *v, size_t indent)
{
    if (v->state == TFX_VAL_UNKNOWN) {
        tfx_textbuf_puts(b, "(known after apply)");
        return;
    }
    if (tfx_marks_has(v->marks, "sensitive")) {
        tfx_textbuf_puts(b, "(sensitive value)");
        return;
    }
    if (v->state == TFX_VAL_NULL) {
        console_null(b, v->type);
        return;
    }
    switch (v->type->kind) {
    case TFX_TYPE_STRING: console_string(b, v->as.string, indent); break;
    case TFX_TYPE_NUMBER: put_number(b, v->as.number); break;
    case TFX_TYPE_BOOL: tfx_textbuf_puts(b, v->as.boolean ? "true" : "false"); break;
    case TFX_TYPE_OBJECT: console_mapping(b, v, indent); break;
    case TFX_TYPE_TUPLE: console_sequence(b, v, indent); break;
    case TFX_TYPE_LIST:
        tfx_textbuf_puts(b, "tolist(");
        console_sequence(b, v, indent);
        tfx_textbuf_putc(b, ')');
        break;
    case TFX_TYPE_SET:
        tfx_textbuf_puts(b, "toset(");
        console_sequence(b, v, indent);
        tfx_textbuf_putc(b, ')');
        break;
    case TFX_TYPE_MAP:
        tfx_textbuf_puts(b, "tomap(");
        console_mapping(b, v, indent);
        tfx_textbuf_putc(b, ')');
        break;
    case TFX_TYPE_CAPSULE:
        write_type(b->ctx, b, v->as.capsule, 0);
        break;
    case TFX_TYPE_DYNAMIC:
        /* cty has no known value of type dynamic. */
        tfx_textbuf_puts(b, "null");
        break;
    }
}

const char *tfx_render_console_in(tfx_ctx *ctx, const tfx_value *v, size_t *nbytes)
{
    tfx_textbuf b;

    tfx_textbuf_init(&b, ctx);
    console_value(&b, v, 0);
    if (nbytes != NULL)
        *nbytes = b.nbytes;
    return tfx_textbuf_text(&b);
}

/* ---- The notation of the design notes ---- */

static void debug_value(tfx_textbuf *b, const tfx_value *v);

static void debug_marks(tfx_textbuf *b, const tfx_marks *m)
{
    size_t i;

    for (i = 0; m != NULL && i < m->n; i++) {
        tfx_textbuf_putc(b, '@');
        tfx_textbuf_put(b, m->names[i].s, m->names[i].nbytes);
    }
}

static void debug_items(tfx_textbuf *b, const tfx_value *v, const char *open, char close)
{
    size_t i;

    tfx_textbuf_puts(b, open);
    for (i = 0; i < v->as.elems.n; i++) {
        if (i > 0)
            tfx_textbuf_putc(b, ',');
        debug_value(b, v->as.elems.items[i]);
    }
    tfx_textbuf_putc(b, close);
}

static void debug_attrs(tfx_textbuf *b, const tfx_value *v, const char *open)
{
    size_t i;

    tfx_textbuf_puts(b, open);
    for (i = 0; i < v->as.attrs.n; i++) {
        if (i > 0)
            tfx_textbuf_putc(b, ',');
        tfx_textbuf_quote(b, v->as.attrs.keys[i].s, v->as.attrs.keys[i].nbytes);
        tfx_textbuf_putc(b, '=');
        debug_value(b, v->as.attrs.vals[i]);
    }
    tfx_textbuf_putc(b, '}');
}

static void debug_value(tfx_textbuf *b, const tfx_value *v)
{
    if (v->state != TFX_VAL_KNOWN) {
        tfx_textbuf_printf(b, "%s(%s)", v->state == TFX_VAL_NULL ? "null" : "unknown",
                          tfx_type_string(b->ctx, v->type));
        debug_marks(b, v->marks);
        return;
    }
    switch (v->type->kind) {
    case TFX_TYPE_STRING: tfx_textbuf_quote(b, v->as.string.s, v->as.string.nbytes); break;
    case TFX_TYPE_NUMBER: put_number(b, v->as.number); break;
    case TFX_TYPE_BOOL: tfx_textbuf_puts(b, v->as.boolean ? "true" : "false"); break;
    case TFX_TYPE_TUPLE: debug_items(b, v, "[", ']'); break;
    case TFX_TYPE_LIST: debug_items(b, v, "list[", ']'); break;
    case TFX_TYPE_SET: debug_items(b, v, "set[", ']'); break;
    case TFX_TYPE_MAP: debug_attrs(b, v, "map{"); break;
    case TFX_TYPE_OBJECT: debug_attrs(b, v, "{"); break;
    case TFX_TYPE_DYNAMIC: tfx_textbuf_puts(b, "null(dynamic)"); break;
    case TFX_TYPE_CAPSULE:
        tfx_textbuf_printf(b, "%s(%s)", v->type->name, tfx_type_string(b->ctx, v->as.capsule));
        break;
    }
    debug_marks(b, v->marks);
}

const char *tfx_render_debug_value(tfx_ctx *ctx, const tfx_value *v)
{
    tfx_textbuf b;

    tfx_textbuf_init(&b, ctx);
    debug_value(&b, v);
    return tfx_textbuf_text(&b);
}

const char *tfx_render_debug(tfx_ctx *ctx, const tfx_value *v)
{
    tfx_textbuf b;

    tfx_textbuf_init(&b, ctx);
    debug_value(&b, v);
    tfx_textbuf_puts(&b, " :: ");
    tfx_textbuf_puts(&b, tfx_type_string(ctx, v->type));
    return tfx_textbuf_text(&b);
}

/* ---- malloc'd results ---- */

typedef struct {
    const tfx_value *value;
    char *text;         /* malloc'd; NULL if malloc refused */
} console_job;

static void run_console(tfx_ctx *ctx, void *arg)
{
    console_job *job = arg;
    size_t nbytes;
    const char *text = tfx_render_console_in(ctx, job->value, &nbytes);

    job->text = malloc(nbytes + 1);
    if (job->text != NULL)
        memcpy(job->text, text, nbytes + 1);
}

char *tfx_render_console(const tfx_value *v)
{
    tfx_ctx scratch;
    console_job job;

    job.value = v;
    job.text = NULL;
    if (!tfx_ctx_init(&scratch, NULL))
        return NULL;
    (void)tfx_ctx_try(&scratch, run_console, &job);
    tfx_ctx_free(&scratch);
    return job.text;
}
