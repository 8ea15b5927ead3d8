/// Computes, once and in document order, the facts rules need that depend on ancestors:
/// effective hidden/visible/enabled/accessible/interactive, opacity, and the colour
/// behind each element.
enum DerivedFacts {
    /// `inheritsVisibility`, `inheritsEnabled`: the dialect's (``SnapshotDialect``).
    static func compute(_ elements: inout [Element], inheritsVisibility: Bool, inheritsEnabled: Bool = true) {
        // In place: elements are large, and copying each in and out would cost a tenth of
        // the pass. Parents come before their children, so their facts are final.
        elements.withUnsafeMutableBufferPointer { all in
            for index in all.indices {
                let parentIndex = Int(all[index].parent)
                let hasParent = parentIndex >= 0
                let parentOpacity = hasParent ? all[parentIndex].effectiveOpacity : 1
                let parentFacts: ElementFacts = hasParent ? all[parentIndex].facts : [.visible, .enabled]
                let parentBackground = hasParent ? all[parentIndex].effectiveBackground : nil
                var facts: ElementFacts = []

                let opacity = parentOpacity * (all[index].opacity ?? 1)
                all[index].effectiveOpacity = opacity

                if all[index].hidden == true || (hasParent && parentFacts.contains(.hidden)) { facts.insert(.hidden) }
                let parentVisible = inheritsVisibility ? parentFacts.contains(.visible) : true
                if parentVisible, all[index].visible != false, opacity > 0 { facts.insert(.visible) }
                if parentFacts.contains(.systemUI) || all[index].systemUI { facts.insert(.systemUI) }
                if parentFacts.contains(.enabled) || !inheritsEnabled, all[index].enabled != false, !all[index].traits.contains(.notEnabled) { facts.insert(.enabled) }
                let role = all[index].role
                if !facts.contains(.hidden), all[index].accessible ?? role.isAccessibleByDefault { facts.insert(.accessible) }
                let interactiveByKind =
                    role.isInteractiveByDefault
                    || !all[index].traits.isDisjoint(with: [.button, .link, .adjustable])
                if all[index].interactive ?? interactiveByKind { facts.insert(.interactive) }
                all[index].facts = facts

                all[index].backdrop = parentBackground
                if let background = all[index].background {
                    let faded = background.fading(by: opacity)
                    if faded.isOpaque {
                        all[index].effectiveBackground = faded
                    } else if let backdrop = parentBackground {
                        all[index].effectiveBackground = faded.composited(over: backdrop)
                    } else {
                        all[index].effectiveBackground = nil
                    }
                } else {
                    all[index].effectiveBackground = parentBackground
                }
            }
        }
    }
}
