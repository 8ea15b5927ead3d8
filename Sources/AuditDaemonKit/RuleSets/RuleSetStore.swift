import AuditCore

/// The loaded rule sets, swapped atomically on reload (SIGHUP): a broken file keeps the
/// old sets and says why.
package final class RuleSetStore: Sendable {
    package let directories: [String]
    private let state = Locked<RuleSetLibrary>(RuleSetLibrary(sets: []))

    package init(directories: [String]) throws(RuleSetError) {
        self.directories = directories
        state.set(try RuleSetLibrary.load(directories: directories))
    }

    package var library: RuleSetLibrary { state.get() }

    /// Reloads every directory; on failure the old sets stay and the error is returned.
    package func reload() -> RuleSetError? {
        do {
            state.set(try RuleSetLibrary.load(directories: directories))
            return nil
        } catch {
            return error
        }
    }
}
