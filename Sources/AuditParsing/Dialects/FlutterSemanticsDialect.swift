/// Flutter's semantics tree (`debugDumpSemanticsTree()`, read by ``SemanticsDumpSyntax``):
/// what Flutter hands the platform's accessibility bridge, before TalkBack or VoiceOver see
/// it — its roles and states as flags (`isButton`, `hasCheckedState`, `isHeader`), what a
/// node does as actions (`tap`, `scrollUp`, `increase`), its label, value, hint and
/// tooltip, its identifier, and which nodes merge into one (`merge boundary`, `merged
/// up`). A uiautomator dump of the same app loses the roles (every node an
/// `android.view.View`) and gives visible text as content descriptions.
///
/// Each node's rectangle is in its parent's space; `scaled by 3.0x` or `with transform`
/// maps it there. Frames are composed down the tree into the root's physical pixels and
/// divided by the device pixel ratio (the first scale met) into logical pixels (dp / pt).
/// Nodes merged up are folded into their boundary — labels joined by a line break,
/// flags and actions together — as the platform receives them, and are not elements a
/// reader stops on. The dump does not say the platform: the snapshot's platform is
/// `other` (the `wcag22-aa` rule set), or Android where the lines carry logcat's
/// `I/flutter (pid):` prefix, as `flutter run` prints them from an Android device.
enum FlutterSemanticsDialect: SnapshotDialect {
    static let dialect = Dialect.flutterSemantics
    static let title = "Flutter semantics tree"
    static let rootExample = "SemanticsNode#0 (debugDumpSemanticsTree)"
    static let capabilities: SnapshotCapabilities = [.headings, .exactScreenSize]
    static let pathRoot: StaticString = "/flutter-semantics"
    static let fileExtensions = ["semantics.txt"]
    static let contentTypes = ["text/plain"]
    /// A hidden or invisible node hides what it holds.
    static let inheritsVisibility = true

    static func root(named name: String) -> DialectRoot? { name == SemanticsDumpSyntax.rootName ? .container(.other) : nil }

    /// The platform, where the console's prefix said it (`I/flutter (…)`: Android's logcat).
    static func readRoot(_ attributes: AttributeList, builder: SnapshotBuilder) {
        for attribute in attributes where String(cString: attribute.name) == "platform" {
            if let platform = Platform(rawValue: ValueScanner.string(attribute.value)) { builder.platform = platform }
        }
    }

    static func kind(ofElementNamed name: String) -> SnapshotBuilder.NameKind {
        name == SemanticsDumpSyntax.nodeName ? .element : .ignored
    }

    enum Key: UInt8, DialectAttributeKey {
        case unknown
        case id, rect, scale, transform, flags, actions, customActions, label, value, hint, tooltip, identifier
        case mergeBoundary, mergedUp, invisible, hidden, role
    }

    static func attributeKey(named name: String) -> Key {
        switch name {
        case "id": .id
        case "rect": .rect
        case "scale": .scale
        case "transform": .transform
        case "flags": .flags
        case "actions": .actions
        case "customActions": .customActions
        case "label": .label
        case "value": .value
        case "hint": .hint
        case "tooltip": .tooltip
        case "identifier": .identifier
        case "merge-boundary": .mergeBoundary
        case "merged-up": .mergedUp
        case "invisible": .invisible
        case "hidden": .hidden
        case "role": .role
        default: .unknown
        }
    }

    /// What is kept per node while the document is read: how it maps to the root's pixels,
    /// its flags and actions, and whether it merges.
    final class State: DialectState {
        var transforms: [Affine] = []
        var flags: [Set<String>] = []
        var actions: [Set<String>] = []
        var mergedUp: [Bool] = []
        var tooltips: [String?] = []
        var roleNames: [String?] = []
        /// The device pixel ratio: the first scale met going down the tree.
        var pixelRatio: Double?
    }

    static func makeState() -> (any DialectState)? { State() }

