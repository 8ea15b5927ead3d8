/// `color-only.group` — WCAG 1.4.1: look-alike elements told apart only by colour
/// (Mail's unread and flagged dots before shapes were added).
public enum ColorOnlyGroupRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "color-only.group",
        title: "Difference shown by colour only",
        wcag: ["1.4.1"],
        severity: .warning,
        enabledIn: [.wcag],
        help: """
            Sibling elements — or elements at the same place inside repeated siblings such as list cells — \
            with the same role, size, image, text, weight and decoration but different colours carry their \
            difference by colour alone: people who cannot tell the colours apart miss it. Evidence gives the \
            CIEDE2000 difference for normal vision and simulated protanopia, deuteranopia and tritanopia \
            (Machado 2009). Fix: add a shape, icon, text or pattern that differs too.
            """,
        examples: [
            RuleExample(
                ##"""
                <element id="c1" role="cell" frame="0,0,390,60"><element id="d1" role="image" label="Unread" frame="6,20,10,10" foreground="#007AFF"/></element>
                <element id="c2" role="cell" frame="0,60,390,60"><element id="d2" role="image" label="Flagged" frame="6,80,10,10" foreground="#FF9500"/></element>
                """##, triggers: ["d2"]),
            RuleExample(
                ##"""
                <element id="c1" role="cell" frame="0,0,390,60"><element id="d1" role="image" image="dot" label="Unread" frame="6,20,10,10" foreground="#007AFF"/></element>
                <element id="c2" role="cell" frame="0,60,390,60"><element id="d2" role="image" image="flag" label="Flagged" frame="6,80,10,10" foreground="#FF9500"/></element>
                """##),
            RuleExample(
                ##"<element id="a" role="image" label="Online" frame="0,0,8,8" background="#34C759"/><element id="b" role="image" label="Busy" frame="20,0,8,8" background="#FF3B30"/>"##,
                triggers: ["b"]),
            RuleExample(
                ##"<element id="a" role="image" label="Online" frame="0,0,8,8" background="#34C759"/><element id="b" role="image" label="Busy" frame="20,0,12,12" background="#FF3B30"/>"##
            ),
            RuleExample(##"<element id="a" role="text" text="Paid" foreground="#34C759"/><element id="b" role="text" text="Due" foreground="#FF3B30"/>"##),
            RuleExample(
                ##"<element id="a" role="image" label="Online" frame="0,0,8,8" background="#34C759"/><element id="b" role="image" label="Online" frame="20,0,8,8" background="#34C759"/>"##
            ),
            RuleExample(
                ##"<element id="a" role="tab" label="Inbox" traits="selected" frame="0,0,130,50" foreground="#007AFF"/><element id="b" role="tab" label="Sent" frame="130,0,130,50" foreground="#8E8E93"/>"##
            ),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.deltaE, .deltaE(under: .deuteranopia), .deltaE(under: .protanopia), .deltaE(under: .tritanopia), .source]

        case colorOnly = "color-only"

        public var message: String {
            "Differs from ${other} only by colour (${colors})"
        }
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        guard snapshot.capabilities.contains(.declaredColors) || snapshot.capabilities.contains(.colorsFromPixels) else {
            context.cannotJudge("no colours in this dialect (\(snapshot.dialect.rawValue))")
            return
        }
        let count = snapshot.elements.count
        // Every element's children in one flat array (compressed rows), built once: the scopes
        // below would otherwise allocate a children array each.
        var childStart = [Int](repeating: 0, count: count + 1)
        for element in snapshot.elements where element.parent >= 0 { childStart[Int(element.parent) + 1] += 1 }
        for index in 0..<count { childStart[index + 1] += childStart[index] }
        var childList = [Int](repeating: 0, count: childStart[count])
        var fill = childStart
        for index in 0..<count where snapshot.elements[index].parent >= 0 {
            let parent = Int(snapshot.elements[index].parent)
            childList[fill[parent]] = index
            fill[parent] += 1
        }
        func kids(_ index: Int) -> ArraySlice<Int> { childList[childStart[index]..<childStart[index + 1]] }

        var groups = LookAlikeGroups(snapshot: snapshot, colors: Self.colors(of: snapshot, budget: context.budget))
        // The pixel readings stop when the budget runs out: what they left unread must not
        // pass as "no look-alikes" — stopped, and the engine says so.
        if context.outOfBudget() { return }
        var slotBuffer: [Int] = []
        var containers: [Int] = []
        var repeated: [Int] = []
        var roles: [Role] = []
        // Every element as a scope, then the roots (scope -1), in this order: an element
        // reported in one scope is not reported again.
        for position in 0...count {
            if context.outOfBudget() { return }
            let scope = position < count ? position : -1
            // Leaves and only children have no siblings to compare.
            if scope >= 0 {
                let first = snapshot.elements[scope].firstChild
                if first < 0 || snapshot.elements[Int(first)].nextSibling < 0 { continue }
            }
            let children = scope >= 0 ? kids(scope) : snapshot.roots[...]
            guard children.count > 1 else { continue }
            // Direct siblings.
            groups.judge(children, context: &context)
            // The same position inside repeated siblings of one role (the cells of a list).
            containers.removeAll(keepingCapacity: true)
            for child in children where snapshot.elements[child].firstChild >= 0 { containers.append(child) }
            guard containers.count > 1 else { continue }
            roles.removeAll(keepingCapacity: true)
            for container in containers where !roles.contains(snapshot.elements[container].role) {
                roles.append(snapshot.elements[container].role)
            }
            roles.sort { $0.rawValue < $1.rawValue }
            for role in roles {
                repeated.removeAll(keepingCapacity: true)
                var width = 0
                for container in containers where snapshot.elements[container].role == role {
                    repeated.append(container)
                    width = max(width, kids(container).count)
                }
                guard repeated.count > 1 else { continue }
                for slot in 0..<width {
                    slotBuffer.removeAll(keepingCapacity: true)
                    for container in repeated {
                        let row = kids(container)
                        if row.count > slot { slotBuffer.append(row[row.startIndex + slot]) }
                    }
                    groups.judge(slotBuffer, context: &context)
                }
            }
        }
    }

    /// The largest side, in points, of a mark without text whose colour is read from pixels.
    static let maximumDot = 16.0

    /// Each element's distinguishing colour: declared (foreground, else background), else
    /// — with a screenshot — read from the pixels of small leaves: a text's ink, a mark's
    /// colour against its surroundings. `pixels` says which were read, `shares` how much of
    /// its crop the colour covers.
    static func colors(of snapshot: Snapshot, budget: AuditBudget) -> (colors: [RGBA?], pixels: [Bool], shares: [Double]) {
        var colors = snapshot.elements.map(ColorDifference.color(of:))
        var pixels = [Bool](repeating: false, count: colors.count)
        var shares = [Double](repeating: 0, count: colors.count)
        guard snapshot.capabilities.contains(.colorsFromPixels) else { return (colors, pixels, shares) }
        let leaves = snapshot.elements.indices.filter { index in
            let element = snapshot.elements[index]
            guard colors[index] == nil, element.firstChild < 0, element.isVisible, !element.isHidden, element.role != .window,
                let frame = element.frame
            else { return false }
            // Controls show their state by shape or position (a knob, a dot, a tick) the
            // histogram cannot see; their selection is color-only.state's.
            guard ![.switch, .checkbox, .radio, .slider].contains(element.role) else { return false }
            // Two icons of one size may be two drawings: the pixels' histogram cannot tell
            // shapes apart, so only texts (compared by their text) and dots (16 pt or less)
            // are read.
            let side = snapshot.visibleTextRef(of: index).isAbsent ? maximumDot : PixelInk.maximumSide
            return frame.width <= side && frame.height <= side && frame.width > 0 && frame.height > 0
        }
        let read = PixelReadings.read(leaves, budget: budget) { index in PixelInk.color(of: index, in: snapshot) }
        for (index, reading) in read {
            guard let (color, share) = reading else { continue }
            colors[index] = color
            pixels[index] = true
            shares[index] = share
        }
        return (colors, pixels, shares)
    }
}

/// The state of one `color-only.group` evaluation, kept in a value (not captured by nested
/// functions): per element the key of its look (`VisualSignature.key`) and whether it was
/// reported; the look-alike groups of the scope being judged, as linked lists through
/// `nextMember`, so judging a scope allocates nothing.
private struct LookAlikeGroups {
    let snapshot: Snapshot
    var reported: [Bool]
    /// Per element: 0 not known yet, 1 not a mark, else the key of its visual signature —
    /// computed once and reused by every scope the element appears in.
    var keys: [UInt64]
    /// The looks seen in the scope being judged, each with its group.
    var groups = KeyPositions<(first: Int, last: Int, count: Int)>()
    var nextMember: [Int]
    /// The colour evidence (CIEDE2000 under three simulations) per pair of colours: a list
    /// repeats the same few pairs thousands of times.
    var differences: [UInt64: Evidence] = [:]

    /// Each element's colour (``ColorOnlyGroupRule/colors(of:budget:)``), and whether it
    /// was read from pixels.
    let colors: [RGBA?]
    let fromPixels: [Bool]
    /// For colours read from pixels: the share of the crop the colour covers (a filled
    /// mark and a ring of one size cover different shares: their shapes differ).
    let shares: [Double]

    init(snapshot: Snapshot, colors: (colors: [RGBA?], pixels: [Bool], shares: [Double])) {
        self.snapshot = snapshot
        self.colors = colors.colors
        self.fromPixels = colors.pixels
        self.shares = colors.shares
        let count = snapshot.elements.count
        reported = [Bool](repeating: false, count: count)
        keys = [UInt64](repeating: 0, count: count)
        nextMember = [Int](repeating: -1, count: count)
    }

    /// Compares the members of each look-alike group within one scope.
    mutating func judge<Candidates: Collection>(_ candidates: Candidates, context: inout RuleContext<ColorOnlyGroupRule.ResultID>)
    where Candidates.Element == Int {
        groups.removeAll()
        for candidate in candidates {
            let key = key(of: candidate)
            guard key > 1 else { continue }
            nextMember[candidate] = -1
            if let slot = groups.position(of: key) {
                nextMember[groups[slot].last] = candidate
                groups[slot].last = candidate
                groups[slot].count += 1
            } else {
                groups.append(key, (candidate, candidate, 1))
            }
        }
        for (_, group) in groups.entries where group.count > 1 {
            let first = group.first
            guard let reference = colors[first] else { continue }
            let referenceSelected = snapshot.elements[first].traits.contains(.selected)
            var member = nextMember[first]
            while member >= 0 {
                defer { member = nextMember[member] }
                if reported[member] { continue }
                // A selected item against unselected ones is color-only.state's case.
                guard snapshot.elements[member].traits.contains(.selected) == referenceSelected,
                    let color = colors[member], color != reference,
                    // Read from pixels, two crops of one colour differ by a shade: only a
                    // clear difference counts, between marks of one shape (the colour covers
                    // about the same share of each).
                    !(fromPixels[member] || fromPixels[first])
                        || (PixelInk.differ(color, reference) && PixelInk.sameShape(shares[member], shares[first])),
                    // Equal keys almost surely mean equal looks; make sure before reporting.
                    VisualSignature(member, in: snapshot, includeText: true)
                        == VisualSignature(first, in: snapshot, includeText: true)
                else { continue }
                reported[member] = true
                let source = fromPixels[member] || fromPixels[first] ? "screenshot" : "declared"
                context.report(
                    ColorOnlyGroupRule.ResultID.colorOnly, element: member,
                    evidence: [
                        (.other, .string(snapshot.node(first).id ?? snapshot.path(of: first)))
                    ] + difference(reference, color) + [(.source, .string(source))])
            }
        }
    }

    mutating func difference(_ first: RGBA, _ second: RGBA) -> Evidence {
        let key = UInt64(first.packed) << 32 | UInt64(second.packed)
        if let known = differences[key] { return known }
        let evidence = ColorDifference.evidence(first, second)
        differences[key] = evidence
        return evidence
    }

    /// 1 for an element that is not a mark — a leaf that draws something in a colour, the
    /// kind of mark colour can distinguish — else the key of its look.
    mutating func key(of index: Int) -> UInt64 {
        if keys[index] != 0 { return keys[index] }
        let element = snapshot.elements[index]
        let mark =
            element.firstChild < 0 && element.isVisible && !element.isHidden && element.role != .window
            && colors[index] != nil
        let key = mark ? VisualSignature(index, in: snapshot, includeText: true).key : 1
        keys[index] = key
        return key
    }
}
