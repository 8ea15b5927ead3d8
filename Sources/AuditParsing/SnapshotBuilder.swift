import CLibXML2
import Foundation
import Synchronization

/// Receives SAX events for one document and builds the flat element storage of a
/// ``Snapshot``. Used by one thread at a time, for one parse: libxml2's, or the thread
/// that replays its recorded events (``SAXEventPipe``, documents from 1 MiB).
final class SnapshotBuilder {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// What each open XML element is.
    enum Open {
        case root, element, animation, settings, ignored
    }

    /// What an element name means in the detected dialect.
    enum NameKind {
        case element, settings, animation, ignored
    }

    let options: SnapshotParser.Options
    let source: UnsafeRawBufferPointer
    /// Where libxml2 was when it reported the event being handled; set by the driver
    /// before each event (the builder may run on another thread than libxml2).
    var cursor = ParseCursor()
    /// Set on the first fatal problem; the driver stops libxml2 when it sees it.
    let stopRequested = Atomic<Bool>(false)
    /// libxml2's parser when the builder runs on its thread: stopped at once on failure.
    var context: xmlParserCtxtPtr?
    private(set) var error: SnapshotError?

    /// The dialect of the document, known once its root element is read.
    var decoder: (any SnapshotDialect.Type)?
    var open: [Open] = []
    var elementStack: [Int32] = []
    /// The last child seen so far of each open element (parallel to `elementStack`).
    var lastChildStack: [Int32] = []
    /// Per open parent (index 0: the document level): element names seen and how often.
    var siblingNames: [[(name: UnsafeRawPointer, count: Int32)]] = [[]]
    var nameKinds: [UnsafeRawPointer: NameKind] = [:]
    var lastKindName: UnsafeRawPointer?
    var lastKind: NameKind = .ignored
    var lastTagName: UnsafeRawPointer?
    var lastTagRef: TextRef = .absent
    var tagRefs: [UnsafeRawPointer: TextRef] = [:]
    var attributeKeys = AttributeKeyCache()
    var scratch: [UInt8] = []

    var elements: [Element] = []
    var roots: [Int] = []
    var texts = TextTable()
    var animations: [Animation] = []
    var invalid: [InvalidValue] = []
    var notes: [String] = []
    /// Android: the app packages seen (not the system's), how many nodes each has, and each
    /// node's (by element index; -1 for none): the app is the package of the most nodes.
    var packages = PackageTally()

    var version: Int?
    var sawVersion = false
    var platform: Platform?
    var app: String?
    var build: String?
    var screen: String?
    var width: Double?
    var height: Double?
    var scale: Double?
    /// The capture's `rotation` (Android: 0 is the screen's natural orientation).
    var rotation: Int?
    var settings = Settings()
    var rootLine = 1
    var rootColumn = 1

    // Source position tracking (exact line and column of each start tag, UTF-8 input only).
    let tracksBytes: Bool
    var lastTagStart = -1
    var scanOffset = 0
    var scanLine = 1
    var lineStart = 0
    /// Code points counted on the current line up to `codePointOffset`: columns are in
    /// Unicode code points (what SARIF's `unicodeCodePoints` and editors count), not bytes —
    /// a one-line uiautomator dump of Chinese text would otherwise point past its element.
    var codePointOffset = 0
    var codePointsBefore = 0

    init(options: SnapshotParser.Options, source: UnsafeRawBufferPointer) {
        self.options = options
        self.source = source
        self.tracksBytes = SnapshotBuilder.isUTF8(source)
        elements.reserveCapacity(min(source.count / 120 + 16, options.maxElements))
        HugePages.advise(capacityOf: &elements)
        texts.reserve(source.count / 4)
    }

    // MARK: - SAX events

