/// The colour an element shows in the screenshot, for the colour-only rules: a text's ink
/// (``ScreenshotMapping/textColors(of:)``), else a mark's colour against its surroundings
/// (``ScreenshotMapping/iconColors(of:)``), with the share of its crop that colour covers
/// (marks of one shape cover about the same share).
enum PixelInk {
    /// The largest side, in points, of an element whose colour is read from the pixels.
    static let maximumSide = 96.0

    /// `maximumSide`: larger elements are not read (tabs and segments are read up to 240 pt).
    static func color(of index: Int, in snapshot: Snapshot, maximumSide: Double = maximumSide) -> (color: RGBA, share: Double)? {
        guard let screenshot = snapshot.screenshot, let frame = snapshot.elements[index].frame,
            frame.width > 0, frame.height > 0, frame.width <= maximumSide, frame.height <= maximumSide
        else { return nil }
        if !snapshot.visibleTextRef(of: index).isAbsent, case .success(let text) = screenshot.textColors(of: frame) {
            return (text.foreground, text.foregroundShare)
        }
        if case .success(let mark) = screenshot.iconColors(of: frame) { return (mark.foreground, mark.foregroundShare) }
        return nil
    }

    /// Two marks read from pixels have one shape when their colours cover about the same share
    /// of their crops (a filled dot and a ring of one size do not; anti-aliasing moves it a little).
    static func sameShape(_ first: Double, _ second: Double) -> Bool {
        let larger = max(first, second)
        return larger > 0 && min(first, second) / larger >= 0.6
    }

    /// Two colours read from pixels differ visibly (CIEDE2000 ≥ 10), not by a crop's shade.
    static func differ(_ first: RGBA, _ second: RGBA) -> Bool { ColorMath.deltaE2000(first, second) >= 10 }
}
