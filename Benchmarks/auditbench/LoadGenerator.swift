import AuditClient
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `auditbench load`: keep-alive HTTP/1.1 clients over the Unix socket posting snapshots
/// as fast as the daemon answers. Prints throughput, latency percentiles and statuses.
///
///   auditbench load --socket PATH --clients N --requests M FILE [FILE…]
///
/// Requests are spread over the clients; each client cycles through the files. Bounded in
/// count (and by a 10-minute safety deadline); traffic only to the local socket.
enum LoadGenerator {
    struct Result {
        var latencies: [Double] = []
        var statuses: [Int: Int] = [:]
        var failures = 0
        var unexpected = 0
        var vanished = 0
    }

    /// One request on a fresh connection that closes after it (`Connection: close`); nil
    /// when no answer came within 30 s.
    static func oneShot(_ socket: String, _ body: [UInt8]) -> Int? {
        guard let fd = try? UnixSocket.connect(socket, receiveTimeout: 30) else { return nil }
        defer { close(fd) }
        let head = "POST /v1/audits HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: \(body.count)\r\n\r\n"
        guard (try? UnixSocket.sendAll(fd, Array(head.utf8) + body)) != nil else { return nil }
        var reader = ResponseReader(fd: fd)
        return try? reader.read().status
    }

    /// Resident memory of a process in KiB, from /proc.
    static func residentKiB(_ pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "")
        }
        return nil
    }

    /// Open file descriptors of a process.
    static func openFiles(_ pid: Int32) -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
    }

    /// `auditbench soak`: `run` with expectations per file (a name containing "bad" must be
    /// answered 400, others 200) and the daemon's memory and descriptors watched.
    static func soak(socket: String, pid: Int32, clients: Int, requests: Int, files: [String], churn: Bool = false) -> Bool {
        // A warm-up first: Dispatch creates its worker threads and a timerfd on first use,
        // which is not a leak of the daemon's.
        print("warm-up:", terminator: " ")
        run(socket: socket, clients: clients, requests: clients * 4, files: files, churn: churn)
        let fdsBefore = openFiles(pid) ?? -1
        let samples = SampleBox()
        let stop = SampleBox()
        Thread.detachNewThread {
            while stop.values.isEmpty {
                if let rss = residentKiB(pid) { samples.add(rss) }
                usleep(200_000)
            }
        }
        let expected = files.map { ($0 as NSString).lastPathComponent.contains("bad") ? 400 : 200 }
        let unexpected = run(socket: socket, clients: clients, requests: requests, files: files, expected: expected, churn: churn)
        stop.add(1)
        // Clients' connections close as the daemon notices their hang-ups: poll, up to 5 s.
        var fdsAfter = openFiles(pid) ?? -1
        for _ in 0..<250 where fdsAfter > fdsBefore {
            usleep(20_000)
            fdsAfter = openFiles(pid) ?? -1
        }
        let rss = samples.values
        let quarter = max(1, rss.count / 4)
        let first = rss.prefix(quarter).reduce(0, +) / max(1, min(quarter, rss.count))
        let last = rss.suffix(quarter).reduce(0, +) / max(1, min(quarter, rss.count))
        let growth = first > 0 ? Double(last - first) / Double(first) * 100 : 0
        print(
            String(
                format: "soak: unexpected answers %d; fds before %d after %d; RSS first quarter %d KiB, last quarter %d KiB (%+.1f%%); peak %d KiB",
                unexpected, fdsBefore, fdsAfter, first, last, growth, rss.max() ?? 0))
        return unexpected == 0 && fdsAfter <= fdsBefore && growth <= 10
    }

    @discardableResult
    /// With `churn`, clients also open a connection per request (`Connection: close`, as a
    /// `curl` per screen does) and vanish halfway through a body; a request sent whole
    /// and never answered counts as a failure ("unanswered").
    static func run(socket: String, clients: Int, requests: Int, files: [String], expected: [Int]? = nil, churn: Bool = false) -> Int {
        let bodies = files.compactMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
        guard !bodies.isEmpty else {
            print("no readable snapshot files")
            exit(2)
        }
        let results = ResultBox(clients: clients)
        let deadline = Date().addingTimeInterval(600)
        let started = DispatchTime.now().uptimeNanoseconds
        // One thread per client: concurrentPerform would run only as many as there are cores.
        let group = DispatchGroup()
        for client in 0..<clients {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                runClient(client)
            }
        }
        @Sendable func runClient(_ client: Int) {
            var result = Result()
            let share = requests / clients + (client < requests % clients ? 1 : 0)
            let connection = UnixHTTPClient(socketPath: socket, userAgent: "auditbench")
            for sent in 0..<share {
                if Date() > deadline { break }
                let which = (client + sent) % bodies.count
                let body = bodies[which]
                let begin = DispatchTime.now().uptimeNanoseconds
                let mode = churn ? (client + sent) % 4 : 2
                if mode == 3 {
                    // Vanishes mid-request: nothing to answer.
                    if let fd = try? UnixSocket.connect(socket, receiveTimeout: 30) {
                        try? UnixSocket.sendAll(fd, Array("POST /v1/audits HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body.prefix(body.count / 2))
                        close(fd)
                    }
                    result.vanished += 1
                    continue
                }
                let status: Int? = mode == 2 ? try? connection.request("POST", "/v1/audits", body: body).status : oneShot(socket, body)
                if let status {
                    result.latencies.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6)
                    result.statuses[status, default: 0] += 1
                    if let expected, expected[which] != status { result.unexpected += 1 }
                } else {
                    // The client reconnects on the next request.
                    result.failures += 1
                }
            }
            connection.disconnect()
            results.store(client, result)
        }
        group.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let merged = results.merged()
        let sorted = merged.latencies.sorted()
        func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        if churn { print("churn: \(merged.vanished) requests abandoned mid-body by their clients (not counted); unanswered \(merged.failures)") }
        print(
            String(
                format: "clients %d, requests %d, %.2f s: %.0f audits/s; latency ms p50 %.2f p99 %.2f max %.2f; statuses %@; failures %d",
                clients, sorted.count, seconds, Double(sorted.count) / seconds, percentile(0.5), percentile(0.99),
                sorted.last ?? 0, merged.statuses.keys.sorted().map { "\($0):\(merged.statuses[$0] ?? 0)" }.joined(separator: ","),
                merged.failures))
        return merged.unexpected + merged.failures
    }
}

/// Per-client results, merged at the end.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [LoadGenerator.Result]

    init(clients: Int) { results = Array(repeating: LoadGenerator.Result(), count: clients) }

    func store(_ index: Int, _ result: LoadGenerator.Result) { lock.lock(); results[index] = result; lock.unlock() }

    func merged() -> LoadGenerator.Result {
        lock.lock()
        defer { lock.unlock() }
        var merged = LoadGenerator.Result()
        for result in results {
            merged.latencies += result.latencies
            merged.failures += result.failures
            merged.unexpected += result.unexpected
            merged.vanished += result.vanished
            for (status, count) in result.statuses { merged.statuses[status, default: 0] += count }
        }
        return merged
    }
}

/// Integers appended from one thread and read from another.
final class SampleBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Int] = []
    func add(_ value: Int) { lock.lock(); storage.append(value); lock.unlock() }
    var values: [Int] { lock.lock(); defer { lock.unlock() }; return storage }
}
