import AuditCore

/// The daemon's answer when it did not audit (docs/API.md, "Errors"): a code, a message,
/// and for a snapshot that does not parse, its line, column and a hint. An answer that is
/// not that shape (a proxy's page, a daemon of another version) becomes `http-STATUS` with
/// the start of the body as its message.
package struct ErrorAnswer {
    package var status: Int
    package var code: String
    package var message: String
    package var line: Int?
    package var column: Int?
    package var hint: String?
    /// The answer's members as sent (printed by `--format json`).
    package var members: [(String, JSON)]

    package init(status: Int, body: [UInt8]) {
        guard let json = try? JSONParser.parse(body), let fields = try? JSONFields(json, at: ""),
            let error = try? fields.object("error"), let code = try? error.string("code"),
            let message = try? error.string("message")
        else {
            self = ErrorAnswer(status: status, code: "http-\(status)", message: String(decoding: body.prefix(200), as: UTF8.self))
            return
        }
        self.status = status
        self.code = code
        self.message = message
        line = (try? error.optionalInt("line")) ?? nil
        column = (try? error.optionalInt("column")) ?? nil
        hint = (try? error.optionalString("hint")) ?? nil
        members = fields.members
    }

    /// An error auditctl found itself: a 200 whose body is not a report.
    package init(status: Int, code: String, message: String, hint: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.hint = hint
        var error: [(String, JSON)] = [("code", .string(code)), ("message", .string(message))]
        if let hint { error.append(("hint", .string(hint))) }
        members = [("error", .object(error))]
    }
}
