import AuditCore
import AuditHistory
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading the journal back: the records after a seq as a ``JournalBacklog`` read off the
/// journal's queue (readers never hold up the writers' syncs), and followers that receive
/// new records as they become durable.
extension Journal {
    /// The durable records with a seq greater than `since`, as a ``JournalBacklog`` read
    /// in pieces by its one consumer (the files are opened now, so rotation later does not
    /// move them); with `follower`, also registers it for the records written from now on
    /// — in one step on the journal's queue, so no record is missed or repeated between
    /// the two. `done` gets the backlog and the follower's id.
    package func backlog(since: UInt64, then follower: Follower?, done: @escaping @Sendable (JournalBacklog, Int?) -> Void) {
        queue.async {
            var sources: [JournalBacklog.Source] = []
            var firstHeld: UInt64?
            for file in self.files() {
                let input = Glibc.open(file, O_RDONLY | O_CLOEXEC)
                guard input >= 0 else { continue }
                var info = stat()
                fstat(input, &info)
                // The file being written: only what is durable (no flush runs now).
                let length = file == self.path ? min(Int(info.st_size), self.size) : Int(info.st_size)
                // The oldest record still held: a reader asking for older ones is told of the gap.
                if firstHeld == nil, length > 0 { firstHeld = Journal.seq(ofLineAt: 0, in: input, end: length) }
                // Whole files of older records are skipped without being read.
                if let last = Journal.lastSeq(in: input, length: length), last <= since {
                    close(input)
                    continue
                }
                // In the first file read, the lines after `since` are found by bisection.
                let start = sources.isEmpty && since > 0 ? Journal.start(after: since, in: input, length: length) : 0
                sources.append(JournalBacklog.Source(fd: input, length: length, start: start))
            }
            var id: Int?
            if let follower {
                self.nextFollower += 1
                self.followers[self.nextFollower] = follower
                id = self.nextFollower
            }
            done(JournalBacklog(sources: sources, since: since, firstHeld: firstHeld ?? (self.seq + 1)), id)
        }
    }

    /// Stops a follower (the client went away).
    package func unfollow(_ id: Int) {
        queue.async { self.followers[id] = nil }
    }

    /// The seq of a journal line, read from its `{"seq":N,` prefix (``JournalFiles``).
    static func seq<Line: Collection>(of line: Line) -> UInt64? where Line.Element == UInt8 { JournalFiles.seq(of: line) }
}
