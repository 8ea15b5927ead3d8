#!/usr/bin/env python3
"""A second, deliberately simple model of TalkBack's linear navigation, written straight
from TalkBack's own rules (not from auditd's code), for the differential test
ScreenReaderDifferentialTests.

Read from TalkBack's source (AccessibilityNodeInfoUtils, ReorderedChildrenIterator,
NodeCachedBoundsCalculator) and Android's View:
- The tree TalkBack sees holds the nodes important for accessibility: what the capture says
  (UiAutomator2's a11y-important), else Android's automatic rule — actionable (clickable,
  long-clickable, focusable), checkable, scrollable, with a text or a content description,
  a TextView (it makes itself important), a list (RecyclerView makes itself important) or
  a list's item view (ListView, GridView and RecyclerView make each important).
  The children of a node left out are its parent's.
- shouldFocusNode: never an invisible node, nor one with children whose bounds are its
  window's. A node accessibility-focusable (screen-reader-focusable, actionable, or a
  top-level scroll item that speaks) is a stop when it has no visible children or speaks;
  another node when it has text and no ancestor is focusable.
- isSpeakingNode: text or content description (a list, which has collection info, has
  none), checkable, or a visible non-focusable child that speaks.
- isTopLevelScrollItem: the parent scrolls, or is a list, grid or scroll view (not a
  spinner).
- Order: the tree in preorder, each node's children reordered by effective bounds
  (ReorderedChildrenIterator); Compose's own order inside a ComposeView is not modelled
  here (the test compares those stops as a set).
- Name: an edit box's text; else the content description; else the node's text and the
  words of its non-focusable descendants (each one's description, else its text), in
  order; an edit box with none of these, its hint.

Only the app's window is read: the system's (status bar, keyboards, permission sheets)
is not the app's transcript.

Usage: talkback_reference.py FILE... → one JSON object per file on standard output:
{"file": F, "stops": [{"path": P, "name": N, "compose": bool}], "in_compose": bool}
"""

import json
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter

LISTS = ("RecyclerView", "ListView", "GridView", "ScrollView", "HorizontalScrollView", "NestedScrollView")
COLLECTIONS = ("RecyclerView", "ListView", "GridView")
SYSTEM = ("com.android.systemui",)


class Node:
    def __init__(self, attrib, tag, parent, path):
        self.a = attrib
        self.tag = tag
        self.parent = parent
        self.children = []
        self.path = path
        m = re.match(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]", attrib.get("bounds", ""))
        self.bounds = tuple(int(v) for v in m.groups()) if m else None

    def flag(self, name):
        return self.a.get(name) == "true"

    @property
    def cls(self):
        return self.a.get("class") or self.tag

    @property
    def text(self):
        return (self.a.get("text") or "").strip()

    @property
    def desc(self):
        return (self.a.get("content-desc") or "").strip()


def read(path):
    data = open(path, "rb").read()
    # `uiautomator dump /dev/tty` writes a status line after the document.
    end = data.rfind(b"</hierarchy>")
    root = ET.fromstring(data[: end + len(b"</hierarchy>")] if end >= 0 else data)
    counts = {}

    def build(element, parent, parent_path):
        key = (parent_path, element.tag)
        counts[key] = counts.get(key, 0) + 1
        node = Node(element.attrib, element.tag, parent, f"{parent_path}/{element.tag}[{counts[key]}]")
        for child in element:
            node.children.append(build(child, node, node.path))
        return node

    return [build(child, None, "/hierarchy") for child in root]


def visible(n):
    b = n.bounds
    if b is None or b[2] <= b[0] or b[3] <= b[1]:
        return False
    return n.a.get("displayed") != "false" and n.a.get("visible-to-user") != "false"


def actionable(n):
    return n.flag("clickable") or n.flag("long-clickable") or n.flag("focusable")


def important(n):
    stated = n.a.get("a11y-important") or n.a.get("important-for-accessibility")
    if stated in ("true", "false"):
        return stated == "true"
    # A list's item view is made important by the list (AbsListView.obtainView;
    # RecyclerView.attachAccessibilityDelegateOnBind while a screen reader is on).
    if n.parent is not None and n.parent.cls.endswith(COLLECTIONS):
        return True
    return (actionable(n) or n.flag("checkable") or n.flag("scrollable") or bool(n.text) or bool(n.desc)
            or n.cls.endswith(("TextView", "Button", "EditText")) or n.cls.endswith(COLLECTIONS))


