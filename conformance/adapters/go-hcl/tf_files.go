// SPDX-License-Identifier: MPL-2.0
package main

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	homedir "github.com/mitchellh/go-homedir"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Terraform's file and path functions (Terraform's
// internal/lang/funcs/filesystem.go and crypto.go on its main branch):
// file, filebase64, fileexists, fileset, templatefile, filemd5, filesha1,
// filesha256, filesha512, filebase64sha256, filebase64sha512, abspath,
// dirname, basename, pathexpand.
//
// The base directory: Terraform resolves relative paths against the
// module's directory, which for the root module is "." (the working
// directory). The adapter does the same: baseDir is ".", and its option
// --base-dir DIR (main.go) makes DIR the working directory before the
// first request, so that relative paths, abspath and the paths in error
// messages are what `terraform` run in DIR gives. "~" expands to $HOME
// (go-homedir, Debian's 1.1.0 = Terraform's). Nothing confines the
// functions to the base directory, exactly as in Terraform: absolute
// paths, "..", symbolic links and "~" reach anywhere.
//
// Library versions: github.com/bmatcuk/doublestar is Debian's 2.0.4 in
// the P14 build (the v2 module, in GOPATH under the v1 import path) and
// 1.1.5, Terraform's pin, in the PN build (tools/pn-fetch); both have
// Glob(pattern) ([]string, error). The same glob syntax (*, **, ?, [...],
// {a,b}, \ escapes), not the same corner cases: 1.1.5 splits at "/"
// before reading alternatives, does not nest them, and drops an error
// after a "*" (README.md, "Library versions").

// baseDir is the directory relative paths are resolved against.
const baseDir = "."

// resolvePath is Terraform's file path rule: "~" expanded, a relative path
// joined to baseDir, the result cleaned.
func resolvePath(path string) (string, error) {
	path, err := homedir.Expand(path)
	if err != nil {
		return "", fmt.Errorf("failed to expand ~: %w", err)
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(baseDir, path)
	}
	return hostMapIn(filepath.Clean(path)), nil
}

// readFileBytes reads a file for file, filebase64 and templatefile: a
// missing file gets Terraform's hint (the path as given, or "(sensitive
// value)"), other open errors are Go's, read errors are wrapped.
func readFileBytes(path string, marks cty.ValueMarks) ([]byte, error) {
	resolved, err := resolvePath(path)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(resolved)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("no file exists at %s; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource", redacted(path, marks))
		}
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("failed to read file: %w", err)
	}
	return src, nil
}

// pathParam is the path parameter of the file functions that take marked
// and unknown paths.
var pathParam = function.Parameter{Name: "path", Type: cty.String, AllowMarked: true, AllowUnknown: true}

// fileFunc is Terraform's file(path) (base64 false) or filebase64(path)
// (true): the file's bytes, as a string (they must be UTF-8: otherwise a
// call error) or in standard base64. The path's marks go on the result;
// an unknown path gives an unknown string with them. A file that cannot be
// read is an argument error.
func fileFunc(base64Result bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{pathParam},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			pathVal, marks := args[0].Unmark()
			if !pathVal.IsKnown() {
				return cty.UnknownVal(cty.String).WithMarks(marks), nil
			}
			path := pathVal.AsString()
			src, err := readFileBytes(path, marks)
			if err != nil {
				return cty.UnknownVal(cty.String), function.NewArgError(0, err)
			}
			if base64Result {
				return cty.StringVal(base64.StdEncoding.EncodeToString(src)).WithMarks(marks), nil
			}
			if !utf8.Valid(src) {
				return cty.UnknownVal(cty.String), fmt.Errorf("contents of %s are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead", redacted(path, marks))
			}
			return cty.StringVal(string(src)).WithMarks(marks), nil
		},
	})
}

var (
	tfFileFunc       = fileFunc(false)
	tfFileBase64Func = fileFunc(true)
)

