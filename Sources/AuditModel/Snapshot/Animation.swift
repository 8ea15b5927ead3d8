/// An animation attached to an element (docs/snapshot-format.md, `<animation>`).
public struct Animation: Sendable, Hashable {
    /// Kinds of motion. Unknown values are kept as ``other``.
    public enum Kind: String, Sendable, CaseIterable {
        case fade, crossfade, slide, scale, zoom, parallax, rotate, spin, bounce, shake, autoplay, video, other

        /// Fades and cross-fades change opacity only: what Reduce Motion substitutes.
        public var isNonMotion: Bool { self == .fade || self == .crossfade }
    }

    /// How often the animation runs.
    public enum Repeat: Sendable, Hashable {
        case count(Double)
        case forever
    }

    public var kind: Kind
    public var kindName: String
    public var duration: Double?
    public var repeatCount: Repeat?
    public var autoplay: Bool?
    public var honorsReduceMotion: Bool?
    public var pausable: Bool?
    public var distance: Double?
    /// Index of the element that owns it.
    public var element: Int
    public var line: Int

    public init(kind: Kind, kindName: String, element: Int, line: Int) {
        self.kind = kind
        self.kindName = kindName
        self.element = element
        self.line = line
    }

    /// Total running time in seconds: duration × repeats; infinite when it repeats forever;
    /// `nil` when the duration is unknown.
    public var totalDuration: Double? {
        guard let duration else { return repeatCount == .forever ? .infinity : nil }
        switch repeatCount {
        case .forever?: return duration > 0 ? .infinity : 0
        case .count(let times)?: return duration * max(times, 1)
        case nil: return duration
        }
    }
}
