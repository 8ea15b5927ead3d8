#!/usr/bin/env python3
"""Writes the hostile-input corpus of Tests/IntegrationTests/Hostile: small files, one case
each, and MANIFEST.tsv with the answer the daemon must give (status, and the error code or
the finding expected). Large cases (100 MB bodies, deep nesting, 10 MB attributes) are made
by the test itself at run time. Re-run after changing a case:

    scripts/make-hostile-corpus.py
"""
import os

HERE = os.path.join(os.path.dirname(__file__), "..", "Tests", "IntegrationTests", "Hostile")
GOOD_HEAD = '<snapshot version="1" platform="ios" app="h" screen="s">'
ROOT = '<element id="root" role="window" frame="0,0,390,844" background="#FFFFFF">'


def snapshot(body):
    return f'{GOOD_HEAD}{ROOT}{body}</element></snapshot>'


cases = []  # (name, bytes, status, expectation)


def add(name, data, status, expect):
    if isinstance(data, str):
        data = data.encode("utf-8")
    cases.append((name, data, status, expect))


# Malformed XML of many kinds.
add("unclosed-root", GOOD_HEAD + ROOT, 400, "malformed-xml")
add("mismatched-tags", '<snapshot version="1"><element></elem></snapshot>', 400, "malformed-xml")
add("unquoted-attribute", '<snapshot version="1"><element id=x/></snapshot>', 400, "malformed-xml")
add("duplicate-attribute", '<snapshot version="1"><element id="a" id="b"/></snapshot>', 400, "malformed-xml")
add("bad-character-in-name", '<snapshot version="1"><el#ement/></snapshot>', 400, "malformed-xml")
add("lone-ampersand", '<snapshot version="1"><element label="a & b"/></snapshot>', 400, "malformed-xml")
add("less-than-in-attribute", '<snapshot version="1"><element label="a < b"/></snapshot>', 400, "malformed-xml")
add("two-roots", '<snapshot version="1"/><snapshot version="1"/>', 400, "malformed-xml")
add("text-before-root", 'hello <snapshot version="1"/>', 400, "malformed-xml")
add("control-character", '<snapshot version="1"><element label="a\x01b"/></snapshot>', 400, "malformed-xml")
add("cdata-unclosed", '<snapshot version="1"><![CDATA[ x </snapshot>', 400, "malformed-xml")
add("comment-unclosed", '<snapshot version="1"><!-- x </snapshot>', 400, "malformed-xml")
full = snapshot('<element id="b" role="button" label="Go" frame="10,10,44,44"><animation kind="fade"/></element>')
# Cut inside the root's name, libxml2 reports the partial name itself: <sn> is no known root.
add("truncated-in-root-name", full[:3], 400, "unsupported-root")
for cut_name, marker in [("in-root-tag", 20), ("in-attribute-value", full.index('label="Go') + 8),
                         ("between-elements", full.index("<animation")), ("in-end-tag", len(full) - 5)]:
    add(f"truncated-{cut_name}", full[:marker], 400, "malformed-xml")
# Structure the daemon refuses.
add("no-version", '<snapshot platform="ios"/>', 400, "missing-version")
add("version-2", '<snapshot version="2"/>', 400, "unsupported-version")
add("html-root", '<html><body/></html>', 400, "unsupported-root")
add("svg-root", '<svg xmlns="http://www.w3.org/2000/svg"/>', 400, "unsupported-root")
# Entity attacks: refused at the DOCTYPE, nothing read, bounded time.
lol = '<?xml version="1.0"?><!DOCTYPE snapshot [<!ENTITY a "aaaaaaaaaa">' + "".join(
    f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9)) + ']><snapshot version="1"><element label="&j;"/></snapshot>'