// tfFileExistsFunc is Terraform's fileexists(path): true for a regular
// file (symbolic links followed), false when nothing is there, with the
// path's marks; an unknown path gives an unknown bool with them. A
// directory, device, named pipe, socket or other irregular file is an
// error naming the resolved path; Terraform reports it as an argument
// error on a second parameter fileexists does not have, so HCL 2.14.1
// makes it an "Error in function call". Another stat failure is a call
// error.
var tfFileExistsFunc = function.New(&function.Spec{
	Params: []function.Parameter{pathParam},
	Type:   function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		pathVal, marks := args[0].Unmark()
		if !pathVal.IsKnown() {
			return cty.UnknownVal(cty.Bool).WithMarks(marks), nil
		}
		path, err := resolvePath(pathVal.AsString())
		if err != nil {
			return cty.UnknownVal(cty.Bool), err
		}
		fi, err := os.Stat(path)
		if err != nil {
			if os.IsNotExist(err) {
				return cty.False.WithMarks(marks), nil
			}
			return cty.UnknownVal(cty.Bool), fmt.Errorf("failed to stat %s", redacted(path, marks))
		}
		if fi.Mode().IsRegular() {
			return cty.True.WithMarks(marks), nil
		}
		name := redacted(path, marks)
		kind := fi.Mode().Type()
		switch {
		case kind&os.ModeDir != 0:
			err = function.NewArgErrorf(1, "%s is a directory, not a file", name)
		case kind&os.ModeDevice != 0:
			err = function.NewArgErrorf(1, "%s is a device node, not a regular file", name)
		case kind&os.ModeNamedPipe != 0:
			err = function.NewArgErrorf(1, "%s is a named pipe, not a regular file", name)
		case kind&os.ModeSocket != 0:
			err = function.NewArgErrorf(1, "%s is a unix domain socket, not a regular file", name)
		default:
			err = function.NewArgErrorf(1, "%s is not a regular file", name)
		}
		return cty.False, err
	},
})

// tfFileSetFunc is Terraform's fileset(path, pattern): the regular files
// (after following symbolic links) that doublestar's Glob matches with
// pattern joined to path (path joined to baseDir when relative), relative
// to path with "/" separators, as a set. Both arguments' marks go on the
// result; an unknown one gives an unknown set with them. Glob, stat and
// relative-path failures are call errors.
var tfFileSetFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		pathParam,
		{Name: "pattern", Type: cty.String, AllowMarked: true, AllowUnknown: true},
	},
	Type: function.StaticReturnType(cty.Set(cty.String)),
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		pathVal, pathMarks := args[0].Unmark()
		patternVal, patternMarks := args[1].Unmark()
		marks := []cty.ValueMarks{pathMarks, patternMarks}
		if !pathVal.IsKnown() || !patternVal.IsKnown() {
			return cty.UnknownVal(retType).WithMarks(marks...), nil
		}
		dir := pathVal.AsString()
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(baseDir, dir)
		}
		dir = hostMapIn(dir)
		pattern := filepath.Join(dir, patternVal.AsString())
		matches, err := doublestar.Glob(pattern)
		if err != nil {
			return cty.UnknownVal(retType), fmt.Errorf("failed to glob pattern %s: %w", redacted(pattern, marks...), err)
		}
		var found []cty.Value
		for _, m := range matches {
			fi, err := os.Stat(m)
			if err != nil {
				return cty.UnknownVal(retType), fmt.Errorf("failed to stat %s: %w", redacted(m, marks...), err)
			}
			if !fi.Mode().IsRegular() {
				continue
			}
			rel, err := filepath.Rel(dir, m)
			if err != nil {
				return cty.UnknownVal(retType), fmt.Errorf("failed to trim path of match %s: %w", redacted(rel, marks...), err)
			}
			found = append(found, cty.StringVal(filepath.ToSlash(rel)))
		}
		if len(found) == 0 {
			return cty.SetValEmpty(cty.String).WithMarks(marks...), nil
		}
		return cty.SetVal(found).WithMarks(marks...), nil
	},
})

// fileHashFunc is one of Terraform's file hash functions: the digest of
// the file's bytes, written with enc. The path may not be marked or
// unknown (cty's rules apply); open and read errors are Go's, as call
// errors.
func fileHashFunc(newHash func() hash.Hash, enc func([]byte) string) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "path", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			path, err := resolvePath(args[0].AsString())
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			f, err := os.Open(path)
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			defer f.Close()
			h := newHash()
			if _, err := io.Copy(h, f); err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(enc(h.Sum(nil))), nil
		},
	})
}

