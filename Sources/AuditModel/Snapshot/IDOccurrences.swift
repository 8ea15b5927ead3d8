/// For each element with an `id`, how many earlier elements carry the same id (0 for the
/// first). Real dumps repeat ids — every row of a list shares its resource-id — so a
/// finding's identity adds this ordinal to the id when it is not 0 (docs/findings.md).
/// Computed once per snapshot, on first use, by whichever thread asks first; a pthread
/// lock (``Lock``), which ThreadSanitizer sees, guards it.
package final class IDOccurrences: @unchecked Sendable {
    private let lock = Lock()
    private var ordinals: [UInt32]?

    package func ordinal(of index: Int, in snapshot: Snapshot) -> UInt32 {
        lock.withLock {
            if ordinals == nil { ordinals = IDOccurrences.count(snapshot) }
            guard let ordinals, index < ordinals.count else { return 0 }
            return ordinals[index]
        }
    }

    /// One pass in document order. Ids are keyed by their FNV-1a hash (hashing each id's
    /// bytes with the standard library's seeded hasher was 9% of a 100,000-element audit)
    /// and confirmed by their bytes against the first id of that hash; ids whose hash
    /// collides with another's are counted by their bytes instead.
    static func count(_ snapshot: Snapshot) -> [UInt32] {
        var result = [UInt32](repeating: 0, count: snapshot.elements.count)
        var seen: [UInt64: (first: Int, count: UInt32)] = [:]
        var collided: [ArraySlice<UInt8>: UInt32] = [:]
        let texts = snapshot.texts
        for index in snapshot.elements.indices where snapshot.elements[index].hasID {
            let id = snapshot.elements[index].id
            let hash = texts.withBytes(id) { bytes in
                var hash = FNV1a()
                hash.add(bytes)
                return hash.value
            }
            guard let entry = seen[hash] else {
                seen[hash] = (index, 1)
                continue
            }
            let same = texts.withBytes(id) { bytes in texts.withBytes(snapshot.elements[entry.first].id) { bytes.elementsEqual($0) } }
            if same {
                result[index] = entry.count
                seen[hash] = (entry.first, entry.count + 1)
            } else {
                texts.withBytes(id) { bytes in
                    let earlier = collided[bytes, default: 0]
                    result[index] = earlier
                    collided[bytes] = earlier + 1
                }
            }
        }
        return result
    }
}
