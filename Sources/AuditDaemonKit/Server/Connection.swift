import AuditCore
import Dispatch
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// One client connection: reads and parses requests (pipelined ones too), keeps their
/// responses in request order, writes without blocking, and closes cleanly. Confined to
/// the server's I/O queue; handlers that finish elsewhere hop back to it.
final class Connection: @unchecked Sendable {
    /// A response slot, filled when the handler answers.
    private struct Slot {
        var serial: Int
        /// The response's pieces (head, body), sent one after the other without joining.
        var bytes: [[UInt8]]?
        var close: Bool
        var streaming: Bool
    }

    let id: Int
    let fd: Int32
    let peer: PeerCredentials?
    let forbidden: Bool
    private let queue: DispatchQueue
    private var parser: HTTPRequestParser
    private var readSource: DispatchSourceRead?
    private var writeSource: DispatchSourceWrite?
    private var readSuspended = false
    private var writeSuspended = true
    private var slots: [Slot] = []
    /// Pieces waiting to be sent, in order; `outputOffset` bytes of the first are sent.
    private var output: [[UInt8]] = []
    private var outputOffset = 0
    private(set) var isClosed = false
    private var closeWhenFlushed = false
    private var peerFinishedSending = false
    /// A streaming response (follow) owns the connection until the client leaves.
    private(set) var isStreaming = false
    var onStreamClosed: (() -> Void)?
    private(set) var lastActivity: UInt64
    private(set) var requestStarted: UInt64?
    private let onRequest: (Ticket, HTTPRequest) -> Void
    private var nextSerial = 0
    private let onClosed: (Connection) -> Void

    /// Where heads (and whatever follows them in one read) are received: one a server,
    /// shared by its connections, which all read on its one serial I/O queue and parse
    /// the bytes before the next read.
    final class Scratch: @unchecked Sendable {
        var bytes = [UInt8](repeating: 0, count: 64 * 1024)
    }

    private let scratch: Scratch

    /// Requests parsed but not yet answered, past which reading pauses.
    static let maxPipelined = 32

    init(id: Int, fd: Int32, peer: PeerCredentials?, forbidden: Bool, limits: HTTPRequestParser.Limits, queue: DispatchQueue,
         scratch: Scratch, onRequest: @escaping (Ticket, HTTPRequest) -> Void, onClosed: @escaping (Connection) -> Void) {
        self.id = id
        self.fd = fd
        self.peer = peer
        self.forbidden = forbidden
        self.queue = queue
        self.scratch = scratch
        self.parser = HTTPRequestParser(limits: limits)
        self.onRequest = onRequest
        self.onClosed = onClosed
        self.lastActivity = Timestamp.monotonic()
    }

