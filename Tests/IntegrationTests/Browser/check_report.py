#!/usr/bin/env python3
"""Opens an auditctl HTML report in headless Chromium (WebDriver) and checks it as a user
and as an accessibility auditor would:

  check_report.py REPORT.html REPORT.json [--axe] [--keyboard] [--pixels] [--marker-contrast] [--originals] [--reflow]
                  [--transcripts] [--enlarge] [--print]
                  [--max-load-seconds S] [--sample-snapshots N] [--axe-sections N]

REPORT.json is the same run's `--format json`: the page must list every finding once and
put a marker, in its severity's colour, on each finding's element at the element's place.
--keyboard drives the selection and the filters with keys only; --axe runs axe-core 4.x in
the page (light and dark schemes) and fails on any violation; --marker-contrast measures, in
both schemes, every marker's edge against the pixels under it (WCAG 1.4.11, 3:1). Prints what it checked; exits
1 with the reason on the first failure.
"""
import base64, importlib.util, io, json, os, re, sys, time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

SEVERITY_RGB = {"error": (0xB3, 0x00, 0x1B), "warning": (0x8A, 0x4B, 0x00), "notice": (0x00, 0x40, 0xA8)}


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def browser(width=1280, height=1600):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}",
                     "--force-device-scale-factor=1", "--hide-scrollbars"]:
        options.add_argument(argument)
    for candidate in ["/usr/bin/chromium", "/usr/bin/chromium-browser"]:
        if os.path.exists(candidate):
            options.binary_location = candidate
    driver_path = next((p for p in ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"] if os.path.exists(p)), None)
    if driver_path is None:
        fail("chromedriver is not installed (scripts/setup installs chromium-driver)")
    return webdriver.Chrome(service=Service(driver_path), options=options)


def check_structure(driver, reports):
    findings = [f for r in reports if "findings" in r for f in r["findings"]]
    items = driver.find_elements(By.CSS_SELECTOR, "li.finding")
    if len(items) != len(findings):
        fail(f"{len(items)} findings listed, the report has {len(findings)}")
    # One marker per element: the findings on one frame share it.
    markers = driver.find_elements(By.CSS_SELECTOR, "a.marker")
    elements = sum(len({tuple(f["frame"]) for f in r.get("findings", []) if f.get("frame")}) for r in reports)
    if len(markers) != elements:
        fail(f"{len(markers)} markers drawn, {elements} elements have findings with a frame")
    # Every listed finding says its report's message, in order, per snapshot (read in one call).
    shown = driver.execute_script("const out = {}; document.querySelectorAll('li.finding').forEach(li => {"
                                  "out[li.id] = li.querySelector('.message').textContent; }); return out;")
    for index, report in enumerate(reports):
        for number, finding in enumerate(report.get("findings", []), start=1):
            text = shown.get(f"f-{index}-{number}")
            # Sizes are given to one decimal, cut (HTMLText.readable); the rest word for word.
            expected = re.sub(r"([0-9]+)\.([0-9])[0-9]+(?=×| dp| pt| px)", r"\1.\2", finding["message"])
            if text is None or " ".join(text.split()) != " ".join(expected.split()):
                fail(f"finding {index}-{number} says {text!r}, the report {finding['message']!r}")
    # Each finding on an element shows it enlarged: a crop of the drawing's own picture.
    crops = driver.execute_script(
        "return Array.from(document.querySelectorAll('li.finding[data-marker]')).filter(li => { const u = li.querySelector('svg.crop use');"
        "return u && document.getElementById(u.getAttribute('href').slice(1)); }).length")
    framed_count = sum(1 for f in findings if f.get("frame"))
    if crops != framed_count:
        fail(f"{crops} findings show their element enlarged, {framed_count} have a frame")
    print(f"ok: {len(items)} findings listed, {len(markers)} markers, {crops} crops")
    return findings


def check_positions(driver, reports, sample):
    """Each marker's outline sits on its element: the frame in points, mapped as the SVG maps
    its viewBox onto the page. The markers of the snapshots in `sample` (measuring lays the
    whole section out) are read in one call."""
    placed = driver.execute_script(
        "const out = {}; arguments[0].forEach(i => { const svg = document.querySelector('#snapshot-' + i + ' svg.screen'); if (!svg) return; const m = svg.getScreenCTM();"
        "document.querySelectorAll('#snapshot-' + i + ' li.finding[data-marker]').forEach(li => { const a = document.getElementById(li.dataset.marker);"
        "if (!a) return; const r = document.getElementById('o-' + a.id).querySelector('rect.outline').getBoundingClientRect();"
        "out[li.id.replace('f-', 'm-')] = [r.left, r.top, m.e, m.f, m.a, m.d]; }); }); return out;", sorted(sample))
    checked = 0
    for snapshot_index, report in enumerate(reports):
        if snapshot_index not in sample:
            continue
        for number, finding in enumerate(report.get("findings", []), start=1):
            frame = finding.get("frame")
            if not frame:
                continue
            rect = placed.get(f"m-{snapshot_index}-{number}")
            if rect is None:
                fail(f"finding {snapshot_index}-{number} has a frame and no marker")
            expected = [rect[2] + frame[0] * rect[4], rect[3] + frame[1] * rect[5]]
            if abs(rect[0] - expected[0]) > 2 or abs(rect[1] - expected[1]) > 2:
                fail(f"marker {snapshot_index}-{number} at {rect[:2]}, its element at {expected}")
            checked += 1
    print(f"ok: {checked} markers at their elements' positions")


def check_pixels(driver, reports):
    """In a screenshot of each drawing, each element's marker shows the colour of its worst
    finding's severity, in that severity's shape (square, diamond, circle)."""
    from PIL import Image
    checked = covered = 0
    rank = {"notice": 0, "warning": 1, "error": 2}
    for snapshot_index, report in enumerate(reports):
        framed = [(n, f) for n, f in enumerate(report.get("findings", []), start=1) if f.get("frame")]
        if not framed or checked >= 80:
            continue
        svg = driver.find_element(By.CSS_SELECTOR, f"#snapshot-{snapshot_index} svg.screen")
        # Brought on screen as a reader would (sections off screen are not painted); the
        # drawing and its badges are measured in one call, painted by the DevTools
        # protocol, and measured again: sections laid out late may shift the page, so the
        # capture is taken again until both measures agree. A marker's top badge is its
        # last (the worst severity's, painted over the others).
        measure = ("const s = arguments[0], r = s.getBoundingClientRect(); const badges = {};"
                   "s.querySelectorAll('a.marker').forEach(a => { const all = a.querySelectorAll('.badge'); const c = all[all.length - 1];"
                   "const b = c.getBoundingClientRect();"
                   "badges[a.id] = [b.left - r.left, b.top - r.top, b.width, c.tagName.toLowerCase()]; });"
                   "return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height, badges];")
        for _ in range(5):
            driver.execute_async_script("const done = arguments[arguments.length - 1]; arguments[0].scrollIntoView({behavior: 'instant'});"
                                        "requestAnimationFrame(() => requestAnimationFrame(() => done()));", svg)
            before = driver.execute_script(measure, svg)
            shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": {
                "x": before[0], "y": before[1], "width": before[2], "height": before[3], "scale": 1}})
            if driver.execute_script(measure, svg) == before:
                break
        image = Image.open(io.BytesIO(base64.b64decode(shot["data"]))).convert("RGB")
        badges = before[4]
        marker_of = driver.execute_script(
            "const out = {}; document.querySelectorAll('#snapshot-' + arguments[0] + ' li.finding[data-marker]').forEach(li => { out[li.id] = li.dataset.marker; }); return out;",
            snapshot_index)
        worst = {}
        for number, finding in framed:
            marker = marker_of.get(f"f-{snapshot_index}-{number}")
            if marker is None:
                fail(f"finding {snapshot_index}-{number} has a frame and no marker")
            if marker not in worst or rank[finding["severity"]] > rank[worst[marker]]:
                worst[marker] = finding["severity"]
        for marker, severity in worst.items():
            box = badges.get(marker)
            if box is None:
                fail(f"marker {marker} has no badge")
            # Along the axes every shape (square, diamond, circle) reaches past 0.7 of its half-size.
            cx, cy, radius = box[0] + box[2] / 2, box[1] + box[2] / 2, box[2] / 2 * 0.7
            shape = {"error": "rect", "warning": "polygon", "notice": "circle"}[severity]
            if box[3] != shape:
                fail(f"badge of marker {marker} ({severity}) is a {box[3]}, not a {shape}")
            # Pixels just inside the badge's edge (its number is at the centre, and a
            # neighbour's badge may cover one side): most must be the severity's colour.
            want = SEVERITY_RGB[severity]
            hits = 0
            for dx, dy in [(radius, 0), (-radius, 0), (0, radius), (0, -radius)]:
                x, y = int(cx + dx), int(cy + dy)
                if 0 <= x < image.width and 0 <= y < image.height and all(abs(a - b) <= 40 for a, b in zip(image.getpixel((x, y)), want)):
                    hits += 1
            # A badge may be covered only by another painted after it (badges that would
            # cover one another are moved apart, so few are).
            if hits < 2 and not overlapped(driver, snapshot_index, marker):
                fail(f"badge of marker {marker} ({severity}) is not drawn in {want} at {cx:.0f},{cy:.0f} of the drawing")
            if hits < 2:
                covered += 1
            checked += 1
    print(f"ok: {checked} markers drawn in their worst severity's colour and shape, {covered} covered by another")


