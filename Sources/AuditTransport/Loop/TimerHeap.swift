/// The event loop's timers: a binary min-heap by deadline (ties in the order they were
/// set), so that setting and taking the due ones cost O(log n) rather than a sort of every
/// timer. Cancelling marks the timer (finding it costs O(n)); a cancelled timer is dropped
/// when it reaches the top.
package struct TimerHeap<Work> {
    /// Names one timer, to cancel it.
    package struct ID: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    private struct Entry {
        package var deadline: UInt64
        package var order: UInt64
        package var work: Work

        package func precedes(_ other: Entry) -> Bool { (deadline, order) < (other.deadline, other.order) }
    }

    private var heap: [Entry] = []
    private var cancelled: Set<UInt64> = []
    private var nextOrder: UInt64 = 0

    /// Timers set and neither run nor cancelled.
    package var count: Int { heap.count - cancelled.count }

    /// Adds `work` to run at `deadline`.
    package mutating func schedule(at deadline: UInt64, _ work: Work) -> ID {
        nextOrder += 1
        heap.append(Entry(deadline: deadline, order: nextOrder, work: work))
        siftUp(heap.count - 1)
        return ID(value: nextOrder)
    }

    /// Stops a timer that has not run; false if it already ran or was cancelled.
    @discardableResult
    package mutating func cancel(_ id: ID) -> Bool {
        guard heap.contains(where: { $0.order == id.value }), !cancelled.contains(id.value) else { return false }
        cancelled.insert(id.value)
        dropCancelledTop()
        return true
    }

    /// The earliest deadline of a live timer.
    package var nextDeadline: UInt64? { heap.first?.deadline }

    /// Removes and returns the work of every live timer due at `now`, earliest first.
    package mutating func takeDue(now: UInt64) -> [Work] {
        var due: [Work] = []
        while let top = heap.first, top.deadline <= now {
            let entry = removeTop()
            if cancelled.remove(entry.order) == nil { due.append(entry.work) }
        }
        dropCancelledTop()
        return due
    }

    private mutating func dropCancelledTop() {
        while let top = heap.first, cancelled.contains(top.order) {
            cancelled.remove(top.order)
            _ = removeTop()
        }
    }

    private mutating func removeTop() -> Entry {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        return top
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var first = parent
            if left < heap.count, heap[left].precedes(heap[first]) { first = left }
            if right < heap.count, heap[right].precedes(heap[first]) { first = right }
            guard first != parent else { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }
}
