/// Where each finding of an audit's parallel placing goes (``AuditFindings/Slot``: its
/// job, its position there, its fingerprint and defect), written straight into the
/// storage of the report's array: chunk `p` initializes slots from `p × chunkSize` on, and
/// the gaps left by suppressed findings are closed in place once every chunk is done. The
/// findings themselves stay in their rules' arrays. (The slots were once gathered into
/// a second array: at 100,000 findings, 2.4 MB more at the audit's peak.)
///
/// Each chunk touches only its own slots, and the storage is read only after every
/// chunk has finished — hence `@unchecked Sendable`.
final class PlacedFindings: @unchecked Sendable {
    private let base: UnsafeMutablePointer<AuditFindings.Slot>
    private let capacity: Int
    let chunkSize: Int
    /// Slots initialized, per chunk (written by that chunk only): raw memory, so chunks on
    /// different threads write distinct words and nothing else (an array would check its
    /// uniqueness, shared by all, on every write).
    private let initialized: UnsafeMutableBufferPointer<Int>

    private init(base: UnsafeMutablePointer<AuditFindings.Slot>, capacity: Int, chunkSize: Int) {
        self.base = base
        self.capacity = capacity
        self.chunkSize = chunkSize
        initialized = .allocate(capacity: max((capacity + chunkSize - 1) / chunkSize, 1))
        initialized.initialize(repeating: 0)
    }

    deinit { initialized.deallocate() }

    /// The slots `fill` stores (it must have returned every chunk's work before it
    /// returns), in chunk order then offset order, gaps closed; `fill` is not called for
    /// no findings.
    static func array(count: Int, chunkSize: Int, fill: (PlacedFindings) -> Void) -> [AuditFindings.Slot] {
        guard count > 0 else { return [] }
        return [AuditFindings.Slot](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            guard let base = buffer.baseAddress else { return }
            let placed = PlacedFindings(base: base, capacity: count, chunkSize: chunkSize)
            fill(placed)
            initializedCount = placed.closeGaps()
        }
    }

    /// Stores the `offset`-th kept finding of chunk `part` (offsets count up from 0).
    func store(_ located: AuditFindings.Slot, part: Int, offset: Int) {
        precondition(offset < chunkSize && part * chunkSize + offset < capacity, "slot out of its chunk")
        (base + part * chunkSize + offset).initialize(to: located)
        initialized[part] = offset + 1
    }

    /// Moves each chunk's slots down to follow the chunk before's; returns how many there are.
    private func closeGaps() -> Int {
        var count = 0
        for (part, stored) in initialized.enumerated() where stored > 0 {
            let start = part * chunkSize
            // Overlapping moves are safe (a slot is plain integers, and the move is a memmove).
            if start != count { (base + count).moveInitialize(from: base + start, count: stored) }
            count += stored
        }
        return count
    }
}
