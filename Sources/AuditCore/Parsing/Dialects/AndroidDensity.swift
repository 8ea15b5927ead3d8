/// Estimates an Android screen's density (pixels per dp) when the caller gives none.
///
/// The rule (docs/dialects.md): take the shorter side of the screen in pixels and pick the
/// standard density bucket that puts it closest to 411 dp — the width of the reference
/// Pixel phones (most phones are 360–430 dp). 1080 px → 2.625 (411 dp), 1440 px → 3.5
/// (411 dp), 720 px → 2 (360 dp).
public enum AndroidDensity {
    /// Standard densities: ldpi … xxxhdpi and the common in-between values.
    public static let buckets: [Double] = [0.75, 1, 1.5, 2, 2.625, 2.75, 3, 3.5, 4]

    /// The densities a caller may give (`--android-density`, `?density=`): a real device's
    /// pixels per dp. Outside it, `nan`, `inf` or `1e-300` would turn every frame into 0
    /// or infinity and make findings vanish.
    public static let acceptedRange: ClosedRange<Double> = 0.1...16

    /// The typical phone width, in dp, the estimate aims at.
    public static let typicalWidth: Double = 411

    public static func estimate(widthPixels: Double, heightPixels: Double) -> Double {
        let shorter = min(widthPixels, heightPixels > 0 ? heightPixels : widthPixels)
        guard shorter > 0 else { return 1 }
        var best = 1.0
        var bestError = Double.infinity
        for density in buckets {
            let error = abs(shorter / density - typicalWidth)
            if error < bestError {
                bestError = error
                best = density
            }
        }
        return best
    }
}
