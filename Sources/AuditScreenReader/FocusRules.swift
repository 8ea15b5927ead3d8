/// Which elements a reader stops at with linear (swipe) navigation.
///
/// TalkBack (its `shouldFocusNode`): a node on screen is a stop when it is focusable —
/// actionable (clickable, long-clickable, focusable, checkable) or a top-level item of a
/// scrolling list — and either has no children on screen or speaks (a text or content
/// description of its own, a checkable role, or non-focusable descendants that speak);
/// a node that is not focusable is a stop when it has text and no focusable ancestor.
///
/// VoiceOver: an accessibility element on screen (`accessible`, else its role's default)
/// with no accessibility element above it — what is inside one is said as part of it,
/// never reached on its own.
///
/// Neither reader stops on the system's UI, another app's window or content painted over
/// by a page above it (the app's transcript leaves them out and the notes count them),
/// nor on what is hidden, invisible or has no area. With a modal open (a view with
/// `accessibilityViewIsModal`, an alert: ``Element/modal``), the reader reaches only the
/// topmost one — the last in document order — and what is inside it: UIKit presents modals
/// at their window's level, where everything else on screen is the modal's sibling.
final class FocusRules {
    let snapshot: Snapshot
    let reader: ScreenReader
    /// On screen and the app's: what a reader can reach at all.
    private(set) var reachable: [Bool]
    /// TalkBack: focusable (actionable, or a top-level list item). VoiceOver: an
    /// accessibility element.
    private(set) var focusable: [Bool]
    /// The nearest focusable ancestor, or -1.
    private(set) var nearestFocusable: [Int32]
    /// TalkBack: a non-focusable descendant with text speaks through this node.
    private(set) var hasSpeakingDescendant: [Bool]
    /// A child that is reachable.
    private(set) var hasReachableChild: [Bool]
    /// TalkBack: a progress indicator inside a ComposeView, which speaks its range (Compose
    /// gives it a state description: "In progress", a percentage) though the dump has none.
    private(set) var speakingProgress: [Bool]
    private(set) var leftOutSystem = 0
    private(set) var leftOutCovered = 0
    /// Elements that speak, outside the topmost open modal.
    private(set) var leftOutBesideModal = 0
    /// With a modal open, whether each element is outside it (and not one of its
    /// ancestors); empty when none is.
    private(set) var besideModal: [Bool] = []

    init(_ snapshot: Snapshot, reader: ScreenReader) {
        self.snapshot = snapshot
        self.reader = reader
        let elements = snapshot.elements
        let count = elements.count
        reachable = [Bool](repeating: false, count: count)
        focusable = [Bool](repeating: false, count: count)
        nearestFocusable = [Int32](repeating: -1, count: count)
        hasSpeakingDescendant = [Bool](repeating: false, count: count)
        hasReachableChild = [Bool](repeating: false, count: count)
        speakingProgress = [Bool](repeating: false, count: count)
        if reader == .talkback {
            var composed = [Bool](repeating: false, count: count)
            for index in 0..<count {
                let parent = Int(elements[index].parent)
                composed[index] = elements[index].ordersByPosition || (parent >= 0 && composed[parent])
                speakingProgress[index] = composed[index] && elements[index].role == .progress
            }
        }
        for index in 0..<count {
            let element = elements[index]
            let parent = Int(element.parent)
            guard element.isVisible, !element.isHidden, let frame = element.frame, frame.width > 0, frame.height > 0 else { continue }
            if element.isSystemUI {
                if Self.speaks(element, snapshot) { leftOutSystem += 1 }
                continue
            }
            if element.covered {
                if Self.speaks(element, snapshot) { leftOutCovered += 1 }
                continue
            }
            reachable[index] = true
            if parent >= 0 { hasReachableChild[parent] = true }
        }
        confineToTopmostModal()
        for index in 0..<count {
            let parent = Int(elements[index].parent)
            if parent >= 0 { nearestFocusable[index] = focusable[parent] ? Int32(parent) : nearestFocusable[parent] }
            guard reachable[index] else { continue }
            focusable[index] = isFocusable(index)
        }
        if reader == .talkback {
            // TalkBack's `isSpeakingNode`: a non-focusable descendant with text, or checkable.
            for index in 0..<count
            where reachable[index] && !focusable[index] && !elements[index].unimportant && (speaks(index) || Self.checkable(elements[index])) {
                let owner = Int(nearestFocusable[index])
                if owner >= 0 { hasSpeakingDescendant[owner] = true }
            }
        }
    }

    /// With a modal open, what is outside the topmost one (and is not one of its ancestors)
    /// is out of the reader's reach.
    private func confineToTopmostModal() {
        let elements = snapshot.elements
        guard let modal = elements.indices.last(where: { reachable[$0] && elements[$0].modal == true }) else { return }
        var end = modal + 1
        while end < elements.count, elements[end].depth > elements[modal].depth { end += 1 }
        var ancestors = Set<Int>()
        var ancestor = Int(elements[modal].parent)
        while ancestor >= 0 {
            ancestors.insert(ancestor)
            ancestor = Int(elements[ancestor].parent)
        }
        besideModal = [Bool](repeating: false, count: elements.count)
        for index in elements.indices where !(modal..<end).contains(index) && !ancestors.contains(index) {
            besideModal[index] = true
            guard reachable[index] else { continue }
            reachable[index] = false
            if Self.speaks(elements[index], snapshot) { leftOutBesideModal += 1 }
        }
        // Only what is inside the modal (or on its way up) keeps reachable children.
        for index in hasReachableChild.indices { hasReachableChild[index] = false }
        for index in elements.indices where reachable[index] {
            let parent = Int(elements[index].parent)
            if parent >= 0 { hasReachableChild[parent] = true }
        }
    }

