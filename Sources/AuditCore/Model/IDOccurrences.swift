/// For each element with an `id`, how many earlier elements carry the same id (0 for the
/// first). Real dumps repeat ids — every row of a list shares its resource-id — so a
/// finding's identity adds this ordinal to the id when it is not 0 (docs/findings.md).
/// Computed once per snapshot, on first use, by whichever thread asks first; a pthread
/// lock (``Lock``), which ThreadSanitizer sees, guards it.
final class IDOccurrences: @unchecked Sendable {
    private let lock = Lock()
    private var ordinals: [UInt32]?

    func ordinal(of index: Int, in snapshot: Snapshot) -> UInt32 {
        lock.withLock {
            if ordinals == nil { ordinals = IDOccurrences.count(snapshot) }
            guard let ordinals, index < ordinals.count else { return 0 }
            return ordinals[index]
        }
    }

    /// One pass in document order, ids compared by their bytes.
    private static func count(_ snapshot: Snapshot) -> [UInt32] {
        var result = [UInt32](repeating: 0, count: snapshot.elements.count)
        var seen: [ArraySlice<UInt8>: UInt32] = [:]
        for index in snapshot.elements.indices where snapshot.elements[index].hasID {
            snapshot.texts.withBytes(snapshot.elements[index].id) { id in
                let earlier = seen[id, default: 0]
                result[index] = earlier
                seen[id] = earlier + 1
            }
        }
        return result
    }
}