    func startElement(
        name: UnsafePointer<xmlChar>, attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard error == nil else { return }
        if open.count >= options.maxDepth {
            fail(
                .tooDeep, "elements are nested deeper than \(options.maxDepth) levels",
                hint: "flatten the hierarchy; real screens stay far below this depth")
            return
        }
        let attributes = AttributeList(pointer: attributes, count: attributeCount)
        guard let decoder else {
            startRoot(name: name, attributes: attributes)
            return
        }
        switch kind(of: name, decoder: decoder) {
        case .element:
            startUIElement(name: name, attributes: attributes, decoder: decoder)
            open.append(.element)
        case .settings where open.last == .root:
            readSettings(attributes)
            open.append(.settings)
        case .animation where !elementStack.isEmpty && open.last == .element:
            readAnimation(attributes)
            open.append(.animation)
        default:
            open.append(.ignored)
        }
    }

    func endElement() {
        guard error == nil, let last = open.popLast() else { return }
        if last == .element {
            elementStack.removeLast()
            lastChildStack.removeLast()
            siblingNames.removeLast()
        }
    }

    /// A document type declaration: refused (it is the door to every entity attack, and
    /// snapshots never need one).
    func forbidDoctype(rootName: String) {
        fail(
            .doctypeForbidden, "document type declarations are not accepted (<!DOCTYPE \(rootName)>)",
            hint: "remove the <!DOCTYPE …> line; snapshots need no DTD or entities")
    }

    /// Records a fatal problem at the current position and stops the parser.
    func fail(_ code: SnapshotError.Code, _ message: String, hint: String, at position: (line: Int, column: Int)? = nil) {
        guard error == nil else { return }
        let (line, column) = position ?? currentPosition()
        error = SnapshotError(code: code, message: message, line: line, column: column, hint: hint)
        stopRequested.store(true, ordering: .releasing)
        if let context { xmlStopParser(context) }
    }

    // MARK: - Root and dialect

    func startRoot(name: UnsafePointer<xmlChar>, attributes: AttributeList) {
        let rootName = String(cString: name)
        (rootLine, rootColumn) = tagPosition()
        guard let (decoder, root) = SnapshotDialects.recognising(root: rootName) else {
            let expected = SnapshotDialects.all.map { "\($0.rootExample) (\($0.title))" }
            fail(
                .unsupportedRoot, "unsupported root element <\(rootName)>",
                hint: "expected " + expected.dropLast().joined(separator: ", ") + (expected.count > 1 ? " or " : "") + (expected.last ?? ""),
                at: (rootLine, rootColumn))
            return
        }
        self.decoder = decoder
        switch root {
        case .container(let implied):
            if let implied { platform = implied }
            decoder.readRoot(attributes, builder: self)
            open.append(.root)
        case .element(let implied):
            if let implied { platform = implied }
            startUIElement(name: name, attributes: attributes, decoder: decoder, position: (rootLine, rootColumn))
            open.append(.element)
        }
    }

    func kind(of name: UnsafePointer<xmlChar>, decoder: any SnapshotDialect.Type) -> NameKind {
        let key = UnsafeRawPointer(name)
        // Most elements share one name: remember the last answer before hashing.
        if key == lastKindName { return lastKind }
        if let known = nameKinds[key] {
            lastKindName = key
            lastKind = known
            return known
        }
        let text = String(cString: name)
        let kind = decoder.kind(ofElementNamed: text)
        nameKinds[key] = kind
        return kind
    }

    // MARK: - UI elements

    func startUIElement(
        name: UnsafePointer<xmlChar>, attributes: AttributeList, decoder: any SnapshotDialect.Type,
        position: (Int, Int)? = nil
    ) {
        guard elements.count < options.maxElements else {
            fail(
                .tooManyElements, "the snapshot has more than \(options.maxElements) elements",
                hint: "split the screen into smaller snapshots")
            return
        }
        let index = Int32(elements.count)
        // Decode in place: an element is 200-odd bytes, not worth copying twice.
        elements.append(Element())
        let (line, column) = position ?? tagPosition()
        elements[Int(index)].line = Int32(truncatingIfNeeded: line)
        elements[Int(index)].column = Int32(truncatingIfNeeded: column)
        elements[Int(index)].tagName = tagRef(name)
        elements[Int(index)].depth = Int32(elementStack.count)
        elements[Int(index)].position = nextPosition(for: UnsafeRawPointer(name))

        if let parent = elementStack.last {
            elements[Int(index)].parent = parent
            let previous = lastChildStack[lastChildStack.count - 1]
            if previous >= 0 {
                elements[Int(previous)].nextSibling = index
            } else {
                elements[Int(parent)].firstChild = index
            }
            lastChildStack[lastChildStack.count - 1] = index
        } else {
            roots.append(Int(index))
        }

        decoder.decode(attributes, into: &elements[Int(index)], index: Int(index), tag: name, builder: self)
        elementStack.append(index)
        lastChildStack.append(-1)
        siblingNames.append([])
    }

