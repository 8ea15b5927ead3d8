/// Android `uiautomator` dumps and Appium UiAutomator2 sources (docs/dialects.md): `class`,
/// `text`, `content-desc`, `resource-id`, `bounds` in pixels, the booleans, onto the model.
enum UiautomatorDialect: SnapshotDialect {
    static let dialect = Dialect.uiautomator
    static let title = "Android uiautomator"
    static let rootExample = "<hierarchy>"
    static let capabilities: SnapshotCapabilities = [.platformTypeNames, .namesFromContent, .visibleFrames]
    static let pathRoot: StaticString = "/hierarchy"
    static let inheritsEnabled = false

    /// Packages whose windows are the system's, not the app's: the status and navigation
    /// bars, and input methods (keyboards) of every maker.
    static func isSystemPackage(_ package: String) -> Bool {
        systemPackages.contains(package) || package.contains("inputmethod") || package.contains("keyboard")
            || package.contains("honeyboard") || package.contains("swiftkey") || package.hasSuffix(".ime")
    }

    /// The system's own windows that open over apps: the status bar, Play services' sheets
    /// (sign-in, saved passwords), the photo picker, telephony and permission dialogs.
    static let systemPackages: Set<String> = [
        "com.android.systemui", "com.google.android.gms", "com.google.android.providers.media.module",
        "com.android.providers.media", "com.android.phone", "com.android.permissioncontroller",
        "com.google.android.permissioncontroller", "com.android.packageinstaller", "com.google.android.packageinstaller",
    ]

    /// The system bars' backgrounds, which the app's window lists among its own nodes.
    static let systemBarIDs: Set<String> = ["android:id/statusBarBackground", "android:id/navigationBarBackground"]

    static func root(named name: String) -> DialectRoot? { name == "hierarchy" ? .container(.android) : nil }

    /// What an Android dump's reading keeps beside the elements.
    final class DocumentState: DialectState {
        /// The app packages seen (not the system's), how many nodes each has, and each
        /// node's: the app is the package of the most nodes.
        var packages = PackageTally()
        /// Each package's number in the tally, -1 for the system's, by its bytes.
        var packageNumbers = ByteKeyedMemo<Int32>()
        /// What each class name says of its node, by its bytes.
        var classes = ByteKeyedMemo<UiautomatorClassFacts>()
        /// The capture's `rotation` (0 is the screen's natural orientation).
        var rotation: Int?
    }

    static func makeState() -> (any DialectState)? { DocumentState() }

    static func readRoot(_ attributes: AttributeList, builder: SnapshotBuilder) {
        for attribute in attributes {
            let attributeName = String(cString: attribute.name)
            if attributeName == "width" { builder.width = ValueScanner.number(attribute.value) }
            if attributeName == "height" { builder.height = ValueScanner.number(attribute.value) }
            if attributeName == "rotation", let rotation = ValueScanner.number(attribute.value), rotation == rotation.rounded(), abs(rotation) < 8 {
                builder.dialectState(as: DocumentState.self)?.rotation = Int(rotation)
            }
        }
    }

    /// A `<hierarchy>` whose first node has an XCUITest `type` and no Android `class` is an
    /// iOS source in this shape (older Appium inspectors and tools wrote them so): read it as
    /// one (``AppiumXCUITestNodesDialect``).
    static func refinedDialect(firstElement attributes: AttributeList) -> (dialect: any SnapshotDialect.Type, platform: Platform)? {
        var xcuiType = false
        for attribute in attributes {
            // Asked of one element per document: a String is cheap enough.
            let name = String(cString: attribute.name)
            if name == "class" { return nil }
            if name == "type", attribute.value.starts(with: "XCUIElementType".utf8) { xcuiType = true }
        }
        return xcuiType ? (AppiumXCUITestNodesDialect.self, .ios) : nil
    }

    /// Every element below `<hierarchy>` is a node, whatever its name (`<node>`, or the
    /// class name in UiAutomator2 sources).
    static func kind(ofElementNamed name: String) -> SnapshotBuilder.NameKind { .element }

