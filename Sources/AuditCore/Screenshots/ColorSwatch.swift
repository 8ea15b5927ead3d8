/// The colours of a patch of screenshot, as ATF's ContrastSwatch finds them and more
/// carefully: an exact-colour histogram, near colours merged (CIE94 ΔE < 2, so JPEG noise
/// and a gradient's neighbouring steps count as one), then each merged colour with its
/// share of the patch. Anti-aliasing blends fall into many small clusters and are ignored
/// by the readers of the swatch (``TextColors``, ``IconColors``).
public struct ColorSwatch: Sendable {
    public struct Cluster: Sendable {
        /// The most frequent exact colour of the cluster.
        public var color: RGBA
        public var count: Int
        public var luminance: Double
        var lab: (l: Double, a: Double, b: Double)
    }

    /// Largest first.
    public private(set) var clusters: [Cluster] = []
    /// Pixels sampled.
    public private(set) var total = 0
    /// The crop's mean relative luminance.
    public private(set) var meanLuminance = 0.0
    /// The grid step the pixels were sampled at.
    public private(set) var step = 1
    /// Exact colour → cluster (index + 1); colours not clustered (rare blends) are absent.
    private var clusterOfColor = ColorCountTable(capacity: 256)

    /// At most this many pixels are read per patch, on an even grid: the colours of a
    /// patch do not need every pixel, and the cost stays flat however large it is.
    static let maximumSamples = 16_384
    /// Only this many distinct colours are clustered; rarer ones are blends and noise.
    static let clusteredColors = 96
    static let mergeDistance = 2.0

    /// The swatch of `rect` (clipped by the caller) in `image`.
    public init(_ image: Screenshot, _ rect: PixelRect) {
        self.init(image, [rect])
    }

    /// The swatch of the pixels of several rectangles together (a ring around an element).
    public init(_ image: Screenshot, _ rects: [PixelRect]) {
        let area = rects.reduce(0) { $0 + max(0, $1.area) }
        guard area > 0 else { return }
        let step = max(1, Int((Double(area) / Double(Self.maximumSamples)).squareRoot().rounded(.up)))
        self.step = step
        var table = ColorCountTable()
        var luminanceSum = 0.0
        image.rgba.withUnsafeBufferPointer { pixels in
            for rect in rects where !rect.isEmpty {
                var y = rect.y
                while y < rect.y + rect.height {
                    var offset = (y * image.width + rect.x) * 4
                    for _ in stride(from: 0, to: rect.width, by: step) {
                        let packed = UInt32(pixels[offset]) << 16 | UInt32(pixels[offset + 1]) << 8 | UInt32(pixels[offset + 2])
                        table.add(packed)
                        offset += 4 * step
                    }
                    y += step
                }
            }
        }
        let counted = table.entries()
        var colors: [(RGBA, Int)] = counted.map { (RGBA(red: UInt8($0.key >> 16), green: UInt8(($0.key >> 8) & 255), blue: UInt8($0.key & 255)), $0.count) }
        total = colors.reduce(0) { $0 + $1.1 }
        for (color, count) in colors { luminanceSum += ColorMath.luminance(color) * Double(count) }
        meanLuminance = total > 0 ? luminanceSum / Double(total) : 0
        colors.sort { $0.1 > $1.1 || ($0.1 == $1.1 && $0.0.packed < $1.0.packed) }
        var assigned: [(UInt32, Int)] = []
        for (color, count) in colors.prefix(Self.clusteredColors) {
            let lab = ColorMath.lab(color)
            if let near = clusters.firstIndex(where: { ColorMath.deltaE94($0.lab, lab) < Self.mergeDistance }) {
                clusters[near].count += count
                assigned.append((color.packed >> 8, near))
            } else {
                clusters.append(Cluster(color: color, count: count, luminance: ColorMath.luminance(color), lab: lab))
                assigned.append((color.packed >> 8, clusters.count - 1))
            }
        }
        let order = clusters.indices.sorted { clusters[$0].count > clusters[$1].count }
        var rank = Array(repeating: 0, count: clusters.count)
        for (position, index) in order.enumerated() { rank[index] = position }
        clusters = order.map { clusters[$0] }
        for (key, index) in assigned { clusterOfColor.set(key, Int32(rank[index] + 1)) }
    }

    /// The cluster (index into ``clusters``) of the pixel at (`x`, `y`); `nil` for a rare
    /// colour (a blend).
    @inline(__always)
    func cluster(_ image: Screenshot, x: Int, y: Int) -> Int? {
        let offset = (y * image.width + x) * 4
        let key = UInt32(image.rgba[offset]) << 16 | UInt32(image.rgba[offset + 1]) << 8 | UInt32(image.rgba[offset + 2])
        let value = clusterOfColor.value(key)
        return value > 0 ? Int(value) - 1 : nil
    }

    /// The share of the sampled pixels in `cluster`.
    public func share(_ cluster: Cluster) -> Double { total > 0 ? Double(cluster.count) / Double(total) : 0 }
}

/// Counts of packed RGB colours: open addressing in one flat table, reused per patch.
struct ColorCountTable {
    private var keys: [UInt32]
    private var counts: [Int32]
    private var used = 0
    private static let empty = UInt32.max

    init(capacity: Int = 4096) {
        keys = Array(repeating: Self.empty, count: capacity)
        counts = Array(repeating: 0, count: capacity)
    }

    mutating func add(_ key: UInt32) {
        if used * 2 >= keys.count { grow() }
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B1) >> 7) & mask
        while true {
            if keys[slot] == key {
                counts[slot] += 1
                return
            }
            if keys[slot] == Self.empty {
                keys[slot] = key
                counts[slot] = 1
                used += 1
                return
            }
            slot = (slot + 1) & mask
        }
    }

    /// Stores `value` for `key` (a map rather than a count).
    mutating func set(_ key: UInt32, _ value: Int32) {
        if used * 2 >= keys.count { grow() }
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B1) >> 7) & mask
        while keys[slot] != key && keys[slot] != Self.empty { slot = (slot + 1) & mask }
        if keys[slot] == Self.empty { used += 1 }
        keys[slot] = key
        counts[slot] = value
    }

    /// The count (or value) of `key`; 0 when absent.
    @inline(__always)
    func value(_ key: UInt32) -> Int32 {
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B1) >> 7) & mask
        while true {
            let stored = keys[slot]
            if stored == key { return counts[slot] }
            if stored == Self.empty { return 0 }
            slot = (slot + 1) & mask
        }
    }

    private mutating func grow() {
        let old = entries()
        keys = Array(repeating: Self.empty, count: keys.count * 2)
        counts = Array(repeating: 0, count: keys.count)
        used = 0
        let mask = keys.count - 1
        for (key, count) in old {
            var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B1) >> 7) & mask
            while keys[slot] != Self.empty { slot = (slot + 1) & mask }
            keys[slot] = key
            counts[slot] = Int32(count)
            used += 1
        }
    }

    func entries() -> [(key: UInt32, count: Int)] {
        var out: [(key: UInt32, count: Int)] = []
        out.reserveCapacity(used)
        for slot in keys.indices where keys[slot] != Self.empty { out.append((keys[slot], Int(counts[slot]))) }
        return out
    }
}