    func nextPosition(for name: UnsafeRawPointer) -> Int32 {
        let level = siblingNames.count - 1
        for slot in siblingNames[level].indices where siblingNames[level][slot].name == name {
            siblingNames[level][slot].count += 1
            return siblingNames[level][slot].count
        }
        siblingNames[level].append((name, 1))
        return 1
    }

    func tagRef(_ name: UnsafePointer<xmlChar>) -> TextRef {
        let key = UnsafeRawPointer(name)
        if key == lastTagName { return lastTagRef }
        if let ref = tagRefs[key] {
            lastTagName = key
            lastTagRef = ref
            return ref
        }
        let ref = texts.append(UnsafeBufferPointer(start: name, count: strlen(name)))
        tagRefs[key] = ref
        return ref
    }

    /// The model's key for an attribute of the document's dialect (`D`, known to the
    /// caller: the dialect's own decoder).
    func attributeKey<D: SnapshotDialect>(_ attribute: Attribute, of dialect: D.Type) -> AttributeKey {
        let pointer = UnsafeRawPointer(attribute.name)
        if let key = attributeKeys.lookup(pointer) { return key }
        let key = D.attributeKey(named: String(cString: attribute.name))
        attributeKeys.insert(pointer, key)
        return key
    }

    // MARK: - Finishing

    func finish() throws(SnapshotError) -> Snapshot {
        if let error { throw error }
        guard let decoder else {
            throw SnapshotError(
                code: .empty, message: "the snapshot has no root element", line: 1, column: 1,
                hint: "send an XML document whose root is <snapshot version=\"1\">")
        }
        decoder.finish(self)
        let covered = CoveredContent.mark(
            &elements, screenWidth: width ?? roots.compactMap { elements[$0].frame?.width }.max(),
            screenHeight: height ?? roots.compactMap { elements[$0].frame?.height }.max())
        if covered > 0 {
            notes.append("\(covered) elements are covered by a full-screen page drawn above them (an app drawer, the next page, a modal sheet): left out")
        }
        // Animations appear in document order of their tags; group them by owner.
        animations.sort { ($0.element, $0.line) < ($1.element, $1.line) }
        var start = 0
        while start < animations.count {
            let owner = animations[start].element
            var end = start
            while end < animations.count, animations[end].element == owner { end += 1 }
            elements[owner].animationStart = Int32(start)
            elements[owner].animationCount = Int32(end - start)
            start = end
        }
        DerivedFacts.compute(&elements, inheritsVisibility: decoder.inheritsVisibility, inheritsEnabled: decoder.inheritsEnabled)
        return Snapshot(
            version: version ?? 1, dialect: decoder.dialect, capabilities: decoder.capabilities,
            pathRoot: decoder.pathRoot, platform: platform ?? .other, app: app, build: build,
            screen: screen, width: width, height: height, scale: scale, settings: settings,
            elements: elements, animations: animations, invalidValues: invalid, texts: texts,
            roots: roots, notes: notes)
    }

    // MARK: - Helpers

    func recordInvalid(element: Int?, owner: String, _ attribute: String, _ value: Bytes, expected: String, line: Int) {
        invalid.append(
            InvalidValue(
                element: element, owner: owner, attribute: attribute,
                value: ValueScanner.string(value), expected: expected, line: line))
    }

