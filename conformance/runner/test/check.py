#!/usr/bin/python3
# SPDX-License-Identifier: MPL-2.0
"""check.py — checks the reports of bin/tfexpr-conformance for selftest.sh.

Every check prints one line, "ok - WHAT" or "not ok - WHAT: WHY"; the
caller counts them.  Standard library only.

  check.py wants REPORT.json CASE-FILE...
      Every case of the case files is in the report, with the outcome its
      "want:OUTCOME" tag names, exactly the failed levels of its
      "levels:A,B" tag (none without one), a reason containing the text of
      its "reason:TEXT" tag and a stderr tail containing its "stderr:TEXT"
      tag.
  check.py outcomes REPORT.json SPEC...
      SPEC is ID=OUTCOME, ID=OUTCOME[LEVEL,LEVEL], ID.LEVEL=STATUS (from
      the report's "levels"), ID~TEXT (the reason contains TEXT), or ID^N
      (the stderr tail is not empty and at most N bytes of UTF-8).
  check.py totals REPORT.json
      The totals and areas agree with the cases.
  check.py junit FILE NCASES NFAILURES NERRORS
  check.py tap FILE NCASES NNOTOK
  check.py text FILE NPASSED NFAILED
  check.py list FILE ID...
      The --list output names exactly these ids.
  check.py expfile FILE SPEC...
      An expectations file written by --update-expectations; SPEC is
      ID:STATUS~TEXT (the entry has the status and its reason contains
      TEXT) or !ID (no entry).
  check.py log FILE SPEC...
      The requests the fake adapter logged (--log); SPEC is ID (a run
      request for that case was sent), !ID (none was), first=JSON or
      last=JSON (the first or last request line), or hellos>=N.
"""

import json
import re
import sys
import xml.etree.ElementTree as ET

OUTCOMES = ["pass", "partial", "fail", "xfail", "xpass", "unsupported", "crashed", "skipped"]


def report(ok, what, why=""):
    if ok:
        print("ok - " + what)
    else:
        print("not ok - " + what + (": " + why if why else ""))


