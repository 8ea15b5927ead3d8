#!/usr/bin/env python3
"""Scripted edits of real dumps, audited by the real daemon: one element changed, one
element's findings move (docs/findings.md, "What moves a fingerprint").

For every dump given, the script finds the lists in it (siblings that repeat one another:
the same element name and id, three or more), and makes one edit at a time of each kind:

  insert-top     a new row (a copy of the first, its texts new) at the top; the rows below
                 move down a slot and the last falls out of the window, as a list does
  remove-row     a row taken out; the rows below move up a slot
  reorder        two rows that show different texts swap places (and slots)
  change-text    a row's text changed
  remove-text    a row's texts all taken away
  add-label      an element reported without a name gets one (content-desc, label)
  reformat       the file written again with other indentation and attribute order

Before and after are written one element a line (so a finding's line names its element),
audited with `auditctl audit --format json`, and compared. An edited element is the row
the edit touched (with everything inside it) or, for a label, the element labelled. The
edit keeps its promise when every other element has the same fingerprints before and
after. Prints one line per edit and a JSON summary last; exits 1 on a broken promise.
"""

import copy
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")


def text_keys(node):
    if "bounds" in node.attrib or node.tag == "node" or "resource-id" in node.attrib:
        return ["text"]
    return ["value", "label"] if node.tag.startswith("XCUIElementType") else ["text"]


def label_key(node):
    return "label" if node.tag.startswith("XCUIElementType") else "content-desc"


def ident(node):
    return node.attrib.get("resource-id") or node.attrib.get("name") or node.attrib.get("id") or ""


def kind(node):
    return (node.tag, node.attrib.get("class", ""), node.attrib.get("type", ""), ident(node))


def shows_text(node):
    for element in node.iter():
        for key in text_keys(element):
            if element.attrib.get(key, "").strip():
                return True
    return False


def shown(node):
    for element in node.iter():
        for key in text_keys(element):
            value = element.attrib.get(key, "").strip()
            if value:
                return value
    return ""


def geometry(node):
    if "bounds" in node.attrib:
        match = BOUNDS.fullmatch(node.attrib["bounds"].strip())
        if match:
            return tuple(int(v) for v in match.groups()[:2])
    if "x" in node.attrib and "y" in node.attrib:
        try:
            return (int(float(node.attrib["x"])), int(float(node.attrib["y"])))
        except ValueError:
            return None
    return None


def translate(node, dx, dy):
    """Moves a subtree by (dx, dy): what a list does to a row that changes slot."""
    for element in node.iter():
        if "bounds" in element.attrib:
            match = BOUNDS.fullmatch(element.attrib["bounds"].strip())
            if match:
                l, t, r, b = (int(v) for v in match.groups())
                element.attrib["bounds"] = f"[{l + dx},{t + dy}][{r + dx},{b + dy}]"
        elif "x" in element.attrib and "y" in element.attrib:
            try:
                element.attrib["x"] = str(int(float(element.attrib["x"])) + dx)
                element.attrib["y"] = str(int(float(element.attrib["y"])) + dy)
            except ValueError:
                pass


def place(row, slot_geometry):
    here = geometry(row)
    if here and slot_geometry:
        translate(row, slot_geometry[0] - here[0], slot_geometry[1] - here[1])


def lists(root):
    """Sibling groups of three or more that repeat one another (name and id), at least two showing text."""
    found = []
    for parent in root.iter():
        groups = {}
        for child in list(parent):
            groups.setdefault(kind(child), []).append(child)
        for rows in groups.values():
            if len(rows) >= 3 and sum(1 for r in rows if shows_text(r)) >= 2:
                found.append((parent, rows))
    return found