def relative_luminance(rgb):
    def channel(c):
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    la, lb = relative_luminance(a), relative_luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def check_marker_contrast(driver, scheme, limit=40):
    """Every marker stands out from the pixels under it by 3:1 (WCAG 1.4.11), whatever
    the screenshot and the report's scheme. Each drawing is captured with its markers and
    without them (the pixels under: screenshot, wireframe, outlines, leader lines). Around
    the top badge of each marker (its shape from the DOM: square, diamond or circle), at 48
    points of its edge, the pixel 3 px outside is the pixel under; the marker's colours
    along the inward normal (its dark ring, its light stroke, its fill) must reach 3:1
    against it somewhere. A point where another marker covers the pixel outside is not
    counted; a marker passes when 90% of its points do (anti-aliasing). Every marker of
    up to `limit` drawings is measured; MARKER_CONTRAST_DEBUG=1 prints each point that
    fails."""
    import math
    from PIL import Image
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    svgs = driver.find_elements(By.CSS_SELECTOR, "svg.screen")[:limit]
    measured, points, worst = 0, 0, None
    for svg in svgs:
        driver.execute_async_script("const done = arguments[arguments.length - 1]; arguments[0].scrollIntoView({behavior: 'instant'});"
                                    "requestAnimationFrame(() => requestAnimationFrame(() => done()));", svg)
        box = driver.execute_script(
            "const s = arguments[0], r = s.getBoundingClientRect(); const m = [];"
            "s.querySelectorAll('a.marker').forEach(a => { if (getComputedStyle(a).display === 'none') return;"
            "const rings = a.querySelectorAll('.ring'); const ring = rings[rings.length - 1]; const b = ring.getBoundingClientRect();"
            "m.push([a.id, ring.tagName.toLowerCase(), b.left - r.left, b.top - r.top, b.width, b.height]); });"
            "return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height, m];", svg)
        if not box[4]:
            continue
        # Captured from whole pixels: the drawing's fractional offset is added to every
        # marker's place instead (a clip at y = 6728.8 came back a pixel off).
        left, top = math.floor(box[0]), math.floor(box[1])
        clip = {"x": left, "y": top, "width": math.ceil(box[2] + box[0] - left), "height": math.ceil(box[3] + box[1] - top), "scale": 1}
        offset = (box[0] - left, box[1] - top)

        def capture():
            shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip})
            return Image.open(io.BytesIO(base64.b64decode(shot["data"]))).convert("RGB")

        def hide(hidden):
            driver.execute_script("arguments[0].querySelectorAll('a.marker').forEach(e => e.style.visibility = arguments[1]);",
                                  svg, "hidden" if hidden else "")
        # Pictures decode and sections lay out late: the pair is taken again until the
        # drawing with its markers is the same before and after the one without.
        for _ in range(6):
            over = capture()
            hide(True)
            under = capture()
            hide(False)
            if capture().tobytes() == over.tobytes():
                break
        else:
            fail(f"{scheme} scheme: a drawing kept changing between captures")
        width, height = over.size
        op, up = over.load(), under.load()

        def pixel(image, x, y):
            x, y = int(round(x)), int(round(y))
            return image[x, y] if 0 <= x < width and 0 <= y < height else None

        for marker, shape, x, y, w, h in box[4]:
            x, y = x + offset[0], y + offset[1]
            cx, cy, half = x + w / 2, y + h / 2, w / 2
            edge = []
            for k in range(48):
                t = k / 48
                if shape == "circle":
                    angle = 2 * math.pi * t
                    normal = (math.cos(angle), math.sin(angle))
                    edge.append(((cx + half * normal[0], cy + half * normal[1]), normal))
                elif shape == "polygon":
                    side, u = int(t * 4), t * 4 % 1
                    corners = [(cx, cy - half), (cx + half, cy), (cx, cy + half), (cx - half, cy), (cx, cy - half)]
                    (ax, ay), (bx, by) = corners[side], corners[side + 1]
                    normal = [(0.7071, -0.7071), (0.7071, 0.7071), (-0.7071, 0.7071), (-0.7071, -0.7071)][side]
                    edge.append(((ax + (bx - ax) * u, ay + (by - ay) * u), normal))
                else:
                    side, u = int(t * 4), t * 4 % 1
                    corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
                    (ax, ay), (bx, by) = corners[side], corners[side + 1]
                    normal = [(0, -1), (1, 0), (0, 1), (-1, 0)][side]
                    # Corners are rounded: the middle 80% of each side.
                    u = 0.1 + 0.8 * u
                    edge.append(((ax + (bx - ax) * u, ay + (by - ay) * u), normal))
            counted = passed = 0
            for (ex, ey), (nx, ny) in edge:
                outside = (ex + nx * 3.5, ey + ny * 3.5)
                below, above = pixel(up, *outside), pixel(op, *outside)
                if below is None or above is None or max(abs(a - b) for a, b in zip(below, above)) > 24:
                    continue
                colours = [pixel(op, ex + nx * d, ey + ny * d) for d in (2, 1.5, 1, 0.5, 0, -0.5, -1, -1.5, -2)]
                counted += 1
                if max(contrast(c, below) for c in colours if c is not None) >= 3:
                    passed += 1
                elif os.environ.get("MARKER_CONTRAST_DEBUG"):
                    print(marker, shape, (round(x, 1), round(y, 1), round(w, 1), round(h, 1)), (round(ex - x, 1), round(ey - y, 1)), (nx, ny), below, colours)
            if counted < 12:
                continue
            share = passed / counted
            measured += 1
            points += counted
            if worst is None or share < worst[0]:
                worst = (share, marker)
            if share < 0.9:
                x0, y0, x1, y1 = max(0, int(x) - 6), max(0, int(y) - 6), min(width, int(x + w) + 7), min(height, int(y + h) + 7)
                over.crop((x0, y0, x1, y1)).resize(((x1 - x0) * 8, (y1 - y0) * 8), Image.NEAREST).save(f"/tmp/marker-contrast-{marker}.png")
                under.crop((x0, y0, x1, y1)).resize(((x1 - x0) * 8, (y1 - y0) * 8), Image.NEAREST).save(f"/tmp/marker-contrast-{marker}-under.png")
                fail(f"{scheme} scheme: marker {marker}'s edge reaches 3:1 against the pixels under it at {share:.0%} of its points "
                     f"(at least 90%; crops with and without it in /tmp/marker-contrast-{marker}*.png)")
    if measured == 0:
        fail(f"{scheme} scheme: no marker measured")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
    print(f"ok: {scheme} scheme: {measured} markers ({points} points of their edges) stand out from the pixels under them by 3:1 "
          f"(worst: {worst[1]}, {worst[0]:.0%} of its points)")


