#!/usr/bin/env python3
"""The baseline a team would write instead of auditd: Python + lxml, the same five rule
families over a native snapshot (text contrast, target size, labels, colour-only groups,
motion), printing findings as JSON. Used by scripts/bench to compare speed; its logic
mirrors the simple cases of the Swift rules, not their every refinement.

usage: Benchmarks/baseline_lxml.py FILE > findings.json
"""
import json
import re
import sys

from lxml import etree


def parse_color(text):
    if not text or not text.startswith("#") or len(text) not in (4, 7, 9):
        return None
    digits = text[1:]
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    try:
        r, g, b = int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)
        a = int(digits[6:8], 16) if len(digits) == 8 else 255
    except ValueError:
        return None
    return (r, g, b, a)


def linear(c):
    c = c / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(color):
    r, g, b = color[:3]
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def composite(top, bottom):
    a = top[3] / 255
    return tuple(round(top[i] * a + bottom[i] * (1 - a)) for i in range(3)) + (255,)


def ratio(a, b):
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def frame(text):
    try:
        parts = [float(p) for p in text.split(",")]
        return parts if len(parts) == 4 else None
    except (AttributeError, ValueError):
        return None


INTERACTIVE = {"button", "link", "textfield", "switch", "slider", "stepper", "checkbox", "radio", "tab"}
FILE_NAME = re.compile(r"(\.(png|jpe?g|gif|svg|pdf)$)|^(ic|icon|btn|img|image|bg|logo)[_-]|^(img|dsc)_?\d+$|^[a-z0-9]+(_[a-z0-9]+)+$", re.I)
TRAIT_WORDS = {"button", "btn", "image", "icon", "link", "tab", "selected"}


def main():
    tree = etree.parse(sys.argv[1], etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True))
    root = tree.getroot()
    settings = root.find("settings")
    reduce_motion = settings is not None and settings.get("reduce-motion") == "true"
    findings = []

    def report(rule, element, message):
        findings.append({"rule": rule, "element": element.get("id"), "line": element.sourceline, "message": message})

    def walk(element, background):
        own = parse_color(element.get("background"))
        if own:
            background = own if own[3] == 255 else (composite(own, background) if background else None)
        role = element.get("role", "other")
        label = (element.get("label") or element.get("text") or "").strip()
        interactive = role in INTERACTIVE or element.get("interactive") == "true"
        fg = parse_color(element.get("foreground"))
        text = element.get("text")
        if text and fg and background and element.get("enabled") != "false":
            size = float(element.get("font-size") or 0)
            bold = element.get("font-weight") in ("bold", "heavy", "black", "700", "800", "900")
            required = 3.0 if size >= 18 or (size >= 14 and bold) else 4.5
            value = ratio(composite(fg, background), background)
            if value < required:
                report("contrast.text", element, f"Text contrast {value:.2f}:1 is below {required}:1")
        f = frame(element.get("hit-frame") or element.get("frame"))
        if interactive and f and (f[2] < 44 or f[3] < 44) and f[2] > 0 and f[3] > 0:
            report("target-size", element, f"Target {f[2]:g}x{f[3]:g} is smaller than 44x44")
        if (interactive or role == "image") and element.get("accessible") != "false" and element.get("hidden") != "true":
            if not label:
                report("label.missing", element, f"{role} has no accessible name")
            elif FILE_NAME.search(label):
                report("label.filename", element, f"Label {label!r} looks like a file name")
            elif label.lower().split()[-1:] and label.lower().split()[-1] in TRAIT_WORDS and len(label.split()) > 1:
                report("label.redundant-trait", element, f"Label {label!r} repeats its trait")
        for animation in element.findall("animation"):
            kind = animation.get("kind")
            if reduce_motion and kind not in ("fade", "crossfade") and animation.get("honors-reduce-motion") == "false":
                report("motion.reduce-motion", element, f"{kind} animation ignores Reduce Motion")
            if animation.get("autoplay") == "true" and animation.get("pausable") != "true":
                duration = float(animation.get("duration") or 0)
                repeat = animation.get("repeat") or "1"
                total = float("inf") if repeat == "forever" else duration * float(repeat)
                if total > 5:
                    report("motion.autoplay", element, f"{kind} plays for {total:g}s")
        children = [c for c in element if c.tag == "element"]
        # Colour-only: leaf siblings alike but for colour.
        groups = {}
        for child in children:
            if len(child) == 0 and (child.get("foreground") or child.get("background")):
                key = (child.get("role"), tuple(child.get("frame", "").split(",")[2:]), child.get("image"), child.get("text"))
                groups.setdefault(key, []).append(child)
        for members in groups.values():
            colors = {m.get("foreground") or m.get("background") for m in members}
            if len(members) > 1 and len(colors) > 1:
                report("color-only.group", members[1], "Differs only by colour")
        for child in children:
            walk(child, background)

    for element in root.findall("element"):
        walk(element, None)
    json.dump({"findings": findings}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
