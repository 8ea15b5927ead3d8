/// The registered dialects, tried in order on a document's root element.
package enum SnapshotDialects {
    static let all: [any SnapshotDialect.Type] = [
        NativeDialect.self,
        AppiumXCUITestDialect.self,
        UiautomatorDialect.self,
        FlutterSemanticsDialect.self,
    ]

    /// Every file extension a registered dialect's captures are saved with (`xml`).
    package static var fileExtensions: [String] {
        var found: [String] = []
        for dialect in all {
            for fileExtension in dialect.fileExtensions where !found.contains(fileExtension) { found.append(fileExtension) }
        }
        return found
    }

    /// The media type to send a capture saved as `path` with: its dialects' first.
    package static func contentType(forFile path: String) -> String {
        let lower = path.lowercased()
        let owner = all.first { dialect in dialect.fileExtensions.contains { lower.hasSuffix("." + $0) } }
        return owner?.contentTypes.first ?? "application/xml"
    }

    /// `path` without the capture extension it ends with (`login.xml` → `login`).
    package static func baseName(of path: String) -> String {
        let lower = path.lowercased()
        for fileExtension in fileExtensions where lower.hasSuffix("." + fileExtension) {
            return String(path.dropLast(fileExtension.count + 1))
        }
        return path
    }

    /// The dialect registered as `dialect`.
    static func named(_ dialect: Dialect) -> (any SnapshotDialect.Type)? {
        all.first { $0.dialect == dialect }
    }

    /// Whether `dialect` counts an XML element named `name` at `depth` (0: the root) as
    /// one of the snapshot's elements — what another reading of the same document (the
    /// XPath rules' DOM) must agree with. `nil` for an unknown dialect.
    package static func countsElement(named name: String, depth: Int, in dialect: Dialect) -> Bool? {
        guard let decoder = named(dialect) else { return nil }
        if depth == 0 {
            if case .element? = decoder.root(named: name) { return true }
            return false
        }
        return decoder.kind(ofElementNamed: name) == .element
    }
}