def check_originals(driver):
    """Each screenshot's original is a click away: every "Original screenshot (W × H px)"
    link opens an image of that size (the drawing embeds a scaled copy)."""
    links = driver.find_elements(By.CSS_SELECTOR, "a.original")
    for link in links:
        size = re.search(r"\((\d+) × (\d+) px\)", link.text)
        if size is None:
            fail(f"the original's link says no size: {link.text!r}")
        loaded = driver.execute_async_script(
            "const done = arguments[arguments.length - 1], image = new Image();"
            "image.onload = () => done([image.naturalWidth, image.naturalHeight]); image.onerror = () => done(null); image.src = arguments[0];",
            link.get_attribute("href"))
        if loaded != [int(size.group(1)), int(size.group(2))]:
            fail(f"{link.get_attribute('href')} opened as {loaded}, not the {size.group(1)} × {size.group(2)} px original")
    print(f"ok: {len(links)} original screenshots a click away, each opening at its size")


def overlapped(driver, snapshot_index, marker):
    """True when a later marker's badge covers this one's centre."""
    return driver.execute_script(
        "const me = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return Array.from(document.querySelectorAll(arguments[1])).some(c => { if (c.closest('a').id === arguments[2]) return false;"
        "const r = c.getBoundingClientRect(); return Math.abs(r.left - me.left) < me.width && Math.abs(r.top - me.top) < me.height; });",
        f"#{marker} .badge", f"#snapshot-{snapshot_index} .badge", marker)


