/// The native dialect (docs/snapshot-format.md): `<snapshot version="1">` holding
/// `<element>`s, `<settings>` and `<animation>`s; every attribute of `<element>` onto the model.
enum NativeDialect: SnapshotDialect {
    static let dialect = Dialect.native
    static let title = "native"
    static let rootExample = #"<snapshot version="1">"#
    static let capabilities: SnapshotCapabilities = [.declaredColors, .fonts, .animations, .visibleFrames, .exactScreenSize, .headings]
    static let pathRoot: StaticString = "/snapshot"
    static let inheritsVisibility = true

    static func root(named name: String) -> DialectRoot? { name == "snapshot" ? .container(nil) : nil }

    static func readRoot(_ attributes: AttributeList, builder: SnapshotBuilder) {
        builder.readSnapshotAttributes(attributes)
    }

    static func kind(ofElementNamed name: String) -> SnapshotBuilder.NameKind {
        switch name {
        case "element": .element
        case "settings": .settings
        case "animation": .animation
        default: .ignored
        }
    }

    /// The attributes this dialect reads, each mapped from its names below.
    enum Key: UInt8, DialectAttributeKey {
        case unknown
        case id, role, label, value, hint, text, placeholder, image
        case traits, accessible, hidden, visible, enabled, interactive, frame, hitFrame
        case foreground, background, border, opacity, fontSize, fontWeight, textStyle, scalesWithContentSize
        case truncated, underline, a11yIgnore, largeContentViewer, drawsContent, scrollable, modal, supportsEscape
        case mainAction, magicTap, actions, rotor
    }

    static func attributeKey(named name: String) -> Key {
        switch name {
        case "id": .id
        case "role": .role
        case "label": .label
        case "value": .value
        case "hint": .hint
        case "text": .text
        case "placeholder": .placeholder
        case "image": .image
        case "traits": .traits
        case "accessible": .accessible
        case "hidden": .hidden
        case "visible": .visible
        case "enabled": .enabled
        case "interactive": .interactive
        case "frame": .frame
        case "hit-frame": .hitFrame
        case "foreground": .foreground
        case "background": .background
        case "border": .border
        case "opacity": .opacity
        case "font-size": .fontSize
        case "font-weight": .fontWeight
        case "text-style": .textStyle
        case "scales-with-content-size": .scalesWithContentSize
        case "truncated": .truncated
        case "underline": .underline
        case "a11y-ignore": .a11yIgnore
        case "large-content-viewer": .largeContentViewer
        case "draws-content": .drawsContent
        case "scrollable": .scrollable
        case "modal": .modal
        case "supports-escape": .supportsEscape
        case "main-action": .mainAction
        case "magic-tap": .magicTap
        case "actions": .actions
        case "rotor": .rotor
        default: .unknown
        }
    }

    static func decode(
        _ attributes: AttributeList, into element: inout Element, index: Int,
        tag: UnsafePointer<UInt8>, builder: SnapshotBuilder
    ) {
        builder.decodeNative(attributes, into: &element, index: index)
    }
}

extension Dialect {
    /// `<snapshot version="1">`: this project's own format.
    public static let native = Dialect(rawValue: "native")
}

extension SnapshotBuilder {
    func readSnapshotAttributes(_ attributes: AttributeList) {
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
                    fail(
                        .unsupportedVersion, "snapshot version \"\(ValueScanner.string(value))\" is not supported",
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
            fail(
                .missingVersion, "<snapshot> has no version attribute",
                hint: "add version=\"1\" to the <snapshot> element", at: (rootLine, rootColumn))
        }
    }

    func decodeNative(_ attributes: AttributeList, into element: inout Element, index: Int) {
        forEachKnownAttribute(attributes, of: NativeDialect.self, element: index, owner: "element", line: Int(element.line)) { key, read in
            let value = read.value
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
            case .actions: element.actions = texts.append(value)
            case .rotor: element.rotor = texts.append(value)
            case .traits: element.traits = Traits.parse(ValueScanner.string(value))
            case .accessible: element.accessible = read.flag()
            case .hidden: element.hidden = read.flag()
            case .visible: element.visible = read.flag()
            case .enabled: element.enabled = read.flag()
            case .interactive: element.interactive = read.flag()
            case .scalesWithContentSize: element.scalesWithContentSize = read.flag()
            case .truncated: element.truncated = read.flag()
            case .underline: element.underline = read.flag()
            case .largeContentViewer: element.largeContentViewer = read.flag()
            case .drawsContent: element.drawsContent = read.flag()
            case .scrollable: element.scrollAxes = read.flag() == true ? .both : []
            case .modal: element.modal = read.flag()
            case .supportsEscape: element.supportsEscape = read.flag()
            case .mainAction: element.mainAction = read.flag()
            case .magicTap: element.magicTap = read.flag()
            case .frame: element.frame = read.frame()
            case .hitFrame: element.hitFrame = read.frame()
            case .foreground: element.foreground = read.colour()
            case .background: element.background = read.colour()
            case .border: element.border = read.colour()
            case .opacity:
                if let number = ValueScanner.number(value), (0...1).contains(number) {
                    element.opacity = number
                } else {
                    read.invalid("a number from 0 to 1")
                }
            case .fontSize:
                if let number = ValueScanner.number(value), number > 0, number < 10_000 {
                    element.fontSize = number
                } else {
                    read.invalid("a positive number of points")
                }
            case .fontWeight:
                if let weight = ByteNames.fontWeight(value) ?? FontWeightName.weight(of: ValueScanner.string(value)) {
                    element.fontWeight = Int16(weight)
                } else {
                    read.invalid("100…900 or ultralight, thin, light, regular, medium, semibold, bold, heavy, black")
                }
            case .textStyle:
                if let style = ByteNames.textStyle(value) {
                    element.textStyle = style
                } else {
                    read.invalid("one of " + TextStyle.allCases.map(\.rawValue).joined(separator: ", "))
                }
            default: break
            }
        }
    }
}
