import AuditCore

/// The loaded rule sets, swapped atomically on reload (SIGHUP): a broken file keeps the
/// old sets and says why.
public final class RuleSetStore: Sendable {
    public let directories: [String]
    private let state = Locked<RuleSetLibrary>(RuleSetLibrary(sets: []))

    public init(directories: [String]) throws(RuleSetError) {
        self.directories = directories
        state.set(try RuleSetLibrary.load(directories: directories))
    }

    public var library: RuleSetLibrary { state.get() }

    /// Reloads every directory; on failure the old sets stay and the error is returned.
    public func reload() -> RuleSetError? {
        do {
            state.set(try RuleSetLibrary.load(directories: directories))
            return nil
        } catch {
            return error
        }
    }
}