    /// Hands the attribute's value to `body`, with `&#38;` (how libxml2 passes a literal
    /// `&` when entities are not substituted) turned back into `&`.
    func withValue(_ attribute: Attribute, _ body: (Bytes) -> Void) {
        let value = attribute.value
        guard let start = value.baseAddress, memchr(start, Int32(UInt8(ascii: "&")), value.count) != nil else { return body(value) }
        scratch.removeAll(keepingCapacity: true)
        var index = 0
        while index < value.count {
            if value[index] == UInt8(ascii: "&"), index + 4 < value.count,
                value[index + 1] == UInt8(ascii: "#"), value[index + 2] == UInt8(ascii: "3"),
                value[index + 3] == UInt8(ascii: "8"), value[index + 4] == UInt8(ascii: ";")
            {
                scratch.append(UInt8(ascii: "&"))
                index += 5
            } else {
                scratch.append(value[index])
                index += 1
            }
        }
        let copy = scratch
        copy.withUnsafeBufferPointer { body($0) }
    }

    /// Line and column of the start tag just reported by libxml2: the last '<' before the
    /// parser's position (attribute values cannot hold a raw '<'), with newlines counted
    /// incrementally by `memchr`.
    func tagPosition() -> (line: Int, column: Int) {
        guard tracksBytes, let base = source.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return currentPosition()
        }
        let consumed = min(cursor.consumed, source.count)
        let start = auditd_last_index_of(base, lastTagStart + 1, consumed, UInt8(ascii: "<"))
        guard start > lastTagStart else { return currentPosition() }
        var cursor = scanOffset
        while cursor < start, let hit = memchr(base + cursor, 0x0A, start - cursor) {
            let offset = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            scanLine += 1
            lineStart = offset + 1
            cursor = offset + 1
        }
        scanOffset = max(scanOffset, start)
        lastTagStart = start
        if codePointOffset < lineStart {
            codePointOffset = lineStart
            codePointsBefore = 0
        }
        // Every byte that does not continue a UTF-8 sequence starts a code point.
        var count = 0
        var offset = codePointOffset
        while offset < start {
            count &+= Int(base[offset] & 0xC0 != 0x80 ? 1 : 0)
            offset += 1
        }
        codePointsBefore += count
        codePointOffset = start
        return (scanLine, codePointsBefore + 1)
    }

    /// libxml2's own idea of the current position (end of the current token).
    func currentPosition() -> (line: Int, column: Int) {
        (cursor.line, cursor.column)
    }

    /// True when byte offsets are character offsets: UTF-8 (or ASCII) without a BOM
    /// other than UTF-8's.
    static func isUTF8(_ source: UnsafeRawBufferPointer) -> Bool {
        if source.count >= 2 {
            let (first, second) = (source[0], source[1])
            if (first == 0xFE && second == 0xFF) || (first == 0xFF && second == 0xFE) || first == 0 || second == 0 { return false }
        }
        let head = source.prefix(256)
        guard let declarationEnd = head.firstIndex(of: UInt8(ascii: ">")),
            head.starts(with: Array("<?xml".utf8)) || head.starts(with: [0xEF, 0xBB, 0xBF] + Array("<?xml".utf8))
        else { return true }
        let declaration = String(decoding: head[..<declarationEnd], as: UTF8.self).lowercased()
        guard let range = declaration.range(of: "encoding") else { return true }
        let rest = declaration[range.upperBound...].drop(while: { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" })
        let encoding = rest.prefix(while: { $0 != "\"" && $0 != "'" && $0 != " " })
        return ["utf-8", "utf8", "us-ascii", "ascii"].contains(String(encoding))
    }
}

extension SnapshotBuilder {
    /// Calls `body` with each attribute `dialect` knows: its key, and a reader of its value
    /// (`&#38;` resolved) that records an invalid value at the attribute's place. Unknown
    /// attributes cost one cached lookup.
    @inline(__always)
    func forEachKnownAttribute<D: SnapshotDialect>(
        _ attributes: AttributeList, of dialect: D.Type, element index: Int,
        owner: String, line: Int, _ body: (AttributeKey, ValueReader) -> Void
    ) {
        for attribute in attributes {
            let key = attributeKey(attribute, of: dialect)
            if key == .unknown { continue }
            withValue(attribute) { value in
                body(key, ValueReader(builder: self, value: value, element: index, owner: owner, name: attribute.name, line: line))
            }
        }
    }
}