    static func decode(
        _ attributes: AttributeList, into element: inout Element, index: Int,
        tag: UnsafePointer<UInt8>, builder: SnapshotBuilder
    ) {
        guard let state = builder.dialectState(as: State.self) else { return }
        let parent = Int(element.parent)
        var transform = parent >= 0 && parent < state.transforms.count ? state.transforms[parent] : Affine.identity
        var rect: [Double]?
        var flags: Set<String> = [], actions: Set<String> = []
        var mergedUp = false
        var tooltip: String?
        var role: String?
        element.typeName = builder.texts.append(SemanticsDumpSyntax.nodeName)
        builder.forEachKnownAttribute(attributes, of: Self.self, element: index, owner: "SemanticsNode", line: Int(element.line)) { key, read in
            let text = ValueScanner.string(read.value)
            switch key {
            case .id: break
            case .rect:
                let numbers = text.split(separator: ",").compactMap { Double($0) }
                if numbers.count == 4, numbers[2] >= numbers[0], numbers[3] >= numbers[1] { rect = numbers } else { read.invalid("left,top,right,bottom") }
            case .scale:
                if let factor = Double(text), factor > 0 {
                    transform = transform.then(.scale(factor))
                    if state.pixelRatio == nil { state.pixelRatio = factor }
                } else {
                    read.invalid("a positive scale")
                }
            case .transform:
                let numbers = text.split(separator: ",").compactMap { Double($0) }
                if numbers.count == 16 {
                    transform = transform.then(Affine(row0: numbers[0..<4], row1: numbers[4..<8]))
                } else {
                    read.invalid("the sixteen numbers of a 4×4 matrix")
                }
            case .flags: flags = Set(text.split(separator: ",").map { $0.trimmingBlanks() })
            case .actions: actions = Set(text.split(separator: ",").map { $0.trimmingBlanks() })
            case .customActions: element.actions = builder.texts.append(read.value)
            case .label: element.label = builder.texts.append(read.value)
            case .value: element.value = builder.texts.append(read.value)
            case .hint: element.hint = builder.texts.append(read.value)
            case .tooltip: tooltip = text
            case .identifier: element.id = builder.texts.append(read.value)
            case .mergeBoundary: break
            case .mergedUp: mergedUp = true
            case .invisible: element.visible = false
            case .hidden: element.hidden = true
            case .role: role = text
            case .unknown: break
            }
        }
        if let rect {
            element.frame = transform.boundingBox(left: rect[0], top: rect[1], right: rect[2], bottom: rect[3])
        }
        if flags.contains("isHidden") { element.hidden = true }
        state.transforms.append(transform)
        state.flags.append(flags)
        state.actions.append(actions)
        state.mergedUp.append(mergedUp)
        state.tooltips.append(tooltip)
        state.roleNames.append(role)
    }

    /// Folds merged nodes into their boundaries, gives each node its role and states from
    /// its flags and actions, and turns pixels into logical pixels.
    static func finish(_ builder: SnapshotBuilder) {
        guard let state = builder.dialectState(as: State.self), state.flags.count == builder.elements.count else { return }
        var flags = state.flags, actions = state.actions
        // A node merged up gives what it says and does to the boundary above it, the node
        // the platform receives (its label after the boundary's, a line apart).
        for index in builder.elements.indices where state.mergedUp[index] {
            var boundary = Int(builder.elements[index].parent)
            while boundary >= 0, state.mergedUp[boundary] { boundary = Int(builder.elements[boundary].parent) }
            guard boundary >= 0 else { continue }
            flags[boundary].formUnion(flags[index])
            actions[boundary].formUnion(actions[index])
            for path in [\Element.label, \Element.value, \Element.hint] {
                let added = builder.elements[index][keyPath: path]
                guard !builder.texts.isBlank(added), let text = builder.texts.string(added) else { continue }
                let current = builder.elements[boundary][keyPath: path]
                let joined = builder.texts.isBlank(current) ? text : (builder.texts.string(current) ?? "") + "\n" + text
                builder.elements[boundary][keyPath: path] = builder.texts.append(joined)
            }
            if state.tooltips[boundary] == nil { state.tooltips[boundary] = state.tooltips[index] }
            builder.elements[index].accessible = false
            builder.elements[index].interactive = false
        }
        let ratio = state.pixelRatio ?? 1
        for index in builder.elements.indices {
            // A tooltip is said after the label (Flutter's bridges give both).
            if let tooltip = state.tooltips[index], !tooltip.isEmpty {
                let label = builder.elements[index].label
                let joined = builder.texts.isBlank(label) ? tooltip : (builder.texts.string(label) ?? "") + "\n" + tooltip
                builder.elements[index].label = builder.texts.append(joined)
            }
            if !state.mergedUp[index] { apply(flags[index], actions[index], role: state.roleNames[index], to: &builder.elements[index], builder: builder) }
            if let frame = builder.elements[index].frame {
                builder.elements[index].frame = Rect(x: frame.x / ratio, y: frame.y / ratio, width: frame.width / ratio, height: frame.height / ratio)
            }
        }
        if let root = builder.roots.first, let frame = builder.elements[root].frame {
            builder.width = frame.width
            builder.height = frame.height
            builder.scale = ratio
        }
    }

    /// A node's role: its role property (a tab), else the first flag that names one, else an
    /// element that acts, a text that has a label, or a container.
    static func role(_ flags: Set<String>, role: String?, acts: Bool, named: Bool) -> Role {
        if role == "tab" { return .tab }
        if flags.contains("isTextField") { return .textfield }
        if flags.contains("isSlider") { return .slider }
        if flags.contains("hasToggledState") { return .switch }
        if flags.contains("hasCheckedState") { return flags.contains("isInMutuallyExclusiveGroup") ? .radio : .checkbox }
        if flags.contains("isLink") { return .link }
        if flags.contains("isButton") { return .button }
        if flags.contains("isImage") { return .image }
        if acts { return .other }
        return named ? .text : .container
    }

