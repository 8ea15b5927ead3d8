"""Validates auditd's outputs against the JSON Schemas in docs/schemas (draft 2020-12).

usage: validate.py SCHEMA_DIR KIND FILE...   KIND: report (a JSON array of reports, or one), transcript (likewise),
       journal (JSON Lines), ruleset (one rule-set file each).
Each document that does not validate is printed with the reason; exit 1 if any. Then, so
that the schemas are seen to refuse, a few broken copies of the first document must fail.
"""
import copy
import json
import sys

import jsonschema
from referencing import Registry, Resource

directory, kind, files = sys.argv[1], sys.argv[2], sys.argv[3:]
schemas = {name: json.load(open(f"{directory}/{name}")) for name in
           ["report.schema.json", "journal-record.schema.json", "ruleset.schema.json", "transcript.schema.json"]}
registry = Registry().with_resources(
    [(schema["$id"], Resource.from_contents(schema)) for schema in schemas.values()])
for schema in schemas.values():
    jsonschema.Draft202012Validator.check_schema(schema)
name = {"report": "report.schema.json", "journal": "journal-record.schema.json", "ruleset": "ruleset.schema.json",
        "transcript": "transcript.schema.json"}[kind]
validator = jsonschema.Draft202012Validator(schemas[name], registry=registry)

documents = []
for path in files:
    with open(path, encoding="utf-8") as handle:
        if kind == "journal":
            documents += [json.loads(line) for line in handle if line.strip()]
        else:
            value = json.load(handle)
            documents += value if isinstance(value, list) else [value]

failures = 0
for index, document in enumerate(documents):
    for error in validator.iter_errors(document):
        failures += 1
        print(f"document {index}: {error.json_path}: {error.message[:300]}")
        break


def must_fail(label, document):
    global failures
    if validator.is_valid(document):
        failures += 1
        print(f"the schema accepts a broken document: {label}")


first = documents[0]
if kind == "report":
    broken = copy.deepcopy(first); del broken["findings"]; must_fail("no findings", broken)
    broken = copy.deepcopy(first); broken["extra"] = 1; must_fail("an unknown key", broken)
    with_finding = next((d for d in documents if d["findings"]), None)
    if with_finding:
        broken = copy.deepcopy(with_finding); broken["findings"][0]["severity"] = "fatal"; must_fail("a bad severity", broken)
        broken = copy.deepcopy(with_finding); broken["findings"][0]["colour"] = "red"; must_fail("an unknown finding key", broken)
elif kind == "journal":
    broken = copy.deepcopy(first); broken["surprise"] = True; must_fail("an unknown key", broken)
    finding = next((d for d in documents if d["type"] == "finding"), None)
    if finding:
        broken = copy.deepcopy(finding); del broken["fingerprint"]; must_fail("a finding without fingerprint", broken)
        broken = copy.deepcopy(finding); broken["summary"] = {}; must_fail("a finding with an audit's field", broken)
elif kind == "transcript":
    broken = copy.deepcopy(first); broken["reader"] = "jaws"; must_fail("an unknown reader", broken)
    if first["stops"]:
        broken = copy.deepcopy(first); broken["stops"][0]["role"] = "widget"; must_fail("an unknown role", broken)
else:
    broken = copy.deepcopy(first); broken["rulez"] = {}; must_fail("an unknown key", broken)
    broken = {"name": "x", "rules": {"target-size": {"parameters": {"platform-minimum": "44"}}}}; must_fail("a string for a number", broken)
    broken = {"name": "x", "rules": {"no-such-rule": True}}; must_fail("an unknown rule", broken)

print(f"{len(documents)} documents, {failures} failures")
sys.exit(1 if failures else 0)