def check_keyboard(driver):
    # From the last filter control, Tab reaches the first snapshot's markers: keys only.
    controls = driver.find_elements(By.CSS_SELECTOR, "#filters select, #filters input")
    driver.execute_script("arguments[0].focus();", controls[-1])
    active = None
    for _ in range(60):
        driver.switch_to.active_element.send_keys(Keys.TAB)
        active = driver.switch_to.active_element
        if active.get_attribute("class") and "marker" in active.get_attribute("class"):
            break
    else:
        fail("no marker can be reached with Tab")
    anchor = active.get_attribute("data-finding")
    if not active.get_attribute("aria-label", ) or "Finding" not in active.get_attribute("aria-label"):
        fail("a marker has no name")
    active.send_keys(Keys.ENTER)
    item = driver.find_element(By.ID, "f-" + anchor)
    if "selected" not in item.get_attribute("class"):
        fail("Enter on a marker does not select its finding")
    if driver.switch_to.active_element.get_attribute("id") != "f-" + anchor:
        fail("Enter on a marker does not move focus to its finding")
    # From the list: the finding's number button selects its marker.
    other = driver.execute_script("const b = document.querySelectorAll('li.finding button.number'); return b[Math.min(2, b.length - 1)];")
    driver.execute_script("arguments[0].focus();", other)
    driver.switch_to.active_element.send_keys(Keys.SPACE)
    other_marker = other.find_element(By.XPATH, "./ancestor::li[1]").get_attribute("data-marker")
    if "selected" not in driver.find_element(By.ID, other_marker).get_attribute("class"):
        fail("the number button of a finding does not select its marker")
    if driver.switch_to.active_element.get_attribute("id") != other_marker:
        fail("the number button of a finding does not move focus to its marker")
    # Filters: uncheck "error" with the space bar; errors and their markers hide.
    box = driver.find_element(By.CSS_SELECTOR, "input[name=severity][value=error]")
    driver.execute_script("arguments[0].focus();", box)
    driver.switch_to.active_element.send_keys(Keys.SPACE)
    # Read in the page (one call, not a WebDriver round trip per finding).
    # Every error is hidden, and (for a sample: styling 5,000 items forces the layout of a
    # whole long page) hidden means not displayed.
    errors, shown_errors = driver.execute_script(
        "const e = Array.from(document.querySelectorAll('li.finding[data-severity=error]'));"
        "return [e.length, e.filter(x => !x.hidden).length + e.slice(0, 20).filter(x => getComputedStyle(x).display !== 'none').length];")
    if shown_errors:
        fail(f"unchecking error leaves {shown_errors} error findings shown")
    hidden_markers = driver.execute_script("return Array.from(document.querySelectorAll('a.marker.sev-error')).filter(m => getComputedStyle(m).display !== 'none').length")
    if hidden_markers:
        fail(f"{hidden_markers} error markers still shown")
    status = driver.find_element(By.ID, "shown").text
    total = driver.execute_script("return document.querySelectorAll('li.finding').length")
    if status != f"Showing {total - errors} of {total} findings":
        fail(f"the filter status says '{status}'")
    rule = driver.find_element(By.CSS_SELECTOR, "select[name=rule]")
    if driver.execute_script("return arguments[0].options.length", rule) > 1:
        driver.execute_script("arguments[0].focus();", rule)
        driver.switch_to.active_element.send_keys(Keys.DOWN)
        chosen = driver.execute_script("return document.querySelector('select[name=rule]').value")
        others = driver.execute_script("return Array.from(document.querySelectorAll('li.finding'))"
                                       ".filter(x => !x.hidden && x.dataset.rule !== arguments[0]).length", chosen)
        if others:
            fail(f"choosing the rule {chosen} leaves {others} findings of other rules shown")
    print("ok: markers and findings select each other, filters work, with the keyboard")


