@testable import AuditDaemonKit
@testable import AuditTransport
import XCTest

/// The form's part headers are read as RFC 7578 writes them: quoted parameters whole,
/// one Content-Disposition per part (issue 26, item 14).
final class MultipartFormDataTests: XCTestCase {
    func form(_ headers: String, body: String = "<x/>") -> [UInt8] {
        Array("--B\r\n\(headers)\r\n\r\n\(body)\r\n--B--\r\n".utf8)
    }

    func testQuotedParametersKeepTheirSemicolonsAndEscapes() throws {
        let parsed = try MultipartFormData(body: form(#"Content-Disposition: form-data; name="snapshot"; filename="a;b \"c\".xml""#), boundary: "B")
        XCTAssertEqual(parsed.parts.first?.name, "snapshot")
        XCTAssertEqual(parsed.parts.first?.filename, #"a;b "c".xml"#)
        // A name with a semicolon is that name, not "a".
        let odd = try MultipartFormData(body: form(#"Content-Disposition: form-data; name="a;filename=x""#), boundary: "B")
        XCTAssertEqual(odd.parts.first?.name, "a;filename=x")
        XCTAssertNil(odd.parts.first?.filename)
        XCTAssertEqual(try MultipartFormData.boundary(contentType: #"multipart/form-data; boundary="a b;c""#), "a b;c")
    }

    func testAmbiguousPartHeadersAreRefused() {
        let cases = [
            ("Content-Disposition: form-data; name=\"snapshot\"\r\nContent-Disposition: form-data; name=\"screenshot\"", "two Content-Disposition"),
            ("Content-Disposition: form-data; name=\"a\"; name=\"b\"", "names it twice"),
            ("Content-Disposition: form-data; name=\"a\"\r\nContent-Type: image/png\r\nContent-Type: text/xml", "two Content-Type"),
            ("Content-Disposition: form-data; name=\"unclosed", "not closed"),
        ]
        for (headers, expected) in cases {
            XCTAssertThrowsError(try MultipartFormData(body: form(headers), boundary: "B"), headers) { error in
                let message = (error as? MultipartFormData.Failure)?.message ?? ""
                XCTAssertTrue(message.contains(expected), "\(headers): \(message)")
            }
        }
    }

    func testCharsetsTheXMLDoesNotDeclareAreRefused() throws {
        let latin = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><snapshot/>"#.utf8)
        XCTAssertNil(AuditUpload.charsetRefusal("application/xml; charset=iso-8859-1", xml: latin[...]))
        XCTAssertNil(AuditUpload.charsetRefusal("application/xml; charset=UTF-8", xml: Array("<snapshot/>".utf8)[...]))
        XCTAssertNil(AuditUpload.charsetRefusal("application/xml", xml: latin[...]))
        let refused = try XCTUnwrap(AuditUpload.charsetRefusal("text/xml; charset=windows-1252", xml: Array("<snapshot/>".utf8)[...]))
        XCTAssertEqual(refused.status, 415)
        XCTAssertTrue(String(decoding: refused.body, as: UTF8.self).contains("declares no encoding"))
    }
}
