/// The words each platform uses for the user's text size: iOS's Dynamic Type, Android's
/// font scale. The text-scaling rules speak in the platform's words where they say what a
/// capture does not carry.
enum TextScalingTerms {
    /// What a capture without fonts cannot tell, in the platform's words.
    static func missingFonts(on platform: Platform) -> String {
        switch platform {
        case .android: "carries no fonts or font-scale state (text sizes in sp, scaling, truncation): font scaling not judged"
        case .ios: "carries no fonts or Dynamic Type state (text styles, scaling, truncation): Dynamic Type not judged"
        default: "carries no fonts or text-size state (text styles, scaling, truncation): text scaling not judged"
        }
    }
}
