/// `label.duplicate` — distinct sibling targets with the same name: a screen-reader user
/// hears two "Share" buttons and cannot tell them apart; and the same speakable text
/// elsewhere on the screen (Google ATF's DuplicateSpeakableTextCheck).
public enum LabelDuplicateRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "label.duplicate",
        title: "Duplicate labels",
        wcag: ["4.1.2"],
        severity: .warning,
        enabledIn: [.wcag],
        help: """
            Two distinct interactive elements under the same parent should not have the same name \
            (compared ignoring case and surrounding space). Across the whole screen, as ATF checks, the \
            same name said by two or more controls that are not siblings ("Details" eight times on a \
            product grid, "Add to favorites" on every card) is a warning: a screen-reader user cannot \
            tell them apart. A plain text inside a control with no name of its own is that control's \
            name, so it counts as the control; a text inside a control that says a name of its own is \
            never heard, so it does not count. Plain texts repeated without controls ("Yesterday" on \
            several conversations, "Normal" in every row of a status column) are not reported: the row \
            gives the context; nor is a heading or a text that says what one control says. An icon \
            font's private glyph is `label.unreadable`'s. Sibling duplicates are reported on each repeat \
            after the first; a screen-wide group once, as ATF does, on its first control, counting and \
            naming the others. Fix: name each by what it \
            does ("Share photo", "Share album", "Details of the blue kettle"), or merge them.
            """,
        examples: [
            RuleExample(##"<element id="a" role="button" label="Share" frame="0,0,44,44"/><element id="b" role="button" label="share " frame="50,0,44,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="a" role="button" label="Share photo" frame="0,0,44,44"/><element id="b" role="button" label="Share album" frame="50,0,44,44"/>"##),
            RuleExample(
                ##"<element id="c1" role="cell"><element id="a" role="button" label="Remove" frame="0,0,44,44"/></element><element id="c2" role="cell"><element id="b" role="button" label="Remove" frame="0,50,44,44"/></element>"##,
                triggers: ["a"], severity: .warning),
            // Plain texts repeated in rows: the row gives the context.
            RuleExample(##"<element id="a" role="text" text="Total"/><element id="b" role="text" text="Total"/>"##),
            // A text inside a button that says the button's name is the button's.
            RuleExample(##"<element id="b" role="button" label="Pay" frame="0,0,88,44"><element id="t" role="text" text="Pay" frame="10,10,40,20"/></element>"##),
            // A heading that says what its one button says: the button's visible label.
            RuleExample(
                ##"<element id="h" role="text" text="Sign in" traits="header" frame="0,0,300,44"/><element id="c" role="cell"><element id="b" role="button" label="Sign in" frame="0,600,300,44"/></element>"##
            ),
            RuleExample(
                "", triggers: ["d1"], severity: .warning,
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.LinearLayout" package="com.example" bounds="[0,0][540,600]"><node resource-id="d1" class="android.widget.Button" text="Details" package="com.example" clickable="true" enabled="true" bounds="[0,400][540,560]"/></node><node class="android.widget.LinearLayout" package="com.example" bounds="[540,0][1080,600]"><node resource-id="d2" class="android.widget.Button" text="Details" package="com.example" clickable="true" enabled="true" bounds="[540,400][1080,560]"/></node></node></hierarchy>"##
            ),
            // A status column: "Normal" in every row of a list, texts only.
            RuleExample(
                "",
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="androidx.recyclerview.widget.RecyclerView" package="com.example" scrollable="true" bounds="[0,0][1080,2400]"><node class="android.widget.LinearLayout" package="com.example" bounds="[0,0][1080,200]"><node class="android.widget.TextView" text="Pump 1" package="com.example" bounds="[0,0][540,200]"/><node class="android.widget.TextView" text="Normal" package="com.example" bounds="[540,0][1080,200]"/></node><node class="android.widget.LinearLayout" package="com.example" bounds="[0,200][1080,400]"><node class="android.widget.TextView" text="Pump 2" package="com.example" bounds="[0,200][540,400]"/><node class="android.widget.TextView" text="Normal" package="com.example" bounds="[540,200][1080,400]"/></node></node></node></hierarchy>"##
            ),
            // "Add to favorites" on two cards: each said by the clickable 48-dp frame around
            // its icon, which has no name of its own — two controls heard alike.
            RuleExample(
                "", triggers: ["f1"], severity: .warning,
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.LinearLayout" package="com.example" bounds="[0,0][1080,600]"><node class="android.widget.FrameLayout" package="com.example" clickable="true" enabled="true" bounds="[900,0][1080,180]"><node resource-id="f1" class="android.widget.ImageView" content-desc="Add to favorites" package="com.example" bounds="[930,30][1050,150]"/></node></node><node class="android.widget.LinearLayout" package="com.example" bounds="[0,600][1080,1200]"><node class="android.widget.FrameLayout" package="com.example" clickable="true" enabled="true" bounds="[900,600][1080,780]"><node resource-id="f2" class="android.widget.ImageView" content-desc="Add to favorites" package="com.example" bounds="[930,630][1050,750]"/></node></node></node></hierarchy>"##
            ),
            // The same texts inside controls that say names of their own are never heard.
            RuleExample(
                "",
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.LinearLayout" package="com.example" bounds="[0,0][1080,600]"><node class="android.widget.FrameLayout" content-desc="Add Pump 1 to favorites" package="com.example" clickable="true" enabled="true" bounds="[900,0][1080,180]"><node class="android.widget.TextView" text="Add" package="com.example" bounds="[930,30][1050,150]"/></node></node><node class="android.widget.LinearLayout" package="com.example" bounds="[0,600][1080,1200]"><node class="android.widget.FrameLayout" content-desc="Add Pump 2 to favorites" package="com.example" clickable="true" enabled="true" bounds="[900,600][1080,780]"><node class="android.widget.TextView" text="Add" package="com.example" bounds="[930,630][1050,750]"/></node></node></node></hierarchy>"##
            ),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        case duplicate
        case repeated

        public var message: String {
            switch self {
            case .duplicate: "Label \"${label}\" is also used by sibling ${other}"
            case .repeated: "\"${label}\" is said by ${count} elements on this screen: also ${others}"
            }
        }
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
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
                guard
                    LabelText.comparisonKey(snapshot.accessibleNameRef(of: first), of: snapshot)
                        == LabelText.comparisonKey(name, of: snapshot)
                else { continue }
                if element.frame != nil, element.frame == elements[first].frame { continue }
                context.report(
                    ResultID.duplicate, element: child,
                    evidence: [
                        (.label, .optional(snapshot.text(name))),
                        (.other, .string(snapshot.text(elements[first].id) ?? snapshot.path(of: first))),
                    ])
            }
        }
        var reported = [Bool](repeating: false, count: elements.count)
        check(snapshot.roots)
        for parent in elements.indices where elements[parent].firstChild >= 0 {
            if context.outOfBudget() { return }
            // Skip parents with fewer than two targets among their children.
            var targets = 0
            for child in snapshot.childIndices(of: parent) where isTarget(elements[child]) {
                targets += 1
                if targets == 2 { break }
            }
            if targets == 2 { check(snapshot.childIndices(of: parent)) }
        }
        for finding in context.findings { if let element = finding.element { reported[element] = true } }
        if context.outOfBudget() { return }
        reportScreenWide(&context, skipping: reported)
    }

    /// ATF's duplicate speakable text, over the whole screen: every name a screen reader says
    /// (a plain element silenced by its named control is not heard), grouped by its
    /// comparison key; a group is reported when two or more distinct controls say it — an
    /// interactive element, or the control without a name of its own that a plain element
    /// names alone. An element whose nearest spoken ancestor says the same is that
    /// ancestor's.
    static func reportScreenWide(_ context: inout RuleContext<ResultID>, skipping reported: [Bool]) {
        let snapshot = context.snapshot
        let elements = snapshot.elements
        // Every name heard, as (hash of its comparison key, element), sorted: a group is a
        // run of one hash, its members in document order — no table by hash, no list per
        // group (a screen of 100,000 "Details" is one run; most names are said once).
        // Each entry carries what the groups ask of its element (its name, whether it is a
        // control), read here in document order: a group's members lie anywhere in the
        // elements, and reading them again there was a cache miss per member.
        var named: [(hash: UInt64, index: Int32, isControl: Bool, name: TextRef)] = []
        let spokenAncestors = Targets.nearestAncestors(in: snapshot) { elements[$0].isAccessible && elements[$0].isVisible }
        let speaking = SpeakingControls(snapshot)
        // Siblings share their spoken ancestor: its hash is made once for a run of them.
        var lastAncestor = -1
        var lastAncestorHash: UInt64?
        for index in elements.indices {
            if context.outOfBudget() { return }
            let element = elements[index]
            guard element.isAccessible, element.isVisible, !element.isSystemUI, !speaking.isSilenced(index) else { continue }
            let name = snapshot.accessibleNameRef(of: index)
            guard !name.isAbsent, let hash = LabelText.comparisonHash(name, of: snapshot),
                snapshot.texts.withBytes(name, { $0.contains { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || $0 >= 0x80 } })
            else { continue }
            // An icon font's private glyph is label.unreadable's, wherever it repeats.
            if snapshot.texts.withBytes(name, LabelText.holdsPrivateUseGlyph) { continue }
            let ancestor = Int(spokenAncestors[index])
            if ancestor >= 0 {
                if ancestor != lastAncestor {
                    lastAncestor = ancestor
                    lastAncestorHash = LabelText.comparisonHash(snapshot.accessibleNameRef(of: ancestor), of: snapshot)
                }
                if lastAncestorHash == hash { continue }
            }
            named.append((hash, Int32(truncatingIfNeeded: index), SpeakingControls.isControl(element), name))
        }
        named.sort { ($0.hash, $0.index) < ($1.hash, $1.index) }
        // Reused for every group: its members saying the first one's key, and which
        // controls were counted (cleared after each group).
        var same: [(index: Int, isControl: Bool)] = []
        var controls: [Int] = []
        var counted = [Bool](repeating: false, count: elements.count)
        var countedControls: [Int] = []
        var start = 0
        while start < named.count {
            var end = start + 1
            while end < named.count, named[end].hash == named[start].hash { end += 1 }
            defer { start = end }
            guard end - start > 1 else { continue }
            if context.outOfBudget() { return }
            let first = named[start]
            // The same bytes are the same key; only names that differ in case or white
            // space (or a hash collision) have their keys made and compared.
            var key: [UInt8]?
            same.removeAll(keepingCapacity: true)
            same.append((Int(first.index), first.isControl))
            for member in named[(start + 1)..<end] {
                if !snapshot.texts.sameBytes(member.name, first.name) {
                    if key == nil { key = LabelText.comparisonKey(first.name, of: snapshot) }
                    guard LabelText.comparisonKey(member.name, of: snapshot) == key else { continue }
                }
                same.append((Int(member.index), member.isControl))
            }
            // Siblings only, already reported one by one: nothing more to say.
            guard same.count > 1, same.dropFirst().contains(where: { !reported[$0.index] }) else { continue }
            // The controls that say the name: two or more cannot be told apart. Texts alone
            // (a status column, dates on conversations) and a text that repeats one
            // control's name (a heading and its button) are not a finding.
            controls.removeAll(keepingCapacity: true)
            for (member, isControl) in same {
                guard let control = isControl ? member : speaking.control(namedOnlyBy: member),
                    !counted[control]
                else { continue }
                counted[control] = true
                countedControls.append(control)
                controls.append(member)
            }
            for control in countedControls { counted[control] = false }
            countedControls.removeAll(keepingCapacity: true)
            guard controls.count >= 2 else { continue }
            // One finding a group, as ATF reports it: on its first control, naming a few of
            // the others.
            let subject = controls[0]
            var names = ""
            var named = 0
            for (member, _) in same where member != subject {
                if named == 3 { break }
                if named > 0 { names += ", " }
                names += snapshot.text(elements[member].id) ?? snapshot.path(of: member)
                named += 1
            }
            if same.count - 1 > 3 { names += " and \(same.count - 4) more" }
            context.report(
                ResultID.repeated, element: subject,
                evidence: [
                    (.label, .optional(snapshot.text(snapshot.accessibleNameRef(of: subject)))), (.count, .int(same.count)),
                    (.others, .string(names)),
                ])
        }
    }
}
