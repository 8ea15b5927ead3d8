/// Names and Understanding pages of the WCAG 2.2 success criteria the rules cite.
public enum WCAGCriteria {
    public static let names: [String: (name: String, level: String, slug: String)] = [
        "1.1.1": ("Non-text Content", "A", "non-text-content"),
        "1.3.1": ("Info and Relationships", "A", "info-and-relationships"),
        "1.3.2": ("Meaningful Sequence", "A", "meaningful-sequence"),
        "1.4.1": ("Use of Color", "A", "use-of-color"),
        "1.4.3": ("Contrast (Minimum)", "AA", "contrast-minimum"),
        "1.4.4": ("Resize Text", "AA", "resize-text"),
        "1.4.6": ("Contrast (Enhanced)", "AAA", "contrast-enhanced"),
        "1.4.10": ("Reflow", "AA", "reflow"),
        "1.4.11": ("Non-text Contrast", "AA", "non-text-contrast"),
        "2.1.1": ("Keyboard", "A", "keyboard"),
        "2.1.2": ("No Keyboard Trap", "A", "no-keyboard-trap"),
        "2.2.2": ("Pause, Stop, Hide", "A", "pause-stop-hide"),
        "2.3.3": ("Animation from Interactions", "AAA", "animation-from-interactions"),
        "2.4.3": ("Focus Order", "A", "focus-order"),
        "2.4.6": ("Headings and Labels", "AA", "headings-and-labels"),
        "2.5.3": ("Label in Name", "A", "label-in-name"),
        "2.5.5": ("Target Size (Enhanced)", "AAA", "target-size-enhanced"),
        "2.5.8": ("Target Size (Minimum)", "AA", "target-size-minimum"),
        "4.1.2": ("Name, Role, Value", "A", "name-role-value"),
    ]

    public static func understandingURL(_ criterion: String) -> String? {
        guard let entry = names[criterion] else { return nil }
        return "https://www.w3.org/WAI/WCAG22/Understanding/\(entry.slug).html"
    }
}
