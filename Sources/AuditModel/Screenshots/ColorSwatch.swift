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
    /// The grid step the pixels were sampled at.
    public private(set) var step = 1
    /// For a swatch of one rectangle: the cluster of each sampled cell, row by row
    /// (``columns`` per row), -1 for a colour too rare to cluster (a blend).
    private(set) var cellClusters: [Int16] = []
    private(set) var columns = 0, rows = 0

    /// At most this many pixels are read per patch, on an even grid: the colours of a
    /// patch do not need every pixel, and the cost stays flat however large it is.
    static let maximumSamples = 4096
    /// Only this many distinct colours are clustered; rarer ones are blends and noise.
    static let clusteredColors = 64
    static let mergeDistance = 2.0

    /// The swatch of `rect` (clipped by the caller) in `image`.
    public init(_ image: Screenshot, _ rect: PixelRect) {
        self.init(image, [rect])
    }

    /// The swatch of the pixels of several rectangles together (a ring around an element).
    public init(_ image: Screenshot, _ rects: [PixelRect]) {
        // Clipped again here (callers clip to the usable area already): the samples are
        // read without bounds checks.
        let bounds = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        let rects = rects.map { $0.clipped(to: bounds) }
        let area = rects.reduce(0) { $0 + max(0, $1.area) }
        guard area > 0, image.rgba.count >= image.width * image.height * 4 else { return }
        let step = max(1, Int((Double(area) / Double(Self.maximumSamples)).squareRoot().rounded(.up)))
        self.step = step
        let keepsCells = rects.count == 1
        if keepsCells, let rect = rects.first {
            columns = (rect.width + step - 1) / step
            rows = (rect.height + step - 1) / step
        }
        let samples = Self.sample(image, rects, step: step)
        // Room for every sample's colour at half load: the table never grows, so a slot
        // found now stays the colour's slot.
        var capacity = 64
        while capacity < 2 * samples.count { capacity *= 2 }
        var table = ColorCountTable(capacity: capacity)
        let slots = table.add(samples, keepingSlots: keepsCells)
        let counted = table.entries()
        var colors: [(color: RGBA, count: Int, slot: Int)] = counted.map {
            (RGBA(red: UInt8($0.key >> 16), green: UInt8(($0.key >> 8) & 255), blue: UInt8($0.key & 255)), $0.count, $0.slot)
        }
        total = colors.reduce(0) { $0 + $1.count }
        colors.sort { $0.count > $1.count || ($0.count == $1.count && $0.color.packed < $1.color.packed) }
        var assigned: [(slot: Int, cluster: Int)] = []
        for entry in colors.prefix(Self.clusteredColors) {
            let lab = ColorMath.lab(entry.color)
            if let near = clusters.firstIndex(where: { ColorMath.deltaE94($0.lab, lab) < Self.mergeDistance }) {
                clusters[near].count += entry.count
                assigned.append((entry.slot, near))
            } else {
                clusters.append(Cluster(color: entry.color, count: entry.count, luminance: ColorMath.luminance(entry.color), lab: lab))
                assigned.append((entry.slot, clusters.count - 1))
            }
        }
        let order = clusters.indices.sorted { clusters[$0].count > clusters[$1].count }
        var rank = Array(repeating: 0, count: clusters.count)
        for (position, index) in order.enumerated() { rank[index] = position }
        clusters = order.map { clusters[$0] }
        guard keepsCells else { return }
        var slotCluster = [Int16](repeating: -1, count: capacity)
        for (slot, cluster) in assigned { slotCluster[slot] = Int16(rank[cluster]) }
        cellClusters = slots.map { slotCluster[Int($0)] }
    }

    /// The colours of the pixels on a grid of `step` over `rects` (each inside the image:
    /// read without bounds checks), packed as `0xRRGGBB`, row by row.
    static func sample(_ image: Screenshot, _ rects: [PixelRect], step: Int) -> [UInt32] {
        let count = rects.reduce(0) { $0 + ($1.isEmpty ? 0 : (($1.width + step - 1) / step) * (($1.height + step - 1) / step)) }
        return [UInt32](unsafeUninitializedCapacity: count) { buffer, written in
            image.rgba.withUnsafeBytes { pixels in
                for rect in rects where !rect.isEmpty {
                    var y = rect.y
                    while y < rect.y + rect.height {
                        var offset = (y * image.width + rect.x) * 4
                        var x = 0
                        while x < rect.width {
                            // Bytes R, G, B, A: little-endian, so R is the low byte.
                            let pixel = UInt32(littleEndian: pixels.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                            buffer[written] = (pixel & 0xFF) << 16 | (pixel & 0xFF00) | (pixel >> 16) & 0xFF
                            written += 1
                            offset += 4 * step
                            x += step
                        }
                        y += step
                    }
                }
            }
        }
    }

    /// The share of the sampled pixels in `cluster`.
    public func share(_ cluster: Cluster) -> Double { total > 0 ? Double(cluster.count) / Double(total) : 0 }
}

/// Counts of packed RGB colours: open addressing in one flat table, reused per patch.
struct ColorCountTable {
    private var keys: [UInt32]
    private var counts: [Int32]
    /// The slots in use, in the order their keys came.
    private var used: [Int32] = []
    private static let empty = UInt32.max

    /// `capacity`: a power of two, at least twice the distinct keys that will be added
    /// (the table does not grow).
    init(capacity: Int) {
        keys = Array(repeating: Self.empty, count: capacity)
        counts = Array(repeating: 0, count: capacity)
    }

    /// Counts every key of `keys`; returns each one's slot when `keepingSlots`. Neighbouring
    /// samples are mostly one colour (a background, the inside of a stroke): a key equal to
    /// the one before reuses its slot without hashing or probing.
    mutating func add(_ keys: [UInt32], keepingSlots: Bool) -> [Int32] {
        var used = self.used
        self.used = []
        defer { self.used = used }
        let mask = self.keys.count - 1
        return [Int32](unsafeUninitializedCapacity: keepingSlots ? keys.count : 0) { slots, kept in
            self.keys.withUnsafeMutableBufferPointer { table in
                counts.withUnsafeMutableBufferPointer { counts in
                    // The current run of one key is counted in a register and added when
                    // it ends (adding to memory on every sample waits on the last store).
                    var lastKey = Self.empty, lastSlot = 0
                    var run: Int32 = 0
                    for key in keys {
                        if key != lastKey {
                            if run > 0 { counts[lastSlot] &+= run }
                            run = 0
                            var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B1) >> 7) & mask
                            while table[slot] != key && table[slot] != Self.empty { slot = (slot + 1) & mask }
                            if table[slot] == Self.empty {
                                table[slot] = key
                                used.append(Int32(truncatingIfNeeded: slot))
                            }
                            lastKey = key
                            lastSlot = slot
                        }
                        run &+= 1
                        if keepingSlots {
                            slots[kept] = Int32(truncatingIfNeeded: lastSlot)
                            kept += 1
                        }
                    }
                    if run > 0 { counts[lastSlot] &+= run }
                }
            }
        }
    }

    func entries() -> [(key: UInt32, count: Int, slot: Int)] {
        used.map { slot in (keys[Int(slot)], Int(counts[Int(slot)]), Int(slot)) }
    }
}
