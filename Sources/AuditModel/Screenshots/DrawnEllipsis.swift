/// An ellipsis drawn at the end of a text's last line, found in the pixels alone — three
/// small dots of the text's colour, alike, evenly spaced and level, after the glyphs and
/// near the element's right edge — so that text in any script is judged, with or without
/// OCR or its language data. On the baseline in Latin faces, at mid-height in CJK faces:
/// the dots are found level with one another, in the lower three quarters of the line.
public struct DrawnEllipsis: Sendable, Equatable {
    /// Where the three dots are, in image pixels.
    public let box: PixelRect

    /// The ellipsis ending the last line of `crop`'s text drawn in `foreground` over
    /// `background`, or `nil`.
    public static func find(_ screenshot: Screenshot, crop: PixelRect, foreground: RGBA, background: RGBA) -> DrawnEllipsis? {
        let bounds = crop.clipped(to: PixelRect(x: 0, y: 0, width: screenshot.width, height: screenshot.height))
        guard bounds.width >= 12, bounds.height >= 6, bounds.area <= 4_000_000 else { return nil }
        func distance(_ a: RGBA, _ b: RGBA) -> Int {
            let red = Int(a.red) - Int(b.red), green = Int(a.green) - Int(b.green), blue = Int(a.blue) - Int(b.blue)
            return red * red + green * green + blue * blue
        }
        let apart = distance(foreground, background)
        guard apart > 0 else { return nil }
        // Ink: nearer the text's colour than the background's (the rim half-way included:
        // a dot of a small face is mostly rim).
        let width = bounds.width, height = bounds.height
        var isInk = [Bool](repeating: false, count: width * height)
        var rowInk = [Int](repeating: 0, count: height)
        for row in 0..<height {
            for column in 0..<width {
                let pixel = screenshot.color(x: bounds.x + column, y: bounds.y + row)
                if 2 * distance(pixel, foreground) < distance(pixel, background) {
                    isInk[row * width + column] = true
                    rowInk[row] += 1
                }
            }
        }
        // The lines: bands of rows holding ink; the last one tall enough to be glyphs.
        var bands: [Range<Int>] = []
        var start: Int?
        for row in 0...height {
            let inked = row < height && rowInk[row] > 0
            if inked, start == nil { start = row }
            if !inked, let first = start {
                bands.append(first..<row)
                start = nil
            }
        }
        guard let tallest = bands.map(\.count).max(), tallest >= 5,
            let line = bands.last(where: { $0.count * 2 >= tallest })
        else { return nil }
        // Runs of columns holding ink in that line, each with its ink's top and bottom.
        struct Run {
            var left: Int, right: Int, top: Int, bottom: Int
            var width: Int { right - left + 1 }
            var height: Int { bottom - top + 1 }
        }
        var runs: [Run] = []
        var current: Run?
        for column in 0...width {
            var top = Int.max, bottom = -1
            if column < width {
                for row in line where isInk[row * width + column] {
                    top = min(top, row)
                    bottom = max(bottom, row)
                }
            }
            if bottom >= 0 {
                var run = current ?? Run(left: column, right: column, top: top, bottom: bottom)
                run.right = column
                run.top = min(run.top, top)
                run.bottom = max(run.bottom, bottom)
                current = run
            } else if let run = current {
                runs.append(run)
                current = nil
            }
        }
        // Glyphs, then three dots.
        guard runs.count >= 4 else { return nil }
        let dots = Array(runs.suffix(3))
        let lineHeight = line.count
        for dot in dots {
            // Small and round-ish: a dot is no wider than a quarter of the line and about as
            // high as wide, well under the line's height.
            guard dot.width * 4 <= lineHeight + 4, dot.height * 10 <= lineHeight * 4 + 10,
                dot.height <= dot.width * 2 + 1, dot.width <= dot.height * 2 + 1,
                dot.top >= line.lowerBound + lineHeight / 4
            else { return nil }
        }
        // Alike, level and evenly spaced.
        let widths = dots.map(\.width), tops = dots.map(\.top), bottoms = dots.map(\.bottom)
        guard (widths.max() ?? 0) - (widths.min() ?? 0) <= max(1, (widths.max() ?? 0) / 2),
            (tops.max() ?? 0) - (tops.min() ?? 0) <= 1 + lineHeight / 20,
            (bottoms.max() ?? 0) - (bottoms.min() ?? 0) <= 1 + lineHeight / 20
        else { return nil }
        let gaps = [dots[1].left - dots[0].right, dots[2].left - dots[1].right]
        guard gaps.allSatisfy({ $0 >= 1 && $0 <= lineHeight / 2 + 2 }), abs(gaps[0] - gaps[1]) <= max(1, gaps.max() ?? 0) / 2 else { return nil }
        // After the glyphs: the run before them is not a dot of the same kind (a "....."
        // leader is not an ellipsis), and is no farther than a word space.
        let before = runs[runs.count - 4]
        guard before.height > dots[0].height * 3 / 2, dots[0].left - before.right <= lineHeight else { return nil }
        // At the end of a full line: near the element's right edge.
        guard dots[2].right * 4 >= width * 3 else { return nil }
        let left = dots[0].left, right = dots[2].right
        let top = tops.min() ?? 0, bottom = bottoms.max() ?? 0
        return DrawnEllipsis(box: PixelRect(x: bounds.x + left, y: bounds.y + top, width: right - left + 1, height: bottom - top + 1))
    }
}
