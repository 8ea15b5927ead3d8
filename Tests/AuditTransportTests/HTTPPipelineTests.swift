@testable import AuditTransport
import AuditSupport
import Foundation
import XCTest

/// The pipeline's state alone — no channel, no bytes, no clock: each legal move does what
/// it says, and each illegal one is refused with its reason (issue 56).
final class HTTPPipelineTests: XCTestCase {
    typealias Pipeline = HTTPPipeline<String>

    func testAnswersGoOutInRequestOrderWhateverOrderTheyCome() throws {
        var pipeline = Pipeline()
        let first = try pipeline.open(closes: false)
        let second = try pipeline.open(closes: false)
        let third = try pipeline.open(closes: false)
        XCTAssertEqual(pipeline.count, 3)
        XCTAssertEqual(pipeline.unanswered, 3)
        try pipeline.answer(third) { _ in "c" }
        try pipeline.answer(second) { _ in "b" }
        XCTAssertNil(pipeline.takeNext(), "the first request has no answer yet: nothing may overtake it")
        try pipeline.answer(first) { _ in "a" }
        XCTAssertEqual(pipeline.unanswered, 0)
        XCTAssertEqual(pipeline.pendingAnswers, ["a", "b", "c"])
        XCTAssertEqual([pipeline.takeNext()?.answer, pipeline.takeNext()?.answer, pipeline.takeNext()?.answer], ["a", "b", "c"])
        XCTAssertNil(pipeline.takeNext())
        XCTAssertTrue(pipeline.isEmpty)
    }

    func testIllegalMovesAreRefused() throws {
        var pipeline = Pipeline()
        let serial = try pipeline.open(closes: false)
        XCTAssertThrowsError(try pipeline.answer(serial + 1) { _ in "x" }) { XCTAssertEqual($0 as? Pipeline.Refusal, .unknownRequest(serial + 1)) }
        try pipeline.answer(serial) { _ in "a" }
        XCTAssertThrowsError(try pipeline.answer(serial) { _ in "again" }) { XCTAssertEqual($0 as? Pipeline.Refusal, .answeredTwice(serial)) }
        XCTAssertEqual(pipeline.takeNext()?.answer, "a")
        XCTAssertThrowsError(try pipeline.answer(serial) { _ in "late" }) { XCTAssertEqual($0 as? Pipeline.Refusal, .unknownRequest(serial)) }
        pipeline.close()
        XCTAssertThrowsError(try pipeline.open(closes: false)) { XCTAssertEqual($0 as? Pipeline.Refusal, .notOpen) }
        XCTAssertThrowsError(try pipeline.closes(serial)) { XCTAssertEqual($0 as? Pipeline.Refusal, .notOpen) }
    }

    /// `Connection: close` (or HTTP/1.0, a parse failure): its request is the last; one
    /// held before it is still opened and answered, none after it.
    func testTheRequestThatClosesIsTheLast() throws {
        var pipeline = Pipeline()
        let kept = try pipeline.open(closes: false)
        pipeline.lastRequestRead()
        XCTAssertFalse(pipeline.mayRead)
        let last = try pipeline.open(closes: true)
        XCTAssertThrowsError(try pipeline.open(closes: false)) { XCTAssertEqual($0 as? Pipeline.Refusal, .afterLastRequest) }
        XCTAssertTrue(try pipeline.closes(last))
        XCTAssertFalse(try pipeline.closes(kept))
        try pipeline.answer(last) { closes in closes ? "close" : "keep-alive" }
        try pipeline.answer(kept) { closes in closes ? "close" : "keep-alive" }
        XCTAssertEqual(pipeline.takeNext()?.closes, false)
        let closing = try XCTUnwrap(pipeline.takeNext())
        XCTAssertEqual(closing.answer, "close")
        XCTAssertTrue(closing.closes)
    }

    /// A timeout or a refusal for memory makes its answer close the connection, and the
    /// answer is built knowing it.
    func testAnAnswerMayCloseTheConnection() throws {
        var pipeline = Pipeline()
        let serial = try pipeline.open(closes: false)
        try pipeline.answer(serial, closing: true) { closes in closes ? "408, close" : "keep-alive" }
        XCTAssertEqual(pipeline.takeNext()?.answer, "408, close")
    }

