/* SPDX-License-Identifier: MPL-2.0 */
/*
 * test_convert.c — unit tests of conversion and unification (convert.h,
 * spec/conversion.md): table-driven, one row per case, covering every
 * example of the design notes' rules C1–C21 (but C20, functions) and the
 * unification of Q3, plus the upstream quirks kept on purpose.
 *
 * Values and types are written in the typed JSON of the conformance corpus
 * (conformance/README.md "Typed values") with ' for ", expected values in
 * the notation of semantics.md 0.3 as tfx_render_debug prints it ("VALUE
 * :: TYPE"), and expected failures as "! message" (cty's exact text).
 * Every row was checked against the reference adapter (bin/go-hcl-adapter,
 * HCL 2.14.1 + cty 1.12.1; where upstream picks one of several failures at
 * random, the row says so): with TFX_TEST_CONVERT_DUMP set, the program
 * prints each row's input and result as typed JSON, for comparison with
 * the adapter's answers to the same convert requests.
 */
#include "convert.h"

#include <stdlib.h>

#include "check.h"
#include "jsonio.h"
#include "render.h"

#define U TFX_CONVERT_UNSAFE
#define S TFX_CONVERT_SAFE

/* Types used often. */
#define T_LS "['list','string']"
#define T_LN "['list','number']"
#define T_LA "['list','dynamic']"
#define T_SS "['set','string']"
#define T_SA "['set','dynamic']"
#define T_MS "['map','string']"
#define T_MA "['map','dynamic']"

/* Fixture values of semantics.md 0.4. */
#define V_ST "{'type':['set','string'],'v':[{'v':'b'},{'v':'a'},{'v':'c'},{'v':'B'},{'v':'aa'}]}"
#define V_M                                                                             \
    "{'type':['map','string'],'v':{'b':{'v':'y'},'a':{'v':'x'},'B':{'v':'z'},'10':{'v':" \
    "'ten'},'9':{'v':'nine'}}}"
#define V_LU "{'type':['list','string'],'v':[{'v':'a'},{'unknown':true}]}"
#define V_STU "{'type':['set','string'],'v':[{'v':'a'},{'unknown':true}]}"
#define V_SENSL "{'type':['list','string'],'v':[{'v':'a'},{'v':'b','marks':['sensitive']}]}"
#define V_NUL "{'type':'dynamic','null':true}"
#define V_DYN "{'type':'dynamic','unknown':true}"

typedef struct {
    const char *rule;  /* the rules it exercises */
    const char *value; /* typed JSON */
    const char *type;  /* JSON type */
    tfx_convert_mode mode;
    const char *want;  /* "VALUE :: TYPE", or "! message" */
} conv_row;

