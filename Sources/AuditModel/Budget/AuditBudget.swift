/// How long one audit may run, and whether it is still wanted: rules check it between
/// steps of their loops (``RuleContext/outOfBudget()``) and the auditor before each rule.
/// A rule cut short, or never started, is reported incomplete with the reason — never a
/// silent pass.
public struct AuditBudget: Sendable {
    /// Monotonic nanoseconds after which the audit stops; `.max` for none.
    public let deadline: UInt64
    /// The budget as given, for the reason text.
    public let seconds: Double?
    /// Set when the client that asked has gone.
    public let cancellation: CancellationFlag?

    public static let unlimited = AuditBudget(deadline: .max, seconds: nil, cancellation: nil)

    init(deadline: UInt64, seconds: Double?, cancellation: CancellationFlag?) {
        self.deadline = deadline
        self.seconds = seconds
        self.cancellation = cancellation
    }

    /// `seconds` from now (clamped to a day), stopped early when `cancellation` is set.
    public init(seconds: Double, startingAt start: UInt64 = Timestamp.monotonic(), cancellation: CancellationFlag? = nil) {
        let clamped = seconds.isFinite ? min(max(seconds, 0), 86_400) : 86_400
        self.init(deadline: start &+ UInt64(clamped * 1e9), seconds: clamped, cancellation: cancellation)
    }

    public var isCancelled: Bool { cancellation?.isCancelled == true }

    public var isExhausted: Bool { isCancelled || (deadline != .max && Timestamp.monotonic() > deadline) }

    /// How every reason of a budget that ran out starts (`AuditBudget.ranOut(in:)` looks for it).
    package static let ranOutPrefix = "the audit's time budget"

    /// Why a rule did not finish, for its `incomplete` entry.
    package func reason(started: Bool) -> String {
        if isCancelled { return "the client went away; the audit stopped" }
        let budget = seconds.map { "\($0.formattedForReport) s" } ?? "its"
        return started
            ? "\(AuditBudget.ranOutPrefix) (\(budget)) ran out while this rule ran; its findings may be partial"
            : "\(AuditBudget.ranOutPrefix) (\(budget)) ran out before this rule ran"
    }
}
