import CSystem
import AuditCore
import AuditTransport
import Dispatch
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The daemon's event loop: accepts connections on the Unix socket, checks peers, routes
/// requests, runs audits on the bounded pool, sweeps timeouts, and drains on shutdown.
/// Its mutable state is touched on the event loop's thread (`loop`) only; audits run on the
/// pools and hand their answers back to the loop.
package final class Server: @unchecked Sendable {
    package struct Configuration: Sendable {
        package var limits = HTTPRequestParser.Limits()
        package var maxConnections = 256
        package var workers = 2
        package var queueLimit = 64
        /// Seconds a request may take to arrive once started (408 after).
        package var readTimeout: Double = 10
        /// Seconds an idle keep-alive connection stays open.
        package var idleTimeout: Double = 60
        package var drainTimeout: Double = 30
        /// Seconds one audit may take (parse and rules); rules it leaves out are reported
        /// incomplete, with the reason.
        package var auditBudget: Double = 10
        /// Seconds OCR may take in one audit that asks for it (within ``auditBudget``): a
        /// phone screenshot takes 0.2–2 s; past this the text rules are incomplete.
        package var ocrBudget: Double = 5
        /// The OCR worker's data segment (`--ocr-memory-limit`), reserved from the memory
        /// budget while it reads.
        package var ocrMemoryLimit = 512 << 20
        /// Seconds a connection may leave its answers unread before it is closed.
        package var writeTimeout: Double = 30
        /// Bytes of answers a client may leave unread before its connection stops reading.
        package var maxUnsentBytes = 4 << 20
        /// The trend index's file: `nil` beside the journal (`JOURNAL.index.sqlite`),
        /// `"none"` for no index (trend routes answer 404 `trends-disabled`).
        package var trendIndex: String?
        /// Bytes a follow stream may lag behind the journal before it is ended.
        package var followLagBytes = 8 << 20
        /// Bytes of request bodies, decoded screenshots and unsent answers held at once,
        /// across the daemon (``MemoryBudget``); past it, 503 `memory-exhausted`.
        package var memoryLimit = 1 << 30
        package var androidDensity: Double?
        /// While other audits run, how long the journal waits before a sync so that their
        /// records share it (group commit); 0 syncs at once.
        package var journalCommitDelayMicroseconds = 700
        /// An audit's written findings past this many bytes wait in a scratch file beside
        /// the journal until its snapshot is let go (``Auditor/Spill``); 0 never spills.
        package var spillFindingsAfterBytes = 8 << 20

        package init() {}
    }

    let configuration: Configuration
    /// The I/O thread: accepts, reads, writes, timers; handlers hop back to it.
    let loop: EventLoop
    /// Receive buffer of every connection (they all read on the loop's thread).
    private let scratch = Connection.Scratch()
    let logger: Logger
    let metrics = Metrics(phases: AuditStage.allCases.map(\.rawValue))
    let ruleSets: RuleSetStore
    let journal: Journal
    /// The trend index beside the journal (docs/trends.md).
    let trends: TrendIndex?
    let policy: AccessPolicy
    let pool: WorkPool
    /// Audits that asked for OCR (`?ocr=1`) run here, one at a time: they never hold up
    /// the others' workers (docs/ocr.md).
    /// At most 4 wait: each is held to the OCR budget, so the wait is bounded by 4 budgets,
    /// and past it the answer is 503 with Retry-After (16 waited about 15 minutes when OCR
    /// ignored its budget).
    let ocrPool = WorkPool(workers: 1, queueLimit: 4)
    /// The OCR engine, loaded on the first audit that asks for it.
    let recognizer: LazyRecognizer
    let memory: MemoryBudget
    let started = Timestamp.monotonic()
    private let listener: Listener.Socket
    private var acceptToken: EventLoop.Token?
    private var sweeping = true
    private var connections: [Int: Connection] = [:]
    private var nextConnection = 0
    private(set) var isDraining = false
    /// What the routes' handlers use: the service's parts, not this server.
    private lazy var service = ServiceContext(
        settings: .init(
            limits: configuration.limits, auditBudget: configuration.auditBudget, ocrBudget: configuration.ocrBudget,
            spillFindingsAfterBytes: configuration.spillFindingsAfterBytes, androidDensity: configuration.androidDensity),
        loop: loop, pool: pool, ocrPool: ocrPool, recognizer: recognizer, memory: memory, metrics: metrics, ruleSets: ruleSets,
        journal: journal, trends: trends, started: started, draining: { [unowned self] in isDraining })
    private lazy var router = Router(service: service)

    package init(
        configuration: Configuration, listener: Listener.Socket, ruleSets: RuleSetStore, journal: Journal,
        policy: AccessPolicy, logger: Logger
    ) throws(EventLoopError) {
        self.loop = try EventLoop()
        self.configuration = configuration
        self.listener = listener
        self.ruleSets = ruleSets
        self.journal = journal
        self.trends = configuration.trendIndex == "none" ? nil : TrendIndex(path: configuration.trendIndex, journal: journal, logger: logger)
        self.policy = policy
        self.logger = logger
        self.pool = WorkPool(workers: configuration.workers, queueLimit: configuration.queueLimit)
        let memory = MemoryBudget(limit: configuration.memoryLimit)
        self.memory = memory
        self.recognizer = LazyRecognizer(logger: logger, memoryLimit: configuration.ocrMemoryLimit, memory: memory)
        let pool = self.pool
        journal.setCommitDelay(microseconds: configuration.journalCommitDelayMicroseconds, whileRunning: { pool.running })
    }

    /// Starts accepting; returns at once (work happens on the event loop's thread).
    package func start() {
        trends?.start()
        loop.start()
        loop.async { [self] in
            acceptToken = loop.register(listener.fd, interest: .init(read: true, write: false)) { [weak self] _ in self?.acceptAll() }
            if acceptToken == nil { logger.error("cannot watch the listening socket", ["error": String(cString: strerror(errno))]) }
            scheduleSweep()
        }
    }

    private func scheduleSweep() {
        loop.after(seconds: 0.25) { [weak self] in
            guard let self, self.sweeping else { return }
            self.sweep()
            self.scheduleSweep()
        }
    }

    private func acceptAll() {
        while true {
            let fd = accept(listener.fd, nil, nil)
            if fd >= 0 {
                // accept4 is behind _GNU_SOURCE; set the flags by hand.
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                Listener.setNonBlocking(fd)
            }
            if fd < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN, errno != EWOULDBLOCK { logger.warning("accept failed", ["error": String(cString: strerror(errno))]) }
                return
            }
            let peer = PeerCredentials.of(socket: fd)
            let forbidden = peer.map { !policy.allows($0) } ?? true
            if forbidden {
                // Refused before a byte of its request is read: a peer that may not use the
                // daemon holds no connection slot and no request buffer.
                metrics.peerForbidden()
                logger.warning(
                    "refused a peer that is not allowed",
                    [
                        "uid": peer.map { String($0.uid) } ?? "?", "gid": peer.map { String($0.gid) } ?? "?",
                        "pid": peer.map { String($0.pid) } ?? "?",
                    ])
                refuse(
                    fd,
                    HTTPResponse.error(
                        403, code: "forbidden",
                        message: "this user may not use auditd; ask for --allow-uid or membership of the socket's group"))
                metrics.requestFinished(route: "forbidden", status: 403)
                continue
            }
            if connections.count >= configuration.maxConnections || isDraining {
                metrics.connectionRefused()
                refuse(
                    fd,
                    HTTPResponse.error(
                        503, code: isDraining ? "shutting-down" : "too-many-connections",
                        message: isDraining ? "auditd is shutting down" : "too many connections; retry shortly",
                        extraHeaders: [("Retry-After", "1")]))
                continue
            }
            nextConnection += 1
            let id = nextConnection
            let connection = Connection(
                id: id, channel: SocketChannel(fd: fd, loop: loop), peer: peer, parserLimits: configuration.limits,
                limits: Connection.Limits(maxUnsentBytes: configuration.maxUnsentBytes, followLagBytes: configuration.followLagBytes),
                scratch: scratch, memory: memory,
                onRequest: { [weak self] ticket, request in self?.handle(ticket, request) },
                onClosed: { [weak self] connection in
                    self?.connections[connection.id] = nil
                    self?.metrics.connectionClosed()
                },
                onFollowerDropped: { [weak self] in
                    self?.metrics.followerDropped()
                    self?.logger.warning("dropped a follower that fell behind", ["connection": String(id)])
                })
            connections[connection.id] = connection
            metrics.connectionOpened()
            connection.start()
        }
    }

    private func handle(_ ticket: Ticket, _ request: HTTPRequest) {
        router.route(ticket, request)
    }

    /// Refused connections waiting for their client to finish sending, by token.
    private var refused: [EventLoop.Token: (fd: Int32, until: UInt64)] = [:]
    /// Refused connections that may linger at once; past that they are closed at once.
    static let maxLingering = 64

    /// Refuses a connection at accept: a complete answer, then the write side shut. The
    /// request is never parsed nor kept; what the client still sends is read and thrown
    /// away for at most a second, because closing a Unix socket with unread bytes makes
    /// the client's next read fail (ECONNRESET) before it sees the answer.
    private func refuse(_ fd: Int32, _ response: HTTPResponse) {
        let bytes = response.serialized(keepAlive: false)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        shutdown(fd, Int32(SHUT_WR))
        guard refused.count < Server.maxLingering else {
            close(fd)
            return
        }
        let scratch = self.scratch
        var token: EventLoop.Token?
        token = loop.register(fd, interest: .init(read: true, write: false)) { [weak self] events in
            var finished = events.hungUp
            if !finished {
                let count = scratch.bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                finished = count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR)
            }
            if finished, let token { self?.endRefusal(token) }
        }
        guard let token else {
            close(fd)
            return
        }
        refused[token] = (fd, Timestamp.monotonic() + 1_000_000_000)
    }

    private func endRefusal(_ token: EventLoop.Token) {
        guard let entry = refused.removeValue(forKey: token) else { return }
        loop.unregister(token, fd: entry.fd)
        close(entry.fd)
    }

    private var lastTrim: UInt64 = 0

    private func sweep() {
        let now = Timestamp.monotonic()
        // Hand freed memory back to the system every few seconds (large snapshots leave big
        // free blocks behind); cheap next to an audit.
        if now - lastTrim > 2_000_000_000 {
            lastTrim = now
            FreedMemory.giveBack()
        }
        for (token, entry) in refused where entry.until < now { endRefusal(token) }
        for connection in connections.values {
            if let started = connection.requestStarted, Double(now - started) / 1e9 > configuration.readTimeout {
                metrics.timedOut()
                logger.info("cut off a slow client", ["connection": String(connection.id)])
                connection.timeOut()
            } else if let stalled = connection.writeStalledSince, Double(now - stalled) / 1e9 > configuration.writeTimeout {
                metrics.timedOut()
                logger.info("closed a client that stopped reading its answers", ["connection": String(connection.id)])
                connection.close()
            } else if !connection.isBusy, !connection.isStreaming, connection.requestStarted == nil,
                Double(now - connection.lastActivity) / 1e9 > configuration.idleTimeout
            {
                connection.close()
            }
        }
    }

    // MARK: Shutdown

    /// Stops accepting, lets in-flight audits finish (bounded by the drain timeout), ends
    /// follow streams, flushes the journal and removes the socket; then calls `completion`.
    package func drain(completion: @escaping @Sendable () -> Void) {
        loop.async { [self] in
            guard !isDraining else { return }
            isDraining = true
            if let acceptToken { loop.unregister(acceptToken, fd: listener.fd) }
            acceptToken = nil
            close(listener.fd)
            if !listener.activated { unlink(listener.path) }
            let deadline = Timestamp.monotonic() + UInt64(configuration.drainTimeout * 1e9)
            drainCheck(deadline: deadline, completion: completion)
        }
    }

    private func drainCheck(deadline: UInt64, completion: @escaping @Sendable () -> Void) {
        let busy = !pool.isIdle || connections.values.contains { $0.isBusy && !$0.isStreaming }
        if busy, Timestamp.monotonic() < deadline {
            loop.after(seconds: 0.02) { self.drainCheck(deadline: deadline, completion: completion) }
            return
        }
        if busy { logger.warning("drain timeout reached; closing with work in flight") }
        for connection in connections.values {
            if connection.isStreaming { connection.endStream() } else if !connection.isBusy { connection.close() }
        }
        sweeping = false
        loop.after(seconds: 0.05) {
            for connection in self.connections.values { connection.close() }
            self.journal.drain()
            completion()
        }
    }

}
