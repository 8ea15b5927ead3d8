import AuditCore
import Foundation

/// One snapshot's screen as SVG, to scale: the screenshot when one was sent, else a
/// wireframe of every element's frame; over it, for each finding on an element, its outline
/// and a numbered marker in the severity's colour. Markers are links to the finding in the
/// list beside the drawing (focusable, named by number, severity and rule); the drawing
/// itself is an image whose text alternative is that list.
package struct HTMLScreen {
    package var snapshotIndex: Int
    package var title: String
    package var snapshot: Snapshot?
    package var screenshot: (data: String, type: String, width: Double, height: Double)?
    /// The screenshot's size in pixels, as sent (what is embedded may be scaled down).
    package var screenshotPixels: (width: Int, height: Int)?
    /// What the screen reader says on the screen, stop by stop (drawn when the reader's
    /// list beside the drawing is open).
    package var transcript: Transcript?
    /// Each stop's position in ``transcript`` by the element it is, and each element by its
    /// line and column: built once, so that naming what each finding's element is heard as
    /// costs a lookup.
    private var stopOfElement: [Int: Int] = [:]
    private var elementAt: [Int: Int] = [:]

    /// Parses the submitted bytes (and fits the screenshot) to draw them; a snapshot that
    /// no longer parses is drawn from the findings' frames alone.
    package init(snapshotIndex: Int, title: String, source: [UInt8]?, screenshot bytes: [UInt8]?) {
        self.snapshotIndex = snapshotIndex
        self.title = title
        snapshot = source.flatMap { try? SnapshotParser().parse($0) }
        if let bytes, let parsed = snapshot, let image = try? ImageDecoder.decode(bytes),
            let mapped = try? parsed.attaching(image), let mapping = mapped.screenshot
        {
            snapshot = mapped
            var type = image.format == .png ? "image/png" : "image/jpeg"
            var embedded = bytes
            // Scaled to about twice what is drawn (a portrait screen about 390 px wide, a
            // landscape one across the column), unless that saves nothing.
            let maxWidth = image.width > image.height ? 1600 : 800
            if image.width > maxWidth, let small = ImageThumbnail.jpeg(of: image, maxWidth: maxWidth), small.bytes.count < bytes.count {
                embedded = small.bytes
                type = "image/jpeg"
            }
            screenshotPixels = (image.width, image.height)
            screenshot = (
                Data(embedded).base64EncodedString(), type, Double(image.width) / mapping.pixelsPerPoint,
                Double(image.height) / mapping.pixelsPerPoint
            )
        }
        transcript = snapshot.map(Transcript.of)
        if let transcript, let snapshot {
            for (position, stop) in transcript.stops.enumerated() { stopOfElement[stop.element] = position }
            for (index, element) in snapshot.elements.enumerated() {
                let key = Int(element.line) << 24 | Int(element.column)
                if elementAt[key] == nil { elementAt[key] = index }
            }
        }
    }

    /// The transcript's stops on the drawing: a small numbered tag at each stop's corner, shown
    /// while the list "What … says" is open (hidden from assistive technology: the list says it).
    package func stopTags(width: Double, height: Double) -> String {
        guard let transcript, let snapshot, !transcript.stops.isEmpty else { return "" }
        let f = HTMLText.number
        let size = max(5, width / 390 * 7)
        var svg = "<g class=\"stops\" aria-hidden=\"true\">"
        for stop in transcript.stops {
            guard let frame = snapshot.elements[stop.element].frame else { continue }
            let x = min(max(frame.maxX - size, size), width - size), y = min(max(frame.y + size, size), height - size)
            svg += "<rect class=\"stop-frame\" x=\"\(f(frame.x))\" y=\"\(f(frame.y))\" width=\"\(f(max(frame.width, 2)))\" height=\"\(f(max(frame.height, 2)))\"/>"
            svg += "<circle class=\"stop-tag\" cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"\(f(size))\"/>"
            svg += "<text class=\"stop-number\" x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(f(size * 1.2))\" dy=\"0.35em\" text-anchor=\"middle\">\(stop.index)</text>"
        }
        return svg + "</g>\n"
    }

    /// What the screen reader says where a finding is: the stop at the element at `line`
    /// and `column`, or the nearest one holding it, with its number; `nil` off every stop.
    package func heard(line: Int?, column: Int?) -> (stop: Int, speech: String)? {
        guard let transcript, let snapshot, let line, let column, var index = element(line: line, column: column) else { return nil }
        while true {
            if let position = stopOfElement[index] {
                let stop = transcript.stops[position]
                return (stop.index, stop.speech.isEmpty ? "nothing" : "“\(stop.speech)”")
            }
            let parent = Int(snapshot.elements[index].parent)
            guard parent >= 0 else { return nil }
            index = parent
        }
    }

    /// The id of what is drawn under the markers (the screenshot, or the wireframe), which
    /// each finding's crop shows again, enlarged.
    package var pictureID: String { "picture-\(snapshotIndex)" }

    /// A finding's element enlarged: the drawing's picture (`<use>`: no second copy of
    /// the image) seen through a window around the frame, a quarter of its size beyond each
    /// side, scaled to at most 240 × 160 CSS px and 4×.
    package func crop(of frame: Rect, number: Int) -> String {
        guard snapshot != nil || screenshot != nil else { return "" }
        let f = HTMLText.number
        let pad = max(8, max(frame.width, frame.height) * 0.25)
        let box = (x: frame.x - pad, y: frame.y - pad, width: max(frame.width, 1) + 2 * pad, height: max(frame.height, 1) + 2 * pad)
        let scale = min(240 / box.width, 160 / box.height, 4)
        return "<svg class=\"crop\" viewBox=\"\(f(box.x)) \(f(box.y)) \(f(box.width)) \(f(box.height))\" width=\"\(f((box.width * scale).rounded()))\" "
            + "height=\"\(f((box.height * scale).rounded()))\" role=\"img\" aria-label=\"Finding \(number)'s element, enlarged\">"
            + "<rect class=\"canvas\" x=\"\(f(box.x))\" y=\"\(f(box.y))\" width=\"\(f(box.width))\" height=\"\(f(box.height))\"/><use href=\"#\(pictureID)\"/>"
            + "<rect class=\"crop-frame\" x=\"\(f(frame.x))\" y=\"\(f(frame.y))\" width=\"\(f(max(frame.width, 1)))\" height=\"\(f(max(frame.height, 1)))\"/></svg>"
    }

    /// The transcript position of the stop element `index` is, if it is one.
    func stop(of index: Int) -> Int? { stopOfElement[index] }

    /// The element that starts at `line` and `column` of the snapshot.
    func element(line: Int, column: Int) -> Int? { elementAt[line << 24 | column] }

    /// The transcript as a list: each stop's number, speech and place.
    package func transcriptList(headingID: String) -> String {
        guard let transcript, let snapshot else { return "" }
        let reader = transcript.reader == .talkback ? "TalkBack" : "VoiceOver"
        var out = "<details class=\"transcript\"><summary>What \(reader) says: \(HTMLText.count(transcript.stops.count, "stop")), swipe by swipe</summary>\n<ol class=\"stops\">"
        for stop in transcript.stops {
            let element = snapshot.elements[stop.element]
            let speech = stop.speech.isEmpty ? "(says nothing)" : stop.speech
            out += "<li value=\"\(stop.index)\">\(HTMLText.escape(speech)) <span class=\"where\">line \(element.line), column \(element.column)</span></li>"
        }
        out += "</ol>"
        for note in transcript.notes { out += "<p class=\"meta\">\(HTMLText.escape(note))</p>" }
        return out + "</details>\n"
    }

    /// The drawing's size in points: the screen, grown to hold every frame (capped). Wider
    /// than tall (a landscape phone, a tablet, a TV), it is drawn across the column's whole
    /// width, above its findings.
    package func size(of markers: [HTMLMarkers.Marker]) -> (width: Double, height: Double) {
        var width = snapshot?.width ?? 390, height = snapshot?.height ?? 844
        func grow(_ frame: Rect) {
            guard frame.width > 0 || frame.height > 0 else { return }
            width = max(width, min(frame.maxX, 4000))
            height = max(height, min(frame.maxY, 20000))
        }
        for element in snapshot?.elements ?? [] { if let frame = element.frame { grow(frame) } }
        for marker in markers { grow(marker.frame) }
        return (width, height)
    }

    /// The SVG of `size` (``size(of:)``) with the markers of the findings on elements
    /// (``HTMLMarkers/group(_:)``). `unchanged` holds the anchors of the findings a baseline
    /// already had: a marker all of whose findings are unchanged is drawn faded, so what is
    /// new stands out.
    /// `baseline` names what unchanged markers are unchanged since (``FormatContext/baselineTitle``).
    package func render(_ grouped: [HTMLMarkers.Marker], size: (width: Double, height: Double), unchanged: Set<String>, baseline: String) -> String {
        let (width, height) = size
        let f = HTMLText.number
        let labelID = "screen-\(snapshotIndex)-label"
        var svg = "<svg class=\"screen\" viewBox=\"0 0 \(f(width)) \(f(height))\" role=\"group\" aria-labelledby=\"\(labelID)\">\n"
        svg +=
            "<title id=\"\(labelID)\">Screen of \(title)\(screenshot == nil ? " drawn from its elements" : ""), \(HTMLText.count(grouped.reduce(0) { $0 + $1.findings.count }, "finding")) marked; the list beside it says each</title>\n"
        svg += "<rect class=\"canvas\" x=\"0\" y=\"0\" width=\"\(f(width))\" height=\"\(f(height))\"/>\n"
        if let screenshot {
            svg +=
                "<image class=\"screenshot\" id=\"\(pictureID)\" x=\"0\" y=\"0\" width=\"\(f(screenshot.width))\" height=\"\(f(screenshot.height))\" preserveAspectRatio=\"none\" href=\"data:\(screenshot.type);base64,\(screenshot.data)\"/>\n"
        } else if let snapshot {
            svg += wireframe(snapshot)
        }
        svg += stopTags(width: width, height: height)
        // Markers keep a legible size: about 11 px on a portrait drawing shown 390 px wide,
        // and on a landscape one shown across the column (800 px and more).
        let radius = max(6, width / (width > height ? 800 : 390) * 9)
        let markers = HTMLMarkers(placing: grouped, width: width, height: height, radius: radius)
        // Leader lines first, under every marker: from a moved badge to its element's corner.
        var leaders = ""
        for marker in markers.markers {
            let corner = (x: min(max(marker.frame.x, 0), width), y: min(max(marker.frame.y, 0), height))
            guard abs(marker.badge.x - corner.x) > radius * 1.5 || abs(marker.badge.y - corner.y) > radius * 1.5 else { continue }
            leaders +=
                "<line class=\"leader sev-\(marker.worst.rawValue)\" x1=\"\(f(corner.x))\" y1=\"\(f(corner.y))\" x2=\"\(f(marker.badge.x))\" y2=\"\(f(marker.badge.y))\"/>"
        }
        if !leaders.isEmpty { svg += "<g class=\"leaders\" aria-hidden=\"true\">\(leaders)</g>\n" }
        // Every element's outline under every badge: a badge at one element's corner often
        // lies on another element's edge, whose outline would cross it.
        svg += "<g class=\"outlines\" aria-hidden=\"true\">\n"
        for marker in markers.markers {
            let frame = marker.frame
            let box = "x=\"\(f(frame.x))\" y=\"\(f(frame.y))\" width=\"\(f(max(frame.width, 2)))\" height=\"\(f(max(frame.height, 2)))\""
            svg += "<g class=\"outline-of sev-\(marker.worst.rawValue)\" id=\"o-\(marker.id)\"><rect class=\"halo\" \(box)/><rect class=\"outline\" \(box)/></g>\n"
        }
        svg += "</g>\n"
        for marker in markers.markers {
            svg += self.marker(
                marker, radius: radius, unchanged: !unchanged.isEmpty && marker.findings.allSatisfy { unchanged.contains($0.anchor) }, baseline: baseline)
        }
        return svg + "</svg>"
    }

    /// One element's marker: a badge per severity of its findings stacked on one spot, the
    /// worst painted last (the filters hide a severity's badge with its findings, and the
    /// next worst shows); the badge says the finding's number, or "×N". Its outline
    /// (`o-` and its id) is drawn with the others, below every badge.
    private func marker(_ marker: HTMLMarkers.Marker, radius: Double, unchanged: Bool, baseline: String) -> String {
        let f = HTMLText.number
        let worst = marker.worst.rawValue
        let first = marker.findings[0]
        let names = marker.findings.map { "\($0.number): \($0.finding.severity.rawValue), \($0.finding.rule)" }
        let listed =
            marker.findings.count == 1
            ? "Finding \(names[0])" : "\(marker.findings.count) findings on this element: Finding \(names.joined(separator: "; Finding "))"
        let anchors = marker.findings.map(\.anchor).joined(separator: " ")
        let name = listed + (unchanged ? " (unchanged since \(baseline))" : "")
        var svg =
            "<a class=\"marker sev-\(worst)\(unchanged ? " unchanged" : "")\" id=\"\(marker.id)\" href=\"#f-\(first.anchor)\" data-finding=\"\(first.anchor)\" data-findings=\"\(anchors)\" aria-label=\"\(HTMLText.escape(name))\">"
        let label = marker.findings.count == 1 ? "\(first.number)" : "×\(marker.findings.count)"
        for severity in marker.severities {
            // A dark ring under a light one: at least 3:1 against any pixel below the badge,
            // in either scheme (a light badge on a white screenshot was 1.8:1 alone).
            svg += "<g class=\"layer sev-\(severity.rawValue)\" data-severity=\"\(severity.rawValue)\">"
            svg += badge(severity, cx: marker.badge.x, cy: marker.badge.y, radius: radius, kind: "ring")
            svg += badge(severity, cx: marker.badge.x, cy: marker.badge.y, radius: radius, kind: "badge")
            let size = label.count > 2 || marker.findings.count > 1 ? radius * 0.95 : radius * 1.25
            // Two characters or more are held inside the badge's shape (a bold "58" at this
            // size spilt past a circle's edge, its white digits outside the dark ring).
            let fit = label.count < 2 ? "" : " textLength=\"\(f(radius * (label.count == 2 ? 1.3 : 1.55)))\" lengthAdjust=\"spacingAndGlyphs\""
            svg +=
                "<text class=\"number\" x=\"\(f(marker.badge.x))\" y=\"\(f(marker.badge.y))\" font-size=\"\(f(size))\" dy=\"0.35em\" text-anchor=\"middle\"\(fit) aria-hidden=\"true\">\(label)</text></g>"
        }
        return svg + "</a>\n"
    }

    /// The marker's badge: its shape says the severity as its colour does, so neither is
    /// needed alone — a square for an error, a diamond for a warning, a circle for a notice.
    private func badge(_ severity: Severity, cx: Double, cy: Double, radius: Double, kind: String) -> String {
        let f = HTMLText.number
        switch severity {
        case .error:
            let side = radius * 1.8
            return "<rect class=\"\(kind)\" x=\"\(f(cx - side / 2))\" y=\"\(f(cy - side / 2))\" width=\"\(f(side))\" height=\"\(f(side))\" rx=\"\(f(radius * 0.2))\"/>"
        case .warning:
            let r = radius * 1.25
            return "<polygon class=\"\(kind)\" points=\"\(f(cx)),\(f(cy - r)) \(f(cx + r)),\(f(cy)) \(f(cx)),\(f(cy + r)) \(f(cx - r)),\(f(cy))\"/>"
        case .notice:
            return "<circle class=\"\(kind)\" cx=\"\(f(cx))\" cy=\"\(f(cy))\" r=\"\(f(radius))\"/>"
        }
    }

    /// Every element's frame, filled with its declared background, and its text.
    private func wireframe(_ snapshot: Snapshot) -> String {
        let f = HTMLText.number
        var svg = "<g class=\"wireframe\" id=\"\(pictureID)\" aria-hidden=\"true\">\n"
        for index in snapshot.elements.indices {
            let element = snapshot.elements[index]
            guard let frame = element.frame, !frame.isEmpty else { continue }
            let fill = element.background.map { " style=\"fill:\($0.hex);fill-opacity:\(Double($0.alpha) / 255 * element.effectiveOpacity)\"" } ?? ""
            svg += "<rect class=\"el\" x=\"\(f(frame.x))\" y=\"\(f(frame.y))\" width=\"\(f(frame.width))\" height=\"\(f(frame.height))\"\(fill)/>\n"
            if let text = snapshot.node(index).visibleText ?? (element.role == .button ? snapshot.node(index).label : nil), frame.height >= 8 {
                let size = min(element.fontSize ?? 14, frame.height * 0.75)
                // A declared colour as declared; else the scheme's text colour (a fixed dark
                // grey was 1.23:1 on the dark scheme's canvas).
                let color = element.foreground.map { "fill:\($0.hex)" } ?? "fill:var(--fg)"
                svg +=
                    "<text x=\"\(f(frame.x + 3))\" y=\"\(f(frame.y + min(frame.height, size) * 0.95))\" font-size=\"\(f(size))\" style=\"\(color)\">\(HTMLText.escape(String(text.prefix(60))))</text>\n"
            }
        }
        return svg + "</g>\n"
    }
}