class TalkBack:
    def __init__(self, roots):
        packages = Counter(n.a.get("package", "") for r in roots for n in walk(r))
        app = next((p for p, _ in packages.most_common() if p and p not in SYSTEM and "inputmethod" not in p), "")
        self.windows = [r for r in roots if self.window_package(r) == app]
        self.tparent = {}
        self.tchildren = {}
        for window in self.windows:
            self.window_bounds = None
            self.hoist(window, None, window.bounds)

    @staticmethod
    def window_package(root):
        for n in walk(root):
            if n.a.get("package"):
                return n.a["package"]
        return ""

    def hoist(self, node, tree_parent, window):
        """Builds TalkBack's tree: what is not important hands its children up."""
        stack = [(node, tree_parent)]
        while stack:
            n, p = stack.pop()
            n.window = window
            if important(n) or p is None:
                self.tparent[id(n)] = p
                self.tchildren.setdefault(id(n), [])
                if p is not None:
                    self.tchildren[id(p)].append(n)
                holder = n
            else:
                holder = p
            for child in reversed(n.children):
                stack.append((child, holder))
        # Children were appended in reverse: put them back in tree order.
        for key in self.tchildren:
            self.tchildren[key].sort(key=lambda c: order_key(c))

    def kids(self, n):
        return self.tchildren.get(id(n), [])

    def has_text(self, n):
        return not n.cls.endswith(COLLECTIONS) and bool(n.text or n.desc or n.a.get("hint"))

    def scroll_item_parent(self, p):
        if p is None or n_is_spinner(p):
            return False
        return p.flag("scrollable") or p.cls.endswith(LISTS)

    def focusable(self, n, memo):
        if not visible(n):
            return False
        if n.a.get("screen-reader-focusable") == "true" or actionable(n):
            return True
        return self.scroll_item_parent(self.tparent.get(id(n))) and self.speaking(n, memo)

    def speaking(self, n, memo):
        key = id(n)
        if key in memo:
            return memo[key]
        memo[key] = False
        result = self.has_text(n) or n.flag("checkable") or any(
            visible(c) and not self.focusable(c, memo) and self.speaking(c, memo) for c in self.kids(n))
        memo[key] = result
        return result

    def same_as_window(self, n):
        return n.bounds == n.window and len(n.children) > 0

    def should_focus(self, n, memo, check_children=True):
        if not visible(n) or self.same_as_window(n):
            return False
        f = self.focusable(n, memo)
        if not check_children:
            return f
        if f:
            return not any(visible(c) for c in n.children) or self.speaking(n, memo)
        a = self.tparent.get(id(n))
        while a is not None:
            if self.should_focus(a, memo, False):
                return False
            a = self.tparent.get(id(a))
        return self.has_text(n)

    def name(self, n, memo):
        edit = n.cls.endswith(("EditText", "AutoCompleteTextView"))
        if edit and n.text:
            return " ".join(n.text.split())
        if n.desc:
            return n.desc
        parts = [n.text] if n.text else []
        pending = list(reversed(self.kids(n)))
        while pending:
            c = pending.pop()
            if not visible(c) or self.focusable(c, memo):
                continue
            if c.desc:
                parts.append(c.desc)
                continue
            if c.text:
                parts.append(c.text)
            pending.extend(reversed(self.kids(c)))
        if not parts and edit and (n.a.get("hint") or "").strip():
            parts = [n.a["hint"].strip()]
        return ", ".join(" ".join(p.split()) for p in parts)

    def effective(self, n, stops, cache):
        key = id(n)
        if key in cache:
            return cache[key]
        if not visible(n):
            cache[key] = None
            return None
        if key in stops:
            cache[key] = n.bounds
            return n.bounds
        boxes = [b for b in (self.effective(c, stops, cache) for c in self.kids(n)) if b]
        if not boxes:
            cache[key] = n.bounds
            return n.bounds
        l, t, r, b = n.bounds
        box = (max(min(x[0] for x in boxes), l), max(min(x[1] for x in boxes), t),
               min(max(x[2] for x in boxes), r), min(max(x[3] for x in boxes), b))
        cache[key] = box
        return box

    def ordered_kids(self, n, stops, cache):
        nodes = list(self.kids(n))
        if len(nodes) < 2 or n.cls.endswith("WebView"):
            return nodes
        uses = lambda c: self.effective(c, stops, cache) not in (None, c.bounds)
        if not any(uses(c) for c in nodes):
            return nodes
        for i in range(len(nodes) - 2, -1, -1):
            if not uses(nodes[i]):
                continue
            j = i + 1
            current = nodes[i]
            while j < len(nodes) and compare(self.effective(current, stops, cache), self.effective(nodes[j], stops, cache)) > 0 \
                    and compare(current.bounds, nodes[j].bounds) < 0:
                nodes[j - 1], nodes[j] = nodes[j], nodes[j - 1]
                j += 1
        return nodes

    def transcript(self):
        memo = {}
        stops = {}
        for window in self.windows:
            for n in walk_tree(window, self.kids):
                if self.should_focus(n, memo):
                    stops[id(n)] = n
        cache = {}
        result = []
        for window in self.windows:
            pending = [window]
            while pending:
                n = pending.pop()
                if id(n) in stops:
                    result.append(n)
                pending.extend(reversed(self.ordered_kids(n, stops, cache)))
        return [(n, self.name(n, memo)) for n in result]


def compare(a, b):
    if a is None or b is None:
        return -1
    if a[3] - b[1] <= 0:
        return -1
    if a[1] - b[3] >= 0:
        return 1
    for d in (a[0] - b[0], a[1] - b[1]):
        if d:
            return d
    for d in ((a[3] - a[1]) - (b[3] - b[1]), (a[2] - a[0]) - (b[2] - b[0])):
        if d:
            return -d
    return -1


def n_is_spinner(n):
    return n.cls.endswith("Spinner")


def walk(n):
    stack = [n]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(reversed(x.children))


def walk_tree(n, kids):
    stack = [n]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(reversed(kids(x)))


_order = {}


def order_key(n):
    return _order[id(n)]


def in_compose(n):
    while n is not None:
        if n.cls.endswith(("ComposeView", "AndroidComposeView")):
            return True
        n = n.parent
    return False


def main(paths):
    out = []
    for path in paths:
        roots = read(path)
        index = 0
        for r in roots:
            for n in walk(r):
                _order[id(n)] = index
                index += 1
        stops = TalkBack(roots).transcript()
        out.append({"file": path, "stops": [{"path": n.path, "name": name, "compose": in_compose(n)} for n, name in stops]})
    json.dump(out, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    sys.setrecursionlimit(100000)
    main(sys.argv[1:])
