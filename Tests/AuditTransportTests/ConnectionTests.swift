@testable import AuditTransport
import TransportTestSupport
import XCTest

/// The connection's HTTP pipeline through a scripted channel: what the client sends is
/// delivered in the pieces a test chooses, and the channel takes as many bytes per write
/// as the test allows — no socket, no event loop, every step observed.
final class ConnectionTests: XCTestCase {
    /// A connection on a fake channel, and the requests it hands on.
    final class Harness {
        let channel = FakeChannel()
        var tickets: [(Ticket, HTTPRequest)] = []
        var closedCount = 0
        var connection: Connection!

        init(maxUnsentBytes: Int = 4 << 20, memory: Int = 64 << 20) {
            connection = Connection(
                id: 1, channel: channel, peer: nil, parserLimits: HTTPRequestParser.Limits(),
                limits: Connection.Limits(maxUnsentBytes: maxUnsentBytes), scratch: Connection.Scratch(),
                memory: MemoryBudget(limit: memory),
                onRequest: { [unowned self] ticket, request in tickets.append((ticket, request)) },
                onClosed: { [unowned self] _ in closedCount += 1 }, onFollowerDropped: {})
            XCTAssertTrue(connection.start())
        }
    }

    static func get(_ path: String, close: Bool = false) -> String {
        "GET \(path) HTTP/1.1\r\nHost: auditd\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n"
    }

    static func ok(_ body: String) -> HTTPResponse { HTTPResponse.text(200, body) }

    func testPipelinedAnswersGoOutInRequestOrderWhateverOrderTheyFinishIn() {
        let harness = Harness()
        harness.channel.deliver(Self.get("/a") + Self.get("/b") + Self.get("/c"))
        // Until one answer's size is known, two requests run and the rest wait.
        XCTAssertEqual(harness.tickets.map(\.1.path), ["/a", "/b"])
        harness.tickets[1].0.answer(Self.ok("second"))
        XCTAssertEqual(harness.tickets.map(\.1.path), ["/a", "/b", "/c"])
        harness.tickets[2].0.answer(Self.ok("third"))
        XCTAssertEqual(harness.channel.written, [], "an answer never overtakes an earlier request's")
        harness.tickets[0].0.answer(Self.ok("first"))
        let text = harness.channel.text
        let order = ["first", "second", "third"].compactMap { text.range(of: $0)?.lowerBound }
        XCTAssertEqual(order.count, 3, text)
        XCTAssertEqual(order, order.sorted(), text)
        XCTAssertEqual(text.components(separatedBy: "HTTP/1.1 200 OK").count - 1, 3)
        XCTAssertFalse(harness.channel.closed)
    }

    func testAClientThatReadsSlowlyGetsEveryByteAndTheWriteInterestFollows() {
        let harness = Harness()
        harness.channel.capacity = 10
        harness.channel.deliver(Self.get("/big"))
        let body = String(repeating: "x", count: 5000)
        harness.tickets[0].0.answer(Self.ok(body))
        XCTAssertEqual(harness.channel.written.count, 10)
        XCTAssertTrue(harness.channel.interest.write, "blocked: the connection waits to be writable")
        XCTAssertNotNil(harness.connection.writeStalledSince)
        var rounds = 0
        while harness.channel.interest.write, rounds < 10_000 {
            harness.channel.drain(97)
            rounds += 1
        }
        XCTAssertFalse(harness.channel.interest.write)
        XCTAssertNil(harness.connection.writeStalledSince)
        XCTAssertTrue(harness.channel.text.hasSuffix("\r\n\r\n" + body), String(harness.channel.text.prefix(200)))
    }

