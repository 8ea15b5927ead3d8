/// Why talking to the daemon failed.
public struct ClientError: Error, CustomStringConvertible {
    public var description: String
    /// True when the daemon could not be reached at all (auditctl exits 2 and says how to
    /// start it).
    public var unreachable = false

    public init(description: String, unreachable: Bool = false) {
        self.description = description
        self.unreachable = unreachable
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