static const conv_row conv_rows[] = {
    /* [conv.def] (C1) a value of the wanted type is returned as it is,
     * marks and all (no element is re-made) */
    {"conv.def C1", "{'type':'string','v':'s','marks':['sensitive']}", "'string'", U,
     "\"s\"@sensitive :: string"},
    {"conv.def C1",
     "{'type':['list','string'],'v':[{'null':true,'marks':['sensitive']},{'v':'a'}]}", T_LS, U,
     "list[null(string)@sensitive,\"a\"] :: list(string)"},
    {"conv.def C1", "{'type':['map','string'],'v':{'a':{'v':'x'}}}", T_MS, S,
     "map{\"a\"=\"x\"} :: map(string)"},

    /* [conv.prim.*] (C2) the primitive table */
    {"conv.prim.num-str C2", "{'type':'number','v':'1.25'}", "'string'", U,
     "\"1.25\" :: string"},
    {"conv.prim.num-str C2", "{'type':'number','v':'1e-7'}", "'string'", S,
     "\"0.0000001\" :: string"},
    {"conv.prim.num-str", "{'type':'number','v':'-0'}", "'string'", U, "\"-0\" :: string"},
    {"conv.prim.num-str", "{'type':'number','v':'inf'}", "'string'", U, "\"+Inf\" :: string"},
    {"conv.prim.num-str", "{'type':'number','v':'-inf'}", "'string'", U, "\"-Inf\" :: string"},
    {"conv.prim.num-str", "{'type':'number','v':'1e30'}", "'string'", U,
     "\"1000000000000000000000000000000\" :: string"},
    {"conv.prim.num-str", "{'type':'number','v':'0.1'}", "'string'", U, "\"0.1\" :: string"},
    {"conv.prim.bool-str C2", "{'type':'bool','v':true}", "'string'", S, "\"true\" :: string"},
    {"conv.prim.bool-str C2", "{'type':'bool','v':false}", "'string'", U,
     "\"false\" :: string"},
    {"conv.prim.str-num N11", "{'type':'string','v':'1e3'}", "'number'", U, "1000 :: number"},
    {"conv.prim.str-num", "{'type':'string','v':'1p4'}", "'number'", U, "16 :: number"},
    {"conv.prim.str-num", "{'type':'string','v':'Inf'}", "'number'", U, "+Inf :: number"},
    {"conv.prim.str-num", "{'type':'string','v':'-12.50'}", "'number'", U, "-12.5 :: number"},
    {"conv.prim.str-num C3", "{'type':'string','v':' 1'}", "'number'", U,
     "! a number is required"},
    {"conv.prim.str-num C3", "{'type':'string','v':'0x10'}", "'number'", U,
     "! a number is required"},
    {"conv.prim.str-num C3", "{'type':'string','v':''}", "'number'", U,
     "! a number is required"},
    {"conv.prim.str-num", "{'type':'string','v':'nan'}", "'number'", U,
     "! a number is required"},
    {"conv.mode", "{'type':'string','v':'1'}", "'number'", S, "! number required"},
    {"conv.prim.str-bool C2", "{'type':'string','v':'1'}", "'bool'", U, "true :: bool"},
    {"conv.prim.str-bool C2", "{'type':'string','v':'0'}", "'bool'", U, "false :: bool"},
    {"conv.prim.str-bool", "{'type':'string','v':'true'}", "'bool'", U, "true :: bool"},
    {"conv.prim.str-bool", "{'type':'string','v':'false'}", "'bool'", U, "false :: bool"},
    {"conv.mode", "{'type':'string','v':'true'}", "'bool'", S, "! bool required"},
    {"conv.prim.none C2", "{'type':'number','v':'1'}", "'bool'", U, "! bool required"},
    {"conv.prim.none C2", "{'type':'bool','v':true}", "'number'", U, "! number required"},
    {"conv.prim.none C2", "{'type':['tuple',['number']],'v':[{'v':'1'}]}", "'string'", U,
     "! string required"},
    {"conv.prim.none", "{'type':'string','v':'a'}", T_LS, U, "! list of string required"},

    /* [conv.prim.str-bool] (C3) the hints */
    {"conv.prim.str-bool C3", "{'type':'string','v':'TRUE'}", "'bool'", U,
     "! a bool is required; to convert from string, use lowercase \"true\""},
    {"conv.prim.str-bool C3", "{'type':'string','v':'True'}", "'bool'", U,
     "! a bool is required; to convert from string, use lowercase \"true\""},
    {"conv.prim.str-bool C3", "{'type':'string','v':'tRuE'}", "'bool'", U,
     "! a bool is required; to convert from string, use lowercase \"true\""},
    {"conv.prim.str-bool C3", "{'type':'string','v':'False'}", "'bool'", U,
     "! a bool is required; to convert from string, use lowercase \"false\""},
    {"conv.prim.str-bool C3", "{'type':'string','v':'FALSE'}", "'bool'", U,
     "! a bool is required; to convert from string, use lowercase \"false\""},
    {"conv.prim.str-bool C3", "{'type':'string','v':'t'}", "'bool'", U,
     "! a bool is required"},
    {"conv.prim.str-bool C3", "{'type':'string','v':'yes'}", "'bool'", U,
     "! a bool is required"},
    {"conv.prim.str-bool C3", "{'type':'string','v':''}", "'bool'", U,
     "! a bool is required"},
    {"conv.prim.str-bool C3", "{'type':'string','v':' true'}", "'bool'", U,
     "! a bool is required"},
    {"conv.prim.str-bool", "{'type':'string','v':'\\u0130'}", "'bool'", U,
     "! a bool is required"},

    /* [conv.mismatch] (C4) P14 wording */
    {"conv.mismatch C4", "{'type':['list','number'],'v':[{'v':'1'}]}", "['list','bool']", U,
     "! incorrect list element type: bool required"},
    {"conv.mismatch", "{'type':['set','bool'],'v':[{'v':true}]}", T_LN, U,
     "! incorrect list element type: number required"},
    {"conv.mismatch", "{'type':['map',['list','bool']],'v':{}}", "['map',['set','number']]", U,
     "! incorrect map element type: incorrect set element type: number required"},
    {"conv.mismatch C8", "{'type':['map','string'],'v':{}}", T_LS, U,
     "! list of string required"},
    {"conv.mismatch", "{'type':['map','string'],'v':{}}", T_LA, U,
     "! list of any single type required"},
    {"conv.mismatch C8", "{'type':['list','string'],'v':[]}", T_MS, U,
     "! map of string required"},
    {"conv.mismatch", "{'type':['tuple',['string','bool']],'v':[{'v':'a'},{'v':true}]}", T_LN,
     U, "! element 1: number required"},
    {"conv.mismatch", "{'type':['tuple',['string','bool']],'v':[{'v':'a'},{'v':true}]}", T_LN,
     S, "! element 1: number required"},
    {"conv.mismatch", "{'type':['object',{'a':'number','b':'bool'}],'v':{'a':{'v':'1'},'b':{'v':true}}}",
     "['map','number']", U, "! element \"b\": number required"},
    {"conv.mismatch", "{'type':['object',{'a':'number'}],'v':{'a':{'v':'1'}}}", T_LS, U,
     "! list of string required"},
    {"conv.mismatch", "{'type':['tuple',['number']],'v':[{'v':'1'}]}", T_MS, U,
     "! map of string required"},
    {"conv.mismatch", "{'type':['list','string'],'v':[{'v':'a'}]}", T_SS, S,
     "! incorrect set element type: string required"},
    {"conv.mismatch", "{'type':['tuple',['number']],'v':[{'v':'1'}]}", "['tuple',['bool']]", U,
     "! tuple required"},
    {"conv.mismatch", V_NUL, "'number'", S, "! number required"},
    {"conv.mismatch", "{'type':'string','v':'x'}", "['object',{'a':'string'}]", U,
     "! object required"},

    /* [conv.null] (C5) nulls, dynamic parts filled from the source type */
    {"conv.null C5", V_NUL, "'number'", U, "null(number) :: number"},
    {"conv.null C5", "{'type':['tuple',['string']],'null':true}", T_LA, U,
     "null(list(string)) :: list(string)"},
    {"conv.null C5", V_NUL, T_LA, U, "null(list(dynamic)) :: list(dynamic)"},
    {"conv.null", "{'type':['object',{'a':'number','b':'string'}],'null':true}", T_MA, U,
     "null(map(string)) :: map(string)"},
    {"conv.null", "{'type':['object',{}],'null':true}", T_MA, U,
     "null(map(dynamic)) :: map(dynamic)"},
    {"conv.null", "{'type':['map','number'],'null':true}", "['object',{'a':'dynamic'}]", U,
     "null(object({a=number})) :: object({a=number})"},
    {"conv.null", "{'type':['tuple',['number','dynamic']],'null':true}",
     "['tuple',['dynamic','string']]", U,
     "null(tuple([number,string])) :: tuple([number,string])"},
    {"conv.null", "{'type':['list',['tuple',['number']]],'null':true}",
     "['list',['list','dynamic']]", U, "null(list(list(number))) :: list(list(number))"},
    {"conv.null", "{'type':['list','string'],'null':true}", T_SA, U,
     "null(set(string)) :: set(string)"},
    {"conv.null", "{'type':['object',{'a':'number','b':'bool'}],'null':true}",
     "['object',{'a':'dynamic'}]", U, "null(object({a=number})) :: object({a=number})"},
    {"conv.null", "{'type':'number','null':true}", "'bool'", U, "! bool required"},
    {"conv.null", "{'type':'string','null':true,'marks':['sensitive']}", "'number'", U,
     "null(number)@sensitive :: number"},

    /* [conv.unknown] (C6) unknowns, no content check */
    {"conv.unknown C6", "{'type':'string','unknown':true}", "'number'", U,
     "unknown(number) :: number"},
    {"conv.unknown C6", "{'type':['tuple',['string','number']],'unknown':true}", T_LA, U,
     "unknown(list(string)) :: list(string)"},
    {"conv.unknown C6", "{'type':['object',{'a':'string','b':'number'}],'unknown':true}", T_MA,
     U, "unknown(map(string)) :: map(string)"},
    {"conv.unknown C6", V_DYN, T_LA, U, "unknown(list(dynamic)) :: list(dynamic)"},
    {"conv.unknown", "{'type':'string','unknown':true}", "'bool'", U, "unknown(bool) :: bool"},
    {"conv.unknown", "{'type':'string','unknown':true}", "'number'", S, "! number required"},
    {"conv.dynamic", V_DYN, "'number'", S, "! number required"},
    {"conv.dynamic", V_DYN, "'number'", U, "unknown(number) :: number"},
    {"conv.dynamic", V_DYN, "'dynamic'", S, "unknown(dynamic) :: dynamic"},

    /* [conv.dynamic] (C7) to dynamic: unchanged */
    {"conv.dynamic C7", "{'type':['tuple',['number']],'v':[{'v':'1'}]}", "'dynamic'", U,
     "[1] :: tuple([number])"},
    {"conv.dynamic C7", "{'type':['tuple',['number']],'v':[{'v':'1'}],'marks':['m']}",
     "'dynamic'", S, "[1]@m :: tuple([number])"},
    {"conv.dynamic", V_NUL, "'dynamic'", U, "null(dynamic) :: dynamic"},
    {"conv.dynamic", "{'type':'string','v':'s'}", "['tuple',['dynamic']]", U,
     "! tuple required"},

    /* [conv.seq.*] (C8) lists and sets */
    {"conv.seq.list C8", V_ST, T_LS, S,
     "list[\"B\",\"a\",\"aa\",\"b\",\"c\"] :: list(string)"},
    {"conv.seq.list", "{'type':['set','number'],'v':[{'v':'10'},{'v':'2'},{'v':'-1.5'}]}", T_LS,
     U, "list[\"-1.5\",\"2\",\"10\"] :: list(string)"},
    {"conv.seq.list", "{'type':['list','number'],'v':[{'v':'1'},{'v':'2'}]}", T_LA, S,
     "list[1,2] :: list(number)"},
    {"conv.seq.list", "{'type':['list','string'],'v':[{'v':'1'},{'v':'x'}]}", T_LN, U,
     "! a number is required"},
    {"conv.seq.list", "{'type':['list','string'],'v':[]}", T_LA, U,
     "list[] :: list(string)"},
    {"conv.seq.list", "{'type':['set','string'],'v':[]}", T_LN, U, "list[] :: list(number)"},
    {"conv.seq.set C8", "{'type':['list','string'],'v':[{'v':'b'},{'v':'a'},{'v':'b'}]}", T_SS,
     U, "set[\"a\",\"b\"] :: set(string)"},
    {"conv.seq.set C8", "{'type':['list','string'],'v':[{'v':'b'}]}", T_SS, S,
     "! incorrect set element type: string required"},
    {"conv.seq.set", "{'type':['set','string'],'v':[{'v':'1'},{'v':'01'}]}",
     "['set','number']", U, "set[1] :: set(number)"},
    {"conv.seq.set", "{'type':['set','number'],'v':[{'v':'1'}]}", T_SS, S,
     "set[\"1\"] :: set(string)"},
    {"conv.seq.set", "{'type':['list','number'],'v':[]}", T_SA, U, "set[] :: set(number)"},
    {"conv.map.map C8", "{'type':['map','number'],'v':{'b':{'v':'2'},'a':{'v':'1'}}}", T_MS, S,
     "map{\"a\"=\"1\",\"b\"=\"2\"} :: map(string)"},
    {"conv.map.map", "{'type':['map','string'],'v':{'a':{'v':'1'},'b':{'v':'x'}}}",
     "['map','number']", U, "! a number is required"},
    {"conv.map.map", "{'type':['map','string'],'v':{}}", T_MA, U, "map{} :: map(string)"},
    {"conv.map.map", "{'type':['map','string'],'v':{}}", "['map','bool']", U,
     "map{} :: map(bool)"},

    /* [conv.tuple.list] [conv.tuple.any] (C9) */
    {"conv.tuple.list C9", "{'type':['tuple',['number','string']],'v':[{'v':'1'},{'v':'a'}]}",
     T_LA, U, "list[\"1\",\"a\"] :: list(string)"},
    {"conv.tuple.any C9", "{'type':['tuple',['number','bool']],'v':[{'v':'1'},{'v':true}]}",
     T_LA, U, "! all list elements must have the same type"},
    {"conv.tuple.list C9", "{'type':['tuple',[]],'v':[]}", T_LA, U, "list[] :: list(dynamic)"},
    {"conv.tuple.list", "{'type':['tuple',[]],'v':[]}", T_LS, S, "list[] :: list(string)"},
    {"conv.tuple.list C9", "{'type':['tuple',['dynamic']],'v':[{'null':true}]}", T_LA, U,
     "list[null(dynamic)] :: list(dynamic)"},
    {"conv.tuple.list C9",
     "{'type':['tuple',['dynamic','string']],'v':[{'null':true},{'v':'a'}]}", T_LA, U,
     "list[null(string),\"a\"] :: list(string)"},
    {"conv.tuple.any",
     "{'type':['tuple',['dynamic','string']],'v':[{'null':true},{'v':'a'}]}", T_LA, S,
     "! all list elements must have the same type"},
    {"conv.tuple.list C9",
     "{'type':['tuple',[['tuple',[]],['tuple',['number']]]],'v':[{'v':[]},{'v':[{'v':'1'}]}]}",
     T_LA, U, "list[list[],list[1]] :: list(list(number))"},
    {"conv.tuple.list C9",
     "{'type':['tuple',[['object',{}],['object',{'a':'number'}]]],'v':[{'v':{}},{'v':{'a':{'v':'1'}}}]}",
     T_LA, U, "list[map{},map{\"a\"=1}] :: list(map(number))"},
    {"conv.tuple.any C9",
     "{'type':['tuple',[['object',{'a':'number'}],['object',{'a':'bool'}]]],'v':[{'v':{'a':{'v':'1'}}},{'v':{'a':{'v':true}}}]}",
     T_LA, U, "! all list elements must have the same type"},
    {"conv.tuple.any C9",
     "{'type':['tuple',[['tuple',['number']],['tuple',['bool']]]],'v':[{'v':[{'v':'1'}]},{'v':[{'v':true}]}]}",
     T_LA, U, "! all list elements must have the same type"},
    {"conv.tuple.list C9", "{'type':['tuple',['string','string']],'v':[{'v':'a'},{'v':'b'}]}",
     T_LN, U, "! a number is required"},
    {"conv.tuple.list", "{'type':['tuple',['string','string']],'v':[{'v':'1'},{'v':'b'}]}",
     T_LN, U, "! a number is required"},
    {"conv.tuple.list",
     "{'type':['tuple',['string','dynamic']],'v':[{'v':'a'},{'unknown':true,'marks':['m']}]}",
     T_LA, U, "list[\"a\",unknown(string)@m] :: list(string)"},
    {"conv.tuple.list",
     "{'type':['tuple',['string','dynamic']],'v':[{'v':'a'},{'null':true,'marks':['m']}]}",
     T_LS, U, "list[\"a\",null(string)@m] :: list(string)"},

    /* [conv.tuple.any] (C10) nested unification */
    {"conv.tuple.any C10",
     "{'type':['tuple',[['tuple',['number']],['tuple',['string']]]],'v':[{'v':[{'v':'1'}]},{'v':[{'v':'a'}]}]}",
     T_LA, U, "list[[\"1\"],[\"a\"]] :: list(tuple([string]))"},
    {"conv.tuple.any C10",
     "{'type':['tuple',[['tuple',['number']],['tuple',['string']]]],'v':[{'v':[{'v':'1'}]},{'v':[{'v':'a'}]}]}",
     "['list',['list','dynamic']]", U, "list[list[\"1\"],list[\"a\"]] :: list(list(string))"},
    {"conv.tuple.any C10",
     "{'type':['tuple',[['tuple',['number']],['tuple',['number','number']]]],'v':[{'v':[{'v':'1'}]},{'v':[{'v':'1'},{'v':'2'}]}]}",
     T_LA, U, "list[list[1],list[1,2]] :: list(list(number))"},
    {"conv.tuple.any C10",
     "{'type':['tuple',[['object',{'a':'number'}],['object',{'b':'number'}]]],'v':[{'v':{'a':{'v':'1'}}},{'v':{'b':{'v':'1'}}}]}",
     T_LA, U, "list[map{\"a\"=1},map{\"b\"=1}] :: list(map(number))"},
    {"conv.tuple.any C10",
     "{'type':['tuple',[['object',{'a':'number'}],['object',{'a':'number','b':'number'}]]],'v':[{'v':{'a':{'v':'1'}}},{'v':{'a':{'v':'1'},'b':{'v':'2'}}}]}",
     T_LA, U, "list[map{\"a\"=1},map{\"a\"=1,\"b\"=2}] :: list(map(number))"},
    {"conv.tuple.any C10",
     "{'type':['tuple',[['object',{'a':'number'}],['object',{'a':'string'}]]],'v':[{'v':{'a':{'v':'1'}}},{'v':{'a':{'v':'x'}}}]}",
     T_LA, U, "list[{\"a\"=\"1\"},{\"a\"=\"x\"}] :: list(object({a=string}))"},

    /* [conv.seq.set] [conv.tuple.set] (C11) sets deduplicate after conversion */
    {"conv.tuple.set C11", "{'type':['tuple',['number','string']],'v':[{'v':'1'},{'v':'1'}]}",
     T_SA, U, "set[\"1\"] :: set(string)"},
    {"conv.tuple.set C11",
     "{'type':['tuple',['number','number','string']],'v':[{'v':'1'},{'v':'1.0'},{'v':'1'}]}",
     "['set','number']", U, "set[1] :: set(number)"},
    {"conv.tuple.set C11",
     "{'type':['tuple',['string','string','string']],'v':[{'v':'b'},{'v':'a'},{'v':'b'}]}",
     T_SA, U, "set[\"a\",\"b\"] :: set(string)"},
    {"conv.tuple.set C11",
     "{'type':['tuple',['dynamic','dynamic']],'v':[{'null':true},{'null':true}]}", T_SA, U,
     "set[null(dynamic)] :: set(dynamic)"},
    {"conv.tuple.set", "{'type':['tuple',[]],'v':[]}", T_SA, U, "set[] :: set(dynamic)"},
    {"conv.tuple.set",
     "{'type':['tuple',['number','bool']],'v':[{'v':'1'},{'v':true}]}", T_SA, U,
     "! all set elements must have the same type"},
    {"conv.tuple.set",
     "{'type':['tuple',[['tuple',['number']],['tuple',['string']]]],'v':[{'v':[{'v':'1'}]},{'v':[{'v':'a'}]}]}",
     "['set',['list','dynamic']]", U,
     "! element types must all match for conversion to set"},
    {"conv.tuple.set", "{'type':['tuple',['string','dynamic']],'v':[{'v':'a'},{'unknown':true}]}",
     T_SS, U, "set[\"a\",unknown(string)] :: set(string)"},
    {"conv.tuple.set", "{'type':['tuple',['string','string']],'v':[{'v':'a'},{'v':'x'}]}",
     "['set','bool']", U, "! a bool is required"},

    /* [conv.object.map] (C12) */
    {"conv.object.map C12",
     "{'type':['object',{'a':'number','b':'string'}],'v':{'a':{'v':'1'},'b':{'v':'x'}}}", T_MA,
     U, "map{\"a\"=\"1\",\"b\"=\"x\"} :: map(string)"},
    {"conv.object.map C12",
     "{'type':['object',{'a':'number','b':'bool'}],'v':{'a':{'v':'1'},'b':{'v':true}}}", T_MA, U,
     "! all map elements must have the same type"},
    {"conv.object.map C12", "{'type':['object',{}],'v':{}}", T_MA, U, "map{} :: map(dynamic)"},
    {"conv.object.map", "{'type':['object',{}],'v':{}}", "['map','number']", S,
     "map{} :: map(number)"},
    {"conv.object.map C12",
     "{'type':['object',{'a':['object',{'x':'number'}],'b':['object',{'y':'number'}]}],'v':{'a':{'v':{'x':{'v':'1'}}},'b':{'v':{'y':{'v':'1'}}}}}",
     T_MA, U, "map{\"a\"=map{\"x\"=1},\"b\"=map{\"y\"=1}} :: map(map(number))"},
    {"conv.object.map C12",
     "{'type':['object',{'a':['object',{'x':'number'}],'b':['object',{'x':'string'}]}],'v':{'a':{'v':{'x':{'v':'1'}}},'b':{'v':{'x':{'v':'s'}}}}}",
     T_MA, U, "map{\"a\"={\"x\"=\"1\"},\"b\"={\"x\"=\"s\"}} :: map(object({x=string}))"},
    {"conv.object.map",
     "{'type':['object',{'a':'number','b':'string'}],'v':{'a':{'v':'1'},'b':{'v':'x'}}}",
     "['map','number']", U, "! a number is required"},
    {"conv.object.map",
     "{'type':['object',{'a':['list','string'],'b':'dynamic'}],'v':{'a':{'v':[{'v':'x'}]},'b':{'null':true}}}",
     T_MA, U, "map{\"a\"=list[\"x\"],\"b\"=null(list(string))} :: map(list(string))"},
    {"conv.object.map",
     "{'type':['object',{'a':'dynamic','b':'number'}],'v':{'a':{'unknown':true},'b':{'v':'2'}}}",
     T_MA, U, "map{\"a\"=unknown(number),\"b\"=2} :: map(number)"},

    /* [conv.object.object] (C13) */
    {"conv.object.object C13",
     "{'type':['object',{'a':'string','b':'number'}],'v':{'a':{'v':'x'},'b':{'v':'1'}}}",
     "['object',{'a':'string'}]", S, "{\"a\"=\"x\"} :: object({a=string})"},
    {"conv.object.object C13", "{'type':['object',{'a':'string'}],'v':{'a':{'v':'x'}}}",
     "['object',{'a':'string','c':'string'}]", U, "! attribute \"c\" is required"},
    {"conv.object.object C13", "{'type':['object',{'a':'string'}],'v':{'a':{'v':'x'}}}",
     "['object',{'a':'string','d':'string','c':'string'}]", U,
     "! attributes \"c\" and \"d\" are required"},
    {"conv.object.object C13", "{'type':['object',{'a':'string'}],'v':{'a':{'v':'x'}}}",
     "['object',{'a':'number','e':'bool','d':'string','c':'string'}]", U,
     "! attributes \"c\", \"d\", and \"e\" are required"},
    {"conv.object.object", "{'type':['object',{'a':'number'}],'v':{'a':{'v':'1'}}}",
     "['object',{'a':'string'}]", S, "{\"a\"=\"1\"} :: object({a=string})"},
    {"conv.object.object", "{'type':['object',{'a':'string'}],'v':{'a':{'v':'x'}}}",
     "['object',{'a':'number'}]", U, "! a number is required"},
    {"conv.object.object", "{'type':['object',{'a':'string'}],'v':{'a':{'v':'1'}}}",
     "['object',{'a':'number'}]", S, "! attribute \"a\": number required"},
    /* two attributes qualify: upstream names one at random, tfexpr the
     * first in name order (also below for a missing map key) */
    {"conv.object.object", "{'type':['object',{'a':'bool','b':'number'}],'v':{'a':{'v':true},'b':{'v':'1'}}}",
     "['object',{'a':'number','b':'bool'}]", U, "! attribute \"a\": number required"},
    {"conv.object.object", "{'type':['object',{'a':'string','b':'bool'}],'v':{'a':{'v':'1'},'b':{'v':true}}}",
     "['object',{'a':'number','b':'number'}]", S, "! attribute \"b\": number required"},
    {"conv.object.object", "{'type':['object',{'a b':'string'}],'v':{'a b':{'v':'1'}}}",
     "['object',{'a\\\"\\n':'number'}]", U, "! attribute \"a\\\"\\n\" is required"},
    {"conv.object.object", "{'type':['object',{}],'v':{}}", "['object',{'a':'dynamic'}]", U,
     "! attribute \"a\" is required"},
    {"conv.object.object",
     "{'type':['object',{'a':'dynamic','b':'number'}],'v':{'a':{'null':true},'b':{'v':'1'}}}",
     "['object',{'a':'string','b':'dynamic'}]", U,
     "{\"a\"=null(string),\"b\"=1} :: object({a=string,b=number})"},

    /* [conv.map.object] (C14) unsafe only */
    {"conv.map.object C14", V_M, "['object',{'a':'string'}]", U,
     "{\"a\"=\"x\"} :: object({a=string})"},
    {"conv.map.object C14", "{'type':['map','string'],'v':{}}", "['object',{'a':'string'}]", U,
     "! map has no element for required attribute \"a\""},
    {"conv.map.object C14", V_M, "['object',{}]", U, "{} :: object({})"},
    {"conv.map.object", V_M, "['object',{'a':'string'}]", S, "! object required"},
    {"conv.map.object", "{'type':['map','string'],'v':{'b':{'v':'2'},'a':{'v':'1'}}}",
     "['object',{'a':'number','b':'dynamic'}]", U, "{\"a\"=1,\"b\"=\"2\"} :: object({a=number,b=string})"},
    {"conv.map.object", "{'type':['map','string'],'v':{'a':{'v':'x'}}}",
     "['object',{'a':'number'}]", U, "! a number is required"},
    {"conv.map.object", "{'type':['map','string'],'v':{'b':{'v':'x'}}}",
     "['object',{'zz':'string','a':'string'}]", U,
     "! map has no element for required attribute \"a\""},
    {"conv.map.object", "{'type':['map','bool'],'v':{'a':{'v':true}}}",
     "['object',{'a':'number'}]", U, "! object required"},

    /* [conv.tuple.tuple] [conv.none] (C15) */
    {"conv.tuple.tuple C15", "{'type':['tuple',['number','string']],'v':[{'v':'1'},{'v':'a'}]}",
     "['tuple',['string','string']]", S, "[\"1\",\"a\"] :: tuple([string,string])"},
    {"conv.tuple.tuple C15", "{'type':['tuple',['number']],'v':[{'v':'1'}]}",
     "['tuple',['number','number']]", U, "! tuple required"},
    {"conv.none C15", "{'type':['list','number'],'v':[{'v':'1'}]}", "['tuple',['number']]", U,
     "! tuple required"},
    {"conv.none", V_ST, "['tuple',['string','string','string','string','string']]", U,
     "! tuple required"},
    {"conv.tuple.tuple", "{'type':['tuple',['string','dynamic']],'v':[{'v':'x'},{'null':true}]}",
     "['tuple',['bool','number']]", U, "! a bool is required"},
    {"conv.tuple.tuple", "{'type':['tuple',['string','dynamic']],'v':[{'v':'true'},{'null':true}]}",
     "['tuple',['bool','number']]", U, "[true,null(number)] :: tuple([bool,number])"},

    /* (Q3) the conversions of the conditional's branches */
    {"conv.tuple.tuple Q3", "{'type':['tuple',['dynamic']],'v':[{'null':true}]}",
     "['tuple',['number']]", U, "[null(number)] :: tuple([number])"},
    {"conv.object.object Q3", "{'type':['object',{'a':'dynamic'}],'v':{'a':{'unknown':true}}}",
     "['object',{'a':'number'}]", U, "{\"a\"=unknown(number)} :: object({a=number})"},
    {"conv.tuple.tuple Q3", "{'type':['tuple',['number','string']],'v':[{'v':'1'},{'v':'a'}]}",
     "['tuple',['string','string']]", U, "[\"1\",\"a\"] :: tuple([string,string])"},
    {"conv.tuple.list Q3", "{'type':['tuple',['number']],'v':[{'v':'1'}]}", T_LS, U,
     "list[\"1\"] :: list(string)"},
    {"conv.object.map Q3", "{'type':['object',{'a':'number'}],'v':{'a':{'v':'1'}}}", T_MS, U,
     "map{\"a\"=\"1\"} :: map(string)"},

    /* [conv.marks] (C17) marks stay where they are */
    {"conv.marks C17", "{'type':'number','v':'7','marks':['sensitive']}", "'string'", U,
     "\"7\"@sensitive :: string"},
    {"conv.marks C17", V_SENSL, T_LA, U,
     "list[\"a\",\"b\"@sensitive] :: list(string)"},
    {"conv.marks", V_SENSL, T_SS, U, "set[\"a\",\"b\"]@sensitive :: set(string)"},
    {"conv.marks",
     "{'type':['list','string'],'v':[{'v':'a'},{'v':'b'}],'marks':['sensitive']}", T_SS, U,
     "set[\"a\",\"b\"]@sensitive :: set(string)"},
    {"conv.marks",
     "{'type':['tuple',['string','number']],'v':[{'v':'s','marks':['sensitive']},{'v':'1','marks':['other']}]}",
     T_LA, U, "list[\"s\"@sensitive,\"1\"@other] :: list(string)"},
    {"conv.marks",
     "{'type':['object',{'a':'string','b':'number'}],'v':{'a':{'v':'x','marks':['sensitive']},'b':{'v':'1'}}}",
     T_MA, U, "map{\"a\"=\"x\"@sensitive,\"b\"=\"1\"} :: map(string)"},
    {"conv.marks", "{'type':'string','unknown':true,'marks':['sensitive']}", "'number'", U,
     "unknown(number)@sensitive :: number"},
    {"conv.marks", "{'type':'string','v':'x','marks':['sensitive']}", "'number'", U,
     "! a number is required"},
    /* the quirk: a marked null element of a converted list, set or object
     * loses its marks (cty re-makes it) */
    {"conv.marks", "{'type':['list','string'],'v':[{'null':true,'marks':['sensitive']},{'v':'a','marks':['x']}]}",
     T_LA, U, "list[null(string),\"a\"@x] :: list(string)"},
    {"conv.marks", "{'type':['list','string'],'v':[{'null':true,'marks':['sensitive']},{'v':'a','marks':['x']}]}",
     T_SS, U, "set[\"a\",null(string)]@x :: set(string)"},
    {"conv.marks",
     "{'type':['object',{'a':'string','b':'number'}],'v':{'a':{'null':true,'marks':['sensitive']},'b':{'v':'1'}}}",
     "['object',{'a':'string'}]", U, "{\"a\"=null(string)} :: object({a=string})"},
    {"conv.marks",
     "{'type':['map','string'],'v':{'a':{'null':true,'marks':['sensitive']}}}",
     "['object',{'a':'string'}]", U, "{\"a\"=null(string)} :: object({a=string})"},
    {"conv.marks",
     "{'type':['tuple',['string','dynamic']],'v':[{'null':true,'marks':['sensitive']},{'null':true,'marks':['m']}]}",
     "['tuple',['string','string']]", U,
     "[null(string)@sensitive,null(string)@m] :: tuple([string,string])"},
    {"conv.marks",
     "{'type':['map','string'],'v':{'a':{'null':true,'marks':['sensitive']}}}", T_MA, U,
     "map{\"a\"=null(string)@sensitive} :: map(string)"},

    /* [conv.elements.unknown] [conv.seq.list] (C21) */
    {"conv.elements.unknown C21", V_LU, T_LA, U,
     "list[\"a\",unknown(string)] :: list(string)"},
    {"conv.elements.unknown", V_LU, T_SS, U, "set[\"a\",unknown(string)] :: set(string)"},
    {"conv.seq.list C21", V_STU, T_LS, U, "unknown(list(string)) :: list(string)"},
    {"conv.seq.list", "{'type':['set','number'],'v':[{'v':'1'},{'unknown':true}]}", T_LS, U,
     "unknown(list(number)) :: list(number)"},
    {"conv.seq.list", "{'type':['set','number'],'v':[{'unknown':true}]}", T_LS, U,
     "list[unknown(string)] :: list(string)"},
    {"conv.seq.list",
     "{'type':['set','string'],'v':[{'v':'a'},{'unknown':true}],'marks':['sensitive']}", T_LS,
     U, "unknown(list(string))@sensitive :: list(string)"},
    {"conv.seq.list",
     "{'type':['set',['object',{'a':'string'}]],'v':[{'v':{'a':{'v':'x'}}},{'v':{'a':{'unknown':true}}}]}",
     "['list',['object',{'a':'string'}]]", U,
     "unknown(list(object({a=string}))) :: list(object({a=string}))"},
    /* the set quirk seen through collections: a list of such lists cannot
     * be made; a map unifies its elements (in safe mode) */
    {"conv.seq.list",
     "{'type':['list',['set','number']],'v':[{'v':[{'v':'1'}]},{'v':[{'v':'1'},{'unknown':true}]}]}",
     "['list',['list','string']]", U,
     "! element types must all match for conversion to list"},
    {"conv.map.map",
     "{'type':['map',['set','number']],'v':{'a':{'v':[{'v':'1'}]},'b':{'v':[{'v':'1'},{'unknown':true}]}}}",
     "['map',['list','string']]", U,
     "map{\"a\"=list[\"1\"],\"b\"=unknown(list(string))} :: map(list(string))"},
    {"conv.map.map",
     "{'type':['map',['set','string']],'v':{'a':{'v':[{'v':'1'}]},'b':{'v':[{'v':'1'},{'unknown':true}]}}}",
     "['map',['list','number']]", U,
     "map{\"a\"=list[\"1\"],\"b\"=unknown(list(string))} :: map(list(string))"},
    {"conv.map.map",
     "{'type':['map',['set','string']],'v':{'a':{'v':[{'v':'x'}]},'b':{'v':[{'v':'1'},{'unknown':true}]}}}",
     "['map',['list','number']]", U, "! a number is required"},
    {"conv.tuple.list",
     "{'type':['tuple',[['set','number'],['set','number']]],'v':[{'v':[{'v':'1'}]},{'v':[{'v':'1'},{'unknown':true}]}]}",
     "['list',['list','string']]", U,
     "list[list[\"1\"],unknown(list(string))] :: list(list(string))"},
};

