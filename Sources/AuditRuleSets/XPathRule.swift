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

    /// The longest expression a rule may have, and its deepest nesting of brackets and
    /// parentheses: libxml2 compiles by recursion, and 50,000 nested parentheses overflow
    /// the stack of the thread that compiles (the daemon's, at start and on SIGHUP).
    public static let maxLength = 4096
    public static let maxNesting = 64

    /// Why `expression` is refused before libxml2 sees it, or `nil`.
    public static func nestingProblem(_ expression: String) -> String? {
        let bytes = expression.utf8
        guard bytes.count <= maxLength else {
            return "the XPath expression is \(bytes.count) bytes long; at most \(maxLength) are allowed"
        }
        var depth = 0, deepest = 0
        var quote: UInt8?
        for byte in bytes {
            if let open = quote {
                if byte == open { quote = nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
            case UInt8(ascii: "("), UInt8(ascii: "["):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: ")"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        guard deepest <= maxNesting else {
            return "the XPath expression nests brackets and parentheses \(deepest) deep; at most \(maxNesting) are allowed"
        }
        return nil
    }

    /// `nil` when the expression compiles, else why not.
    public static func compileProblem(_ expression: String) -> String? {
        if let problem = nestingProblem(expression) { return problem }
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
package final class XPathDocument: @unchecked Sendable {
    private let document: xmlDocPtr
    private var indexes: [UnsafeMutableRawPointer: Int] = [:]
    /// What merging node sets costs on this document (``XPathMergeCost``).
    package private(set) var shape = XPathMergeCost.DocumentShape(elements: 0, siblingCubes: 0)

    /// `nil` when the bytes do not parse as a DOM (the SAX parse already accepted them,
    /// so this means a DOM limit was reached).
    package init?(bytes: UnsafeRawBufferPointer, dialect: Dialect) {
        // The same document the snapshot was read from (without a tool's trailing status line).
        let (bytes, _) = SnapshotParser.document(in: bytes)
        guard SnapshotDialects.countsElement(named: "", depth: 1, in: dialect) != nil,
            let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        else { return nil }
        // The SAX pass refused any DOCTYPE, so no entity can load here; keep NONET anyway.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        var parsed: xmlDocPtr?
        XPathRule.withQuietErrors {
            parsed = xmlReadMemory(base, Int32(bytes.count), nil, nil, options)
        }
        guard let parsed else { return nil }
        document = parsed
        var next = 0
        var elements = 0
        var siblingCubes = 0.0
        func visit(_ node: xmlNodePtr?, depth: Int) {
            var current = node
            var siblings = 0
            defer { siblingCubes += Double(siblings) * Double(siblings) * Double(siblings) / 6 }
            while let node = current {
                if node.pointee.type == XML_ELEMENT_NODE {
                    elements += 1
                    siblings += 1
                    let name = node.pointee.name.map { String(cString: $0) } ?? ""
                    // The elements the snapshot counts: the SAX pass asks the dialect the same.
                    let counts = SnapshotDialects.countsElement(named: name, depth: depth, in: dialect) == true
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
        shape = XPathMergeCost.DocumentShape(elements: elements, siblingCubes: siblingCubes)
    }

    deinit { xmlFreeDoc(document) }

    package enum Selection {
        case selected([Int])
        /// libxml2 stopped after `opLimit` steps.
        case operationLimit
        /// Not evaluated: merging its node sets would take about this many comparisons.
        case mergeLimit(Double)
        case failed
    }

    /// Element indexes selected by `expression`, in document order, without repeats,
    /// evaluated in at most `limits.maxOperations` libxml2 steps, and only when merging
    /// its node sets costs at most `limits.maxMergeComparisons`.
    package func select(_ expression: String, limits: XPathLimits) -> Selection {
        guard XPathRule.nestingProblem(expression) == nil else { return .failed }
        let merging = XPathMergeCost.estimate(expression, on: shape)
        guard merging <= Double(limits.maxMergeComparisons) else { return .mergeLimit(merging) }
        guard let context = xmlXPathNewContext(document) else { return .failed }
        defer { xmlXPathFreeContext(context) }
        context.pointee.opLimit = UInt(max(1, limits.maxOperations))
        context.pointee.opCount = 0
        var result: xmlXPathObjectPtr?
        XPathRule.withQuietErrors {
            result = xmlXPathEvalExpression(expression, context)
        }
        guard let result else {
            return context.pointee.opCount >= context.pointee.opLimit ? .operationLimit : .failed
        }
        defer { xmlXPathFreeObject(result) }
        guard result.pointee.type == XPATH_NODESET, let set = result.pointee.nodesetval else { return .selected([]) }
        var found = Set<Int>()
        for offset in 0..<Int(set.pointee.nodeNr) {
            var node = set.pointee.nodeTab[offset]
            // An attribute or text node stands for the element that carries it.
            while let current = node, indexes[UnsafeMutableRawPointer(current)] == nil {
                node = current.pointee.parent
            }
            if let node, let index = indexes[UnsafeMutableRawPointer(node)] { found.insert(index) }
        }
        return .selected(found.sorted())
    }
}
