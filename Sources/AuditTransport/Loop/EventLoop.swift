import AuditSupport
@preconcurrency import CSystem
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The daemon's I/O thread: one epoll set for the listening socket and every connection,
/// work posted from other threads (audits that finished, journal completions), and timers.
///
/// Why not Dispatch's read and write sources: on Linux they share one epoll registration
/// per descriptor, and tearing them down while clients churn (a connection a request, as
/// CI scripts do) either lost requests — a descriptor closed before its sources were
/// cancelled is reused by `accept` while still registered — or, once closed only from the
/// cancel handlers, crashed libdispatch's manager thread on a freed registration
/// (swift-corelibs-libdispatch #949). Here a descriptor leaves the set with `EPOLL_CTL_DEL`
/// before it is closed, and every registration carries a token of its own, so an event
/// read in the same batch for a closed descriptor whose number was reused is dropped.
///
/// Registrations, handlers and timers are touched only on the loop's thread; ``async(_:)``
/// and ``after(seconds:_:)`` may be called from any thread.
package final class EventLoop: CompletionExecutor, @unchecked Sendable {
    /// What epoll said about a descriptor.
    package struct Events {
        package let bits: UInt32
        package var readable: Bool { bits & EPOLLIN.rawValue != 0 }
        package var writable: Bool { bits & EPOLLOUT.rawValue != 0 }
        /// The peer closed both directions, or the socket failed: nothing sent will be read.
        package var hungUp: Bool { bits & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 }

        package static let readableNow = Events(bits: EPOLLIN.rawValue)
        package static let writableNow = Events(bits: EPOLLOUT.rawValue)
        package static let hangUp = Events(bits: EPOLLHUP.rawValue)
    }

    /// Which events a registration wants (hang-ups and errors are always reported).
    package struct Interest: Equatable {
        package var read: Bool
        package var write: Bool

        package init(read: Bool, write: Bool) {
            self.read = read
            self.write = write
        }
        package var bits: UInt32 {
            (read ? EPOLLIN.rawValue | EPOLLRDHUP.rawValue : 0) | (write ? EPOLLOUT.rawValue : 0)
        }
    }

    package typealias Handler = (Events) -> Void
    package typealias Token = UInt64

    private let epoll: Int32
    private let wake: Int32
    private var handlers: [Token: Handler] = [:]
    private var nextToken: Token = 1
    /// Work and timers handed in from any thread, under `lock`.
    private let lock = Lock()
    private var posted: [@Sendable () -> Void] = []
    private var timers = TimerHeap<@Sendable () -> Void>()
    private var wakePending = false
    /// The loop's thread, once it runs: loop-confined code asserts it runs there (debug builds).
    private var loopThread: pthread_t?

    /// Fails only when the kernel refuses an epoll set or an eventfd (out of descriptors).
    package init() throws(EventLoopError) {
        epoll = auditd_epoll_create()
        guard epoll >= 0 else { throw EventLoopError(operation: "epoll_create1", errno: errno) }
        wake = auditd_eventfd()
        guard wake >= 0 else {
            close(epoll)
            throw EventLoopError(operation: "eventfd", errno: errno)
        }
        // Token 0 is the wake-up descriptor.
        _ = auditd_epoll_ctl(epoll, EPOLL_CTL_ADD, wake, EPOLLIN.rawValue, 0)
    }

    /// Runs the loop on a thread of its own, for the life of the process.
    package func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                let loop = Unmanaged<EventLoop>.fromOpaque(raw).takeRetainedValue()
                loop.run()
                return nil
            }, context)
        if created != 0 {
            // No thread, no daemon: say so rather than serve nothing.
            fputs("auditd: cannot start the I/O thread (\(String(cString: strerror(created))))\n", stderr)
            exit(1)
        }
        pthread_detach(thread)
    }

    // MARK: Any thread

    /// Runs `work` on the loop's thread, after the work posted before it.
    package func async(_ work: @escaping @Sendable () -> Void) {
        let signal: Bool = lock.withLock {
            posted.append(work)
            defer { wakePending = true }
            return !wakePending
        }
        if signal { signalWake() }
    }

    package func run(_ work: @escaping @Sendable () -> Void) { async(work) }

    /// Runs `work` on the loop's thread once `seconds` have passed; the ID cancels it.
    @discardableResult
    package func after(seconds: Double, _ work: @escaping @Sendable () -> Void) -> TimerHeap<@Sendable () -> Void>.ID {
        let delay = seconds.isFinite ? UInt64(max(0, min(seconds, 1e6)) * 1e9) : 0
        let deadline = Timestamp.monotonic() + delay
        let id = lock.withLock { timers.schedule(at: deadline, work) }
        signalWake()
        return id
    }

    /// Stops a timer that has not run yet; false if it ran or was cancelled already.
    @discardableResult
    package func cancel(_ timer: TimerHeap<@Sendable () -> Void>.ID) -> Bool {
        lock.withLock { timers.cancel(timer) }
    }

    /// Traps in debug builds when called off the loop's thread: registrations, handlers,
    /// connections and their buffers belong to it alone.
    package func assertInLoop(file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
        if let loopThread { assert(pthread_equal(loopThread, pthread_self()) != 0, "off the event loop's thread", file: file, line: line) }
        #endif
    }

    private func signalWake() {
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    // MARK: Loop thread

    /// Adds `fd` to the set; `handler` runs on the loop's thread for each event until
    /// ``unregister(_:fd:)``. Returns nil when the kernel refuses (the caller closes `fd`).
    package func register(_ fd: Int32, interest: Interest, handler: @escaping Handler) -> Token? {
        assertInLoop()
        let token = nextToken
        nextToken += 1
        guard auditd_epoll_ctl(epoll, EPOLL_CTL_ADD, fd, interest.bits, token) == 0 else { return nil }
        handlers[token] = handler
        return token
    }

    package func modify(_ token: Token, fd: Int32, interest: Interest) {
        assertInLoop()
        _ = auditd_epoll_ctl(epoll, EPOLL_CTL_MOD, fd, interest.bits, token)
    }

    /// Removes `fd` from the set; from now on no event reaches its handler, and the caller
    /// may close it.
    package func unregister(_ token: Token, fd: Int32) {
        assertInLoop()
        _ = auditd_epoll_ctl(epoll, EPOLL_CTL_DEL, fd, 0, token)
        handlers[token] = nil
    }

    private func run() {
        loopThread = pthread_self()
        var tokens = [UInt64](repeating: 0, count: 256)
        var bits = [UInt32](repeating: 0, count: 256)
        while true {
            let timeout = millisecondsToNextTimer()
            let count = tokens.withUnsafeMutableBufferPointer { tokens in
                bits.withUnsafeMutableBufferPointer { bits in
                    auditd_epoll_wait(epoll, tokens.baseAddress, bits.baseAddress, 256, timeout)
                }
            }
            if count < 0, errno != EINTR {
                fputs("auditd: epoll_wait failed (\(String(cString: strerror(errno))))\n", stderr)
                exit(1)
            }
            for index in 0..<max(0, Int(count)) {
                if tokens[index] == 0 {
                    var value: UInt64 = 0
                    _ = read(wake, &value, 8)
                    continue
                }
                // A handler earlier in this batch may have unregistered this one.
                handlers[tokens[index]]?(Events(bits: bits[index]))
            }
            runPosted()
            runDueTimers()
        }
    }

    private func runPosted() {
        let work: [@Sendable () -> Void] = lock.withLock {
            wakePending = false
            defer { posted.removeAll(keepingCapacity: true) }
            return posted
        }
        for item in work { item() }
    }

    private func runDueTimers() {
        let now = Timestamp.monotonic()
        let due: [@Sendable () -> Void] = lock.withLock { timers.takeDue(now: now) }
        for item in due { item() }
    }

    private func millisecondsToNextTimer() -> Int32 {
        let next: UInt64? = lock.withLock { wakePending ? 0 : timers.nextDeadline }
        guard let next else { return -1 }
        let now = Timestamp.monotonic()
        guard next > now else { return 0 }
        // Rounded up, so a timer never fires early.
        return Int32(min((next - now + 999_999) / 1_000_000, 60_000))
    }
}

/// The kernel refused what the event loop needs.
public struct EventLoopError: Error, CustomStringConvertible {
    public let operation: String
    public let errno: Int32
    public var description: String { "\(operation): \(String(cString: strerror(errno)))" }
}
