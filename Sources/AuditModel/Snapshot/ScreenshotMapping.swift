/// How a snapshot's frames land on its screenshot's pixels. iOS frames are points, so the
/// scale is the image width over the screen width (2 or 3); Android frames were pixels,
/// read as dp with the density, so the scale comes back as the density. One scale holds for
/// both axes: a screenshot whose aspect does not agree is refused, never stretched.
public struct ScreenshotMapping: Sendable {
    public let screenshot: Screenshot
    /// Pixels per point (per dp on Android).
    public let pixelsPerPoint: Double
    /// The screen as the snapshot describes it, in points.
    public let screenWidth: Double, screenHeight: Double
    /// How the mapping was decided, for the report's notes.
    public let notes: [String]
    /// The pixels crops may use: the whole image. (Below a dump's root there may be more
    /// screen — a navigation bar the root's bounds leave out — whose elements the dump
    /// still lists.)
    public let usable: PixelRect
    /// Readings already made, by crop: several rules read the same element (an icon is read
    /// by contrast.non-text and color-only.group).
    let cache = PixelCache()

    /// The most the screenshot may be taller than the snapshot's screen: Android dumps
    /// often leave out the navigation bar (2028 px of a 2160 px screen) or a dialog's window
    /// ends above it.
    static let maximumExtraHeight = 0.25

    /// How an image of `imageWidth` × `imageHeight` pixels maps onto `snapshot`'s screen;
    /// throws ``ImageError/Code/mismatch`` when it does not fit. Asked with the header's
    /// size before the image is decoded, and again with the decoded image.
    public static func fit(snapshot: Snapshot, imageWidth: Int, imageHeight: Int, format: Screenshot.Format) throws(ImageError)
        -> (scale: Double, screenWidth: Double, screenHeight: Double, notes: [String])
    {
        let screenshot = (width: imageWidth, height: imageHeight, format: format)
        var width = snapshot.width ?? 0, height = snapshot.height ?? 0
        for root in snapshot.roots {
            guard let frame = snapshot.elements[root].frame else { continue }
            width = max(width, frame.maxX)
            height = max(height, frame.maxY)
        }
        let sizes = "the screenshot is \(screenshot.width) × \(screenshot.height) px, the snapshot's screen \(width.formattedForReport) × \(height.formattedForReport) pt"
        guard width > 0, height > 0 else {
            throw ImageError(
                .mismatch, "the snapshot has no screen size to map the screenshot onto (\(sizes))",
                hint: "give the root element a frame, or the snapshot width and height")
        }
        let scale = Double(screenshot.width) / width
        let expectedHeight = height * scale
        let imageHeight = Double(screenshot.height)
        let landscapeImage = screenshot.width > screenshot.height, landscapeScreen = width > height
        if landscapeImage != landscapeScreen, abs(width - height) > 0.05 * max(width, height),
            abs(screenshot.width - screenshot.height) > screenshot.width / 20
        {
            throw ImageError(
                .mismatch, "the screenshot is \(landscapeImage ? "landscape" : "portrait") and the snapshot \(landscapeScreen ? "landscape" : "portrait"): \(sizes)",
                hint: "take the screenshot in the same orientation as the dump, or send the pair of one moment")
        }
        guard (0.25...8).contains(scale) else {
            throw ImageError(
                .mismatch, "the screenshot does not fit the snapshot: \(sizes), \(scale.formattedForReport) px per pt",
                hint: "send the screenshot taken with this snapshot, at the device's resolution")
        }
        var notes = ["screenshot \(screenshot.width) × \(screenshot.height) px (\(screenshot.format.rawValue)) at \(scale.formattedForReport) px per pt"]
        let tolerance = max(2, 0.01 * expectedHeight)
        if imageHeight + tolerance < expectedHeight {
            throw ImageError(
                .mismatch, "the screenshot is shorter than the snapshot's screen: \(sizes) (\(Int(expectedHeight.rounded())) px expected at \(scale.formattedForReport) px per pt)",
                hint: "send the screenshot taken with this snapshot, uncropped")
        }
        // A native snapshot's own `scale` fixes the image's size exactly: only a dump whose
        // root may leave out a system bar (Android's navigation bar) may be shorter than it.
        let exactSize = snapshot.capabilities.contains(.exactScreenSize) && snapshot.scale != nil
        if imageHeight - expectedHeight > tolerance {
            guard !exactSize, imageHeight - expectedHeight <= Self.maximumExtraHeight * imageHeight else {
                throw ImageError(
                    .mismatch,
                    "the screenshot's aspect does not match the snapshot's: \(sizes) (\(Int(expectedHeight.rounded())) px high expected at \(scale.formattedForReport) px per pt)",
                    hint: "send the screenshot taken with this snapshot, uncropped and unscaled")
            }
            notes.append("the screenshot is \(Int((imageHeight - expectedHeight).rounded())) px taller than the snapshot's screen (a system bar the dump's root leaves out)")
        }
        // The snapshot's own scale (an Android dump's pixels per dp, a native snapshot's
        // `scale`) fixes the image's size: another size is another screen, or a resized one.
        if let declared = snapshot.scale, declared > 0, abs(declared - scale) > 0.01 * declared {
            let expectedWidth = Int((width * declared).rounded()), expectedTall = Int((height * declared).rounded())
            throw ImageError(
                .mismatch, "the screenshot is another size: \(sizes) at \(declared.formattedForReport) px per pt, so \(expectedWidth) × \(expectedTall) px expected",
                hint: "send the screenshot taken with this snapshot, at the device's resolution (not resized)")
        }
        return (scale, width, height, notes)
    }