    /// The role, states and actions of a node, from Flutter's flags and actions.
    static func apply(_ flags: Set<String>, _ actions: Set<String>, role: String?, to element: inout Element, builder: SnapshotBuilder) {
        let acts = actions.contains("tap") || actions.contains("longPress")
        let named = !builder.texts.isBlank(element.label)
        element.role = Self.role(flags, role: role, acts: acts, named: named)
        var traits: Traits = []
        if flags.contains("isHeader") { traits.insert(.header) }
        if flags.contains("isSelected") { traits.insert(.selected) }
        if flags.contains("isKeyboardKey") { traits.insert(.keyboardKey) }
        if actions.contains("increase") || actions.contains("decrease") { traits.insert(.adjustable) }
        if flags.contains("isLiveRegion") { traits.insert(.updatesFrequently) }
        element.traits = traits
        if flags.contains("hasEnabledState") { element.enabled = flags.contains("isEnabled") }
        element.interactive = acts || flags.contains("isTextField") || traits.contains(.adjustable)
        if flags.contains("isFocusable") { element.focusable = true }
        var axes: ScrollAxes = []
        if actions.contains("scrollUp") || actions.contains("scrollDown") { axes.insert(.vertical) }
        if actions.contains("scrollLeft") || actions.contains("scrollRight") { axes.insert(.horizontal) }
        element.scrollAxes = axes
        if element.role == .checkbox || element.role == .radio, builder.texts.isBlank(element.value) {
            element.value = builder.texts.append(flags.contains("isChecked") ? "1" : "0")
        }
        if element.role == .switch, builder.texts.isBlank(element.value) {
            element.value = builder.texts.append(flags.contains("isToggled") ? "1" : "0")
        }
        // What the platform's bridge makes an accessibility element: a node that says or
        // does something, or whose flags give it a role; the rest (the route, the scaffold's
        // layers) are containers the readers pass through.
        let says = !builder.texts.isBlank(element.label) || !builder.texts.isBlank(element.value) || !builder.texts.isBlank(element.hint)
        let roleFlags: Set<String> = [
            "isTextField", "isButton", "isLink", "hasCheckedState", "hasToggledState", "isSlider", "isImage", "isHeader", "isFocusable",
        ]
        element.accessible = says || element.interactive == true || !flags.isDisjoint(with: roleFlags) || role != nil
    }
}

/// A 2-D affine map `x' = a·x + b·y + tx`, `y' = c·x + d·y + ty`: the part of Flutter's 4×4
/// transforms that places a node on the screen.
struct Affine {
    var a = 1.0, b = 0.0, tx = 0.0, c = 0.0, d = 1.0, ty = 0.0

    static let identity = Affine()

    static func scale(_ factor: Double) -> Affine { Affine(a: factor, d: factor) }

    init(a: Double = 1, b: Double = 0, tx: Double = 0, c: Double = 0, d: Double = 1, ty: Double = 0) {
        (self.a, self.b, self.tx, self.c, self.d, self.ty) = (a, b, tx, c, d, ty)
    }

    /// From a 4×4 matrix's first two rows.
    init(row0: ArraySlice<Double>, row1: ArraySlice<Double>) {
        let first = Array(row0), second = Array(row1)
        self.init(a: first[0], b: first[1], tx: first[3], c: second[0], d: second[1], ty: second[3])
    }

    /// This map after `inner`: a point of the child's space, mapped by `inner` into this
    /// node's, then by this one onward.
    func then(_ inner: Affine) -> Affine {
        Affine(
            a: a * inner.a + b * inner.c, b: a * inner.b + b * inner.d, tx: a * inner.tx + b * inner.ty + tx,
            c: c * inner.a + d * inner.c, d: c * inner.b + d * inner.d, ty: c * inner.tx + d * inner.ty + ty)
    }

    /// The box holding the rectangle's four corners once mapped.
    func boundingBox(left: Double, top: Double, right: Double, bottom: Double) -> Rect {
        let corners = [(left, top), (right, top), (left, bottom), (right, bottom)].map { (x, y) in (a * x + b * y + tx, c * x + d * y + ty) }
        let xs = corners.map(\.0), ys = corners.map(\.1)
        let minX = xs.min() ?? 0, minY = ys.min() ?? 0
        return Rect(x: minX, y: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY)
    }
}

extension Dialect {
    /// Flutter's semantics tree, as `debugDumpSemanticsTree()` prints it.
    public static let flutterSemantics = Dialect(rawValue: "flutter-semantics")
}

extension Substring {
    fileprivate func trimmingBlanks() -> String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
