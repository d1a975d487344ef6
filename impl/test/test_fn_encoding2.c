/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_fn_encoding2.c — unit tests of Terraform's encoding functions of
 * spec/functions-encoding.md (funcs_encoding.c: base64encode,
 * base64decode, urlencode, textencodebase64, textdecodebase64): direct
 * calls with tfx_func_call, the tables of the single-byte encodings made
 * from glibc's iconv, and the limits.
 *
 * Expectations were checked against the reference adapter
 * (bin/go-hcl-adapter) with the same calls, except the round trips and
 * limits, which are tfexpr's own.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "common.h"
#include "funcs_internal.h"
#include "render.h"
#include "testval.h"

/* The outcome of name called with a (and b when n is 2); a string without
 * its " :: string". */
static const char *scall(const char *name, size_t n, const tfx_value *a, const tfx_value *b)
{
    return bare(call(name, n, a, b));
}

static const char *enc(const char *s, const char *encoding)
{
    return scall("textencodebase64", 2, S(s), S(encoding));
}

static const char *dec(const char *s, const char *encoding)
{
    return scall("textdecodebase64", 2, S(s), S(encoding));
}

#define BAD64 "arg 0: the given value has an invalid base64 symbol at offset "
#define UNDEF "arg 0: the given string contains symbols that are not defined for "

/* [fn.base64.decode] Go's offsets. */
static void test_base64_offsets(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    CHECK_STR(dec("AAAAAA\n", "utf-8"), BAD64 "5");
    CHECK_STR(dec("AAAAA", "utf-8"), BAD64 "4");
    CHECK_STR(dec("A", "utf-8"), BAD64 "0");
    CHECK_STR(dec("AA=", "utf-8"), BAD64 "3");
    CHECK_STR(dec("AA=\n\n", "utf-8"), BAD64 "5");
    CHECK_STR(dec("AA=x", "utf-8"), BAD64 "2");
    CHECK_STR(dec("AAA=\nx", "utf-8"), BAD64 "5");
    CHECK_STR(dec("=AAA", "utf-8"), BAD64 "0");
    CHECK_STR(dec("A=AA", "utf-8"), BAD64 "1");
    CHECK_STR(dec("AB\r\nC=", "utf-8"), "\"\\x00\\x10\"");
    CHECK_STR(dec("QUJD\nREVG", "utf-8"), "\"ABCDEF\"");
    CHECK_STR(dec("", "utf-8"), "\"\"");
}

/* [fn.base64encode] [fn.base64decode] [fn.base64decode.marks] [fn.urlencode] */
static void test_base64_url(tfx_ctx *ctx, void *unused)
{
    const tfx_value *secret;

    (void)unused;
    C = ctx;
    CHECK_STR(scall("base64encode", 1, S("Hello, World!"), NULL), "\"SGVsbG8sIFdvcmxkIQ==\"");
    CHECK_STR(scall("base64encode", 1, S(""), NULL), "\"\"");
    CHECK_STR(scall("base64decode", 1, S("SGk=\n"), NULL), "\"Hi\"");
    CHECK_STR(scall("base64decode", 1, S("SGk"), NULL),
              "error: failed to decode base64 data \"SGk\"");
    CHECK_STR(scall("base64decode", 1, S("\t"), NULL),
              "error: failed to decode base64 data \"\\t\"");
    CHECK_STR(scall("base64decode", 1, S("/w=="), NULL),
              "error: the result of decoding the provided string is not valid UTF-8");
    secret = tfx_value_mark(C, S("!!!"), tfx_marks_one(C, "sensitive", 9));
    CHECK_STR(scall("base64decode", 1, secret, NULL),
              "error: failed to decode base64 data (sensitive value)");
    secret = tfx_value_mark(C, S("Zm9v"), tfx_marks_one(C, "sensitive", 9));
    CHECK(strstr(scall("base64decode", 1, secret, NULL), "foo") != NULL);
    CHECK(strstr(scall("base64decode", 1, secret, NULL), "sensitive") != NULL);
    CHECK_STR(scall("urlencode", 1, S("!*'();:@&=+$,/?#[] ~-._"), NULL),
              "\"%21%2A%27%28%29%3B%3A%40%26%3D%2B%24%2C%2F%3F%23%5B%5D+~-._\"");
    CHECK_STR(scall("urlencode", 1, S("h\xc3\xa9"), NULL), "\"h%C3%A9\"");
}

