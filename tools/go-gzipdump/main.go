// SPDX-License-Identifier: MPL-2.0
// go-gzipdump answers tools/gzipdiff's requests with Go's compress/gzip
// (the Go that builds it: 1.19 for profile P14), in the format of
// impl/test/gzipdump.c, which documents it:
//
//	request: decimal length, newline, that many raw bytes
//	answer:  base64 of the gzip member, written as Terraform's base64gzip
//	         writes it: gzip.NewWriter, one Write, Flush, Close
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for {
		line, err := in.ReadString('\n')
		if err != nil {
			return
		}
		n, err := strconv.Atoi(strings.TrimSpace(line))
		if err != nil || n < 0 {
			fmt.Fprintln(os.Stderr, "go-gzipdump: bad request")
			os.Exit(2)
		}
		data := make([]byte, n)
		if _, err := io.ReadFull(in, data); err != nil {
			fmt.Fprintln(os.Stderr, "go-gzipdump: short input")
			os.Exit(2)
		}
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		if _, err := w.Write(data); err != nil {
			fmt.Fprintln(out, "X", err)
			continue
		}
		if err := w.Flush(); err != nil {
			fmt.Fprintln(out, "X", err)
			continue
		}
		if err := w.Close(); err != nil {
			fmt.Fprintln(out, "X", err)
			continue
		}
		fmt.Fprintln(out, base64.StdEncoding.EncodeToString(b.Bytes()))
		out.Flush()
	}
}
