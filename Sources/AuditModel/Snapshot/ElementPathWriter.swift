import AuditSupport

/// Writes the paths (``Snapshot/path(of:)``) of one snapshot's elements one after another,
/// reusing the bytes of the ancestors a path shares with the one before: a report's
/// findings come in document order, so each shares most of its path with the previous one
/// (the same element's other findings, its siblings, its cousins). A path is then a copy of
/// the kept bytes and the few steps that differ, where writing it step by step cost as
/// much as the rest of a finding on deep screens (a path 200 steps deep is 2 KB).
/// Ancestors are collected by a loop, not by recursion: nesting can be 100,000 deep. A path
/// needs no JSON escaping: XML names hold no quotes, backslashes or control characters.
package struct ElementPathWriter {
    /// The snapshot the kept path is of (held, so no other can take its place unnoticed).
    private var snapshot: Snapshot?
    /// The last path's elements, root first, and where each one's step ends in `bytes`.
    private var chain: [Int32] = []
    private var ends: [Int] = []
    /// The last path's bytes.
    private var bytes: [UInt8] = []
    /// How long the path's root (`/snapshot`, `/hierarchy`) is.
    private var rootLength = 0
    /// Element `index`'s chain, leaf first (reused between calls).
    private var scratch: [Int32] = []

    package init() {}

    /// Writes the path of element `index` of `snapshot` to `out`.
    package mutating func write<Sink: ByteSink>(pathOf index: Int, in snapshot: Snapshot, to out: inout Sink) {
        if self.snapshot !== snapshot {
            self.snapshot = snapshot
            chain.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
            bytes.removeAll(keepingCapacity: true)
            bytes.write(snapshot.pathRoot)
            rootLength = bytes.count
        }
        scratch.removeAll(keepingCapacity: true)
        var current = Int32(truncatingIfNeeded: index)
        while current >= 0 {
            scratch.append(current)
            current = snapshot.elements[Int(current)].parent
        }
        // The steps shared with the last path, from the root.
        let depth = scratch.count
        var shared = 0
        while shared < chain.count, shared < depth, chain[shared] == scratch[depth - 1 - shared] { shared += 1 }
        chain.removeLast(chain.count - shared)
        ends.removeLast(ends.count - shared)
        bytes.removeLast(bytes.count - (shared > 0 ? ends[shared - 1] : rootLength))
        for position in stride(from: depth - 1 - shared, through: 0, by: -1) {
            let step = scratch[position]
            snapshot.appendPathStep(of: Int(step), to: &bytes)
            chain.append(step)
            ends.append(bytes.count)
        }
        out.write(contentsOf: bytes)
    }
}