def write(root, path, indent="  ", reorder_attributes=False):
    """One element a line; returns {line: element}."""
    lines = ["<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"]
    at = {}

    def attributes(element):
        items = [(k, v) for k, v in element.attrib.items() if not k.startswith("__")]
        if reorder_attributes:
            items.reverse()
        out = []
        for key, value in items:
            value = value.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;").replace("\n", "&#10;")
            out.append(f' {key}="{value}"')
        return "".join(out)

    def visit(element, depth):
        at[len(lines) + 1] = element
        children = list(element)
        if children:
            lines.append(f"{indent * depth}<{element.tag}{attributes(element)}>")
            for child in children:
                visit(child, depth + 1)
            lines.append(f"{indent * depth}</{element.tag}>")
        else:
            lines.append(f"{indent * depth}<{element.tag}{attributes(element)} />")

    visit(root, 0)
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    return at


def audit(auditctl, path, screen):
    run = subprocess.run(
        [auditctl, "audit", "--format", "json", "--fail-on", "never", "--no-screenshots", "--app", "identity", "--build", "1", "--screen", screen, path],
        capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"auditctl failed on {path}: {run.stderr}")
    report = json.loads(run.stdout)[0]
    return report.get("findings", [])


DETAIL = {}
KIND = {}
# The edited copy's elements by id, mapped to the original's (set per edit).
ORIGINAL = {}


def paths_of(root):
    """{path as reports write it: element}: each step the tag and its place among siblings of that tag."""
    out = {}

    def visit(element, path):
        out[path] = element
        seen = {}
        for child in element:
            seen[child.tag] = seen.get(child.tag, 0) + 1
            visit(child, f"{path}/{child.tag}[{seen[child.tag]}]")

    visit(root, "/" + root.tag)
    ids = {}
    for element in root.iter():
        if ident(element):
            ids.setdefault(ident(element), []).append(element)
    for key, elements in ids.items():
        if len(elements) == 1 and key not in out:
            out[key] = elements[0]
    return out


def by_element(findings, at, named=None, edited=None):
    """{element: sorted fingerprints}, the screen's own findings under None. A finding that
    names an edited element as its other (a pair of targets, a duplicate) is that element's
    too, and left out; one naming another element is compared as a finding of that pair,
    so a new partner is a new finding, not a re-key."""
    out = {}
    for finding in findings:
        evidence = finding.get("evidence", {})
        other = evidence.get("other")
        partner = named.get(other) if named is not None and isinstance(other, str) else None
        if partner is not None and edited(partner):
            continue
        element = at.get(finding.get("line"))
        if finding.get("line") is None:
            element = None
        kind = (finding["rule"], finding.get("result"))
        if partner is not None:
            kind += (ORIGINAL.get(id(partner), partner).attrib.get("__mark"),)
        KIND[finding["fingerprint"]] = kind
        DETAIL[finding["fingerprint"]] = f'{finding["rule"]}/{finding.get("result")} {evidence.get("other", "")}'.strip()
        out.setdefault(element, []).append(finding["fingerprint"])
    for value in out.values():
        value.sort()
    return out


class Edit:
    def __init__(self, name, root, edited):
        self.name, self.root, self.edited = name, root, edited


def subtree(node):
    return set(node.iter())