    func start() {
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [weak self] in self?.readAvailable() }
        readSource = source
        source.resume()
    }

    /// Pending work: requests received but not answered, or bytes not yet written.
    var isBusy: Bool { !slots.isEmpty || !output.isEmpty }

    // MARK: Reading

    private func readAvailable() {
        guard !isClosed else { return }
        while !isClosed {
            let count: Int
            let events: [HTTPRequestParser.Event]
            /// The socket gave less than asked (it is empty now), or a body is whole (a
            /// keep-alive client sends its next request only after the answer): wait for
            /// the next read event instead of reading again.
            let waitForMore: Bool
            if let direct = parser.receiveBody({ recv(fd, $0.baseAddress, $0.count, 0) }) {
                // A body: received in place, into the request's own storage.
                (count, events) = (direct.received, direct.events)
                waitForMore = direct.received < direct.requested || !direct.events.isEmpty
            } else {
                count = scratch.bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                events = count > 0 ? scratch.bytes.withUnsafeBytes { parser.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) } : []
                waitForMore = count < scratch.bytes.count
            }
            if count > 0 {
                lastActivity = Timestamp.monotonic()
                if parser.isMidRequest, requestStarted == nil { requestStarted = lastActivity }
                for event in events {
                    switch event {
                    case .request(var request):
                        request.firstByteAt = requestStarted ?? lastActivity
                        request.lastByteAt = lastActivity
                        requestStarted = parser.isMidRequest ? lastActivity : nil
                        if isStreaming || closeWhenFlushed { continue }
                        let ticket = openSlot(close: !request.keepAlive)
                        onRequest(ticket, request)
                    case .continueExpected:
                        // Interim answer, only when it cannot overtake an earlier response.
                        if slots.isEmpty, output.isEmpty {
                            output.append(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                            flushOutput()
                        }
                    case .failure(let failure):
                        requestStarted = nil
                        let ticket = openSlot(close: true)
                        answer(ticket, HTTPResponse.error(failure.status, code: failure.code, message: failure.message))
                        pauseReading()
                        return
                    }
                }
                if slots.count >= Connection.maxPipelined { pauseReading() }
                if waitForMore { return }
            } else if count == 0 {
                peerFinishedSending = true
                pauseReading()
                if !isBusy || isStreaming { close() }
                return
            } else {
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                if errno == EINTR { continue }
                close()
                return
            }
        }
    }

    private func pauseReading() {
        guard let readSource, !readSuspended else { return }
        readSource.suspend()
        readSuspended = true
    }

    private func resumeReading() {
        guard let readSource, readSuspended, !peerFinishedSending, !closeWhenFlushed else { return }
        readSuspended = false
        readSource.resume()
    }

    // MARK: Answering

    private func openSlot(close: Bool) -> Ticket {
        nextSerial += 1
        slots.append(Slot(serial: nextSerial, bytes: nil, close: close, streaming: false))
        return Ticket(connection: self, serial: nextSerial)
    }

    /// Fills the response of the request behind `ticket`; responses go out in request order.
    func answer(_ ticket: Ticket, _ response: HTTPResponse) {
        guard !isClosed, let position = slots.firstIndex(where: { $0.serial == ticket.serial }) else { return }
        if response.status == 408 || response.status == 503 && response.headers.contains(where: { $0.0 == "Connection" }) {
            slots[position].close = true
        }
        slots[position].bytes = [response.head(keepAlive: !slots[position].close), response.body]
        flushSlots()
    }

    /// Starts a chunked streaming response for `ticket`; later chunks go through ``send(chunk:)``.
    func startStream(_ ticket: Ticket, head: HTTPResponse) {
        guard !isClosed, let position = slots.firstIndex(where: { $0.serial == ticket.serial }) else { return }
        slots[position].bytes = [head.chunkedHead()]
        slots[position].streaming = true
        flushSlots()
    }

    func send(chunk: [UInt8]) {
        guard !isClosed, isStreaming, !chunk.isEmpty else { return }
        output.append(HTTPResponse.chunk(chunk))
        flushOutput()
    }

    /// Ends a streaming response and the connection (used at shutdown).
    func endStream() {
        guard isStreaming, !isClosed else { return }
        output.append(HTTPResponse.chunk([]))
        closeWhenFlushed = true
        flushOutput()
    }

    private func flushSlots() {
        while let first = slots.first, let pieces = first.bytes {
            output.append(contentsOf: pieces.filter { !$0.isEmpty })
            slots.removeFirst()
            if first.streaming {
                isStreaming = true
                break
            }
            if first.close {
                closeWhenFlushed = true
                slots.removeAll()
                pauseReading()
                break
            }
        }
        flushOutput()
        if slots.count < Connection.maxPipelined / 2, !isStreaming { resumeReading() }
    }

    // MARK: Writing

    private func flushOutput() {
        while let piece = output.first {
            let count = piece.withUnsafeBytes { buffer in
                Glibc.send(fd, buffer.baseAddress! + outputOffset, buffer.count - outputOffset, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                outputOffset += count
                lastActivity = Timestamp.monotonic()
                if outputOffset == piece.count {
                    output.removeFirst()
                    outputOffset = 0
                }
            } else if count < 0, errno == EINTR {
                continue
            } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                waitForWritable()
                return
            } else {
                close()
                return
            }
        }
        if let writeSource, !writeSuspended {
            writeSource.suspend()
            writeSuspended = true
        }
        if closeWhenFlushed || (peerFinishedSending && slots.isEmpty && !isStreaming) { close() }
    }

    private func waitForWritable() {
        if writeSource == nil {
            let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler { [weak self] in self?.flushOutput() }
            writeSource = source
        }
        if writeSuspended, let writeSource {
            writeSuspended = false
            writeSource.resume()
        }
    }

    // MARK: Closing

    func close() {
        guard !isClosed else { return }
        isClosed = true
        if let readSource {
            if readSuspended { readSource.resume() }
            readSource.cancel()
        }
        if let writeSource {
            if writeSuspended { writeSource.resume() }
            writeSource.cancel()
        }
        Glibc.close(fd)
        if isStreaming { onStreamClosed?() }
        onClosed(self)
    }

    /// Answers 408 and closes when a request has been arriving for too long.
    func timeOut() {
        guard !isClosed else { return }
        requestStarted = nil
        pauseReading()
        let ticket = openSlot(close: true)
        answer(ticket, HTTPResponse.error(408, code: "request-timeout", message: "the request did not arrive in time"))
    }
}

/// A handle to answer one request of one connection later, from the I/O queue.
struct Ticket: @unchecked Sendable {
    let connection: Connection
    let serial: Int

    func answer(_ response: HTTPResponse) { connection.answer(self, response) }
}