def check_enlarge(driver):
    """Landscape drawings (wider than tall: a TV, a tablet) take the column's whole width;
    a portrait one does after its "Full width" button is pressed from the keyboard, and
    goes back when pressed again."""
    narrow = driver.execute_script(
        "return Array.from(document.querySelectorAll('svg.screen')).filter(s => { const v = s.viewBox.baseVal;"
        "return v.width > v.height && !s.closest('.pair').classList.contains('wide'); }).length")
    if narrow:
        fail(f"{narrow} landscape drawings are not drawn full width")
    button = driver.execute_script("return document.querySelector('button.enlarge[aria-pressed=false]')")
    if button is None:
        print("ok: landscape drawings full width (no portrait drawing to enlarge)")
        return
    svg = driver.execute_script("return arguments[0].closest('figure').querySelector('svg.screen')", button)
    before = driver.execute_script("return arguments[0].getBoundingClientRect().width", svg)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", button)
    driver.switch_to.active_element.send_keys(Keys.SPACE)
    after = driver.execute_script("return arguments[0].getBoundingClientRect().width", svg)
    pair = driver.execute_script("return arguments[0].closest('.pair').getBoundingClientRect().width", svg)
    if button.get_attribute("aria-pressed") != "true" or after < pair * 0.95 or after <= before:
        fail(f"Full width: the drawing is {after:.0f} px of a {pair:.0f}-px column (was {before:.0f})")
    driver.switch_to.active_element.send_keys(Keys.SPACE)
    back = driver.execute_script("return arguments[0].getBoundingClientRect().width", svg)
    if abs(back - before) > 2:
        fail(f"pressed again, the drawing is {back:.0f} px, not {before:.0f}")
    print(f"ok: landscape drawings full width; a portrait one enlarges from {before:.0f} to {after:.0f} px and back")


