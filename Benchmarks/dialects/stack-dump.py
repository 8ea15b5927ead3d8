#!/usr/bin/env python3
"""Stacks a real dump into a large one of the same dialect (issue 28: "deep stacks, many
attributes", a shape the team's generator does not make).

    stack-dump.py DUMP ELEMENTS MAX-DEPTH > OUT.xml

The dump's first child of its root (the application, or the window's root node) is copied
until the document holds about ELEMENTS elements; each copy is nested inside the previous
one's deepest last element while the nesting stays within MAX-DEPTH (the parser allows
256), then a new stack starts beside it. Attributes, names and text are the dump's own.
"""
import copy
import sys
import xml.etree.ElementTree as ET


def count(element):
    return 1 + sum(count(child) for child in element)


def depth(element):
    return 1 + max((depth(child) for child in element), default=0)


def main():
    source, wanted, max_depth = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    root = ET.parse(source).getroot()
    top = list(root)[0]
    per_copy, copy_depth = count(top), depth(top)
    out = copy.deepcopy(root)
    for child in list(out):
        out.remove(child)
    total = 0
    while total < wanted:
        stack = copy.deepcopy(top)
        total += per_copy
        current, reached = stack, copy_depth
        while reached + copy_depth <= max_depth and total < wanted:
            inner = copy.deepcopy(top)
            total += per_copy
            deepest = current
            while len(deepest):
                deepest = deepest[-1]
            deepest.append(inner)
            current, reached = inner, reached + copy_depth
        out.append(stack)
    sys.stdout.write('<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(out, encoding="unicode"))
    print(f"{total} elements from {per_copy}-element copies {copy_depth} deep", file=sys.stderr)


if __name__ == "__main__":
    main()
