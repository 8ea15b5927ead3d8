/// One screen's UI hierarchy, decoded and ready for the rules: immutable and shared
/// read-only by every rule of an audit (docs/snapshot-format.md).
public final class Snapshot: Sendable {
    /// The snapshot format version (`1`); dialects other than native report `1`.
    public let version: Int
    public let dialect: Dialect
    /// What the snapshot knows (declared colours, fonts, …): rules ask this, not the dialect.
    public let capabilities: SnapshotCapabilities
    public let platform: Platform
    public let app: String?
    public let build: String?
    public let screen: String?
    /// Screen size in points, when known.
    public let width: Double?
    public let height: Double?
    /// Pixels per point: the `scale` attribute, or the Android density used to convert pixels.
    public let scale: Double?
    /// What decided ``scale`` where it was estimated (an Android dump's density): the layout's
    /// standard components, the screen's short side, or the caller. A size read from pixels
    /// says it in its evidence.
    public let scaleBasis: String?
    public let settings: Settings
    /// Every UI element in document order (the report counts these).
    public let elements: [Element]
    public let animations: [Animation]
    /// Values that could not be read; each becomes a `snapshot.invalid-value` finding.
    public let invalidValues: [InvalidValue]
    /// Text of every string attribute.
    public let texts: TextTable
    /// Indexes of the elements with no parent element.
    public let roots: [Int]
    /// Notes about how the snapshot was read (density estimated, …), for `inspect`.
    public let notes: [String]

    /// The root of element paths (`/hierarchy`).
    let pathRoot: StaticString
    /// The screenshot sent with the snapshot, mapped onto its frames (``attaching(_:)``).
    public let screenshot: ScreenshotMapping?
    /// What OCR read on the screenshot, when the audit asked for it (``recognizing(_:)``).
    public let recognizedText: TextRecognition?
    /// What the layers above compute once per snapshot and several of them read (the
    /// screen reader's transcript: two rules and the journal).
    public let memo = SnapshotMemo()

    package init(
        version: Int, dialect: Dialect, capabilities: SnapshotCapabilities, pathRoot: StaticString, platform: Platform, app: String?, build: String?, screen: String?,
        width: Double?, height: Double?, scale: Double?, settings: Settings, elements: [Element],
        animations: [Animation], invalidValues: [InvalidValue], texts: TextTable, roots: [Int], notes: [String],
        screenshot: ScreenshotMapping? = nil, recognizedText: TextRecognition? = nil, scaleBasis: String? = nil
    ) {
        self.scaleBasis = scaleBasis
        self.screenshot = screenshot
        self.recognizedText = recognizedText
        self.version = version
        self.dialect = dialect
        self.capabilities = capabilities
        self.pathRoot = pathRoot
        self.platform = platform
        self.app = app
        self.build = build
        self.screen = screen
        self.width = width
        self.height = height
        self.scale = scale
        self.settings = settings
        self.elements = elements
        self.animations = animations
        self.invalidValues = invalidValues
        self.texts = texts
        self.roots = roots
        self.notes = notes
    }

    /// This snapshot with `image` as its screenshot: colours can then be read from pixels
    /// (``SnapshotCapabilities/colorsFromPixels``). Throws when the image does not fit the
    /// snapshot's screen (``ScreenshotMapping/init(snapshot:screenshot:)``).
    /// Throws when an image with `header` cannot be this snapshot's screenshot: checked
    /// before a pixel of it is decoded.
    public func checkFits(_ header: ImageDecoder.Header) throws(ImageError) {
        _ = try ScreenshotMapping.fit(snapshot: self, imageWidth: header.width, imageHeight: header.height, format: header.format)
    }

    public func attaching(_ image: Screenshot) throws(ImageError) -> Snapshot {
        let mapping = try ScreenshotMapping(snapshot: self, screenshot: image)
        return Snapshot(
            version: version, dialect: dialect, capabilities: capabilities.union(.colorsFromPixels), pathRoot: pathRoot,
            platform: platform, app: app, build: build, screen: screen, width: width, height: height, scale: scale,
            settings: settings, elements: elements, animations: animations, invalidValues: invalidValues,
            texts: texts, roots: roots, notes: notes + mapping.notes, screenshot: mapping, recognizedText: recognizedText, scaleBasis: scaleBasis)
    }

    /// This snapshot with what OCR read on its screenshot.
    public func recognizing(_ recognition: TextRecognition) -> Snapshot {
        Snapshot(
            version: version, dialect: dialect, capabilities: capabilities, pathRoot: pathRoot,
            platform: platform, app: app, build: build, screen: screen,
            width: width, height: height, scale: scale, settings: settings, elements: elements, animations: animations,
            invalidValues: invalidValues, texts: texts, roots: roots, notes: notes, screenshot: screenshot, recognizedText: recognition, scaleBasis: scaleBasis)
    }