def run_axe(driver, scheme, sections=None):
    """axe-core over the page; with `sections`, the snapshot sections past the first
    `sections` (but the last) are taken out of the page first: a 500-snapshot page is the
    same markup repeated, and axe takes many minutes over all of it (even with them
    excluded: it still walks them). Ids must still be unique across the whole page
    (checked before). The sections kept are laid out as when scrolled to (a long page lays
    out its sections as they come into view, and axe's hit tests find nothing in one
    not laid out: a link there looked covered)."""
    location = importlib.util.find_spec("axe_playwright_python")
    if location is None:
        fail("axe-core is not installed (scripts/setup: pip install --no-deps axe-playwright-python)")
    script = open(os.path.join(location.submodule_search_locations[0], "axe.min.js"), encoding="utf-8").read()
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    driver.execute_script(script)
    version = driver.execute_script("return axe.version")
    context = "document"
    # axe takes tens of seconds on a long page, more on a loaded machine.
    driver.set_script_timeout(600)
    if sections is not None:
        duplicates = driver.execute_script(
            "const seen = new Set(), twice = []; document.querySelectorAll('[id]').forEach(e => { if (seen.has(e.id)) twice.push(e.id); seen.add(e.id); }); return twice.slice(0, 5);")
        if duplicates:
            fail(f"ids used twice on the page: {duplicates}")
        driver.execute_script(
            "const all = Array.from(document.querySelectorAll('section.snapshot'));"
            "all.forEach((s, i) => { if (i >= arguments[0] && i < all.length - 1) s.remove(); else s.style.contentVisibility = 'visible'; });",
            sections)
    result = driver.execute_async_script("const done = arguments[arguments.length - 1];"
                                         "axe.run(" + context + ", {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']}})"
                                         ".then(r => done(r.violations.map(v => [v.id, v.help, v.nodes.slice(0, 3).map(n => n.target.join(' '))])))"
                                         ".catch(e => done([['axe-error', String(e), []]]))")
    if result:
        fail(f"axe-core {version} ({scheme}): " + "; ".join(f"{v[0]}: {v[1]} at {v[2]}" for v in result))
    print(f"ok: axe-core {version}, {scheme} scheme: 0 violations")


