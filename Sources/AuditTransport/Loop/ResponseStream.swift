/// A chunked response body produced while it is sent: first a backlog pulled as the
/// socket drains (journal files read in pieces, never whole into memory), then — for a
/// follower — live chunks pushed as records become durable. Confined to the I/O thread.
package final class ResponseStream {
    /// Fills the buffer with the next piece of the backlog (at most about `limit` bytes,
    /// more only for one line longer than that); returns false once the backlog is done.
    package typealias Backlog = (_ into: inout [UInt8], _ limit: Int) -> Bool

    package let head: HTTPResponse
    package private(set) var backlog: Backlog?
    /// Whether live chunks follow the backlog (the stream then ends only with the connection).
    package let follows: Bool
    /// Chunked framing (HTTP/1.1); false for an HTTP/1.0 client, whose body then ends
    /// when the connection closes (RFC 9112 §6.3: it cannot read chunked bodies).
    package let chunked: Bool
    /// Live chunks (framed, as pieces) that arrived while the backlog was still being sent.
    package private(set) var waiting: [[UInt8]] = []
    package private(set) var waitingBytes = 0
    /// Called once when the stream ends (the client left, or the daemon shuts down).
    package var onEnd: (() -> Void)?

    package init(head: HTTPResponse, follows: Bool, chunked: Bool = true, backlog: Backlog?) {
        self.head = head
        self.follows = follows
        self.chunked = chunked
        self.backlog = backlog
    }

    /// The next backlog piece; nil once it is done (then ``backlog`` is nil too).
    package func pull(limit: Int) -> [UInt8]? {
        guard let backlog else { return nil }
        var piece: [UInt8] = []
        while piece.isEmpty {
            if !backlog(&piece, limit) {
                self.backlog = nil
                return piece.isEmpty ? nil : piece
            }
        }
        return piece
    }

    /// Keeps a live chunk's framed pieces until the backlog is sent.
    package func hold(_ pieces: [[UInt8]]) {
        for piece in pieces {
            waiting.append(piece)
            waitingBytes += piece.count
        }
    }

    /// The live chunks held back, handed over once.
    package func takeWaiting() -> [[UInt8]] {
        defer {
            waiting = []
            waitingBytes = 0
        }
        return waiting
    }

    /// What to send next while fewer than `lowWater` bytes wait unsent (`unsentBytes` now):
    /// backlog pieces, framed, as the client reads; once the backlog is done, the live
    /// chunks held back, and — for a stream without followers — the end of the body.
    /// `finished` once such a stream has given all of itself (it has then ended).
    package func nextPieces(unsentBytes: Int, lowWater: Int = 256 << 10) -> (pieces: [[UInt8]], held: [[UInt8]], finished: Bool) {
        var pieces: [[UInt8]] = []
        var queued = unsentBytes
        while queued < lowWater, backlog != nil {
            if let piece = pull(limit: lowWater) {
                let framed = frame(piece)
                queued += framed.count
                pieces.append(framed)
            }
        }
        guard backlog == nil else { return (pieces, [], false) }
        // Only followers hold live chunks: a stream that ends has none.
        let held = takeWaiting()
        if follows { return (pieces, held, false) }
        if chunked { pieces.append(HTTPResponse.chunk([])) }
        end()
        return (pieces, held, true)
    }

    /// The head on the wire: chunked, or close-delimited for HTTP/1.0.
    package func wireHead(closing: Bool) -> [UInt8] { chunked ? head.chunkedHead(closing: closing) : head.closeDelimitedHead() }

    /// One piece of the body on the wire (an empty one ends a chunked body; nothing
    /// ends a close-delimited one but the close).
    package func frame(_ piece: [UInt8]) -> [UInt8] { chunked ? HTTPResponse.chunk(piece) : piece }

    /// A live chunk framed as pieces: its size line, the chunk's own bytes (shared with
    /// every other follower's queue, not copied) and its end; the chunk alone unchunked.
    package func frames(_ piece: [UInt8]) -> [[UInt8]] {
        guard chunked else { return [piece] }
        return [Array((String(piece.count, radix: 16) + "\r\n").utf8), piece, [0x0D, 0x0A]]
    }

    package func end() {
        let callback = onEnd
        onEnd = nil
        callback?()
    }
}
