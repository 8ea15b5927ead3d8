#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A blocking HTTP/1.1 client of the daemon over its Unix socket: keep-alive, one request
/// at a time; streams chunks for `follow`. Used by auditctl and the load generator.
public final class UnixHTTPClient {
    public let socketPath: String
    /// Sent as `User-Agent`.
    public let userAgent: String
    /// Seconds a request may wait without progress — the daemon taking no more of the
    /// request, or sending nothing of its answer — before it fails as timed out; nil waits
    /// forever. Follow streams (``stream(_:onChunk:)``) wait for records without limit.
    public let timeout: Double?
    private var reader: ResponseReader?
    private var streaming = false

    public init(socketPath: String, userAgent: String = "auditctl", timeout: Double? = nil) {
        self.socketPath = socketPath
        self.userAgent = userAgent
        self.timeout = timeout
    }

    deinit { disconnect() }

    public func connectIfNeeded() throws(ClientError) {
        guard reader == nil else { return }
        reader = ResponseReader(fd: try UnixSocket.connect(socketPath, timeout: streaming ? nil : timeout, sendTimeout: true))
    }

    /// A timeout said plainly: how long, where, and what to do.
    private func explained(_ error: ClientError) -> ClientError {
        guard error.timedOut, let timeout else { return error }
        var explained = error
        explained.description =
            "auditd at \(socketPath) did not answer within \(timeout.formattedTimeout) s: it may be stuck or overloaded "
            + "(check `auditctl status` and the daemon's log), or the snapshot needs longer (raise --timeout)"
        return explained
    }

    public func disconnect() {
        if let reader { close(reader.fd) }
        reader = nil
    }

    /// Sends a request and reads the whole response. Retries once on a connection the
    /// daemon closed while idle.
    public func request(
        _ method: String, _ target: String, body: [UInt8]? = nil,
        contentType: String = "application/xml"
    ) throws(ClientError) -> ClientResponse {
        try request(method, target, body: body.map(RequestBody.bytes), contentType: contentType)
    }

    /// Sends a request whose body may be a file (sent with `sendfile`) and reads the
    /// whole response. Retries once on a connection the daemon closed while idle.
    public func request(
        _ method: String, _ target: String, body: RequestBody?,
        contentType: String = "application/xml"
    ) throws(ClientError) -> ClientResponse {
        for attempt in 0..<2 {
            let reused = reader != nil
            try connectIfNeeded()
            do throws(ClientError) {
                do throws(ClientError) {
                    try sendRequest(method, target, body: body, contentType: contentType)
                } catch {
                    // The daemon may have answered before all was sent and closed (a body
                    // over its limit: 413): that answer says more than the broken pipe.
                    if !error.timedOut, let early = try? readResponse(onChunk: nil) {
                        disconnect()
                        return early
                    }
                    throw explained(error)
                }
                let response = try readResponse(onChunk: nil)
                if response.header("Connection")?.lowercased() == "close" { disconnect() }
                return response
            } catch {
                disconnect()
                // A timeout is not retried: the daemon is there, and slow.
                if !reused || attempt == 1 || error.timedOut { throw explained(error) }
            }
        }
        throw ClientError(description: "the daemon closed the connection")
    }

    /// Sends a GET whose chunked body is delivered as it arrives; returns when the stream
    /// ends. `onChunk` returning false stops reading.
    public func stream(_ target: String, onChunk: ([UInt8]) -> Bool) throws(ClientError) -> Int {
        disconnect()
        streaming = true
        defer { streaming = false }
        try connectIfNeeded()
        try sendRequest("GET", target, body: nil, contentType: "")
        let response = try withoutActuallyEscaping(onChunk) { (escapable) throws(ClientError) -> ClientResponse in
            try readResponse(onChunk: escapable)
        }
        disconnect()
        return response.status
    }

    private func sendRequest(_ method: String, _ target: String, body: RequestBody?, contentType: String) throws(ClientError) {
        guard let fd = reader?.fd else { throw ClientError(description: "not connected") }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\nUser-Agent: \(userAgent)\r\n"
        if let body {
            head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        try UnixSocket.sendAll(fd, Array(head.utf8))
        switch body {
        case .bytes(let bytes)?: if !bytes.isEmpty { try UnixSocket.sendAll(fd, bytes) }
        case .file(let file)?: try UnixSocket.sendAll(fd, file: file)
        case nil: break
        }
    }

    private func readResponse(onChunk: (([UInt8]) -> Bool)?) throws(ClientError) -> ClientResponse {
        guard var current = reader else { throw ClientError(description: "not connected") }
        defer { if reader != nil { reader = current } }
        return try current.read(onChunk: onChunk)
    }
}

extension Double {
    /// `120`, `0.5`: seconds as a person wrote them.
    var formattedTimeout: String {
        self == rounded() && abs(self) < 1e9 ? String(Int(self)) : String(self)
    }
}
