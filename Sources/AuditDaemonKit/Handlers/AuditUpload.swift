import AuditCore

/// What `POST /v1/audits` carries: the snapshot's XML alone (any Content-Type but
/// multipart), or a `multipart/form-data` form with a `snapshot` part and an optional
/// `screenshot` part (PNG or JPEG).
struct AuditUpload: Sendable {
    var snapshot: [UInt8]
    var screenshot: [UInt8]?

    static let partNames = ["snapshot", "screenshot"]
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
            return .refused(.error(400, code: "bad-multipart", message: error.message,
                                   hint: "send Content-Type: multipart/form-data; boundary=… (curl -F does)"))
        }
        guard let boundary else { return .upload(AuditUpload(snapshot: request.body, screenshot: nil)) }
        let form: MultipartFormData
        do throws(MultipartFormData.Failure) {
            form = try MultipartFormData(body: request.body, boundary: boundary)
        } catch {
            return .refused(.error(400, code: "bad-multipart", message: "the multipart body cannot be read: \(error.message)",
                                   hint: "send parts snapshot (XML) and screenshot (PNG or JPEG), e.g. curl -F snapshot=@login.xml -F screenshot=@login.png"))
        }
        var seen: Set<String> = []
        for part in form.parts {
            guard partNames.contains(part.name) else {
                return .refused(.error(400, code: "unknown-part", message: "unknown form part \"\(part.name)\"",
                                       hint: "the parts are snapshot (XML) and screenshot (PNG or JPEG)"))
            }
            guard seen.insert(part.name).inserted else {
                return .refused(.error(400, code: "duplicate-part", message: "the form has two \"\(part.name)\" parts",
                                       hint: "send one snapshot and at most one screenshot per audit"))
            }
        }
        guard let snapshot = form.part("snapshot") else {
            return .refused(.error(400, code: "missing-snapshot", message: "the form has no \"snapshot\" part",
                                   hint: "add the XML as -F snapshot=@screen.xml"))
        }
        let screenshot = form.part("screenshot")
        if let type = screenshot?.contentType?.split(separator: ";").first?.trimming(.spacesAndTabs).lowercased(), !imageTypes.contains(type) {
            return .refused(.error(415, code: "unsupported-screenshot-type", message: "the screenshot part is \(type), not a PNG or JPEG",
                                   hint: "send the screenshot as image/png or image/jpeg"))
        }
        return .upload(AuditUpload(snapshot: Array(snapshot.body), screenshot: screenshot.map { Array($0.body) }))
    }

    /// The answer to a screenshot that cannot be used.
    static func response(to error: ImageError) -> HTTPResponse {
        let status = switch error.code {
        case .tooLarge: 413
        case .unsupportedFormat: 415
        case .mismatch: 422
        case .empty, .malformed: 400
        }
        return .error(status, code: error.code.rawValue, message: error.message, hint: error.hint)
    }
}