add("billion-laughs", lol, 400, "doctype-forbidden")
add("quadratic-blowup", '<!DOCTYPE snapshot [<!ENTITY x "' + "x" * 50000 + '">]><snapshot version="1"><element label="' + "&x;" * 2000 + '"/></snapshot>', 400, "doctype-forbidden")
add("xxe-file", '<!DOCTYPE snapshot [<!ENTITY x SYSTEM "file:///etc/passwd">]><snapshot version="1"><element label="&x;"/></snapshot>', 400, "doctype-forbidden")
add("xxe-url", '<!DOCTYPE snapshot [<!ENTITY x SYSTEM "http://127.0.0.1:9/x">]><snapshot version="1"><element label="&x;"/></snapshot>', 400, "doctype-forbidden")
add("external-dtd", '<!DOCTYPE snapshot SYSTEM "file:///etc/passwd"><snapshot version="1"/>', 400, "doctype-forbidden")
add("parameter-entity", '<!DOCTYPE snapshot [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]><snapshot version="1"/>', 400, "doctype-forbidden")
add("undeclared-entity", '<snapshot version="1"><element label="&nope;"/></snapshot>', 400, "malformed-xml")
add("xinclude", '<snapshot version="1" xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="file:///etc/passwd" parse="text"/>' + ROOT + '</element></snapshot>', 200, "elements=1")
# Encodings.
add("invalid-utf8", b'<snapshot version="1"><element label="\xc3\x28"/></snapshot>', 400, "malformed-xml")
add("utf16-bom", '\ufeff<?xml version="1.0" encoding="UTF-16"?>'.encode("utf-16-le")[0:0] + ('<?xml version="1.0" encoding="UTF-16"?>' + snapshot('<element id="t" role="text" text="Caf\u00e9"/>')).encode("utf-16"), 200, "elements=2")
add("iso-8859-1", ('<?xml version="1.0" encoding="ISO-8859-1"?>' + snapshot('<element id="t" role="text" text="Caf\u00e9"/>')).encode("latin-1"), 200, "elements=2")
add("nul-byte", b'<snapshot version="1"><element label="a\x00b"/></snapshot>', 400, "malformed-xml")
add("empty-body", b"", 400, "empty-snapshot")
add("whitespace-body", b"  \n\t ", 400, "empty-snapshot")
add("binary-junk", bytes((i * 73 + 11) % 256 for i in range(2048)), 400, "malformed-xml")
add("gzip-body", bytes([0x1F, 0x8B, 0x08, 0x00]) + bytes(range(200)), 400, "malformed-xml")
# Bad values: 200 with snapshot.invalid-value findings, the rest audited.
add("number-nan", snapshot('<element id="e" role="text" text="x" font-size="NaN" foreground="#000"/>'), 200, "invalid-value=font-size")
add("number-infinity", snapshot('<element id="e" role="text" text="x" opacity="Infinity"/>'), 200, "invalid-value=opacity")
add("number-1e309", snapshot('<element id="e" role="button" label="x" frame="0,0,1e309,44"/>'), 200, "invalid-value=frame")
add("negative-size", snapshot('<element id="e" role="button" label="x" frame="0,0,-44,44"/>'), 200, "invalid-value=frame")
# Sizes far beyond any screen are valid numbers: every rule must cope (color-only.group once
# trapped converting a 1e30-point width to an integer).
add("huge-frames", snapshot('<element id="a" role="image" label="A" frame="0,0,1e30,3e38" background="#34C759"/>'
                            '<element id="b" role="image" label="B" frame="0,0,1e30,3e38" background="#FF3B30"/>'
                            '<element id="c" role="button" label="C" frame="-1e30,-1e30,1e30,1e30" hit-frame="0,0,3e38,3e38"/>'),
    200, "no-invalid-value")
# Beyond single precision (frames are kept as Float): clamped, never infinite (the target
# grid once trapped on an infinite hit frame).
add("frames-beyond-float", snapshot('<element id="a" role="button" label="A" frame="0,0,44,7e38" hit-frame="-1e300,0,1e300,7e38"/>'
                                    '<element id="b" role="button" label="B" frame="7e38,7e38,44,44"/>'),
    200, "no-invalid-value")
add("negative-zero-is-fine", snapshot('<element id="e" role="button" label="x" frame="-0,-0,44,44" opacity="-0"/>'), 200, "no-invalid-value")
add("colour-out-of-range", snapshot('<element id="e" role="text" text="x" foreground="#GG0000"/>'), 200, "invalid-value=foreground")
add("colour-too-long", snapshot('<element id="e" role="text" text="x" background="#1234567890"/>'), 200, "invalid-value=background")
add("boolean-maybe", snapshot('<element id="e" role="button" label="x" enabled="maybe"/>'), 200, "invalid-value=enabled")
add("opacity-above-one", snapshot('<element id="e" role="text" text="x" opacity="1.5"/>'), 200, "invalid-value=opacity")
add("bad-settings", GOOD_HEAD + '<settings content-size="huge" reduce-motion="perhaps"/>' + ROOT + '</element></snapshot>', 200, "invalid-value=content-size")
add("android-bad-bounds", '<hierarchy rotation="0"><node class="android.widget.Button" clickable="true" bounds="[a,b][c,d]"/></hierarchy>', 200, "invalid-value=bounds")
add("appium-bad-coordinate", '<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" x="zero" y="0" width="390" height="844"/></AppiumAUT>', 200, "invalid-value=x")

os.makedirs(HERE, exist_ok=True)
for name in os.listdir(HERE):
    os.remove(os.path.join(HERE, name))
with open(os.path.join(HERE, "MANIFEST.tsv"), "w") as manifest:
    manifest.write("file\tstatus\texpect\n")
    for name, data, status, expect in cases:
        file = name + ".xml"
        with open(os.path.join(HERE, file), "wb") as handle:
            handle.write(data)
        manifest.write(f"{file}\t{status}\t{expect}\n")
print(f"{len(cases)} cases written to {os.path.normpath(HERE)}")