    /// Closing when flushed drops what is still open and hands back its answers (a queued
    /// stream must be ended); closing hands back what was never taken; both only once.
    func testClosingDropsWhatIsStillOpen() throws {
        var pipeline = Pipeline()
        let first = try pipeline.open(closes: false)
        _ = try pipeline.open(closes: false)
        let third = try pipeline.open(closes: false)
        try pipeline.answer(third) { _ in "queued stream" }
        XCTAssertEqual(pipeline.closeWhenFlushed(), ["queued stream"])
        XCTAssertEqual(pipeline.phase, .closingWhenFlushed)
        XCTAssertFalse(pipeline.mayRead)
        XCTAssertEqual(pipeline.closeWhenFlushed(), [])
        XCTAssertThrowsError(try pipeline.answer(first) { _ in "late" })
        XCTAssertThrowsError(try pipeline.open(closes: false)) { XCTAssertEqual($0 as? Pipeline.Refusal, .notOpen) }

        var open = Pipeline()
        let serial = try open.open(closes: false)
        try open.answer(serial) { _ in "never sent" }
        XCTAssertEqual(open.close(), ["never sent"])
        XCTAssertEqual(open.phase, .closed)
        XCTAssertEqual(open.close(), [])
        XCTAssertNil(open.takeNext())
    }

    func testReadingStopsWhenThePeerFinishes() {
        var pipeline = Pipeline()
        XCTAssertTrue(pipeline.mayRead)
        pipeline.peerFinishedSending()
        XCTAssertFalse(pipeline.mayRead)
        XCTAssertTrue(pipeline.peerFinished)
    }

    /// Seeded random moves against a plain model of the rules: the pipeline agrees with
    /// the model on every move, legal or refused (the seed is printed).
    func testRandomMovesAgreeWithAPlainModel() throws {
        let seed = ProcessInfo.processInfo.environment["AUDITD_TEST_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        print("HTTPPipelineTests seed \(seed) (AUDITD_TEST_SEED=\(seed) repeats it)")
        var random = SplitMix64(seed: seed)
        for _ in 0..<200 {
            var pipeline = Pipeline()
            var open: [(serial: Int, answered: Bool, closes: Bool)] = []
            var sent: [Int] = []
            var closingOpened = false, phase = Pipeline.Phase.open, next = 0
            for _ in 0..<40 {
                switch random.next() % 5 {
                case 0, 1:
                    let closes = random.next() % 6 == 0
                    let allowed = phase == .open && !closingOpened
                    do {
                        let serial = try pipeline.open(closes: closes)
                        XCTAssertTrue(allowed, "seed \(seed)")
                        next += 1
                        XCTAssertEqual(serial, next)
                        open.append((serial, false, closes))
                        if closes { closingOpened = true }
                    } catch { XCTAssertFalse(allowed, "seed \(seed): \(error)") }
                case 2:
                    let serial = Int(random.next() % UInt64(next + 2))
                    let known = open.firstIndex { $0.serial == serial }
                    let allowed = phase != .closed && known.map { !open[$0].answered } == true
                    do {
                        try pipeline.answer(serial) { _ in "\(serial)" }
                        XCTAssertTrue(allowed, "seed \(seed)")
                        if let known { open[known].answered = true }
                    } catch { XCTAssertFalse(allowed, "seed \(seed): \(error)") }
                case 3:
                    let taken = pipeline.takeNext()
                    if phase != .closed, let first = open.first, first.answered {
                        XCTAssertEqual(taken?.answer, "\(first.serial)", "seed \(seed)")
                        XCTAssertEqual(taken?.closes, first.closes)
                        sent.append(first.serial)
                        open.removeFirst()
                    } else {
                        XCTAssertNil(taken, "seed \(seed)")
                    }
                default:
                    if random.next() % 2 == 0 {
                        pipeline.closeWhenFlushed()
                        if phase == .open {
                            phase = .closingWhenFlushed
                            open.removeAll()
                        }
                    } else {
                        pipeline.close()
                        phase = .closed
                        open.removeAll()
                    }
                }
                XCTAssertEqual(pipeline.phase, phase, "seed \(seed)")
                XCTAssertEqual(pipeline.count, open.count, "seed \(seed)")
            }
            XCTAssertEqual(sent, sent.sorted(), "answers leave in request order (seed \(seed))")
        }
    }
}
