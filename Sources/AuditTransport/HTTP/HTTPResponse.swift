import AuditSupport

/// An HTTP/1.1 response, serialised with Content-Length (or as the head of a chunked
/// stream).
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// More of the body, sent after `body` piece by piece and never joined (a large
    /// report's runs of findings, ``RenderedReport/pieces``).
    public var bodyRest: [[UInt8]] = []

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A body in pieces, sent in order: the first as `body`, the others after it.
    public init(status: Int, headers: [(String, String)] = [], pieces: [[UInt8]]) {
        self.init(status: status, headers: headers, body: pieces.first ?? [])
        bodyRest = Array(pieces.dropFirst())
    }

    /// The body's length: `body` and its rest.
    public var bodyCount: Int { bodyRest.reduce(body.count) { $0 + $1.count } }

    /// A JSON body.
    public static func json(_ status: Int, _ value: JSON, extraHeaders: [(String, String)] = []) -> HTTPResponse {
        var body = value.bytes
        body.append(0x0A)
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + extraHeaders, body: body)
    }

    /// The error shape (docs/API.md): `{"error": {"code", "message", "line", "column"}}`.
    public static func error(
        _ status: Int, code: String, message: String, line: Int? = nil, column: Int? = nil,
        hint: String? = nil, extraHeaders: [(String, String)] = []
    ) -> HTTPResponse {
        var fields: [(String, JSON)] = [("code", .string(code)), ("message", .string(message))]
        if let line { fields.append(("line", .int(line))) }
        if let column { fields.append(("column", .int(column))) }
        if let hint, !hint.isEmpty { fields.append(("hint", .string(hint))) }
        return .json(status, .object([("error", .object(fields))]), extraHeaders: extraHeaders)
    }

    public static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }

    /// The bytes on the wire.
    public func serialized(keepAlive: Bool) -> [UInt8] { head(keepAlive: keepAlive) + body + bodyRest.joined() }

    /// The status line and headers, with Content-Length; the body follows.
    public func head(keepAlive: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(HTTPResponse.reason(status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(bodyCount)\r\n"
        if !keepAlive { head += "Connection: close\r\n" }
        head += "\r\n"
        return Array(head.utf8)
    }

    /// The head of a chunked response (its body follows as chunks).
    public func chunkedHead(closing: Bool = false) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(HTTPResponse.reason(status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Transfer-Encoding: chunked\r\n"
        if closing { head += "Connection: close\r\n" }
        head += "\r\n"
        return Array(head.utf8)
    }

    /// The head of a body that ends when the connection closes (for HTTP/1.0 clients,
    /// which cannot read chunked bodies).
    public func closeDelimitedHead() -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(HTTPResponse.reason(status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Connection: close\r\n\r\n"
        return Array(head.utf8)
    }

    /// One chunk of a chunked body (an empty one ends the body).
    public static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        Array(String(bytes.count, radix: 16).utf8) + [0x0D, 0x0A] + bytes + [0x0D, 0x0A]
    }

    public static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 422: "Unprocessable Content"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        case 507: "Insufficient Storage"
        default: "Status"
        }
    }
}
