/// The hint a reader adds after a pause, from what a stop is and does — TalkBack's
/// "Double-tap to activate", VoiceOver's "Double tap to toggle setting" — apart from the
/// speech (a user who turned hints off does not hear it; a capture's own hint, VoiceOver's
/// accessibility hint, is in the speech). A disabled stop has none.
public enum UsageHint: UInt8, Sendable, CaseIterable {
    case activate, toggle, edit, toggleSetting, editText, adjust

    /// The words, in the reader's spelling (TalkBack writes "Double-tap", VoiceOver "Double tap").
    public var text: String {
        switch self {
        case .activate: "Double-tap to activate"
        case .toggle: "Double-tap to toggle"
        case .edit: "Double-tap to edit"
        case .toggleSetting: "Double tap to toggle setting"
        case .editText: "Double tap to edit"
        case .adjust: "Swipe up or down with one finger to adjust the value"
        }
    }

    /// The hint `reader` gives a stop of `role` on `element`, if any.
    static func of(_ element: Element, role: SpokenRole?, reader: ScreenReader, checkable: Bool, actionable: Bool) -> UsageHint? {
        guard element.isEnabled, !element.traits.contains(.notEnabled) else { return nil }
        switch reader {
        case .talkback:
            if role == .edit { return .edit }
            if checkable { return .toggle }
            return actionable ? .activate : nil
        case .voiceover:
            switch role {
            case .switch?: return .toggleSetting
            case .edit?: return .editText
            case .slider?: return .adjust
            default: return nil
            }
        }
    }
}