    func testAnswersPastTheUnsentLimitHoldLaterRequestsAndStopTheReadingUntilTheClientReads() {
        let harness = Harness(maxUnsentBytes: 1000)
        harness.channel.capacity = 0
        harness.channel.deliver(Self.get("/1") + Self.get("/2"))
        XCTAssertEqual(harness.tickets.count, 2)
        harness.tickets[0].0.answer(Self.ok(String(repeating: "a", count: 3000)))
        // 3 KB unread over a 1 KB limit: the next request is read but not handed on, and
        // reading stops.
        harness.channel.deliver(Self.get("/3"))
        XCTAssertEqual(harness.tickets.count, 2)
        XCTAssertFalse(harness.channel.interest.read)
        harness.tickets[1].0.answer(Self.ok("b"))
        XCTAssertEqual(harness.tickets.count, 2)
        harness.channel.drain(1 << 20)
        XCTAssertEqual(harness.tickets.map(\.1.path), ["/1", "/2", "/3"], "drained: the held request is handed on")
        // A request in flight counts at the largest answer's size: reading waits for it too.
        XCTAssertFalse(harness.channel.interest.read)
        harness.tickets[2].0.answer(Self.ok("c"))
        XCTAssertTrue(harness.channel.text.hasSuffix("\r\n\r\nc"))
        XCTAssertTrue(harness.channel.interest.read, "all answered and read: reading resumes")
    }

    func testConnectionCloseEndsTheConnectionAfterItsAnswerAndDropsLaterRequests() {
        let harness = Harness()
        harness.channel.deliver(Self.get("/last", close: true) + Self.get("/never"))
        XCTAssertEqual(harness.tickets.map(\.1.path), ["/last"], "nothing after a closing request is handed on")
        XCTAssertFalse(harness.channel.closed)
        harness.tickets[0].0.answer(Self.ok("bye"))
        XCTAssertTrue(harness.channel.text.contains("Connection: close"))
        XCTAssertTrue(harness.channel.closed)
        XCTAssertEqual(harness.connection.lifecycle, .closed)
        XCTAssertEqual(harness.closedCount, 1)
    }

    func testAClientThatStopsSendingStillGetsItsAnswersThenTheConnectionCloses() {
        let harness = Harness()
        harness.channel.deliver(Self.get("/a") + Self.get("/b"))
        harness.channel.finishSending()
        XCTAssertFalse(harness.channel.closed, "two answers are owed")
        harness.tickets[0].0.answer(Self.ok("one"))
        XCTAssertFalse(harness.channel.closed)
        harness.tickets[1].0.answer(Self.ok("two"))
        XCTAssertTrue(harness.channel.text.contains("two"))
        XCTAssertTrue(harness.channel.closed)
    }

    func testContinueIsSentOnlyWhenNoEarlierAnswerIsOwed() {
        let harness = Harness()
        let post = "POST /v1/audits HTTP/1.1\r\nHost: auditd\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n"
        harness.channel.deliver(post)
        XCTAssertEqual(harness.channel.text, "HTTP/1.1 100 Continue\r\n\r\n")
        harness.channel.deliver("abcd")
        XCTAssertEqual(harness.tickets.map { $0.1.body }, [Array("abcd".utf8)])

        // Behind a request still being answered, the interim answer would overtake it.
        let second = Harness()
        second.channel.deliver(Self.get("/slow") + post)
        XCTAssertEqual(second.channel.written, [])
        second.channel.deliver("abcd")
        XCTAssertEqual(second.tickets.count, 2)
    }

    func testAMalformedRequestIsAnsweredAfterTheEarlierOnesThenTheConnectionCloses() {
        let harness = Harness()
        harness.channel.deliver(Self.get("/fine") + "NOT HTTP\r\n\r\n")
        XCTAssertEqual(harness.tickets.count, 1)
        XCTAssertFalse(harness.channel.interest.read)
        XCTAssertFalse(harness.channel.closed)
        harness.tickets[0].0.answer(Self.ok("fine"))
        let text = harness.channel.text
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 200 OK"), text)
        XCTAssertTrue(text.contains("HTTP/1.1 400"), text)
        XCTAssertTrue(harness.channel.closed)
    }

    /// A backlog of `count` lines, produced as the client reads.
    static func backlog(_ count: Int, pulled: @escaping () -> Void = {}) -> ResponseStream.Backlog {
        var next = 0
        let padding = String(repeating: "x", count: 190)
        return { into, _ in
            guard next < count else { return false }
            pulled()
            into += Array("line \(next) \(padding)\n".utf8)
            next += 1
            return next < count
        }
    }

