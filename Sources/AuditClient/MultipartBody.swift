/// A `multipart/form-data` body (RFC 7578) for `POST /v1/audits`: a snapshot part and an
/// optional screenshot part. The boundary is chosen so that it occurs in no part.
public struct MultipartBody {
    public struct Part {
        public var name: String
        public var filename: String
        public var contentType: String
        public var bytes: [UInt8]

        public init(name: String, filename: String, contentType: String, bytes: [UInt8]) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.bytes = bytes
        }
    }

    public let bytes: [UInt8]
    /// The request's Content-Type, with the boundary.
    public let contentType: String

    public init(parts: [Part]) {
        var counter = 0
        var boundary = "auditctl-boundary-0"
        while parts.contains(where: { Self.contains($0.bytes, Array(boundary.utf8)) }) {
            counter += 1
            boundary = "auditctl-boundary-\(counter)-\(UInt64.random(in: 0...UInt64.max))"
        }
        var out: [UInt8] = []
        out.reserveCapacity(parts.reduce(0) { $0 + $1.bytes.count + 256 })
        for part in parts {
            // Quotes and line breaks cannot be written in a quoted file name: replaced.
            let filename = String(part.filename.map { $0 == "\"" || $0 == "\r" || $0 == "\n" ? "_" : $0 })
            out += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"; filename=\"\(filename)\"\r\nContent-Type: \(part.contentType)\r\n\r\n".utf8)
            out += part.bytes
            out += Array("\r\n".utf8)
        }
        out += Array("--\(boundary)--\r\n".utf8)
        bytes = out
        contentType = "multipart/form-data; boundary=\(boundary)"
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count, let first = needle.first else { return false }
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
