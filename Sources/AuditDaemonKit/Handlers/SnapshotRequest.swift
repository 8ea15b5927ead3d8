import AuditCore
import AuditTransport

/// What the routes that read a snapshot (`/v1/audits`, `/v1/transcripts`) share: the
/// parser's options from the daemon's configuration and the query (`density=DPR`), the
/// capture's identity from the query, and the upload read on the worker.
enum SnapshotRequest {
    struct Refusal: Error {
        let response: HTTPResponse
    }

    static func parserOptions(_ service: ServiceContext, _ request: HTTPRequest) -> Result<SnapshotParser.Options, Refusal> {
        var density = service.settings.androidDensity
        if let text = request.query["density"], !text.isEmpty {
            let range = AndroidDensity.acceptedRange
            guard let value = Double(text), range.contains(value) else {
                return .failure(
                    Refusal(
                        response: .error(
                            400, code: "bad-density",
                            message:
                                "density must be the device's pixels per dp, from \(range.lowerBound.formattedForReport) to \(range.upperBound.formattedForReport), not \"\(text)\"",
                            hint: "e.g. ?density=2.625 for a 420 dpi phone")))
            }
            density = value
        }
        return .success(SnapshotParser.Options(maxBytes: service.settings.limits.bodyBytes, androidDensity: density))
    }

    /// The parser's options and the query's identity (``SnapshotIdentity``), or `nil`
    /// after handing the refusal to `refuse`.
    static func read(_ service: ServiceContext, _ request: HTTPRequest, refuse: (HTTPResponse) -> Void) -> (SnapshotParser.Options, SnapshotIdentity)? {
        let options: SnapshotParser.Options
        switch parserOptions(service, request) {
        case .success(let read): options = read
        case .failure(let refusal):
            refuse(refusal.response)
            return nil
        }
        switch SnapshotIdentity.read(request) {
        case .success(let identity): return (options, identity)
        case .failure(let refusal):
            refuse(refusal.response)
            return nil
        }
    }

    /// The upload in the request (read on the worker), or `nil` after handing the refusal
    /// to `refuse`.
    static func upload(_ received: Box<HTTPRequest>, refuse: (HTTPResponse) -> Void) -> AuditUpload? {
        switch AuditUpload.read(received.take()) {
        case .upload(let upload): return upload
        case .refused(let response):
            refuse(response)
            return nil
        }
    }

    /// The parse failure as the answer to send (413 for a snapshot over the limit).
    static func response(to error: SnapshotError) -> HTTPResponse {
        .error(
            error.code == .tooLarge ? 413 : 400, code: error.code.rawValue, message: error.message,
            line: error.line, column: error.column, hint: error.hint)
    }
}