/* [fn.textencoding.names] */
static void test_names(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    CHECK_STR(dec("QQ==", "\xe3\x80\x80utf-8\xc2\x85"), "\"A\"");
    CHECK_STR(dec("QQ==", "\xc2\xa0UTF-8"), "\"A\"");
    CHECK_STR(enc("h\xc3\xa9llo", "\xc4\xb0" "bm437"), "\"aIJsbG8=\"");
    CHECK_STR(enc("h\xc3\xa9llo", " LATIN1 "), "\"aOlsbG8=\"");
    CHECK_STR(dec("QQ==", "utf8"),
              "arg 1: \"utf8\" is not a supported IANA encoding name or alias in this Terraform "
              "version");
    CHECK_STR(enc("x", ""),
              "arg 1: \"\" is not a supported IANA encoding name or alias in this Terraform "
              "version");
    CHECK_STR(enc("x", "CESU-8"),
              "arg 1: \"CESU-8\" is not a supported IANA encoding name or alias in this "
              "Terraform version");
    CHECK_STR(enc("\xe2\x82\xac", "latin1"),
              "arg 0: the given string contains characters that cannot be represented in "
              "ISO_8859-1:1987");
    CHECK_STR(enc("\xe2\x82\xac", "windows-1252"), "\"gA==\"");
}

/* [fn.textencoding.convert] [fn.textencoding.sbcs] [fn.textencoding.hz] */
static void test_convert(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    CHECK_STR(dec("rg==", "koi8-u"), "\"\xd1\x9e\"");
    CHECK_STR(enc("\xd1\x9e", "koi8-u"), "\"rg==\"");
    CHECK_STR(dec("8A==", "mac"), "\"\\uf8ff\"");
    CHECK_STR(enc("\xef\xa3\xbf", "macintosh"), "\"8A==\"");
    CHECK_STR(dec("yg==", "windows-1255"), "\"\xd6\xba\"");
    CHECK_STR(dec("gA==", "l2"), UNDEF "ISO_8859-2:1987");
    CHECK_STR(dec("gA==", "latin1"), "\"\\u0080\"");
    CHECK_STR(dec("wcLD", "ibm037"), "\"ABC\"");
    CHECK_STR(enc("ABC", "cp037"), "\"wcLD\"");
    CHECK_STR(enc("a~b\xe4\xb8\xad\xe6\x96\x87" "c~", "hz-gb-2312"), "\"YX5+Yn57VlBORH59Y35+\"");
    CHECK_STR(dec("YX5+Yn57VlBORH59Y35+", "hz-gb-2312"),
              "\"a~b\xe4\xb8\xad\xe6\x96\x87" "c~\"");
    CHECK_STR(dec("fg==", "hz-gb-2312"), UNDEF "HZ-GB-2312");
    CHECK_STR(dec("fnhh", "hz-gb-2312"), UNDEF "HZ-GB-2312");
    CHECK_STR(dec("fgph", "hz-gb-2312"), "\"a\"");
    CHECK_STR(dec("fntW", "hz-gb-2312"), UNDEF "HZ-GB-2312");
    CHECK_STR(dec("/v8=", "utf-16"), "\"\"");
    CHECK_STR(dec("/v8=", "utf-16be"), "\"\\ufeff\"");
    CHECK_STR(dec("2D3eAA==", "utf-16be"), "\"\xf0\x9f\x98\x80\"");
    CHECK_STR(dec("2D0=", "utf-16be"), UNDEF "UTF-16BE");
    CHECK_STR(dec("3gA=", "utf-16be"), UNDEF "UTF-16BE");
    CHECK_STR(enc("\xf0\x9f\x98\x80", "utf-16"), "\"/v/YPd4A\"");
    CHECK_STR(enc("", "utf-16"), "\"/v8=\"");
    CHECK_STR(dec("77+9", "utf-8"), UNDEF "UTF-8");
    CHECK_STR(enc("ab\xc3\xa7", "us-ascii"),
              "arg 0: the given string contains characters that cannot be represented in "
              "US-ASCII");
    CHECK_STR(enc("\xed\x95\x9c\xea\xb5\xad\xec\x96\xb4", "euc-kr"), "\"x9Gxub7u\"");
}

/* [fn.textencoding.gbk] x/text's GBK over glibc's GBK and GB18030. */
static void test_gbk(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    CHECK_STR(enc("\xc7\xb9\xe3\x80\xbe\xe2\xbf\xb0", "gbk"), "\"qL+piamK\"");
    CHECK_STR(dec("qL+piamK", "gbk"), "\"\xc7\xb9\xe3\x80\xbe\xe2\xbf\xb0\"");
    CHECK_STR(dec("o6A=", "gbk"), "\"\\u3000\"");
    CHECK_STR(dec("qLw=", "gbk"), UNDEF "GBK");
    CHECK_STR(enc("\xe1\xb8\xbf", "gbk"),
              "arg 0: the given string contains characters that cannot be represented in GBK");
    CHECK_STR(enc("\xe2\x82\xac", "gbk"), "\"gA==\"");
    CHECK_STR(enc("\xe2\x82\xac", "hz-gb-2312"), "\"fnsiYw==\"");
    CHECK_STR(dec("gA==", "gbk"), "\"\xe2\x82\xac\"");
    CHECK_STR(dec("/w==", "gbk"), UNDEF "GBK");
}

