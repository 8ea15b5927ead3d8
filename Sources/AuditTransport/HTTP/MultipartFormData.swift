import AuditSupport
#if canImport(Glibc)
import Glibc
#endif

/// `multipart/form-data` bodies (RFC 7578 over RFC 2046's multipart syntax): the parts of
/// a form, each with its name, file name, Content-Type and bytes. Strict and bounded:
/// every part needs `Content-Disposition: form-data; name="…"`, the delimiters must be
/// exact, and the number of parts and the size of their headers are capped.
public struct MultipartFormData: Sendable {
    public struct Part: Sendable {
        public var name: String
        public var filename: String?
        public var contentType: String?
        public var body: ArraySlice<UInt8>
    }

    public struct Failure: Error, Sendable {
        public let message: String
    }

    public static let maximumParts = 8
    public static let maximumPartHeaderBytes = 8 * 1024

    public let parts: [Part]

    /// The boundary of a `Content-Type: multipart/form-data; boundary=…` value; `nil`
    /// when the type is another.
    public static func boundary(contentType: String) throws(Failure) -> String? {
        let (type, parameters) = try HeaderParameters.split(contentType)
        guard type.lowercased() == "multipart/form-data" else { return nil }
        for (key, value) in parameters where key == "boundary" {
            // RFC 2046 §5.1.1: 1 to 70 characters.
            guard (1...70).contains(value.utf8.count), !value.utf8.contains(where: { $0 < 0x20 || $0 > 0x7E }) else {
                throw Failure(message: "the multipart boundary must be 1 to 70 printable characters")
            }
            return value
        }
        throw Failure(message: "multipart/form-data without a boundary parameter")
    }

    public init(body: [UInt8], boundary: String) throws(Failure) {
        let delimiter = Array(("--" + boundary).utf8)
        let crlf: [UInt8] = [13, 10]
        // The first delimiter may follow a preamble; each later one follows a CRLF.
        guard let first = Self.find(delimiter, in: body, from: 0), first == 0 || body[..<first].suffix(2).elementsEqual(crlf) else {
            throw Failure(message: "the body does not start with the boundary \"--\(boundary)\"")
        }
        var parts: [Part] = []
        var position = first + delimiter.count
        while true {
            // After a delimiter: "--" ends the body; otherwise optional white space, then CRLF.
            if body[position...].starts(with: [45, 45]) { break }
            while position < body.count, body[position] == 32 || body[position] == 9 { position += 1 }
            guard body[position...].starts(with: crlf) else { throw Failure(message: "a multipart delimiter is not followed by CRLF") }
            position += 2
            guard parts.count < Self.maximumParts else { throw Failure(message: "more than \(Self.maximumParts) parts") }
            guard !body[position...].starts(with: crlf) else {
                throw Failure(message: "a part has no header; it needs Content-Disposition: form-data; name=\"…\"")
            }
            guard let headerEnd = Self.find([13, 10, 13, 10], in: body, from: position, limit: Self.maximumPartHeaderBytes + 4) else {
                throw Failure(message: "a part's header is unterminated or over \(Self.maximumPartHeaderBytes) bytes")
            }
            let headerText = String(decoding: body[position..<headerEnd], as: UTF8.self)
            let contentStart = headerEnd + 4
            guard let next = Self.find(crlf + delimiter, in: body, from: contentStart - 2) else {
                throw Failure(message: "the body ends before the closing boundary \"--\(boundary)--\"")
            }
            parts.append(try Self.part(headers: headerText, body: body[contentStart..<max(contentStart, next)]))
            position = next + 2 + delimiter.count
            guard position <= body.count else { throw Failure(message: "the body ends inside a delimiter") }
        }
        self.parts = parts
    }

    /// The part named `name`.
    public func part(_ name: String) -> Part? { parts.first { $0.name == name } }

    package static func part(headers: String, body: ArraySlice<UInt8>) throws(Failure) -> Part {
        var name: String?, filename: String?, contentType: String?
        var disposition = false
        for line in headers.split(separator: "\r\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":") else { throw Failure(message: "a part's header line has no colon: \"\(line.prefix(60))\"") }
            let field = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimming(.spacesAndTabs)
            switch field {
            case "content-disposition":
                // A second one would say another name: which one is meant is a guess.
                guard !disposition else { throw Failure(message: "a part has two Content-Disposition fields") }
                disposition = true
                let (type, parameters) = try HeaderParameters.split(value)
                guard type.lowercased() == "form-data" else {
                    throw Failure(message: "a part's Content-Disposition is not form-data")
                }
                for (key, text) in parameters {
                    switch key {
                    case "name":
                        guard name == nil else { throw Failure(message: "a part's Content-Disposition names it twice") }
                        name = text
                    case "filename": filename = text
                    default: break
                    }
                }
            case "content-type":
                guard contentType == nil else { throw Failure(message: "a part has two Content-Type fields") }
                contentType = value
            default: break
            }
        }
        guard let name, !name.isEmpty else { throw Failure(message: "a part has no Content-Disposition: form-data; name=\"…\"") }
        return Part(name: name, filename: filename, contentType: contentType, body: body)
    }

    /// The first index of `needle` in `haystack` at or after `from` (and, with `limit`,
    /// starting before `from + limit`).
    package static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int, limit: Int = .max) -> Int? {
        guard !needle.isEmpty, from >= 0, haystack.count >= needle.count else { return nil }
        let last = min(haystack.count - needle.count, from > Int.max - limit ? Int.max : from + limit)
        guard from <= last else { return nil }
        return haystack.withUnsafeBufferPointer { bytes -> Int? in
            guard let base = bytes.baseAddress else { return nil }
            var start = from
            while start <= last {
                guard let hit = memchr(base + start, Int32(needle[0]), last - start + 1) else { return nil }
                let index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if memcmp(base + index, needle, needle.count) == 0 { return index }
                start = index + 1
            }
            return nil
        }
    }
}
