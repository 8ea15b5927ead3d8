/// Values derived from one snapshot, computed once by whichever reader asks first (the
/// rules run on several threads: the others wait for it rather than compute it again) and
/// shared by the rest. Keys name what is kept.
public final class SnapshotMemo: @unchecked Sendable {
    private let lock = Lock()
    private var values: [String: any Sendable] = [:]
    /// One lock per key, held while its value is made, so that it is made once — and a
    /// reader of another key (the transcript while the element identities are built) does
    /// not wait for it.
    private var making: [String: Lock] = [:]

    public init() {}

    /// The value kept under `key`, made by `make` the first time.
    public func value<Value: Sendable>(_ key: String, _ make: () -> Value) -> Value {
        if let known = lock.withLock({ values[key] }) as? Value { return known }
        let keyLock = lock.withLock { () -> Lock in
            if let existing = making[key] { return existing }
            let created = Lock()
            making[key] = created
            return created
        }
        return keyLock.withLock {
            if let known = lock.withLock({ values[key] }) as? Value { return known }
            let made = make()
            lock.withLock { values[key] = made }
            return made
        }
    }

    /// The keys values are kept under now.
    public var keys: Set<String> { lock.withLock { Set(values.keys) } }

    /// Lets go of every value but those under `kept`; a value let go is made again if it
    /// is asked for again. Only for when no reader is making or reading one: an audit
    /// calls it between its rules and the writing of their findings, which need only the
    /// element identities (at 100,000 elements the transcript the rules read is 11 MB of
    /// the audit's peak).
    public func removeAll(except kept: Set<String>) {
        lock.withLock {
            values = values.filter { kept.contains($0.key) }
            making = making.filter { kept.contains($0.key) }
        }
    }
}