    /// Says something of its own: ``speaks(_:_:)``, or a Compose progress indicator's range.
    func speaks(_ index: Int) -> Bool {
        speakingProgress[index] || Self.speaks(snapshot.elements[index], snapshot)
    }

    /// A text, a content description / accessibility label, or a hint (an empty field's
    /// placeholder: TalkBack's `hasText` counts it) of its own.
    static func speaks(_ element: Element, _ snapshot: Snapshot) -> Bool {
        !snapshot.texts.isBlank(element.label) || !snapshot.texts.isBlank(element.text) || !snapshot.texts.isBlank(element.placeholder)
    }

    private func isFocusable(_ index: Int) -> Bool {
        let element = snapshot.elements[index]
        switch reader {
        case .talkback:
            // Never a node TalkBack's tree leaves out for the capture says so (a clickable
            // scrim marked not important included), nor one with children that spans its window.
            if element.unimportant || spansItsWindow(index) { return false }
            if isActionable(element) { return true }
            // A top-level item of a list, grid or scroll view (scrolling or not: everything
            // may fit) that speaks: TalkBack visits rows that cannot act (their speaking
            // descendants are known once every node is read, so a silent row is dropped in
            // `isStop`).
            // TalkBack's tree leaves out what is not important for accessibility: such a
            // node is no item, and the items of a list are counted past one (its children
            // are the list's in TalkBack's tree).
            guard element.scrollAxes.isEmpty, !isLeftOutOfTalkBacksTree(index) else { return false }
            var parent = Int(element.parent)
            while parent >= 0, isLeftOutOfTalkBacksTree(parent) { parent = Int(snapshot.elements[parent].parent) }
            guard parent >= 0 else { return false }
            return !snapshot.elements[parent].scrollAxes.isEmpty || snapshot.elements[parent].holdsItems
        case .voiceover:
            // A scroll view holds elements; it is not one unless it is labelled — or the
            // capture says it is one and it holds nothing (an empty React Native or Flutter
            // scroll view XCUITest reports accessible: VoiceOver lands on it, silent).
            if !element.scrollAxes.isEmpty, snapshot.texts.isBlank(element.label), !(element.accessible == true && element.firstChild < 0) {
                return false
            }
            // A cell the capture does not call an element, with no label or action of its
            // own, holds elements (its text, its switch) rather than being one — but a
            // table's cell, which VoiceOver reads as one, its texts in order.
            if element.role == .cell, !element.tableCell, element.accessible == nil, snapshot.texts.isBlank(element.label), !element.isInteractive {
                return false
            }
            return element.isAccessible
        }
    }

    /// Not in TalkBack's tree (its children stand in its place): what the capture says is not
    /// important for accessibility (UiAutomator2's `a11y-important="false"`), and — where it
    /// does not say — a plain layout, which Android counts as not important (`importantForAccessibility`
    /// "auto"): no text, no description, nothing actionable or checkable, no scrolling, no list.
    func isLeftOutOfTalkBacksTree(_ index: Int) -> Bool {
        let element = snapshot.elements[index]
        if element.unimportant { return true }
        // Where the capture says it is important (UiAutomator2's `a11y-important="true"`),
        // it is in the tree, flags or not.
        if element.accessible == true { return false }
        // A list's row (a cell) stays: ListView, GridView and RecyclerView make every item
        // view important (`AbsListView.obtainView`, RecyclerView's
        // `attachAccessibilityDelegateOnBind` with a screen reader on).
        guard element.role == .container || element.role == .other else { return false }
        return !isActionable(element) && !Self.checkable(element) && !Self.speaks(element, snapshot) && element.scrollAxes.isEmpty
            && !element.holdsItems
    }

    /// A node with children whose frame is its window's (its root's): TalkBack never focuses
    /// one (`shouldFocusNode` rejects "non-leaf nodes that have the same bounds as the window").
    func spansItsWindow(_ index: Int) -> Bool {
        let elements = snapshot.elements
        guard elements[index].firstChild >= 0, let frame = elements[index].frame else { return false }
        var root = index
        while elements[root].parent >= 0 { root = Int(elements[root].parent) }
        guard root != index || elements[index].parent < 0, let window = elements[root].frame else { return false }
        return abs(frame.minX - window.minX) < 0.5 && abs(frame.minY - window.minY) < 0.5 && abs(frame.width - window.width) < 0.5
            && abs(frame.height - window.height) < 0.5
    }

    /// Clickable, long-clickable or focusable (TalkBack's `isActionableForAccessibility`; a
    /// checkable node that is none of these is not, though it speaks).
    func isActionable(_ element: Element) -> Bool {
        element.isInteractive || element.focusable == true
    }

    static func checkable(_ element: Element) -> Bool {
        element.checked != nil || element.role == .switch || element.role == .checkbox || element.role == .radio
    }

    /// Whether element `index` is a stop of linear navigation.
    func isStop(_ index: Int) -> Bool {
        guard reachable[index] else { return false }
        let element = snapshot.elements[index]
        switch reader {
        case .talkback:
            if focusable[index] {
                // A list speaks no text of its own: its rows do (collection info).
                let speaking =
                    speaks(index) || Self.checkable(element) || (hasSpeakingDescendant[index] && !element.holdsItems)
                // An actionable leaf is a stop even when silent; a list row only when it speaks.
                if !hasReachableChild[index] { return speaking || isActionable(element) }
                return speaking
            }
            return nearestFocusable[index] < 0 && speaks(index) && !spansItsWindow(index) && !element.unimportant
        case .voiceover:
            return focusable[index] && nearestFocusable[index] < 0
        }
    }
}
