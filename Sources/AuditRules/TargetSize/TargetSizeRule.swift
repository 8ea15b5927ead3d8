/// `target-size` — WCAG 2.5.8 (24 × 24 with its spacing exception) and the platform
/// minimums (Apple 44 pt, Material 48 dp; WCAG 2.5.5 asks 44).
public enum TargetSizeRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "target-size",
        title: "Touch target size",
        wcag: ["2.5.8"],
        severity: .error,
        enabledIn: [.wcag],
        help: """
            Targets must be at least 24 × 24 points (WCAG 2.5.8), unless a 24-point circle centred on the \
            target does not intersect another target or another undersized target's circle. Platforms ask \
            more: 44 × 44 pt on iOS (Human Interface Guidelines), 48 × 48 dp on Android (Material); rule \
            sets give that as `platform-minimum`, reported at `platform-severity` and citing the guideline, \
            not a WCAG criterion; against the screen's edge a dimension may be smaller \
            (`platform-edge-minimum`, 32 dp on Android as in Google's ATF). Judged in context, as ATF does: \
            a target inside a clickable ancestor that meets the size is a `notice` where the hierarchy \
            shows the ancestor takes the same tap (it names the control, or a switch is the row's only \
            control), and otherwise an error becomes a warning naming the ancestor; a target cut off by the edge of \
            its scrolling container or by the screen, in every dimension where it is small, is incomplete — \
            its full size is not in the capture (one that fills its container in that dimension, a tab \
            of a strip as tall as it, is not cut there; every scrolling ancestor is asked, and one that \
            does not say which way it scrolls is read from its children's layout: side by side, across; \
            stacked, down); one small in a whole dimension is small for certain against that threshold, \
            with `cut` naming the other (2.5.8 is not judged on it: its spacing is measured from a centre \
            the capture cuts). Keys of the system keyboard, system bars, scroll \
            indicators and another app's window over it (Android: nodes of a package other than the \
            one most nodes belong to) are not the app's: left out, and counted; so is a toggle's inner \
            knob (part of the named control around it). The `hit-frame` wins over the `frame`. Only \
            interactive, visible, enabled elements count; links inside text are exempt. Fix: enlarge \
            the target or its hit area.
            """,
        examples: [
            RuleExample(
                ##"<element id="a" role="button" label="Back" frame="10,10,20,20"/><element id="b" role="button" label="Close" frame="32,10,20,20"/>"##, triggers: ["a", "b"]),
            RuleExample(##"<element id="b" role="button" label="Close" frame="10,10,20,20"/>"##),
            RuleExample(##"<element id="b" role="button" label="Close" frame="10,10,20,20" hit-frame="0,0,44,44"/>"##),
            RuleExample(##"<element id="b" role="button" label="Close" frame="10,10,24,24"/>"##),
            RuleExample(##"<element id="a" role="button" label="A" frame="100,100,16,16"/><element id="b" role="button" label="B" frame="300,300,16,16"/>"##),
            RuleExample(
                ##"<element id="a" role="button" label="A" frame="100,100,16,16"/><element id="b" role="button" label="B" frame="118,100,16,16"/>"##, triggers: ["a", "b"]),
            RuleExample(##"<element id="b" role="button" label="Close" frame="10,10,20,20"/>"##, triggers: ["b"], overrides: [Parameter.spacingException.set(false)]),
            RuleExample(##"<element id="b" role="button" label="Close" frame="10,10,32,32"/>"##, triggers: ["b"], overrides: [Parameter.platformMinimum.set(44)]),
            RuleExample(##"<element id="b" role="button" label="Close" frame="10,10,20,20" enabled="false"/>"##),
            RuleExample(##"<element id="t" role="text" text="Read the terms"><element id="l" role="link" text="terms" frame="60,10,30,14"/></element>"##),
            RuleExample(##"<element id="x" role="text" text="Not a target" frame="10,10,10,10"/>"##),
            // The system keyboard's keys are the system's: left out (and counted).
            RuleExample(
                "", overrides: [Parameter.platformMinimum.set(44)],
                document:
                    ##"<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" x="0" y="0" width="390" height="844"><XCUIElementTypeKeyboard type="XCUIElementTypeKeyboard" x="0" y="500" width="390" height="344"><XCUIElementTypeKey type="XCUIElementTypeKey" name="q" label="q" x="3" y="510" width="20" height="40" enabled="true" visible="true" accessible="true"/></XCUIElementTypeKeyboard></XCUIElementTypeApplication></AppiumAUT>"##
            ),
            // Android: a disabled container does not disable its children (each states its own).
            RuleExample(
                "", triggers: ["close"], overrides: [Parameter.platformMinimum.set(48)],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" enabled="false" bounds="[0,0][1080,2400]"><node resource-id="close" class="android.widget.ImageButton" content-desc="Close" package="com.example" clickable="true" enabled="true" bounds="[10,10][50,50]"/></node></hierarchy>"##
            ),
            // Android: the IME's keys are another package's window.
            RuleExample(
                "", overrides: [Parameter.platformMinimum.set(48)],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.google.android.inputmethod.latin" bounds="[0,1600][1080,2400]"><node resource-id="key_q" class="android.widget.Button" content-desc="q" package="com.google.android.inputmethod.latin" clickable="true" enabled="true" bounds="[10,1700][50,1760]"/></node></hierarchy>"##
            ),
            // Android: a floating window of another package over the app is not the app's.
            RuleExample(
                "", overrides: [Parameter.platformMinimum.set(48)],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.other.bubbles" bounds="[900,100][1000,200]"><node resource-id="head" class="android.widget.ImageView" content-desc="Chat" package="com.other.bubbles" clickable="true" enabled="true" bounds="[900,100][960,160]"/></node><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.LinearLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="ok" class="android.widget.Button" text="OK" package="com.example" clickable="true" enabled="true" bounds="[40,400][1040,560]"/></node></node></hierarchy>"##
            ),
            // A switch inside a clickable settings row that meets the size: a notice.
            RuleExample(
                ##"<element id="row" role="cell" interactive="true" label="Wi-Fi" frame="0,100,390,60"><element id="s" role="switch" label="Wi-Fi" frame="330,118,40,22"/></element>"##,
                triggers: ["s"], overrides: [Parameter.platformMinimum.set(44)], severity: .notice),
            RuleExample(
                "", triggers: ["wifi"], overrides: [Parameter.platformMinimum.set(48)], severity: .notice,
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.LinearLayout" package="com.example" clickable="true" enabled="true" bounds="[0,300][1080,468]"><node resource-id="wifi" class="android.widget.Switch" package="com.example" checkable="true" clickable="true" enabled="true" bounds="[900,350][1010,416]"/></node></node></hierarchy>"##
            ),
            // A control of its own inside a clickable row: ATF's demotion, error to warning.
            RuleExample(
                ##"<element id="row" role="cell" interactive="true" label="Buy milk" frame="0,100,390,60"><element id="star" role="button" label="Star" frame="340,120,20,20"/><element id="more" role="button" label="More" frame="362,120,20,20"/></element>"##,
                triggers: ["star", "more"], severity: .warning),
            // Against the screen's edge 32 dp is enough in that dimension (ATF).
            RuleExample(
                "", overrides: [Parameter.platformMinimum.set(48), Parameter.platformEdgeMinimum.set(32)],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="edge" class="android.widget.ImageButton" content-desc="Menu" package="com.example" clickable="true" enabled="true" bounds="[0,400][100,526]"/></node></hierarchy>"##
            ),
            RuleExample(
                "", triggers: ["inner"], overrides: [Parameter.platformMinimum.set(48), Parameter.platformEdgeMinimum.set(32)],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="inner" class="android.widget.ImageButton" content-desc="Menu" package="com.example" clickable="true" enabled="true" bounds="[10,400][110,526]"/></node></hierarchy>"##
            ),
            // A row cut off by its list's edge: its full size is unknown (incomplete, no finding).
            RuleExample(
                "", incomplete: ["row"], overrides: [Parameter.platformMinimum.set(48)],
                document:
                    ##"<hierarchy rotation="0"><node class="androidx.recyclerview.widget.RecyclerView" package="com.example" scrollable="true" bounds="[0,200][1080,2000]"><node resource-id="row" class="android.widget.Button" text="Last order" package="com.example" clickable="true" enabled="true" bounds="[0,1960][1080,2000]"/></node></hierarchy>"##
            ),
            // A strip of tabs as tall as they are (an obfuscated scroller: either axis): the
            // tabs are not cut in their height and are judged; the last, cut at the strip's
            // right edge, is as short in its whole height as the first: small for certain
            // (Xiaohongshu's home tabs).
            RuleExample(
                "", triggers: ["tab-1", "tab-2"], overrides: [Parameter.platformMinimum.set(48)],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.view.ViewGroup" package="com.example" scrollable="true" bounds="[0,220][997,330]"><node resource-id="tab-1" class="android.widget.FrameLayout" text="Live" package="com.example" clickable="true" enabled="true" bounds="[0,220][150,330]"/><node resource-id="tab-2" class="android.widget.FrameLayout" text="Anime" package="com.example" clickable="true" enabled="true" bounds="[900,220][997,330]"/></node></node></hierarchy>"##
            ),
            // A RecyclerView whose cards lie side by side scrolls across: a 40-dp-tall row at
            // a card's foot touching the strip's bottom is not cut in its height and is judged
            // (Spoon's live cards) …
            RuleExample(
                "", triggers: ["meta"], overrides: [Parameter.platformMinimum.set(48)],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="androidx.recyclerview.widget.RecyclerView" package="com.example" scrollable="true" bounds="[0,1165][1080,1741]"><node class="android.view.ViewGroup" package="com.example" bounds="[42,1165][436,1741]"><node resource-id="meta" class="android.view.ViewGroup" text="Host" package="com.example" clickable="true" enabled="true" bounds="[42,1636][436,1741]"/></node><node class="android.view.ViewGroup" package="com.example" bounds="[468,1165][862,1741]"/></node></node></hierarchy>"##
            ),
            // … but the page that scrolls the strip down may cut it, when the strip ends at the
            // page's edge.
            RuleExample(
                "", incomplete: ["meta"], overrides: [Parameter.platformMinimum.set(48)],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.ScrollView" package="com.example" scrollable="true" bounds="[0,0][1080,1741]"><node class="androidx.recyclerview.widget.RecyclerView" package="com.example" scrollable="true" bounds="[0,1165][1080,1741]"><node class="android.view.ViewGroup" package="com.example" bounds="[42,1165][436,1741]"><node resource-id="meta" class="android.view.ViewGroup" text="Host" package="com.example" clickable="true" enabled="true" bounds="[42,1636][436,1741]"/></node><node class="android.view.ViewGroup" package="com.example" bounds="[468,1165][862,1741]"/></node></node></node></hierarchy>"##
            ),
            // A chip short in both dimensions at the end of a strip that scrolls across: its
            // width may be cut, but its height is whole and too small — small for certain.
            RuleExample(
                "", triggers: ["chip"], overrides: [Parameter.platformMinimum.set(48)],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.HorizontalScrollView" package="com.example" scrollable="true" bounds="[0,400][1080,600]"><node class="android.widget.LinearLayout" package="com.example" bounds="[0,400][1080,600]"><node resource-id="chip" class="android.widget.Button" text="More" package="com.example" clickable="true" enabled="true" bounds="[960,450][1080,550]"/></node></node></node></hierarchy>"##
            ),
            RuleExample(
                ##"<element id="list" role="container" scrollable="true" frame="0,100,390,600"><element id="cut" role="button" label="Row" frame="0,690,390,10"/></element>"##,
                incomplete: ["cut"]),
            // Past the screen's edge in its small width: in doubt. Small in its whole height
            // too: small for certain.
            RuleExample(##"<element id="half" role="button" label="Next" frame="380,400,20,40"/>"##, incomplete: ["half"], overrides: [Parameter.spacingException.set(false)]),
            RuleExample(##"<element id="half" role="button" label="Next" frame="380,400,20,20"/>"##, triggers: ["half"], overrides: [Parameter.spacingException.set(false)]),
            // Wholly below the screen (further down a list): measured whole.
            RuleExample(##"<element id="below" role="button" label="Next" frame="20,1200,20,20"/>"##, triggers: ["below"], overrides: [Parameter.spacingException.set(false)]),
            // A SwiftUI toggle's knob is part of the named switch, not a second target.
            RuleExample(
                "", overrides: [Parameter.platformMinimum.set(44)],
                document:
                    ##"<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="App" x="0" y="0" width="390" height="844"><XCUIElementTypeSwitch type="XCUIElementTypeSwitch" name="Wi-Fi" label="Wi-Fi" value="1" x="16" y="100" width="358" height="44" enabled="true" visible="true" accessible="true"><XCUIElementTypeSwitch type="XCUIElementTypeSwitch" value="1" x="310" y="106" width="51" height="31" enabled="true" visible="true" accessible="false"/></XCUIElementTypeSwitch></XCUIElementTypeApplication></AppiumAUT>"##
            ),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        /// The evidence its findings carry beyond the keys its messages name.
        public static let moreEvidence: [EvidenceKey] = [.clickableAncestor, .conflictsWith, .cut, .edgeMinimum, .guideline, .severityReason, .source]

        case tooSmall = "too-small"
        case belowPlatformMinimum = "below-platform-minimum"
        case insideClickableAncestor = "inside-clickable-ancestor"

        public var message: String {
            switch self {
            case .tooSmall: "Target ${width}×${height} ${unit} is smaller than ${required}×${required} ${unit} (WCAG 2.5.8)"
            case .belowPlatformMinimum: "Target ${width}×${height} ${unit} is smaller than the platform's ${required}×${required} ${unit}"
            case .insideClickableAncestor:
                "Target ${width}×${height} ${unit} is smaller than ${required}×${required} ${unit}, but ${ancestor} around it (${ancestor-size} ${unit}) takes the tap if it does the same"
            }
        }
    }

    public typealias Parameters = Parameter

    /// The parameters rule sets may give this rule, with their defaults.
    @dynamicMemberLookup
    public struct Parameter: RuleParameters {
        public init() {}

        public let minimum = RuleParameter<Double>("minimum", default: 24, help: "WCAG 2.5.8 minimum in points")
        public let platformMinimum = RuleParameter<Double>("platform-minimum", default: 0, help: "platform minimum in points (0: none)")
        public let platformEdgeMinimum = RuleParameter<Double>(
            "platform-edge-minimum", default: 0,
            help: "platform minimum of a dimension against the screen's edge (0: the platform minimum)")
        public let platformSeverity = RuleParameter<Severity>("platform-severity", default: .warning, help: "severity below the platform minimum")
        public let spacingException = RuleParameter<Bool>("spacing-exception", default: true, help: "apply 2.5.8's spacing exception")
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        let minimum = context[Parameter.minimum]
        let platformMinimum = context[Parameter.platformMinimum]
        let edgeMinimum = context[Parameter.platformEdgeMinimum]
        let platformSeverity = context[Parameter.platformSeverity]
        let spacingException = context[Parameter.spacingException]
        let unit = snapshot.platform.sizeUnit
        let targets = Targets.all(in: snapshot)
        // The size each dimension must reach on the platform: less against the screen's edge.
        func platformRequired(_ frame: Rect) -> (width: Double, height: Double) {
            guard platformMinimum > 0 else { return (0, 0) }
            guard edgeMinimum > 0 else { return (platformMinimum, platformMinimum) }
            let tolerance = 0.5
            let side = snapshot.width.map { frame.minX <= tolerance || frame.maxX >= $0 - tolerance } ?? false
            let end = snapshot.height.map { frame.minY <= tolerance || frame.maxY >= $0 - tolerance } ?? false
            return (side ? min(edgeMinimum, platformMinimum) : platformMinimum, end ? min(edgeMinimum, platformMinimum) : platformMinimum)
        }
        let small = targets.filter { target in
            let required = platformRequired(target.frame)
            return target.frame.width < max(minimum, required.width) || target.frame.height < max(minimum, required.height)
        }
        guard !small.isEmpty else { return reportSystemUI(in: snapshot, &context) }
        // Which elements are undersized targets, by element index (a set hashed every index
        // each spacing check met).
        var undersized = [Bool](repeating: false, count: snapshot.elements.count)
        var anyUndersized = false
        for target in targets where target.frame.width < minimum || target.frame.height < minimum {
            undersized[target.index] = true
            anyUndersized = true
        }
        // Index of all targets, for the spacing exception; only needed when something is small.
        let needsIndex = anyUndersized && spacingException
        let ends = Targets.subtreeEnds(in: snapshot)
        let index = needsIndex ? Targets.index(targets, ends: ends) : RectIndex([])
        let targetPositions = targets.map(\.index)
        // Context, each computed once for the whole tree: the scrolling container that may
        // cut a target off, and a clickable ancestor big enough to take its tap.
        let scrollers = Targets.nearestAncestors(in: snapshot) { !snapshot.elements[$0].scrollAxes.isEmpty }
        let ancestorSize = platformMinimum > 0 ? max(platformMinimum, minimum) : minimum
        let clickableAncestors = Targets.nearestAncestors(in: snapshot) { candidate in
            let element = snapshot.elements[candidate]
            guard element.isInteractive, element.isVisible, element.isEnabled, !element.isSystemUI,
                let frame = element.touchFrame
            else { return false }
            return frame.width >= ancestorSize && frame.height >= ancestorSize
        }

        for target in small {
            if context.outOfBudget() { return }
            let frame = target.frame
            let required = platformRequired(frame)
            let short = (width: frame.width < max(minimum, required.width), height: frame.height < max(minimum, required.height))
            let cuts = Targets.cuts(of: frame, short: short, target: target.index, scrollers: scrollers, in: snapshot)
            // Each threshold is judged where a dimension short of it is whole: a chip 40 dp high
            // at the end of a strip that scrolls across is below 48 dp for certain, whatever
            // its width. WCAG's spacing exception measures from the target's centre, which a
            // cut frame does not give: a partly cut target is not judged against 2.5.8.
            let partial = cuts.width != nil || cuts.height != nil
            func wholeAndShort(_ width: Bool, _ height: Bool) -> Bool { (width && cuts.width == nil) || (height && cuts.height == nil) }
            let undersizedTarget =
                wholeAndShort(frame.width < minimum, frame.height < minimum) && !(partial && spacingException)
            let belowPlatform =
                platformMinimum > 0 && wholeAndShort(frame.width < required.width, frame.height < required.height)
            if partial, !undersizedTarget, !belowPlatform, let clipping = cuts.doubt ?? cuts.width ?? cuts.height {
                let size = "\(frame.width.formattedForReport)×\(frame.height.formattedForReport) \(unit)"
                switch clipping {
                case .screen:
                    context.cannotJudge("target \(size) runs past the screen's edge: its full size is not in the capture", element: target.index)
                case .scrollingAncestor(let scroller):
                    let name = snapshot.node(scroller).id ?? snapshot.path(of: scroller)
                    context.cannotJudge(
                        "target \(size) touches the edge of the scrolling \(name), which may cut it off: its full size is not in the capture",
                        element: target.index)
                }
                continue
            }
            let source = snapshot.elements[target.index].hitFrame != nil ? "hit-frame" : "frame"
            // One small dimension may be cut, the other is whole and small: the finding stands
            // on the whole one, and says so.
            var partlyCut: Evidence = []
            if let cut = cuts.width ?? cuts.height {
                let dimension = cuts.width != nil ? "width" : "height"
                let edge: String
                switch cut {
                case .screen: edge = "the screen's edge"
                case .scrollingAncestor(let scroller): edge = "the edge of the scrolling \(snapshot.node(scroller).id ?? snapshot.path(of: scroller))"
                }
                let whole = cuts.width != nil ? "height" : "width"
                partlyCut = [(.cut, .string("its \(dimension) may be cut by \(edge); its whole \(whole) decides"))]
            }
            var ancestor = Int(clickableAncestors[target.index])
            if ancestor >= 0, let outer = snapshot.elements[ancestor].touchFrame, outer.contains(x: frame.midX, y: frame.midY) {
                // ATF's clickable ancestor: the row may handle the tap for its small control.
                // Where the hierarchy shows it does the same (the row names the control, or a
                // switch is the row's only control), a notice; else ATF's demotion of an
                // error to a warning, with the ancestor named.
                if handlesSameTap(target.index, ancestor: ancestor, snapshot: snapshot, ends: ends, targets: targetPositions) {
                    let name = snapshot.node(ancestor).id ?? snapshot.path(of: ancestor)
                    context.report(
                        ResultID.insideClickableAncestor, element: target.index,
                        evidence: [
                            (.width, .number(frame.width)), (.height, .number(frame.height)), (.unit, .string(unit)),
                            (.required, .number(belowPlatform ? platformMinimum : minimum)), (.source, .string(source)),
                            (.ancestor, .string(name)),
                            (.ancestorSize, .string("\(outer.width.formattedForReport)×\(outer.height.formattedForReport)")),
                        ] + partlyCut + [
                            (
                                .severityReason,
                                .string(
                                    "WCAG 2.5.8's equivalent exception: \(name), \(outer.width.formattedForReport)×\(outer.height.formattedForReport) \(unit), takes the same tap"
                                )
                            )
                        ], severity: .notice)
                    continue
                }
            } else {
                ancestor = -1
            }
            if undersizedTarget {
                var evidence: Evidence =
                    [
                        (.width, .number(frame.width)), (.height, .number(frame.height)), (.unit, .string(unit)),
                        (.required, .number(minimum)), (.source, .string(source)),
                    ] + partlyCut
                let clear =
                    spacingException
                    && spacingIsClear(
                        target.index, frame, minimum: minimum, index: index, ends: ends,
                        undersized: undersized, snapshot: snapshot, evidence: &evidence)
                if !clear {
                    if ancestor >= 0 {
                        let name = snapshot.node(ancestor).id ?? snapshot.path(of: ancestor)
                        evidence.append((.clickableAncestor, .string(name)))
                        evidence.append(
                            (
                                .severityReason,
                                .string(
                                    "\(name), large enough, may take the tap (ATF's clickable ancestor); the capture does not show it does the same, so WCAG 2.5.8's equivalent exception is not certain"
                                )
                            ))
                        context.report(
                            ResultID.tooSmall, element: target.index, evidence: evidence,
                            severity: min(context.severity, .warning))
                    } else {
                        context.report(ResultID.tooSmall, element: target.index, evidence: evidence)
                    }
                    continue
                }
            }
            if belowPlatform {
                // A platform guideline, not a WCAG criterion (2.5.5's 44 CSS px is AAA and
                // another unit): the finding names the guideline.
                var evidence: Evidence =
                    [
                        (.width, .number(frame.width)), (.height, .number(frame.height)), (.unit, .string(unit)),
                        (.required, .number(platformMinimum)), (.source, .string(source)),
                        (.guideline, .string(guideline(for: snapshot.platform))),
                    ] + partlyCut
                if required.width < platformMinimum || required.height < platformMinimum {
                    evidence.append((.edgeMinimum, .number(min(required.width, required.height))))
                }
                context.report(ResultID.belowPlatformMinimum, element: target.index, evidence: evidence, severity: platformSeverity, wcag: [])
            }
        }
        reportSystemUI(in: snapshot, &context)
    }

    /// True when the hierarchy shows that `ancestor` takes the same tap as the small target
    /// inside it: the ancestor's name (or, without one, the text inside it) contains the
    /// target's name, or the target is a switch, checkbox or radio button and the only
    /// target inside the ancestor (a settings row and its switch).
    static func handlesSameTap(_ index: Int, ancestor: Int, snapshot: Snapshot, ends: [Int], targets: [Int]) -> Bool {
        let role = snapshot.elements[index].role
        if role == .switch || role == .checkbox || role == .radio {
            // Targets are in document order: those inside the ancestor are one range.
            let first = firstIndex(in: targets) { $0 > ancestor }
            let last = firstIndex(in: targets) { $0 >= ends[ancestor] }
            if last - first == 1 { return true }
        }
        guard let name = snapshot.node(index).accessibleName?.lowercased(), !name.isEmpty else { return false }
        if let outer = snapshot.node(ancestor).accessibleName?.lowercased() { return outer.contains(name) }
        // The text drawn inside the ancestor but outside the target, read up to 64 elements in.
        var inside = ""
        for position in (ancestor + 1)..<min(ends[ancestor], ancestor + 65) where !(index..<ends[index]).contains(position) {
            if let text = snapshot.node(position).visibleText { inside += text.lowercased() + " " }
        }
        return inside.contains(name)
    }

    /// The first position in the sorted `values` where `isAbove` holds (binary search).
    static func firstIndex(in values: [Int], where isAbove: (Int) -> Bool) -> Int {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if isAbove(values[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Says how many targets of the system's UI were left out, when there were any.
    static func reportSystemUI(in snapshot: Snapshot, _ context: inout RuleContext<ResultID>) {
        let system = Targets.systemUICount(in: snapshot)
        if system > 0 {
            context.cannotJudge("\(system) targets that are not the app's (the system keyboard, system bars, scroll indicators, another app's window) left out")
        }
    }

    /// The guideline a platform minimum comes from.
    static func guideline(for platform: Platform) -> String {
        switch platform {
        case .ios: "Apple Human Interface Guidelines (44 × 44 pt)"
        case .android: "Material Design (48 × 48 dp)"
        case .web, .other: "the platform's minimum"
        }
    }

    /// WCAG 2.5.8's exception: a circle of diameter `minimum` centred on the target's
    /// bounding box intersects no other target and no other undersized target's circle.
    /// Nested targets (a control inside an interactive cell) are one target for this
    /// purpose: only earlier non-ancestors and later non-descendants are searched.
    static func spacingIsClear(
        _ position: Int, _ frame: Rect, minimum: Double, index: RectIndex, ends: [Int], undersized: [Bool],
        snapshot: Snapshot, evidence: inout Evidence
    ) -> Bool {
        let radius = minimum / 2
        let center = (x: frame.midX, y: frame.midY)
        let reach = Rect(x: center.x - minimum, y: center.y - minimum, width: minimum * 2, height: minimum * 2)
        let end = ends[position]
        let conflict = index.first(meeting: reach, branch: { summary in summary.minEnd <= position || summary.maxIndex >= end }) { other in
            guard other.index != position, other.end <= position || other.index >= end else { return false }
            let otherFrame = other.rect
            let nearestX = min(max(center.x, otherFrame.minX), otherFrame.maxX)
            let nearestY = min(max(center.y, otherFrame.minY), otherFrame.maxY)
            let distanceToRect = ((nearestX - center.x) * (nearestX - center.x) + (nearestY - center.y) * (nearestY - center.y)).squareRoot()
            if distanceToRect < radius { return true }
            guard undersized[other.index] else { return false }
            let dx = otherFrame.midX - center.x, dy = otherFrame.midY - center.y
            return (dx * dx + dy * dy).squareRoot() < minimum
        }
        guard let conflict else { return true }
        evidence.append((.conflictsWith, .optional(snapshot.node(conflict.index).id ?? snapshot.path(of: conflict.index))))
        return false
    }
}
