/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_fn_cidr.c — unit tests of the IP network functions of
 * spec/functions-network.md (funcs_cidr.c): direct calls with
 * tfx_func_call, including what the conformance corpus cannot hold (the
 * band of shifts where upstream runs out of memory, numbers of a million
 * digits) and tfexpr's own checks.
 *
 * Every expectation that upstream can answer was checked against the
 * reference adapter (bin/go-hcl-adapter) with the call in the comment or
 * the test.
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "common.h"
#include "funcs_internal.h"
#include "render.h"
#include "testval.h"

static const char *host(const char *prefix, const char *num)
{
    const tfx_value *a[2];

    a[0] = S(prefix);
    a[1] = N(num);
    return bare(call_args("cidrhost", 2, a));
}

static const char *netmask(const char *prefix)
{
    const tfx_value *a[1];

    a[0] = S(prefix);
    return bare(call_args("cidrnetmask", 1, a));
}

static const char *subnet(const char *prefix, const char *bits, const char *num)
{
    const tfx_value *a[3];

    a[0] = S(prefix);
    a[1] = N(bits);
    a[2] = N(num);
    return bare(call_args("cidrsubnet", 3, a));
}

static const char *subnets(const char *prefix, const char *b1, const char *b2, const char *b3)
{
    const tfx_value *a[4];
    size_t n = 1;

    a[0] = S(prefix);
    if (b1 != NULL)
        a[n++] = N(b1);
    if (b2 != NULL)
        a[n++] = N(b2);
    if (b3 != NULL)
        a[n++] = N(b3);
    return bare(call_args("cidrsubnets", n, a));
}

#define PANIC "error: panic in function implementation: runtime error: "

/* [fn.cidr.parse] */
static void test_parse(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    CHECK_STR(host("010.001.0.0/16", "3"), "\"10.1.0.3\"");
    CHECK_STR(host("10.0.0.0/033", "3"), "error: invalid CIDR expression: invalid CIDR address: "
                                         "10.0.0.0/033");
    CHECK_STR(host("10.0.0.0/32", "0"), "\"10.0.0.0\"");
    CHECK_STR(host("0000000010.0.0.0/8", "1"), "\"10.0.0.1\"");
    CHECK_STR(host("16777215.0.0.0/8", "1"),
              "error: invalid CIDR expression: invalid CIDR address: 16777215.0.0.0/8");
    CHECK_STR(host("10.0.0.0/+8", "1"),
              "error: invalid CIDR expression: invalid CIDR address: 10.0.0.0/+8");
    CHECK_STR(host("10.0.0.0/8/8", "1"),
              "error: invalid CIDR expression: invalid CIDR address: 10.0.0.0/8/8");
    CHECK_STR(host("FD00::/8", "1"), "\"fd00::1\"");
    CHECK_STR(host("1:2:3:4:5:6:7:8:9/128", "0"),
              "error: invalid CIDR expression: invalid CIDR address: 1:2:3:4:5:6:7:8:9/128");
    CHECK_STR(host("1::2::3/128", "0"),
              "error: invalid CIDR expression: invalid CIDR address: 1::2::3/128");
    CHECK_STR(host("1:2:3:4::5:6:7:8/128", "0"),
              "error: invalid CIDR expression: invalid CIDR address: 1:2:3:4::5:6:7:8/128");
    CHECK_STR(host("10000::/8", "0"),
              "error: invalid CIDR expression: invalid CIDR address: 10000::/8");
    CHECK_STR(host("::1.2.3.4/128", "0"), "\"::102:304\"");
    CHECK_STR(host("1:2:3:4:5:6:001.2.3.4/128", "0"), "\"1:2:3:4:5:6:102:304\"");
    CHECK_STR(host("1:2:3:4:5:1.2.3.4/128", "0"),
              "error: invalid CIDR expression: invalid CIDR address: 1:2:3:4:5:1.2.3.4/128");
    CHECK_STR(host("1:/128", "0"), "error: invalid CIDR expression: invalid CIDR address: 1:/128");
    CHECK_STR(host("::/0", "0"), "\"::\"");
}

/* [fn.cidr.text] */
static void test_text(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    CHECK_STR(host("1:0:0:4:0:0:0:8/128", "0"), "\"1:0:0:4::8\"");
    CHECK_STR(host("1:0:0:4:0:0:7:8/128", "0"), "\"1::4:0:0:7:8\"");
    CHECK_STR(host("1:0:3:4:5:6:7:8/128", "0"), "\"1:0:3:4:5:6:7:8\"");
    CHECK_STR(host("0:0:0:0:0:0:0:1/128", "0"), "\"::1\"");
    CHECK_STR(host("1:0:0:0:0:0:0:0/128", "0"), "\"1::\"");
    CHECK_STR(host("::ffff:1.2.3.4/128", "0"), "\"1.2.3.4\"");
    CHECK_STR(subnet("::/0", "96", "281470681743360"), "\"0:0:0:ffff::/96\"");
    CHECK_STR(subnet("::/0", "96", "65535"), "\"0.0.0.0/0\"");
    CHECK_STR(subnet("10.0.0.0/8", "-9223372036854775808", "0"), "\"<nil>\"");
}

