/// Values derived from one snapshot, computed once by whichever reader asks first (the
/// rules run on several threads: the others wait for it rather than compute it again) and
/// shared by the rest. Keys name what is kept.
public final class SnapshotMemo: @unchecked Sendable {
    private let lock = Lock()
    /// Held while a value is made, so that it is made once.
    private let making = Lock()
    private var values: [String: any Sendable] = [:]

    public init() {}

    /// The value kept under `key`, made by `make` the first time.
    public func value<Value: Sendable>(_ key: String, _ make: () -> Value) -> Value {
        if let known = lock.withLock({ values[key] }) as? Value { return known }
        return making.withLock {
            if let known = lock.withLock({ values[key] }) as? Value { return known }
            let made = make()
            lock.withLock { values[key] = made }
            return made
        }
    }
}
