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
            let type = image.format == .png ? "image/png" : "image/jpeg"
            screenshot = (
                Data(bytes).base64EncodedString(), type, Double(image.width) / mapping.pixelsPerPoint,
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
        guard let transcript, let snapshot, let line, let column, var index = elementAt[line << 24 | column] else { return nil }
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

    /// The drawing's size in points: the screen, grown to hold every frame (capped).
    package func size(findings: [ReportFinding]) -> (width: Double, height: Double) {
        var width = snapshot?.width ?? 390, height = snapshot?.height ?? 844
        let frames = (snapshot?.elements.compactMap(\.frame) ?? []) + findings.compactMap(\.frame)
        for frame in frames where frame.width > 0 || frame.height > 0 {
            width = max(width, min(frame.maxX, 4000))
            height = max(height, min(frame.maxY, 20000))
        }
        return (width, height)
    }

    /// The SVG; `numbered` are the findings in list order with their numbers.
    package func render(_ numbered: [(number: Int, finding: ReportFinding, anchor: String)]) -> String {
        let (width, height) = size(findings: numbered.map(\.finding))
        let f = HTMLText.number
        let labelID = "screen-\(snapshotIndex)-label"
        var svg = "<svg class=\"screen\" viewBox=\"0 0 \(f(width)) \(f(height))\" role=\"group\" aria-labelledby=\"\(labelID)\">\n"
        svg +=
            "<title id=\"\(labelID)\">Screen of \(title)\(screenshot == nil ? " drawn from its elements" : ""), \(HTMLText.count(numbered.filter { $0.finding.frame != nil }.count, "finding")) marked; the list beside it says each</title>\n"
        svg += "<rect class=\"canvas\" x=\"0\" y=\"0\" width=\"\(f(width))\" height=\"\(f(height))\"/>\n"
        if let screenshot {
            svg +=
                "<image class=\"screenshot\" x=\"0\" y=\"0\" width=\"\(f(screenshot.width))\" height=\"\(f(screenshot.height))\" preserveAspectRatio=\"none\" href=\"data:\(screenshot.type);base64,\(screenshot.data)\"/>\n"
        } else if let snapshot {
            svg += wireframe(snapshot)
        }
        svg += stopTags(width: width, height: height)
        // Markers keep a legible size on tall screens: about 11 px on a drawing 390 px wide.
        let radius = max(6, width / 390 * 9)
        var outlined = Set<[Double]>()
        for (item, cx, cy) in badgePlaces(numbered, width: width, height: height, radius: radius) {
            guard let frame = item.finding.frame else { continue }
            // One element's outline is drawn once: a later finding's would paint over the
            // earlier badges at its corner (it shows when that finding is focused or selected).
            let again = outlined.insert([frame.x, frame.y, frame.width, frame.height]).inserted ? "" : " again"
            let severity = item.finding.severity.rawValue
            let name = "Finding \(item.number): \(severity), \(item.finding.rule)"
            svg += "<a class=\"marker sev-\(severity)\" id=\"m-\(item.anchor)\" href=\"#f-\(item.anchor)\" data-finding=\"\(item.anchor)\" aria-label=\"\(HTMLText.escape(name))\">"
            svg += "<rect class=\"halo\(again)\" x=\"\(f(frame.x))\" y=\"\(f(frame.y))\" width=\"\(f(max(frame.width, 2)))\" height=\"\(f(max(frame.height, 2)))\"/>"
            svg += "<rect class=\"outline\(again)\" x=\"\(f(frame.x))\" y=\"\(f(frame.y))\" width=\"\(f(max(frame.width, 2)))\" height=\"\(f(max(frame.height, 2)))\"/>"
            // A dark ring under a light one: at least 3:1 against any pixel below the badge,
            // in either scheme (a light badge on a white screenshot was 1.8:1 alone).
            svg += badge(item.finding.severity, cx: cx, cy: cy, radius: radius, kind: "ring")
            svg += badge(item.finding.severity, cx: cx, cy: cy, radius: radius, kind: "badge")
            svg +=
                "<text class=\"number\" x=\"\(f(cx))\" y=\"\(f(cy))\" font-size=\"\(f(radius * 1.25))\" dy=\"0.35em\" text-anchor=\"middle\" aria-hidden=\"true\">\(item.number)</text></a>\n"
        }
        return svg + "</svg>"
    }

    /// Where each finding's badge goes: at its element's corner, and the findings after the
    /// first on the same element side by side along its top edge (they stacked into one badge,
    /// where the last painted hid the rest: 109 of 260 on real pairs), wrapping at its width.
    func badgePlaces(_ numbered: [(number: Int, finding: ReportFinding, anchor: String)], width: Double, height: Double, radius: Double)
        -> [((number: Int, finding: ReportFinding, anchor: String), Double, Double)]
    {
        var onElement: [[Double]: Int] = [:]
        var places: [((number: Int, finding: ReportFinding, anchor: String), Double, Double)] = []
        let step = radius * 2.2
        for item in numbered {
            guard let frame = item.finding.frame else { continue }
            let key = [frame.x, frame.y, frame.width, frame.height]
            let slot = onElement[key, default: 0]
            onElement[key] = slot + 1
            let perRow = max(1, Int(max(frame.width, step) / step))
            let x = frame.x + Double(slot % perRow) * step, y = frame.y + Double(slot / perRow) * step
            places.append((item, min(max(x, radius), width - radius), min(max(y, radius), height - radius)))
        }
        return places
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
        var svg = "<g class=\"wireframe\" aria-hidden=\"true\">\n"
        for index in snapshot.elements.indices {
            let element = snapshot.elements[index]
            guard let frame = element.frame, !frame.isEmpty else { continue }
            let fill = element.background.map { " style=\"fill:\($0.hex);fill-opacity:\(Double($0.alpha) / 255 * element.effectiveOpacity)\"" } ?? ""
            svg += "<rect class=\"el\" x=\"\(f(frame.x))\" y=\"\(f(frame.y))\" width=\"\(f(frame.width))\" height=\"\(f(frame.height))\"\(fill)/>\n"
            if let text = snapshot.node(index).visibleText ?? (element.role == .button ? snapshot.node(index).label : nil), frame.height >= 8 {
                let size = min(element.fontSize ?? 14, frame.height * 0.75)
                let color = element.foreground.map { "fill:\($0.hex)" } ?? "fill:#3a3a3c"
                svg +=
                    "<text x=\"\(f(frame.x + 3))\" y=\"\(f(frame.y + min(frame.height, size) * 0.95))\" font-size=\"\(f(size))\" style=\"\(color)\">\(HTMLText.escape(String(text.prefix(60))))</text>\n"
            }
        }
        return svg + "</g>\n"
    }
}
