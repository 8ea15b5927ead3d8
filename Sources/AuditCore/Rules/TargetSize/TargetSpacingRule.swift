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
        parameters: [ParameterDescription("minimum-overlap", .number, default: .number(1), help: "overlap area in square points that counts")],
        messages: [
            "overlap": "Target overlaps ${other} by ${overlap} pt²",
            "identical": "Target has the same bounds as ${other}",
        ],
        examples: [
            RuleExample(##"<element id="a" role="button" label="A" frame="0,100,100,44"/><element id="b" role="button" label="B" frame="90,100,100,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="a" role="button" label="A" frame="0,100,100,44"/><element id="b" role="button" label="B" frame="0,100,100,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="a" role="button" label="A" frame="0,100,100,44"/><element id="b" role="button" label="B" frame="100,100,100,44"/>"##),
            RuleExample(##"<element id="c" role="cell" interactive="true" label="Row" frame="0,100,390,60"><element id="s" role="switch" label="On" frame="320,110,51,31"/></element>"##),
        ])

    public static func evaluate(_ context: inout RuleContext) {
        let snapshot = context.snapshot
        let minimumOverlap = context.number("minimum-overlap")
        let targets = Targets.all(in: snapshot)
        let grid = SpatialGrid(targets.map { ($0.index, $0.frame) }, cellSize: 64)
        var candidates: [Int] = []
        for target in targets {
            let frame = target.frame
            // Compare with earlier targets only: each pair once, reported on the later one.
            grid.candidates(near: frame, into: &candidates)
            for other in candidates where other < target.index {
                guard let otherFrame = grid.rect(of: other), otherFrame == frame || frame.intersects(otherFrame) else { continue }
                if Targets.isAncestor(other, of: target.index, in: snapshot) || Targets.isAncestor(target.index, of: other, in: snapshot) { continue }
                let name = snapshot.node(other).id ?? snapshot.path(of: other)
                if otherFrame == frame {
                    context.report("identical", element: target.index, evidence: [("other", .string(name)), ("frame", .string(frame.description))])
                    break
                }
                let overlap = (min(frame.maxX, otherFrame.maxX) - max(frame.minX, otherFrame.minX))
                    * (min(frame.maxY, otherFrame.maxY) - max(frame.minY, otherFrame.minY))
                if overlap >= minimumOverlap {
                    context.report("overlap", element: target.index, evidence: [("other", .string(name)), ("overlap", .number(overlap))])
                    break
                }
            }
        }
    }
}
