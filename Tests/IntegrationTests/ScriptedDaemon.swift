#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import AuditClient
import Foundation

/// Something on the daemon's socket that is not auditd: it answers every request with
/// the answer `respond` gives for its request line (`GET /v1/rulesets/x`), so tests can
/// show what auditctl does with answers the API does not promise.
final class ScriptedDaemon: @unchecked Sendable {
    private let listener: Int32
    private let thread: Thread

    init(socket path: String, respond: @escaping @Sendable (String) -> (status: Int, body: String)) throws {
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let bound = try UnixSocket.address(path).withSockaddr { bind(listener, $0, $1) }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        self.listener = listener
        thread = Thread {
            while true {
                let connection = accept(listener, nil, nil)
                if connection < 0 { return }
                ScriptedDaemon.serve(connection, respond)
                close(connection)
            }
        }
        thread.start()
    }

    /// Reads one request (head, then `Content-Length` bytes) and writes the answer.
    private static func serve(_ connection: Int32, _ respond: (String) -> (status: Int, body: String)) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var headEnd: Int?
        var length = 0
        while headEnd.map({ received.count < $0 + length }) ?? true {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { return }
            received += buffer[0..<count]
            if headEnd == nil, let end = received.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound {
                headEnd = end
                let head = String(decoding: received[0..<end], as: UTF8.self).lowercased()
                if let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }) {
                    length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
        let requestLine = String(decoding: received.prefix { $0 != 0x0D }, as: UTF8.self)
        let parts = requestLine.split(separator: " ")
        let answer = respond(parts.prefix(2).joined(separator: " "))
        let body = Array(answer.body.utf8)
        let head = "HTTP/1.1 \(answer.status) X\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            if count <= 0 { return }
            sent += count
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
