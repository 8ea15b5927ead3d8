/// How big the text in a crop is drawn, measured on its ink: the pixels nearer the text's
/// colour than its background's. A dump rarely says a text's size, and its frame says
/// little (a padded chip's frame bounds a 15-dp text at 21–31 pt); the glyphs themselves
/// do. Lines are the bands of rows holding ink; the tallest is one line of glyphs, from the
/// top of its capitals or ascenders to the bottom of its descenders, its anti-aliased rim
/// included — about 0.66–0.98 of the font size for alphabetic faces, 0.80–0.92 for
/// ideographs (``TextScript``). Its stroke — the commonest length of a horizontal run of
/// ink — says bold or regular.
public struct TextInk: Sendable, Equatable {
    /// Height of the tallest line of ink, in pixels.
    public let lineHeight: Int
    /// The commonest horizontal run of ink in that line, in pixels: the glyphs' stem width.
    public let stroke: Int
    /// Bands of ink rows (lines of text) found.
    public let lines: Int
    /// The tallest line reaches well below its baseline: descenders, so its ink spans
    /// nearly the whole font size; without them, capitals and ascenders to the baseline.
    public let hasDescenders: Bool
    /// The script of the text drawn (from the element's text): ideographs fill their own
    /// share of the em.
    public let script: TextScript
    /// Runs of columns holding ink in the tallest line, apart from one another: about one
    /// per glyph (or word, in a tight face) — one or two for an icon.
    public let glyphRuns: Int
    /// From the first column of ink in the tallest line to the last, in pixels.
    public let inkWidth: Int

    public init(
        lineHeight: Int, stroke: Int, lines: Int, hasDescenders: Bool, script: TextScript = .alphabetic, glyphRuns: Int = 0,
        inkWidth: Int = 0
    ) {
        self.lineHeight = lineHeight
        self.stroke = stroke
        self.lines = lines
        self.hasDescenders = hasDescenders
        self.script = script
        self.glyphRuns = glyphRuns
        self.inkWidth = inkWidth
    }

    /// The ink looks like a line of glyphs, not an icon: three separate runs of ink or more,
    /// spread at least one and a half times as wide as the line is high.
    public var looksLikeText: Bool { glyphRuns >= 3 && inkWidth * 2 >= lineHeight * 3 }

    /// The ink of `crop` drawn in `foreground` over `background`, or `nil` when no row
    /// holds ink.
    /// `glyphLine`: measure the line that holds the most separate runs of ink (a label under
    /// its icon, in a tab) rather than the tallest.
    public static func measure(
        _ screenshot: Screenshot, crop: PixelRect, foreground: RGBA, background: RGBA, script: TextScript = .alphabetic,
        glyphLine: Bool = false
    ) -> TextInk? {
        let bounds = crop.clipped(to: PixelRect(x: 0, y: 0, width: screenshot.width, height: screenshot.height))
        guard !bounds.isEmpty else { return nil }
        func distance(_ a: RGBA, _ b: RGBA) -> Int {
            let red = Int(a.red) - Int(b.red), green = Int(a.green) - Int(b.green), blue = Int(a.blue) - Int(b.blue)
            return red * red + green * green + blue * blue
        }
        let apart = distance(foreground, background)
        guard apart > 0 else { return nil }
        // Ink: nearer the text's colour than the background's, by a clear margin (the
        // anti-aliased rim, half-way, is not counted).
        var rowInk = [Int](repeating: 0, count: bounds.height)
        // The rim: pixels nearer the text's colour than the background's at all, which the
        // glyphs' anti-aliased edges are (left out, a line measured a tenth short).
        var rowRim = [Int](repeating: 0, count: bounds.height)
        var isInk = [Bool](repeating: false, count: bounds.width * bounds.height)
        for row in 0..<bounds.height {
            for column in 0..<bounds.width {
                let pixel = screenshot.color(x: bounds.x + column, y: bounds.y + row)
                let toText = distance(pixel, foreground), toBackground = distance(pixel, background)
                if 4 * toText < toBackground, 9 * toBackground >= apart {
                    isInk[row * bounds.width + column] = true
                    rowInk[row] += 1
                }
                if toText < toBackground { rowRim[row] += 1 }
            }
        }
        // A row holds ink when more than a speck of it: noise and a stray rim pixel do not
        // make a line.
        let rowMinimum = max(1, bounds.width / 200)
        var bands: [Range<Int>] = []
        var start: Int?
        for row in 0...bounds.height {
            let inked = row < bounds.height && rowInk[row] >= rowMinimum
            if inked, start == nil { start = row }
            if !inked, let first = start {
                bands.append(first..<row)
                start = nil
            }
        }
        guard var tallest = bands.max(by: { $0.count < $1.count }) else { return nil }
        // Accents and underlines are thin bands beside the lines: not lines.
        let lines = bands.filter { $0.count * 3 >= tallest.count }.count
        if glyphLine {
            func runs(_ band: Range<Int>) -> Int {
                var count = 0, inRun = false
                for column in 0..<bounds.width {
                    let inked = band.contains { isInk[$0 * bounds.width + column] }
                    if inked, !inRun { count += 1 }
                    inRun = inked
                }
                return count
            }
            let minimum = max(2, tallest.count / 4)
            if let best = bands.filter({ $0.count >= minimum }).max(by: { runs($0) < runs($1) }) { tallest = best }
        }
        // A line's ink goes on through the rows next to it that hold any: the floor above
        // grows with the crop's width, and one descender ("Settings") is a few pixels wide.
        let reach = max(1, tallest.count * 2 / 5)
        var lower = tallest.lowerBound, upper = tallest.upperBound
        while lower > 0, tallest.lowerBound - lower < reach, rowInk[lower - 1] > 0 { lower -= 1 }
        while upper < bounds.height, upper - tallest.upperBound < reach, rowInk[upper] > 0 { upper += 1 }
        tallest = lower..<upper
        var runs: [Int: Int] = [:]
        for row in tallest {
            var run = 0
            for column in 0...bounds.width {
                if column < bounds.width, isInk[row * bounds.width + column] {
                    run += 1
                } else if run > 0 {
                    runs[run, default: 0] += 1
                    run = 0
                }
            }
        }
        let stroke = runs.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key ?? 0
        // Columns of the line holding ink, in runs: glyphs (or words) apart.
        var glyphRuns = 0, firstColumn = -1, lastColumn = -1, inRun = false
        for column in 0..<bounds.width {
            let inked = tallest.contains { isInk[$0 * bounds.width + column] }
            if inked {
                if !inRun { glyphRuns += 1 }
                if firstColumn < 0 { firstColumn = column }
                lastColumn = column
            }
            inRun = inked
        }
        // The baseline: the lowest row still dense with ink. Below it only descenders (g, p,
        // y) reach, sparsely; a line whose ink goes on a good way below it has them.
        let densest = tallest.map { rowInk[$0] }.max() ?? 0
        let baseline = tallest.last { rowInk[$0] * 5 >= densest * 2 } ?? tallest.upperBound - 1
        let descenders = (tallest.upperBound - 1 - baseline) * 8 > tallest.count
        // Then its rim: a row or so above and below where the edges fade.
        let rim = max(1, tallest.count / 10)
        var top = tallest.lowerBound, bottom = tallest.upperBound
        while top > 0, tallest.lowerBound - top < rim, rowRim[top - 1] > 0 { top -= 1 }
        while bottom < bounds.height, bottom - tallest.upperBound < rim, rowRim[bottom] > 0 { bottom += 1 }
        return TextInk(
            lineHeight: bottom - top, stroke: stroke, lines: lines, hasDescenders: descenders, script: script, glyphRuns: glyphRuns,
            inkWidth: firstColumn < 0 ? 0 : lastColumn - firstColumn + 1)
    }