typedef struct {
    const char *rule;
    const char *types; /* a JSON array of JSON types */
    tfx_convert_mode mode;
    const char *want;  /* the type's string, "none", or "dynamic*" (all unknown) */
} unify_row;

static const unify_row unify_rows[] = {
    /* [unify.prim] (C19) */
    {"unify.prim C19", "['number','string']", U, "string"},
    {"unify.prim C19", "['string','number']", U, "string"},
    {"unify.prim C19", "['bool','string']", U, "string"},
    {"unify.prim C19", "['number','bool','string']", U, "string"},
    {"unify.prim C19", "['number','bool']", U, "none"},
    {"unify.prim C19", "['number','dynamic']", U, "number"},
    {"unify.prim C19", "['number','dynamic']", S, "dynamic"},
    {"unify.prim", "['number','number','dynamic']", U, "number"},
    {"unify.prim", "['number','string']", S, "string"},
    {"unify.prim", "['dynamic','dynamic']", U, "dynamic"},
    {"unify.def", "[]", U, "none"},
    {"unify.def", "['bool']", U, "bool"},
    {"unify.prim", "['string',['list','string']]", U, "none"},
    /* [unify.collection] [unify.dynamic] (C18 1, 3, 4) */
    {"unify.collection", "[['list','string'],['list','number']]", U, "list(string)"},
    {"unify.collection", "[['list','dynamic'],['list','string']]", U, "list(string)"},
    {"unify.collection", "[['list','dynamic'],['list','string']]", S, "list(dynamic)"},
    {"unify.collection", "[['map','string'],['map','number'],['map','bool']]", U, "map(string)"},
    {"unify.collection", "[['map','number'],['map','bool']]", U, "none"},
    {"unify.collection", "[['set','string'],['set','number']]", U, "set(string)"},
    {"unify.dynamic", "[['list','string'],'dynamic']", U, "dynamic*"},
    {"unify.dynamic", "[['map','string'],'dynamic']", U, "dynamic*"},
    {"unify.dynamic", "[['set','string'],'dynamic']", S, "dynamic*"},
    {"unify.dynamic", "[['object',{'a':'number'}],'dynamic']", U, "dynamic*"},
    {"unify.dynamic", "[['tuple',['number']],'dynamic']", U, "dynamic*"},
    /* dynamic among the element types: unified to dynamic, but the
     * list conversions are real ones */
    {"unify.dynamic", "[['list',['map','string']],['list','dynamic']]", U, "list(dynamic)"},
    /* [unify.map-object] (C18 2) */
    {"unify.map-object", "[['map','number'],['object',{'a':'string'}]]", U, "map(string)"},
    {"unify.map-object", "[['map','string'],['object',{'a':'number'}]]", U, "map(string)"},
    {"unify.map-object", "[['map','number'],['object',{'a':'bool'}]]", U, "none"},
    {"unify.map-object", "[['map','string'],['object',{}]]", U, "map(string)"},
    {"unify.map-object", "[['map','string'],['object',{'a':'string'}],'dynamic']", U,
     "map(string)"},
    /* [unify.list-tuple] (C18 3) */
    {"unify.list-tuple", "[['list','string'],['tuple',['number']]]", U, "list(string)"},
    {"unify.list-tuple", "[['list','string'],['tuple',[]]]", U, "list(string)"},
    {"unify.list-tuple", "[['list','number'],['tuple',['bool']]]", U, "none"},
    {"unify.list-tuple", "[['list','string'],['tuple',['number']],'dynamic']", U,
     "list(string)"},
    /* [unify.object] [unify.object-map] (C18 5) */
    {"unify.object", "[['object',{'a':'number'}],['object',{'a':'string'}]]", U,
     "object({a=string})"},
    {"unify.object", "[['object',{'a':'number'}],['object',{'a':'bool'}]]", U, "none"},
    {"unify.object", "[['object',{'a':'dynamic'}],['object',{'a':'number'}]]", U,
     "object({a=number})"},
    {"unify.object", "[['object',{'a':'dynamic'}],['object',{'a':'number'}]]", S,
     "object({a=dynamic})"},
    {"unify.object-map", "[['object',{'a':'number'}],['object',{'b':'number'}]]", U,
     "map(number)"},
    {"unify.object-map", "[['object',{'a':'number'}],['object',{'b':'string'}]]", U,
     "map(string)"},
    {"unify.object-map", "[['object',{'a':'number'}],['object',{}]]", U, "map(number)"},
    {"unify.object-map", "[['object',{'a':'number'}],['object',{'b':'bool'}]]", U, "none"},
    {"unify.object-map", "[['object',{'a':'number','b':'number'}],['object',{'a':'number'}]]", U,
     "map(number)"},
    {"unify.object", "[['object',{}],['object',{}]]", U, "object({})"},
    /* [unify.tuple] [unify.tuple-list] (C18 6) */
    {"unify.tuple", "[['tuple',['number']],['tuple',['string']]]", U, "tuple([string])"},
    {"unify.tuple", "[['tuple',['number','string']],['tuple',['string','number']]]", U,
     "tuple([string,string])"},
    {"unify.tuple", "[['tuple',['number']],['tuple',['bool']]]", U, "none"},
    {"unify.tuple-list", "[['tuple',['number']],['tuple',['number','number']]]", U,
     "list(number)"},
    {"unify.tuple-list", "[['tuple',['number']],['tuple',['string','bool']]]", U,
     "list(string)"},
    {"unify.tuple-list", "[['tuple',['number']],['tuple',[]]]", U, "list(number)"},
    {"unify.tuple-list", "[['tuple',['number']],['tuple',['bool','bool']]]", U, "none"},
    {"unify.tuple", "[['tuple',[]],['tuple',[]]]", U, "tuple([])"},
    /* (Q3) true ? [nul] : [1], true ? [1] : [dyn], true ? {a = nul} : {a = 1} */
    {"unify.tuple Q3", "[['tuple',['dynamic']],['tuple',['number']]]", U, "tuple([number])"},
    {"unify.tuple Q3", "[['tuple',['number']],['tuple',['dynamic']]]", U, "tuple([number])"},
    {"unify.object Q3", "[['object',{'a':'dynamic'}],['object',{'a':'number'}]]", U,
     "object({a=number})"},
    /* (C18 7) */
    {"unify.kinds", "[['object',{'a':'number'}],['tuple',['number']]]", U, "none"},
    {"unify.kinds", "[['object',{}],['tuple',[]]]", U, "none"},
    /* [unify.prefer] [unify.rank] (C18 8) */
    {"unify.rank", "[['set','string'],['list','string']]", U, "list(string)"},
    {"unify.rank", "[['list','string'],['set','string']]", U, "list(string)"},
    {"unify.rank", "[['list','string'],['set','string']]", S, "list(string)"},
    {"unify.rank", "[['set','number'],['tuple',['string']]]", U, "set(number)"},
    {"unify.rank", "[['set','number'],['tuple',['string']]]", S, "none"},
    {"unify.rank", "[['set','string'],['tuple',['number']]]", S, "set(string)"},
    {"unify.rank", "[['tuple',['string']],['set','string'],['list','string']]", U,
     "list(string)"},
    {"unify.rank", "[['list','string'],['map','string']]", U, "none"},
    {"unify.rank", "[['set','string'],['map','string']]", U, "none"},
};

