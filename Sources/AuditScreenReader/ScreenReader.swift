/// The screen readers whose linear navigation is modelled (docs/transcripts.md): TalkBack
/// on Android, VoiceOver on iOS. A snapshot's platform picks one; a request may name it.
public enum ScreenReader: String, Sendable, CaseIterable {
    case talkback, voiceover

    /// The reader of `platform`'s users: TalkBack for Android, VoiceOver otherwise.
    public static func `default`(for platform: Platform) -> ScreenReader {
        platform == .android ? .talkback : .voiceover
    }

    /// How the reader says `role` (lower case, as the transcript's speech writes it);
    /// `nil` for a role it does not announce (plain text).
    func word(for role: SpokenRole) -> String? {
        switch (self, role) {
        case (_, .text): nil
        case (_, .button): "button"
        case (.talkback, .switch): "switch"
        case (.voiceover, .switch): "switch button"
        case (_, .checkbox): "checkbox"
        case (_, .radio): "radio button"
        case (.talkback, .edit): "edit box"
        case (.voiceover, .edit): "text field"
        case (_, .heading): "heading"
        case (_, .link): "link"
        case (_, .image): "image"
        case (_, .tab): "tab"
        case (.talkback, .slider): "slider"
        case (.voiceover, .slider): "adjustable"
        case (.talkback, .progress): "progress bar"
        case (.voiceover, .progress): "progress indicator"
        case (_, .list): "list"
        }
    }

    /// How the reader says `state`.
    func word(for state: SpokenState) -> String {
        switch (self, state) {
        case (_, .on): "on"
        case (_, .off): "off"
        case (_, .checked): "checked"
        case (.talkback, .unchecked): "not checked"
        case (.voiceover, .unchecked): "unchecked"
        case (_, .selected): "selected"
        case (.talkback, .disabled): "disabled"
        case (.voiceover, .disabled): "dimmed"
        case (_, .expanded): "expanded"
        case (_, .collapsed): "collapsed"
        }
    }
}

/// A stop's role in the transcript's vocabulary (the same for both readers; each says it
/// in its own words).
public enum SpokenRole: String, Sendable, CaseIterable {
    case button, `switch`, checkbox, radio, edit, heading, link, image, tab, slider, progress, list, text
}

/// A stop's state in the transcript's vocabulary.
public enum SpokenState: String, Sendable, CaseIterable {
    case checked, unchecked, on, off, selected, disabled, expanded, collapsed
}
