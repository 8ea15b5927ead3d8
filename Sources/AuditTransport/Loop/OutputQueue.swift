/// The bytes a connection has to send, in order, as pieces it never joins: a head and a
/// body of megabytes go out one after the other. Knows how much is unsent; written
/// through whatever channel the connection has.
package struct OutputQueue {
    private var pieces: [[UInt8]] = []
    /// Bytes of the first piece already sent.
    private var offset = 0
    /// Bytes queued and not yet sent.
    package private(set) var unsentBytes = 0

    package init() {}

    package var isEmpty: Bool { pieces.isEmpty }

    package mutating func append(_ piece: [UInt8]) {
        guard !piece.isEmpty else { return }
        pieces.append(piece)
        unsentBytes += piece.count
    }

    /// What one write did: bytes sent, and whether the channel took all it was offered.
    package enum Progress: Equatable {
        /// `count` bytes went out; the queue may be empty now.
        case sent(Int)
        /// The channel takes nothing more now.
        case blocked
        /// The channel failed or was interrupted (see `io`).
        case stopped(ChannelIO)
    }

    /// Writes the first piece (what is left of it) once.
    package mutating func writeOnce(_ send: (UnsafeRawBufferPointer) -> ChannelIO) -> Progress {
        guard let piece = pieces.first else { return .sent(0) }
        let offset = self.offset
        let io = piece.withUnsafeBytes { send(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
        switch io {
        case .transferred(let count):
            self.offset += count
            unsentBytes -= count
            if self.offset >= piece.count {
                pieces.removeFirst()
                self.offset = 0
            }
            return .sent(count)
        case .wouldBlock: return .blocked
        default: return .stopped(io)
        }
    }

    package mutating func removeAll() {
        pieces.removeAll()
        offset = 0
        unsentBytes = 0
    }
}
