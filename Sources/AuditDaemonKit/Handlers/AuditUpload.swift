import AuditCore
import AuditTransport

/// What `POST /v1/audits` carries: the snapshot's XML alone (any Content-Type but
/// multipart), or a `multipart/form-data` form with a `snapshot` part and an optional
/// `screenshot` part (PNG or JPEG).
struct AuditUpload: Sendable {
    var snapshot: [UInt8]
    var screenshot: [UInt8]?
    /// Text fields `app`, `build`, `screen` of a form: which capture this is.
    var identity: [String: String] = [:]

    static let partNames = ["snapshot", "screenshot"] + SnapshotIdentity.fields
    static let imageTypes = ["image/png", "image/jpeg", "image/jpg", "application/octet-stream"]

    enum Reading {
        case upload(AuditUpload)
        /// The request is refused with this answer.
        case refused(HTTPResponse)
    }

    /// The upload in `request`, or the error response to answer.
    static func read(_ request: HTTPRequest) -> Reading {
        let boundary: String?
        do throws(MultipartFormData.Failure) {
            boundary = try request.header("Content-Type").flatMap(MultipartFormData.boundary(contentType:))
        } catch {
            return .refused(
                .error(
                    400, code: "bad-multipart", message: error.message,
                    hint: "send Content-Type: multipart/form-data; boundary=… (curl -F does)"))
        }
        guard let boundary else {
            if let refusal = imageAsSnapshot(request.body) ?? charsetRefusal(request.header("Content-Type"), xml: request.body[...]) {
                return .refused(refusal)
            }
            return .upload(AuditUpload(snapshot: request.body, screenshot: nil))
        }
        let form: MultipartFormData
        do throws(MultipartFormData.Failure) {
            form = try MultipartFormData(body: request.body, boundary: boundary)
        } catch {
            return .refused(
                .error(
                    400, code: "bad-multipart", message: "the multipart body cannot be read: \(error.message)",
                    hint: "send parts snapshot (XML) and screenshot (PNG or JPEG), e.g. curl -F snapshot=@login.xml -F screenshot=@login.png"))
        }
        var seen: Set<String> = []
        for part in form.parts {
            guard partNames.contains(part.name) else {
                return .refused(
                    .error(
                        400, code: "unknown-part", message: "unknown form part \"\(part.name)\"",
                        hint: "the parts are snapshot (XML), screenshot (PNG or JPEG), and the text fields app, build and screen"))
            }
            guard seen.insert(part.name).inserted else {
                return .refused(
                    .error(
                        400, code: "duplicate-part", message: "the form has two \"\(part.name)\" parts",
                        hint: "send one snapshot and at most one screenshot per audit"))
            }
        }
        guard let snapshot = form.part("snapshot") else {
            return .refused(
                .error(
                    400, code: "missing-snapshot", message: "the form has no \"snapshot\" part",
                    hint: "add the XML as -F snapshot=@screen.xml"))
        }
        if let refusal = imageAsSnapshot(Array(snapshot.body.prefix(16))) ?? charsetRefusal(snapshot.contentType, xml: snapshot.body) {
            return .refused(refusal)
        }
        let screenshot = form.part("screenshot")
        if let type = screenshot?.contentType?.split(separator: ";").first?.trimming(.spacesAndTabs).lowercased(), !imageTypes.contains(type) {
            return .refused(
                .error(
                    415, code: "unsupported-screenshot-type", message: "the screenshot part is \(type), not a PNG or JPEG",
                    hint: "send the screenshot as image/png or image/jpeg"))
        }
        var identity: [String: String] = [:]
        for field in SnapshotIdentity.fields {
            guard let part = form.part(field) else { continue }
            switch SnapshotIdentity.check(field, String(decoding: part.body, as: UTF8.self)) {
            case .success(let value): identity[field] = value
            case .failure(let refusal): return .refused(refusal.response)
            }
        }
        return .upload(AuditUpload(snapshot: Array(snapshot.body), screenshot: screenshot.map { Array($0.body) }, identity: identity))
    }

    /// A PNG or JPEG sent where the snapshot's XML belongs: said as such, not as an XML error.
    static func imageAsSnapshot(_ body: [UInt8]) -> HTTPResponse? {
        guard let format = body.withUnsafeBytes({ ImageDecoder.format(of: $0) }) else { return nil }
        return .error(
            415, code: "snapshot-is-image", message: "the snapshot is a \(format.rawValue.uppercased()) image, not the screen's XML",
            hint: "send the XML as the body, or both as a form: curl -F snapshot=@screen.xml -F screenshot=@screen.png")
    }

    /// A charset the XML does not declare itself: libxml2 reads the XML declaration (or
    /// UTF-8), so a body said to be another charset would be read as something it is not.
    static func charsetRefusal(_ contentType: String?, xml: ArraySlice<UInt8>) -> HTTPResponse? {
        guard let contentType, let parsed = try? HeaderParameters.split(contentType),
            let charset = parsed.1.first(where: { $0.0 == "charset" })?.1.lowercased(),
            !["utf-8", "utf8", "us-ascii"].contains(charset)
        else { return nil }
        let declared = declaredEncoding(xml)?.lowercased()
        if declared == charset { return nil }
        let says = declared.map { "declares \($0)" } ?? "declares no encoding, so it is read as UTF-8"
        return .error(
            415, code: "unsupported-charset", message: "the snapshot is sent as charset=\(charset) but its XML \(says)",
            hint: "send UTF-8, or declare the encoding in the XML itself: <?xml version=\"1.0\" encoding=\"\(charset)\"?>")
    }

    /// The `encoding` of an XML declaration at the start of `xml`.
    static func declaredEncoding(_ xml: ArraySlice<UInt8>) -> String? {
        let head = String(decoding: xml.prefix(200), as: UTF8.self)
        guard head.hasPrefix("<?xml") || head.hasPrefix("\u{FEFF}<?xml"), let end = head.range(of: "?>"),
            let key = head.range(of: "encoding", range: head.startIndex..<end.lowerBound)
        else { return nil }
        let rest = head[key.upperBound..<end.lowerBound].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// The answer to a screenshot that cannot be used.
    static func response(to error: ImageError) -> HTTPResponse {
        let status =
            switch error.code {
            case .tooLarge: 413
            case .unsupportedFormat: 415
            case .mismatch: 422
            case .empty, .malformed: 400
            case .stopped: 503
            }
        return .error(status, code: error.code.rawValue, message: error.message, hint: error.hint)
    }
}