    /// The attributes this dialect reads, each mapped from its names below.
    enum Key: UInt8, DialectAttributeKey {
        case unknown
        case className, text, contentDesc, resourceId, clickable, longClickable, checkable, checked
        case enabled, selected, bounds, displayed, visibleToUser, heading, screenReaderFocusable, importantForAccessibility
        case notAccessibilityFriendly, focusable, packageName, hint, tooltipText, password, scrollable, drawingOrder
        case showingHint
    }

    static func attributeKey(named name: String) -> Key {
        switch name {
        case "class": .className
        case "text": .text
        case "content-desc": .contentDesc
        case "resource-id": .resourceId
        case "clickable": .clickable
        case "long-clickable": .longClickable
        case "checkable": .checkable
        case "checked": .checked
        case "enabled": .enabled
        case "selected": .selected
        case "bounds": .bounds
        case "displayed": .displayed
        case "visible-to-user": .visibleToUser
        case "heading": .heading
        case "screen-reader-focusable": .screenReaderFocusable
        case "a11y-important", "important-for-accessibility": .importantForAccessibility
        case "NAF": .notAccessibilityFriendly
        case "focusable": .focusable
        case "package": .packageName
        case "hint": .hint
        case "tooltip-text": .tooltipText
        case "password": .password
        case "scrollable": .scrollable
        case "drawing-order": .drawingOrder
        case "showing-hint": .showingHint
        default: .unknown
        }
    }

    /// Whether a resource id is Material's bottom-sheet scrim, `<package>:id/touch_outside`.
    static func isMaterialScrim(resourceID: ArraySlice<UInt8>) -> Bool {
        resourceID.count > materialScrimSuffix.count && resourceID.suffix(materialScrimSuffix.count).elementsEqual(materialScrimSuffix)
    }

    private static let materialScrimSuffix = Array(":id/touch_outside".utf8)

    /// The directions a `scrollable` node scrolls in, from its class: pagers and horizontal
    /// scroll views across, scroll and list views down, anything else (a RecyclerView, a
    /// grid, a custom view) either way until its children's layout narrows it
    /// (``SnapshotBuilder/narrowScrollAxesFromLayout()``).
    static func scrollAxes(className: String) -> ScrollAxes {
        if className.hasSuffix("ViewPager") || className.hasSuffix("ViewPager2") || className.hasSuffix("HorizontalScrollView") { return .horizontal }
        if className.hasSuffix("ScrollView") || className.hasSuffix("ListView") { return .vertical }
        return .both
    }

    static func decode(
        _ attributes: AttributeList, into element: inout Element, index: Int,
        tag: UnsafePointer<UInt8>, builder: SnapshotBuilder
    ) {
        builder.decodeAndroid(attributes, into: &element, index: index, className: tag)
    }

    static func finish(_ builder: SnapshotBuilder) {
        builder.markCollectionItems()
        builder.narrowScrollAxesFromLayout()
        builder.convertPixelsToPoints()
        builder.assignAppPackage()
    }

    static func documentLength(_ bytes: UnsafeRawBufferPointer) -> (length: Int, note: String)? {
        guard let length = UiautomatorTrailer.documentLength(bytes) else { return nil }
        return (length, "ignored the status line uiautomator writes after the document (\(bytes.count - length) bytes: \"UI hierchary dumped to: …\")")
    }

    /// How Android widget classes map onto ``Role`` (also in docs/dialects.md).
    /// Android simple class name → role, tried in order against the end of the class name.
    static let android: [(suffix: String, role: Role)] = [
        ("RadioButton", .radio), ("CheckBox", .checkbox), ("CheckedTextView", .checkbox),
        ("Switch", .switch), ("SwitchCompat", .switch), ("SwitchMaterial", .switch), ("ToggleButton", .switch),
        ("ImageButton", .button), ("FloatingActionButton", .button), ("Button", .button), ("Chip", .button),
        ("EditText", .textfield), ("AutoCompleteTextView", .textfield), ("SearchView", .textfield),
        ("TextView", .text),
        ("ImageView", .image), ("ImageSwitcher", .image),
        ("SeekBar", .slider), ("RatingBar", .slider), ("Slider", .slider),
        ("NumberPicker", .stepper),
        ("ProgressBar", .progress),
        ("$Tab", .tab), ("TabView", .tab),
        ("Spinner", .button),
        ("View", .other),
    ]