    public init(snapshot: Snapshot, screenshot: Screenshot) throws(ImageError) {
        let fit = try Self.fit(snapshot: snapshot, imageWidth: screenshot.width, imageHeight: screenshot.height, format: screenshot.format)
        let (scale, width, height, notes) = (fit.scale, fit.screenWidth, fit.screenHeight, fit.notes)
        self.screenshot = screenshot
        self.pixelsPerPoint = scale
        self.screenWidth = width
        self.screenHeight = height
        self.notes = notes
        self.usable = PixelRect(x: 0, y: 0, width: screenshot.width, height: screenshot.height)
    }

    /// The pixels of `frame` (rounded outwards to whole pixels), not clipped.
    public func pixels(of frame: Rect) -> PixelRect {
        let minX = (frame.minX * pixelsPerPoint).rounded(.down), minY = (frame.minY * pixelsPerPoint).rounded(.down)
        let maxX = (frame.maxX * pixelsPerPoint).rounded(.up), maxY = (frame.maxY * pixelsPerPoint).rounded(.up)
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite,
            abs(minX) < 1e9, abs(minY) < 1e9, abs(maxX) < 1e9, abs(maxY) < 1e9
        else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        return PixelRect(x: Int(minX), y: Int(minY), width: Int(maxX - minX), height: Int(maxY - minY))
    }
}

/// The colours read per crop, shared by the rules of one audit (which run on several
/// threads): a crop is read once whichever rule asks first.
final class PixelCache: @unchecked Sendable {
    private let lock = Lock()
    private var text: [PixelRect: Result<TextColors, PixelProblem>] = [:]
    private var icons: [PixelRect: Result<IconColors, PixelProblem>] = [:]

    func text(_ frame: PixelRect, _ read: () -> Result<TextColors, PixelProblem>) -> Result<TextColors, PixelProblem> {
        if let known = lock.withLock({ text[frame] }) { return known }
        let value = read()
        lock.withLock { text[frame] = value }
        return value
    }

    func icon(_ frame: PixelRect, _ read: () -> Result<IconColors, PixelProblem>) -> Result<IconColors, PixelProblem> {
        if let known = lock.withLock({ icons[frame] }) { return known }
        let value = read()
        lock.withLock { icons[frame] = value }
        return value
    }
}
