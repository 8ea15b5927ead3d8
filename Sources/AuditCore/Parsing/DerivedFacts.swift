/// Computes, once and in document order, the facts rules need that depend on ancestors:
/// effective hidden/visible/enabled/accessible/interactive, opacity, and the colour
/// behind each element.
enum DerivedFacts {
    static func compute(_ elements: inout [Element], dialect: Dialect) {
        // Appium and uiautomator compute `visible`/`displayed` per element, ancestors
        // included; a container they mark invisible may hold visible children. Only
        // native snapshots inherit visibility.
        let inheritsVisibility = dialect == .native
        for index in elements.indices {
            var element = elements[index]
            let parent = element.parent >= 0 ? elements[Int(element.parent)] : nil
            var facts: ElementFacts = []

            let opacity = (parent?.effectiveOpacity ?? 1) * (element.opacity ?? 1)
            element.effectiveOpacity = opacity

            if element.hidden == true || parent?.isHidden == true { facts.insert(.hidden) }
            let parentVisible = inheritsVisibility ? (parent?.isVisible ?? true) : true
            if parentVisible, element.visible != false, opacity > 0 { facts.insert(.visible) }
            let parentEnabled = parent?.isEnabled ?? true
            if parentEnabled, element.enabled != false, !element.traits.contains(.notEnabled) { facts.insert(.enabled) }
            if !facts.contains(.hidden), element.accessible ?? element.role.isAccessibleByDefault { facts.insert(.accessible) }
            let interactiveByKind = element.role.isInteractiveByDefault
                || !element.traits.isDisjoint(with: [.button, .link, .adjustable])
            if element.interactive ?? interactiveByKind { facts.insert(.interactive) }
            element.facts = facts

            element.backdrop = parent?.effectiveBackground
            if let background = element.background {
                let faded = background.fading(by: opacity)
                if faded.isOpaque {
                    element.effectiveBackground = faded
                } else if let backdrop = element.backdrop {
                    element.effectiveBackground = faded.composited(over: backdrop)
                } else {
                    element.effectiveBackground = nil
                }
            } else {
                element.effectiveBackground = element.backdrop
            }
            elements[index] = element
        }
    }
}
