import AuditSupport

/// One client connection: reads and parses requests (pipelined ones too), keeps their
/// responses in request order, writes without blocking, and closes cleanly. Confined to
/// the server's event loop; handlers that finish elsewhere hop back to it. Its bytes move
/// through a ``ConnectionChannel`` (the socket, or a test's fake): it knows no descriptor.
///
/// Every cost a client can cause here is bounded: at most ``maxPipelined`` requests
/// parsed ahead of their answers, and reading stops while more than
/// ``Limits/maxUnsentBytes`` of answers wait for the client to read them (backpressure);
/// a follower that lags more than ``Limits/followLagBytes`` behind is dropped; a client
/// whose answers make no progress for the server's write timeout is closed by its sweep
/// (``writeStalledSince``).
package final class Connection: @unchecked Sendable {
    package struct Limits: Sendable {
        /// Bytes of answers waiting to be read past which the connection stops reading.
        package var maxUnsentBytes = 4 << 20
        /// Bytes a follow stream may lag behind the journal before it is ended.
        package var followLagBytes = 8 << 20

        package init(maxUnsentBytes: Int = 4 << 20, followLagBytes: Int = 8 << 20) {
            self.maxUnsentBytes = maxUnsentBytes
            self.followLagBytes = followLagBytes
        }
    }

    /// An answer as the pipeline holds it until its turn.
    package enum Answer {
        /// Head and body, sent one after the other without joining.
        case bytes([[UInt8]])
        case stream(ResponseStream)
    }

    package let id: Int
    package let peer: PeerCredentials?
    private let channel: ConnectionChannel
    private var started = false
    private var interest = EventLoop.Interest(read: true, write: false)
    private let limits: Limits
    private var parser: HTTPRequestParser
    /// The requests handed on and their answers, in order; what may happen next.
    private var pipeline = HTTPPipeline<Answer>()
    /// Pieces waiting to be sent, in order.
    private var output = OutputQueue()
    private var unsentBytes: Int { output.unsentBytes }
    /// Where the connection is in its life.
    package var lifecycle: HTTPPipeline<Answer>.Phase { pipeline.phase }
    package var isClosed: Bool { pipeline.phase == .closed }
    private var closeWhenFlushed: Bool { pipeline.phase == .closingWhenFlushed }
    private var peerFinishedSending: Bool { pipeline.peerFinished }
    /// A request that closes the connection, or bytes that are not HTTP, were read: the
    /// connection reads no more and hands nothing more on.
    private var sawLastRequest: Bool { pipeline.sawLastRequest }
    /// The chunked response being sent now, if any (it is the first slot's).
    private var stream: ResponseStream?
    /// The connection closes once `stream` is sent (`Connection: close`, or HTTP/1.0).
    private var closeAfterStream = false
    package private(set) var lastActivity: UInt64
    package private(set) var requestStarted: UInt64?
    /// Since when answers have waited for the client to read them, without progress.
    package private(set) var writeStalledSince: UInt64?
    /// Set when the connection closes: work still running for it can stop.
    package let cancellation = CancellationFlag()
    private let onRequest: (Ticket, HTTPRequest) -> Void
    private let onClosed: (Connection) -> Void
    private let onFollowerDropped: () -> Void

    /// Where heads (and whatever follows them in one read) are received: one a server,
    /// shared by its connections, which all read on its one I/O thread and parse the
    /// bytes before the next read.
    package final class Scratch: @unchecked Sendable {
        package var bytes = [UInt8](repeating: 0, count: 64 * 1024)

        package init() {}
    }

    private let scratch: Scratch
    /// The body being received, reserved before its bytes arrive.
    private let pendingBody: MemoryReservation
    /// Answers waiting to be sent.
    private let outputMemory: MemoryReservation
    /// Bytes of answers filled but waiting behind an earlier one.
    private var waitingAnswerBytes = 0
    /// The largest answer body this connection has had: requests still being audited are
    /// counted at this size against ``Limits/maxUnsentBytes``.
    private var largestAnswer = 0

    /// Requests parsed but not yet answered, past which reading pauses.
    package static let maxPipelined = 32

    package init(
        id: Int, channel: ConnectionChannel, peer: PeerCredentials?, parserLimits: HTTPRequestParser.Limits, limits: Limits,
        scratch: Scratch, memory: MemoryBudget, onRequest: @escaping (Ticket, HTTPRequest) -> Void, onClosed: @escaping (Connection) -> Void,
        onFollowerDropped: @escaping () -> Void
    ) {
        self.id = id
        self.channel = channel
        self.peer = peer
        self.limits = limits
        self.scratch = scratch
        self.pendingBody = MemoryReservation(memory)
        self.outputMemory = MemoryReservation(memory)
        self.parser = HTTPRequestParser(limits: parserLimits)
        self.onRequest = onRequest
        self.onClosed = onClosed
        self.onFollowerDropped = onFollowerDropped
        self.lastActivity = Timestamp.monotonic()
    }

    /// Joins the event loop; false when the kernel refused (the connection is closed).
    @discardableResult
    package func start() -> Bool {
        started = channel.start { [weak self] events in self?.handle(events) }
        if !started {
            close()
            return false
        }
        return true
    }

    /// Pending work: requests received but not answered, or bytes not yet written.
    package var isBusy: Bool { !pipeline.isEmpty || !output.isEmpty || stream != nil || !held.isEmpty }
    /// A follow stream owns the connection until the client leaves.
    package var isStreaming: Bool { stream?.follows == true }

    package func handle(_ events: EventLoop.Events) {
        channel.assertInLoop()
        if events.hungUp {
            // The client closed its end (or the socket failed): nothing sent would be read.
            close()
            return
        }
        if events.readable { readAvailable() }
        if events.writable, !isClosed { flushOutput() }
    }

    private func setInterest(read: Bool? = nil, write: Bool? = nil) {
        var wanted = interest
        if let read { wanted.read = read }
        if let write { wanted.write = write }
        guard wanted != interest, started, !isClosed else { return }
        interest = wanted
        channel.setInterest(wanted)
    }

    // MARK: Reading

    private func readAvailable() {
        while !isClosed, interest.read {
            var io = ChannelIO.endOfStream
            let count: Int
            let events: [HTTPRequestParser.Event]
            /// The socket gave less than asked (it is empty now), or a body is whole (a
            /// keep-alive client sends its next request only after the answer): wait for
            /// the next read event instead of reading again.
            let waitForMore: Bool
            if let direct = parser.receiveBody({ buffer in
                io = channel.receive(into: buffer)
                if case .transferred(let count) = io { return count }
                return io == .endOfStream ? 0 : -1
            }) {
                // A body: received in place, into the request's own storage.
                (count, events) = (direct.received, direct.events)
                waitForMore = direct.received < direct.requested || !direct.events.isEmpty
            } else {
                io = scratch.bytes.withUnsafeMutableBytes { channel.receive(into: $0) }
                if case .transferred(let received) = io { count = received } else { count = io == .endOfStream ? 0 : -1 }
                events = count > 0 ? scratch.bytes.withUnsafeBytes { parser.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) } : []
                waitForMore = count < scratch.bytes.count
            }
            if count > 0 {
                lastActivity = Timestamp.monotonic()
                if parser.isMidRequest, requestStarted == nil { requestStarted = lastActivity }
                for event in events {
                    switch event {
                    case .request(var request):
                        request.memory = pendingBody.split(request.body.count)
                        request.firstByteAt = requestStarted ?? lastActivity
                        request.lastByteAt = lastActivity
                        requestStarted = parser.isMidRequest ? lastActivity : nil
                        if isStreaming || closeWhenFlushed || sawLastRequest { continue }
                        if !request.keepAlive {
                            // Its answer closes the connection: nothing after it is read or
                            // handled (RFC 9112 §9.6).
                            pipeline.lastRequestRead()
                            pauseReading()
                        }
                        if !held.isEmpty || mustHold {
                            held.append(.request(request))
                        } else {
                            dispatch(request)
                        }
                    case .continueExpected:
                        // Interim answer, only when it cannot overtake an earlier response.
                        if pipeline.isEmpty, output.isEmpty, held.isEmpty {
                            enqueue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                            flushOutput()
                        }
                    case .failure:
                        if sawLastRequest { continue }
                        requestStarted = nil
                        pipeline.lastRequestRead()
                        pauseReading()
                        if held.isEmpty {
                            refuse(event)
                        } else {
                            held.append(event)
                        }
                        return
                    }
                }
                if isClosed { return }
                let expected = parser.bodyBytesExpected
                if !pendingBody.grow(to: expected) {
                    // The daemon's memory is spent: refuse the body before its bytes arrive.
                    requestStarted = nil
                    guard let ticket = openSlot(close: true) else {
                        close()
                        return
                    }
                    answer(ticket, HTTPResponse.memoryRefusal(pendingBody.budget, needing: expected - pendingBody.bytes))
                    pauseReading()
                    return
                }
                if expected == 0 { pendingBody.release() }
                if mustPause { pauseReading() }
                if waitForMore { return }
            } else if count == 0 {
                pipeline.peerFinishedSending()
                pauseReading()
                if !isBusy || isStreaming { close() }
                return
            } else {
                if io == .wouldBlock { return }
                if io == .interrupted { continue }
                close()
                return
            }
        }
    }

    /// Requests parsed while the answers ahead of them were over the limit (a client
    /// sends 32 in one write): handed on in order as those answers drain.
    private var held: [HTTPRequestParser.Event] = []

    private func dispatch(_ request: HTTPRequest) {
        // Refused only after the request that closes the connection: nothing after it is
        // handled (RFC 9112 §9.6).
        guard let ticket = openSlot(close: !request.keepAlive) else { return }
        onRequest(ticket, request)
    }

    /// Answers a parser failure and stops reading (the connection closes after it).
    private func refuse(_ event: HTTPRequestParser.Event) {
        guard case .failure(let failure) = event, let ticket = openSlot(close: true) else { return }
        answer(ticket, HTTPResponse.error(failure.status, code: failure.code, message: failure.message))
    }

    /// Whether the next parsed request waits: the answers ahead are over the limit, or
    /// no answer's size is known yet and two requests are already running.
    private var mustHold: Bool {
        if pipeline.count >= Connection.maxPipelined || answerBytesAhead > limits.maxUnsentBytes { return true }
        return largestAnswer == 0 && pipeline.count >= 2
    }

    /// Hands on held requests while the answers ahead allow.
    private func releaseHeld() {
        while !isClosed, let next = held.first, !mustHold {
            held.removeFirst()
            switch next {
            case .request(let request): dispatch(request)
            case .failure: refuse(next)
            case .continueExpected: break
            }
        }
    }

    /// Too many requests ahead of their answers, or too many answers unread — counting
    /// those still being audited at the size of the largest answer so far, so that
    /// pipelined audits cannot overshoot the limit by 32 answers.
    private var mustPause: Bool { pipeline.count >= Connection.maxPipelined || answerBytesAhead > limits.maxUnsentBytes }

    private var answerBytesAhead: Int {
        return unsentBytes + waitingAnswerBytes + pipeline.unanswered * largestAnswer
    }

    private func pauseReading() { setInterest(read: false) }

    private func resumeReadingIfDrained() {
        releaseHeld()
        guard held.isEmpty, !interest.read, !peerFinishedSending, !closeWhenFlushed, !sawLastRequest, !isStreaming,
            pipeline.count < Connection.maxPipelined / 2, answerBytesAhead <= limits.maxUnsentBytes / 2
        else { return }
        setInterest(read: true)
    }

    // MARK: Answering

    /// Opens the pipeline's next request; nil when it refuses (the connection is closing,
    /// or this would follow the request that closes it).
    private func openSlot(close: Bool) -> Ticket? {
        do throws(HTTPPipeline<Answer>.Refusal) {
            return Ticket(connection: self, serial: try pipeline.open(closes: close))
        } catch {
            return nil
        }
    }

    /// Fills the response of the request behind `ticket`; responses go out in request order.
    package func answer(_ ticket: Ticket, _ response: HTTPResponse) {
        channel.assertInLoop()
        // An answer for a request the pipeline no longer holds (the client left, an earlier
        // answer closed the connection) is dropped.
        let closing = response.status == 408 || response.status == 503 && response.headers.contains(where: { $0.0 == "Connection" })
        var size = 0
        do throws(HTTPPipeline<Answer>.Refusal) {
            try pipeline.answer(ticket.serial, closing: closing) { closes in
                let head = response.head(keepAlive: !closes)
                size = head.count + response.bodyCount
                return .bytes([head, response.body] + response.bodyRest)
            }
        } catch {
            return
        }
        largestAnswer = max(largestAnswer, size)
        waitingAnswerBytes += size
        outputMemory.force(size)
        flushSlots()
    }

    /// Answers `ticket` with a chunked body: the stream's backlog, pulled as the client
    /// reads, then (for a follower) the chunks given to ``send(chunk:)``.
    package func startStream(_ ticket: Ticket, _ stream: ResponseStream) {
        channel.assertInLoop()
        do throws(HTTPPipeline<Answer>.Refusal) {
            try pipeline.answer(ticket.serial) { _ in .stream(stream) }
        } catch {
            stream.end()
            return
        }
        flushSlots()
    }

    /// A live chunk of the follow stream; a follower lagging past the limit is dropped, and
    /// so is one whose chunk the memory budget cannot take: a follower's bytes are reserved
    /// like any other answer's, never forced past `--memory-limit` (unread followers held
    /// 164 MiB against 128, and every other client got 503), and the one that cannot be
    /// served is closed, not the others. The chunk's bytes are queued as they came, shared
    /// by every follower (only the chunk's frame is each connection's own).
    package func send(chunk: [UInt8]) {
        channel.assertInLoop()
        guard !isClosed, !chunk.isEmpty, let stream = followStream else { return }
        let pieces = stream.frames(chunk)
        let size = pieces.reduce(0) { $0 + $1.count }
        guard unsentBytes + stream.waitingBytes + size <= limits.followLagBytes, outputMemory.add(size) else {
            onFollowerDropped()
            close()
            return
        }
        if stream.backlog != nil {
            stream.hold(pieces)
        } else {
            for piece in pieces { output.append(piece) }
        }
        flushOutput()
    }

    /// The follow stream live chunks belong to: the one being sent, or one still queued
    /// behind earlier answers.
    private var followStream: ResponseStream? {
        if let stream, stream.follows { return stream }
        let queued = pipeline.firstAnswer { answer in
            if case .stream(let queued) = answer { return queued.follows }
            return false
        }
        if case .stream(let stream)? = queued { return stream }
        return nil
    }

    /// Ends a follow stream and the connection (used at shutdown).
    package func endStream() {
        channel.assertInLoop()
        guard let stream, stream.follows, !isClosed else { return }
        // Held live chunks were reserved as they came.
        for piece in stream.takeWaiting() { output.append(piece) }
        if stream.chunked { enqueue(HTTPResponse.chunk([])) }
        end(pipeline.closeWhenFlushed())
        flushOutput()
    }

    private func enqueue(_ piece: [UInt8]) {
        guard !piece.isEmpty else { return }
        output.append(piece)
        outputMemory.force(piece.count)
    }

    private func enqueue(contentsOf pieces: [[UInt8]]) {
        for piece in pieces { enqueue(piece) }
    }

    /// Moves answers to the output in request order, and feeds a stream being sent.
    private func flushSlots() {
        while !isClosed {
            if let stream {
                guard pump(stream) else { break }
                // The stream is done: its slot is over.
                self.stream = nil
                if closeAfterStream {
                    closeAll()
                    break
                }
                continue
            }
            guard let first = pipeline.takeNext() else { break }
            switch first.answer {
            case .bytes(let pieces):
                // Already counted against the memory budget when answered.
                for piece in pieces where !piece.isEmpty {
                    waitingAnswerBytes -= piece.count
                    output.append(piece)
                }
            case .stream(let next):
                closeAfterStream = first.closes || !next.chunked
                enqueue(next.wireHead(closing: closeAfterStream))
                stream = next
                if next.follows || closeAfterStream { pauseReading() }
                continue
            }
            if first.closes {
                closeAll()
                break
            }
        }
        flushOutput()
        resumeReadingIfDrained()
    }

    /// After the answer that closes the connection: later requests are dropped unanswered.
    private func closeAll() {
        end(pipeline.closeWhenFlushed())
        pauseReading()
    }

    /// Ends the streams among answers dropped unsent.
    private func end(_ dropped: [Answer]) {
        for answer in dropped {
            if case .stream(let queued) = answer { queued.end() }
        }
    }

    /// Queues what the stream gives next (``ResponseStream/nextPieces(unsentBytes:lowWater:)``);
    /// true once a stream without followers is whole.
    private func pump(_ stream: ResponseStream) -> Bool {
        let next = stream.nextPieces(unsentBytes: unsentBytes)
        enqueue(contentsOf: next.pieces)
        // Live chunks held while the backlog went out, reserved as they came.
        for piece in next.held { output.append(piece) }
        return next.finished
    }

    // MARK: Writing

    private func flushOutput() {
        guard !isClosed else { return }
        while !output.isEmpty {
            switch output.writeOnce({ channel.send($0) }) {
            case .sent(let count):
                outputMemory.shrink(by: count)
                lastActivity = Timestamp.monotonic()
                writeStalledSince = nil
                if output.isEmpty, let stream, stream.backlog != nil {
                    // More of the backlog, now that the client has read what was sent.
                    flushSlots()
                    return
                }
            case .stopped(.interrupted):
                continue
            case .blocked:
                if writeStalledSince == nil { writeStalledSince = Timestamp.monotonic() }
                setInterest(write: true)
                return
            case .stopped:
                close()
                return
            }
        }
        writeStalledSince = nil
        setInterest(write: false)
        if closeWhenFlushed || (peerFinishedSending && pipeline.isEmpty && stream == nil && held.isEmpty) {
            close()
            return
        }
        resumeReadingIfDrained()
    }

    // MARK: Closing

    package func close() {
        channel.assertInLoop()
        guard !isClosed else { return }
        let dropped = pipeline.close()
        cancellation.cancel()
        channel.close()
        stream?.end()
        stream = nil
        end(dropped)
        output.removeAll()
        waitingAnswerBytes = 0
        held.removeAll()
        pendingBody.release()
        outputMemory.release()
        onClosed(self)
    }

    /// Answers 408 and closes when a request has been arriving for too long.
    package func timeOut() {
        channel.assertInLoop()
        guard !isClosed else { return }
        requestStarted = nil
        pauseReading()
        // A request whose answer closes the connection is ahead: it closes once that is sent.
        guard let ticket = openSlot(close: true) else { return }
        answer(ticket, HTTPResponse.error(408, code: "request-timeout", message: "the request did not arrive in time"))
    }
}

/// A handle to answer one request of one connection later, from the event loop.
package struct Ticket: @unchecked Sendable {
    package let connection: Connection
    package let serial: Int

    package func answer(_ response: HTTPResponse) { connection.answer(self, response) }

    /// True once the client has gone: work for this request can stop.
    package var isCancelled: Bool { connection.cancellation.isCancelled }
}
