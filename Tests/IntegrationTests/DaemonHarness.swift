import AuditClient
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Starts the real `auditd` binary on a temporary socket and talks to it as clients do:
/// raw HTTP over the socket, `curl --unix-socket`, and the real `auditctl`.
final class DaemonHarness: @unchecked Sendable {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The binaries under test: `$AUDITD_BIN_DIR` (e.g. a sanitizer build), else `.build/debug`.
    static let binaries =
        ProcessInfo.processInfo.environment["AUDITD_BIN_DIR"].map { URL(fileURLWithPath: $0) }
        ?? packageRoot.appendingPathComponent(".build/debug")
    static let examples = packageRoot.appendingPathComponent("Examples")
    static let rules = packageRoot.appendingPathComponent("Rules")

    let directory: URL
    let socket: String
    let journal: String
    var process: Process?
    let logFile: URL
    /// Where this harness's auditd and auditctl are (another build: a scratch copy's).
    let binaries: URL

    init(name: String = #function, binaries: URL = DaemonHarness.binaries) throws {
        self.binaries = binaries
        let base = URL(fileURLWithPath: "/tmp").appendingPathComponent("auditd-it-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        chmod(base.path, 0o755)
        directory = base
        socket = base.appendingPathComponent("auditd.sock").path
        journal = base.appendingPathComponent("state/findings.jsonl").path
        logFile = base.appendingPathComponent("auditd.log")
    }

    deinit {
        if let process, process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts auditd with `extra` options and waits until the socket answers.
    @discardableResult
    func start(_ extra: [String] = [], rules: [String]? = nil, expectFailure: Bool = false, environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = binaries.appendingPathComponent("auditd")
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new } }
        var arguments = ["--socket", socket, "--journal", journal, "--log-level", "debug"]
        for directory in rules ?? [DaemonHarness.rules.path] { arguments += ["--rules", directory] }
        process.arguments = arguments + extra
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        log.seekToEndOfFile()
        process.standardError = log
        process.standardOutput = log
        try process.run()
        self.process = process
        if expectFailure { return process }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if !process.isRunning { throw NSError(domain: "auditd", code: 2, userInfo: [NSLocalizedDescriptionKey: "auditd exited at start: \(self.log)"]) }
            if let response = try? request("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n"), response.status == 200 { return process }
            usleep(20_000)
        }
        throw NSError(domain: "auditd", code: 1, userInfo: [NSLocalizedDescriptionKey: "auditd did not start: \(self.log)"])
    }

    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Sends `signal` and returns the exit status; a daemon still running after 30 s is
    /// killed (and the status says so) rather than hanging the suite.
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        guard let process else { return -1 }
        kill(process.processIdentifier, signal)
        return DaemonHarness.wait(process, seconds: 30)
    }

    /// Waits for a process at most `seconds`; kills it past that and returns -1.
    static func wait(_ process: Process, seconds: Double) -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return -1
        }
        return process.terminationStatus
    }

    // MARK: Raw HTTP

    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(body)) }
    }

    /// A connected socket to the daemon (reads time out after 15 s).
    func connect() throws -> Int32 {
        try UnixSocket.connect(socket, receiveTimeout: 15)
    }

    /// Sends the bytes; a broken connection is left for the next read to notice.
    func send(_ fd: Int32, _ bytes: [UInt8]) { try? UnixSocket.sendAll(fd, bytes) }

    func send(_ fd: Int32, _ text: String) { send(fd, Array(text.utf8)) }

    /// Reads one response from `fd`, keeping bytes read past it in `buffer`; nil on EOF,
    /// timeout or a malformed answer.
    func readResponse(_ fd: Int32, buffer: inout [UInt8]) -> Response? {
        var reader = ResponseReader(fd: fd, buffer: buffer)
        defer { buffer = reader.buffer }
        guard let response = try? reader.read() else { return nil }
        var headers: [String: String] = [:]
        for (name, value) in response.headers { headers[name.lowercased()] = value }
        return Response(status: response.status, headers: headers, body: response.body)
    }

    /// One request on a fresh connection.
    func request(_ head: String, body: [UInt8] = []) throws -> Response {
        let fd = try connect()
        defer { close(fd) }
        send(fd, Array(head.utf8) + body)
        var buffer: [UInt8] = []
        guard let response = readResponse(fd, buffer: &buffer) else { throw NSError(domain: "read", code: 0) }
        return response
    }

    func post(_ body: [UInt8], query: String = "") throws -> Response {
        try request("POST /v1/audits\(query) HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n", body: body)
    }

    static func example(_ name: String) -> [UInt8] {
        [UInt8]((try? Data(contentsOf: examples.appendingPathComponent(name))) ?? Data())
    }

    // MARK: Processes

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs a program (auditctl, curl, …) with the socket in its environment.
    func run(
        _ executable: String, _ arguments: [String], stdin: [UInt8]? = nil, environment extra: [String: String] = [:],
        directory: URL? = nil
    ) throws -> Run {
        let process = Process()
        if let directory { process.currentDirectoryURL = directory }
        process.executableURL = executable.hasPrefix("/") ? URL(fileURLWithPath: executable) : URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["AUDITD_SOCKET"] = socket
        environment.removeValue(forKey: "NO_COLOR")
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        // Standard error is read on a thread of its own while standard output is read
        // here: read one after the other, a program that fills the other pipe (64 KiB)
        // would wait for us while we wait for it.
        let errBox = DataBox()
        let errDone = DispatchSemaphore(value: 0)
        let errHandle = err.fileHandleForReading
        Thread.detachNewThread {
            errBox.data = errHandle.readDataToEndOfFile()
            errDone.signal()
        }
        if let stdin { input.fileHandleForWriting.write(Data(stdin)) }
        try? input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        errDone.wait()
        let errData = errBox.data
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    func auditctl(_ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String] = [:], directory: URL? = nil) throws -> Run {
        try run(
            binaries.appendingPathComponent("auditctl").path, arguments, stdin: stdin, environment: environment,
            directory: directory)
    }

    /// The journal's records, parsed; fails the test on a line that is not JSON.
    /// The journal's records. `tornTail`: the journal of a daemon killed with SIGKILL may end in
    /// half a line (the kernel stops a large write at a page when a fatal signal is pending); that
    /// unacknowledged tail is left out (the next start truncates it), any other bad line fails.
    func journalRecords(tornTail: Bool = false, file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]] {
        guard var text = try? String(contentsOfFile: journal, encoding: .utf8) else { return [] }
        if tornTail, !text.isEmpty, !text.hasSuffix("\n") {
            text = String(text[..<(text.lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex)])
        }
        return text.split(separator: "\n").compactMap { row in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(row.utf8))) as? [String: Any] else {
                XCTFail("journal line is not JSON: \(row.prefix(120))", file: file, line: line)
                return nil
            }
            return object
        }
    }
}

/// Bytes handed from a reader thread to the test.
final class DataBox: @unchecked Sendable {
    var data = Data()
}
