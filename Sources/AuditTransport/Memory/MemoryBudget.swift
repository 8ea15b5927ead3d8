import AuditSupport
import Synchronization

/// One budget for the memory clients make the daemon hold, across every connection and
/// worker: request bodies (reserved from the head's Content-Length, or as a chunked body
/// grows, before the bytes arrive), decoded screenshots (reserved from the image's header,
/// before a pixel is decoded) and answers waiting to be sent. A request that would pass
/// the limit gets 503 `memory-exhausted` with Retry-After instead of memory.
/// `--memory-limit`, default 1 GiB.
public final class MemoryBudget: Sendable {
    public let limit: Int
    private let used = Atomic<Int>(0)
    private let refusals = Atomic<Int>(0)

    public init(limit: Int) {
        self.limit = limit
    }

    /// Bytes reserved now.
    public var inUse: Int { used.load(ordering: .relaxed) }
    /// Reservations refused since start.
    public var refused: Int { refusals.load(ordering: .relaxed) }

    /// Takes `bytes` if they fit under the limit; a refusal counts toward
    /// `auditd_memory_refusals_total` when it refuses a request (`counting`).
    package func reserve(_ bytes: Int, counting: Bool = true) -> Bool {
        guard bytes > 0 else { return true }
        var current = used.load(ordering: .relaxed)
        while true {
            guard current <= limit - bytes else {
                if counting { refusals.add(1, ordering: .relaxed) }
                return false
            }
            let (exchanged, original) = used.compareExchange(expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    /// Takes `bytes` whatever the limit: for memory already held (an answer that must go out).
    package func force(_ bytes: Int) {
        if bytes > 0 { used.add(bytes, ordering: .relaxed) }
    }

    package func release(_ bytes: Int) {
        if bytes > 0 { used.subtract(bytes, ordering: .relaxed) }
    }
}

/// Bytes held against a ``MemoryBudget``, given back when the reservation is released
/// or dropped (a request's body reservation travels with the request to its worker).
public final class MemoryReservation: Sendable {
    package let budget: MemoryBudget
    private let held = Atomic<Int>(0)

    package init(_ budget: MemoryBudget) {
        self.budget = budget
    }

    package var bytes: Int { held.load(ordering: .relaxed) }

    /// Holds at least `total` bytes; false (holding what it held) when the budget is spent.
    package func grow(to total: Int) -> Bool {
        let now = bytes
        guard total > now else { return true }
        guard budget.reserve(total - now) else { return false }
        held.add(total - now, ordering: .relaxed)
        return true
    }

    /// Adds `bytes` if they fit under the budget's limit; false (holding what it held)
    /// when they do not. Not a request's refusal: a follower's chunk (its follower is
    /// closed and counted among the followers dropped).
    package func add(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        guard budget.reserve(bytes, counting: false) else { return false }
        held.add(bytes, ordering: .relaxed)
        return true
    }

    /// Adds `bytes` whatever the limit (memory already held).
    package func force(_ bytes: Int) {
        guard bytes > 0 else { return }
        budget.force(bytes)
        held.add(bytes, ordering: .relaxed)
    }

    /// Moves up to `bytes` of this reservation into a new one (forcing any shortfall:
    /// the memory is already held).
    package func split(_ bytes: Int) -> MemoryReservation {
        let part = MemoryReservation(budget)
        let moved = min(bytes, self.bytes)
        held.subtract(moved, ordering: .relaxed)
        part.held.add(moved, ordering: .relaxed)
        part.force(bytes - moved)
        return part
    }

    /// Gives everything back now.
    package func release() {
        budget.release(held.exchange(0, ordering: .relaxed))
    }

    /// Gives back `bytes` (at most what is held).
    package func shrink(by bytes: Int) {
        let taken = min(bytes, self.bytes)
        guard taken > 0 else { return }
        held.subtract(taken, ordering: .relaxed)
        budget.release(taken)
    }

    deinit { release() }
}