typedef struct {
    const char *from;
    const char *want;
    tfx_convert_mode mode;
    bool possible;
} possible_row;

/* [conv.def] step 2 (cty's GetConversion(Unsafe) != nil) */
static const possible_row possible_rows[] = {
    /* a type need not convert to itself */
    {"'string'", "'string'", U, false},
    {"'dynamic'", "'dynamic'", S, true},
    {T_LS, T_LS, S, true},
    {T_MS, T_MS, U, false},
    {"['map',['list','string']]", "['map',['list','string']]", U, true},
    {"['tuple',['number']]", "['tuple',['number']]", S, true},
    {"['object',{'a':'number'}]", "['object',{'a':'number'}]", S, true},
    /* [conv.mode] the unsafe ones */
    {"'dynamic'", "'number'", U, true},
    {"'dynamic'", "'number'", S, false},
    {"'number'", "'dynamic'", S, true},
    {T_LS, T_SS, U, true},
    {T_LS, T_SS, S, false},
    {T_MS, "['object',{'a':'string'}]", U, true},
    {T_MS, "['object',{'a':'string'}]", S, false},
    {"'string'", "'bool'", U, true},
    {"'string'", "'bool'", S, false},
    {"['list','dynamic']", "['list','number']", U, true},
    {"['list','dynamic']", "['list','number']", S, false},
    /* [conv.tuple.any] [conv.object.map] */
    {"['tuple',['number','bool']]", T_LA, U, false},
    {"['tuple',['number','string']]", T_LA, U, true},
    {"['tuple',['number','string']]", T_LA, S, true},
    {"['tuple',['dynamic','string']]", T_LA, U, true},
    {"['tuple',['dynamic','string']]", T_LA, S, false},
    {"['tuple',[]]", T_LA, S, true},
    {"['object',{}]", T_MA, S, true},
    {"['object',{'a':'number','b':'bool'}]", T_MA, U, false},
    {"['object',{'a':['list','string'],'b':'dynamic'}]", T_MA, U, true},
    /* [conv.none] */
    {"['tuple',['number']]", "['object',{}]", U, false},
    {"['object',{}]", "['tuple',[]]", U, false},
    {T_LS, "['tuple',['string']]", U, false},
    {T_MS, T_LS, U, false},
    {"'number'", "'bool'", U, false},
};

