import AuditSupport

/// What identifies each element of a snapshot across builds, for fingerprints (version 4):
/// the ids that are unique on the screen, and among siblings which elements repeat one
/// another (the same role and id: the rows of a list) and how each of those is told apart
/// from the others — so that an edit of one row moves that row's findings and no other's
/// (docs/findings.md, "What moves a fingerprint").
///
/// A repeated sibling is known by the first text it shows ("Running shoes"), looking into no
/// list inside it (a section is not known by its first row); else by its label; else by its
/// place among the siblings of its role and id counted from the last. Several showing the
/// same text are numbered among themselves. Counting from the last keeps a row inserted at
/// the top, a text taken away or a label added from renumbering any other row.
///
/// Computed once per snapshot, when a report needs it; a class, so that handing it to each
/// finding's fingerprint is one reference, not several arrays.
final class ElementIdentity: Sendable {
    /// How many elements of the screen carry each element's id (0 without one).
    let idCount: [UInt32]
    /// A sibling has the same role and id.
    let repeated: [Bool]
    /// For repeated siblings, the text each shows (``content(of:in:holdsList:reading:limit:)``),
    /// found once; for those showing none, their label if they have one.
    let shown: [TextRef]
    /// Among repeated siblings showing the same text (or label), how many came before
    /// (0-based): two rows both showing "Sold out" stay two.
    let sameContentOrdinal: [UInt32]
    /// Repeated siblings showing neither text nor label: their place among the siblings of
    /// their role and id counted from the last (1-based); 0 for the others.
    let fromLast: [UInt32]

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
        var shown = [TextRef](repeating: .absent, count: elements.count)
        var sameContentOrdinal = [UInt32](repeating: 0, count: elements.count)
        var fromLast = [UInt32](repeating: 0, count: elements.count)
        // Siblings keyed by role and id: one pass over each parent's children, counted in
        // one table emptied between parents. First which siblings repeat one another, and
        // which elements hold a list (repeated children with children of their own); then
        // what each repeated sibling shows, which looks into no list.
        var keys: [(child: Int, key: FNV1a)] = []
        var showsText: [Bool] = []
        var sameShown: [UInt64: UInt32] = [:]
        var below: [UInt64: UInt32] = [:]
        var siblings = HashCounts(expected: 16)
        var holdsList = [Bool](repeating: false, count: elements.count)
        var withRepeated: [Int] = []
        func keyChildren(_ children: some Sequence<Int>) {
            keys.removeAll(keepingCapacity: true)
            for child in children {
                var hash = FNV1a()
                hash.add(elements[child].role.name)
                hash.add(0x1F)
                if elements[child].hasID { texts.withBytes(elements[child].id) { hash.add($0) } }
                keys.append((child, hash))
            }
        }
        func findRepeated(_ children: some Sequence<Int>, parent: Int) {
            keyChildren(children)
            guard keys.count > 1 else { return }
            siblings.reset(expected: keys.count)
            var anyRepeated = false
            for (child, key) in keys {
                let (before, first) = siblings.add(key.value, index: Int32(truncatingIfNeeded: child))
                guard before > 0 else { continue }
                repeated[Int(first)] = true
                repeated[child] = true
                anyRepeated = true
                if parent >= 0, elements[child].firstChild >= 0 || elements[Int(first)].firstChild >= 0 { holdsList[parent] = true }
            }
            if anyRepeated { withRepeated.append(parent) }
        }
        func identify(_ children: some Sequence<Int>) {
            keyChildren(children)
            // What each sibling shows, and how many earlier siblings show the same.
            sameShown.removeAll(keepingCapacity: true)
            showsText.removeAll(keepingCapacity: true)
            var anyTextless = false
            for (child, _) in keys {
                guard repeated[child],
                    let text = ElementIdentity.content(of: child, in: snapshot, holdsList: holdsList)
                else {
                    showsText.append(false)
                    anyTextless = anyTextless || repeated[child]
                    continue
                }
                var hash = FNV1a()
                texts.withBytes(text) { hash.add($0.prefix(128)) }
                let earlier = sameShown[hash.value, default: 0]
                sameShown[hash.value] = earlier + 1
                showsText.append(true)
                shown[child] = text
                sameContentOrdinal[child] = earlier
            }
            guard anyTextless else { return }
            // Textless repeated siblings: their place among the siblings of their role and
            // id, text or not, counted from the last — a row inserted at the top, and one
            // above taken away, renumber none; a text taken away or a label added renumbers
            // none. A section holding a list is counted apart from the rows beside it.
            below.removeAll(keepingCapacity: true)
            for position in stride(from: keys.count - 1, through: 0, by: -1) {
                let (child, kind) = keys[position]
                guard repeated[child] else { continue }
                var key = kind
                if holdsList[child] { key.add(0x1E) }
                let count = below[key.value, default: 0] + 1
                below[key.value] = count
                guard !showsText[position] else { continue }
                // One showing no text but labelled is known by its label.
                if let label = ElementIdentity.content(of: child, in: snapshot, holdsList: holdsList, reading: \.label) {
                    var hash = FNV1a()
                    hash.add(0x1D)
                    texts.withBytes(label) { hash.add($0.prefix(128)) }
                    let earlier = sameShown[hash.value, default: 0]
                    sameShown[hash.value] = earlier + 1
                    shown[child] = label
                    sameContentOrdinal[child] = earlier
                    continue
                }
                fromLast[child] = count
            }
        }
        findRepeated(snapshot.roots, parent: -1)
        // A single child repeats no sibling: nothing to group.
        for parent in elements.indices where elements[parent].firstChild >= 0 && elements[Int(elements[parent].firstChild)].nextSibling >= 0 {
            findRepeated(snapshot.childIndices(of: parent), parent: parent)
        }
        for parent in withRepeated {
            if parent < 0 { identify(snapshot.roots) } else { identify(snapshot.childIndices(of: parent)) }
        }
        self.idCount = idCount
        self.repeated = repeated
        self.shown = shown
        self.sameContentOrdinal = sameContentOrdinal
        self.fromLast = fromLast
    }

    /// The first visible text inside `index` (itself first), in document order, looking at
    /// no more than `limit` elements and into no list (an element in `holdsList`, whose
    /// children repeat one another and hold more): what a row shows ("Running shoes"),
    /// which a fix of its accessibility does not change — and not the first row of a list
    /// inside it, which would make every element of a section move with that row.
    static func content(
        of index: Int, in snapshot: Snapshot, holdsList: [Bool], reading field: KeyPath<Element, TextRef> = \.text, limit: Int = 64
    ) -> TextRef? {
        let elements = snapshot.elements
        var stack = [index]
        var looked = 0
        while let next = stack.popLast(), looked < limit {
            looked += 1
            if !snapshot.texts.isBlank(elements[next][keyPath: field]) { return elements[next][keyPath: field] }
            guard !holdsList[next] else { continue }
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
