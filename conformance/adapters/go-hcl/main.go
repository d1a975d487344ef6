// SPDX-License-Identifier: MPL-2.0
// Command go-hcl-adapter is the reference adapter of the tfexpr conformance
// suite. It speaks the suite's JSON-lines protocol (conformance/README.md) on
// stdin/stdout and answers every case with what upstream HCL and cty do with
// it: HCL 2.14.1 and cty 1.12.1 (Debian's packages, profile P14) by default,
// or with the "pn" build tag the versions current Terraform pins (profile
// PN); profile_p14.go and profile_pn.go hold what differs.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/debug"
	"time"
)

const (
	protocolVersion = 1
	implName        = "go-hcl"
	implLanguage    = "go"
)

const usageText = `usage: go-hcl-adapter [--base-dir DIR] [--now TIME] | --help | --version

The reference adapter of the tfexpr conformance suite: ` + libraryLine + ` (profile ` + profileID + `) behind the suite's JSON-lines protocol.

It reads one JSON request per line on stdin and writes one JSON answer per
request on stdout (see conformance/README.md):

  {"cmd":"hello","protocol":1,"profile":"` + profileID + `"}  -> implementation, capabilities
  {"cmd":"run","seq":N,"case":{...}}           -> value, diagnostics,
                                                  unsupported or errored
  {"cmd":"stop"}                                -> exit 0 (so does end of input)

Options:
  --base-dir DIR  work in DIR: the file functions resolve relative paths
                  against it (as Terraform does against the root module's
                  directory) and abspath against it (default: the current
                  directory)
  --now TIME      an RFC 3339 time: what timestamp() returns (in UTC) and
                  plantimestamp() returns (as given); without it,
                  timestamp() reads the clock and plantimestamp() is unknown
  --help          print this text and exit
  --version       print the implementation name and version and exit

Typically run by the conformance runner:
  bin/tfexpr-conformance --adapter bin/go-hcl-adapter --profile ` + profileID + `
`

func main() {
	args := os.Args[1:]
	for len(args) > 0 {
		arg := args[0]
		args = args[1:]
		switch arg {
		case "--help", "-help", "-h":
			fmt.Print(usageText)
			os.Exit(0)
		case "--version", "-version":
			fmt.Printf("%s %s (protocol %d, profile %s)\n", implName, implVersion, protocolVersion, profileID)
			os.Exit(0)
		case "--base-dir", "--now":
			if len(args) == 0 {
				usageError("%s needs a value", arg)
			}
			value := args[0]
			args = args[1:]
			if err := applyOption(arg, value); err != nil {
				usageError("%s: %v", arg, err)
			}
		default:
			usageError("unknown argument %q", arg)
		}
	}
	os.Exit(serve(os.Stdin, os.Stdout, os.Stderr))
}

// usageError reports a bad command line and exits with status 2.
func usageError(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "go-hcl-adapter: %s\n\n%s", fmt.Sprintf(format, args...), usageText)
	os.Exit(2)
}

// applyOption applies --base-dir (the working directory becomes DIR) or
// --now (fixedNow, tf_datetime.go).
func applyOption(name, value string) error {
	switch name {
	case "--base-dir":
		return os.Chdir(value)
	case "--now":
		t, err := time.Parse(time.RFC3339, value)
		if err != nil {
			return err
		}
		fixedNow = t
	}
	return nil
}

// serve runs the request loop until "stop" or end of input and returns the
// process exit status.
func serve(in io.Reader, out, errOut io.Writer) int {
	r := bufio.NewReaderSize(in, 1<<16)
	w := bufio.NewWriter(out)
	for {
		line, readErr := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			answer, stop := handleLine(line)
			if stop {
				return 0
			}
			if err := writeAnswer(w, answer); err != nil {
				fmt.Fprintf(errOut, "go-hcl-adapter: cannot write answer: %v\n", err)
				return 1
			}
		}
		if readErr == io.EOF {
			return 0
		}
		if readErr != nil {
			fmt.Fprintf(errOut, "go-hcl-adapter: cannot read request: %v\n", readErr)
			return 1
		}
	}
}

// writeAnswer writes one answer as one line of JSON and flushes it.
func writeAnswer(w *bufio.Writer, answer interface{}) error {
	buf, err := marshalLine(answer)
	if err != nil {
		// Should not happen: answers are built from plain Go data. Say so
		// on the protocol rather than dying.
		buf, _ = marshalLine(runAnswer{Errored: true, Message: "cannot encode the answer: " + err.Error()})
	}
	if _, err := w.Write(buf); err != nil {
		return err
	}
	return w.Flush()
}

// marshalLine encodes v as compact JSON followed by a newline. HTML
// characters are left unescaped so that answers stay readable.
func marshalLine(v interface{}) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// request is one protocol message from the runner.
type request struct {
	Cmd      *string         `json:"cmd"`
	Seq      json.RawMessage `json:"seq"`
	Protocol json.RawMessage `json:"protocol"`
	Profile  json.RawMessage `json:"profile"`
	Case     json.RawMessage `json:"case"`
}

