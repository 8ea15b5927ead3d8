/// What a screenshot may cost. The pixel limits are checked on the header, before any
/// pixel is allocated: a 100-byte PNG that claims 100,000 × 100,000 pixels is refused
/// without allocating its 40 GB.
public struct ImageLimits: Sendable {
    /// Encoded bytes (default 32 MiB; a 1290 × 2796 PNG screenshot is 1–6 MB).
    public var maxBytes: Int
    /// Width × height (default 36 million: 4K and 6K tablets and desktops fit; the decoded
    /// image takes 4 bytes per pixel).
    public var maxPixels: Int
    /// The longer side (default 16,384).
    public var maxSide: Int

    /// Scans of one JPEG (default 100): each scan of a progressive file is a pass over the
    /// whole image, so 1,000 near-empty scans in 139 KB cost seconds; encoders write about 10.
    public var maxJPEGScans: Int

    public init(maxBytes: Int = 32 << 20, maxPixels: Int = 36_000_000, maxSide: Int = 16_384, maxJPEGScans: Int = 100) {
        self.maxBytes = maxBytes
        self.maxPixels = maxPixels
        self.maxSide = maxSide
        self.maxJPEGScans = maxJPEGScans
    }
}
