// SPDX-License-Identifier: MPL-2.0
package main

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	homedir "github.com/mitchellh/go-homedir"
)

// A case's host description (conformance/README.md, "Host description"):
// the outside world the functions that need one see. The adapter makes it
// real for the duration of one case:
//
//   - files: written into a fresh temporary directory, which becomes the
//     process's working directory, so that Terraform's functions (which
//     resolve relative paths against ".") read them; the case's "cwd"
//     (default "/work") is the virtual name of that directory: abspath
//     and pathexpand results under the real directory are rewritten to
//     start with it, and absolute paths under it given to the file
//     functions are rewritten to the real directory (resolvePath);
//   - home: $HOME for go-homedir (its cache disabled), rewritten to the
//     real directory when it lies under "cwd";
//   - now: the clock of timestamp(); plan_timestamp: plantimestamp()'s
//     time (absent: unknown);
//   - random: crypto/rand.Reader replaced by a reader of those bytes, so
//     uuid() (hashicorp/go-uuid) and bcrypt's salt (x/crypto) use them in
//     order; absent: a reader with no bytes.
//
// What stays real: the temporary directory's own path (hidden by the
// rewriting above, but visible in error messages that name an absolute
// resolved path) and the file system's behaviour (permissions, links).

// hostDescription is a case's "host".
type hostDescription struct {
	Files         map[string]string `json:"files"`
	Now           *string           `json:"now"`
	PlanTimestamp *string           `json:"plan_timestamp"`
	Random        *string           `json:"random"`
	Home          *string           `json:"home"`
	Cwd           *string           `json:"cwd"`
}

// activeHost is the host of the case being run, or nil.
var activeHost *hostState

type hostState struct {
	virtualCwd string
	realCwd    string
}

// hostPlan is plantimestamp()'s time while a host is active (zero: none).
var hostPlan struct {
	active bool
	t      time.Time
}

// mapOut rewrites a path under the real working directory to the virtual
// one.
func hostMapOut(p string) string {
	h := activeHost
	if h == nil {
		return p
	}
	if p == h.realCwd {
		return h.virtualCwd
	}
	if strings.HasPrefix(p, h.realCwd+"/") {
		return filepath.Join(h.virtualCwd, p[len(h.realCwd)+1:])
	}
	return p
}

// hostMapIn rewrites an absolute path under the virtual working directory
// to the real one.
func hostMapIn(p string) string {
	h := activeHost
	if h == nil || !filepath.IsAbs(p) {
		return p
	}
	// already real (a $HOME rewritten by applyHost, which "~" expands to);
	// with "cwd" "/" every absolute path would otherwise be rewritten twice
	if p == h.realCwd || strings.HasPrefix(p, h.realCwd+"/") {
		return p
	}
	if p == h.virtualCwd {
		return h.realCwd
	}
	prefix := h.virtualCwd + "/"
	if h.virtualCwd == "/" {
		prefix = "/"
	}
	if strings.HasPrefix(p, prefix) {
		return filepath.Join(h.realCwd, p[len(prefix):])
	}
	return p
}

// applyHost makes d the outside world; the function returned undoes it.
func applyHost(d *hostDescription) (func(), error) {
	dir, err := os.MkdirTemp("", "tfexpr-host-")
	if err != nil {
		return nil, err
	}
	oldWd, err := os.Getwd()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	oldHome, hadHome := os.LookupEnv("HOME")
	oldReader := rand.Reader
	oldNow := fixedNow
	undo := func() {
		os.Chdir(oldWd)
		os.RemoveAll(dir)
		if hadHome {
			os.Setenv("HOME", oldHome)
		} else {
			os.Unsetenv("HOME")
		}
		rand.Reader = oldReader
		fixedNow = oldNow
		hostPlan.active = false
		hostPlan.t = time.Time{}
		activeHost = nil
	}
	fail := func(err error) (func(), error) {
		undo()
		return nil, err
	}
	for name, b64 := range d.Files {
		data, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			return fail(fmt.Errorf("host.files.%s: %v", name, err))
		}
		clean := filepath.Clean(name)
		if filepath.IsAbs(clean) || clean == "." || clean == ".." || strings.HasPrefix(clean, "../") {
			return fail(fmt.Errorf("host.files: %s is not a relative path inside the root", name))
		}
		full := filepath.Join(dir, clean)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return fail(err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			return fail(err)
		}
	}
	if err := os.Chdir(dir); err != nil {
		return fail(err)
	}
	realCwd, err := os.Getwd()
	if err != nil {
		return fail(err)
	}
	state := &hostState{virtualCwd: "/work", realCwd: realCwd}
	if d.Cwd != nil {
		state.virtualCwd = filepath.Clean(*d.Cwd)
	}
	activeHost = state
	homedir.DisableCache = true
	if d.Home != nil {
		os.Setenv("HOME", hostMapIn(filepath.Clean(*d.Home)))
	} else {
		os.Unsetenv("HOME")
	}
	fixedNow = time.Time{}
	if d.Now != nil {
		t, err := time.Parse(time.RFC3339, *d.Now)
		if err != nil {
			return fail(fmt.Errorf("host.now: %v", err))
		}
		fixedNow = t
	}
	hostPlan.active = true
	if d.PlanTimestamp != nil {
		t, err := time.Parse(time.RFC3339, *d.PlanTimestamp)
		if err != nil {
			return fail(fmt.Errorf("host.plan_timestamp: %v", err))
		}
		hostPlan.t = t
	}
	var random []byte
	if d.Random != nil {
		random, err = base64.StdEncoding.DecodeString(*d.Random)
		if err != nil {
			return fail(fmt.Errorf("host.random: %v", err))
		}
	}
	rand.Reader = io.Reader(bytes.NewReader(random))
	return undo, nil
}
