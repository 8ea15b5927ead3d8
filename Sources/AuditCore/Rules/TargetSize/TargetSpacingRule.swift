/// `target-spacing` — two distinct targets whose touch areas overlap or coincide: a tap
/// meant for one can land on the other (WCAG 2.5.8's intent).
public enum TargetSpacingRule: Rule {
    public static let description = RuleDescription(
        id: "target-spacing",
        title: "Overlapping touch targets",
        wcag: ["2.5.8"],
        severity: .warning,
        help: """
            Two targets that are not nested in one another should not share touch area: where they \
            overlap, a tap is ambiguous, and identical bounds usually mean a duplicate or invisible \
            control over another. Reported on the later target in document order. Fix: separate the \
            targets or shrink the hit areas so they do not overlap.
            """,
        parameters: [Parameter.minimumOverlap],
        results: ResultID.self,
        examples: [
            RuleExample(##"<element id="a" role="button" label="A" frame="0,100,100,44"/><element id="b" role="button" label="B" frame="90,100,100,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="a" role="button" label="A" frame="0,100,100,44"/><element id="b" role="button" label="B" frame="0,100,100,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="a" role="button" label="A" frame="0,100,100,44"/><element id="b" role="button" label="B" frame="100,100,100,44"/>"##),
            RuleExample(##"<element id="c" role="cell" interactive="true" label="Row" frame="0,100,390,60"><element id="s" role="switch" label="On" frame="320,110,51,31"/></element>"##),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        case overlap
        case identical

        public var message: String {
            switch self {
            case .overlap: "Target overlaps ${other} by ${overlap} pt²"
            case .identical: "Target has the same bounds as ${other}"
            }
        }
    }

    /// The parameters rule sets may give this rule, with their defaults.
    public enum Parameter {
        public static let minimumOverlap = RuleParameter<Double>("minimum-overlap", default: 1, help: "overlap area in square points that counts")
    }

    public static func evaluate(_ context: inout RuleContext) {
        let snapshot = context.snapshot
        let minimumOverlap = context[Parameter.minimumOverlap]
        let targets = Targets.all(in: snapshot)
        guard targets.count > 1 else { return }
        let ends = Targets.subtreeEnds(in: snapshot)
        let index = Targets.index(targets, ends: ends)
        // Identical bounds, whatever their area: per frame, the earlier target whose
        // subtree ends first (an earlier target is not an ancestor when its subtree ended
        // before this one starts). One pass in document order.
        var sameFrame: [Rect: (end: Int, index: Int)] = [:]
        for target in targets {
            if context.outOfBudget() { return }
            let frame = target.frame, position = target.index
            let earlierSame = sameFrame[frame]
            if earlierSame == nil || ends[position] < earlierSame!.end {
                sameFrame[frame] = (ends[position], position)
            }
            if let earlierSame, earlierSame.end <= position {
                let name = snapshot.node(earlierSame.index).id ?? snapshot.path(of: earlierSame.index)
                context.report(ResultID.identical, element: position, evidence: [("other", .string(name)), ("frame", .string(frame.description))])
                continue
            }
            // Each pair once, reported on the later target: an earlier target that is not
            // an ancestor and overlaps by the area that counts. Branches holding only
            // ancestors and later targets, or only rectangles too thin to overlap by that
            // much, are never opened.
            let found = index.first(meeting: frame, branch: { summary in
                summary.minEnd <= position
                    && min(frame.width, summary.maxWidth) * min(frame.height, summary.maxHeight) >= minimumOverlap
            }) { other in
                other.end <= position && overlap(frame, other.rect) >= minimumOverlap
            }
            guard let other = found else { continue }
            let name = snapshot.node(other.index).id ?? snapshot.path(of: other.index)
            context.report(ResultID.overlap, element: position, evidence: [("other", .string(name)), ("overlap", .number(overlap(frame, other.rect)))])
        }
    }

    /// The area two rectangles share (negative or zero when they do not meet).
    static func overlap(_ a: Rect, _ b: Rect) -> Double {
        (min(a.maxX, b.maxX) - max(a.minX, b.minX)) * (min(a.maxY, b.maxY) - max(a.minY, b.minY))
    }
}
