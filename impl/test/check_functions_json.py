#!/usr/bin/python3
# SPDX-License-Identifier: MPL-2.0
"""check_functions_json.py TFEXPR [ARG...] — checks `tfexpr functions --json`
against conformance/schema/functions.schema.json and what a schema cannot
say: the output is one line of JSON, the same at every run; function names
are sorted by bytes and the members of every object come in Terraform's
order (encoding/json writes struct fields in declaration order: format_version,
function_signatures; description, return_type, parameters,
variadic_parameter; name, description, is_nullable, type); it lists the
same functions, with the same signatures, as the text form
(`tfexpr functions`).  The ARGs go to both commands; in profile PN (the
default, or `--profile PN`) every function is listed twice, as NAME and as
core::NAME with the same signature (as `terraform metadata functions -json`
lists them), and no other namespaced name; with `--profile P14` no name has
a namespace.  Prints
"check_functions_json: N functions" and exits 0, or prints each fault and
exits 1.  Needs python3-jsonschema.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "..", "conformance", "schema", "functions.schema.json")

SIGNATURE_ORDER = ["description", "return_type", "parameters", "variadic_parameter"]
PARAMETER_ORDER = ["name", "description", "is_nullable", "type"]


def type_text(t):
    """A cty JSON type in type-constraint notation, as tfexpr writes it."""
    if isinstance(t, str):
        return t
    kind, arg = t[0], t[1]
    if kind in ("list", "set", "map"):
        return "%s(%s)" % (kind, type_text(arg))
    if kind == "tuple":
        return "tuple([%s])" % ",".join(type_text(e) for e in arg)
    return "object({%s})" % ",".join("%s=%s" % (k, type_text(v)) for k, v in sorted(arg.items()))


def in_order(keys, order):
    return [k for k in order if k in keys] == list(keys)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: check_functions_json.py TFEXPR [ARG...]")
    tfexpr = sys.argv[1]
    extra = sys.argv[2:]
    pn = not ("--profile" in extra and extra[extra.index("--profile") + 1:][:1] == ["P14"])
    faults = []
    first = subprocess.run([tfexpr, "functions", "--json"] + extra, capture_output=True, check=False)
    again = subprocess.run([tfexpr, "functions", "--json"] + extra, capture_output=True, check=False)
    text = subprocess.run([tfexpr, "functions"] + extra, capture_output=True, check=False)
    for r, what in ((first, "functions --json"), (text, "functions")):
        if r.returncode != 0 or r.stderr:
            faults.append("%s: exit %d, stderr %r" % (what, r.returncode, r.stderr[:200]))
    if first.stdout != again.stdout:
        faults.append("two runs of functions --json differ")
    out = first.stdout.decode("utf-8")
    if not out.endswith("\n") or "\n" in out[:-1]:
        faults.append("functions --json is not one line")
    pairs = []
    try:
        doc = json.loads(out, object_pairs_hook=lambda p: (pairs.append([k for k, _ in p]), dict(p))[1])
    except ValueError as e:
        print("check_functions_json: not JSON: %s" % e)
        return 1

    import jsonschema
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    for err in jsonschema.Draft202012Validator(schema).iter_errors(doc):
        faults.append("schema: %s at %s" % (err.message, "/".join(str(p) for p in err.absolute_path)))

    for keys in pairs:
        if keys == ["format_version", "function_signatures"] or not keys:
            continue
        if "return_type" in keys:
            if not in_order(keys, SIGNATURE_ORDER):
                faults.append("signature members out of order: %s" % keys)
        elif "type" in keys and "name" in keys:
            if not in_order(keys, PARAMETER_ORDER):
                faults.append("parameter members out of order: %s" % keys)
    if list(doc.keys()) != ["format_version", "function_signatures"]:
        faults.append("top-level members: %s" % list(doc.keys()))

    sigs = doc.get("function_signatures", {})
    names = list(sigs.keys())
    if names != sorted(names, key=lambda n: n.encode("utf-8")):
        faults.append("function names are not sorted")
    for omitted in ("list", "map", "type"):
        for name in (omitted, "core::" + omitted):
            if name in sigs:
                faults.append("%s is listed; Terraform's table leaves it out" % name)
    plain = [n for n in names if "::" not in n]
    if pn:
        if sorted(names) != sorted(plain + ["core::" + n for n in plain]):
            faults.append("profile PN: the names are not each function as NAME and core::NAME")
        for n in plain:
            if sigs.get("core::" + n) != sigs[n]:
                faults.append("profile PN: core::%s's signature is not %s's" % (n, n))
    elif plain != names:
        faults.append("namespaced names listed in profile P14")
    for must in ("abs", "substr", "lookup", "format", "max", "tolist"):
        if must not in sigs:
            faults.append("%s is missing" % must)

    lines = text.stdout.decode("utf-8").splitlines()
    if len(lines) != len(names):
        faults.append("%d lines of text, %d functions in JSON" % (len(lines), len(names)))
    for line, name in zip(lines, names):
        sig = sigs[name]
        params = ["%s %s" % (p["name"], type_text(p["type"])) for p in sig.get("parameters", [])]
        var = sig.get("variadic_parameter")
        if var is not None:
            params.append("%s %s..." % (var["name"], type_text(var["type"])))
        want = "%s(%s) %s" % (name, ", ".join(params), type_text(sig["return_type"]))
        if line != want:
            faults.append("text line %r, JSON says %r" % (line, want))

    for fault in faults[:50]:
        print("check_functions_json: FAIL: %s" % fault)
    if faults:
        return 1
    print("check_functions_json: %d functions" % len(names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