def load_report(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def cases_by_id(rep):
    return {c["id"]: c for c in rep["cases"]}


def cmd_wants(args):
    rep = load_report(args[0])
    got = cases_by_id(rep)
    for path in args[1:]:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        for case in doc["cases"]:
            cid = case["id"]
            tags = case.get("tags", [])
            want = [t[5:] for t in tags if t.startswith("want:")][0]
            levels = []
            for t in tags:
                if t.startswith("levels:"):
                    levels = t[7:].split(",")
            what = "%s %s: %s%s" % (cid, case["name"], want,
                                     " [%s]" % ",".join(levels) if levels else "")
            c = got.get(cid)
            if c is None:
                report(False, what, "not in the report")
                continue
            problems = []
            if c["outcome"] != want:
                problems.append("outcome %s" % c["outcome"])
            if sorted(c["failed_levels"]) != sorted(levels):
                problems.append("failed levels %s" % c["failed_levels"])
            for t in tags:
                if t.startswith("reason:") and t[7:] not in c.get("reason", ""):
                    problems.append("reason %r" % c.get("reason"))
                if t.startswith("stderr:") and t[7:] not in c.get("stderr", ""):
                    problems.append("stderr %r" % c.get("stderr"))
            report(not problems, what, "; ".join(problems))


def cmd_outcomes(args):
    got = cases_by_id(load_report(args[0]))
    for spec in args[1:]:
        m = re.fullmatch(r"(\w+)=(\w+)(?:\[([\w,]*)\])?", spec)
        if m:
            c = got.get(m.group(1))
            if c is None:
                report(False, spec, "not in the report")
                continue
            problems = []
            if c["outcome"] != m.group(2):
                problems.append("outcome %s (%s)" % (c["outcome"], c.get("reason", "")))
            if m.group(3) is not None and sorted(c["failed_levels"]) != sorted(
                    filter(None, m.group(3).split(","))):
                problems.append("failed levels %s" % c["failed_levels"])
            report(not problems, spec, "; ".join(problems))
            continue
        m = re.fullmatch(r"(\w+)\.(\w+)=(\S+)", spec)
        if m:
            c = got.get(m.group(1), {})
            status = c.get("levels", {}).get(m.group(2))
            report(status == m.group(3), spec, "got %r" % status)
            continue
        m = re.fullmatch(r"(\w+)~(.*)", spec)
        if m:
            c = got.get(m.group(1), {})
            report(m.group(2) in c.get("reason", ""), spec, "reason %r" % c.get("reason"))
            continue
        m = re.fullmatch(r"(\w+)\^(\d+)", spec)
        if m:
            n = len(got.get(m.group(1), {}).get("stderr", "").encode("utf-8"))
            report(0 < n <= int(m.group(2)), spec, "%d bytes" % n)
            continue
        report(False, spec, "bad spec")


def cmd_totals(args):
    rep = load_report(args[0])
    keys = list(rep.keys())
    report(keys == ["format", "implementation", "profile", "capabilities", "cases",
                    "totals", "areas"], "json report: top-level keys in order", str(keys))
    report(rep["format"] == "tfexpr-report/1", "json report: format")
    counts = {o: 0 for o in OUTCOMES}
    areas = {}
    for c in rep["cases"]:
        counts[c["outcome"]] += 1
        a = areas.setdefault(c["name"].split("/")[0], {o: 0 for o in OUTCOMES})
        a[c["outcome"]] += 1
    ok = all(rep["totals"][o] == counts[o] for o in OUTCOMES) and \
        rep["totals"]["total"] == len(rep["cases"])
    report(ok, "json report: totals agree with the cases", str(rep["totals"]))
    ok = sorted(areas) == sorted(rep["areas"]) and all(
        rep["areas"][a][o] == areas[a][o] for a in areas for o in OUTCOMES)
    report(ok, "json report: areas agree with the cases")


def cmd_junit(args):
    path, ncases, nfail, nerr = args[0], int(args[1]), int(args[2]), int(args[3])
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        report(False, "junit: well-formed XML", str(e))
        return
    report(root.tag == "testsuites", "junit: well-formed XML, root testsuites")
    cases = root.findall("./testsuite/testcase")
    report(len(cases) == ncases, "junit: %d testcases" % ncases, str(len(cases)))
    nf = len(root.findall("./testsuite/testcase/failure"))
    ne = len(root.findall("./testsuite/testcase/error"))
    report(nf == nfail and root.get("failures") == str(nfail),
           "junit: %d failures" % nfail, "%d elements, attribute %s" % (nf, root.get("failures")))
    report(ne == nerr and root.get("errors") == str(nerr),
           "junit: %d errors" % nerr, "%d elements, attribute %s" % (ne, root.get("errors")))


def cmd_tap(args):
    path, ncases, nnotok = args[0], int(args[1]), int(args[2])
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    report(lines[:1] == ["TAP version 13"], "tap: version line")
    report(len(lines) > 1 and lines[1] == "1..%d" % ncases, "tap: plan 1..%d" % ncases,
           lines[1] if len(lines) > 1 else "")
    tests = [ln for ln in lines if re.match(r"(not )?ok \d+ - ", ln)]
    report(len(tests) == ncases, "tap: %d test lines match the plan" % ncases, str(len(tests)))
    numbers = [int(re.match(r"(?:not )?ok (\d+)", ln).group(1)) for ln in tests]
    report(numbers == list(range(1, len(tests) + 1)), "tap: tests numbered in order")
    notok = [ln for ln in tests if ln.startswith("not ok") and "# TODO" not in ln]
    report(len(notok) == nnotok, "tap: %d failing lines" % nnotok, str(len(notok)))
    skips = [ln for ln in tests if "# SKIP" in ln]
    report(all(ln.startswith("ok ") for ln in skips), "tap: SKIP lines are ok lines")


def cmd_text(args):
    path, npassed, nfailed = args[0], int(args[1]), int(args[2])
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    want = "%d passed, %d failed" % (npassed, nfailed)
    report(lines[-1:] == [want], "text: last line '%s'" % want, repr(lines[-1:]))
    report(any(ln.startswith("TOTAL ") for ln in lines), "text: a TOTAL row")
    report(any(ln.startswith("implementation: ") for ln in lines),
           "text: the implementation line")
    for needle in args[3:]:
        report(any(needle in ln for ln in lines), "text: shows %r" % needle)


def cmd_list(args):
    with open(args[0], encoding="utf-8") as f:
        ids = [ln.split("\t")[0] for ln in f.read().splitlines() if ln]
    report(sorted(ids) == sorted(args[1:]), "list: %s" % " ".join(args[1:]), " ".join(ids))


def cmd_expfile(args):
    with open(args[0], encoding="utf-8") as f:
        doc = json.load(f)
    report(doc.get("format") == "tfexpr-expectations/1" and
           isinstance(doc.get("entries"), dict), "expectations file: format")
    entries = doc.get("entries", {})
    for spec in args[1:]:
        if spec.startswith("!"):
            report(spec[1:] not in entries, "expectations file: no entry %s" % spec[1:])
            continue
        m = re.fullmatch(r"(\w+):(\w+)~(.*)", spec)
        e = entries.get(m.group(1))
        report(e is not None and e.get("status") == m.group(2) and
               m.group(3) in e.get("reason", ""),
               "expectations file: %s" % spec, repr(e))


def cmd_log(args):
    with open(args[0], encoding="utf-8") as f:
        lines = [ln for ln in f.read().splitlines() if ln]
    requests = [json.loads(ln) for ln in lines]
    sent = [r["case"]["id"] for r in requests if r.get("cmd") == "run"]
    for spec in args[1:]:
        if spec.startswith("first=") or spec.startswith("last="):
            key, text = spec.split("=", 1)
            line = lines[0] if key == "first" else lines[-1]
            report(json.loads(text) == json.loads(line), "log: %s" % spec, line)
        elif spec.startswith("hellos>="):
            n = sum(1 for r in requests if r.get("cmd") == "hello")
            report(n >= int(spec[8:]), "log: %s" % spec, str(n))
        elif spec.startswith("!"):
            report(spec[1:] not in sent, "log: no run request for %s" % spec[1:])
        else:
            report(spec in sent, "log: a run request for %s" % spec)


def main():
    cmds = {"wants": cmd_wants, "outcomes": cmd_outcomes, "totals": cmd_totals,
            "junit": cmd_junit, "tap": cmd_tap, "text": cmd_text, "list": cmd_list,
            "expfile": cmd_expfile, "log": cmd_log}
    if len(sys.argv) < 3 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    try:
        cmds[sys.argv[1]](sys.argv[2:])
    except (OSError, ValueError, KeyError, IndexError) as e:
        report(False, " ".join(sys.argv[1:3]), "%s: %s" % (type(e).__name__, e))


if __name__ == "__main__":
    main()
