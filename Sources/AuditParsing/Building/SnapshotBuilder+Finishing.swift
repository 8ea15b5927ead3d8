import Foundation

extension SnapshotBuilder {
    /// The snapshot, once the document is read: the dialect's last steps (Android pixels to
    /// points), covered content marked, animations grouped by owner, the facts derived from
    /// ancestors; or the first error met.
    func finish() throws(SnapshotError) -> Snapshot {
        if let error { throw error }
        guard let decoder else {
            throw SnapshotError(
                code: .empty, message: "the snapshot has no root element", line: 1, column: 1,
                hint: "send an XML document whose root is <snapshot version=\"1\">")
        }
        decoder.finish(self)
        let covered = CoveredContent.mark(
            &elements, screenWidth: width ?? roots.compactMap { elements[$0].frame?.width }.max(),
            screenHeight: height ?? roots.compactMap { elements[$0].frame?.height }.max())
        if covered > 0 {
            notes.append("\(covered) elements are covered by a full-screen page drawn above them (an app drawer, the next page, a modal sheet): left out")
        }
        // Animations appear in document order of their tags; group them by owner.
        animations.sort { ($0.element, $0.line) < ($1.element, $1.line) }
        var start = 0
        while start < animations.count {
            let owner = animations[start].element
            var end = start
            while end < animations.count, animations[end].element == owner { end += 1 }
            elements[owner].animationStart = Int32(start)
            elements[owner].animationCount = Int32(end - start)
            start = end
        }
        DerivedFacts.compute(&elements, inheritsVisibility: decoder.inheritsVisibility, inheritsEnabled: decoder.inheritsEnabled)
        return Snapshot(
            version: version ?? 1, dialect: decoder.dialect, capabilities: decoder.capabilities.union(learned),
            pathRoot: decoder.pathRoot, platform: platform ?? .other, app: app, build: build,
            screen: screen, width: width, height: height, scale: scale, settings: settings,
            elements: elements, animations: animations, invalidValues: invalid, texts: texts,
            roots: roots, notes: notes, scaleBasis: scaleBasis)
    }

    /// Marks the cells whose parent is a table (`…Table` type name) as table cells.
    func markTableCells() {
        for index in elements.indices where elements[index].role == .cell {
            let parent = Int(elements[index].parent)
            guard parent >= 0, let type = texts.string(elements[parent].typeName), type.hasSuffix("Table") else { continue }
            elements[index].tableCell = true
        }
    }
}
