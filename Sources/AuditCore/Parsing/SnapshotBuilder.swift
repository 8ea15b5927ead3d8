import CLibXML2
import Foundation
import Synchronization

/// Receives SAX events for one document and builds the flat element storage of a
/// ``Snapshot``. Used by one thread at a time, for one parse: libxml2's, or the thread
/// that replays its recorded events (``SAXEventPipe``, documents from 1 MiB).
final class SnapshotBuilder {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// What each open XML element is.
    private enum Open {
        case root, element, animation, settings, ignored
    }

    /// What an element name means in the detected dialect.
    private enum NameKind {
        case element, settings, animation, ignored
    }

    let options: SnapshotParser.Options
    private let source: UnsafeRawBufferPointer
    /// Where libxml2 was when it reported the event being handled; set by the driver
    /// before each event (the builder may run on another thread than libxml2).
    var cursor = ParseCursor()
    /// Set on the first fatal problem; the driver stops libxml2 when it sees it.
    let stopRequested = Atomic<Bool>(false)
    /// libxml2's parser when the builder runs on its thread: stopped at once on failure.
    var context: xmlParserCtxtPtr?
    private(set) var error: SnapshotError?

    private var dialect: Dialect?
    private var open: [Open] = []
    private var elementStack: [Int32] = []
    /// The last child seen so far of each open element (parallel to `elementStack`).
    private var lastChildStack: [Int32] = []
    /// Per open parent (index 0: the document level): element names seen and how often.
    private var siblingNames: [[(name: UnsafeRawPointer, count: Int32)]] = [[]]
    private var nameKinds: [UnsafeRawPointer: NameKind] = [:]
    private var lastKindName: UnsafeRawPointer?
    private var lastKind: NameKind = .ignored
    private var lastTagName: UnsafeRawPointer?
    private var lastTagRef: TextRef = .absent
    private var tagRefs: [UnsafeRawPointer: TextRef] = [:]
    private var attributeKeys = AttributeKeyCache()
    private var scratch: [UInt8] = []

    private var elements: [Element] = []
    private var roots: [Int] = []
    private var texts = TextTable()
    private var animations: [Animation] = []
    private var invalid: [InvalidValue] = []
    private var notes: [String] = []

    private var version: Int?
    private var sawVersion = false
    private var platform: Platform?
    private var app: String?
    private var build: String?
    private var screen: String?
    private var width: Double?
    private var height: Double?
    private var scale: Double?
    private var settings = Settings()
    private var rootLine = 1
    private var rootColumn = 1

    // Source position tracking (exact line and column of each start tag, UTF-8 input only).
    let tracksBytes: Bool
    private var lastTagStart = -1
    private var scanOffset = 0
    private var scanLine = 1
    private var lineStart = 0

    init(options: SnapshotParser.Options, source: UnsafeRawBufferPointer) {
        self.options = options
        self.source = source
        self.tracksBytes = SnapshotBuilder.isUTF8(source)
        elements.reserveCapacity(min(source.count / 120 + 16, options.maxElements))
        HugePages.advise(capacityOf: &elements)
        texts.reserve(source.count / 4)
    }

    // MARK: - SAX events