    /// The bands of rows of `crop` holding anything but `background` (an icon above its
    /// label: two bands), each of at least `minimumHeight` rows, in image rows.
    public static func bands(_ screenshot: Screenshot, crop: PixelRect, background: RGBA, minimumHeight: Int = 2) -> [Range<Int>] {
        let bounds = crop.clipped(to: PixelRect(x: 0, y: 0, width: screenshot.width, height: screenshot.height))
        guard !bounds.isEmpty else { return [] }
        var bands: [Range<Int>] = []
        var start: Int?
        let floor = max(1, bounds.width / 200)
        for row in 0...bounds.height {
            var marked = 0
            if row < bounds.height {
                for column in 0..<bounds.width {
                    let pixel = screenshot.color(x: bounds.x + column, y: bounds.y + row)
                    let red = Int(pixel.red) - Int(background.red), green = Int(pixel.green) - Int(background.green)
                    let blue = Int(pixel.blue) - Int(background.blue)
                    if red * red + green * green + blue * blue > 900 { marked += 1 }
                }
            }
            if marked >= floor, start == nil { start = row }
            if marked < floor, let first = start {
                if row - first >= minimumHeight { bands.append((bounds.y + first)..<(bounds.y + row)) }
                start = nil
            }
        }
        return bands
    }

    /// What the ink says of the text's size against large text: `largeSize`, or
    /// `largeBoldSize` when bold (WCAG's 18 pt and 14 pt bold are 24 and 18.66 in the
    /// platform's unit: iOS points, Android dp, CSS px). `nil` when it cannot decide.
    public func isLarge(pixelsPerPoint: Double, largeSize: Double, largeBoldSize: Double) -> Bool? {
        let height = Double(lineHeight) / pixelsPerPoint
        let shares = inkShares
        let smallest = height / shares.upperBound, largest = height / shares.lowerBound
        if smallest >= largeSize || (looksBold && smallest >= largeBoldSize) { return true }
        if largest < largeBoldSize || (largest < largeSize && !looksBold) { return false }
        return nil
    }

    /// The font size the ink suggests, in points (the middle of its range).
    public func estimatedSize(pixelsPerPoint: Double) -> Double {
        let shares = inkShares
        return Double(lineHeight) / pixelsPerPoint / ((shares.lowerBound + shares.upperBound) / 2)
    }

    /// Stems thick for the line: a bold face. Regular stems are about 0.09 of the font
    /// size and bold ones 0.14 or more: an eighth of a line with descenders (or of
    /// ideographs), a sixth of one without, part the two.
    public var looksBold: Bool {
        lineHeight > 0 && Double(stroke) >= Double(lineHeight) * (script == .ideographic || hasDescenders ? 0.125 : 0.16)
    }

    /// The share of the font size one line of glyphs covers, rim included: ideographs
    /// 0.80–0.92 of it (about 0.82 measured on real screens in Noto CJK and PingFang, 0.92
    /// in WenQuanYi Micro Hei); alphabetic
    /// text with descenders 0.86–0.98; capitals or ascenders down to the baseline alone,
    /// 0.66–0.78 (Roboto, SF, Noto: cap height 0.70–0.73, ascenders 0.75).
    var inkShares: ClosedRange<Double> {
        if script == .ideographic { return 0.80...0.92 }
        return hasDescenders ? 0.86...0.98 : 0.66...0.78
    }
}
