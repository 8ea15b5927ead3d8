/// Why the pixels cannot judge an element: said as an `incomplete`, never guessed.
public struct PixelProblem: Error, Sendable {
    public let reason: String
}

/// The text and background colours of a text element, read from its pixels.
public struct TextColors: Sendable {
    public let foreground: RGBA
    public let background: RGBA
    /// Shares of the crop's pixels: how sure the reading is.
    public let foregroundShare: Double
    public let backgroundShare: Double
    /// The pixels read.
    public let crop: PixelRect
}

/// An icon's colour and the colour around it, read from the pixels.
public struct IconColors: Sendable {
    public let foreground: RGBA
    /// The commonest colour of the band just outside the element.
    public let surroundings: RGBA
    public let foregroundShare: Double
    public let surroundingsShare: Double
    public let crop: PixelRect
}

extension ScreenshotMapping {
    /// Smallest crop, in pixels on its short side, that text colours are read from.
    static let minimumTextPixels = 6
    /// A crop whose commonest colour holds less than this is not on one background.
    static let minimumBackgroundShare = 0.4
    /// The text's own colour must cover at least this share of the crop.
    static let minimumForegroundShare = 0.003
    /// Text ink is mostly outline: at least this share of its pixels lies within two pixels
    /// of another colour (strokes 8 px wide give a half; a filled 100-px disc, a tenth).
    static let minimumStrokeShare = 0.25
    /// Ink differs from its background by at least this CIE94 ΔE.
    static let minimumInkDifference = 8.0

    /// Text of few, thin strokes — a calendar's "21" in a light face, a short label in a
    /// tall frame — that the sampled clusters miss or take for a rim: every pixel of the
    /// crop clearly apart from `background` is read, the text's colour is the one that
    /// stands out most but for a tenth of them (a stray pixel is not the text), and the
    /// pixels of that colour must make a line of glyphs (``TextInk``: two runs of ink or
    /// more, at least 6 px high, at most three lines) or it is not text.
    func scarceText(_ crop: PixelRect, background: RGBA) -> TextColors? {
        let bounds = crop.clipped(to: PixelRect(x: 0, y: 0, width: screenshot.width, height: screenshot.height))
        guard !bounds.isEmpty, bounds.area <= 4_000_000 else { return nil }
        var inks: [(ratio: Double, color: RGBA)] = []
        for row in bounds.y..<(bounds.y + bounds.height) {
            for column in bounds.x..<(bounds.x + bounds.width) {
                let pixel = screenshot.color(x: column, y: row)
                let red = Int(pixel.red) - Int(background.red), green = Int(pixel.green) - Int(background.green)
                let blue = Int(pixel.blue) - Int(background.blue)
                guard red * red + green * green + blue * blue > 900 else { continue }
                inks.append((ColorMath.contrastRatio(pixel, background), pixel))
            }
        }
        // Scarce: a twentieth of the crop at most (more is what the clusters read).
        guard inks.count >= 8, inks.count * 20 <= bounds.area else { return nil }
        inks.sort { $0.ratio < $1.ratio }
        let foreground = inks[inks.count * 9 / 10].color
        guard ColorMath.deltaE94(foreground, background) >= Self.minimumInkDifference,
            let ink = TextInk.measure(screenshot, crop: bounds, foreground: foreground, background: background),
            ink.lineHeight >= 6, ink.glyphRuns >= 2, ink.lines <= 3
        else { return nil }
        let share = Double(inks.count) / Double(bounds.area)
        return TextColors(foreground: foreground, background: background, foregroundShare: share, backgroundShare: 1 - share, crop: crop)
    }

    /// The crop of `frame`, or why it cannot be read.
    func crop(of frame: Rect, minimumSide: Int) -> Result<PixelRect, PixelProblem> {
        let whole = pixels(of: frame)
        let crop = whole.clipped(to: usable)
        if crop.isEmpty { return .failure(PixelProblem(reason: "the element is outside the screenshot")) }
        if crop.area * 10 < whole.area * 9 {
            return .failure(PixelProblem(reason: "the element is partly outside the screenshot (\(crop.area * 100 / max(1, whole.area))% inside)"))
        }
        if min(crop.width, crop.height) < minimumSide {
            return .failure(PixelProblem(reason: "the element is \(crop.width) × \(crop.height) px in the screenshot: too small to read colours from"))
        }
        return .success(crop)
    }

