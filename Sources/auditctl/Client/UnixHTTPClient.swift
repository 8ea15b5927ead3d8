import AuditCore
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Why talking to the daemon failed.
struct ClientError: Error, CustomStringConvertible {
    var description: String
    /// True when the daemon could not be reached at all (exit 2 with how to start it).
    var unreachable = false
}

/// A response from the daemon.
struct ClientResponse {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
}

/// A blocking HTTP/1.1 client over a Unix socket, keep-alive, one request at a time.
/// Handles Content-Length and chunked bodies; streams chunks for `follow`.
final class UnixHTTPClient {
    let socketPath: String
    private var fd: Int32 = -1
    private var buffer: [UInt8] = []

    init(socketPath: String) { self.socketPath = socketPath }
    deinit { disconnect() }

    func connectIfNeeded() throws(ClientError) {
        guard fd < 0 else { return }
        let socketFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketFD >= 0 else { throw ClientError(description: "socket(): \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(socketPath.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(socketFD)
            throw ClientError(description: "socket path too long: \(socketPath)", unreachable: true)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(socketFD)
            throw ClientError(description: "cannot reach auditd at \(socketPath) (\(reason))", unreachable: true)
        }
        fd = socketFD
        buffer.removeAll()
    }

    func disconnect() {
        if fd >= 0 { close(fd) }
        fd = -1
        buffer.removeAll()
    }

    /// Sends a request and reads the whole response. Retries once on a connection the
    /// daemon closed while idle.
    func request(_ method: String, _ target: String, body: [UInt8]? = nil, contentType: String = "application/xml") throws(ClientError) -> ClientResponse {
        for attempt in 0..<2 {
            let reused = fd >= 0
            try connectIfNeeded()
            do {
                try sendRequest(method, target, body: body, contentType: contentType)
                let response = try readResponse(onChunk: nil)
                if response.header("Connection")?.lowercased() == "close" { disconnect() }
                return response
            } catch {
                disconnect()
                if !reused || attempt == 1 { throw error }
            }
        }
        throw ClientError(description: "the daemon closed the connection")
    }

    /// Sends a GET whose chunked body is delivered as it arrives; returns when the stream
    /// ends. `onChunk` returning false stops reading.
    func stream(_ target: String, onChunk: ([UInt8]) -> Bool) throws(ClientError) -> Int {
        disconnect()
        try connectIfNeeded()
        try sendRequest("GET", target, body: nil, contentType: "")
        let response = try withoutActuallyEscaping(onChunk) { (escapable) throws(ClientError) -> ClientResponse in
            try readResponse(onChunk: escapable)
        }
        disconnect()
        return response.status
    }

    private func sendRequest(_ method: String, _ target: String, body: [UInt8]?, contentType: String) throws(ClientError) {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\nUser-Agent: auditctl\r\n"
        if let body {
            head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        try writeAll(Array(head.utf8))
        if let body, !body.isEmpty { try writeAll(body) }
    }

    private func writeAll(_ bytes: [UInt8]) throws(ClientError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw ClientError(description: "sending to auditd failed: \(String(cString: strerror(errno)))")
            }
            offset += sent
        }
    }

    private func fill() throws(ClientError) {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return
            }
            if count < 0, errno == EINTR { continue }
            throw ClientError(description: count == 0 ? "auditd closed the connection" : "reading from auditd failed: \(String(cString: strerror(errno)))")
        }
    }

    private func readLine() throws(ClientError) -> String {
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

    private func readBytes(_ count: Int) throws(ClientError) -> [UInt8] {
        while buffer.count < count { try fill() }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    private func readResponse(onChunk: (([UInt8]) -> Bool)?) throws(ClientError) -> ClientResponse {
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
                headers.append((String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingWhitespace()))
            }
        }
        var response = ClientResponse(status: status, headers: headers, body: [])
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while true {
                let sizeLine = try readLine()
                guard let size = Int(sizeLine.split(separator: ";").first.map(String.init)?.trimmingWhitespace() ?? "", radix: 16) else {
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
}
