import CSystem

/// Memory the allocator holds after large audits, handed back to the system.
enum FreedMemory {
    /// Audits of snapshots this large give their freed memory back as soon as their model
    /// is let go (``giveBack()``), not at the server's next sweep.
    static let trimAfterSnapshotBytes = 1 << 20

    /// Hands the allocator's free blocks back to the system (`malloc_trim`): a few
    /// milliseconds, from any thread.
    static func giveBack() { _ = auditd_malloc_trim() }
}
