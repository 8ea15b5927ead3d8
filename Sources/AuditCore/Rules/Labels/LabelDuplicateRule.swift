/// `label.duplicate` — distinct sibling targets with the same name: a screen-reader user
/// hears two "Share" buttons and cannot tell them apart.
public enum LabelDuplicateRule: Rule {
    public static let description = RuleDescription(
        id: "label.duplicate",
        title: "Duplicate labels on sibling targets",
        wcag: ["4.1.2"],
        severity: .warning,
        help: """
            Two distinct interactive elements under the same parent should not have the same name \
            (compared ignoring case and surrounding space). Reported on each repeat after the first. \
            Fix: name each by what it does ("Share photo", "Share album"), or merge them.
            """,
        messages: ["duplicate": "Label \"${label}\" is also used by sibling ${other}"],
        examples: [
            RuleExample(##"<element id="a" role="button" label="Share" frame="0,0,44,44"/><element id="b" role="button" label="share " frame="50,0,44,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="a" role="button" label="Share photo" frame="0,0,44,44"/><element id="b" role="button" label="Share album" frame="50,0,44,44"/>"##),
            RuleExample(##"<element id="c1" role="cell"><element id="a" role="button" label="Remove" frame="0,0,44,44"/></element><element id="c2" role="cell"><element id="b" role="button" label="Remove" frame="0,50,44,44"/></element>"##),
            RuleExample(##"<element id="a" role="text" text="Total"/><element id="b" role="text" text="Total"/>"##),
        ])

    public static func evaluate(_ context: inout RuleContext) {
        let snapshot = context.snapshot
        func isTarget(_ element: Element) -> Bool { element.isInteractive && element.isAccessible && element.isVisible }
        for parent in snapshot.elements.indices.map({ $0 }) + [-1] {
            if parent >= 0 {
                // Skip parents with fewer than two interactive children before building anything.
                var targets = 0
                var child = snapshot.elements[parent].firstChild
                while child >= 0, targets < 2 {
                    if isTarget(snapshot.elements[Int(child)]) { targets += 1 }
                    child = snapshot.elements[Int(child)].nextSibling
                }
                if targets < 2 { continue }
            }
            let children = parent >= 0 ? snapshot.children(of: parent) : snapshot.roots
            guard children.count > 1 else { continue }
            var seen: [String: Int] = [:]
            for child in children {
                let element = snapshot.elements[child]
                guard element.isInteractive, element.isAccessible, element.isVisible,
                      let name = snapshot.node(child).accessibleName else { continue }
                let key = name.trimmingWhitespace().lowercased()
                guard !key.isEmpty else { continue }
                if let first = seen[key] {
                    if element.frame != nil, element.frame == snapshot.elements[first].frame { continue }
                    context.report("duplicate", element: child, evidence: [
                        ("label", .string(name)), ("other", .string(snapshot.node(first).id ?? snapshot.path(of: first))),
                    ])
                } else {
                    seen[key] = child
                }
            }
        }
    }
}