    static func androidRole(className: String) -> Role {
        for entry in android where className.hasSuffix(entry.suffix) {
            // "…View" alone is a plain view; layouts, lists and pagers are containers.
            if entry.suffix == "View", className.hasSuffix(".View") == false, className != "View" { break }
            return entry.role
        }
        return .container
    }
}

extension Dialect {
    /// Android `uiautomator dump` and Appium UiAutomator2 page source (`<hierarchy>`).
    public static let uiautomator = Dialect(rawValue: "uiautomator")
}

extension SnapshotBuilder {
    /// Android bounds are pixels; rules think in dp (points). Divide by the density given
    /// by the caller, else one estimated from the screen width (docs/dialects.md).
    func convertPixelsToPoints() {
        let rootWidth = width ?? roots.compactMap { elements[$0].frame?.width }.max()
        let rootHeight = height ?? roots.compactMap { elements[$0].frame?.height }.max()
        let density: Double
        if let given = options.androidDensity, given > 0 {
            density = given
            notes.append("Android density \(given.formattedForReport) given by the caller")
            scaleBasis = "given by the caller"
        } else if let rootWidth, rootWidth > 0 {
            let rootFrame = roots.compactMap { elements[$0].frame }.first
            let estimate = AndroidDensity.estimated(
                widthPixels: rootWidth, heightPixels: rootHeight ?? rootWidth,
                naturalLandscape: dialectState(as: UiautomatorDialect.DocumentState.self)?.rotation == 0,
                atOrigin: rootFrame.map { $0.minX == 0 && $0.minY == 0 } ?? false)
            let kind =
                switch estimate.shape {
                case .tablet: "a tablet (aspect \(((estimate.aspect * 100).rounded() / 100).formattedForReport):1), aiming at \(Int(AndroidDensity.typicalTabletWidth)) dp"
                case .tv: "a TV (landscape in its natural orientation), aiming at \(Int(AndroidDensity.typicalTVHeight)) dp high"
                case .watch: "a watch (a small square or round screen), aiming at \(Int(AndroidDensity.typicalWatchSide)) dp"
                case .phone: "a phone, aiming at \(Int(AndroidDensity.typicalWidth)) dp"
                }
            // The layout's own standard components (status bar, toolbar, floating action
            // button, navigation bar) outvote the screen's shape when they agree.
            var cues: [AndroidLayoutCues.Cue] = []
            for element in elements {
                guard let frame = element.frame, frame.width > 0, frame.height > 0,
                    texts.withBytes(element.typeName, { type in texts.withBytes(element.id) { AndroidLayoutCues.mayBeCue(className: type, resourceID: $0) } }),
                    let cue = AndroidLayoutCues.cue(
                        className: texts.string(element.typeName) ?? "", resourceID: texts.string(element.id) ?? "",
                        width: frame.width, height: frame.height)
                else { continue }
                cues.append(cue)
                if cues.count >= 64 { break }
            }
            if let decided = AndroidLayoutCues.density(from: cues, current: estimate.density) {
                density = decided.density
                let basis = decided.basis.prefix(4).map { "a \($0.pixels.formattedForReport)-px \($0.name)" }.joined(separator: ", ")
                scaleBasis = "the layout's standard components: \(basis)"
                notes.append(
                    "Android density \(density.formattedForReport) from the layout's standard components: \(basis) (the screen's \(estimate.shortSide.formattedForReport) px short side alone would say \(estimate.density.formattedForReport)); give ?density= (auditctl audit --android-density) if it is another"
                )
            } else {
                density = estimate.density
                scaleBasis = "the screen's \(estimate.shortSide.formattedForReport)-px short side (a \(estimate.shape == .tv ? "TV" : estimate.shape.rawValue))"
                notes.append(
                    "Android density \(density.formattedForReport) estimated from the screen's \(estimate.shortSide.formattedForReport) px short side (\(kind)): \((estimate.shortSide / density).rounded().formattedForReport) dp; give ?density= (auditctl audit --android-density) if it is another"
                )
            }
        } else {
            density = 1
            notes.append("Android density unknown; pixels read as dp")
        }
        for index in elements.indices {
            guard let frame = elements[index].frame else { continue }
            elements[index].frame = Rect(
                x: frame.x / density, y: frame.y / density,
                width: frame.width / density, height: frame.height / density)
        }
        scale = density
        width = rootWidth.map { $0 / density }
        height = rootHeight.map { $0 / density }
    }