/* [fn.textencoding.sjis] x/text's Shift_JIS over CP932. */
static void test_sjis(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    CHECK_STR(enc("\xe2\x85\xb0", "shift_jis"), "\"7u8=\""); /* U+2170: NEC row, not 0xFA40 */
    CHECK_STR(enc("\xe4\xbb\xa1", "shift_jis"), "\"7U0=\""); /* U+4EE1 */
    CHECK_STR(enc("\xc2\xa5", "shift_jis"),
              "arg 0: the given string contains characters that cannot be represented in Shift_JIS");
    CHECK_STR(enc("\xee\x80\x80", "shift_jis"),
              "arg 0: the given string contains characters that cannot be represented in Shift_JIS");
    CHECK_STR(dec("gA==", "shift_jis"), "\"\\u0080\"");
    CHECK_STR(dec("gICA", "shift_jis"), "\"\\u0080\\u0080\\u0080\"");
    CHECK_STR(dec("8EA=", "shift_jis"), UNDEF "Shift_JIS");
    CHECK_STR(dec("+kA=", "shift_jis"), "\"\xe2\x85\xb0\"");
    CHECK_STR(dec("k/qWew==", "shift_jis"), "\"\xe6\x97\xa5\xe6\x9c\xac\"");
}

/* Every byte of every single-byte encoding that is defined decodes to a
 * character that encodes back to that byte (the table is one to one, as
 * x/text's is). */
static void test_roundtrip(tfx_ctx *ctx, void *unused)
{
    static const char *const names[] = {
        "IBM037", "IBM437", "IBM850", "IBM852", "IBM855", "IBM00858", "IBM860", "IBM862",
        "IBM863", "IBM865", "IBM866", "IBM1047", "IBM01140", "latin1", "latin2", "latin3",
        "latin4", "cyrillic", "arabic", "ISO_8859-6-E", "ISO_8859-6-I", "greek", "hebrew",
        "ISO_8859-8-E", "ISO_8859-8-I", "latin5", "latin6", "ISO-8859-13", "ISO-8859-14",
        "ISO-8859-15", "ISO-8859-16", "KOI8-R", "KOI8-U", "macintosh", "windows-874",
        "windows-1250", "windows-1251", "windows-1252", "windows-1253", "windows-1254",
        "windows-1255", "windows-1256", "windows-1257", "windows-1258"};
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    int defined = 0;
    const tfx_function *decode;

    (void)unused;
    C = ctx;
    decode = tfx_func_builtin("textdecodebase64", 16);
    for (size_t i = 0; i < TFX_COUNTOF(names); i++) {
        for (int b = 0; b < 256; b++) {
            char in[5];
            const tfx_value *args[2], *text;
            const char *back;
            tfx_func_error err = {-1, NULL};

            in[0] = b64[b >> 2];
            in[1] = b64[(b & 3) << 4];
            in[2] = in[3] = '=';
            in[4] = '\0';
            args[0] = S(in);
            args[1] = S(names[i]);
            text = tfx_func_call(C, decode, args, 2, &err);
            if (text == NULL)
                continue;
            defined++;
            back = scall("textencodebase64", 2, text, args[1]);
            CHECK_STR(back, tfx_ctx_printf(C, "\"%s\"", in));
        }
    }
    CHECK(defined > 10000);
}

/* A result past the string limit fails the evaluation. */
static void encode_too_long(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    (void)enc("abcdefghijklmnopqrstuvwxyz", "utf-16");
}

static void url_too_long(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    (void)scall("urlencode", 1, S("//////////////"), NULL);
}

int main(void)
{
    tfx_ctx_limits limits;

    CHECK(run("base64 offsets", test_base64_offsets));
    CHECK(run("base64 and url", test_base64_url));
    CHECK(run("names", test_names));
    CHECK(run("convert", test_convert));
    CHECK(run("sjis", test_sjis));
    CHECK(run("gbk", test_gbk));
    CHECK(run("roundtrip", test_roundtrip));

    tfx_ctx_limits_init(&limits);
    limits.max_string_bytes = 30;
    CHECK_STR(run_limited(&limits, encode_too_long, NULL), "String length limit exceeded");
    CHECK_STR(run_limited(&limits, url_too_long, NULL), "String length limit exceeded");
    return check_report("test_fn_encoding2");
}
