@testable import AuditTransport
import XCTest

/// The HTTP/1.1 request parser on its own: framing, limits, smuggling shapes, pipelining,
/// and byte-by-byte delivery.
final class HTTPRequestParserTests: XCTestCase {
    func feed(_ text: String, limits: HTTPRequestParser.Limits = .init(), byteByByte: Bool = false) -> [HTTPRequestParser.Event] {
        var parser = HTTPRequestParser(limits: limits)
        let bytes = Array(text.utf8)
        if byteByByte {
            return bytes.flatMap { byte in [byte].withUnsafeBytes { parser.feed($0) } }
        }
        return bytes.withUnsafeBytes { parser.feed($0) }
    }

    func requests(_ events: [HTTPRequestParser.Event]) -> [HTTPRequest] {
        events.compactMap { if case .request(let request) = $0 { request } else { nil } }
    }

    func failure(_ events: [HTTPRequestParser.Event]) -> HTTPRequestParser.Failure? {
        events.compactMap { if case .failure(let failure) = $0 { failure } else { nil } }.first
    }

    func testContentLengthAndChunkedBodies() {
        let plain = requests(feed("POST /v1/audits?ruleset=ios-default HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"))
        XCTAssertEqual(plain.count, 1)
        XCTAssertEqual(plain.first?.body, Array("hello".utf8))
        XCTAssertEqual(plain.first?.path, "/v1/audits")
        XCTAssertEqual(plain.first?.query["ruleset"], "ios-default")
        let chunked = requests(
            feed("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nTrailer: x\r\n\r\n", byteByByte: true))
        XCTAssertEqual(chunked.first.map { String(decoding: $0.body, as: UTF8.self) }, "hello world")
    }

    /// A body received in place (as the connection does with `recv`) in uneven pieces,
    /// after part of it came with the head: the same bytes, nothing read past the body,
    /// and the parser back to reading heads.
    func testBodyReceivedInPlaceAfterPartCameWithTheHead() {
        var parser = HTTPRequestParser(limits: .init())
        let body = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let head = Array("POST /v1/audits HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
        XCTAssertNil(
            parser.receiveBody { _ in
                XCTFail("no body expected before a head"); return 0
            })
        XCTAssertTrue((head + body[0..<1000]).withUnsafeBytes { parser.feed($0) }.isEmpty)
        var sent = 1000
        var events: [HTTPRequestParser.Event] = []
        var pieces = 0
        while events.isEmpty {
            guard
                let step = parser.receiveBody({ space in
                    let count = min(space.count, 7 + pieces * 4093)
                    body[sent..<sent + count].withUnsafeBytes { space.copyMemory(from: $0) }
                    return count
                })
            else { return XCTFail("the parser should be waiting for the body") }
            XCTAssertEqual(step.requested, body.count - sent, "never asks for more than the body")
            sent += step.received
            events = step.events
            pieces += 1
        }
        XCTAssertGreaterThan(pieces, 5)
        XCTAssertEqual(requests(events).first?.body, body)
        XCTAssertNil(
            parser.receiveBody { _ in
                XCTFail("the next request starts with a head"); return 0
            })
        let next = requests(Array("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n".utf8).withUnsafeBytes { parser.feed($0) })
        XCTAssertEqual(next.map(\.path), ["/v1/health"])
        // A connection that ends mid-body leaves the request incomplete.
        var cut = HTTPRequestParser(limits: .init())
        _ = head.withUnsafeBytes { cut.feed($0) }
        XCTAssertEqual(cut.receiveBody { _ in 0 }?.events.isEmpty, true)
        XCTAssertTrue(cut.isMidRequest)
    }

    func testPipelinedRequestsAndKeepAlive() {
        let events = feed("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /v1/health HTTP/1.0\r\n\r\n")
        let parsed = requests(events)
        XCTAssertEqual(parsed.map(\.path), ["/v1/health", "/metrics", "/v1/health"])
        XCTAssertEqual(parsed.map(\.keepAlive), [true, false, false])
    }

    func testSmugglingShapesAreRefused() {
        let cases: [(String, Int)] = [
            ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 6\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0x5\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
            ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX", 400),
            ("GET / HTTP/1.1\nHost: x\n\n", 400),
            ("GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\nBad\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\n\r\n", 400),
            ("get / HTTP/1.1\r\nHost: x\r\n\r\n", 400),
            ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505),
            ("POST / HTTP/1.1\r\nHost: x\r\n\r\n", 411),
        ]
        for (text, status) in cases {
            XCTAssertEqual(failure(feed(text))?.status, status, text.debugDescription)
        }
    }

    func testLimits() {
        let limits = HTTPRequestParser.Limits(headerBytes: 1024, targetBytes: 64, bodyBytes: 10)
        XCTAssertEqual(failure(feed("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n", limits: limits))?.status, 413)
        XCTAssertEqual(failure(feed("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n", limits: limits))?.status, 413)
        XCTAssertEqual(failure(feed("GET /\(String(repeating: "a", count: 100)) HTTP/1.1\r\nHost: x\r\n\r\n", limits: limits))?.status, 414)
        XCTAssertEqual(failure(feed("GET / HTTP/1.1\r\nHost: x\r\nX: \(String(repeating: "b", count: 2000))\r\n\r\n", limits: limits))?.status, 431)
        // A head that never ends is cut at the limit, not buffered forever.
        XCTAssertEqual(failure(feed("GET / HTTP/1.1\r\nX: " + String(repeating: "c", count: 5000), limits: limits))?.status, 431)
    }

    func testMidRequestStateForTimeouts() {
        var parser = HTTPRequestParser()
        XCTAssertFalse(parser.isMidRequest)
        _ = Array("GET / HTTP/1.1\r\nHo".utf8).withUnsafeBytes { parser.feed($0) }
        XCTAssertTrue(parser.isMidRequest)
        let events = Array("st: x\r\n\r\n".utf8).withUnsafeBytes { parser.feed($0) }
        XCTAssertEqual(requests(events).count, 1)
        XCTAssertFalse(parser.isMidRequest)
    }

    func testExpectContinue() {
        let events = feed("POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        XCTAssertTrue(events.contains { if case .continueExpected = $0 { true } else { false } })
    }

    /// Issue 16's leftovers: each refused at once with 400, and escapes never swallow bytes.
    func testFramingLeftoversAreRefusedAtOnce() {
        let http10 = failure(feed("POST /a HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"))
        XCTAssertEqual(http10?.status, 400)
        XCTAssertEqual(http10?.code, "bad-transfer-encoding")
        let twice = failure(feed("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n"))
        XCTAssertEqual(twice?.status, 400)
        let split = failure(feed("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"))
        XCTAssertEqual(split?.status, 400)
        // A bare LF in the trailer section: an answer now, not after the read timeout.
        let trailer = failure(feed("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nX: y\n", byteByByte: true))
        XCTAssertEqual(trailer?.status, 400)
        XCTAssertEqual(trailer?.code, "bad-chunk")
        XCTAssertEqual(HTTPRequest.percentDecode("%zz1"), "%zz1")
        XCTAssertEqual(HTTPRequest.percentDecode("a%2"), "a%2")
        XCTAssertEqual(HTTPRequest.percentDecode("%%41"), "%A")
        XCTAssertEqual(HTTPRequest.percentDecode("%e2%82%AC+x"), "€ x")
    }
}
