"""What makes a screen the same screen: a digest of what the rules read in its page source,
not of its bytes — a clock that ticks, a cursor that blinks or the system's status bar do
not make a new screen; another element, another name, another state or other words do."""

from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ElementTree
from typing import Optional

# Attributes the rules read (names, roles, states), in the dialects auditd takes: a
# uiautomator dump's, an Appium XCUITest source's, auditd's own.
_READ = ("class", "type", "role", "resource-id", "id", "name", "label", "content-desc", "text", "value", "hint", "placeholderValue",
         "checkable", "checked", "clickable", "enabled", "selected", "password", "accessible", "visible", "traits")
_DIGITS = re.compile(r"\d+")
# The system's own windows: their clock, battery and notifications change on their own.
_SYSTEM = ("com.android.systemui",)
_SYSTEM_TYPES = ("XCUIElementTypeStatusBar", "XCUIElementTypeKeyboard")


def _skipped(element: ElementTree.Element) -> bool:
    return element.get("package") in _SYSTEM or element.get("type") in _SYSTEM_TYPES or element.tag in _SYSTEM_TYPES


def digest(page_source: bytes | str) -> str:
    """A digest of the elements and of what the rules read in them: numbers in words are
    one number (a clock, a counter), the system's status bar and keyboard are left out.
    A source that is not XML is its bytes' digest."""
    data = page_source.encode("utf-8") if isinstance(page_source, str) else page_source
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError:
        return hashlib.sha256(data).hexdigest()[:32]
    hasher = hashlib.sha256()

    def walk(element: ElementTree.Element, depth: int) -> None:
        if _skipped(element):
            return
        parts = [str(depth), element.tag]
        for name in _READ:
            value = element.get(name)
            if value is not None:
                parts.append(name + "=" + _DIGITS.sub("#", value))
        hasher.update(("\x1f".join(parts) + "\n").encode("utf-8"))
        for child in element:
            walk(child, depth + 1)

    walk(root, 0)
    return hasher.hexdigest()[:32]


def location(page_source: bytes | str, activity: Optional[str] = None) -> Optional[str]:
    """Where the app is, as a screen's name says it: the Android activity (its class name
    without the package), else the first navigation bar's name of an iOS source, else the
    application's name."""
    if activity:
        return activity.rsplit(".", 1)[-1] or activity
    data = page_source.encode("utf-8") if isinstance(page_source, str) else page_source
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError:
        return None
    for kind in ("XCUIElementTypeNavigationBar", "XCUIElementTypeApplication"):
        for element in root.iter():
            if (element.tag == kind or element.get("type") == kind) and (element.get("name") or element.get("label")):
                return element.get("name") or element.get("label")
    return None
