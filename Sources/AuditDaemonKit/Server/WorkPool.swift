import Dispatch

/// A bounded pool for audits: at most `workers` run at once (sized to the cores) and at
/// most `queueLimit` wait; past that, `submit` refuses at once (the caller answers 503)
/// instead of letting memory grow. Confined to the server's I/O queue.
final class WorkPool: @unchecked Sendable {
    let workers: Int
    let queueLimit: Int
    private let ioQueue: DispatchQueue
    private(set) var running = 0
    private var waiting: [@Sendable () -> Void] = []

    init(workers: Int, queueLimit: Int, ioQueue: DispatchQueue) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
        self.ioQueue = ioQueue
    }

    var queued: Int { waiting.count }
    var isIdle: Bool { running == 0 && waiting.isEmpty }

    /// Runs `job` on a worker thread; `job` gets a `done` to call (from any thread) when it
    /// has finished. Returns false when the pool and its queue are full.
    func submit(_ job: @escaping @Sendable (_ done: @escaping @Sendable () -> Void) -> Void) -> Bool {
        let start: @Sendable () -> Void = { [ioQueue] in
            DispatchQueue.global(qos: .userInitiated).async {
                job { ioQueue.async { self.finished() } }
            }
        }
        if running < workers {
            running += 1
            start()
            return true
        }
        guard waiting.count < queueLimit else { return false }
        waiting.append(start)
        return true
    }

    private func finished() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst()()
        }
    }
}
