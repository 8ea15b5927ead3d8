import AuditCore

/// One finding of a report as sent (docs/API.md, "Findings"), or of a baseline.
package struct ReportFinding {
    package var rule: String
    package var severity: Severity
    package var message: String
    /// The rule's outcome (`below-platform-minimum`); absent from findings read back from SARIF.
    package var result: String?
    package var wcag: [String]
    /// The element's `id`, its path, and where it is; all absent for a snapshot-wide finding.
    package var element: String?
    package var path: String?
    package var line: Int?
    package var column: Int?
    package var frame: Rect?
    /// What the rule measured, in the rule's order.
    package var evidence: [(String, JSON)]
    package var fingerprint: String
    /// The defect this finding is an instance of (absent from daemons before it).
    package var defect: String?
    /// The finding's members as sent, in order (printed as they came by `json` and `jsonl`).
    package var fields: [(String, JSON)]

    /// `element`, else `path`: how text formats name the element.
    package var elementName: String? { element ?? path }

    package init(_ fields: JSONFields) throws(AnswerDecodingError) {
        rule = try fields.string("rule")
        severity = try fields.severity("severity")
        message = try fields.string("message")
        result = try fields.optionalString("result")
        wcag = try fields.strings("wcag", optional: true)
        element = try fields.optionalString("element")
        path = try fields.optionalString("path")
        line = try fields.optionalInt("line")
        column = try fields.optionalInt("column")
        if let frame = fields.value("frame") {
            let numbers = frame.arrayValue?.compactMap(\.doubleValue) ?? []
            guard numbers.count == 4, frame.arrayValue?.count == 4 else {
                throw AnswerDecodingError(path: fields.path + ".frame", problem: "is not [x, y, width, height]")
            }
            self.frame = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        }
        evidence = fields.value("evidence") == nil ? [] : try fields.object("evidence").members
        fingerprint = try fields.string("fingerprint")
        defect = try fields.optionalString("defect")
        self.fields = fields.members
    }

    /// A finding known only by what a SARIF baseline keeps of it.
    package init(rule: String, severity: Severity, message: String, element: String?, path: String?, line: Int?, fingerprint: String) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.wcag = []
        self.element = element
        self.path = path
        self.line = line
        self.evidence = []
        self.fingerprint = fingerprint
        self.fields = [
            ("rule", .string(rule)), ("message", .string(message)), ("severity", .string(severity.rawValue)),
            ("element", element.map(JSON.string) ?? .null), ("path", path.map(JSON.string) ?? .null),
            ("line", line.map(JSON.int) ?? .null), ("fingerprint", .string(fingerprint)),
        ]
    }

    package var json: JSON { .object(fields) }
}

/// A check a rule could not judge, as sent: never a pass.
package struct ReportIncomplete {
    package var rule: String
    package var reason: String
    package var element: String?
    package var path: String?
    package var line: Int?

    package init(_ fields: JSONFields) throws(AnswerDecodingError) {
        rule = try fields.string("rule")
        reason = try fields.string("reason")
        element = try fields.optionalString("element")
        path = try fields.optionalString("path")
        line = try fields.optionalInt("line")
    }
}