typedef struct {
    const char *got;
    const char *want;
    const char *message;
} mismatch_row;

/* [conv.mismatch] (C4) cty's MismatchMessage */
static const mismatch_row mismatch_rows[] = {
    {"'bool'", "'number'", "number required"},
    {"'string'", "'dynamic'", "any type required"},
    {T_MS, T_LA, "list of any single type required"},
    {"['object',{'a':'string'}]", "['object',{'a':'string','c':'string'}]",
     "attribute \"c\" is required"},
    /* an attribute with no unsafe conversion comes before one with no safe
     * conversion */
    {"['object',{'a':'string','b':'bool'}]", "['object',{'a':'number','b':'number'}]",
     "attribute \"b\": number required"},
    {"['object',{'a':'string'}]", "['object',{'a':'number'}]",
     "attribute \"a\": number required"},
    {"['object',{'a':['list','bool']}]", "['object',{'a':['list','number']}]",
     "attribute \"a\": incorrect list element type: number required"},
    {"['object',{'a':'number'}]", "['object',{'a':'number'}]", "incorrect object attributes"},
    {"['tuple',['number','bool']]", T_LA, "all list elements must have the same type"},
    {"['tuple',['number','bool']]", T_SA, "all set elements must have the same type"},
    {"['object',{'a':'number','b':'bool'}]", T_MA, "all map elements must have the same type"},
    {"['tuple',['number']]", "['list','number']", "all elements must be number"},
    {"['tuple',[['list','string']]]", "['list',['list','number']]", "all elements must be list of number"},
    {"['tuple',['bool']]", "['set',['list','number']]", "element 0: list of number required"},
    {"['object',{'a':'bool','b':'bool'}]", "['map','number']", "element \"a\": number required"},
    {"['object',{'a':'bool'}]", "['set','number']", "set of number required"},
    {"['tuple',['bool']]", "['map','number']", "map of number required"},
    {T_SS, "['list','bool']", "incorrect list element type: bool required"},
    {T_LS, "['map','string']", "map of string required"},
    {T_MS, "['set','string']", "set of string required"},
    {T_LS, "['tuple',['string']]", "tuple required"},
    {"['tuple',['string']]", "['object',{}]", "object required"},
};