    func startElement(name: UnsafePointer<xmlChar>, attributeCount: Int,
                      attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        guard error == nil else { return }
        if open.count >= options.maxDepth {
            fail(.tooDeep, "elements are nested deeper than \(options.maxDepth) levels",
                 hint: "flatten the hierarchy; real screens stay far below this depth")
            return
        }
        let attributes = AttributeList(pointer: attributes, count: attributeCount)
        guard let dialect else {
            startRoot(name: name, attributes: attributes)
            return
        }
        switch kind(of: name, dialect: dialect) {
        case .element:
            startUIElement(name: name, attributes: attributes, dialect: dialect)
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
        fail(.doctypeForbidden, "document type declarations are not accepted (<!DOCTYPE \(rootName)>)",
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

    private func startRoot(name: UnsafePointer<xmlChar>, attributes: AttributeList) {
        let rootName = String(cString: name)
        (rootLine, rootColumn) = tagPosition()
        switch rootName {
        case "snapshot":
            dialect = .native
            readSnapshotAttributes(attributes)
            open.append(.root)
        case "AppiumAUT":
            dialect = .appiumXCUITest
            platform = .ios
            open.append(.root)
        case "hierarchy":
            dialect = .uiautomator
            platform = .android
            for attribute in attributes {
                let attributeName = String(cString: attribute.name)
                if attributeName == "width" { width = ValueScanner.number(attribute.value) }
                if attributeName == "height" { height = ValueScanner.number(attribute.value) }
            }
            open.append(.root)
        default:
            if rootName.hasPrefix("XCUIElementType") {
                // An Appium source cut below <AppiumAUT>: the application itself is the root.
                dialect = .appiumXCUITest
                platform = .ios
                startUIElement(name: name, attributes: attributes, dialect: .appiumXCUITest, position: (rootLine, rootColumn))
                open.append(.element)
            } else {
                fail(.unsupportedRoot, "unsupported root element <\(rootName)>",
                     hint: "expected <snapshot version=\"1\"> (native), <AppiumAUT> (Appium XCUITest) or <hierarchy> (Android uiautomator)",
                     at: (rootLine, rootColumn))
            }
        }
    }

    private func readSnapshotAttributes(_ attributes: AttributeList) {
        for attribute in attributes {
            // fail() stops libxml2, which frees its input: no attribute may be read after it
            // (found by the parser fuzz target: a use-after-free on the next attribute).
            guard error == nil else { return }
            let name = String(cString: attribute.name)
            let value = attribute.value
            switch name {
            case "version":
                sawVersion = true
                version = ValueScanner.number(value).flatMap { $0 == $0.rounded() ? Int(exactly: $0) : nil }
                if version != 1 {
                    fail(.unsupportedVersion, "snapshot version \"\(ValueScanner.string(value))\" is not supported",
                         hint: "this auditd reads version=\"1\"", at: (rootLine, rootColumn))
                    return
                }
            case "platform":
                let text = ValueScanner.string(value)
                if let known = Platform(rawValue: text.lowercased()) {
                    platform = known
                } else {
                    platform = .other
                    recordInvalid(element: nil, owner: "snapshot", name, value, expected: "ios, android, web or other", line: rootLine)
                }
            case "app": app = ValueScanner.string(value)
            case "build": build = ValueScanner.string(value)
            case "screen": screen = ValueScanner.string(value)
            case "width", "height", "scale":
                guard let number = ValueScanner.number(value), number > 0 else {
                    recordInvalid(element: nil, owner: "snapshot", name, value, expected: "a positive number", line: rootLine)
                    continue
                }
                if name == "width" { width = number } else if name == "height" { height = number } else { scale = number }
            default: break
            }
        }
        if !sawVersion, error == nil {
            fail(.missingVersion, "<snapshot> has no version attribute",
                 hint: "add version=\"1\" to the <snapshot> element", at: (rootLine, rootColumn))
        }
    }

    private func kind(of name: UnsafePointer<xmlChar>, dialect: Dialect) -> NameKind {
        let key = UnsafeRawPointer(name)
        // Most elements share one name: remember the last answer before hashing.
        if key == lastKindName { return lastKind }
        if let known = nameKinds[key] {
            lastKindName = key
            lastKind = known
            return known
        }
        let text = String(cString: name)
        let kind: NameKind = switch dialect {
        case .native:
            switch text {
            case "element": .element
            case "settings": .settings
            case "animation": .animation
            default: .ignored
            }
        case .appiumXCUITest: text.hasPrefix("XCUIElementType") ? .element : .ignored
        case .uiautomator: .element
        }
        nameKinds[key] = kind
        return kind
    }

    // MARK: - UI elements

    private func startUIElement(name: UnsafePointer<xmlChar>, attributes: AttributeList, dialect: Dialect,
                                position: (Int, Int)? = nil) {
        guard elements.count < options.maxElements else {
            fail(.tooManyElements, "the snapshot has more than \(options.maxElements) elements",
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

        switch dialect {
        case .native: decodeNative(attributes, into: &elements[Int(index)], index: Int(index))
        case .appiumXCUITest: decodeAppium(attributes, into: &elements[Int(index)], index: Int(index))
        case .uiautomator: decodeAndroid(attributes, into: &elements[Int(index)], index: Int(index), className: name)
        }
        elementStack.append(index)
        lastChildStack.append(-1)
        siblingNames.append([])
    }

    private func nextPosition(for name: UnsafeRawPointer) -> Int32 {
        let level = siblingNames.count - 1
        for slot in siblingNames[level].indices where siblingNames[level][slot].name == name {
            siblingNames[level][slot].count += 1
            return siblingNames[level][slot].count
        }
        siblingNames[level].append((name, 1))
        return 1
    }

    private func tagRef(_ name: UnsafePointer<xmlChar>) -> TextRef {
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

    private func attributeKey(_ attribute: Attribute, dialect: Dialect) -> AttributeKey {
        let pointer = UnsafeRawPointer(attribute.name)
        if let key = attributeKeys.lookup(pointer) { return key }
        let name = String(cString: attribute.name)
        let key: AttributeKey = switch dialect {
        case .native: .native(name)
        case .appiumXCUITest: .appium(name)
        case .uiautomator: .android(name)
        }
        attributeKeys.insert(pointer, key)
        return key
    }

    // MARK: Native

    private func decodeNative(_ attributes: AttributeList, into element: inout Element, index: Int) {
        for attribute in attributes {
            let key = attributeKey(attribute, dialect: .native)
            if key == .unknown { continue }
            withValue(attribute) { value in
                let read = ValueReader(builder: self, value: value, element: index, owner: "element",
                                       name: attribute.name, line: Int(element.line))
                func invalid(_ expected: String) { read.invalid(expected) }
                func flag() -> Bool? { read.flag() }
                func colour() -> RGBA? { read.colour() }
                func frame() -> Rect? { read.frame() }
                switch key {
                case .id: element.id = texts.append(value)
                case .role:
                    element.typeName = texts.append(value)
                    element.role = ByteNames.role(value) ?? .other
                case .label: element.label = texts.append(value)
                case .value: element.value = texts.append(value)
                case .hint: element.hint = texts.append(value)
                case .text: element.text = texts.append(value)
                case .placeholder: element.placeholder = texts.append(value)
                case .image: element.image = texts.append(value)
                case .a11yIgnore: element.ignoredRules = texts.append(value)
                case .traits: element.traits = Traits.parse(ValueScanner.string(value))
                case .accessible: element.accessible = flag()
                case .hidden: element.hidden = flag()
                case .visible: element.visible = flag()
                case .enabled: element.enabled = flag()
                case .interactive: element.interactive = flag()
                case .scalesWithContentSize: element.scalesWithContentSize = flag()
                case .truncated: element.truncated = flag()
                case .underline: element.underline = flag()
                case .largeContentViewer: element.largeContentViewer = flag()
                case .drawsContent: element.drawsContent = flag()
                case .modal: element.modal = flag()
                case .supportsEscape: element.supportsEscape = flag()
                case .mainAction: element.mainAction = flag()
                case .magicTap: element.magicTap = flag()
                case .frame: element.frame = frame()
                case .hitFrame: element.hitFrame = frame()
                case .foreground: element.foreground = colour()
                case .background: element.background = colour()
                case .border: element.border = colour()
                case .opacity:
                    if let number = ValueScanner.number(value), (0...1).contains(number) {
                        element.opacity = number
                    } else {
                        invalid("a number from 0 to 1")
                    }
                case .fontSize:
                    if let number = ValueScanner.number(value), number > 0, number < 10_000 {
                        element.fontSize = number
                    } else {
                        invalid("a positive number of points")
                    }
                case .fontWeight:
                    if let weight = ByteNames.fontWeight(value) ?? FontWeightName.weight(of: ValueScanner.string(value)) {
                        element.fontWeight = Int16(weight)
                    } else {
                        invalid("100…900 or ultralight, thin, light, regular, medium, semibold, bold, heavy, black")
                    }
                case .textStyle:
                    if let style = ByteNames.textStyle(value) {
                        element.textStyle = style
                    } else {
                        invalid("one of " + TextStyle.allCases.map(\.rawValue).joined(separator: ", "))
                    }
                default: break
                }
            }
        }
    }

    // MARK: Appium XCUITest

    private func decodeAppium(_ attributes: AttributeList, into element: inout Element, index: Int) {
        var x: Double?, y: Double?, width: Double?, height: Double?
        var name: TextRef = .absent
        var bundleId: String?
        for attribute in attributes {
            let key = attributeKey(attribute, dialect: .appiumXCUITest)
            if key == .unknown { continue }
            withValue(attribute) { value in
                let read = ValueReader(builder: self, value: value, element: index, owner: "element",
                                       name: attribute.name, line: Int(element.line))
                func invalid(_ expected: String) { read.invalid(expected) }
                func flag() -> Bool? { read.flag() }
                func coordinate() -> Double? {
                    let result = ValueScanner.number(value)
                    if result == nil { invalid("a number of points") }
                    return result
                }
                switch key {
                case .type:
                    element.typeName = texts.append(value)
                    element.role = DialectRoles.appiumRole(type: ValueScanner.string(value))
                case .name: name = texts.append(value)
                case .label: element.label = texts.append(value)
                case .value: element.value = texts.append(value)
                case .placeholderValue: element.placeholder = texts.append(value)
                case .enabled: element.enabled = flag()
                case .visible: element.visible = flag()
                case .accessible: element.accessible = flag()
                case .selected: if flag() == true { element.traits.insert(.selected) }
                case .traits: element.traits.formUnion(Traits.parse(ValueScanner.string(value)))
                case .x: x = coordinate()
                case .y: y = coordinate()
                case .width: width = coordinate()
                case .height: height = coordinate()
                case .bundleId: bundleId = ValueScanner.string(value)
                default: break
                }
            }
        }
        if element.typeName.isAbsent {
            element.typeName = element.tagName
            element.role = DialectRoles.appiumRole(type: texts.string(element.tagName) ?? "")
        }
        // WebDriverAgent's `name` is the accessibilityIdentifier, or the label when there is none.
        if !name.isAbsent, texts.string(name) != texts.string(element.label) {
            element.id = name
        }
        if element.role == .text, texts.isBlank(element.text) {
            element.text = texts.isBlank(element.value) ? element.label : element.value
        }
        if let x, let y, let width, let height {
            // Off-screen and collapsed elements come with negative sizes: read them as empty.
            element.frame = Rect(x: x, y: y, width: max(0, width), height: max(0, height))
        }
        if element.traits.contains(.notEnabled) { element.enabled = false }
        if element.role == .window, texts.string(element.typeName) == "XCUIElementTypeApplication" {
            if app == nil { app = bundleId ?? texts.string(element.label) }
            if self.width == nil, let frame = element.frame, frame.width > 0 {
                self.width = frame.width
                self.height = frame.height
            }
        }
    }

    // MARK: Android uiautomator

    private func decodeAndroid(_ attributes: AttributeList, into element: inout Element, index: Int,
                               className tag: UnsafePointer<xmlChar>) {
        var clickable = false, longClickable = false, checkable = false, focusable = false
        var displayed: Bool?, visibleToUser: Bool?
        var stated: Bool?
        var className: TextRef = .absent
        for attribute in attributes {
            let key = attributeKey(attribute, dialect: .uiautomator)
            if key == .unknown { continue }
            withValue(attribute) { value in
                let read = ValueReader(builder: self, value: value, element: index, owner: "node",
                                       name: attribute.name, line: Int(element.line))
                func invalid(_ expected: String) { read.invalid(expected) }
                func flag() -> Bool? { read.flag() }
                switch key {
                case .className: className = texts.append(value)
                case .text: if !value.isEmpty { element.text = texts.append(value) }
                case .contentDesc: if !value.isEmpty { element.label = texts.append(value) }
                case .resourceId: if !value.isEmpty { element.id = texts.append(value) }
                case .hint: if !value.isEmpty { element.placeholder = texts.append(value) }
                case .tooltipText: if !value.isEmpty { element.hint = texts.append(value) }
                case .clickable: clickable = flag() ?? false
                case .longClickable: longClickable = flag() ?? false
                case .checkable: checkable = flag() ?? false
                case .focusable: focusable = flag() ?? false
                case .checked: element.checked = flag()
                case .enabled: element.enabled = flag()
                case .selected: if flag() == true { element.traits.insert(.selected) }
                case .heading: if flag() == true { element.traits.insert(.header) }
                case .displayed: displayed = flag()
                case .visibleToUser: visibleToUser = flag()
                case .screenReaderFocusable: if flag() == true { stated = true }
                case .importantForAccessibility:
                    if let important = ValueScanner.boolean(value) { stated = important }
                case .notAccessibilityFriendly: element.notAccessibilityFriendly = flag()
                case .bounds:
                    if let frame = ValueScanner.androidBounds(value) {
                        element.frame = frame
                    } else {
                        invalid("[x1,y1][x2,y2] in pixels")
                    }
                case .packageName: if app == nil, !value.isEmpty { app = ValueScanner.string(value) }
                default: break
                }
            }
        }
        if className.isAbsent { className = element.tagName }
        element.typeName = className
        element.role = DialectRoles.androidRole(className: texts.string(className) ?? "")
        if element.role == .text, checkable { element.role = .checkbox }
        let interactive = clickable || longClickable
        element.interactive = interactive
        if displayed == false || visibleToUser == false { element.visible = false }
        // TalkBack focuses what is actionable or says something; the rest is decoration.
        element.accessible = stated ?? (interactive || focusable || checkable
                                        || !texts.isBlank(element.text) || !texts.isBlank(element.label))
    }

    // MARK: Settings and animations

    private func readSettings(_ attributes: AttributeList) {
        let line = tagPosition().line
        for attribute in attributes {
            let name = String(cString: attribute.name)
            withValue(attribute) { value in
                let read = ValueReader(builder: self, value: value, element: nil, owner: "settings", name: attribute.name, line: line)
                func flag() -> Bool? { read.flag() }
                switch name {
                case "reduce-motion": settings.reduceMotion = flag()
                case "differentiate-without-color": settings.differentiateWithoutColor = flag()
                case "increase-contrast": settings.increaseContrast = flag()
                case "reduce-transparency": settings.reduceTransparency = flag()
                case "content-size":
                    settings.contentSize = ContentSize(rawValue: ValueScanner.string(value).lowercased())
                    if settings.contentSize == nil {
                        recordInvalid(element: nil, owner: "settings", name, value,
                                      expected: "one of " + ContentSize.allCases.map(\.rawValue).joined(separator: " "), line: line)
                    }
                case "color-scheme":
                    settings.colorScheme = ColorScheme(rawValue: ValueScanner.string(value).lowercased())
                    if settings.colorScheme == nil {
                        recordInvalid(element: nil, owner: "settings", name, value, expected: "light or dark", line: line)
                    }
                default: break
                }
            }
        }
    }

    private func readAnimation(_ attributes: AttributeList) {
        guard let owner = elementStack.last else { return }
        let line = tagPosition().line
        var animation = Animation(kind: .other, kindName: "other", element: Int(owner), line: line)
        for attribute in attributes {
            let name = String(cString: attribute.name)
            withValue(attribute) { value in
                let read = ValueReader(builder: self, value: value, element: Int(owner), owner: "animation",
                                       name: attribute.name, line: line)
                func invalid(_ expected: String) { read.invalid(expected) }
                func flag() -> Bool? { read.flag() }
                switch name {
                case "kind":
                    animation.kindName = ValueScanner.string(value)
                    animation.kind = Animation.Kind(rawValue: animation.kindName) ?? .other
                case "duration":
                    if let seconds = ValueScanner.number(value), seconds >= 0 { animation.duration = seconds } else { invalid("a duration in seconds, not negative") }
                case "repeat":
                    if ValueScanner.equals(value, "forever") || ValueScanner.equals(value, "infinite") {
                        animation.repeatCount = .forever
                    } else if let count = ValueScanner.number(value), count >= 0 {
                        animation.repeatCount = .count(count)
                    } else {
                        invalid("a count or forever")
                    }
                case "autoplay": animation.autoplay = flag()
                case "honors-reduce-motion": animation.honorsReduceMotion = flag()
                case "pausable": animation.pausable = flag()
                case "distance":
                    if let points = ValueScanner.number(value) { animation.distance = points } else { invalid("a number of points") }
                default: break
                }
            }
        }
        animations.append(animation)
    }

    // MARK: - Finishing

    func finish() throws(SnapshotError) -> Snapshot {
        if let error { throw error }
        guard let dialect else {
            throw SnapshotError(code: .empty, message: "the snapshot has no root element", line: 1, column: 1,
                                hint: "send an XML document whose root is <snapshot version=\"1\">")
        }
        if dialect == .uiautomator { convertPixelsToPoints() }
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
        DerivedFacts.compute(&elements, dialect: dialect)
        return Snapshot(version: version ?? 1, dialect: dialect, platform: platform ?? .other, app: app, build: build,
                        screen: screen, width: width, height: height, scale: scale, settings: settings,
                        elements: elements, animations: animations, invalidValues: invalid, texts: texts,
                        roots: roots, notes: notes)
    }

    /// Android bounds are pixels; rules think in dp (points). Divide by the density given
    /// by the caller, else one estimated from the screen width (docs/dialects.md).
    private func convertPixelsToPoints() {
        let rootWidth = width ?? roots.compactMap { elements[$0].frame?.width }.max()
        let rootHeight = height ?? roots.compactMap { elements[$0].frame?.height }.max()
        let density: Double
        if let given = options.androidDensity, given > 0 {
            density = given
            notes.append("Android density \(given.formattedForReport) given by the caller")
        } else if let rootWidth, rootWidth > 0 {
            density = AndroidDensity.estimate(widthPixels: rootWidth, heightPixels: rootHeight ?? rootWidth)
            notes.append("Android density \(density.formattedForReport) estimated from the screen's \(rootWidth.formattedForReport) px width")
        } else {
            density = 1
            notes.append("Android density unknown; pixels read as dp")
        }
        for index in elements.indices {
            guard let frame = elements[index].frame else { continue }
            elements[index].frame = Rect(x: frame.x / density, y: frame.y / density,
                                         width: frame.width / density, height: frame.height / density)
        }
        scale = density
        width = rootWidth.map { $0 / density }
        height = rootHeight.map { $0 / density }
    }

    // MARK: - Helpers

    fileprivate func recordInvalid(element: Int?, owner: String, _ attribute: String, _ value: Bytes, expected: String, line: Int) {
        invalid.append(InvalidValue(element: element, owner: owner, attribute: attribute,
                                    value: ValueScanner.string(value), expected: expected, line: line))
    }

    /// Hands the attribute's value to `body`, with `&#38;` (how libxml2 passes a literal
    /// `&` when entities are not substituted) turned back into `&`.
    private func withValue(_ attribute: Attribute, _ body: (Bytes) -> Void) {
        let value = attribute.value
        guard let start = value.baseAddress, memchr(start, Int32(UInt8(ascii: "&")), value.count) != nil else { return body(value) }
        scratch.removeAll(keepingCapacity: true)
        var index = 0
        while index < value.count {
            if value[index] == UInt8(ascii: "&"), index + 4 < value.count,
               value[index + 1] == UInt8(ascii: "#"), value[index + 2] == UInt8(ascii: "3"),
               value[index + 3] == UInt8(ascii: "8"), value[index + 4] == UInt8(ascii: ";") {
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
    private func tagPosition() -> (line: Int, column: Int) {
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
        return (scanLine, start - lineStart + 1)
    }

    /// libxml2's own idea of the current position (end of the current token).
    private func currentPosition() -> (line: Int, column: Int) {
        (cursor.line, cursor.column)
    }

    /// True when byte offsets are character offsets: UTF-8 (or ASCII) without a BOM
    /// other than UTF-8's.
    private static func isUTF8(_ source: UnsafeRawBufferPointer) -> Bool {
        if source.count >= 2 {
            let (first, second) = (source[0], source[1])
            if (first == 0xFE && second == 0xFF) || (first == 0xFF && second == 0xFE) || first == 0 || second == 0 { return false }
        }
        let head = source.prefix(256)
        guard let declarationEnd = head.firstIndex(of: UInt8(ascii: ">")),
              head.starts(with: Array("<?xml".utf8)) || head.starts(with: [0xEF, 0xBB, 0xBF] + Array("<?xml".utf8)) else { return true }
        let declaration = String(decoding: head[..<declarationEnd], as: UTF8.self).lowercased()
        guard let range = declaration.range(of: "encoding") else { return true }
        let rest = declaration[range.upperBound...].drop(while: { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" })
        let encoding = rest.prefix(while: { $0 != "\"" && $0 != "'" && $0 != " " })
        return ["utf-8", "utf8", "us-ascii", "ascii"].contains(String(encoding))
    }
}

/// Where libxml2 stood when it reported an event: bytes of the document consumed (for
/// the exact position of a start tag) and its own line and column (the fallback).
struct ParseCursor {
    var consumed = 0
    var line = 0
    var column = 0

    /// The position of `context` now; `consumed` only when `withConsumed` (computing it
    /// walks the input for encodings other than UTF-8, where it is not used).
    init(_ context: xmlParserCtxtPtr, withConsumed: Bool) {
        if withConsumed { consumed = Int(xmlByteConsumed(context)) }
        if let input = context.pointee.input {
            line = Int(input.pointee.line)
            column = Int(input.pointee.col)
        }
    }

    init(consumed: Int = 0, line: Int = 0, column: Int = 0) {
        self.consumed = consumed
        self.line = line
        self.column = column
    }
}

/// One attribute of a SAX2 start tag: its local name and its value bytes (not
/// NUL-terminated).
struct Attribute {
    let name: UnsafePointer<xmlChar>
    let value: UnsafeBufferPointer<UInt8>
}

/// The attribute array of a SAX2 start tag (five pointers per attribute: local name,
/// prefix, namespace URI, value start, value end).
struct AttributeList: Sequence {
    let pointer: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let count: Int

    struct Iterator: IteratorProtocol {
        let pointer: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
        let count: Int
        var index = 0

        mutating func next() -> Attribute? {
            guard let pointer else { return nil }
            while index < count {
                let base = pointer + index * 5
                index += 1
                if let name = base[0], let start = base[3], let end = base[4], end >= start {
                    return Attribute(name: name, value: UnsafeBufferPointer(start: start, count: end - start))
                }
            }
            return nil
        }
    }

    func makeIterator() -> Iterator { Iterator(pointer: pointer, count: count) }
}

/// Attribute-name pointer → key, for one document. libxml2 interns names in its
/// dictionary, so each distinct name has one address; a small open-addressing table
/// beats hashing with `Hasher` on this hot path.
struct AttributeKeyCache {
    private var slots = [(UnsafeRawPointer?, AttributeKey)](repeating: (nil, .unknown), count: 512)
    private var count = 0

    func lookup(_ pointer: UnsafeRawPointer) -> AttributeKey? {
        var slot = Self.slot(pointer)
        while let stored = slots[slot].0 {
            if stored == pointer { return slots[slot].1 }
            slot = (slot + 1) & 511
        }
        return nil
    }

    mutating func insert(_ pointer: UnsafeRawPointer, _ key: AttributeKey) {
        // A document with hundreds of distinct attribute names is not worth caching further.
        guard count < 384 else { return }
        var slot = Self.slot(pointer)
        while slots[slot].0 != nil { slot = (slot + 1) & 511 }
        slots[slot] = (pointer, key)
        count += 1
    }

    private static func slot(_ pointer: UnsafeRawPointer) -> Int {
        let bits = UInt(bitPattern: pointer)
        return Int(truncatingIfNeeded: (bits >> 3) ^ (bits >> 12)) & 511
    }
}

/// Reads one attribute value of one element; a value that cannot be read is recorded as an
/// ``InvalidValue`` naming the attribute and what was expected, and `nil` is returned.
private struct ValueReader {
    /// Unowned: a reader lives only inside one `withValue` call of its builder, and a
    /// retain per attribute would show in parse time.
    unowned(unsafe) let builder: SnapshotBuilder
    let value: UnsafeBufferPointer<UInt8>
    let element: Int?
    let owner: String
    let name: UnsafePointer<xmlChar>
    let line: Int

    func invalid(_ expected: String) {
        builder.recordInvalid(element: element, owner: owner, String(cString: name), value, expected: expected, line: line)
    }

    func flag() -> Bool? {
        let result = ValueScanner.boolean(value)
        if result == nil { invalid("true or false") }
        return result
    }

    func colour() -> RGBA? {
        let result = RGBA(hex: value)
        if result == nil { invalid("a colour #RGB, #RRGGBB or #RRGGBBAA") }
        return result
    }

    func frame() -> Rect? {
        let result = ValueScanner.frame(value)
        if result == nil { invalid("x,y,width,height in points (numbers; width and height not negative)") }
        return result
    }
}