def check_transcripts(driver):
    """Each screen's transcript list opens with its summary; once open, a numbered tag is drawn
    on the screen for each stop with a frame, and the list and the tags agree."""
    sections = driver.find_elements(By.CSS_SELECTOR, "section.snapshot")
    opened = 0
    for section in sections:
        summaries = section.find_elements(By.CSS_SELECTOR, "details.transcript > summary")
        if not summaries:
            continue
        stops = section.find_elements(By.CSS_SELECTOR, "ol.stops > li")
        tags = section.find_elements(By.CSS_SELECTOR, "g.stops text.stop-number")
        if any(tag.is_displayed() for tag in tags):
            fail("stop tags are drawn before the transcript is opened")
        # Opened from the keyboard, as a screen-reader user would open it.
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus()", summaries[0])
        summaries[0].send_keys(Keys.ENTER)
        if stops and not all(item.is_displayed() for item in stops[:3]):
            fail("the transcript list does not open")
        if len(tags) > len(stops):
            fail(f"{len(tags)} stop tags for {len(stops)} stops")
        if tags and not tags[0].is_displayed():
            fail("the stop tags are not drawn once the transcript is open")
        numbers = [int(tag.text) for tag in tags if tag.text]
        if numbers != sorted(numbers):
            fail(f"stop tags out of order: {numbers[:10]}")
        opened += 1
    print(f"ok: {opened} transcripts open and draw their stops")


