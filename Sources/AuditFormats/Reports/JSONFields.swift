import AuditCore

/// The members of one JSON object, read by name with their types checked: a missing or
/// mistyped member throws an ``AnswerDecodingError`` that says where, never a silent default.
/// `null` and an absent member are the same to the optional readers.
package struct JSONFields {
    package let members: [(String, JSON)]
    /// Where this object is in the answer (`findings[3]`), for errors.
    package let path: String

    package init(_ value: JSON, at path: String) throws(AnswerDecodingError) {
        guard case .object(let members) = value else { throw AnswerDecodingError(path: path, problem: "is not an object") }
        self.members = members
        self.path = path
    }

    private func place(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    private func mistyped(_ key: String, _ expected: String) -> AnswerDecodingError {
        AnswerDecodingError(path: place(key), problem: "is not \(expected)")
    }

    /// The member's value; `nil` when absent or `null`.
    package func value(_ key: String) -> JSON? {
        guard let found = members.first(where: { $0.0 == key })?.1 else { return nil }
        if case .null = found { return nil }
        return found
    }

    package func required(_ key: String) throws(AnswerDecodingError) -> JSON {
        guard let found = value(key) else { throw AnswerDecodingError(path: place(key), problem: "is missing") }
        return found
    }

    package func string(_ key: String) throws(AnswerDecodingError) -> String {
        guard let text = try required(key).stringValue else { throw mistyped(key, "a string") }
        return text
    }

    package func optionalString(_ key: String) throws(AnswerDecodingError) -> String? {
        guard let found = value(key) else { return nil }
        guard let text = found.stringValue else { throw mistyped(key, "a string") }
        return text
    }

    package func int(_ key: String) throws(AnswerDecodingError) -> Int {
        guard let number = try required(key).intValue else { throw mistyped(key, "an integer") }
        return number
    }

    package func optionalInt(_ key: String) throws(AnswerDecodingError) -> Int? {
        guard let found = value(key) else { return nil }
        guard let number = found.intValue else { throw mistyped(key, "an integer") }
        return number
    }

    package func double(_ key: String) throws(AnswerDecodingError) -> Double {
        guard let number = try required(key).doubleValue else { throw mistyped(key, "a number") }
        return number
    }

    package func object(_ key: String) throws(AnswerDecodingError) -> JSONFields {
        try JSONFields(required(key), at: place(key))
    }

    package func array(_ key: String) throws(AnswerDecodingError) -> [JSON] {
        guard let items = try required(key).arrayValue else { throw mistyped(key, "an array") }
        return items
    }

    /// An array of strings; absent reads as empty when `optional`.
    package func strings(_ key: String, optional: Bool = false) throws(AnswerDecodingError) -> [String] {
        if optional, value(key) == nil { return [] }
        var out: [String] = []
        for (index, item) in try array(key).enumerated() {
            guard let text = item.stringValue else {
                throw AnswerDecodingError(path: place(key) + "[\(index)]", problem: "is not a string")
            }
            out.append(text)
        }
        return out
    }

    /// Each object of an array member, decoded by `decode` with its place.
    package func objects<Item>(_ key: String, _ decode: (JSONFields) throws(AnswerDecodingError) -> Item) throws(AnswerDecodingError) -> [Item] {
        var out: [Item] = []
        for (index, item) in try array(key).enumerated() {
            out.append(try decode(JSONFields(item, at: place(key) + "[\(index)]")))
        }
        return out
    }

    package func severity(_ key: String) throws(AnswerDecodingError) -> Severity {
        let text = try string(key)
        guard let severity = Severity(rawValue: text) else {
            throw AnswerDecodingError(path: place(key), problem: "is \"\(text)\", not one of error, warning, notice")
        }
        return severity
    }
}