// Terraform's filemd5, filesha1, filesha256, filesha512 (hex) and
// filebase64sha256, filebase64sha512 (base64).
var (
	tfFileMd5Func          = fileHashFunc(md5.New, hex.EncodeToString)
	tfFileSha1Func         = fileHashFunc(sha1.New, hex.EncodeToString)
	tfFileSha256Func       = fileHashFunc(sha256.New, hex.EncodeToString)
	tfFileSha512Func       = fileHashFunc(sha512.New, hex.EncodeToString)
	tfFileBase64Sha256Func = fileHashFunc(sha256.New, base64.StdEncoding.EncodeToString)
	tfFileBase64Sha512Func = fileHashFunc(sha512.New, base64.StdEncoding.EncodeToString)
)

// makeTemplateFileFunc is Terraform's templatefile(path, vars): the file
// read as file() does (its errors included: an argument error on path for
// a missing file), parsed as a template named by the path as given (parse
// errors returned as hcl.Diagnostics, so a call error), and rendered with
// vars by templateRenderer with the filesystem functions allowed (the
// template functions refused). The template is rendered once already when
// the result type is checked (when both arguments are known), and its
// errors come from there. An unknown path or vars gives an unknown result;
// the result carries the marks of the path (through the file's contents)
// and all of vars' marks.
func makeTemplateFileFunc(table func() map[string]function.Function) function.Function {
	render := templateRenderer(table, true)
	load := func(path string, marks cty.ValueMarks) (hcl.Expression, cty.ValueMarks, error) {
		content, err := tfFileFunc.Call([]cty.Value{cty.StringVal(path).WithMarks(marks)})
		if err != nil {
			return nil, nil, err
		}
		content, marks = content.Unmark()
		expr, diags := hclsyntax.ParseTemplate([]byte(content.AsString()), path, hcl.Pos{Line: 1, Column: 1})
		if diags.HasErrors() {
			return nil, nil, diags
		}
		return expr, marks, nil
	}
	return function.New(&function.Spec{
		Params: []function.Parameter{
			pathParam,
			{Name: "vars", Type: cty.DynamicPseudoType, AllowMarked: true, AllowUnknown: true},
		},
		Type: func(args []cty.Value) (cty.Type, error) {
			if !args[0].IsKnown() || !args[1].IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			pathVal, marks := args[0].Unmark()
			expr, _, err := load(pathVal.AsString(), marks)
			if err != nil {
				return cty.DynamicPseudoType, err
			}
			vars, _ := args[1].UnmarkDeep()
			val, err := render(expr, vars)
			return val.Type(), err
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			pathVal, pathMarks := args[0].Unmark()
			vars, varsMarks := args[1].UnmarkDeep()
			if !pathVal.IsKnown() || !vars.IsKnown() {
				return cty.UnknownVal(retType).WithMarks(pathMarks, varsMarks), nil
			}
			expr, tmplMarks, err := load(pathVal.AsString(), pathMarks)
			if err != nil {
				return cty.DynamicVal, err
			}
			out, err := render(expr, vars)
			return out.WithMarks(tmplMarks, varsMarks), err
		},
	})
}

// tfBasenameFunc and tfDirnameFunc are Terraform's basename(path) and
// dirname(path): Go's filepath.Base and filepath.Dir (Linux rules).
var (
	tfBasenameFunc = pathFunc(func(p string) (string, error) { return filepath.Base(p), nil })
	tfDirnameFunc  = pathFunc(func(p string) (string, error) { return filepath.Dir(p), nil })
)

// tfAbsPathFunc is Terraform's abspath(path): filepath.Abs against the
// process's working directory (not the base directory; the adapter's is
// the --base-dir directory when given), with "/" separators.
var tfAbsPathFunc = pathFunc(func(p string) (string, error) {
	if activeHost != nil && !filepath.IsAbs(p) {
		// a case's host (host.go): Abs against its virtual working
		// directory, which is what Abs does against a real one
		return filepath.ToSlash(filepath.Join(activeHost.virtualCwd, p)), nil
	}
	abs, err := filepath.Abs(p)
	return filepath.ToSlash(hostMapOut(abs)), err
})

// tfPathExpandFunc is Terraform's pathexpand(path): go-homedir's Expand
// ("~" or "~/..." with $HOME; "~user" is the error "cannot expand
// user-specific home dir").
var tfPathExpandFunc = pathFunc(func(p string) (string, error) {
	out, err := homedir.Expand(p)
	return hostMapOut(out), err
})

// pathFunc is a function of one path string.
func pathFunc(fn func(string) (string, error)) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "path", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			out, err := fn(args[0].AsString())
			return cty.StringVal(out), err
		},
	})
}
