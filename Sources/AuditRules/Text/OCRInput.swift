/// What the `text.*` rules need before they can judge: a screenshot, read by OCR. Without
/// them the rule is incomplete with the reason — OCR that did not run, or stopped, is
/// never a pass.
enum OCRInput {
    static func recognition<Results>(_ context: inout RuleContext<Results>) -> TextRecognition? {
        guard context.snapshot.capabilities.contains(.colorsFromPixels) else {
            context.cannotJudge("no screenshot: text on screen is read from one (send the image with the snapshot, and ?ocr=1)")
            return nil
        }
        guard let recognition = context.snapshot.recognizedText else {
            context.cannotJudge("the screenshot was not read by OCR: ask for it with ?ocr=1 (auditctl audit --ocr)")
            return nil
        }
        if let reason = recognition.incomplete {
            context.cannotJudge(reason)
            return nil
        }
        return recognition
    }
}
