package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Every fn:<name> capability names a registered function.
func TestCapabilitiesAreRegistered(t *testing.T) {
	for _, name := range terraformSemanticsFunctions() {
		if _, ok := functionTable[name]; !ok {
			t.Errorf("fn:%s is declared but %q is not registered", name, name)
		}
	}
}

// One session through serve: answers in order, a panic does not end it,
// stop ends it with status 0 and no answer.
func TestSession(t *testing.T) {
	in := strings.Join([]string{
		`{"cmd":"hello","protocol":1,"profile":"P14"}`,
		`{"cmd":"run","seq":1,"case":{"mode":"expression","input":"1 + 2"}}`,
		`{"cmd":"run","seq":2,"case":{"mode":"expression","input":"tolist([\"a\",null])[*][*]"}}`,
		`not json`,
		`{"cmd":"run","seq":3,"case":{"mode":"template","input":"${true}"}}`,
		`{"cmd":"stop"}`,
		`{"cmd":"run","seq":4,"case":{"mode":"expression","input":"1"}}`,
	}, "\n") + "\n"
	var out, errOut bytes.Buffer
	if status := serve(strings.NewReader(in), &out, &errOut); status != 0 {
		t.Fatalf("status %d, stderr %s", status, errOut.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("got %d answers, want 5:\n%s", len(lines), out.String())
	}
	want := []string{
		``,
		`{"seq":1,"value":{"type":"number","v":"3"}}`,
		``,
		`{"errored":true,"message":"the request is not a valid JSON object: invalid character 'o' in literal null (expecting 'u')"}`,
		`{"seq":3,"value":{"type":"bool","v":true}}`,
	}
	for i, w := range want {
		if w != "" && lines[i] != w {
			t.Errorf("answer %d:\n got %s\nwant %s", i, lines[i], w)
		}
	}
	var panicked runAnswer
	if err := json.Unmarshal([]byte(lines[2]), &panicked); err != nil || !panicked.Errored || string(panicked.Seq) != "2" {
		t.Errorf("answer 2 is not an errored answer for seq 2: %s", lines[2])
	}
}