typedef struct {
    const char *types; /* a JSON array of the two types unified */
    const char *value; /* a value of the first type */
    const char *want;  /* as in conv_row */
} unify_conv_row;

/* [unify.def] the conversions unification hands back, as HCL's
 * conditional applies them: `true ? value : other` (semantics Q3) */
static const unify_conv_row unify_conv_rows[] = {
    {"['number','string']", "{'type':'number','v':'1'}", "\"1\" :: string"},
    /* a tuple unified with a list converts through list(number): the null
     * element loses its mark, unlike a direct conversion */
    {"[['tuple',['number']],['list','string']]",
     "{'type':['tuple',['number']],'v':[{'null':true,'marks':['sensitive']}]}",
     "list[null(string)] :: list(string)"},
    {"[['tuple',['number']],['list','string']]",
     "{'type':['tuple',['number']],'v':[{'v':'1','marks':['sensitive']}]}",
     "list[\"1\"@sensitive] :: list(string)"},
    {"[['tuple',['string']],['list','string']]",
     "{'type':['tuple',['string']],'v':[{'null':true,'marks':['sensitive']}]}",
     "list[null(string)@sensitive] :: list(string)"},
    {"[['tuple',['number']],['list','string']]", "{'type':['tuple',['number']],'unknown':true}",
     "unknown(list(string)) :: list(string)"},
    {"[['object',{'x':'number'}],['map','string']]",
     "{'type':['object',{'x':'number'}],'v':{'x':{'null':true,'marks':['sensitive']}}}",
     "map{\"x\"=null(string)@sensitive} :: map(string)"},
    {"[['list','string'],['tuple',['number']]]",
     "{'type':['list','string'],'v':[{'v':'a'}]}", "list[\"a\"] :: list(string)"},
    /* [unify.dynamic] (read: HCL's conditional deals with dynamic before
     * unifying, so the reference cannot show this one) */
    {"[['list','string'],'dynamic']", "{'type':['list','string'],'v':[{'v':'a'}]}",
     "unknown(dynamic) :: dynamic"},
};

/* ---- The harness ---- */

/* text with ' replaced by ", in the arena */
static const char *dq(tfx_ctx *ctx, const char *text)
{
    size_t n = strlen(text);
    char *s = tfx_ctx_strndup(ctx, text, n);

    for (size_t i = 0; i < n; i++)
        if (s[i] == '\'')
            s[i] = '"';
    return s;
}

static const tfx_value *parse_value(tfx_ctx *ctx, const char *text)
{
    const char *err = NULL;
    const char *json = dq(ctx, text);
    const tfx_value *v = tfx_json_decode_typed(ctx, json, strlen(json), &err);

    if (v == NULL) {
        fprintf(stderr, "bad value %s: %s\n", text, err);
        exit(2);
    }
    return v;
}

static const tfx_type *parse_type(tfx_ctx *ctx, const char *text)
{
    const char *err = NULL;
    const char *json = dq(ctx, text);
    const tfx_type *t = tfx_json_decode_constraint(ctx, json, strlen(json), &err);

    if (t == NULL) {
        fprintf(stderr, "bad type %s: %s\n", text, err);
        exit(2);
    }
    return t;
}

/* A type parsed outside tfx_ctx_try (for the functions that take no
 * ctx); well-formed small types cannot hit a limit. */
typedef struct {
    const char *text;
    const tfx_type *t;
} type_job;

static void run_parse_type(tfx_ctx *ctx, void *arg)
{
    type_job *job = arg;

    job->t = parse_type(ctx, job->text);
}

static const tfx_type *parse_type_outside(tfx_ctx *ctx, const char *text)
{
    type_job job = {text, NULL};

    if (!tfx_ctx_try(ctx, run_parse_type, &job))
        exit(2);
    return job.t;
}

typedef struct {
    const conv_row *row;
    const char *got;
} conv_job;

static void run_conv(tfx_ctx *ctx, void *arg)
{
    conv_job *job = arg;
    const tfx_value *v = parse_value(ctx, job->row->value);
    const tfx_type *t = parse_type(ctx, job->row->type);
    const char *err = NULL;
    const tfx_value *r = tfx_convert(ctx, v, t, job->row->mode, &err);

    if (r == NULL) {
        job->got = tfx_ctx_printf(ctx, "! %s", err);
    } else {
        job->got = tfx_render_debug(ctx, r);
    }
    if (getenv("TFX_TEST_CONVERT_DUMP") != NULL) {
        const char *enc = r == NULL ? NULL : tfx_json_encode_typed_in(ctx, r, NULL, &err);

        printf("CONV\t%s\t%s\t%s\t%s\n", dq(ctx, job->row->value), dq(ctx, job->row->type),
               job->row->mode == U ? "unsafe" : "safe", enc != NULL ? enc : job->got);
    }
}

static void test_conv_rows(void)
{
    for (size_t i = 0; i < sizeof conv_rows / sizeof conv_rows[0]; i++) {
        tfx_ctx ctx;
        conv_job job = {&conv_rows[i], NULL};

        if (!tfx_ctx_init(&ctx, NULL))
            exit(2);
        if (!tfx_ctx_try(&ctx, run_conv, &job))
            job.got = ctx.fail_summary;
        if (job.got == NULL || strcmp(job.got, conv_rows[i].want) != 0)
            fprintf(stderr, "conversion row %zu (%s): %s to %s (%s)\n", i, conv_rows[i].rule,
                    conv_rows[i].value, conv_rows[i].type,
                    conv_rows[i].mode == U ? "unsafe" : "safe");
        CHECK_STR(job.got, conv_rows[i].want);
        tfx_ctx_free(&ctx);
    }
}