// helloAnswer is the answer to "hello".
type helloAnswer struct {
	Protocol       int            `json:"protocol"`
	Implementation implementation `json:"implementation"`
	Capabilities   []string       `json:"capabilities"`
	Profiles       []string       `json:"profiles"`
}

type implementation struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	Language string `json:"language"`
}

// runAnswer is the answer to "run" and to anything the adapter cannot take.
type runAnswer struct {
	Seq         json.RawMessage `json:"seq,omitempty"`
	Value       *node           `json:"value,omitempty"`
	Refs        *[]refJSON      `json:"refs,omitempty"`
	Diagnostics []diagJSON      `json:"diagnostics,omitempty"`
	// Parsed carries the diagnostics of a "parse" request, which are
	// sent even when there are none (an empty list: the input parses).
	Parsed      *[]diagJSON `json:"-"`
	Unsupported bool        `json:"unsupported,omitempty"`
	Errored     bool        `json:"errored,omitempty"`
	Message     string      `json:"message,omitempty"`
}

// seqPattern digs a seq out of a line that is not valid JSON, so that even
// that errored answer can name the request it belongs to.
var seqPattern = regexp.MustCompile(`"seq"\s*:\s*(-?[0-9]+)`)

// handleLine answers one input line. stop reports a "stop" command, which
// has no answer.
func handleLine(line []byte) (answer interface{}, stop bool) {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		ans := runAnswer{Errored: true, Message: "the request is not a valid JSON object: " + err.Error()}
		if m := seqPattern.FindSubmatch(line); m != nil {
			ans.Seq = json.RawMessage(m[1])
		}
		return ans, false
	}
	if req.Cmd == nil {
		return runAnswer{Seq: req.Seq, Errored: true, Message: `the request has no "cmd"`}, false
	}
	switch *req.Cmd {
	case "hello":
		return helloAnswer{
			Protocol: protocolVersion,
			Implementation: implementation{
				Name:     implName,
				Version:  implVersion,
				Language: implLanguage,
			},
			Capabilities: capabilities(),
			Profiles:     []string{profileID},
		}, false
	case "stop":
		return nil, true
	case "run":
		ans := runRequest(req.Case)
		ans.Seq = req.Seq
		return ans, false
	default:
		return runAnswer{Seq: req.Seq, Errored: true, Message: fmt.Sprintf("unknown cmd %q", *req.Cmd)}, false
	}
}

// runRequest answers one "run" request. Any panic on the way (parse,
// evaluation, value encoding) becomes an errored answer; the process goes on.
func runRequest(rawCase json.RawMessage) (ans runAnswer) {
	defer func() {
		if r := recover(); r != nil {
			ans = runAnswer{
				Errored: true,
				Message: fmt.Sprintf("panic: %v\n\n%s", r, debug.Stack()),
			}
		}
	}()
	if len(rawCase) == 0 || string(rawCase) == "null" {
		return runAnswer{Errored: true, Message: `the run request has no "case"`}
	}
	var c caseRequest
	if err := json.Unmarshal(rawCase, &c); err != nil {
		return runAnswer{Errored: true, Message: "malformed case: " + err.Error()}
	}
	return runCase(&c)
}

// capabilities lists what the hello answer declares: the modes, the parse,
// convert, refs and console requests, unknowns, marks, grapheme columns,
// go-cty's 512-bit numbers, fn:<name> for every function of
// functions.go's tables (all of them Terraform's), and OpenTofu's table:
// flavor.opentofu and fn:<name> for each function only it has.
func capabilities() []string {
	caps := []string{
		"mode.expression",
		"mode.template",
		"request.parse",
		"request.convert",
		"request.refs",
		"request.console",
		"host",
		"unknown",
		"marks",
		"ranges.column",
		"numeric.bigfloat512",
	}
	caps = append(caps, profileCapabilities...)
	for _, name := range terraformSemanticsFunctions() {
		caps = append(caps, "fn:"+name)
	}
	// OpenTofu's table (a case's "flavor": "opentofu", tf_opentofu.go).
	caps = append(caps, "flavor.opentofu")
	for _, name := range openTofuOnlyFunctions() {
		caps = append(caps, "fn:"+name)
	}
	return caps
}

// MarshalJSON writes a parse answer with its diagnostics list even when
// the list is empty (the input parses cleanly); other answers as they are.
func (a runAnswer) MarshalJSON() ([]byte, error) {
	type plain runAnswer
	if a.Parsed == nil {
		return json.Marshal(plain(a))
	}
	return json.Marshal(struct {
		Seq         json.RawMessage `json:"seq,omitempty"`
		Diagnostics []diagJSON      `json:"diagnostics"`
	}{a.Seq, *a.Parsed})
}
