import CLibXML2

/// The native dialect (docs/snapshot-format.md): every attribute of `<element>` onto the model.
extension SnapshotBuilder {
    func decodeNative(_ attributes: AttributeList, into element: inout Element, index: Int) {
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
}
