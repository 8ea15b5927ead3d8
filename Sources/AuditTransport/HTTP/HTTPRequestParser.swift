import AuditSupport
/// An incremental, strict HTTP/1.1 request parser (RFC 9112): feed it bytes as they
/// arrive; it yields complete requests (pipelining works) or a precise error with the
/// status code to answer.
public struct HTTPRequestParser: Sendable {
    /// Limits the parser enforces.
    public struct Limits: Sendable {
        /// Request line plus header fields (431 beyond).
        public var headerBytes: Int
        /// Request target (414 beyond).
        public var targetBytes: Int
        /// Body (413 beyond).
        public var bodyBytes: Int

        public init(headerBytes: Int = 16 * 1024, targetBytes: Int = 8 * 1024, bodyBytes: Int = 32 << 20) {
            self.headerBytes = headerBytes
            self.targetBytes = targetBytes
            self.bodyBytes = bodyBytes
        }
    }

    /// Why a request was refused; the connection is closed after answering.
    public struct Failure: Error, Sendable, Equatable {
        public var status: Int
        public var code: String
        public var message: String
    }

    public enum Event: Sendable {
        case request(HTTPRequest)
        case failure(Failure)
        /// The client sent `Expect: 100-continue` and waits before sending the body.
        case continueExpected
    }

    private enum State: Sendable {
        case head
        /// A Content-Length body: `body` has its full length from the start (its storage
        /// is written in place, never appended to); `filled` bytes of it are received.
        case body(HTTPRequest, filled: Int)
        case chunkSize(HTTPRequest)
        case chunkData(HTTPRequest, remaining: Int)
        case chunkDataEnd(HTTPRequest)
        case trailers(HTTPRequest)
        case failed
    }

    public let limits: Limits
    private var buffer: [UInt8] = []
    private var offset = 0
    private var state: State = .head
    private var pendingContinue = false

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// True while part of a request has been received (for the read timeout).
    public var isMidRequest: Bool {
        if case .head = state { return offset < buffer.count }
        if case .failed = state { return false }
        return true
    }

    /// The bytes the body being received will hold: a Content-Length body's length from
    /// its head on, a chunked body's size with the chunk being read; 0 between requests.
    public var bodyBytesExpected: Int {
        switch state {
        case .body(let request, _): request.body.count
        case .chunkSize(let request), .chunkDataEnd(let request), .trailers(let request): request.body.count
        case .chunkData(let request, let remaining): request.body.count + remaining
        case .head, .failed: 0
        }
    }

