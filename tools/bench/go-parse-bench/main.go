// SPDX-License-Identifier: MPL-2.0
// Command go-parse-bench measures how fast upstream HCL parses files:
// for each FILE (named <workload>.<size>.<mode>.hcl) it parses the whole
// file repeatedly for at least the given time and prints one JSON line
// {"file", "bytes", "seconds_per_parse", "mb_per_s", "mallocs_per_parse",
// "alloc_bytes_per_byte"}: the last two from the runtime's counters over one
// parse (heap objects allocated, and bytes allocated over the source's
// bytes; Go frees by collection, so these are allocations, not a peak).
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
)

func main() {
	minTime := flag.Duration("time", time.Second, "minimum measuring time per file")
	flag.Parse()
	for _, path := range flag.Args() {
		src, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		template := strings.Contains(path, ".template.")
		parse := func() hcl.Diagnostics {
			start := hcl.Pos{Line: 1, Column: 1}
			if template {
				_, d := hclsyntax.ParseTemplate(src, path, start)
				return d
			}
			_, d := hclsyntax.ParseExpression(src, path, start)
			return d
		}
		if diags := parse(); diags.HasErrors() {
			fmt.Fprintf(os.Stderr, "%s: %s\n", path, diags.Error())
			os.Exit(1)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		parse()
		runtime.ReadMemStats(&after)
		mallocs := after.Mallocs - before.Mallocs
		allocBytes := after.TotalAlloc - before.TotalAlloc
		n := 0
		begin := time.Now()
		for time.Since(begin) < *minTime || n < 3 {
			parse()
			n++
		}
		per := time.Since(begin).Seconds() / float64(n)
		line, _ := json.Marshal(map[string]interface{}{
			"file": path, "bytes": len(src), "seconds_per_parse": per,
			"mb_per_s":             float64(len(src)) / per / 1e6,
			"mallocs_per_parse":    mallocs,
			"alloc_bytes_per_byte": float64(allocBytes) / float64(len(src)),
		})
		fmt.Println(string(line))
	}
}
