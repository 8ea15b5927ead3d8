/// What the `text.*` rules need before they can judge: a screenshot, read by OCR. Without
/// them the rule is incomplete with the reason — OCR that did not run, or stopped, is
/// never a pass.
enum OCRInput {
    static func recognition<Results>(_ context: inout RuleContext<Results>) -> TextRecognition? {
        guard context.snapshot.screenshot != nil else {
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

    /// The smallest pixel rectangle holding every box.
    static func union(_ boxes: [PixelRect]) -> PixelRect {
        guard let first = boxes.first else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        var minX = first.x, minY = first.y, maxX = first.x + first.width, maxY = first.y + first.height
        for box in boxes.dropFirst() {
            minX = min(minX, box.x)
            minY = min(minY, box.y)
            maxX = max(maxX, box.x + box.width)
            maxY = max(maxY, box.y + box.height)
        }
        return PixelRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
