/// `text.truncated` element by element: text wrapped over several lines whose last ends in
/// an ellipsis (`truncated`), and `cut`: text clipped by its own element with no ellipsis — the lines
/// read inside an element show the start of its text and no more, the last line runs to
/// the element's edge, and glyph ink crosses that edge (strokes in the edge column that
/// are not the line's background) with three characters or more missing, or stops flush
/// with it (ink in its last three columns) with one or more missing: a label clipped
/// between two glyphs crosses nothing. A label that wraps onto a line OCR missed ends short
/// of the edge or at a space; a carousel's item cut by its scroller or the screen is not
/// judged (it scrolls into view): only elements wholly on screen and inside every scroller
/// above them are.
enum TextCut {
    /// Characters of the element's text that must be missing where ink crosses the edge
    /// (one letter read wrong is OCR's, three gone are the element's); where the last glyph
    /// stops flush with it, one is enough.
    static let minimumMissing = 3

    static func report(
        _ context: inout RuleContext<TextTruncatedRule.ResultID>, recognition: TextRecognition, screen: ScreenText,
        skipping ellipsized: Set<Int>, enlarged: Bool
    ) {
        let snapshot = context.snapshot
        let elements = snapshot.elements
        let image = screen.mapping.screenshot
        let bounds = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        // The lines each element holds (half a line's area or more inside it), left to
        // right within a line, top to bottom between lines.
        let lines = recognition.lines.filter { $0.box.width > 0 && !screen.isSystemUI($0.box) }
        for index in elements.indices where !ellipsized.contains(index) {
            if context.outOfBudget() { return }
            let element = elements[index]
            let box = screen.boxes[index]
            guard element.isVisible, !box.isEmpty, box.clipped(to: bounds) == box, isInsideScrollers(index, screen: screen),
                !screen.isInPicture(index), let full = snapshot.texts.string(snapshot.visibleTextRef(of: index))
            else { continue }
            let whole = ScreenText.fold(full)
            guard whole.count >= 6 else { continue }
            let inside = lines.filter { screen.overlap(box, $0.box) * 2 >= $0.box.area }.sorted {
                $0.box.y + $0.box.height / 2 < $1.box.y || ($0.box.y < $1.box.y + $1.box.height / 2 && $0.box.x < $1.box.x)
            }
            guard let last = inside.last else { continue }
            let shownText = inside.map { $0.text.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            // Lines ending in an ellipsis are truncated, wrapped over several lines (the
            // rule's line by line pass matches a line with its element's start only).
            let beforeEllipsis = TextTruncatedRule.beforeEllipsis(shownText)
            let shown = ScreenText.fold(String(beforeEllipsis ?? shownText[...]))
            guard shown.count >= 3, whole.count > shown.count, TextTruncatedRule.startsNearly(whole, with: shown) else { continue }
            let missing = whole.count - shown.count
            // The smallest element holding the lines is theirs: a row holding a cut title
            // is not cut itself.
            if elements.indices.contains(where: { other in
                other != index && screen.boxes[other].area < box.area && elements[other].isVisible
                    && inside.allSatisfy { screen.overlap(screen.boxes[other], $0.box) * 2 >= $0.box.area }
            }) {
                continue
            }
            if beforeEllipsis != nil {
                guard inside.count > 1 else { continue }
                TextTruncatedRule.report(
                    .truncated, on: index, shown: shownText, full: full, confidence: last.confidence, crop: PixelRect.union(of: inside.map(\.box)),
                    enlarged: enlarged, &context)
                continue
            }
            // The last line runs to the edge: within a glyph or two (its height) of it — OCR
            // drops the half letter the edge cuts.
            let edge = box.x + box.width
            let band = PixelRect(x: box.x, y: last.box.y, width: box.width, height: last.box.height).clipped(to: box)
            guard last.box.x + last.box.width >= edge - max(3, last.box.height), !band.isEmpty else { continue }
            // Ink crossing the edge with three characters or more gone — or the last glyph
            // stopping flush with the edge (ink in its last three columns) with any gone: a
            // label clipped between two glyphs crosses nothing.
            guard (missing >= minimumMissing && inkCrosses(edge: edge - 1, band: band, in: image)) || inkReaches(edge: edge - 1, band: band, in: image)
            else { continue }
            TextTruncatedRule.report(
                .cut, on: index, shown: shownText, full: full, confidence: last.confidence, crop: PixelRect.union(of: inside.map(\.box) + [band]),
                enlarged: enlarged, &context)
        }
    }

    /// Whether the element lies wholly inside every scrolling ancestor's box: one cut by
    /// its scroller scrolls into view.
    static func isInsideScrollers(_ index: Int, screen: ScreenText) -> Bool {
        let elements = screen.snapshot.elements
        let box = screen.boxes[index]
        var current = Int(elements[index].parent)
        var steps = 0
        while current >= 0, steps < 64 {
            if !elements[current].scrollAxes.isEmpty, !screen.boxes[current].isEmpty, box.clipped(to: screen.boxes[current]) != box {
                return false
            }
            current = Int(elements[current].parent)
            steps += 1
        }
        return true
    }

    /// Whether ink reaches within two columns of `edge` in `band`.
    static func inkReaches(edge: Int, band: PixelRect, in image: Screenshot) -> Bool {
        (0..<3).contains { offset in inkCrosses(edge: edge - offset, band: band, in: image) }
    }

    /// Whether glyph strokes cross the column `edge` within `band`: two or more pixels in
    /// it, and in the column before, stand apart from the band's background (its commonest
    /// colour, sampled) by 1.5:1 or more.
    static func inkCrosses(edge: Int, band: PixelRect, in image: Screenshot) -> Bool {
        guard edge >= band.x + 1 else { return false }
        var counts: [RGBA: Int] = [:]
        let stepX = max(1, band.width / 200), stepY = max(1, band.height / 40)
        for y in stride(from: band.y, to: band.y + band.height, by: stepY) {
            for x in stride(from: band.x, to: band.x + band.width, by: stepX) { counts[image.color(x: x, y: y), default: 0] += 1 }
        }
        guard let background = counts.max(by: { $0.value < $1.value })?.key else { return false }
        for column in [edge, edge - 1] {
            var inked = 0
            for y in band.y..<(band.y + band.height) where ColorMath.contrastRatio(image.color(x: column, y: y), background) >= 1.5 {
                inked += 1
            }
            if inked < 2 { return false }
        }
        return true
    }
}
