/// How serious a finding is. Ordered: `notice` < `warning` < `error`.
public enum Severity: String, Sendable, CaseIterable, Comparable {
    case notice, warning, error

    public var rank: Int {
        switch self {
        case .notice: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}
