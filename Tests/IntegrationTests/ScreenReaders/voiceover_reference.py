#!/usr/bin/env python3
"""A second, deliberately simple model of VoiceOver's linear navigation over Appium
XCUITest page sources, written from UIKit's accessibility contract as AccessibilitySnapshot's
AccessibilityHierarchyParser reads it (not from auditd's code), for the differential test
ScreenReaderDifferentialTests.

- An accessibility element (XCUITest's `accessible="true"`: UIKit's isAccessibilityElement;
  where a source does not say, UIKit's default for the control: a label, a button, a field,
  a switch are; an image, a plain view, a container are not) that is visible, has an area, and has no accessibility element above it is a stop: what
  is inside an element is part of it, never reached on its own.
- The system's UI is not the app's: the keyboard and its keys (the dictation key sits outside
  it), the status bar, the scroll bars ("Vertical scroll bar, 1 page").
- An alert or action sheet is modal: with one open, only what is inside the last one is
  reached.
- Order: the accessibility tree's (XCUITest lists children in the order UIKit hands them to
  VoiceOver).
- Name: the label; else a static text's value; else the labels of what is inside (visible,
  the app's), joined.

Usage: voiceover_reference.py FILE... → one JSON object per file, as talkback_reference.py.
"""

import json
import sys
import xml.etree.ElementTree as ET

SYSTEM = ("XCUIElementTypeKeyboard", "XCUIElementTypeStatusBar")
MODAL = ("XCUIElementTypeAlert", "XCUIElementTypeSheet")
# UIKit's controls that are accessibility elements unless an app says otherwise (a source
# without `accessible` leaves it to them); an image, a plain view or a container is not.
ELEMENTS = tuple("XCUIElementType" + t for t in (
    "Button", "StaticText", "TextField", "SecureTextField", "SearchField", "TextView", "Switch", "Slider",
    "Link", "PageIndicator", "Stepper", "ProgressIndicator", "ActivityIndicator", "Picker", "PickerWheel",
    "DatePicker", "SegmentedControl", "Toggle", "Key"))


class Node:
    def __init__(self, element, parent, path):
        self.a = element.attrib
        self.type = self.a.get("type") or element.tag
        self.parent = parent
        self.path = path
        self.children = []

    def number(self, name):
        try:
            return float(self.a.get(name, ""))
        except ValueError:
            return None


def read(path):
    root = ET.parse(path).getroot()
    counts = {}

    def build(element, parent, parent_path):
        key = (parent_path, element.tag)
        counts[key] = counts.get(key, 0) + 1
        node = Node(element, parent, f"{parent_path}/{element.tag}[{counts[key]}]")
        for child in element:
            node.children.append(build(child, node, node.path))
        return node

    if root.tag == "AppiumAUT":
        return [build(child, None, "/AppiumAUT") for child in root]
    # A source cut below <AppiumAUT>: paths are written as if it were there.
    return [build(root, None, "/AppiumAUT")]


def walk(n):
    stack = [n]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(reversed(x.children))


def visible(n):
    w, h = n.number("width"), n.number("height")
    return n.a.get("visible") != "false" and w is not None and h is not None and w > 0 and h > 0


def system(n):
    while n is not None:
        if n.type in SYSTEM or "KeyboardKey" in (n.a.get("traits") or "") \
                or (n.a.get("label") or "").startswith(("Vertical scroll bar", "Horizontal scroll bar")):
            return True
        n = n.parent
    return False


def element(n):
    stated = n.a.get("accessible")
    if stated in ("true", "false"):
        return stated == "true"
    # A table's cell (UITableViewCell) is one element by default, reading what it holds; a
    # collection view's cell is not.
    if n.type == "XCUIElementTypeCell" and n.parent is not None and n.parent.type == "XCUIElementTypeTable":
        return True
    return n.type in ELEMENTS


def name(n):
    label = " ".join((n.a.get("label") or "").split())
    if label:
        return label
    if n.type == "XCUIElementTypeStaticText":
        return " ".join((n.a.get("value") or "").split())
    # What it holds says its labels (each labelled element as a whole), visible and the
    # app's only.
    parts = []
    pending = list(reversed(n.children))
    while pending:
        d = pending.pop()
        if not visible(d) or system(d):
            continue
        words = " ".join((d.a.get("label") or "").split())
        if words:
            parts.append(words)
            continue
        pending.extend(reversed(d.children))
    return ", ".join(parts)


def transcript(roots):
    nodes = [n for r in roots for n in walk(r)]
    modals = [n for n in nodes if n.type in MODAL and visible(n)]
    scope = None
    if modals:
        scope = set(id(x) for x in walk(modals[-1]))
    stops = []
    for n in nodes:
        if scope is not None and id(n) not in scope:
            continue
        if not element(n) or not visible(n) or system(n):
            continue
        above = n.parent
        inside = False
        while above is not None:
            if element(above) and visible(above) and (scope is None or id(above) in scope):
                inside = True
                break
            above = above.parent
        if not inside:
            stops.append(n)
    return [(n, name(n)) for n in stops]


def main(paths):
    out = []
    for path in paths:
        stops = transcript(read(path))
        out.append({"file": path, "stops": [{"path": n.path, "name": text, "compose": False} for n, text in stops]})
    json.dump(out, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main(sys.argv[1:])
