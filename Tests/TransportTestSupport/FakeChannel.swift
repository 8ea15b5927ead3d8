import AuditTransport

/// A channel whose reads and writes a test scripts, shared by every test that drives a
/// ``Connection`` without a socket or an event loop: what the client sends is delivered in
/// the pieces a test chooses, and the channel takes as many bytes per write as the test
/// allows — every step observed.
package final class FakeChannel: ConnectionChannel {
    package init() {}

    package var incoming: [UInt8] = []
    package var peerClosed = false
    /// Bytes the peer will take before a write blocks; nil takes everything.
    package var capacity: Int?
    package private(set) var written: [UInt8] = []
    package private(set) var interest = EventLoop.Interest(read: true, write: false)
    package private(set) var closed = false
    private var handler: ((EventLoop.Events) -> Void)?

    package var text: String { String(decoding: written, as: UTF8.self) }

    package func start(_ handler: @escaping (EventLoop.Events) -> Void) -> Bool {
        self.handler = handler
        return true
    }

    package func setInterest(_ interest: EventLoop.Interest) { self.interest = interest }

    package func receive(into buffer: UnsafeMutableRawBufferPointer) -> ChannelIO {
        if incoming.isEmpty { return peerClosed ? .endOfStream : .wouldBlock }
        let count = min(buffer.count, incoming.count)
        buffer.copyBytes(from: incoming[..<count])
        incoming.removeFirst(count)
        return .transferred(count)
    }

    package func send(_ bytes: UnsafeRawBufferPointer) -> ChannelIO {
        let count = min(bytes.count, capacity ?? bytes.count)
        guard count > 0 else { return .wouldBlock }
        written.append(contentsOf: bytes[..<count])
        if let capacity { self.capacity = capacity - count }
        return .transferred(count)
    }

    package func close() { closed = true }

    package func assertInLoop(file: StaticString, line: UInt) {}

    /// The client sends `bytes`: the connection hears it is readable, if it listens.
    package func deliver(_ bytes: String) {
        incoming += Array(bytes.utf8)
        if interest.read { handler?(.readableNow) }
    }

    /// The client closes its writing side.
    package func finishSending() {
        peerClosed = true
        if interest.read { handler?(.readableNow) }
    }

    /// The client reads: the channel takes `bytes` more, and says it is writable.
    package func drain(_ bytes: Int? = nil) {
        capacity = bytes.map { (capacity ?? 0) + $0 }
        if interest.write { handler?(.writableNow) }
    }
}
