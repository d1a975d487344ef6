// SPDX-License-Identifier: MPL-2.0
// Command go-numdump evaluates number operations with upstream cty, one
// JSON object per line, so that tfexpr's numbers can be compared with
// cty's (tools/numdiff).
//
// Each input line is an operation {"op": OP, "a": OPERAND, "b": OPERAND}
// with OP one of parse, format, neg (a only), add, sub, mul, div, mod,
// cmp, eq. An OPERAND is either a leaf {"text": "...", "prec": P} -- P 512
// reads text with cty.ParseNumberVal, 64 with cty.NumberIntVal of the
// int64 it spells, 53 with cty.NumberFloatVal of the float64 it spells --
// or another operation, whose number it stands for.
//
// Each answer is {"text": T, "prec": P} (the number's Text('f', -1) and
// precision), {"cmp": -1|0|1}, {"bool": B}, or {"error": CODE}. The
// arithmetic runs through cty's stdlib operator functions, as HCL's
// operators do; their errors are named by the codes tfexpr uses
// (syntax, add-inf, sub-inf, mul-zero-inf, div-indet, mod-inf), and a
// panic inside modulo is "mod-panic".
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

type expr struct {
	Op   string `json:"op"`
	A    *expr  `json:"a"`
	B    *expr  `json:"b"`
	Text string `json:"text"`
	Prec int    `json:"prec"`
}

type failure string

var codes = map[string]string{
	"can't compute sum of opposing infinities":          "add-inf",
	"can't subtract infinity from itself":               "sub-inf",
	"can't multiply zero by infinity":                   "mul-zero-inf",
	"can't divide zero by zero or infinity by infinity": "div-indet",
	"can't use modulo with zero and infinity":           "mod-inf",
}

func leaf(e *expr) cty.Value {
	switch e.Prec {
	case 512:
		v, err := cty.ParseNumberVal(e.Text)
		if err != nil {
			panic(failure("syntax"))
		}
		return v
	case 64:
		i, err := strconv.ParseInt(e.Text, 10, 64)
		if err != nil {
			panic(failure("bad int64 operand"))
		}
		return cty.NumberIntVal(i)
	case 53:
		f, err := strconv.ParseFloat(e.Text, 64)
		if err != nil {
			panic(failure("bad float64 operand"))
		}
		return cty.NumberFloatVal(f)
	}
	panic(failure("bad precision"))
}

func call(op string, f function.Function, args ...cty.Value) cty.Value {
	v, err := f.Call(args)
	if err != nil {
		msg := err.Error()
		if code, ok := codes[msg]; ok {
			panic(failure(code))
		}
		if strings.HasPrefix(msg, "panic in function implementation") && op == "mod" {
			panic(failure("mod-panic"))
		}
		panic(failure("unexpected: " + strings.SplitN(msg, "\n", 2)[0]))
	}
	return v
}

func eval(e *expr) cty.Value {
	if e == nil {
		panic(failure("missing operand"))
	}
	switch e.Op {
	case "":
		return leaf(e)
	case "parse", "format":
		return eval(e.A)
	case "neg":
		return call(e.Op, stdlib.NegateFunc, eval(e.A))
	case "add":
		return call(e.Op, stdlib.AddFunc, eval(e.A), eval(e.B))
	case "sub":
		return call(e.Op, stdlib.SubtractFunc, eval(e.A), eval(e.B))
	case "mul":
		return call(e.Op, stdlib.MultiplyFunc, eval(e.A), eval(e.B))
	case "div":
		return call(e.Op, stdlib.DivideFunc, eval(e.A), eval(e.B))
	case "mod":
		return call(e.Op, stdlib.ModuloFunc, eval(e.A), eval(e.B))
	}
	panic(failure("bad op " + e.Op))
}

func answer(e *expr) (out map[string]interface{}) {
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(failure); ok {
				out = map[string]interface{}{"error": string(f)}
				return
			}
			out = map[string]interface{}{"error": fmt.Sprintf("go panic: %v", r)}
		}
	}()
	switch e.Op {
	case "cmp":
		a, b := eval(e.A), eval(e.B)
		c := 0
		if a.LessThan(b).True() {
			c = -1
		} else if a.GreaterThan(b).True() {
			c = 1
		}
		return map[string]interface{}{"cmp": c}
	case "eq":
		a, b := eval(e.A), eval(e.B)
		return map[string]interface{}{"bool": a.Equals(b).True()}
	}
	f := eval(e).AsBigFloat()
	return map[string]interface{}{"text": f.Text('f', -1), "prec": f.Prec()}
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<30)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		var e expr
		var res map[string]interface{}
		if err := json.Unmarshal(in.Bytes(), &e); err != nil {
			res = map[string]interface{}{"error": "bad request: " + err.Error()}
		} else {
			res = answer(&e)
		}
		b, _ := json.Marshal(res)
		out.Write(b)
		out.WriteByte('\n')
		out.Flush()
	}
}
