import AuditSupport

/// A value handed from one thread to another exactly once (the request body to the
/// worker), so the sender keeps no reference to it.
package final class Box<Value: Sendable>: @unchecked Sendable {
    private var value: Value?
    private let lock = Lock()

    package init(_ value: Value) { self.value = value }

    /// The value, taken out of the box; a second call is a programming error.
    package func take() -> Value {
        lock.withLock {
            defer { value = nil }
            guard let value else { preconditionFailure("Box.take() called twice") }
            return value
        }
    }
}
