#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// A connected, non-blocking socket registered with the server's event loop.
package final class SocketChannel: ConnectionChannel {
    package let fd: Int32
    private let loop: EventLoop
    private var token: EventLoop.Token?
    private var interest = EventLoop.Interest(read: true, write: false)

    package init(fd: Int32, loop: EventLoop) {
        self.fd = fd
        self.loop = loop
    }

    package func start(_ handler: @escaping (EventLoop.Events) -> Void) -> Bool {
        token = loop.register(fd, interest: interest, handler: handler)
        return token != nil
    }

    package func setInterest(_ wanted: EventLoop.Interest) {
        guard wanted != interest, let token else { return }
        interest = wanted
        loop.modify(token, fd: fd, interest: wanted)
    }

    package func receive(into buffer: UnsafeMutableRawBufferPointer) -> ChannelIO {
        SocketChannel.outcome(recv(fd, buffer.baseAddress, buffer.count, 0))
    }

    package func send(_ bytes: UnsafeRawBufferPointer) -> ChannelIO {
        SocketChannel.outcome(Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)))
    }

    package func close() {
        // Out of the epoll set before the descriptor is closed: `accept` may reuse the
        // number at once, and no event of this connection may reach the next one.
        if let token { loop.unregister(token, fd: fd) }
        token = nil
        Glibc.close(fd)
    }

    package func assertInLoop(file: StaticString, line: UInt) {
        loop.assertInLoop(file: file, line: line)
    }

    private static func outcome(_ count: Int) -> ChannelIO {
        if count > 0 { return .transferred(count) }
        if count == 0 { return .endOfStream }
        switch errno {
        case EAGAIN, EWOULDBLOCK: return .wouldBlock
        case EINTR: return .interrupted
        default: return .failed
        }
    }
}