    /// ATF's ContrastSwatch, improved. The text is the main "ink": a colour covering 1–30%
    /// of the crop that keeps away from the crop's edge (rounded corners and neighbours touch
    /// it; text has padding). Its background is not the crop's commonest colour but the colour
    /// found two pixels beside the ink (past its anti-aliased edge): the pill of a button,
    /// not the page around it. When that local background is not one colour (text over a
    /// gradient or an image), or nothing qualifies as ink, the answer is a reason, not a guess.
    public func textColors(of frame: Rect) -> Result<TextColors, PixelProblem> {
        cache.text(pixels(of: frame)) { readTextColors(of: frame) }
    }

    func readTextColors(of frame: Rect) -> Result<TextColors, PixelProblem> {
        let crop: PixelRect
        switch self.crop(of: frame, minimumSide: Self.minimumTextPixels) {
        case .success(let rect): crop = rect.width >= 12 && rect.height >= 12 ? rect.inset(by: -1) : rect
        case .failure(let problem): return .failure(problem)
        }
        let swatch = ColorSwatch(screenshot, crop)
        guard let commonest = swatch.clusters.first else { return .failure(PixelProblem(reason: "no pixels in the crop")) }
        if swatch.share(commonest) >= 0.995 {
            if commonest.luminance < 0.002 {
                return .failure(PixelProblem(reason: "the crop is all black: a secure window, or a screen not drawn yet"))
            }
            if let scarce = scarceText(crop, background: commonest.color) { return .success(scarce) }
            return .failure(PixelProblem(reason: "the crop is one colour (\(commonest.color.hex)): no text is visible in the screenshot"))
        }
        let surroundings = SwatchNeighbours(swatch)
        // Dense text (bold glyphs at 1×, tight in their frame) may cover as much as its
        // background: two colours make up the crop, the one drawn in strokes away from the
        // crop's edge is the ink. Tried only where the ordinary reading below would give up.
        if let dense = denseText(swatch, surroundings, crop: crop),
            swatch.share(commonest) < Self.minimumBackgroundShare || swatch.share(swatch.clusters[1]) >= 0.3
        {
            return .success(dense)
        }
        if swatch.share(commonest) < Self.minimumBackgroundShare {
            return .failure(
                PixelProblem(
                    reason:
                        "no one background colour (the commonest, \(commonest.color.hex), is \(Int(swatch.share(commonest) * 100))% of the crop): text over a gradient or an image")
            )
        }
        var best: (colors: TextColors, ratio: Double)?
        var largeShape: ColorSwatch.Cluster?
        var mixedBackground: (ink: ColorSwatch.Cluster, purity: Double)?
        for candidate in swatch.clusters.indices.prefix(8) {
            let cluster = swatch.clusters[candidate]
            let share = swatch.share(cluster)
            guard share >= Self.minimumForegroundShare else { break }
            guard surroundings.edgeShare(candidate) <= 0.5 else { continue }
            if share >= 0.3 || (share >= 0.05 && surroundings.strokeShare(candidate) < Self.minimumStrokeShare) {
                if candidate > 0 { largeShape = largeShape ?? cluster }
                continue
            }
            guard let local = surroundings.localBackground(of: candidate, in: swatch) else { continue }
            // Beside something other than the frame's main background: part of a shape drawn
            // inside the frame (an icon's detail on its disc), not its text.
            if local.cluster != 0, swatch.share(commonest) >= Self.minimumBackgroundShare, candidate != 0 { continue }
            guard local.purity >= 0.6 else {
                mixedBackground = mixedBackground ?? (cluster, local.purity)
                continue
            }
            let background = swatch.clusters[local.cluster]
            // Barely different from what is beside it: a shade of the background, not ink.
            // A faint, scarce colour is an anti-aliasing ring or noise, not ink: scarce ink
            // (a short label in a tall frame) must stand out clearly.
            let difference = ColorMath.deltaE94(cluster.lab, background.lab)
            guard difference >= Self.minimumInkDifference, share >= 0.01 || difference >= 3 * Self.minimumInkDifference else { continue }
            // Of the colours that qualify, the text is the one that stands out most; the
            // others are anti-aliasing shades that made it into the histogram.
            let ratio = ColorMath.contrastRatio(cluster.color, background.color)
            if ratio > (best?.ratio ?? 0) {
                best = (
                    TextColors(
                        foreground: cluster.color, background: background.color, foregroundShare: share,
                        backgroundShare: swatch.share(background), crop: crop), ratio
                )
            }
        }
        if let best { return .success(best.colors) }
        if let mixedBackground {
            return .failure(
                PixelProblem(
                    reason:
                        "the text (\(mixedBackground.ink.color.hex)) is not on one colour (the commonest beside it is \(Int(mixedBackground.purity * 100))%): text over a gradient or an image"
                ))
        }
        if let largeShape {
            return .failure(
                PixelProblem(
                    reason:
                        "a large shape (\(largeShape.color.hex), \(Int(swatch.share(largeShape) * 100))% of the frame) and no text beside it: an icon or image in the text's frame")
            )
        }
        if let scarce = scarceText(crop, background: commonest.color) { return .success(scarce) }
        return .failure(PixelProblem(reason: "no text pixels stand out from the background (\(commonest.color.hex))"))
    }

