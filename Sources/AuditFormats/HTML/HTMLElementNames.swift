import AuditCore

/// Elements named as a person names them — role, name and where it sits: "button “Add” in
/// the navigation bar", "unnamed image in row “Milk”" — instead of a 30-level XPath (which
/// the report keeps behind a disclosure), and frames in the platform's unit.
extension HTMLScreen {
    /// The unit the snapshot's frames are in: dp on Android, points elsewhere.
    package var frameUnit: String { snapshot?.platform == .android ? "dp" : "pt" }

    /// The element at `line` and `column` as a person names it, or nil when the snapshot
    /// could not be read again.
    package func personName(line: Int?, column: Int?) -> String? {
        guard let snapshot, let line, let column, let index = element(line: line, column: column) else { return nil }
        var name = Self.describe(index, in: snapshot, spoken: spokenName(of: index))
        if let place = place(of: index, in: snapshot) { name += " " + place }
        return name
    }

    /// The name the screen reader gives the element when it is a stop (a layout without a
    /// label of its own speaks its children: Philo's tab says "Search").
    func spokenName(of index: Int) -> String? {
        guard let transcript, let position = stop(of: index) else { return nil }
        let name = transcript.stops[position].name
        return name.isEmpty ? nil : name
    }

    /// "button “Add”", "unnamed image"; `spoken` names an element that has no label or
    /// text of its own.
    static func describe(_ index: Int, in snapshot: Snapshot, spoken: String? = nil) -> String {
        let element = snapshot.elements[index]
        // A clickable layout is a control to the person tapping it, whatever its class.
        let clickable = element.isInteractive && (element.role == .container || element.role == .other)
        let role = (clickable ? "clickable " : "") + element.role.word
        let node = snapshot.node(index)
        guard let text = (node.label ?? node.visibleText ?? spoken)?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            return "unnamed \(role)"
        }
        let shown = text.count > 40 ? String(text.prefix(39)) + "…" : text
        return "\(role) “\(shown)”"
    }

    /// Where the element sits, from its nearest telling ancestor: a bar ("in the navigation
    /// bar", "in the tab bar", "in the toolbar"), a dialog, a row with a name ("in row
    /// “Milk”"), a list (a scroller that is not the whole page).
    func place(of index: Int, in snapshot: Snapshot) -> String? {
        var current = Int(snapshot.elements[index].parent)
        var depth = 0
        while current >= 0, depth < 64 {
            let element = snapshot.elements[current]
            let kind = [element.typeName, element.id].compactMap { snapshot.texts.string($0)?.lowercased() }.joined(separator: " ")
            if kind.contains("navigationbar") || kind.contains("navigation_bar") || kind.contains("app_bar") || kind.contains("appbar") {
                return "in the navigation bar"
            }
            if kind.contains("tabbar") || kind.contains("bottomnavigation") || kind.contains("bottom_nav") || kind.contains("tab_bar") {
                return "in the tab bar"
            }
            if kind.contains("toolbar") { return "in the toolbar" }
            if element.modal == true || kind.contains("alert") || kind.contains("dialog") || kind.contains("sheet") { return "in a dialog" }
            if element.role == .cell {
                let row = Self.describe(current, in: snapshot)
                return row.hasPrefix("unnamed") ? "in a row" : "in " + row
            }
            // A scroller is a list unless it is the page itself (most of the screen).
            if !element.scrollAxes.isEmpty, let frame = element.frame, let width = snapshot.width, let height = snapshot.height,
                frame.width * frame.height < 0.6 * width * height
            {
                return "in a list"
            }
            current = Int(element.parent)
            depth += 1
        }
        return nil
    }
}
