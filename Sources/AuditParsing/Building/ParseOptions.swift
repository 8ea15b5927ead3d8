/// Limits and hints for one parse.
public struct ParseOptions: Sendable {
    /// Largest document accepted, in bytes.
    public var maxBytes: Int
    /// Deepest element nesting accepted.
    public var maxDepth: Int
    /// Largest number of UI elements accepted.
    public var maxElements: Int
    /// Android pixels per dp. `nil`: estimated from the root's width (docs/dialects.md).
    public var androidDensity: Double?
    /// Documents at least this large are parsed on two threads (libxml2 tokenizing on
    /// the caller's, elements decoded on another); smaller ones on the caller's alone,
    /// where handing events over would cost more than it saves. Same result either way.
    public var twoThreadBytes: Int

    public init(
        maxBytes: Int = 32 << 20, maxDepth: Int = 256, maxElements: Int = 2_000_000,
        androidDensity: Double? = nil, twoThreadBytes: Int = 1 << 20
    ) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxElements = maxElements
        self.androidDensity = androidDensity
        self.twoThreadBytes = twoThreadBytes
    }
}
