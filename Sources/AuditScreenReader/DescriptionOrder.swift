/// The order a reader says a stop's name, role and state in. TalkBack makes it a setting
/// (Settings › TalkBack › Verbosity › Element description order, TalkBack 12.1 and later):
/// state, name, role — its default — or name, role, state (what TalkBack said before the
/// setting existed), or role, name, state. VoiceOver has one order: name, value, role,
/// state. A value is said after the name; a hint and "actions available" last, whatever
/// the order.
public enum DescriptionOrder: String, Sendable, CaseIterable {
    case stateNameRole = "state-name-role"
    case nameRoleState = "name-role-state"
    case roleNameState = "role-name-state"

    /// The reader's own default: TalkBack's current one, VoiceOver's only one.
    public static func `default`(for reader: ScreenReader) -> DescriptionOrder {
        reader == .talkback ? .stateNameRole : .nameRoleState
    }

    /// The orders `reader` can be set to: TalkBack's three, VoiceOver's one.
    public static func choices(for reader: ScreenReader) -> [DescriptionOrder] {
        reader == .talkback ? allCases : [.nameRoleState]
    }
}

/// A reader and its description order, as a request names them: `talkback`,
/// `talkback:name-role-state`, `voiceover`.
public struct ReaderChoice: Sendable, Equatable {
    public let reader: ScreenReader
    /// `nil`: the reader's default.
    public let order: DescriptionOrder?

    public init(reader: ScreenReader, order: DescriptionOrder? = nil) {
        self.reader = reader
        self.order = order
    }

    /// Parses `reader[:order]`; the error says what is accepted.
    public static func parse(_ text: String) -> Result<ReaderChoice, ReaderChoiceError> {
        let parts = text.lowercased().split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, let reader = ScreenReader(rawValue: String(first)) else {
            return .failure(ReaderChoiceError(message: "reader must be talkback or voiceover, not \"\(text)\""))
        }
        guard parts.count == 2 else { return .success(ReaderChoice(reader: reader)) }
        let choices = DescriptionOrder.choices(for: reader)
        guard let order = DescriptionOrder(rawValue: String(parts[1])), choices.contains(order) else {
            let accepted = choices.map { "\(reader.rawValue):\($0.rawValue)" }.joined(separator: ", ")
            return .failure(ReaderChoiceError(message: "\(reader.rawValue) has no description order \"\(parts[1])\"; accepted: \(accepted)"))
        }
        return .success(ReaderChoice(reader: reader, order: order))
    }

    /// Every spelling `parse` accepts, for help and completions.
    public static var spellings: [String] {
        ScreenReader.allCases.flatMap { reader in
            [reader.rawValue] + (reader == .talkback ? DescriptionOrder.allCases.map { "\(reader.rawValue):\($0.rawValue)" } : [])
        }
    }
}

/// Why a `reader=` value was refused.
public struct ReaderChoiceError: Error, Sendable {
    public let message: String
}
