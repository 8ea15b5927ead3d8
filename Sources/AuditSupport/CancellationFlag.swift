import Synchronization

/// Set once, from any thread, when the work it guards is no longer wanted (the client
/// that asked went away); read by that work between steps.
public final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func cancel() { flag.store(true, ordering: .relaxed) }

    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
