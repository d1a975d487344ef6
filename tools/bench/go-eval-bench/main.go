// SPDX-License-Identifier: MPL-2.0
// Command go-eval-bench measures how fast upstream HCL parses and
// evaluates expressions: for each FILE (eval-<workload>.hcl, with its
// variables in eval-<workload>.vars.json as plain cty JSON) it parses and
// evaluates the file repeatedly for at least the given time, with the
// variables and cty's functions of the same names tfexpr's benchmark
// uses, and prints one JSON line {"file", "bytes", "seconds_per_eval",
// "mb_per_s", "elements", "mallocs_per_eval", "alloc_bytes_per_byte",
// "live_bytes_per_byte"}: the last three from the runtime's counters over
// one parse and evaluation (heap objects allocated; bytes allocated over
// the source's bytes; and the heap still live after a collection while the
// expression and its value are held, over the source's bytes).  Go frees
// by collection, so its peak lies between the last two: live_bytes is at
// most the peak, alloc_bytes at least it.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

var functions = map[string]function.Function{
	"upper":      stdlib.UpperFunc,
	"lower":      stdlib.LowerFunc,
	"max":        stdlib.MaxFunc,
	"min":        stdlib.MinFunc,
	"jsonencode": stdlib.JSONEncodeFunc,
}

func loadVars(path string) (map[string]cty.Value, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	ty, err := ctyjson.ImpliedType(src)
	if err != nil {
		return nil, err
	}
	v, err := ctyjson.Unmarshal(src, ty)
	if err != nil {
		return nil, err
	}
	return v.AsValueMap(), nil
}

func main() {
	minTime := flag.Duration("time", time.Second, "minimum measuring time per file")
	flag.Parse()
	for _, path := range flag.Args() {
		src, err := os.ReadFile(path)
		if err == nil {
			var vars map[string]cty.Value
			vars, err = loadVars(strings.TrimSuffix(path, ".hcl") + ".vars.json")
			if err == nil {
				run(path, src, vars, *minTime)
				continue
			}
		}
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

func run(path string, src []byte, vars map[string]cty.Value, minTime time.Duration) {
	ctx := &hcl.EvalContext{Variables: vars, Functions: functions}
	eval := func() (cty.Value, hcl.Diagnostics) {
		expr, diags := hclsyntax.ParseExpression(src, path, hcl.Pos{Line: 1, Column: 1})
		if diags.HasErrors() {
			return cty.NilVal, diags
		}
		return expr.Value(ctx)
	}
	v, diags := eval()
	if diags.HasErrors() {
		fmt.Fprintf(os.Stderr, "%s: %s\n", path, diags.Error())
		os.Exit(1)
	}
	var before, after, held runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	expr, _ := hclsyntax.ParseExpression(src, path, hcl.Pos{Line: 1, Column: 1})
	val, _ := expr.Value(ctx)
	runtime.ReadMemStats(&after)
	runtime.GC()
	runtime.ReadMemStats(&held)
	runtime.KeepAlive(expr)
	runtime.KeepAlive(val)
	mallocs := after.Mallocs - before.Mallocs
	allocBytes := after.TotalAlloc - before.TotalAlloc
	liveBytes := int64(held.HeapAlloc) - int64(before.HeapAlloc)
	n := 0
	begin := time.Now()
	for time.Since(begin) < minTime || n < 3 {
		eval()
		n++
	}
	per := time.Since(begin).Seconds() / float64(n)
	line, _ := json.Marshal(map[string]interface{}{
		"file": path, "bytes": len(src), "seconds_per_eval": per,
		"mb_per_s": float64(len(src)) / per / 1e6, "elements": v.LengthInt(),
		"mallocs_per_eval":     mallocs,
		"alloc_bytes_per_byte": float64(allocBytes) / float64(len(src)),
		"live_bytes_per_byte":  float64(liveBytes) / float64(len(src)),
	})
	fmt.Println(string(line))
}