/* [fn.cidr.numbers] */
static void test_numbers(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    CHECK_STR(host("10.0.0.0/8", "1.5"), "error: value must be a whole number");
    CHECK_STR(host("bad", "1.5"), "error: value must be a whole number");
    CHECK_STR(host("10.0.0.0/8", "-0"), "\"10.0.0.0\"");
    CHECK_STR(subnet("10.0.0.0/8", "9223372036854775808", "0"),
              "error: value must be a whole number, between -9223372036854775808 and "
              "9223372036854775807");
    CHECK_STR(subnet("10.0.0.0/8", "4", "0.5"), "error: value must be a whole number");
    CHECK_STR(subnets("10.0.0.0/30", "1.5", NULL, NULL),
              "arg 1: value must be a whole number, between -9223372036854775808 and "
              "9223372036854775807");
    CHECK_STR(subnets("bad", "1.5", NULL, NULL),
              "arg 0: invalid CIDR expression: invalid CIDR address: bad");
}

/* [fn.cidrhost.result] */
static void test_host(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    CHECK_STR(host("10.12.112.0/20", "268"), "\"10.12.113.12\"");
    CHECK_STR(host("10.12.112.0/20", "-1"), "\"10.12.127.255\"");
    CHECK_STR(host("10.12.112.0/20", "-4096"), "\"10.12.112.0\"");
    CHECK_STR(host("10.12.112.0/20", "-4097"),
              "error: prefix of 20 does not accommodate a host numbered -1");
    CHECK_STR(host("10.12.112.0/20", "4096"),
              "error: prefix of 20 does not accommodate a host numbered 4096");
    CHECK_STR(host("10.0.0.0/30", "-500000000000000000000000"),
              "error: prefix of 30 does not accommodate a host numbered "
              "-499999999999999999999996");
    CHECK_STR(host("::/0", "-340282366920938463463374607431768211456"), "\"::\"");
    CHECK_STR(host("::/0", "340282366920938463463374607431768211455"),
              "\"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff\"");
    CHECK_STR(host("::/0", "340282366920938463463374607431768211456"), PANIC "index out of range [-1]");
    CHECK_STR(host("::/64", "18446744073709551621"), "\"::1:0:0:0:5\"");
    CHECK_STR(host("10.0.0.0/8", "9223372036854775808"), PANIC "index out of range [-1]");
    CHECK_STR(host("10.0.0.0/8", "18446744073709551616"), PANIC "index out of range [-1]");
    CHECK_STR(host("10.0.0.0/8", "1e1000000"), PANIC "index out of range [-1]");
    CHECK_STR(host("10.0.0.0/30", "-1e30"),
              "error: prefix of 30 does not accommodate a host numbered "
              "-999999999999999999999999999996");
    CHECK_STR(host("::ffff:0:0/96", "5"), "\"0:5::ffff:0:0\"");
    CHECK_STR(host("::ffff:10.0.0.0/120", "1"), "\"0:1::ffff:a00:0\"");
}

/* [fn.cidrnetmask.result] */
static void test_netmask(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    CHECK_STR(netmask("172.16.0.0/12"), "\"255.240.0.0\"");
    CHECK_STR(netmask("0.0.0.0/0"), "\"0.0.0.0\"");
    CHECK_STR(netmask("::ffff:1.2.3.4/120"), "\"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00\"");
    CHECK_STR(netmask("::/64"), "error: IPv6 addresses cannot have a netmask: ::/64");
    CHECK_STR(netmask("x"), "error: invalid CIDR expression: invalid CIDR address: x");
}

