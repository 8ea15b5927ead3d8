#!/usr/bin/env python3
"""Compares auditd's transcripts with a reference model's, capture by capture, stop by stop.

Usage: differential.py REFERENCE.json PRODUCT.json EXPLAINED.tsv [--report]

REFERENCE.json: what talkback_reference.py / voiceover_reference.py print.
PRODUCT.json: what `auditctl transcript --format json FILE...` prints.
EXPLAINED.tsv: disagreements read and explained: file (base name), kind (missing: the
reference stops, auditd does not; extra: auditd stops, the reference does not; name: both
stop, the names differ; order: the stops both give come in another order), path (the
element; * for every element of that kind in the file), reason.

Every disagreement must be explained, and every explanation must still match one (a stale
one is reported): exit 1 otherwise. Prints per capture: reference stops, auditd stops, both,
disagreements, and the totals.
"""

import json
import os
import sys


def load_explained(path):
    rules = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) < 4 or not parts[3].strip():
                sys.exit(f"{path}:{number}: expected file, kind, path and a reason, tab-separated")
            rules.append({"file": parts[0], "kind": parts[1], "path": parts[2], "reason": parts[3], "used": 0, "line": number})
    return rules


def explained(rules, file, kind, path):
    for rule in rules:
        if rule["file"] == file and rule["kind"] == kind and (rule["path"] == "*" or rule["path"] == path):
            rule["used"] += 1
            return True
    return False


def lcs_order(a, b):
    """The paths of `a` that are out of order against `b` (both lists of the same paths):
    those not in a longest common subsequence."""
    n, m = len(a), len(b)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            table[i][j] = table[i + 1][j + 1] + 1 if a[i] == b[j] else max(table[i + 1][j], table[i][j + 1])
    kept, i, j = set(), 0, 0
    while i < n and j < m:
        if a[i] == b[j]:
            kept.add(a[i])
            i += 1
            j += 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return [p for p in a if p not in kept]


def main():
    reference_path, product_path, explained_path = sys.argv[1:4]
    report = "--report" in sys.argv
    reference = {os.path.basename(r["file"]): r for r in json.load(open(reference_path, encoding="utf-8"))}
    product = {os.path.basename(p["file"]): p for p in json.load(open(product_path, encoding="utf-8"))}
    rules = load_explained(explained_path)
    unexplained = []
    totals = {"reference": 0, "auditd": 0, "both": 0, "names": 0, "disagreements": 0, "explained": 0}
    for name in sorted(reference):
        ref = reference[name]
        got = product.get(name)
        if got is None:
            unexplained.append(f"{name}: auditd gave no transcript")
            continue
        ref_stops = {s["path"]: s for s in ref["stops"]}
        got_stops = {s["path"]: s for s in got["stops"]}
        both = [p for p in ref_stops if p in got_stops]
        found = []
        for path in ref_stops:
            if path not in got_stops:
                found.append(("missing", path, ref_stops[path]["name"]))
        for path in got_stops:
            if path not in ref_stops:
                found.append(("extra", path, got_stops[path]["name"]))
        same_names = 0
        for path in both:
            a, b = " ".join(ref_stops[path]["name"].split()), " ".join(got_stops[path]["name"].split())
            if a == b:
                same_names += 1
            else:
                found.append(("name", path, f"reference {a!r}, auditd {b!r}"))
        ordered_ref = [p for p in (s["path"] for s in ref["stops"]) if p in got_stops and not ref_stops[p].get("compose")]
        ordered_got = [p for p in (s["path"] for s in got["stops"]) if p in ref_stops and not ref_stops[p].get("compose")]
        for path in lcs_order(ordered_got, ordered_ref):
            found.append(("order", path, got_stops[path]["name"]))
        totals["reference"] += len(ref_stops)
        totals["auditd"] += len(got_stops)
        totals["both"] += len(both)
        totals["names"] += same_names
        totals["disagreements"] += len(found)
        local = 0
        for kind, path, detail in found:
            if explained(rules, name, kind, path):
                local += 1
            else:
                unexplained.append(f"{name}\t{kind}\t{path}\t{detail}")
        totals["explained"] += local
        if report:
            print(f"{name}: reference {len(ref_stops)}, auditd {len(got_stops)}, both {len(both)}, same name {same_names}, "
                  f"disagreements {len(found)} ({local} explained)")
    for rule in rules:
        if rule["used"] == 0:
            unexplained.append(f"{explained_path}:{rule['line']}: explains nothing any more ({rule['file']} {rule['kind']} {rule['path']})")
    print(json.dumps(totals))
    for line in unexplained:
        print("UNEXPLAINED\t" + line)
    sys.exit(1 if unexplained else 0)


if __name__ == "__main__":
    main()
