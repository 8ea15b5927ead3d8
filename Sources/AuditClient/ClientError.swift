#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Why talking to the daemon failed.
public struct ClientError: Error, CustomStringConvertible {
    public var description: String
    /// True when the daemon could not be reached at all (auditctl exits 2 and says how to
    /// start it).
    public var unreachable = false
    /// True when the daemon did not answer (or take the request) within the timeout.
    public var timedOut = false

    public init(description: String, unreachable: Bool = false, timedOut: Bool = false) {
        self.description = description
        self.unreachable = unreachable
        self.timedOut = timedOut
    }

    /// The error for a read or write that failed with `code` (errno).
    static func io(_ action: String, _ code: Int32) -> ClientError {
        if code == EAGAIN || code == EWOULDBLOCK {
            return ClientError(description: "auditd did not respond in time while \(action)", timedOut: true)
        }
        return ClientError(description: "\(action) failed: \(String(cString: strerror(code)))")
    }
}

/// A response from the daemon.
public struct ClientResponse: Sendable {
    public var status: Int
    /// Header names as sent, in order.
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first header of that name, compared case-insensitively.
    public func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
}
