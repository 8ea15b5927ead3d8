/// What a ``Connection`` moves its bytes through and is woken by: a socket registered with
/// the event loop (``SocketChannel``), or a test's fake. The connection never touches a
/// descriptor or the loop itself, so its HTTP pipeline — pipelining, ordering,
/// backpressure, streaming, closing — is tested with scripted reads and writes.
package protocol ConnectionChannel: AnyObject {
    /// Starts delivering readiness to `handler`; false when that cannot be done.
    func start(_ handler: @escaping (EventLoop.Events) -> Void) -> Bool
    /// Which readiness the connection wants to hear of now.
    func setInterest(_ interest: EventLoop.Interest)
    /// Reads what has arrived into `buffer`.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> ChannelIO
    /// Writes what the peer will take of `bytes` now.
    func send(_ bytes: UnsafeRawBufferPointer) -> ChannelIO
    /// Stops readiness and releases the transport; called once.
    func close()
    /// Asserts (in debug builds) that the caller is on the channel's thread.
    func assertInLoop(file: StaticString, line: UInt)
}

extension ConnectionChannel {
    package func assertInLoop(file: StaticString = #fileID, line: UInt = #line) {
        assertInLoop(file: file, line: line)
    }
}

/// The outcome of one read or write.
package enum ChannelIO: Equatable {
    /// Bytes read or written (more than zero).
    case transferred(Int)
    /// The peer finished sending (a read of zero bytes).
    case endOfStream
    /// Nothing can move now; readiness will say when.
    case wouldBlock
    /// A signal interrupted the call: try again.
    case interrupted
    /// The transport failed (reset, broken pipe): the connection is over.
    case failed
}
