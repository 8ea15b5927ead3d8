import AuditSupport
import Dispatch

/// A bounded pool for audits: at most `workers` run at once (sized to the cores) and at
/// most `queueLimit` wait; past that, `submit` refuses at once (the caller answers 503)
/// instead of letting memory grow. A worker that finishes a job takes the next waiting
/// one itself, on the same thread: no hand-off through another queue between audits.
/// Safe to use from any thread.
package final class WorkPool: @unchecked Sendable {
    package typealias Job = @Sendable () -> Void

    package let workers: Int
    package let queueLimit: Int
    private let lock = Lock()
    private var _running = 0
    private var waiting: [Job] = []

    package init(workers: Int, queueLimit: Int) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
    }

    /// Audits running now.
    package var running: Int { lock.withLock { _running } }
    /// Audits accepted and waiting for a worker.
    package var queued: Int { lock.withLock { waiting.count } }
    package var isIdle: Bool { lock.withLock { _running == 0 && waiting.isEmpty } }

    /// Runs `job` on a worker thread, now or after the jobs waiting before it. Returns
    /// false when every worker is busy and the queue is full.
    package func submit(_ job: @escaping Job) -> Bool {
        enum Decision { case start, wait, refuse }
        let decision: Decision = lock.withLock {
            if _running < workers {
                _running += 1
                return .start
            }
            guard waiting.count < queueLimit else { return .refuse }
            waiting.append(job)
            return .wait
        }
        switch decision {
        case .start:
            DispatchQueue.global(qos: .userInitiated).async { self.work(first: job) }
            return true
        case .wait: return true
        case .refuse: return false
        }
    }

    /// One worker: runs its job, then every job waiting, then leaves.
    private func work(first: @escaping Job) {
        var job: Job? = first
        while let current = job {
            current()
            // At most `queueLimit` wait, so taking the first is cheap.
            job = lock.withLock { () -> Job? in
                guard !waiting.isEmpty else {
                    _running -= 1
                    return nil
                }
                return waiting.removeFirst()
            }
        }
    }
}
