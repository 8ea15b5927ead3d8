/// What a capture could not show that the reader uses, listed with each transcript so that
/// a stop that looks wrong can be traced to a missing input rather than to the model. Each
/// gap is listed only where the screen has what it would change.
///
/// Android dumps (uiautomator, UiAutomator2) carry no state descriptions (a custom state, a
/// progress percentage), no collection info (a list's size, a row's position), no
/// traversal links (`accessibilityTraversalBefore`/`After`, Compose's traversal index and
/// groups) and no `labelFor`/`labelledBy` pairs. XCUITest sources carry no accessibility
/// hints, no `accessibilityElements` order and no `accessibilityViewIsModal` — unless the
/// capture says them (the native format can).
enum CaptureGaps {
    static func of(_ snapshot: Snapshot, reader: ScreenReader, stops: [TranscriptStop]) -> [String] {
        guard !stops.isEmpty else { return [] }
        let elements = snapshot.elements
        var gaps: [String] = []
        switch reader {
        case .talkback:
            let stated = stops.filter { stop in
                let element = elements[stop.element]
                return stop.role == .progress || stop.role == .slider || element.checked != nil || element.role == .switch
            }.count
            if stated > 0 {
                gaps.append(
                    "state descriptions: \(stated) stops may say a state of their own (\"Downloading\", \"45 percent\") the dump does not carry")
            }
            if elements.contains(where: { $0.holdsItems || !$0.scrollAxes.isEmpty }) {
                gaps.append("collection info: TalkBack says a list's size and each row's place (\"item 3 of 12\"), which the dump does not carry")
            }
            gaps.append(
                "traversal links: an app's accessibilityTraversalBefore/After (Compose's traversal index and groups) can change the order; the dump does not carry them")
            if stops.contains(where: { $0.role == .edit }) {
                gaps.append("labels for fields: a field labelled by another view (labelFor, labelledBy) is named by it; the dump does not link them")
            }
        case .voiceover:
            if !elements.contains(where: { !$0.hint.isAbsent }) {
                gaps.append("accessibility hints: the capture states none; VoiceOver says an element's hint after a pause")
            }
            if stops.count > 1 {
                gaps.append("accessibilityElements: a container can set its own reading order; the transcript follows the tree")
            }
            if !elements.contains(where: { $0.modal != nil }) {
                gaps.append(
                    "modal views: the capture marks no view accessibilityViewIsModal; VoiceOver reads only a modal view where one is (alerts are known)")
            }
        }
        return gaps
    }
}
