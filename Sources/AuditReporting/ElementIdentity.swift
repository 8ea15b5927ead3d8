import AuditSupport

/// What identifies each element of a snapshot across builds, for fingerprints (version 3):
/// the ids that are unique on the screen, and among siblings which elements repeat one
/// another (the same role and id: the rows of a list) — those are told apart by their
/// content, not by their place, so a row inserted above does not re-key every row below.
/// Computed once per snapshot, when a report needs it; a class, so that handing it to each
/// finding's fingerprint is one reference, not five arrays.
final class ElementIdentity: Sendable {
    /// How many elements of the screen carry each element's id (0 without one).
    let idCount: [UInt32]
    /// A sibling has the same role and id.
    let repeated: [Bool]
    /// Position among the siblings of the same role and id (0-based), for those with no
    /// text to tell them apart.
    let ordinal: [UInt32]
    /// For repeated siblings, the text each shows (``content(of:in:limit:)``), found once.
    let shown: [TextRef]
    /// Among repeated siblings showing the same text, how many came before (0-based): two
    /// rows both showing "Sold out" stay two.
    let sameContentOrdinal: [UInt32]

    /// The key its snapshot's memo keeps it under.
    static let memoKey = "element-identity"

    static func of(_ snapshot: Snapshot) -> ElementIdentity {
        snapshot.memo.value(memoKey) { ElementIdentity(snapshot) }
    }

    init(_ snapshot: Snapshot) {
        let elements = snapshot.elements
        let texts = snapshot.texts
        // Each id hashed once and counted in a table sized once.
        var idHashes = [UInt64](repeating: 0, count: elements.count)
        var withID: [Int32] = []
        for index in elements.indices where elements[index].hasID {
            var hash = FNV1a()
            texts.withBytes(elements[index].id) { hash.add($0) }
            idHashes[index] = hash.value
            withID.append(Int32(truncatingIfNeeded: index))
        }
        var counts = HashCounts(expected: withID.count)
        for index in withID { _ = counts.add(idHashes[Int(index)], index: index) }
        var idCount = [UInt32](repeating: 0, count: elements.count)
        for index in withID { idCount[Int(index)] = counts.count(of: idHashes[Int(index)]) }
        var repeated = [Bool](repeating: false, count: elements.count)
        var ordinal = [UInt32](repeating: 0, count: elements.count)
        var shown = [TextRef](repeating: .absent, count: elements.count)
        var sameContentOrdinal = [UInt32](repeating: 0, count: elements.count)
        // Siblings keyed by role and id: one pass over each parent's children, counted in
        // one table emptied between parents.
        var keys: [(child: Int, key: FNV1a)] = []
        var sameShown: [UInt64: UInt32] = [:]
        var siblings = HashCounts(expected: 16)
        func group(_ children: some Sequence<Int>) {
            keys.removeAll(keepingCapacity: true)
            for child in children {
                var hash = FNV1a()
                hash.add(elements[child].role.name)
                hash.add(0x1F)
                if elements[child].hasID { texts.withBytes(elements[child].id) { hash.add($0) } }
                keys.append((child, hash))
            }
            guard keys.count > 1 else { return }
            siblings.reset(expected: keys.count)
            for (child, key) in keys {
                let (before, first) = siblings.add(key.value, index: Int32(truncatingIfNeeded: child))
                guard before > 0 else { continue }
                repeated[Int(first)] = true
                repeated[child] = true
                ordinal[child] = before
            }
            // Repeated siblings that show the same text: numbered among themselves.
            // The key's hash goes on with the text: one pass over the bytes of each.
            sameShown.removeAll(keepingCapacity: true)
            for (child, key) in keys where repeated[child] {
                var hash = key
                hash.add(0x1F)
                if let text = ElementIdentity.content(of: child, in: snapshot) {
                    shown[child] = text
                    texts.withBytes(text) { hash.add($0.prefix(128)) }
                }
                let earlier = sameShown[hash.value, default: 0]
                sameContentOrdinal[child] = earlier
                sameShown[hash.value] = earlier + 1
            }
        }
        group(snapshot.roots)
        // A single child repeats no sibling: nothing to group.
        for parent in elements.indices where elements[parent].firstChild >= 0 && elements[Int(elements[parent].firstChild)].nextSibling >= 0 {
            group(snapshot.childIndices(of: parent))
        }
        self.idCount = idCount
        self.repeated = repeated
        self.ordinal = ordinal
        self.shown = shown
        self.sameContentOrdinal = sameContentOrdinal
    }

    /// The first visible text inside `index` (itself first), in document order, looking at
    /// no more than `limit` elements: what a row shows ("Running shoes"), which a fix of its
    /// accessibility does not change.
    static func content(of index: Int, in snapshot: Snapshot, limit: Int = 64) -> TextRef? {
        let elements = snapshot.elements
        var stack = [index]
        var looked = 0
        while let next = stack.popLast(), looked < limit {
            looked += 1
            if !snapshot.texts.isBlank(elements[next].text) { return elements[next].text }
            // Children pushed last-first, so the first child is looked at next.
            var children: [Int] = []
            var child = Int(elements[next].firstChild)
            while child >= 0, children.count < limit {
                children.append(child)
                child = Int(elements[child].nextSibling)
            }
            stack.append(contentsOf: children.reversed())
        }
        return nil
    }
}