    /// The layouts a list or grid holds (`RecyclerView`, `ListView`, `GridView` and their
    /// subclasses) are its items: cells, which TalkBack announces with their place in the
    /// list, not plain layouts. Whether or not the capture says the list scrolls.
    func markCollectionItems() {
        let collections = ["RecyclerView", "ListView", "GridView"]
        for index in elements.indices where elements[index].role == .container {
            let parent = Int(elements[index].parent)
            guard parent >= 0, let type = texts.string(elements[parent].typeName),
                collections.contains(where: { type.hasSuffix($0) })
            else { continue }
            elements[index].role = .cell
        }
    }

    /// The app is the package of most nodes; the nodes of other packages (another app's
    /// floating window over it) are not the app's, like the system's.
    func assignAppPackage() {
        guard let packages = dialectState(as: UiautomatorDialect.DocumentState.self)?.packages, let package = packages.app else { return }
        if app == nil { app = package }
        let others = packages.elements(notOf: package)
        for index in others { elements[index].systemUI = true }
        if !others.isEmpty {
            let names = packages.names.filter { $0 != package }.prefix(3).joined(separator: ", ")
            notes.append("\(others.count) nodes of \(names) (another app's window) are not \(package)'s: left out of its targets")
        }
    }

    func decodeAndroid(
        _ attributes: AttributeList, into element: inout Element, index: Int,
        className tag: UnsafePointer<UInt8>
    ) {
        var clickable = false, longClickable = false, checkable = false, focusable = false
        var displayed: Bool?, visibleToUser: Bool?
        var stated: Bool?
        var screenReaderFocusable = false
        var showingHint = false, scrollable = false
        var className: TextRef = .absent
        forEachKnownAttribute(attributes, of: UiautomatorDialect.self, element: index, owner: "node", line: Int(element.line)) { key, read in
            let value = read.value
            switch key {
            case .className: className = texts.append(value)
            case .text: if !value.isEmpty { element.text = texts.append(value) }
            case .contentDesc: if !value.isEmpty { element.label = texts.append(value) }
            case .resourceId: if !value.isEmpty { element.id = texts.append(value) }
            case .hint: if !value.isEmpty { element.placeholder = texts.append(value) }
            case .tooltipText: if !value.isEmpty { element.hint = texts.append(value) }
            case .clickable: clickable = read.flag() ?? false
            case .longClickable: longClickable = read.flag() ?? false
            case .checkable: checkable = read.flag() ?? false
            case .focusable: focusable = read.flag() ?? false
            case .checked: element.checked = read.flag()
            case .enabled: element.enabled = read.flag()
            case .selected: if read.flag() == true { element.traits.insert(.selected) }
            case .heading:
                learned.insert(.headings)
                if read.flag() == true { element.traits.insert(.header) }
            case .displayed: displayed = read.flag()
            case .visibleToUser: visibleToUser = read.flag()
            // `setScreenReaderFocusable`: TalkBack focuses it as one stop, like a focusable view.
            case .screenReaderFocusable: screenReaderFocusable = read.flag() == true
            case .importantForAccessibility:
                if let important = ValueScanner.boolean(value) { stated = important }
            case .notAccessibilityFriendly: element.notAccessibilityFriendly = read.flag()
            case .scrollable: scrollable = read.flag() ?? false
            case .drawingOrder:
                if let order = ValueScanner.number(value), order >= 0, order < 1_000_000, order == order.rounded() {
                    element.drawingOrder = Int32(order)
                } else {
                    read.invalid("a whole number")
                }
            case .showingHint: showingHint = read.flag() ?? false
            case .bounds:
                if let frame = ValueScanner.androidBounds(value) {
                    element.frame = frame
                } else {
                    read.invalid("[x1,y1][x2,y2] in pixels")
                }
            case .packageName:
                // An empty package is nobody's (and not the system's).
                guard !value.isEmpty, let state = dialectState(as: UiautomatorDialect.DocumentState.self) else { break }
                let number = state.packageNumbers.value(for: value) { bytes in
                    let package = ValueScanner.string(bytes)
                    return UiautomatorDialect.isSystemPackage(package) ? -1 : state.packages.number(of: package)
                }
                if number < 0 {
                    element.systemUI = true
                } else {
                    state.packages.record(number, element: index)
                }
            default: break
            }
        }
        // Only an `android:id/…` can be one of the system bars' ids.
        if texts.hasPrefix(element.id, "android:id/"), let id = texts.string(element.id), UiautomatorDialect.systemBarIDs.contains(id) {
            element.systemUI = true
        }
        // A field showing its hint has no text of its own: what `text` says is the hint.
        if showingHint, !element.text.isAbsent {
            if element.placeholder.isAbsent { element.placeholder = element.text }
            element.text = .absent
        }
        // UiAutomator2 names each element by its class; plain uiautomator's `<node>` without a
        // `class` says nothing of what it is.
        if className.isAbsent, texts.string(element.tagName) != "node" { className = element.tagName }
        element.typeName = className
        // Read from the class name's bytes: the same few dozen classes on every node.
        let facts = texts.bytes.withUnsafeBufferPointer { table in
            let start = className.isAbsent ? 0 : Int(className.offset)
            let name = UnsafeBufferPointer(rebasing: table[start..<start + Int(className.count)])
            let read = { (name: UnsafeBufferPointer<UInt8>) in UiautomatorClassFacts(className: String(decoding: name, as: UTF8.self)) }
            return dialectState(as: UiautomatorDialect.DocumentState.self)?.classes.value(for: name, read) ?? read(name)
        }
        element.role = facts.role
        if scrollable { element.scrollAxes = facts.scrollAxes }
        // Compose gives TalkBack its nodes in an order of its own (by position), through
        // traversal links a dump does not carry.
        if facts.ordersByPosition { element.ordersByPosition = true }
        if facts.holdsItems { element.holdsItems = true }
        if element.role == .text, checkable { element.role = .checkbox }
        // Every node says checked="false"; only a checkable one has a checked state.
        if !checkable { element.checked = nil }
        let interactive = clickable || longClickable
        element.interactive = interactive
        if focusable { element.focusable = true }
        if displayed == false || visibleToUser == false { element.visible = false }
        // Material's bottom-sheet dialog declares its full-screen `touch_outside` scrim
        // importantForAccessibility="no" in the library's own layout: where the dump does not
        // say, the library does (UiAutomator2 dumps that carry the flag say false).
        if stated == nil, texts.withBytes(element.id, { UiautomatorDialect.isMaterialScrim(resourceID: $0) }) {
            stated = false
        }
        if stated == false { element.unimportant = true }
        // Focusable to a screen reader as one stop — unless the node is not important, which
        // keeps it out of the reader's tree whatever else it says.
        if screenReaderFocusable, stated != false {
            stated = true
            focusable = true
            element.focusable = true
        }
        // TalkBack focuses what is actionable or says something; the rest is decoration.
        element.accessible =
            stated
            ?? (interactive || focusable || checkable
                || !texts.isBlank(element.text) || !texts.isBlank(element.label))
    }
}
