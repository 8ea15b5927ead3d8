/// What an Android dump's own layout says of its density: components whose size in dp the
/// platform fixes. A 24-px status bar, 48-px buttons and a 56-px floating action button say
/// density 1 on a 320 × 640 screen that the short side alone would read as 0.75; a Toolbar
/// of 147 px says 2.625.
public enum AndroidLayoutCues {
    /// One component of a standard size, measured in pixels.
    public struct Cue: Sendable, Equatable {
        public let name: String
        public let pixels: Double
        /// The sizes in dp the platform gives it.
        public let standard: [Double]
    }

    /// Whether a class name and resource id, as UTF-8 bytes, may name a cue: read in place for
    /// every node, so that strings are built only for the few that may (``cue(className:resourceID:width:height:)``).
    public static func mayBeCue(className: ArraySlice<UInt8>, resourceID: ArraySlice<UInt8>) -> Bool {
        func ends(_ bytes: ArraySlice<UInt8>, _ suffix: StaticString) -> Bool {
            let tail = UnsafeBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount)
            return bytes.count >= tail.count && bytes.suffix(tail.count).elementsEqual(tail)
        }
        return ends(resourceID, "BarBackground") || ends(resourceID, ":id/action_bar") || ends(resourceID, ":id/toolbar")
            || ends(resourceID, "systemui:id/status_bar")
            || ends(className, "FloatingActionButton") || ends(className, ".Toolbar")
    }

    /// The component `className` / `resourceID` names, measured by its frame in pixels
    /// (height, or the side for a square button), or `nil` when it is none.
    public static func cue(className: String, resourceID: String, width: Double, height: Double) -> Cue? {
        // The app's status-bar background (UiAutomator2) or the system's own status bar (a
        // plain uiautomator dump): 24 dp, 25 on older releases; a cut-out makes it taller,
        // and then it agrees with no bucket and decides nothing.
        if resourceID == "android:id/statusBarBackground" || resourceID == "com.android.systemui:id/status_bar" {
            return Cue(name: "status bar", pixels: height, standard: [24, 25])
        }
        if resourceID == "android:id/navigationBarBackground" {
            return Cue(name: "navigation bar", pixels: min(width, height), standard: [48])
        }
        if className.hasSuffix("FloatingActionButton"), abs(width - height) <= 2 {
            return Cue(name: "floating action button", pixels: width, standard: [56, 40])
        }
        if className.hasSuffix(".Toolbar") || resourceID.hasSuffix(":id/action_bar") || resourceID.hasSuffix(":id/toolbar") {
            return Cue(name: "toolbar", pixels: height, standard: [56, 64])
        }
        return nil
    }

    /// The density bucket most cues agree with (each within 1.5 dp of a standard size),
    /// when at least two agree and more agree with it than with `current`: the bucket and the
    /// cues that decided it.
    public static func density(from cues: [Cue], current: Double) -> (density: Double, basis: [Cue])? {
        guard cues.count >= 2 else { return nil }
        func agreeing(_ density: Double) -> [Cue] {
            cues.filter { cue in cue.standard.contains { abs(cue.pixels / density - $0) <= 1.5 } }
        }
        let currentCount = agreeing(current).count
        var best: (density: Double, basis: [Cue])?
        for density in AndroidDensity.buckets {
            let basis = agreeing(density)
            if basis.count >= 2, basis.count > currentCount, basis.count > (best?.basis.count ?? 0) { best = (density, basis) }
        }
        return best
    }
}