    /// Two colours that make up nearly all of the crop (85%), one of them strokes (outline
    /// mostly) that keep off the crop's edge, clearly apart: that one on the other.
    func denseText(_ swatch: ColorSwatch, _ surroundings: SwatchNeighbours, crop: PixelRect) -> TextColors? {
        guard swatch.clusters.count >= 2 else { return nil }
        let first = swatch.clusters[0], second = swatch.clusters[1]
        guard swatch.share(first) + swatch.share(second) >= 0.85,
            ColorMath.deltaE94(first.lab, second.lab) >= Self.minimumInkDifference
        else { return nil }
        // The ink is the colour of strokes that does not run along the edge; the background
        // is the other.
        let candidates = [(ink: 1, ground: 0), (ink: 0, ground: 1)].filter {
            surroundings.strokeShare($0.ink) >= Self.minimumStrokeShare && surroundings.edgeShare($0.ink) <= 0.35
                && surroundings.edgeShare($0.ground) > surroundings.edgeShare($0.ink)
        }
        guard candidates.count == 1, let pick = candidates.first else { return nil }
        let ink = swatch.clusters[pick.ink], ground = swatch.clusters[pick.ground]
        return TextColors(
            foreground: ink.color, background: ground.color, foregroundShare: swatch.share(ink),
            backgroundShare: swatch.share(ground), crop: crop)
    }

    /// ATF's ImageContrastCheck: the icon against what surrounds it. The surroundings are
    /// a band three pixels wide just outside the element (or, past a soft shadow, six pixels
    /// further out); the icon's colour is the most
    /// contrasting strong colour inside it that differs from them.
    public func iconColors(of frame: Rect) -> Result<IconColors, PixelProblem> {
        cache.icon(pixels(of: frame)) { readIconColors(of: frame) }
    }

