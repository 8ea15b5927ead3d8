import Dispatch

/// Where the journal runs completions handed to ``Journal/append(_:completionQueue:completion:)``:
/// the daemon's event loop, or a dispatch queue (tests).
public protocol CompletionExecutor: AnyObject, Sendable {
    func run(_ work: @escaping @Sendable () -> Void)
}

extension DispatchQueue: CompletionExecutor {
    public func run(_ work: @escaping @Sendable () -> Void) { async(execute: work) }
}