/* [fn.cidrsubnet.result] [fn.cidr.panic] */
static void test_subnet(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    CHECK_STR(subnet("172.16.0.0/12", "4", "2"), "\"172.18.0.0/16\"");
    CHECK_STR(subnet("fd00:fd12:3456:7890::/56", "16", "162"),
              "\"fd00:fd12:3456:7800:a200::/72\"");
    CHECK_STR(subnet("10.0.0.0/8", "8", "-1"), "\"0.1.0.0/16\"");
    CHECK_STR(subnet("10.0.0.0/8", "-3", "-4"), "\"22.0.0.0/5\"");
    CHECK_STR(subnet("10.0.0.0/8", "-8", "-1"), "\"246.0.0.0/0\"");
    CHECK_STR(subnet("10.0.0.0/8", "-1", "1"), "\"10.0.0.0/7\"");
    CHECK_STR(subnet("10.0.0.0/8", "25", "0"),
              "error: insufficient address space to extend prefix of 8 by 25");
    CHECK_STR(subnet("10.0.0.0/8", "24", "16777216"),
              "error: prefix extension of 24 does not accommodate a subnet numbered 16777216");
    CHECK_STR(subnet("255.0.0.0/8", "24", "-16777216"),
              "error: prefix extension of 24 does not accommodate a subnet numbered -16777216");
    CHECK_STR(subnet("::/0", "100", "18446744073709551621"), "\"0:0:1000::5000:0/100\"");
    CHECK_STR(subnet("::/0", "64", "18446744073709551621"), PANIC "index out of range [-1]");
    CHECK_STR(subnet("10.0.0.0/8", "-100", "-1"), PANIC "index out of range [-1]");
    CHECK_STR(subnet("10.0.0.0/8", "9223372036854775807", "0"), "\"<nil>\"");
    CHECK_STR(subnet("10.0.0.0/8", "9223372036854775807", "1"), PANIC "makeslice: len out of range");
    /* math/big's slice of 2^45-3 .. 2^45 words: only the capacity is too large */
    CHECK_STR(subnet("10.0.0.0/8", "-2251799813684904", "1"), PANIC "makeslice: cap out of range");
    CHECK_STR(subnet("10.0.0.0/8", "-2251799813685096", "1"), PANIC "makeslice: cap out of range");
    CHECK_STR(subnet("10.0.0.0/8", "-2251799813685160", "1"), PANIC "makeslice: len out of range");
    /* a slice Go would try to allocate (2^45-4 words; upstream dies out of
     * memory): tfexpr answers as Go does with the memory [fn.cidr.panic] */
    CHECK_STR(subnet("10.0.0.0/8", "-2251799813684840", "1"), PANIC "index out of range [-1]");
    CHECK_STR(subnet("10.0.0.0/8", "-68719476736", "1"), PANIC "index out of range [-1]");
    CHECK_STR(subnet("10.0.0.0/8", "4", "1e1000"), PANIC "index out of range [-1]");
    CHECK_STR(subnet("::ffff:10.0.0.0/104", "8", "3"), "\"10.3.0.0/16\"");
}

/* [fn.cidrsubnets.result] [fn.cidrsubnets.errors] */
static void test_subnets(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    CHECK_STR(subnets("10.1.0.0/16", "4", "8", "4"),
              "list[\"10.1.0.0/20\",\"10.1.16.0/24\",\"10.1.32.0/20\"] :: list(string)");
    CHECK_STR(subnets("10.0.0.0/8", NULL, NULL, NULL), "list[] :: list(string)");
    CHECK_STR(subnets("10.0.0.0/30", "1", "1", "1"),
              "arg 3: not enough remaining address space for a subnet with a prefix of 31 bits "
              "after 10.0.0.2/31");
    CHECK_STR(subnets("10.0.0.0/30", "0", NULL, NULL),
              "arg 1: must extend prefix by at least one bit");
    CHECK_STR(subnets("10.0.0.0/30", "1", "33", NULL),
              "arg 2: may not extend prefix by more than 32 bits");
    CHECK_STR(subnets("10.0.0.0/30", "3", NULL, NULL),
              "arg 1: would extend prefix to 33 bits, which is too long for an IPv4 address");
    CHECK_STR(subnets("::/100", "29", NULL, NULL),
              "arg 1: would extend prefix to 129 bits, which is too long for an IPv6 address");
    CHECK_STR(subnets("::ffff:10.0.0.0/104", "8", NULL, NULL),
              "arg 1: not enough remaining address space for a subnet with a prefix of 112 bits "
              "after <nil>");
    CHECK_STR(subnets("0.0.0.0/0", "1", "1", "1"),
              "arg 1: not enough remaining address space for a subnet with a prefix of 1 bits "
              "after 128.0.0.0/1");
    CHECK_STR(subnets("::/80", "16", "16", NULL),
              "arg 1: not enough remaining address space for a subnet with a prefix of 96 bits "
              "after ffff:ffff:ffff:ffff:ffff:ffff::/96");
}

/* Every prefix length of both families through all four functions:
 * nothing fails outside the rules (results are texts or the errors
 * above). */
static void test_sweep(tfx_ctx *ctx, void *unused)
{
    (void)unused;
    C = ctx;
    for (int len = 0; len <= 128; len++) {
        const char *r = host(tfx_ctx_printf(C, "fd00:1234::ffff/%d", len), "-1");

        CHECK(r[0] == '"');
        r = subnets(tfx_ctx_printf(C, "fd00:1234::/%d", len), "1", "2", "3");
        CHECK(strncmp(r, "list[", 5) == 0 || strncmp(r, "arg ", 4) == 0);
        if (len <= 32) {
            r = netmask(tfx_ctx_printf(C, "192.168.7.9/%d", len));
            CHECK(r[0] == '"');
            r = subnet(tfx_ctx_printf(C, "192.168.7.9/%d", len), "0", "0");
            CHECK(r[0] == '"');
        }
    }
    CHECK_STR(netmask("1.2.3.4/17"), "\"255.255.128.0\"");
}

int main(void)
{
    CHECK(run("parse", test_parse));
    CHECK(run("text", test_text));
    CHECK(run("numbers", test_numbers));
    CHECK(run("host", test_host));
    CHECK(run("netmask", test_netmask));
    CHECK(run("subnet", test_subnet));
    CHECK(run("subnets", test_subnets));
    CHECK(run("sweep", test_sweep));
    return check_report("test_fn_cidr");
}