    /// This snapshot saying which app, build and screen it is: a request's values replace
    /// the snapshot's own (an Appium or uiautomator dump has no place for them);
    /// `defaultScreen` names the screen only when neither says one (auditctl's file name).
    /// `platform` is taken only by a snapshot whose capture does not say its own (`other`:
    /// Flutter's semantics dump).
    public func identified(
        app: String? = nil, build: String? = nil, screen: String? = nil, defaultScreen: String? = nil, platform: Platform? = nil
    ) -> Snapshot {
        let platform = self.platform == .other ? (platform ?? self.platform) : self.platform
        guard app != nil || build != nil || screen != nil || (self.screen == nil && defaultScreen != nil) || platform != self.platform else { return self }
        return Snapshot(
            version: version, dialect: dialect, capabilities: capabilities, pathRoot: pathRoot,
            platform: platform, app: app ?? self.app, build: build ?? self.build, screen: screen ?? self.screen ?? defaultScreen,
            width: width, height: height, scale: scale, settings: settings, elements: elements, animations: animations,
            invalidValues: invalidValues, texts: texts, roots: roots, notes: notes, screenshot: screenshot, recognizedText: recognizedText, scaleBasis: scaleBasis)
    }

    /// The string behind a reference, `nil` when absent.
    @inlinable public func text(_ ref: TextRef) -> String? { texts.string(ref) }

    /// What a screen reader announces as element `index`'s name: the label, else the
    /// visible `text`; ``TextRef/absent`` when both are blank.
    public func accessibleNameRef(of index: Int) -> TextRef {
        let element = elements[index]
        if !texts.isBlank(element.label) { return element.label }
        if !texts.isBlank(element.text) { return element.text }
        return .absent
    }

    /// The text drawn on screen: `text`, else a text element's value or label;
    /// ``TextRef/absent`` when there is none.
    public func visibleTextRef(of index: Int) -> TextRef {
        let element = elements[index]
        if !texts.isBlank(element.text) { return element.text }
        if element.role == .text || element.role == .textfield {
            if !texts.isBlank(element.value) { return element.value }
            // A static text's label is what it draws (iOS); where names come from content
            // (Android), a label is a content description, heard and not drawn: an empty
            // TextView's description is not text on screen.
            if element.role == .text, !capabilities.contains(.namesFromContent), !texts.isBlank(element.label) { return element.label }
        }
        return .absent
    }

    /// Appends element `index`'s accessible name (``accessibleNameRef(of:)``); false when
    /// it has none.
    @discardableResult
    public func appendAccessibleName(of index: Int, to out: inout [UInt8]) -> Bool {
        let name = accessibleNameRef(of: index)
        texts.appendBytes(name, to: &out)
        return !name.isAbsent
    }

    /// A view of element `index` with its strings decoded on demand.
    public func node(_ index: Int) -> Node { Node(snapshot: self, index: index) }

    /// Indexes of the children of element `index`, in document order.
    public func children(of index: Int) -> [Int] {
        var result: [Int] = []
        var child = elements[index].firstChild
        while child >= 0 {
            result.append(Int(child))
            child = elements[Int(child)].nextSibling
        }
        return result
    }

    /// The children of element `index` in document order, walked through the tree links
    /// without building an array.
    public func childIndices(of index: Int) -> ChildIndices { ChildIndices(elements: elements, first: elements[index].firstChild) }

    /// Indexes of the ancestors of element `index`, nearest first.
    public func ancestors(of index: Int) -> [Int] {
        var result: [Int] = []
        var current = elements[index].parent
        while current >= 0 {
            result.append(Int(current))
            current = elements[Int(current)].parent
        }
        return result
    }

    /// The animations of element `index`.
    public func animations(of index: Int) -> ArraySlice<Animation> {
        let element = elements[index]
        let start = Int(element.animationStart)
        return animations[start..<start + Int(element.animationCount)]
    }

    /// An XPath-like location: `/snapshot/element[1]/element[2]` (written as reports write
    /// them, ``ElementPathWriter``).
    public func path(of index: Int) -> String {
        var writer = ElementPathWriter()
        var out: [UInt8] = []
        writer.write(pathOf: index, in: self, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// One step of a path: `/element[2]`, element `index`'s tag and its place among its
    /// siblings of that tag.
    package func appendPathStep<Sink: ByteSink>(of index: Int, to out: inout Sink) {
        let element = elements[index]
        out.write(byte: UInt8(ascii: "/"))
        texts.appendBytes(element.tagName, to: &out)
        out.write(byte: UInt8(ascii: "["))
        JSON.writeInt(Int(element.position), to: &out)
        out.write(byte: UInt8(ascii: "]"))
    }

    /// The rule ids and globs that `a11y-ignore` suppresses for element `index`: its own
    /// and its ancestors'.
    public func suppressions(of index: Int) -> [String] {
        var result: [String] = []
        var current = index
        while current >= 0 {
            let element = elements[current]
            if let list = text(element.ignoredRules) {
                result += list.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
            }
            current = Int(element.parent)
        }
        return result
    }
}

/// The children of one element, in document order (``Snapshot/childIndices(of:)``).
public struct ChildIndices: Sequence, IteratorProtocol {
    // `AuditModel.Element`, not the sequence's own `Element` (an index): which one a bare
    // `Element` names here depends on the order a clean build checks the files in.
    let elements: [AuditModel.Element]
    var upcoming: Int32

    init(elements: [AuditModel.Element], first: Int32) {
        self.elements = elements
        self.upcoming = first
    }

    public mutating func next() -> Int? {
        guard upcoming >= 0 else { return nil }
        let current = Int(upcoming)
        upcoming = elements[current].nextSibling
        return current
    }
}
