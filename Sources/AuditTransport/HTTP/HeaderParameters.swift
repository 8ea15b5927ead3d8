import AuditSupport

/// A header value with parameters (`form-data; name="a;b"; filename="x.png"`, RFC 9110
/// §5.6.6): the first token, then `key=value` pairs with keys lower-cased and quoted
/// strings unquoted (`\"` and `\\` unescaped). A `;` inside quotes is part of the value.
package enum HeaderParameters {
    package static func split(_ value: String) throws(MultipartFormData.Failure) -> (String, [(String, String)]) {
        var pieces: [String] = []
        var current = ""
        var quoted = false, escaped = false
        for character in value {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted && character == "\\" {
                current.append(character)
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
                current.append(character)
            } else if character == ";" && !quoted {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        guard !quoted else { throw MultipartFormData.Failure(message: "a quoted parameter is not closed in \"\(value.prefix(80))\"") }
        pieces.append(current)
        let type = pieces[0].trimming(.spacesAndTabs)
        var parameters: [(String, String)] = []
        for piece in pieces.dropFirst() {
            let trimmed = piece.trimming(.spacesAndTabs)
            guard !trimmed.isEmpty else { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw MultipartFormData.Failure(message: "the parameter \"\(trimmed.prefix(40))\" has no value")
            }
            let key = trimmed[..<equals].trimming(.spacesAndTabs).lowercased()
            var text = trimmed[trimmed.index(after: equals)...].trimming(.spacesAndTabs)
            if text.hasPrefix("\"") {
                guard text.count >= 2, text.hasSuffix("\"") else {
                    throw MultipartFormData.Failure(message: "the parameter \(key) has text after its closing quote")
                }
                text = unquote(String(text.dropFirst().dropLast()))
            }
            parameters.append((key, text))
        }
        return (type, parameters)
    }

    package static func unquote(_ text: String) -> String {
        var out = ""
        var escaped = false
        for character in text {
            if escaped {
                out.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        return out
    }
}
