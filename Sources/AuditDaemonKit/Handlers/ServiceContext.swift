import AuditCore
import AuditTransport

/// What a route's handler may use: the service's parts and the settings it reads — not
/// the server that hosts them (its acceptor, connections and sweeper). The server makes
/// one and hands it to the ``Router``; a handler reaches nothing else.
final class ServiceContext: @unchecked Sendable {
    /// The daemon's settings handlers read.
    struct Settings: Sendable {
        /// The HTTP limits (a snapshot's largest body, among them).
        var limits: HTTPRequestParser.Limits
        /// Seconds an audit may take before it is cut short.
        var auditBudget: Double
        /// Seconds OCR may take on one screenshot.
        var ocrBudget: Double
        /// Findings past this many bytes are spilled to a file until journalled.
        var spillFindingsAfterBytes: Int
        /// Android pixels per dp when a request does not say.
        var androidDensity: Double?
    }

    let settings: Settings
    /// The event loop: answers are given on it.
    let loop: EventLoop
    /// Audits and transcripts run here; OCR on its own pool, one at a time.
    let pool: WorkPool
    let ocrPool: WorkPool
    let recognizer: LazyRecognizer
    let memory: MemoryBudget
    let metrics: Metrics
    let ruleSets: RuleSetStore
    let journal: Journal
    let trends: TrendIndex?
    /// Where findings too large to hold wait for the journal.
    var spillDirectory: String { journal.directory }
    /// Monotonic nanoseconds when the service started.
    let started: UInt64
    private let draining: @Sendable () -> Bool

    init(
        settings: Settings, loop: EventLoop, pool: WorkPool, ocrPool: WorkPool, recognizer: LazyRecognizer, memory: MemoryBudget,
        metrics: Metrics, ruleSets: RuleSetStore, journal: Journal, trends: TrendIndex?, started: UInt64,
        draining: @escaping @Sendable () -> Bool
    ) {
        self.settings = settings
        self.loop = loop
        self.pool = pool
        self.ocrPool = ocrPool
        self.recognizer = recognizer
        self.memory = memory
        self.metrics = metrics
        self.ruleSets = ruleSets
        self.journal = journal
        self.trends = trends
        self.started = started
        self.draining = draining
    }

    /// Whether the daemon is shutting down (health says so).
    var isDraining: Bool { draining() }
    /// Seconds since the service started.
    var uptime: Double { Double(Timestamp.monotonic() - started) / 1e9 }
}