def edits_of(root, findings_at):
    """Each kind of edit once per list (at most two lists a dump), and a label and a reformat."""
    out = []
    for number, (parent_original, rows_original) in enumerate(lists(root)[:2]):
        path_to = {id(e): i for i, e in enumerate(root.iter())}

        def fresh():
            twin = copy.deepcopy(root)
            elements = list(twin.iter())
            originals = list(root.iter())
            twin_of = {id(o): t for o, t in zip(originals, elements)}
            return twin, twin_of[id(parent_original)], [twin_of[id(r)] for r in rows_original], twin_of

        # insert-top: the rows move down a slot (the last by the step before it).
        twin, parent, rows, _ = fresh()
        slots = [geometry(r) for r in rows]
        template = next((r for r in rows if shows_text(r)), rows[0])
        new = copy.deepcopy(template)
        for element in new.iter():
            element.attrib["__copy"] = "1"
            for key in text_keys(element) + [label_key(element)]:
                if element.attrib.get(key, "").strip():
                    element.attrib[key] = f"Inserted row {number}"
        position = list(parent).index(rows[0])
        parent.insert(position, new)
        place(new, slots[0])
        if all(slots) and len(slots) > 1:
            last = (2 * slots[-1][0] - slots[-2][0], 2 * slots[-1][1] - slots[-2][1])
            for row, slot in zip(rows, slots[1:] + [last]):
                place(row, slot)
        out.append(Edit(f"insert-top#{number}", twin, lambda e: False))

        # remove-row: the middle row; those below move up a slot.
        twin, parent, rows, _ = fresh()
        middle = len(rows) // 2
        slots = [geometry(r) for r in rows]
        parent.remove(rows[middle])
        for row, slot in zip(rows[middle + 1:], slots[middle:]):
            place(row, slot)
        gone = rows_original[middle]
        out.append(Edit(f"remove-row#{number}", twin, lambda e, gone=gone: e in subtree(gone)))

        # reorder two rows showing different texts.
        twin, parent, rows, _ = fresh()
        pair = None
        for i in range(len(rows) - 1):
            if shown(rows[i]) and shown(rows[i + 1]) and shown(rows[i]) != shown(rows[i + 1]):
                pair = (i, i + 1)
                break
        if pair:
            a, b = rows[pair[0]], rows[pair[1]]
            ga, gb = geometry(a), geometry(b)
            children = list(parent)
            ia, ib = children.index(a), children.index(b)
            parent.remove(a)
            parent.remove(b)
            parent.insert(ia, b)
            parent.insert(ib, a)
            place(a, gb)
            place(b, ga)
            oa, ob = rows_original[pair[0]], rows_original[pair[1]]
            out.append(Edit(f"reorder#{number}", twin, lambda e, oa=oa, ob=ob: e in subtree(oa) or e in subtree(ob)))

        # change-text and remove-text: a row with text, in the middle if one does.
        with_text = [i for i, r in enumerate(rows_original) if shows_text(r)]
        pick = with_text[len(with_text) // 2]
        twin, parent, rows, _ = fresh()
        for element in rows[pick].iter():
            changed = False
            for key in text_keys(element):
                if element.attrib.get(key, "").strip():
                    element.attrib[key] = element.attrib[key] + " (edited)"
                    changed = True
            if changed:
                break
        row = rows_original[pick]
        out.append(Edit(f"change-text#{number}", twin, lambda e, row=row: e in subtree(row)))
        twin, parent, rows, _ = fresh()
        for element in rows[pick].iter():
            for key in text_keys(element):
                if key in element.attrib:
                    element.attrib[key] = ""
        out.append(Edit(f"remove-text#{number}", twin, lambda e, row=row: e in subtree(row)))

    # add-label: the first element reported with no name.
    for element, ids in findings_at.items():
        if element is None:
            continue
        if any(rule == "label.missing" for rule in ids):
            twin = copy.deepcopy(root)
            index = list(root.iter()).index(element)
            target = list(twin.iter())[index]
            target.attrib[label_key(target)] = "Added label"
            out.append(Edit("add-label", twin, lambda e, element=element: e is element))
            break
    out.append(Edit("reformat", root, lambda e: False))
    return out


def main():
    if len(sys.argv) < 3:
        raise SystemExit("usage: edit_dumps.py AUDITCTL DUMP...")
    auditctl = sys.argv[1]
    broken = 0
    total = 0
    summary = []
    work = tempfile.mkdtemp(prefix="identity-")
    for dump in sys.argv[2:]:
        with open(dump, "rb") as source:
            data = source.read()
        # `uiautomator dump /dev/tty` writes a status line after the document.
        data = data[: data.rfind(b">") + 1]
        root = ET.fromstring(data)
        for number, element in enumerate(root.iter()):
            element.attrib["__mark"] = str(number)
        name = os.path.basename(dump)
        before_path = os.path.join(work, "before.xml")
        at_before = write(root, before_path)
        before = audit(auditctl, before_path, name)
        rules_at = {}
        for finding in before:
            rules_at.setdefault(at_before.get(finding.get("line")), []).append(finding["rule"])
        for edit in edits_of(root, rules_at):
            after_path = os.path.join(work, "after.xml")
            reformat = edit.name == "reformat"
            twin_root = edit.root
            at_after = write(twin_root, after_path, indent="\t" if reformat else "  ", reorder_attributes=reformat)
            after = audit(auditctl, after_path, name)
            ORIGINAL.clear()
            for twin_element in twin_root.iter():
                original = original_for(twin_element, root, twin_root)
                if original is not None:
                    ORIGINAL[id(twin_element)] = original

            def edited_twin(element, edit=edit):
                original = original_for(element, root, twin_root)
                return original is None or edit.edited(original)

            before_by = by_element(before, at_before, paths_of(root), edit.edited)
            after_by = by_element(after, at_after, paths_of(twin_root), edited_twin)
            moved = []
            changed = 0
            kept = 0
            for element, prints in before_by.items():
                if element is not None and edit.edited(element):
                    continue
                twin = twin_for(element, root, twin_root)
                if element is not None and twin is None:
                    continue
                now = after_by.get(twin, [])
                # A finding whose rule and result the element had before and still has, as
                # often, must keep its fingerprint; findings the edit made or took away
                # (a target now overlapping the new row) are the edit's effect, not a re-key.
                before_kinds, after_kinds = {}, {}
                for p in prints:
                    before_kinds.setdefault(KIND[p], []).append(p)
                for p in now:
                    after_kinds.setdefault(KIND[p], []).append(p)
                for kind, earlier in before_kinds.items():
                    later = after_kinds.get(kind, [])
                    if len(later) != len(earlier):
                        changed += abs(len(later) - len(earlier))
                        continue
                    if sorted(later) != sorted(earlier):
                        moved.append((describe(element), [DETAIL[p] for p in sorted(set(earlier) - set(later))], [DETAIL[p] for p in sorted(set(later) - set(earlier))]))
                    else:
                        kept += len(earlier)
                changed += sum(len(v) for k, v in after_kinds.items() if k not in before_kinds)
            total += 1
            status = "ok" if not moved else "MOVED"
            if moved:
                broken += 1
            print(f"{status}: {name} {edit.name}: {kept} findings of other elements kept, {changed} made or taken away by the edit" + ("" if not moved else f", {sum(len(a) + len(b) for _, a, b in moved)} moved: {moved[:4]}"))
            summary.append({"dump": name, "edit": edit.name, "kept": kept, "changed": changed, "moved": len(moved)})
    print(json.dumps({"edits": total, "broken": broken}))
    return 1 if broken else 0


MARKS = {}


def twin_for(element, root, twin_root):
    if element is None:
        return None
    return _twins(root, twin_root)[0].get(id(element))


def original_for(twin, root, twin_root):
    if twin is None:
        return None
    return _twins(root, twin_root)[1].get(id(twin))


def _twins(root, twin_root):
    """Matches the edited copy's elements to the original's: deepcopy keeps a mark."""
    key = (id(root), id(twin_root))
    if key not in MARKS:
        forward, backward = {}, {}
        originals = {e.attrib.get("__mark"): e for e in root.iter()}
        for twin in twin_root.iter():
            original = originals.get(twin.attrib.get("__mark"))
            if original is not None and twin.attrib.get("__copy") is None:
                forward[id(original)] = twin
                backward[id(twin)] = original
        MARKS[key] = (forward, backward)
    return MARKS[key]


def describe(element):
    if element is None:
        return "screen"
    return f"{element.tag}#{ident(element)}={shown(element)[:20]!r}"


if __name__ == "__main__":
    sys.exit(main())