    /// A chunked body decoded, or nil when its framing is broken (bytes, not characters:
    /// "\r\n" is one Character).
    static func unchunk(_ body: Substring) -> String? {
        var rest = Array(body.utf8)[...]
        var out: [UInt8] = []
        while let cr = rest.firstIndex(of: 0x0D), rest.index(after: cr) < rest.endIndex, rest[rest.index(after: cr)] == 0x0A {
            guard let size = Int(String(decoding: rest[..<cr], as: UTF8.self), radix: 16) else { return nil }
            rest = rest[(cr + 2)...]
            if size == 0 { return Array(rest) == [0x0D, 0x0A] ? String(decoding: out, as: UTF8.self) : nil }
            guard rest.count >= size + 2 else { return nil }
            out += rest.prefix(size)
            rest = rest.dropFirst(size + 2)
        }
        return nil
    }

    func testAStreamedBacklogIsPulledAsTheClientReadsAndEndsItsChunkedBody() throws {
        let harness = Harness()
        harness.channel.capacity = 64
        harness.channel.deliver(Self.get("/v1/findings"))
        // 2,000 lines of 200 bytes: 400 KB, more than is queued ahead of the client (256 KiB).
        var pulled = 0
        let stream = ResponseStream(head: HTTPResponse(status: 200), follows: false, backlog: Self.backlog(2000) { pulled += 1 })
        var ended = false
        stream.onEnd = { ended = true }
        harness.tickets[0].0.connection.startStream(harness.tickets[0].0, stream)
        XCTAssertLessThan(pulled, 2000, "not pulled whole before the client reads")
        var rounds = 0
        while harness.channel.interest.write, rounds < 100_000 {
            harness.channel.drain(4096)
            rounds += 1
        }
        XCTAssertTrue(ended)
        let text = harness.channel.text
        let head = try XCTUnwrap(text.range(of: "\r\n\r\n"))
        XCTAssertTrue(text[..<head.lowerBound].contains("Transfer-Encoding: chunked"))
        let body = try XCTUnwrap(Self.unchunk(text[head.upperBound...]), String(text.suffix(40)).debugDescription)
        XCTAssertEqual(body.split(separator: "\n").count, 2000)
        XCTAssertTrue(harness.channel.interest.read, "the connection goes on after the stream")
    }

    func testAFollowerGetsTheBacklogThenLiveChunksAndIsDroppedPastItsLag() {
        let harness = Harness()
        var dropped = 0
        harness.connection = Connection(
            id: 2, channel: harness.channel, peer: nil, parserLimits: HTTPRequestParser.Limits(),
            limits: Connection.Limits(followLagBytes: 1000), scratch: Connection.Scratch(), memory: MemoryBudget(limit: 64 << 20),
            onRequest: { [unowned harness] ticket, request in harness.tickets.append((ticket, request)) },
            onClosed: { _ in }, onFollowerDropped: { dropped += 1 })
        XCTAssertTrue(harness.connection.start())
        harness.channel.deliver(Self.get("/v1/findings?follow=1"))
        let stream = ResponseStream(head: HTTPResponse(status: 200), follows: true, backlog: Self.backlog(3))
        harness.connection.startStream(harness.tickets[0].0, stream)
        XCTAssertFalse(harness.channel.interest.read, "a follow stream owns the connection")
        harness.connection.send(chunk: Array("live 1\n".utf8))
        XCTAssertTrue(harness.channel.text.hasSuffix("7\r\nlive 1\n\r\n"), harness.channel.text)
        // The client stops reading: past 1,000 bytes behind, it is dropped.
        harness.channel.capacity = 0
        for _ in 0..<200 where !harness.channel.closed { harness.connection.send(chunk: Array("a record of some length\n".utf8)) }
        XCTAssertTrue(harness.channel.closed)
        XCTAssertEqual(dropped, 1)
    }

    func testATicketAnsweredAfterTheClientLeftIsDroppedAndTheWorkIsCancelled() {
        let harness = Harness()
        harness.channel.deliver(Self.get("/slow"))
        let ticket = harness.tickets[0].0
        XCTAssertFalse(ticket.isCancelled)
        harness.channel.finishSending()
        // Owed an answer, the connection stays; a hang-up closes it.
        harness.connection.handle(.hangUp)
        XCTAssertTrue(harness.channel.closed)
        XCTAssertTrue(ticket.isCancelled)
        ticket.answer(Self.ok("late"))
        XCTAssertEqual(harness.channel.written, [])
    }
}
