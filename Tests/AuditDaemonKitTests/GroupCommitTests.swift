import AuditCore
@testable import AuditDaemonKit
import Dispatch
import Foundation
import XCTest

/// Group commit: while other writers are still running, the journal waits (up to its
/// commit delay) before a sync so that their records share it; without the delay, or
/// with nobody else running, each append is synced on its own.
final class GroupCommitTests: XCTestCase {
    struct Note: JournalEntry {
        var text: String
        var recordCount: Int { 1 }
        func writeRecord(_ index: Int, to out: inout [UInt8]) {
            out.append(contentsOf: #""type":"note","text":"#.utf8)
            JSON.string(text).write(to: &out)
        }
    }

    func makeJournal() throws -> (Journal, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("group-commit-\(getpid())-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("findings.jsonl").path
        return (try Journal(path: path, maxBytes: 1 << 30, keep: 2, logger: Logger(level: .error, underSystemd: false)), path)
    }

    /// Appends three notes 30 ms apart (as three audits finishing one after the other)
    /// and returns the number of syncs and the order the answers came back in.
    func appendThree(to journal: Journal, answersOn queue: DispatchQueue) -> (flushes: Int, answers: [String]) {
        let answers = AnswerLog()
        let done = expectation(description: "all durable")
        done.expectedFulfillmentCount = 3
        for (offset, text) in ["first", "second", "third"].enumerated() {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(30 * offset)) {
                journal.append(Note(text: text), completionQueue: queue) { result in
                    dispatchPrecondition(condition: .onQueue(queue))
                    if case .failure(let error) = result { XCTFail("\(error)") }
                    answers.add(text)
                    done.fulfill()
                }
            }
        }
        wait(for: [done], timeout: 10)
        return (journal.counters.flushes, answers.all)
    }

    func testAppendsWhileOthersRunShareOneSync() throws {
        let (journal, path) = try makeJournal()
        // Three writers busy: the first append waits for the other two (well within 500 ms).
        journal.setCommitDelay(microseconds: 500_000, whileRunning: { 3 })
        let queue = DispatchQueue(label: "answers")
        let (flushes, answers) = appendThree(to: journal, answersOn: queue)
        XCTAssertEqual(flushes, 1, "three appends inside the delay share one write and sync")
        XCTAssertEqual(answers, ["first", "second", "third"], "answers come back in append order")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 3)
        XCTAssertTrue(lines[2].hasPrefix(#"{"seq":3,"#), String(lines[2]))
    }

    func testWithoutDelayOrOtherWritersEachAppendIsSyncedAtOnce() throws {
        for (delay, running) in [(0, 3), (500_000, 1)] {
            let (journal, _) = try makeJournal()
            journal.setCommitDelay(microseconds: delay, whileRunning: { running })
            let started = DispatchTime.now().uptimeNanoseconds
            let (flushes, _) = appendThree(to: journal, answersOn: DispatchQueue(label: "answers"))
            XCTAssertEqual(flushes, 3, "delay \(delay) µs, \(running) running")
            // Nobody waited half a second for writers that were not coming.
            XCTAssertLessThan(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9, 0.45)
        }
    }
}

/// Answers in the order they arrived, from any thread.
final class AnswerLog: @unchecked Sendable {
    private let lock = Lock()
    private var items: [String] = []

    func add(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
}

/// One batch of appends larger than the rotation size is cut where the file passes it:
/// the records do not all land in one file (a 1 MB request once made 450 MB in one file).
final class RotationWithinABatchTests: XCTestCase {
    func testABatchRotatesBetweenEntries() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rotation-\(getpid())-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("findings.jsonl").path
        let maxBytes = 64 * 1024
        let journal = try Journal(path: path, maxBytes: maxBytes, keep: 20, logger: Logger(level: .error, underSystemd: false))
        // Ten writers busy: the ten appends, 20 KB each, share one batch.
        journal.setCommitDelay(microseconds: 500_000, whileRunning: { 10 })
        let done = expectation(description: "all durable")
        done.expectedFulfillmentCount = 10
        let text = String(repeating: "x", count: 20_000)
        for _ in 0..<10 {
            journal.append(GroupCommitTests.Note(text: text)) { result in
                if case .failure(let error) = result { XCTFail("\(error)") }
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(journal.counters.records, 10)
        var files = [path] + (1...20).map { "\(path).\($0)" }
        files = files.filter { FileManager.default.fileExists(atPath: $0) }
        XCTAssertGreaterThanOrEqual(files.count, 3, "200 KB in one batch at a 64 KB limit is cut into files")
        var lines = 0
        for file in files {
            let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
            XCTAssertLessThan(size, maxBytes + 21_000, "\(file) is \(size) bytes: past the limit by more than one entry")
            lines += try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").count
        }
        XCTAssertEqual(lines, 10, "every record is in one of the files")
    }
}
