/// Where each finding of an audit's parallel placing goes (``AuditFindings/Slot``: its
/// job, its position there, its fingerprint and defect), written straight into their
/// final storage: chunk `p` initializes slots from `p × chunkSize` on, and
/// ``takeArray()`` closes the gaps left by suppressed findings and hands the storage over
/// as the report's array. The findings themselves stay in their rules' arrays.
///
/// Each chunk touches only its own slots, and the storage is read only after every
/// chunk has finished — hence `@unchecked Sendable`.
final class PlacedFindings: @unchecked Sendable {
    private let base: UnsafeMutablePointer<AuditFindings.Slot>
    private let capacity: Int
    let chunkSize: Int
    /// Slots initialized and not yet handed over, per chunk (written by that chunk only):
    /// raw memory, so chunks on different threads write distinct words and nothing else
    /// (an array would check its uniqueness, shared by all, on every write).
    private let initialized: UnsafeMutableBufferPointer<Int>
    private var handedOver = false

    init(count: Int, chunkSize: Int) {
        capacity = count
        self.chunkSize = chunkSize
        base = .allocate(capacity: max(count, 1))
        initialized = .allocate(capacity: max((count + chunkSize - 1) / chunkSize, 1))
        initialized.initialize(repeating: 0)
    }

    /// Stores the `offset`-th kept finding of chunk `part` (offsets count up from 0).
    func store(_ located: AuditFindings.Slot, part: Int, offset: Int) {
        precondition(offset < chunkSize && part * chunkSize + offset < capacity, "slot out of its chunk")
        (base + part * chunkSize + offset).initialize(to: located)
        initialized[part] = offset + 1
    }

    /// Every stored finding, in chunk order then offset order.
    func takeArray() -> [AuditFindings.Slot] {
        precondition(!handedOver, "findings already handed over")
        handedOver = true
        let total = initialized.reduce(0, +)
        return [AuditFindings.Slot](unsafeUninitializedCapacity: total) { buffer, count in
            guard let target = buffer.baseAddress else { return }
            for (part, stored) in initialized.enumerated() where stored > 0 {
                (target + count).moveInitialize(from: base + part * chunkSize, count: stored)
                count += stored
            }
        }
    }

    deinit {
        if !handedOver {
            for (part, stored) in initialized.enumerated() { (base + part * chunkSize).deinitialize(count: stored) }
        }
        base.deallocate()
        initialized.deallocate()
    }
}