    func readIconColors(of frame: Rect) -> Result<IconColors, PixelProblem> {
        let crop: PixelRect
        switch self.crop(of: frame, minimumSide: 4) {
        case .success(let rect): crop = rect
        case .failure(let problem): return .failure(problem)
        }
        let band = 3
        func ring(_ gap: Int) -> [PixelRect] {
            let outer = crop.inset(by: -gap)
            return [
                PixelRect(x: outer.x - band, y: outer.y - band, width: outer.width + 2 * band, height: band),
                PixelRect(x: outer.x - band, y: outer.y + outer.height, width: outer.width + 2 * band, height: band),
                PixelRect(x: outer.x - band, y: outer.y, width: band, height: outer.height),
                PixelRect(x: outer.x + outer.width, y: outer.y, width: band, height: outer.height),
            ].map { $0.clipped(to: usable) }
        }
        var around = ColorSwatch(screenshot, ring(0))
        // A soft shadow hugs a raised button (a FAB, a card): the band just outside is the
        // shadow, a shade darker than the page a few pixels further out. Then the page is
        // what the button stands on.
        if let near = around.clusters.first {
            let far = ColorSwatch(screenshot, ring(6))
            if let page = far.clusters.first, far.share(page) >= 0.6, page.luminance > near.luminance,
                ColorMath.deltaE94(near.lab, page.lab) > 2, ColorMath.deltaE94(near.lab, page.lab) < 20
            {
                around = far
            }
        }
        guard let surroundings = around.clusters.first else {
            return .failure(PixelProblem(reason: "the element fills the screenshot: nothing around it to compare with"))
        }
        if around.share(surroundings) < 0.5 {
            return .failure(PixelProblem(reason: "the surroundings are not one colour (the commonest, \(surroundings.color.hex), is \(Int(around.share(surroundings) * 100))%)"))
        }
        let inside = ColorSwatch(screenshot, crop)
        // Strokes count from 1.5% of the crop; only when none does, from 0.4% where they
        // differ clearly: a thin "⋮" or "×" in a 48-dp frame is a few dozen pixels.
        var distinct = inside.clusters.filter { ColorMath.deltaE94(surroundings.lab, $0.lab) > 5 && inside.share($0) >= 0.015 }
        if distinct.isEmpty {
            distinct = inside.clusters.filter { ColorMath.deltaE94(surroundings.lab, $0.lab) > 10 && inside.share($0) >= 0.004 }
        }
        guard let strongest = distinct.first else {
            return .failure(PixelProblem(reason: "nothing in the element differs from its surroundings (\(surroundings.color.hex))"))
        }
        // Several strong, different colours: a logo, a photo or an illustration, whose parts
        // a reader must weigh (WCAG exempts logos); not judged from a histogram.
        let hues = distinct.filter { inside.share($0) >= 0.02 }
        var separate: [ColorSwatch.Cluster] = []
        for cluster in hues where separate.allSatisfy({ ColorMath.deltaE94($0.lab, cluster.lab) > 20 }) { separate.append(cluster) }
        if separate.count >= 3 {
            return .failure(
                PixelProblem(reason: "a graphic of several colours (\(separate.prefix(4).map(\.color.hex).joined(separator: ", "))): a logo or an illustration; judge it by eye"))
        }
        // The most visible strong part counts: 1.4.11 asks that the graphic be perceivable.
        let icon = distinct.max { ColorMath.contrastRatio($0.color, surroundings.color) < ColorMath.contrastRatio($1.color, surroundings.color) } ?? strongest
        return .success(
            IconColors(
                foreground: icon.color, surroundings: surroundings.color, foregroundShare: inside.share(icon),
                surroundingsShare: around.share(surroundings), crop: crop))
    }
}

/// Where each colour of a swatch sits: how much of it touches the crop's edge, and which
/// colour lies beside it (two pixels away in the four directions, past an anti-aliased edge).
struct SwatchNeighbours {
    /// Per followed cluster: its cells, those within a step of the grid's edge, those on
    /// an outline (another colour `reach` cells away in one of the four directions).
    let total: [Int]
    let edge: [Int]
    let outline: [Int]
    /// `beside[cluster * width + other]`: how often `other` lies two pixels from `cluster`.
    let beside: [Int]
    private let width: Int

    /// Only the first clusters are followed: they are the only candidates for ink.
    static let followed = 8

    /// `swatch`: of one rectangle (its cells are the grid followed here).
    init(_ swatch: ColorSwatch) {
        self.init(
            grid: swatch.cellClusters, columns: swatch.columns, rows: swatch.rows, step: swatch.step,
            clusters: swatch.clusters.count)
    }

