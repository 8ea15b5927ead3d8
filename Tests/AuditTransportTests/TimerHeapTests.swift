@testable import AuditTransport
import XCTest

/// The event loop's timers: earliest first, ties in the order set, cancellable.
final class TimerHeapTests: XCTestCase {
    func testDueTimersComeEarliestFirstAndCancelledOnesNever() {
        var heap = TimerHeap<String>()
        let late = heap.schedule(at: 300, "late")
        _ = heap.schedule(at: 100, "first")
        _ = heap.schedule(at: 100, "second")
        let cancelled = heap.schedule(at: 50, "cancelled")
        _ = heap.schedule(at: 200, "middle")
        XCTAssertTrue(heap.cancel(cancelled))
        XCTAssertFalse(heap.cancel(cancelled), "a timer is cancelled once")
        XCTAssertEqual(heap.count, 4)
        XCTAssertEqual(heap.nextDeadline, 100, "a cancelled timer at the top is dropped at once")
        XCTAssertEqual(heap.takeDue(now: 99), [])
        XCTAssertEqual(heap.takeDue(now: 200), ["first", "second", "middle"])
        XCTAssertTrue(heap.cancel(late))
        XCTAssertEqual(heap.takeDue(now: 1_000), [])
        XCTAssertNil(heap.nextDeadline)
        XCTAssertEqual(heap.count, 0)
    }

    /// Against a sorted list, on seeded random schedules and cancels.
    func testAgreesWithASortedList() {
        let start = ProcessInfo.processInfo.environment["AUDITD_TEST_SEED"].flatMap(UInt64.init) ?? UInt64(Date().timeIntervalSince1970)
        print("TimerHeapTests seed \(start) (AUDITD_TEST_SEED=\(start) repeats it)")
        var seed = start
        func next() -> UInt64 {
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var heap = TimerHeap<Int>()
        var reference: [(deadline: UInt64, order: Int)] = []
        var ids: [(TimerHeap<Int>.ID, Int)] = []
        var now: UInt64 = 0
        for order in 0..<2_000 {
            switch next() % 4 {
            case 0, 1:
                let deadline = now + next() % 500
                ids.append((heap.schedule(at: deadline, order), order))
                reference.append((deadline, order))
            case 2 where !ids.isEmpty:
                let (id, value) = ids.remove(at: Int(next() % UInt64(ids.count)))
                XCTAssertEqual(heap.cancel(id), reference.contains { $0.order == value })
                reference.removeAll { $0.order == value }
            default:
                now += next() % 100
                let expected = reference.filter { $0.deadline <= now }.sorted { ($0.deadline, $0.order) < ($1.deadline, $1.order) }.map(\.order)
                reference.removeAll { $0.deadline <= now }
                XCTAssertEqual(heap.takeDue(now: now), expected, "seed \(start)")
            }
        }
    }
}
