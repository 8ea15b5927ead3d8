/// Tabs the readers announce as tabs though the capture gives them no tab role: a tab's
/// position in its label ("Home, tab, 1 of 4" — React Navigation's bottom tab bar; Flutter's
/// "Tab 2 of 5"), an item of Material's bottom navigation (`…:id/navigation_bar_item_…`, a
/// `BottomNavigationItemView`), or a clickable item inside a tab bar (`TabLayout`,
/// `BottomNavigationView`, `NavigationBarView`, `TabWidget`, XCUITest's `TabBar`).
public enum TabItems {
    /// Whether element `index` is a tab to its reader.
    public static func isTab(_ index: Int, in snapshot: Snapshot) -> Bool {
        let element = snapshot.elements[index]
        if element.role == .tab { return true }
        for ref in [element.label, element.text] where !snapshot.texts.isBlank(ref) {
            if let text = snapshot.texts.string(ref), saysTabPosition(text) { return true }
        }
        if snapshot.texts.withBytes(element.id, { contains($0, "navigation_bar_item") || contains($0, "bottom_navigation_item") }) {
            return true
        }
        if snapshot.texts.withBytes(element.typeName, { ends($0, "NavigationItemView") || ends($0, "NavigationBarItemView") }) { return true }
        // An item of a tab bar: within three levels of one.
        var current = Int(element.parent)
        var steps = 0
        while current >= 0, steps < 3 {
            if snapshot.texts.withBytes(
                snapshot.elements[current].typeName,
                { type in
                    ends(type, "TabLayout") || ends(type, "BottomNavigationView") || ends(type, "NavigationBarView")
                        || ends(type, "TabWidget") || ends(type, "XCUIElementTypeTabBar")
                })
            {
                return true
            }
            current = Int(snapshot.elements[current].parent)
            steps += 1
        }
        return false
    }

    /// "Tab 2 of 5", "Home, tab, 1 of 4", "tab 3/4" (any case).
    static func saysTabPosition(_ text: String) -> Bool {
        let lower = text.lowercased()
        guard let range = lower.range(of: "tab") else { return false }
        let after = lower[range.upperBound...].drop { $0 == "," || $0 == " " || $0 == "\n" }
        guard let first = after.first, first.isNumber else { return false }
        let rest = after.drop { $0.isNumber }.drop { $0 == " " }
        return rest.hasPrefix("of") || rest.hasPrefix("/")
    }

    static func contains(_ bytes: ArraySlice<UInt8>, _ word: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count >= needle.count else { return false }
        var start = bytes.startIndex
        while start + needle.count <= bytes.endIndex {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
            start += 1
        }
        return false
    }

    static func ends(_ bytes: ArraySlice<UInt8>, _ suffix: StaticString) -> Bool {
        let tail = UnsafeBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount)
        return bytes.count >= tail.count && bytes.suffix(tail.count).elementsEqual(tail)
    }
}
