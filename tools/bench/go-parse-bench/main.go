// SPDX-License-Identifier: MPL-2.0
// Command go-parse-bench measures how fast upstream HCL parses: for each
// WORKLOAD (a directory <workload>.<size>.<mode> of parts *.hcl, read in
// the order of their names, or one file; see impl/test/bench_input.h) it
// parses every part in turn, pass after pass, for at least the given time
// and prints one JSON line {"file", "bytes", "parts", "seconds_per_pass",
// "mb_per_s", "mallocs_per_parse", "alloc_bytes_per_byte"}, as bench_parse
// does for tfexpr (bytes: of all parts; a pass: every part parsed once).
// The last two come from the runtime's counters over one pass: heap
// objects allocated per part, and bytes allocated over the source's bytes
// (Go frees by collection, so these are allocations, not a peak).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// readWorkload returns the parts of the workload at path.
func readWorkload(path string) ([][]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	names := []string{path}
	if info.IsDir() {
		names, err = filepath.Glob(filepath.Join(path, "*.hcl"))
		if err != nil {
			return nil, err
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("%s: no part (*.hcl)", path)
		}
		sort.Strings(names)
	}
	parts := make([][]byte, 0, len(names))
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		parts = append(parts, src)
	}
	return parts, nil
}

func main() {
	minTime := flag.Duration("time", time.Second, "minimum measuring time per workload")
	flag.Parse()
	for _, path := range flag.Args() {
		parts, err := readWorkload(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		template := strings.Contains(path, ".template")
		bytes := 0
		for _, src := range parts {
			bytes += len(src)
		}
		// pass parses every part once; it returns the first part's errors.
		pass := func() hcl.Diagnostics {
			var first hcl.Diagnostics
			for _, src := range parts {
				start := hcl.Pos{Line: 1, Column: 1}
				var d hcl.Diagnostics
				if template {
					_, d = hclsyntax.ParseTemplate(src, path, start)
				} else {
					_, d = hclsyntax.ParseExpression(src, path, start)
				}
				if d.HasErrors() && first == nil {
					first = d
				}
			}
			return first
		}
		if diags := pass(); diags.HasErrors() {
			fmt.Fprintf(os.Stderr, "%s: %s\n", path, diags.Error())
			os.Exit(1)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		pass()
		runtime.ReadMemStats(&after)
		mallocs := (after.Mallocs - before.Mallocs + uint64(len(parts))/2) / uint64(len(parts))
		allocBytes := after.TotalAlloc - before.TotalAlloc
		n := 0
		begin := time.Now()
		for time.Since(begin) < *minTime || n < 3 {
			pass()
			n++
		}
		per := time.Since(begin).Seconds() / float64(n)
		line, _ := json.Marshal(map[string]interface{}{
			"file": path, "bytes": bytes, "parts": len(parts), "seconds_per_pass": per,
			"mb_per_s":             float64(bytes) / per / 1e6,
			"mallocs_per_parse":    mallocs,
			"alloc_bytes_per_byte": float64(allocBytes) / float64(bytes),
		})
		fmt.Println(string(line))
	}
}
