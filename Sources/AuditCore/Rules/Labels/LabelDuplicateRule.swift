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
        results: ResultID.self,
        examples: [
            RuleExample(##"<element id="a" role="button" label="Share" frame="0,0,44,44"/><element id="b" role="button" label="share " frame="50,0,44,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="a" role="button" label="Share photo" frame="0,0,44,44"/><element id="b" role="button" label="Share album" frame="50,0,44,44"/>"##),
            RuleExample(##"<element id="c1" role="cell"><element id="a" role="button" label="Remove" frame="0,0,44,44"/></element><element id="c2" role="cell"><element id="b" role="button" label="Remove" frame="0,50,44,44"/></element>"##),
            RuleExample(##"<element id="a" role="text" text="Total"/><element id="b" role="text" text="Total"/>"##),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        case duplicate

        public var message: String {
            "Label \"${label}\" is also used by sibling ${other}"
        }
    }

    public static func evaluate(_ context: inout RuleContext) {
        let snapshot = context.snapshot
        let elements = snapshot.elements
        func isTarget(_ element: Element) -> Bool { element.isInteractive && element.isAccessible && element.isVisible }
        // Reused for every parent: the first sibling seen with each label, by hash of the
        // normalised label.
        var seen = KeyPositions<Int>()
        func check(_ siblings: some Sequence<Int>) {
            seen.removeAll()
            for child in siblings {
                let element = elements[child]
                guard isTarget(element) else { continue }
                let name = snapshot.accessibleNameRef(of: child)
                guard !name.isAbsent, let hash = LabelText.comparisonHash(name, of: snapshot) else { continue }
                guard let known = seen.position(of: hash) else {
                    seen.append(hash, child)
                    continue
                }
                let first = seen[known]
                // Equal hashes: confirm on the keys themselves.
                guard LabelText.comparisonKey(snapshot.accessibleNameRef(of: first), of: snapshot)
                    == LabelText.comparisonKey(name, of: snapshot) else { continue }
                if element.frame != nil, element.frame == elements[first].frame { continue }
                context.report(ResultID.duplicate, element: child, evidence: [
                    ("label", .optional(snapshot.text(name))),
                    ("other", .string(snapshot.text(elements[first].id) ?? snapshot.path(of: first))),
                ])
            }
        }
        check(snapshot.roots)
        for parent in elements.indices where elements[parent].firstChild >= 0 {
            // Skip parents with fewer than two targets among their children.
            var targets = 0
            for child in snapshot.childIndices(of: parent) where isTarget(elements[child]) {
                targets += 1
                if targets == 2 { break }
            }
            if targets == 2 { check(snapshot.childIndices(of: parent)) }
        }
    }
}