typedef struct {
    const unify_row *row;
    const char *got;
} unify_job;

static void run_unify(tfx_ctx *ctx, void *arg)
{
    unify_job *job = arg;
    const char *json = dq(ctx, job->row->types);
    const char *err = NULL;
    /* the array of types is read as the element types of a tuple type */
    const char *tuple = tfx_ctx_printf(ctx, "[\"tuple\",%s]", json);
    const tfx_type *tt = tfx_json_decode_type(ctx, tuple, strlen(tuple), &err);
    bool all_unknown = true;
    const tfx_type *u;

    if (tt == NULL) {
        fprintf(stderr, "bad types %s: %s\n", job->row->types, err);
        exit(2);
    }
    u = tfx_unify(ctx, tt->elems, tt->n, job->row->mode, &all_unknown);
    if (u == NULL)
        job->got = all_unknown ? "none, all_unknown set" : "none";
    else
        job->got = tfx_ctx_printf(ctx, "%s%s", tfx_type_string(ctx, u), all_unknown ? "*" : "");
    if (getenv("TFX_TEST_CONVERT_DUMP") != NULL)
        printf("UNIFY\t%s\t%s\t%s\n", json, job->row->mode == U ? "unsafe" : "safe", job->got);
}

static void test_unify_rows(void)
{
    for (size_t i = 0; i < sizeof unify_rows / sizeof unify_rows[0]; i++) {
        tfx_ctx ctx;
        unify_job job = {&unify_rows[i], NULL};

        if (!tfx_ctx_init(&ctx, NULL))
            exit(2);
        if (!tfx_ctx_try(&ctx, run_unify, &job))
            job.got = ctx.fail_summary;
        if (job.got == NULL || strcmp(job.got, unify_rows[i].want) != 0)
            fprintf(stderr, "unification row %zu (%s): %s (%s)\n", i, unify_rows[i].rule,
                    unify_rows[i].types, unify_rows[i].mode == U ? "unsafe" : "safe");
        CHECK_STR(job.got, unify_rows[i].want);
        tfx_ctx_free(&ctx);
    }
}

typedef struct {
    size_t i;
    bool ok;
    const char *got;
} small_job;

static void run_possible_in(tfx_ctx *ctx, void *arg)
{
    small_job *job = arg;
    const possible_row *row = &possible_rows[job->i];

    job->ok = tfx_convert_possible_in(ctx, parse_type(ctx, row->from), parse_type(ctx, row->want),
                                      row->mode);
}

static void test_possible_rows(void)
{
    for (size_t i = 0; i < sizeof possible_rows / sizeof possible_rows[0]; i++) {
        const possible_row *row = &possible_rows[i];
        tfx_ctx ctx;
        small_job job = {i, !row->possible, NULL};
        bool plain;

        if (!tfx_ctx_init(&ctx, NULL))
            exit(2);
        CHECK(tfx_ctx_try(&ctx, run_possible_in, &job));
        plain = tfx_convert_possible(parse_type_outside(&ctx, row->from),
                                     parse_type_outside(&ctx, row->want), row->mode);
        if (job.ok != row->possible || plain != row->possible)
            fprintf(stderr, "possible row %zu: %s to %s (%s)\n", i, row->from, row->want,
                    row->mode == U ? "unsafe" : "safe");
        CHECK(job.ok == row->possible);
        CHECK(plain == row->possible);
        tfx_ctx_free(&ctx);
    }
}

/* [conv.mismatch.pn] Profile PN (cty 1.16+) names both types where that
 * does not confuse (each row checked against the PN reference's convert
 * requests); an object to a tuple keeps the plain wording, as cty's test
 * of it never matches. */
static const mismatch_row mismatch_rows_pn[] = {
    {"['object',{'a':'string'}]", "['tuple',['string']]", "tuple required"},
    {"['tuple',['string']]", "['object',{'a':'string'}]", "object required, but have tuple"},
    {"'bool'", "'number'", "number required, but have bool"},
    {"'number'", "'bool'", "bool required, but have number"},
    {T_LS, "'string'", "string required, but have list of string"},
    {"'string'", T_LS, "list of string required, but have string"},
    {"'string'", T_LA, "list of dynamic required, but have string"},
    {"['object',{'a':'string'}]", "'string'", "string required, but have object"},
    {"'string'", "['object',{'a':'string'}]", "object required, but have string"},
    /* the other cases come first, as under P14 */
    {T_MS, T_LA, "list of any single type required"},
    {"['object',{'a':'string'}]", "['object',{'a':'number'}]",
     "attribute \"a\": number required"},
};

typedef struct {
    size_t i;
    bool pn;
    const char *got;
} mismatch_job;

static void run_mismatch(tfx_ctx *ctx, void *arg)
{
    mismatch_job *job = arg;
    const mismatch_row *row = job->pn ? &mismatch_rows_pn[job->i] : &mismatch_rows[job->i];

    job->got = tfx_convert_mismatch(ctx, parse_type(ctx, row->got), parse_type(ctx, row->want));
}

static void check_mismatch_rows(const mismatch_row *rows, size_t n, bool pn)
{
    for (size_t i = 0; i < n; i++) {
        tfx_ctx ctx;
        mismatch_job job = {i, pn, NULL};

        if (!tfx_ctx_init(&ctx, NULL))
            exit(2);
        ctx.pn = pn;
        CHECK(tfx_ctx_try(&ctx, run_mismatch, &job));
        CHECK_STR(job.got, rows[i].message);
        tfx_ctx_free(&ctx);
    }
}

static void test_mismatch_rows(void)
{
    check_mismatch_rows(mismatch_rows, sizeof mismatch_rows / sizeof mismatch_rows[0], false);
    check_mismatch_rows(mismatch_rows_pn, sizeof mismatch_rows_pn / sizeof mismatch_rows_pn[0],
                        true);
}

/* ---- Precision and limits ---- */

typedef struct {
    int which;
    const char *got;
} limit_job;

static const tfx_value *nested_list(tfx_ctx *ctx, const tfx_value *leaf, size_t depth)
{
    const tfx_value *v = leaf;

    for (size_t i = 0; i < depth; i++)
        v = tfx_value_list(ctx, v->type, &v, 1);
    return v;
}

static const tfx_type *nested_list_type(tfx_ctx *ctx, const tfx_type *leaf, size_t depth)
{
    const tfx_type *t = leaf;

    for (size_t i = 0; i < depth; i++)
        t = tfx_type_list(ctx, t);
    return t;
}

static void run_limit(tfx_ctx *ctx, void *arg)
{
    limit_job *job = arg;
    const char *err = NULL;
    const tfx_value *r = NULL;

    switch (job->which) {
    case 0: {
        /* [conv.prim.num-str] the number's own precision: 1/3 as a float64
         * and the same binary value at 512 bits (semantics N7) */
        const tfx_num *third = tfx_num_from_double(ctx->arena, 1.0 / 3.0);
        const tfx_value *v53 = tfx_value_number(ctx, third);
        const tfx_value *v512 = parse_value(
            ctx, "{'type':'number','v':'0.333333333333333314829616256247390992939472198486328125'}");
        const tfx_value *a = tfx_convert(ctx, v53, &tfx_type_str, U, &err);
        const tfx_value *b = tfx_convert(ctx, v512, &tfx_type_str, U, &err);

        job->got = tfx_ctx_printf(ctx, "%s %s", a->as.string.s, b->as.string.s);
        return;
    }
    case 1:
        /* [limit.eval.string] the bound of a number's text is checked first */
        r = tfx_convert(ctx, parse_value(ctx, "{'type':'number','v':'1e100'}"), &tfx_type_str, U,
                        &err);
        break;
    case 6:
        /* [limit.eval.string] a number whose text may be longer than 4,096
         * bytes and than the limit is refused before it is formatted */
        r = tfx_convert(ctx, parse_value(ctx, "{'type':'number','v':'1e5000'}"), &tfx_type_str, U,
                        &err);
        break;
    case 2:
        /* [limit.eval.depth] */
        r = tfx_convert(ctx, nested_list(ctx, tfx_value_int(ctx, 1), 20),
                        nested_list_type(ctx, &tfx_type_str, 20), U, &err);
        break;
    case 3: {
        /* [limit.eval.steps] */
        const tfx_value *items[100];

        for (size_t i = 0; i < 100; i++)
            items[i] = tfx_value_int(ctx, (int64_t)i);
        r = tfx_convert(ctx, tfx_value_list(ctx, &tfx_type_number, items, 100),
                        tfx_type_list(ctx, &tfx_type_str), U, &err);
        break;
    }
    case 4: {
        /* many equal types unify in linear time; 2,000 mixed ones in
         * quadratic time, still within the default step limit */
        enum { N_EQUAL = 200000, N_MIXED = 2000 };
        const tfx_type **types = tfx_ctx_alloc_array(ctx, N_EQUAL, sizeof(const tfx_type *));
        const tfx_type *a;
        const tfx_type *b;
        bool all_unknown = true;

        for (size_t i = 0; i < N_EQUAL; i++)
            types[i] = tfx_type_list(ctx, &tfx_type_str);
        a = tfx_unify(ctx, types, N_EQUAL, U, &all_unknown);
        for (size_t i = 0; i < N_MIXED; i++)
            types[i] = i % 2 == 0 ? &tfx_type_number : &tfx_type_str;
        b = tfx_unify(ctx, types, N_MIXED, U, &all_unknown);
        job->got = tfx_ctx_printf(ctx, "%s %s %d", tfx_type_string(ctx, a),
                                  tfx_type_string(ctx, b), all_unknown);
        return;
    }
    default:
        /* error may be NULL */
        r = tfx_convert(ctx, parse_value(ctx, "{'type':'string','v':'x'}"), &tfx_type_number, U,
                        NULL);
        job->got = r == NULL ? "failed" : "converted";
        return;
    }
    job->got = r == NULL ? err : tfx_render_debug(ctx, r);
}

