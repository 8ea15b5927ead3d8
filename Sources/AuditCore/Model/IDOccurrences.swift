import Synchronization

/// For each element with an `id`, how many earlier elements carry the same id (0 for the
/// first). Real dumps repeat ids — every row of a list shares its resource-id — so a
/// finding's identity adds this ordinal to the id when it is not 0 (docs/findings.md).
/// Computed once per snapshot, on first use, by whichever thread asks first.
final class IDOccurrences: Sendable {
    private let ordinals = Mutex<[UInt32]?>(nil)

    func ordinal(of index: Int, in snapshot: Snapshot) -> UInt32 {
        ordinals.withLock { table in
            if table == nil { table = IDOccurrences.count(snapshot) }
            return table.map { index < $0.count ? $0[index] : 0 } ?? 0
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
