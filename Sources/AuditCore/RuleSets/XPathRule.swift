import CLibXML2

/// A custom rule declared in a rule set: an XPath 1.0 expression over the snapshot
/// document; every element it selects is a finding (attributes and text select their
/// element).
public struct XPathRule: Sendable {
    public var id: String
    public var title: String
    public var expression: String
    public var severity: Severity
    public var message: String
    public var wcag: [String]

    public init(id: String, title: String, expression: String, severity: Severity, message: String, wcag: [String]) {
        self.id = id
        self.title = title
        self.expression = expression
        self.severity = severity
        self.message = message
        self.wcag = wcag
    }

    /// `nil` when the expression compiles, else libxml2's complaint.
    public static func compileProblem(_ expression: String) -> String? {
        LibXML2.initialize()
        var problem: String?
        withQuietErrors {
            if let compiled = xmlXPathCompile(expression) {
                xmlXPathFreeCompExpr(compiled)
            } else {
                problem = "invalid XPath expression \"\(expression)\""
            }
        }
        return problem
    }

    /// Runs libxml2 with its generic error printer silenced for this thread.
    static func withQuietErrors(_ body: () -> Void) {
        xmlSetStructuredErrorFunc(nil, { _, _ in })
        body()
        xmlSetStructuredErrorFunc(nil, nil)
    }
}

/// The snapshot re-read as a libxml2 DOM for XPath rules, with each DOM node mapped to
/// the model's element index. Built only when the rule set has XPath rules.
/// `@unchecked Sendable`: built before the concurrent jobs start and used by exactly one
/// of them (libxml2 XPath contexts are per call).
final class XPathDocument: @unchecked Sendable {
    private let document: xmlDocPtr
    private var indexes: [UnsafeMutableRawPointer: Int] = [:]

    /// `nil` when the bytes do not parse as a DOM (the SAX parse already accepted them,
    /// so this means a DOM limit was reached).
    init?(bytes: UnsafeRawBufferPointer, dialect: Dialect) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) else { return nil }
        // The SAX pass refused any DOCTYPE, so no entity can load here; keep NONET anyway.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        var parsed: xmlDocPtr?
        XPathRule.withQuietErrors {
            parsed = xmlReadMemory(base, Int32(bytes.count), nil, nil, options)
        }
        guard let parsed else { return nil }
        document = parsed
        var next = 0
        func visit(_ node: xmlNodePtr?, depth: Int) {
            var current = node
            while let node = current {
                if node.pointee.type == XML_ELEMENT_NODE {
                    let name = node.pointee.name.map { String(cString: $0) } ?? ""
                    let counts: Bool = switch dialect {
                    case .native: name == "element"
                    case .appiumXCUITest: name.hasPrefix("XCUIElementType")
                    case .uiautomator: depth > 0
                    }
                    if counts {
                        indexes[UnsafeMutableRawPointer(node)] = next
                        next += 1
                    }
                    visit(node.pointee.children, depth: depth + 1)
                }
                current = node.pointee.next
            }
        }
        visit(xmlDocGetRootElement(document), depth: 0)
    }

    deinit { xmlFreeDoc(document) }

    /// Element indexes selected by `expression`, in document order, without repeats;
    /// `nil` when evaluation fails.
    func select(_ expression: String) -> [Int]? {
        guard let context = xmlXPathNewContext(document) else { return nil }
        defer { xmlXPathFreeContext(context) }
        var result: xmlXPathObjectPtr?
        XPathRule.withQuietErrors {
            result = xmlXPathEvalExpression(expression, context)
        }
        guard let result else { return nil }
        defer { xmlXPathFreeObject(result) }
        guard result.pointee.type == XPATH_NODESET, let set = result.pointee.nodesetval else { return [] }
        var found = Set<Int>()
        for offset in 0..<Int(set.pointee.nodeNr) {
            var node = set.pointee.nodeTab[offset]
            // An attribute or text node stands for the element that carries it.
            while let current = node, indexes[UnsafeMutableRawPointer(current)] == nil {
                node = current.pointee.parent
            }
            if let node, let index = indexes[UnsafeMutableRawPointer(node)] { found.insert(index) }
        }
        return found.sorted()
    }
}
