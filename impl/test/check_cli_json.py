#!/usr/bin/python3
# SPDX-License-Identifier: MPL-2.0
"""check_cli_json.py DIR — validates the JSON outputs test_cli.sh kept.

DIR holds one file per `tfexpr COMMAND ... --format json` (or `functions
--json`) run, named COMMAND.SUFFIX, with exactly what the command wrote on
standard output.  Each must be valid UTF-8, one line, one JSON value, and
valid against the command's schema: impl/schema/cli-COMMAND.schema.json
(conformance/schema/functions.schema.json for functions), with the
conformance schemas they refer to, as tools/corpus lint validates (Draft
2020-12, references resolved through a store of the schemas by $id).
Prints "check_cli_json: N outputs valid" and exits 0, or prints each fault
and exits 1.  Needs python3-jsonschema.
"""
import json
import os
import sys
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
SCHEMA_DIRS = [os.path.join(ROOT, "impl", "schema"), os.path.join(ROOT, "conformance", "schema")]
COMMANDS = {"eval": "cli-eval", "parse": "cli-parse", "refs": "cli-refs", "check": "cli-check",
            "functions": "functions"}


def absolute_refs(node, base):
    """Rewrites every "#..." reference of a schema as base + "#...": the
    RefResolver of jsonschema 4 resolves a document-local reference against
    the wrong document after crossing into another schema and back."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "$ref" and isinstance(v, str) and v.startswith("#"):
                node[k] = base + v
            else:
                absolute_refs(v, base)
    elif isinstance(node, list):
        for v in node:
            absolute_refs(v, base)


def validators():
    import warnings
    warnings.simplefilter("ignore", DeprecationWarning)
    from jsonschema import Draft202012Validator, RefResolver
    # urljoin resolves "#..." against a tag: URI only when told the scheme
    # takes relative references and fragments (as tools/corpus does).
    for lst in (urllib.parse.uses_relative, urllib.parse.uses_fragment):
        if "tag" not in lst:
            lst.append("tag")
    store, by_name = {}, {}
    for d in SCHEMA_DIRS:
        for f in sorted(os.listdir(d)):
            if f.endswith(".schema.json"):
                with open(os.path.join(d, f), encoding="utf-8") as fh:
                    s = json.load(fh)
                Draft202012Validator.check_schema(s)
                absolute_refs(s, s["$id"])
                store[s["$id"]] = s
                by_name[f[:-len(".schema.json")]] = s
    return {cmd: Draft202012Validator(by_name[name],
                                      resolver=RefResolver.from_schema(by_name[name], store=store))
            for cmd, name in COMMANDS.items()}


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    try:
        vals = validators()
    except ImportError:
        print("check_cli_json: python3-jsonschema is not installed", file=sys.stderr)
        return 2
    faults, count = [], 0
    for f in sorted(os.listdir(argv[1])):
        cmd = f.split(".", 1)[0]
        if cmd not in vals or f.endswith(".args"):
            continue
        path = os.path.join(argv[1], f)
        with open(path, "rb") as fh:
            raw = fh.read()
        args_path = path + ".args"
        what = f
        if os.path.exists(args_path):
            with open(args_path, "rb") as fh:
                what = "tfexpr " + " ".join(a.decode("utf-8", "replace")
                                             for a in fh.read().split(b"\0") if a)
        if raw == b"":
            continue  # a usage error writes nothing on standard output
        count += 1
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            faults.append("%s: invalid UTF-8: %s" % (what, e))
            continue
        if not text.endswith("\n") or "\n" in text[:-1]:
            faults.append("%s: not exactly one line" % what)
            continue
        try:
            doc = json.loads(text)
        except ValueError as e:
            faults.append("%s: invalid JSON: %s: %s" % (what, e, text[:200]))
            continue
        for err in vals[cmd].iter_errors(doc):
            faults.append("%s: %s at %s" % (what, err.message[:300],
                                            "/".join(str(p) for p in err.absolute_path)))
    for fault in faults:
        print("check_cli_json: FAIL: " + fault, file=sys.stderr)
    if count == 0:
        print("check_cli_json: FAIL: no outputs in %s" % argv[1], file=sys.stderr)
        return 1
    print("check_cli_json: %d outputs valid" % (count - len(faults)) if not faults
          else "check_cli_json: %d of %d outputs invalid" % (len(faults), count))
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