    /// Adds received bytes and returns every event they complete.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [Event] {
        if case .failed = state { return [] }
        buffer.append(contentsOf: bytes)
        var events: [Event] = []
        while true {
            do {
                let request = try step()
                if pendingContinue {
                    pendingContinue = false
                    if request == nil { events.append(.continueExpected) }
                }
                guard let request else { break }
                events.append(.request(request))
            } catch let failure as Failure {
                state = .failed
                events.append(.failure(failure))
                break
            } catch {
                break
            }
        }
        // Drop consumed bytes now and then, not on every call.
        if offset > 64 * 1024 || offset == buffer.count {
            buffer.removeFirst(offset)
            offset = 0
        }
        return events
    }

    /// While a Content-Length body is being received and nothing else is buffered, lets
    /// `receive` write straight into the body's storage (given the space still expected;
    /// it returns the bytes received, or 0 or less as `recv` does): the body is copied
    /// once, from the socket, instead of through a scratch buffer and this parser's.
    /// Returns nil in any other state (then ``feed(_:)`` takes the bytes).
    public mutating func receiveBody(_ receive: (UnsafeMutableRawBufferPointer) -> Int) -> (received: Int, requested: Int, events: [Event])? {
        guard case .body(var request, let filled) = state, offset == buffer.count else { return nil }
        state = .head  // the request out of `state`, so its body is written in place
        let requested = request.body.count - filled
        let received = request.body.withUnsafeMutableBytes { receive(UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
        let now = filled + max(0, min(received, requested))
        if now == request.body.count { return (received, requested, [.request(request)]) }
        state = .body(request, filled: now)
        return (received, requested, [])
    }

    private func fail(_ status: Int, _ code: String, _ message: String) -> Failure {
        Failure(status: status, code: code, message: message)
    }

    /// Index just past the next CRLF at or after `from`, or nil.
    private func lineEnd(from start: Int) -> Int? {
        var index = start
        while index + 1 < buffer.count {
            if buffer[index] == 0x0D, buffer[index + 1] == 0x0A { return index + 2 }
            if buffer[index] == 0x0A { return nil }
            index += 1
        }
        return nil
    }

    /// Advances by one unit of work; returns a request when one completes, nil when more
    /// bytes are needed.
    private mutating func step() throws -> HTTPRequest? {
        while true {
            switch state {
            case .failed:
                return nil
            case .head:
                // Ignore empty lines before a request (RFC 9112 §2.2).
                while offset + 1 < buffer.count, buffer[offset] == 0x0D, buffer[offset + 1] == 0x0A { offset += 2 }
                guard let headEnd = findHeadEnd() else {
                    if buffer.count - offset > limits.headerBytes {
                        if firstLineLength() > limits.targetBytes + 32 { throw fail(414, "uri-too-long", "the request target is longer than \(limits.targetBytes) bytes") }
                        throw fail(431, "headers-too-large", "the request head is larger than \(limits.headerBytes) bytes")
                    }
                    if buffer[offset..<buffer.count].contains(0x0A), let bare = bareLineFeed() { throw bare }
                    return nil
                }
                if headEnd - offset > limits.headerBytes {
                    throw fail(431, "headers-too-large", "the request head is larger than \(limits.headerBytes) bytes")
                }
                var request = try parseHead(buffer[offset..<headEnd - 4])
                offset = headEnd
                if request.header("Expect")?.lowercased() == "100-continue" { pendingContinue = true }
                let lengths = request.headers.filter { $0.name.lowercased() == "content-length" }.map(\.value)
                let encodings = request.headers.filter { $0.name.lowercased() == "transfer-encoding" }.map { $0.value.lowercased() }
                if !encodings.isEmpty {
                    guard lengths.isEmpty else {
                        throw fail(400, "ambiguous-framing", "both Content-Length and Transfer-Encoding: send one")
                    }
                    // RFC 9112 §6.1: Transfer-Encoding in an HTTP/1.0 request is faulty framing.
                    guard request.version == "HTTP/1.1" else {
                        throw fail(400, "bad-transfer-encoding", "Transfer-Encoding is not allowed in an HTTP/1.0 request; send Content-Length")
                    }
                    let codings = encodings.flatMap { $0.split(separator: ",").map { $0.trimming(.spacesAndTabs) } }
                    // §7: chunked is applied once, last; twice is a framing error, not an unknown coding.
                    guard codings.filter({ $0 == "chunked" }).count <= 1 else {
                        throw fail(400, "bad-transfer-encoding", "chunked may be applied only once")
                    }
                    guard codings == ["chunked"] else {
                        throw fail(
                            codings.last == "chunked" ? 501 : 400, "unsupported-transfer-encoding",
                            "only Transfer-Encoding: chunked is supported")
                    }
                    state = .chunkSize(request)
                    continue
                }
                if !lengths.isEmpty {
                    let values = Set(lengths.flatMap { $0.split(separator: ",").map { $0.trimming(.spacesAndTabs) } })
                    guard values.count == 1, let text = values.first, !text.isEmpty, text.allSatisfy(\.isASCIIDigit),
                        text.count <= 18, let length = Int(text)
                    else {
                        throw fail(400, "bad-content-length", "Content-Length must be one decimal number")
                    }
                    guard length <= limits.bodyBytes else {
                        throw fail(413, "too-large", "the body is \(length) bytes, over the limit of \(limits.bodyBytes)")
                    }
                    if length == 0 { return request }
                    // Allocated once at its full length and not zeroed: every byte is
                    // written from the socket before the request is handed on.
                    request.body = [UInt8](unsafeUninitializedCapacity: length) { storage, initialized in
                        HugePages.advise(storage.baseAddress, count: length)
                        initialized = length
                    }
                    state = .body(request, filled: 0)
                    continue
                }
                if ["POST", "PUT", "PATCH"].contains(request.method) {
                    throw fail(411, "length-required", "send Content-Length or Transfer-Encoding: chunked")
                }
                return request
            case .body(var request, let filled):
                let available = min(request.body.count - filled, buffer.count - offset)
                guard available > 0 else { return nil }
                // Take the request out of `state` first: writing while `state` still
                // holds the body would copy the whole body on every read (quadratic).
                state = .head
                request.body.withUnsafeMutableBytes { body in
                    buffer.withUnsafeBytes { received in
                        guard let to = body.baseAddress, let from = received.baseAddress else { return }
                        (to + filled).copyMemory(from: from + offset, byteCount: available)
                    }
                }
                offset += available
                if filled + available == request.body.count { return request }
                state = .body(request, filled: filled + available)
                return nil
            case .chunkSize(let request):
                guard let end = lineEnd(from: offset) else {
                    if buffer.count - offset > 1024 { throw fail(400, "bad-chunk", "chunk size line too long") }
                    if buffer[offset..<buffer.count].contains(0x0A) { throw fail(400, "bad-chunk", "chunk lines end with CRLF") }
                    return nil
                }
                let line = buffer[offset..<end - 2]
                let sizeText = line.prefix { $0 != UInt8(ascii: ";") }
                guard !sizeText.isEmpty, sizeText.count <= 15,
                    sizeText.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }),
                    let size = Int(String(decoding: sizeText, as: UTF8.self), radix: 16)
                else {
                    throw fail(400, "bad-chunk", "invalid chunk size")
                }
                offset = end
                if size == 0 {
                    state = .trailers(request)
                    continue
                }
                guard request.body.count + size <= limits.bodyBytes else {
                    throw fail(413, "too-large", "the chunked body is over the limit of \(limits.bodyBytes) bytes")
                }
                state = .chunkData(request, remaining: size)
            case .chunkData(var request, let remaining):
                let available = min(remaining, buffer.count - offset)
                guard available > 0 else { return nil }
                state = .head  // as for `.body`: no second reference to the body while appending
                request.body.append(contentsOf: buffer[offset..<offset + available])
                offset += available
                state = available == remaining ? .chunkDataEnd(request) : .chunkData(request, remaining: remaining - available)
                if available < remaining { return nil }
            case .chunkDataEnd(let request):
                guard buffer.count - offset >= 2 else { return nil }
                guard buffer[offset] == 0x0D, buffer[offset + 1] == 0x0A else { throw fail(400, "bad-chunk", "chunk data must end with CRLF") }
                offset += 2
                state = .chunkSize(request)
            case .trailers(let request):
                guard let end = lineEnd(from: offset) else {
                    if buffer.count - offset > limits.headerBytes { throw fail(431, "headers-too-large", "trailers too large") }
                    // A bare LF ends no trailer line: refused now, not after the read timeout.
                    if buffer[offset..<buffer.count].contains(0x0A) { throw fail(400, "bad-chunk", "trailer lines end with CRLF") }
                    return nil
                }
                let empty = end - offset == 2
                offset = end
                if empty {
                    state = .head
                    return request
                }
            }
        }
    }

    private func findHeadEnd() -> Int? {
        var index = offset
        let limit = min(buffer.count, offset + limits.headerBytes + 4)
        while index + 3 < limit {
            if buffer[index] == 0x0D, buffer[index + 1] == 0x0A, buffer[index + 2] == 0x0D, buffer[index + 3] == 0x0A {
                return index + 4
            }
            index += 1
        }
        return nil
    }

    private func firstLineLength() -> Int {
        (buffer[offset...].firstIndex(of: 0x0D) ?? buffer.count) - offset
    }

    /// A line ending in a bare LF (no CR) inside the head: refuse it (smuggling shape).
    private func bareLineFeed() -> Failure? {
        var index = offset
        while index < buffer.count {
            if buffer[index] == 0x0A, index == offset || buffer[index - 1] != 0x0D {
                return fail(400, "bad-request", "header lines must end with CRLF")
            }
            index += 1
        }
        return nil
    }

    private func parseHead(_ head: ArraySlice<UInt8>) throws -> HTTPRequest {
        var lines: [ArraySlice<UInt8>] = []
        var start = head.startIndex
        var index = head.startIndex
        while index < head.endIndex {
            if head[index] == 0x0D {
                guard index + 1 < head.endIndex, head[index + 1] == 0x0A else { throw fail(400, "bad-request", "bare CR in the request head") }
                lines.append(head[start..<index])
                index += 2
                start = index
            } else if head[index] == 0x0A {
                throw fail(400, "bad-request", "header lines must end with CRLF")
            } else {
                index += 1
            }
        }
        lines.append(head[start..<head.endIndex])
        guard let requestLine = lines.first else { throw fail(400, "bad-request", "empty request") }
        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw fail(400, "bad-request", "the request line must be: METHOD TARGET HTTP/1.1") }
        let method = String(decoding: parts[0], as: UTF8.self)
        let target = String(decoding: parts[1], as: UTF8.self)
        let version = String(decoding: parts[2], as: UTF8.self)
        guard !method.isEmpty, method.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else {
            throw fail(400, "bad-request", "invalid method")
        }
        guard parts[1].count <= limits.targetBytes else {
            throw fail(414, "uri-too-long", "the request target is longer than \(limits.targetBytes) bytes")
        }
        guard target.hasPrefix("/") || target == "*" || target.hasPrefix("http://"),
            parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else {
            throw fail(400, "bad-request", "invalid request target")
        }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            throw fail(505, "version-not-supported", "only HTTP/1.1 and HTTP/1.0 are supported")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else {
                throw fail(400, "bad-header", "header lines must be Name: value")
            }
            let name = line[line.startIndex..<colon]
            guard name.allSatisfy(isTokenByte) else {
                throw fail(400, "bad-header", "invalid header name (no spaces before the colon)")
            }
            let value = line[(colon + 1)...]
            guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                throw fail(400, "bad-header", "control characters in a header value")
            }
            headers.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self).trimming(.spacesAndTabs)))
        }
        if version == "HTTP/1.1", !headers.contains(where: { $0.name.lowercased() == "host" }) {
            throw fail(400, "missing-host", "HTTP/1.1 requests need a Host header")
        }
        var absoluteTarget = target
        if target.hasPrefix("http://") {
            let rest = target.dropFirst("http://".count)
            absoluteTarget = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
        }
        return HTTPRequest(method: method, target: absoluteTarget, version: version, headers: headers, body: [])
    }

    private func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

extension Character {
    package var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
