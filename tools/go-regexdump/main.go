// SPDX-License-Identifier: MPL-2.0
// go-regexdump answers tools/regexdiff's requests with Go's regexp (the
// Go that builds it: 1.19 for profile P14), in the line format of
// impl/test/regexdump.c, which documents it:
//
//	request: hex(pattern) hex(subject) hex(template)   ("-" = empty)
//	answer:  E hex(err.Error())
//	         M ngroups names matches hex(ReplaceAllString(subject, template))
package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

func unhexField(f string) (string, error) {
	if f == "-" {
		return "", nil
	}
	b, err := hex.DecodeString(f)
	return string(b), err
}

func hexField(s string) string {
	if s == "" {
		return "-"
	}
	return hex.EncodeToString([]byte(s))
}

func answer(line string) string {
	fields := strings.Split(line, " ")
	if len(fields) != 3 {
		return "X bad request"
	}
	var parts [3]string
	for i, f := range fields {
		s, err := unhexField(f)
		if err != nil {
			return "X bad request"
		}
		parts[i] = s
	}
	re, err := regexp.Compile(parts[0])
	if err != nil {
		return "E " + hexField(err.Error())
	}
	var b strings.Builder
	n := re.NumSubexp()
	fmt.Fprintf(&b, "M %d ", n)
	if n == 0 {
		b.WriteString("-")
	}
	for i, name := range re.SubexpNames()[1:] {
		if i > 0 {
			b.WriteString(",")
		}
		if name == "" {
			b.WriteString(".")
		} else {
			b.WriteString(hexField(name))
		}
	}
	b.WriteString(" ")
	all := re.FindAllStringSubmatchIndex(parts[1], -1)
	if len(all) == 0 {
		b.WriteString("-")
	}
	for i, m := range all {
		if i > 0 {
			b.WriteString(";")
		}
		for k, x := range m {
			if k > 0 {
				b.WriteString(",")
			}
			b.WriteString(strconv.Itoa(x))
		}
	}
	b.WriteString(" ")
	b.WriteString(hexField(re.ReplaceAllString(parts[1], parts[2])))
	return b.String()
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		fmt.Fprintln(out, answer(in.Text()))
		out.Flush()
	}
}
