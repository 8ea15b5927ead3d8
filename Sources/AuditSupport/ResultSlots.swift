/// One slot per concurrent job; each job writes only its own slot, and the slots are
/// read after `concurrentPerform` returns.
public final class ResultSlots<Value>: @unchecked Sendable {
    private var slots: [Value?]
    private let lock = Lock()

    public init(count: Int) { slots = Array(repeating: nil, count: count) }

    public func store(_ index: Int, _ value: Value) {
        lock.withLock { slots[index] = value }
    }

    /// The stored value, handed over (the slot is emptied).
    public func take(_ index: Int) -> Value {
        lock.withLock {
            defer { slots[index] = nil }
            guard let value = slots[index] else { preconditionFailure("job \(index) stored no result") }
            return value
        }
    }
}
