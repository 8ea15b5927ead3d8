import AuditSupport
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Reads HTTP/1.1 responses from a socket: Content-Length and chunked bodies, chunks
/// handed over as they arrive when asked. Bytes read past one response stay in `buffer`
/// for the next (pipelining, keep-alive).
public struct ResponseReader {
    public let fd: Int32
    public var buffer: [UInt8]
    /// Where `recv` writes, allocated once per reader (not zeroed for every read).
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)

    public init(fd: Int32, buffer: [UInt8] = []) {
        self.fd = fd
        self.buffer = buffer
    }

    /// One response. `onChunk`, for a chunked body, receives each chunk instead of the
    /// body collecting it; returning false stops reading.
    public mutating func read(onChunk: (([UInt8]) -> Bool)? = nil) throws(ClientError) -> ClientResponse {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw ClientError(description: "auditd answered something that is not HTTP: \(statusLine.prefix(80))")
        }
        var headers: [(String, String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            if let colon = line.firstIndex(of: ":") {
                headers.append((String(line[..<colon]), String(line[line.index(after: colon)...]).trimming()))
            }
        }
        var response = ClientResponse(status: status, headers: headers, body: [])
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while true {
                let sizeLine = try readLine()
                guard let size = Int(sizeLine.split(separator: ";").first.map(String.init)?.trimming() ?? "", radix: 16) else {
                    throw ClientError(description: "bad chunk from auditd")
                }
                if size == 0 {
                    while try !readLine().isEmpty {}
                    break
                }
                let data = try readBytes(size)
                _ = try readLine()
                if let onChunk {
                    if !onChunk(data) { break }
                } else {
                    response.body += data
                }
            }
        } else if let length = response.header("Content-Length").flatMap(Int.init) {
            response.body = try readBytes(length)
        }
        return response
    }

    private mutating func fill() throws(ClientError) {
        while true {
            let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                scratch.withUnsafeBytes { buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                return
            }
            if count < 0, errno == EINTR { continue }
            if count == 0 { throw ClientError(description: "auditd closed the connection") }
            throw ClientError.io("reading from auditd", errno)
        }
    }

    private mutating func readLine() throws(ClientError) -> String {
        while true {
            if let index = buffer.firstIndex(of: 0x0A) {
                var line = Array(buffer[..<index])
                if line.last == 0x0D { line.removeLast() }
                buffer.removeFirst(index + 1)
                return String(decoding: line, as: UTF8.self)
            }
            try fill()
        }
    }

    private mutating func readBytes(_ count: Int) throws(ClientError) -> [UInt8] {
        if buffer.count < count {
            // The rest of the body is received straight into its final storage, never
            // more than the body (bytes past it belong to the next response): a report of
            // megabytes is copied once, from the socket.
            let socket = fd
            let body = FilledBytes(count: count, prefix: buffer) { to, wanted, _ in recv(socket, to, wanted, 0) }
            buffer = []
            if let failure = body.failure {
                throw ClientError.io("reading from auditd", failure)
            }
            if body.endedEarly { throw ClientError(description: "auditd closed the connection") }
            return body.bytes
        }
        if buffer.count == count {
            // Exactly the body: handed over, not copied.
            let bytes = buffer
            buffer = []
            return bytes
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }
}