    /// `grid`: each cell's cluster (-1 for none), `columns` × `rows`, sampled every `step`
    /// pixels, of a swatch of `clusters` clusters.
    init(grid: [Int16], columns: Int, rows: Int, step: Int, clusters: Int) {
        // A grid of another size than it says is read as empty (the cells are read
        // without bounds checks).
        let (grid, rows) = grid.count == columns * rows && columns >= 0 ? (grid, rows) : ([], 0)
        let count = min(Self.followed, clusters)
        let width = clusters
        // Neighbours two pixels away at least (past an anti-aliased edge), in grid cells.
        let reach = max(1, (2 + step - 1) / step)
        let margin = reach
        // Counts in one flat buffer: total, edge, outline per followed cluster, then beside.
        var counts = [Int](repeating: 0, count: 3 * count + count * width)
        // Each pair of cells `reach` apart is compared once, for both of its cells: most
        // pairs are one colour (the background), and a pair that differs marks both cells
        // as on an outline and counts each beside the other.
        var onOutline = [Bool](repeating: false, count: grid.count)
        grid.withUnsafeBufferPointer { cells in
            counts.withUnsafeMutableBufferPointer { tally in
                onOutline.withUnsafeMutableBufferPointer { outline in
                    func compare(_ first: Int, _ second: Int) {
                        let a = Int(cells[first]), b = Int(cells[second])
                        guard a != b else { return }
                        outline[first] = true
                        outline[second] = true
                        if a >= 0, a < count, b >= 0, b < width { tally[3 * count + a * width + b] += 1 }
                        if b >= 0, b < count, a >= 0, a < width { tally[3 * count + b * width + a] += 1 }
                    }
                    for row in 0..<rows {
                        let rowStart = row * columns
                        if columns > reach {
                            for column in 0..<(columns - reach) { compare(rowStart + column, rowStart + column + reach) }
                        }
                        if row + reach < rows {
                            for column in 0..<columns { compare(rowStart + column, rowStart + reach * columns + column) }
                        }
                    }
                    // Totals and outline counts by runs of one cluster (adding to memory
                    // cell by cell waits on the last store to the same count).
                    var last = -1, run = 0, runOutline = 0
                    func flush() {
                        guard last >= 0, last < count else { return }
                        tally[last] += run
                        tally[2 * count + last] += runOutline
                    }
                    for cell in 0..<cells.count {
                        let own = Int(cells[cell])
                        if own != last {
                            flush()
                            last = own
                            run = 0
                            runOutline = 0
                        }
                        run &+= 1
                        runOutline &+= outline[cell] ? 1 : 0
                    }
                    flush()
                    // The cells within `margin` of the grid's edge.
                    func edge(_ cell: Int) {
                        let own = Int(cells[cell])
                        if own >= 0, own < count { tally[count + own] += 1 }
                    }
                    let left = min(margin, columns), right = max(left, columns - margin)
                    for row in 0..<rows {
                        let rowStart = row * columns
                        if row < margin || rows - 1 - row < margin {
                            for column in 0..<columns { edge(rowStart + column) }
                        } else {
                            for column in 0..<left { edge(rowStart + column) }
                            for column in right..<columns { edge(rowStart + column) }
                        }
                    }
                }
            }
        }
        self.width = width
        total = Array(counts[0..<count])
        edge = Array(counts[count..<(2 * count)])
        outline = Array(counts[(2 * count)..<(3 * count)])
        beside = Array(counts[(3 * count)...])
    }

    /// The share of a cluster's pixels two pixels or less from another colour: high for the
    /// strokes of text (every pixel is near an edge of its glyph), low for a filled shape (a
    /// disc or a badge, whose inside is far from its outline).
    func strokeShare(_ cluster: Int) -> Double {
        guard cluster < total.count, total[cluster] > 0 else { return 0 }
        return Double(outline[cluster]) / Double(total[cluster])
    }

    /// The share of a cluster's pixels within a step of the crop's edge.
    func edgeShare(_ cluster: Int) -> Double {
        guard cluster < total.count, total[cluster] > 0 else { return 1 }
        return Double(edge[cluster]) / Double(total[cluster])
    }

    /// The commonest other colour beside `cluster`, and its share of what is beside it.
    /// Only colours covering 5% of the crop or more count: anti-aliasing blends (which
    /// surround every glyph, a sliver each) are neither background nor a sign of a mixed one.
    func localBackground(of cluster: Int, in swatch: ColorSwatch) -> (cluster: Int, purity: Double)? {
        guard cluster < total.count else { return nil }
        let counts = (0..<width).map { swatch.share(swatch.clusters[$0]) >= 0.05 ? beside[cluster * width + $0] : 0 }
        let sum = counts.reduce(0, +)
        guard sum > 0, let best = counts.indices.max(by: { counts[$0] < counts[$1] }) else { return nil }
        return (best, Double(counts[best]) / Double(sum))
    }
}
