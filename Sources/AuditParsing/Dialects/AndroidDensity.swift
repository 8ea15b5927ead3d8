/// Estimates an Android screen's density (pixels per dp) when the caller gives none.
///
/// The rule (docs/dialects.md): take the shorter side of the screen in pixels and pick the
/// standard density bucket that puts it closest to 411 dp — the width of the reference
/// Pixel phones (most phones are 360–430 dp): 1080 px → 2.625 (411 dp), 1440 px → 3.5
/// (411 dp), 720 px → 2 (360 dp). A screen squarer than 1.62:1 is a tablet, aimed at 720 dp:
/// 1600 × 2560 → 2 (800 dp), 800 × 1280 → 1 (800 dp).
public enum AndroidDensity {
    /// Standard densities: ldpi … xxxhdpi and the common in-between values.
    public static let buckets: [Double] = [0.75, 1, 1.5, 2, 2.625, 2.75, 3, 3.5, 4]

    /// The densities a caller may give (`--android-density`, `?density=`): a real device's
    /// pixels per dp. Outside it, `nan`, `inf` or `1e-300` would turn every frame into 0
    /// or infinity and make findings vanish.
    public static let acceptedRange: ClosedRange<Double> = 0.1...16

    /// The typical phone width, in dp, the estimate aims at.
    public static let typicalWidth: Double = 411
    /// The typical short side of a tablet, in dp (7-inch 600, 10-inch 800).
    public static let typicalTabletWidth: Double = 720
    /// Screens squarer than this (long side over short side) are tablets: tablets are 16:10
    /// (1.6) or squarer; phones 16:9 (1.78) or longer, and still 1.66 when the dump leaves out
    /// the navigation bar (1440 × 2392, 1080 × 1794).
    public static let tabletAspect: Double = 1.62
    /// Tablets' short sides are 800 px and more; a squarer root under that is a dialog or a
    /// popup window's own hierarchy, not a screen, and is estimated as a phone's.
    public static let tabletMinimumPixels: Double = 800

    /// A TV's short side in dp: 1080p panels are density 2 (960 × 540 dp), 720p 1.33.
    public static let typicalTVHeight: Double = 540
    /// A watch's side in dp (Wear OS: 192–240 dp; a 454 or 466 px round screen is density 2).
    public static let typicalWatchSide: Double = 227
    /// Watches are square or round and small: short side up to this many pixels, aspect up
    /// to 1.05.
    public static let watchMaximumPixels: Double = 600

    /// The kind of screen a shape says.
    public enum Shape: String, Sendable {
        case phone, tablet, tv, watch
    }

    /// What the estimate decided, and why, for the report's notes.
    public struct Estimate: Sendable {
        public let density: Double
        public let shape: Shape
        public let shortSide: Double
        public let aspect: Double
        public var isTablet: Bool { shape == .tablet }
    }

    public static func estimate(widthPixels: Double, heightPixels: Double) -> Double {
        estimated(widthPixels: widthPixels, heightPixels: heightPixels).density
    }

    /// The density bucket that puts the short side closest to a phone's 411 dp — or, for a
    /// screen as square as a tablet's, to a tablet's 720 dp (a 1600 × 2560 tablet is density
    /// 2, 800 dp; read as a phone it would be 4, 400 dp, and every target would shrink by half);
    /// a landscape screen whose natural orientation is landscape (`rotation` 0, wide as 16:9) is
    /// a TV, aimed at 540 dp high (1920 × 1080 → 2); a small square screen at the origin is a
    /// watch, aimed at 227 dp (466 × 466 → 2); a strip four times as wide as it is high (a
    /// status bar's window alone) is read as a phone as wide as the strip.
    public static func estimated(
        widthPixels: Double, heightPixels: Double, naturalLandscape: Bool = false,
        atOrigin: Bool = false
    ) -> Estimate {
        var height = heightPixels > 0 ? heightPixels : widthPixels
        // A strip — a capture of the status bar's window alone, 1080 × 72 — is no screen: its
        // length is the phone's width (read as a TV or by its 72-px side, it was density 0.75).
        if widthPixels > 4 * height { height = widthPixels * 2 }
        let shorter = min(widthPixels, height), longer = max(widthPixels, height)
        guard shorter > 0 else { return Estimate(density: 1, shape: .phone, shortSide: 0, aspect: 1) }
        let aspect = longer / shorter
        let shape: Shape
        if naturalLandscape, widthPixels > height, aspect >= 1.7 {
            shape = .tv
        } else if atOrigin, aspect <= 1.05, shorter <= watchMaximumPixels {
            shape = .watch
        } else if aspect < tabletAspect, shorter >= tabletMinimumPixels {
            shape = .tablet
        } else {
            shape = .phone
        }
        let target =
            switch shape {
            case .phone: typicalWidth
            case .tablet: typicalTabletWidth
            case .tv: typicalTVHeight
            case .watch: typicalWatchSide
            }
        var best = 1.0
        var bestError = Double.infinity
        for density in buckets + (shape == .tv ? [1.33] : []) {
            let error = abs(shorter / density - target)
            if error < bestError {
                bestError = error
                best = density
            }
        }
        return Estimate(density: best, shape: shape, shortSide: shorter, aspect: aspect)
    }
}
