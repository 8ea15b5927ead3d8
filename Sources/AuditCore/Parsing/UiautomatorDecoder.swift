import CLibXML2

/// Android `uiautomator` dumps and Appium UiAutomator2 sources (docs/dialects.md): `class`,
/// `text`, `content-desc`, `resource-id`, `bounds` in pixels, the booleans, onto the model.
extension SnapshotBuilder {
    func decodeAndroid(_ attributes: AttributeList, into element: inout Element, index: Int,
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
}
