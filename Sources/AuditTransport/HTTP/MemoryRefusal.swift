import AuditSupport

extension HTTPResponse {
    /// The answer to a request refused for memory: 503, with what `budget` holds, what the
    /// request needs and how to get it.
    package static func memoryRefusal(_ budget: MemoryBudget, needing bytes: Int) -> HTTPResponse {
        let mib = { (value: Int) -> String in
            var digits: [UInt8] = []
            DecimalWriter.append(Double(value) / 1_048_576, decimals: 3, to: &digits)
            return String(decoding: digits, as: UTF8.self)
        }
        return .error(
            503, code: "memory-exhausted",
            message:
                "auditd holds \(mib(budget.inUse)) MiB of request bodies, screenshots and unsent answers; this request needs \(mib(bytes)) MiB more, over the limit of \(mib(budget.limit)) MiB",
            hint: "retry shortly (other audits are finishing), or start auditd with a larger --memory-limit",
            extraHeaders: [("Retry-After", "1")])
    }
}
