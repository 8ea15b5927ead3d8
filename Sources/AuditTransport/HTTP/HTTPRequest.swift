/// One parsed HTTP/1.1 request.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The request target as sent (`/v1/audits?ruleset=ios-default`).
    public var target: String
    public var version: String
    /// Header fields in order; names as sent.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// When the request's first byte and its last byte arrived (monotonic nanoseconds; 0
    /// when not received over a connection).
    public var firstByteAt: UInt64 = 0
    public var lastByteAt: UInt64 = 0
    /// The body's share of the daemon's ``MemoryBudget``, held until the request is done.
    public var memory: MemoryReservation?

    /// The path without the query.
    public var path: String {
        String(target.prefix { $0 != "?" })
    }

    /// Query parameters, percent-decoded (`+` is a space).
    public var query: [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var result: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = HTTPRequest.percentDecode(String(parts[0]))
            result[key] = parts.count > 1 ? HTTPRequest.percentDecode(String(parts[1])) : ""
        }
        return result
    }

    /// The first value of a header, matched case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Whether the connection stays open after this request (HTTP/1.1 default: yes).
    public var keepAlive: Bool {
        let connection = header("Connection")?.lowercased() ?? ""
        if version == "HTTP/1.0" { return connection.contains("keep-alive") }
        return !connection.contains("close")
    }

    /// `%XX` decoded; a `%` not followed by two hex digits stays as it is, and the bytes
    /// after it are read normally (as the WHATWG URL standard does), never swallowed.
    package static func percentDecode(_ text: String) -> String {
        let input = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count)
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x41...0x46: byte - 0x41 + 10
            case 0x61...0x66: byte - 0x61 + 10
            default: nil
            }
        }
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(0x20)
            } else if byte == UInt8(ascii: "%"), index + 2 < input.count,
                let high = hex(input[index + 1]), let low = hex(input[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
                continue
            } else {
                bytes.append(byte)
            }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
