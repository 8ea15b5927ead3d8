/// The registered front ends, tried in order on a document's first bytes.
enum SnapshotSyntaxes {
    static let all: [any SnapshotSyntax.Type] = [
        XMLSyntax.self,
        SemanticsDumpSyntax.self,
    ]

    static func recognising(_ bytes: UnsafeRawBufferPointer) -> (any SnapshotSyntax.Type)? {
        all.first { $0.recognises(bytes) }
    }
}