def check_print(driver, path):
    """Printed, every finding is shown (filtered ones too), the filters are not, and each
    drawing stays in the flow beside its list."""
    driver.get("file://" + path)
    driver.execute_script("document.querySelector('input[name=severity][value=error]').click()")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    hidden, filters, sticky = driver.execute_script(
        "return [Array.from(document.querySelectorAll('li.finding')).filter(x => getComputedStyle(x).display === 'none').length,"
        "getComputedStyle(document.getElementById('filters')).display, getComputedStyle(document.querySelector('figure')).position];")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    if hidden or filters != "none" or sticky == "sticky":
        fail(f"printed: {hidden} findings hidden, filters {filters}, drawings {sticky}")
    driver.execute_script("window.dispatchEvent(new Event('beforeprint'))")
    pdf = base64.b64decode(driver.execute_cdp_cmd("Page.printToPDF", {"printBackground": True})["data"])
    if len(pdf) < 10_000:
        fail("the printed report is empty")
    # Each rule's help is printed once, at the end, not under every finding.
    helps = driver.execute_script(
        "return [Array.from(document.querySelectorAll('details.help')).filter(d => d.open).length, document.querySelectorAll('.help-by-rule dt').length,"
        "new Set(Array.from(document.querySelectorAll('li.finding')).map(li => li.dataset.rule)).size]")
    if helps[0] or helps[1] != helps[2]:
        fail(f"printed: {helps[0]} findings' help opened, {helps[1]} rules' help at the end for {helps[2]} rules")
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    print(f"ok: printed in {pages} pages, every finding shown, each rule's help once, the filters left out")


def check_reflow(driver, path):
    """At 640 CSS px (200% zoom of a 1280-px window) nothing needs horizontal scrolling."""
    driver.set_window_size(640, 1200)
    driver.get("file://" + path)
    overflow = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    if overflow > 1:
        fail(f"at 200% zoom the page is {overflow} px wider than the window")
    # WCAG 1.4.10: at 320 CSS px (400% zoom of a 1280-px window) too; a headless window
    # is never narrower than 500 px, so the viewport is emulated.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 320, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    driver.get("file://" + path)
    overflow = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    if overflow > 1:
        fail(f"at 320 CSS px the page is {overflow} px wider than the window")
    print("ok: reflows at 200% zoom and at 320 CSS px")


def main():
    args = sys.argv[1:]
    path, json_path = os.path.abspath(args[0]), args[1]
    reports = json.load(open(json_path, encoding="utf-8"))
    max_load = float(args[args.index("--max-load-seconds") + 1]) if "--max-load-seconds" in args else 20
    driver = browser()
    try:
        started = time.monotonic()
        driver.get("file://" + path)
        driver.execute_script("return document.readyState")
        loaded = time.monotonic() - started
        if loaded > max_load:
            fail(f"the page took {loaded:.1f} s to load (at most {max_load})")
        print(f"ok: loaded in {loaded:.2f} s")
        check_structure(driver, reports)
        count = int(args[args.index("--sample-snapshots") + 1]) if "--sample-snapshots" in args else len(reports)
        sample = set(range(min(count, len(reports)))) | {len(reports) - 1}
        check_positions(driver, reports, sample)
        if "--pixels" in args:
            check_pixels(driver, reports)
        if "--originals" in args:
            check_originals(driver)
        if "--marker-contrast" in args:
            check_marker_contrast(driver, "light")
            driver.get("file://" + path)
            check_marker_contrast(driver, "dark")
            driver.get("file://" + path)
        if "--transcripts" in args:
            check_transcripts(driver)
        if "--axe" in args:
            # On a long page, the first sections (and the last) stand for the rest.
            sections = int(args[args.index("--axe-sections") + 1]) if "--axe-sections" in args else None
            run_axe(driver, "light", sections)
            driver.get("file://" + path)
            run_axe(driver, "dark", sections)
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
            driver.get("file://" + path)
        if "--enlarge" in args:
            check_enlarge(driver)
        if "--keyboard" in args:
            check_keyboard(driver)
        if "--print" in args:
            check_print(driver, path)
        if "--reflow" in args:
            check_reflow(driver, path)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
