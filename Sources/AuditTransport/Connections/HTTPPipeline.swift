/// The request/response pipeline of one HTTP connection, as a value: the requests handed
/// on and not yet answered, in order, with their answers as they come; whether another
/// request may still be read; and where the connection is in its life. Every move is a
/// method that refuses an illegal one — answering a request never opened, or one already
/// answered; opening a request after the one that closes the connection, or once it is
/// closing — with a ``Refusal`` saying which (swift-nio's `HTTPServerPipelineHandler`
/// state is the model). It holds no channel, buffer or clock: ``Connection`` does the I/O
/// and asks it what may happen next, and its tests drive it alone.
///
/// Answers go out in request order whatever order they are given in: ``takeNext()`` gives
/// the first request's answer once it has one, never a later one before it.
package struct HTTPPipeline<Answer> {
    /// Where the connection is in its life.
    package enum Phase: Equatable {
        /// Reading requests and answering them.
        case open
        /// Sending the answers it has, after which it closes: an answer that closes it was
        /// taken, or the server is ending a follower.
        case closingWhenFlushed
        /// Closed: nothing more moves.
        case closed
    }

    /// An illegal move, refused.
    package enum Refusal: Error, Equatable {
        /// The connection is closed (or closing, for a new request).
        case notOpen
        /// A request opened after the one whose answer closes the connection
        /// (`Connection: close`, HTTP/1.0, a parse failure, a timeout): nothing after it
        /// is handled.
        case afterLastRequest
        /// No open request has this serial: never opened, or answered and sent.
        case unknownRequest(Int)
        /// The request was answered already.
        case answeredTwice(Int)
    }

    private struct Slot {
        var serial: Int
        var answer: Answer?
        var closes: Bool
    }

    private var slots: [Slot] = []
    private var nextSerial = 0
    /// A request whose answer closes the connection was opened: it is the last.
    private var closingOpened = false
    package private(set) var phase = Phase.open
    /// A request that closes the connection was read: no more are read or handed on.
    package private(set) var sawLastRequest = false
    /// The client finished sending (a read of zero bytes).
    package private(set) var peerFinished = false

    package init() {}

    /// Requests handed on and not yet answered and sent.
    package var count: Int { slots.count }
    package var isEmpty: Bool { slots.isEmpty }
    /// Requests handed on whose answers have not come.
    package var unanswered: Int { slots.reduce(0) { $0 + ($1.answer == nil ? 1 : 0) } }
    /// The answers given and not yet taken, in request order.
    package var pendingAnswers: [Answer] { slots.compactMap(\.answer) }

    /// The first answer given and not yet taken that `matches` (a queued follow stream),
    /// looked for without gathering them.
    package func firstAnswer(where matches: (Answer) -> Bool) -> Answer? {
        for slot in slots {
            if let answer = slot.answer, matches(answer) { return answer }
        }
        return nil
    }
    /// Whether reading may go on: open, no last request seen, the client still sending.
    package var mayRead: Bool { phase == .open && !sawLastRequest && !peerFinished }

    /// Opens the next request; `closes` when its answer ends the connection. Its serial
    /// is what answers it.
    package mutating func open(closes: Bool) throws(Refusal) -> Int {
        guard phase == .open else { throw .notOpen }
        guard !closingOpened else { throw .afterLastRequest }
        if closes { closingOpened = true }
        nextSerial += 1
        slots.append(Slot(serial: nextSerial, answer: nil, closes: closes))
        return nextSerial
    }

    /// The request that closes the connection was read: later ones are not opened.
    package mutating func lastRequestRead() { sawLastRequest = true }

    /// The client finished sending.
    package mutating func peerFinishedSending() { peerFinished = true }

    /// Whether the answer to `serial` closes the connection.
    package func closes(_ serial: Int) throws(Refusal) -> Bool {
        guard phase != .closed else { throw .notOpen }
        guard let slot = slots.first(where: { $0.serial == serial }) else { throw .unknownRequest(serial) }
        return slot.closes
    }

    /// Answers `serial`: `closing` makes its answer close the connection (a timeout, a
    /// refusal for memory); `make` builds the answer knowing whether it closes.
    package mutating func answer(_ serial: Int, closing: Bool = false, _ make: (_ closes: Bool) -> Answer) throws(Refusal) {
        guard phase != .closed else { throw .notOpen }
        guard let position = slots.firstIndex(where: { $0.serial == serial }) else { throw .unknownRequest(serial) }
        guard slots[position].answer == nil else { throw .answeredTwice(serial) }
        if closing { slots[position].closes = true }
        slots[position].answer = make(slots[position].closes)
    }

    /// The first request's answer, once it has one, and whether it closes the connection
    /// (once it is sent — or, for a stream, once the stream ends — the connection calls
    /// ``closeWhenFlushed()``); nil while the first request waits for its answer, so a
    /// later answer never goes before it.
    package mutating func takeNext() -> (answer: Answer, closes: Bool)? {
        guard phase != .closed, let first = slots.first, let answer = first.answer else { return nil }
        slots.removeFirst()
        return (answer, first.closes)
    }

    /// Sends what is queued and closes: no further request is opened or answered; the
    /// answers of requests still open are dropped and handed back.
    @discardableResult
    package mutating func closeWhenFlushed() -> [Answer] {
        guard phase == .open else { return [] }
        phase = .closingWhenFlushed
        let dropped = slots.compactMap(\.answer)
        slots.removeAll()
        return dropped
    }

    /// Closes: every answer not yet taken is handed back, to release.
    @discardableResult
    package mutating func close() -> [Answer] {
        guard phase != .closed else { return [] }
        phase = .closed
        let dropped = slots.compactMap(\.answer)
        slots.removeAll()
        return dropped
    }
}
