import AuditClient
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Issue 16 against the real process: clients that churn, vanish, stall or never read.
final class ConnectionChurnTests: XCTestCase {
    /// A fresh connection per audit (`Connection: close`), as CI scripts do, from four
    /// threads; some clients vanish mid-request and some keep their connection. Every
    /// request that was sent whole is answered, and journalled once.
    func testEveryChurningRequestIsAnswered() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let body = DaemonHarness.example("checkout.xml")
        let socket = daemon.socket
        let perThread = 150
        let unanswered = Counter(), answered = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var keepAlive: Int32 = -1
            var keepAliveBuffer: [UInt8] = []
            for sent in 0..<perThread {
                let head = "POST /v1/audits HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n"
                switch (thread + sent) % 4 {
                case 3:
                    // Vanishes halfway through its body: never answered, never journalled.
                    guard let fd = try? UnixSocket.connect(socket, receiveTimeout: 5) else { unanswered.add(); continue }
                    try? UnixSocket.sendAll(fd, Array((head + "\r\n").utf8) + body.prefix(body.count / 2))
                    close(fd)
                case 2:
                    // Keep-alive, reused across iterations.
                    if keepAlive < 0 { keepAlive = (try? UnixSocket.connect(socket, receiveTimeout: 5)) ?? -1 }
                    try? UnixSocket.sendAll(keepAlive, Array((head + "\r\n").utf8) + body)
                    if daemon.readResponse(keepAlive, buffer: &keepAliveBuffer)?.status == 200 { answered.add() } else {
                        unanswered.add()
                        close(keepAlive)
                        keepAlive = -1
                        keepAliveBuffer = []
                    }
                default:
                    guard let fd = try? UnixSocket.connect(socket, receiveTimeout: 5) else { unanswered.add(); continue }
                    try? UnixSocket.sendAll(fd, Array((head + "Connection: close\r\n\r\n").utf8) + body)
                    var buffer: [UInt8] = []
                    if daemon.readResponse(fd, buffer: &buffer)?.status == 200 { answered.add() } else { unanswered.add() }
                    close(fd)
                }
            }
            if keepAlive >= 0 { close(keepAlive) }
        }
        XCTAssertEqual(unanswered.value, 0, "requests sent whole but never answered")
        XCTAssertEqual(answered.value, 4 * perThread * 3 / 4)
        XCTAssertEqual(daemon.stop(), 0)
        let audits = daemon.journalRecords().filter { $0["type"] as? String == "audit" }
        XCTAssertEqual(audits.count, answered.value, "one journal record per answered audit")
    }
}

/// A count shared by threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ amount: Int = 1) { lock.lock(); count += amount; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
