import Foundation
import Synchronization

/// Receives SAX events for one document and builds the flat element storage of a
/// ``Snapshot``: the tree (parents, siblings, positions among like-named siblings), the
/// dialect recognised from the root, which decodes each element. Used by one thread at a
/// time, for one parse: libxml2's, or the thread that replays its recorded events
/// (``SAXEventPipe``, documents from 1 MiB). Attribute reading is in
/// `SnapshotBuilder+Attributes.swift`, the last steps in `SnapshotBuilder+Finishing.swift`,
/// source positions from the front end (``TagLocator``, or the cursor); what a dialect keeps for itself while reading
/// (Android's package tally) is its own ``DialectState``.
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

    let options: ParseOptions
    /// The dialects a document may be in, tried in order on its root element.
    let dialects: [any SnapshotDialect.Type]
    let source: UnsafeRawBufferPointer
    /// Where libxml2 was when it reported the event being handled; set by the driver
    /// before each event (the builder may run on another thread than libxml2).
    var cursor = ParseCursor()
    /// Set on the first fatal problem; the driver stops libxml2 when it sees it.
    let stopRequested = Atomic<Bool>(false)
    /// The front end's own parser when the builder runs on its thread (libxml2's context,
    /// opaque here): the front end reads its position and stops it at once on failure.
    var frontEnd: OpaquePointer?
    /// Stops the front end at once (set by a front end that can: libxml2's `xmlStopParser`).
    var stopFrontEnd: ((OpaquePointer) -> Void)?
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
    /// What decided an estimated scale (``Snapshot/scaleBasis``).
    var scaleBasis: String?
    /// What this document turned out to say beyond its dialect's ``SnapshotDialect/capabilities``
    /// (an Appium source with `traits`: which elements are headings).
    var learned: SnapshotCapabilities = []
    /// The dialect's own state for this document (``SnapshotDialect/makeState()``).
    private var dialectState: (any DialectState)?

    var version: Int?
    var sawVersion = false
    var platform: Platform?
    var app: String?
    var build: String?
    var screen: String?
    var width: Double?
    var height: Double?
    var scale: Double?
    var settings = Settings()
    var rootLine = 1
    var rootColumn = 1

    /// Exact line and column of each start tag (UTF-8 input only).
    var tagLocator: (any TagLocator)?
    /// Whether libxml2 must report how many bytes it consumed (the positions need it).
    var tracksBytes: Bool { tagLocator?.tracksBytes ?? false }

    init(options: ParseOptions, source: UnsafeRawBufferPointer, dialects: [any SnapshotDialect.Type]) {
        self.dialects = dialects
        self.options = options
        self.source = source
        // A document of a megabyte or more starts with room for the least it could hold (an
        // element in 512 bytes, text in a sixteenth of them) and grows by a guess from the
        // share read so far (``growElements()``, ``TextTable``): a guess from the size alone
        // reserved three times the elements of a screen of long ones, and eight times the
        // text of one whose bytes were mostly not text, held through the audit. A smaller
        // one gets a generous guess, which it rarely outgrows: room it leaves is a few
        // hundred kilobytes at most, and one block of a steady size is what the allocator
        // reuses best under a stream of small audits.
        let large = source.count >= 1 << 20
        elements.reserveCapacity(min(source.count / (large ? 512 : 120) + 16, options.maxElements))
        HugePages.advise(capacityOf: &elements)
        texts.reserve(source.count / (large ? 16 : 4))
    }

    // MARK: - SAX events

    func startElement(
        name: UnsafePointer<UInt8>, attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
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
        if let frontEnd, let stopFrontEnd { stopFrontEnd(frontEnd) }
    }

    // MARK: - Root and dialect

    /// The dialect whose root `name` is, and how it reads it.
    func recognising(root name: String) -> (dialect: any SnapshotDialect.Type, root: DialectRoot)? {
        for dialect in dialects {
            if let root = dialect.root(named: name) { return (dialect, root) }
        }
        return nil
    }

    func startRoot(name: UnsafePointer<UInt8>, attributes: AttributeList) {
        let rootName = String(cString: name)
        (rootLine, rootColumn) = tagPosition()
        guard let (decoder, root) = recognising(root: rootName) else {
            let expected = dialects.map { "\($0.rootExample) (\($0.title))" }
            fail(
                .unsupportedRoot, "unsupported root element <\(rootName)>",
                hint: "expected " + expected.dropLast().joined(separator: ", ") + (expected.count > 1 ? " or " : "") + (expected.last ?? ""),
                at: (rootLine, rootColumn))
            return
        }
        self.decoder = decoder
        dialectState = decoder.makeState()
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

    /// The state the document's dialect made for itself, as the type it made.
    func dialectState<State: DialectState>(as type: State.Type) -> State? {
        // Asked for every element: an identity check, not a dynamic cast (dialect states are
        // final classes).
        guard let state = dialectState, ObjectIdentifier(Swift.type(of: state)) == ObjectIdentifier(State.self) else { return nil }
        return unsafeDowncast(state, to: State.self)
    }

    func kind(of name: UnsafePointer<UInt8>, decoder: any SnapshotDialect.Type) -> NameKind {
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

    /// Makes room for the elements still to come, guessed from the share of the document
    /// read so far (and a thirty-second more), rather than doubling: the array is held through
    /// the audit, and doubling left up to half of it empty (a 100,000-element screen of
    /// short elements: room for 124,000, 5.9 MB unused at the audit's peak). At least a
    /// quarter more each time, so a document whose elements crowd its end still grows in
    /// few copies; without the bytes read (another encoding), doubles.
    private func growElements() {
        let count = elements.count
        let room = GrowthGuess.capacity(count: count, needed: count + 16, read: cursor.consumed, of: source.count, slack: 32, extra: 16)
        elements.reserveCapacity(min(room, options.maxElements))
        HugePages.advise(capacityOf: &elements)
    }

    func startUIElement(
        name: UnsafePointer<UInt8>, attributes: AttributeList, decoder: any SnapshotDialect.Type,
        position: (Int, Int)? = nil
    ) {
        guard elements.count < options.maxElements else {
            fail(
                .tooManyElements, "the snapshot has more than \(options.maxElements) elements",
                hint: "split the screen into smaller snapshots")
            return
        }
        let index = Int32(elements.count)
        if elements.count == elements.capacity { growElements() }
        texts.noteRead(cursor.consumed, of: source.count)
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

        var decoder = decoder
        if index == 0, let (refined, implied) = decoder.refinedDialect(firstElement: attributes) {
            // Read as the dialect it is from its first element on (nothing of it was read yet).
            decoder = refined
            self.decoder = refined
            dialectState = refined.makeState()
            nameKinds.removeAll()
            lastKindName = nil
            attributeKeys = AttributeKeyCache()
            platform = implied
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

    func tagRef(_ name: UnsafePointer<UInt8>) -> TextRef {
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

    // MARK: - Positions

    /// Line and column of the start tag just reported by libxml2 (libxml2's own position
    /// when the source's bytes are not UTF-8).
    func tagPosition() -> (line: Int, column: Int) {
        tagLocator?.startTag(consumed: cursor.consumed) ?? currentPosition()
    }

    /// libxml2's own idea of the current position (end of the current token).
    func currentPosition() -> (line: Int, column: Int) {
        (cursor.line, cursor.column)
    }

}