static const char *run_limit_case(int which, const tfx_ctx_limits *limits)
{
    static char text[1024];
    tfx_ctx ctx;
    limit_job job = {which, NULL};

    if (!tfx_ctx_init(&ctx, limits))
        exit(2);
    if (tfx_ctx_try(&ctx, run_limit, &job))
        snprintf(text, sizeof text, "%s", job.got);
    else
        snprintf(text, sizeof text, "%s (depth %zu)", ctx.fail_summary, ctx.depth);
    tfx_ctx_free(&ctx);
    return text;
}

static void test_limits(void)
{
    tfx_ctx_limits limits;

    tfx_ctx_limits_init(&limits);
    CHECK_STR(run_limit_case(0, &limits),
              "0.3333333333333333 0.333333333333333314829616256247390992939472198486328125");
    CHECK_STR(run_limit_case(1, &limits), "\"1" "0000000000" "0000000000" "0000000000"
              "0000000000" "0000000000" "0000000000" "0000000000" "0000000000" "0000000000"
              "0000000000\" :: string");
    CHECK_STR(run_limit_case(2, &limits),
              "list[list[list[list[list[list[list[list[list[list[list[list[list[list[list[list["
              "list[list[list[list[\"1\"]]]]]]]]]]]]]]]]]]]] :: "
              "list(list(list(list(list(list(list(list(list(list(list(list(list(list(list(list("
              "list(list(list(list(string))))))))))))))))))))");
    CHECK_STR(run_limit_case(3, &limits), "list[\"0\",\"1\",\"2\",\"3\",\"4\",\"5\","
              "\"6\",\"7\",\"8\",\"9\",\"10\",\"11\",\"12\",\"13\",\"14\",\"15\","
              "\"16\",\"17\",\"18\",\"19\",\"20\",\"21\",\"22\",\"23\",\"24\","
              "\"25\",\"26\",\"27\",\"28\",\"29\",\"30\",\"31\",\"32\",\"33\","
              "\"34\",\"35\",\"36\",\"37\",\"38\",\"39\",\"40\",\"41\",\"42\","
              "\"43\",\"44\",\"45\",\"46\",\"47\",\"48\",\"49\",\"50\",\"51\","
              "\"52\",\"53\",\"54\",\"55\",\"56\",\"57\",\"58\",\"59\",\"60\","
              "\"61\",\"62\",\"63\",\"64\",\"65\",\"66\",\"67\",\"68\",\"69\","
              "\"70\",\"71\",\"72\",\"73\",\"74\",\"75\",\"76\",\"77\",\"78\","
              "\"79\",\"80\",\"81\",\"82\",\"83\",\"84\",\"85\",\"86\",\"87\","
              "\"88\",\"89\",\"90\",\"91\",\"92\",\"93\",\"94\",\"95\",\"96\","
              "\"97\",\"98\",\"99\"] :: list(string)");
    CHECK_STR(run_limit_case(4, &limits), "list(string) string 0");
    CHECK_STR(run_limit_case(5, &limits), "failed");

    /* a short number's text is written, then its length checked */
    limits.max_string_bytes = 101;
    CHECK(strncmp(run_limit_case(1, &limits), "\"10000", 6) == 0);
    limits.max_string_bytes = 100;
    CHECK_STR(run_limit_case(1, &limits), "String length limit exceeded (depth 0)");
    limits.max_string_bytes = 6000; /* above the bound, 5,540 */
    CHECK(strncmp(run_limit_case(6, &limits), "\"10000", 6) == 0);
    limits.max_string_bytes = 5000;
    CHECK_STR(run_limit_case(6, &limits), "String length limit exceeded (depth 0)");
    tfx_ctx_limits_init(&limits);
    limits.max_depth = 10;
    CHECK_STR(run_limit_case(2, &limits), "Nesting too deep (depth 0)");
    tfx_ctx_limits_init(&limits);
    limits.max_steps = 50;
    CHECK_STR(run_limit_case(3, &limits), "Evaluation step limit exceeded (depth 0)");
}

static void run_unify_conv(tfx_ctx *ctx, void *arg)
{
    small_job *job = arg;
    const unify_conv_row *row = &unify_conv_rows[job->i];
    const char *tuple = tfx_ctx_printf(ctx, "[\"tuple\",%s]", dq(ctx, row->types));
    const char *err = NULL;
    const tfx_type *tt = tfx_json_decode_type(ctx, tuple, strlen(tuple), &err);
    const tfx_value *v = parse_value(ctx, row->value);
    tfx_unification u;
    const tfx_value *r;

    if (tt == NULL) {
        fprintf(stderr, "bad types %s: %s\n", row->types, err);
        exit(2);
    }
    tfx_unify_plan(ctx, tt->elems, tt->n, U, &u);
    r = tfx_unify_convert(ctx, &u, 0, v, &err);
    job->got = r == NULL ? tfx_ctx_printf(ctx, "! %s", err) : tfx_render_debug(ctx, r);
}

static void test_unify_conv_rows(void)
{
    for (size_t i = 0; i < sizeof unify_conv_rows / sizeof unify_conv_rows[0]; i++) {
        tfx_ctx ctx;
        small_job job = {i, false, NULL};

        if (!tfx_ctx_init(&ctx, NULL))
            exit(2);
        CHECK(tfx_ctx_try(&ctx, run_unify_conv, &job));
        CHECK_STR(job.got, unify_conv_rows[i].want);
        tfx_ctx_free(&ctx);
    }
}

/* [conv.object.optional] Type constraints with optional attributes: their
 * equality, notation and JSON, and the markers gone from results. */
static void run_optional(tfx_ctx *ctx, void *arg)
{
    const tfx_type *a = parse_type(ctx, "['object',{'a':'string','b':'number'},['a']]");
    const tfx_type *b = parse_type(ctx, "['object',{'a':'string','b':'number'},['b']]");
    const tfx_type *plain = parse_type(ctx, "['object',{'a':'string','b':'number'}]");
    const tfx_type *nested = parse_type(ctx, "['list',['object',{'x':['object',{'y':'bool'},['y']]}]]");
    const char *err = NULL;
    const tfx_value *r;

    (void)arg;
    CHECK(!tfx_type_equal(a, b));
    CHECK(!tfx_type_equal(a, plain));
    CHECK(tfx_type_equal(tfx_type_without_optional(ctx, a), plain));
    CHECK(tfx_type_has_optional(nested));
    CHECK(!tfx_type_has_optional(tfx_type_without_optional(ctx, nested)));
    CHECK_STR(tfx_type_string(ctx, a), "object({a=optional(string),b=number})");
    CHECK_STR(tfx_json_encode_type(ctx, a, NULL), "[\"object\",{\"a\":\"string\",\"b\":\"number\"},[\"a\"]]");
    CHECK_STR(tfx_json_encode_type(ctx, nested, NULL),
              "[\"list\",[\"object\",{\"x\":[\"object\",{\"y\":\"bool\"},[\"y\"]]}]]");
    r = tfx_convert(ctx, parse_value(ctx, "{'type':['object',{'b':'number'}],'v':{'b':{'v':'1'}}}"), a, U,
                    &err);
    CHECK(r != NULL && !tfx_type_has_optional(r->type));
    CHECK_STR(r != NULL ? tfx_render_debug(ctx, r) : err,
              "{\"a\"=null(string),\"b\"=1} :: object({a=string,b=number})");
    r = tfx_convert(ctx, parse_value(ctx, "{'type':['object',{'a':'string'}],'null':true}"), b, U, &err);
    CHECK(r != NULL && !tfx_type_has_optional(r->type));
    r = tfx_convert(ctx, parse_value(ctx, "{'type':['object',{'a':'string'}],'v':{'a':{'v':'x'}}}"), a, U,
                    &err);
    CHECK(r == NULL);
    CHECK_STR(err, "attribute \"b\" is required");
}

static void test_optional(void)
{
    tfx_ctx ctx;

    if (!tfx_ctx_init(&ctx, NULL))
        exit(2);
    CHECK(tfx_ctx_try(&ctx, run_optional, NULL));
    tfx_ctx_free(&ctx);
}

int main(void)
{
    test_optional();
    test_conv_rows();
    test_unify_rows();
    test_possible_rows();
    test_mismatch_rows();
    test_unify_conv_rows();
    test_limits();
    return check_report("test_convert");
}
