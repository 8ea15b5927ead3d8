/// `label.filename` — WCAG 1.1.1 / 4.1.2: a label that is an asset or file name.
public enum LabelFilenameRule: Rule {
    public static let description = RuleDescription(
        for: Self.self,
        id: "label.filename",
        title: "Label is a file name",
        wcag: ["1.1.1", "4.1.2"],
        severity: .error,
        enabledIn: [.wcag],
        help: """
            Labels such as "btn_close.png", "IMG_0042", "image1" or "icon-back" are asset names, not \
            descriptions — what VoiceOver falls back to when nobody wrote a label. Detected: image file \
            extensions, asset prefixes (ic_, icon-, btn_, img_, bg_, logo_), camera names (IMG_1234, DSC_…), \
            generic names with a number (image1, photo2), snake_case identifiers, and labels equal to the \
            drawn image's name. A name that is the text the element draws on screen (a file manager's \
            "IMG_0042.jpg", a download's "report_2024.pdf") is what everyone reads, not an asset's name, \
            and is not judged. Fix: describe what the element shows or does.
            """,
        examples: [
            RuleExample(##"<element id="b" role="button" label="btn_close.png" frame="0,0,44,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="i" role="image" label="IMG_0042" frame="0,0,44,44"/>"##, triggers: ["i"]),
            RuleExample(##"<element id="i" role="image" label="image1" frame="0,0,44,44"/>"##, triggers: ["i"]),
            RuleExample(##"<element id="b" role="button" label="icon-back" frame="0,0,44,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="b" role="button" label="back_arrow" frame="0,0,44,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="b" role="button" label="chevron" image="chevron" frame="0,0,44,44"/>"##, triggers: ["b"]),
            RuleExample(##"<element id="b" role="button" label="Back" frame="0,0,44,44"/>"##),
            RuleExample(##"<element id="b" role="button" label="Wi-Fi" frame="0,0,44,44"/>"##),
            RuleExample(##"<element id="b" role="button" label="E-mail receipt" frame="0,0,44,44"/>"##),
            RuleExample(##"<element id="t" role="text" text="Step 2" frame="0,0,44,44"/>"##),
            // A file manager's rows show file names: the name is the drawn text.
            RuleExample(##"<element id="f" role="cell" interactive="true" text="IMG_0042.jpg" frame="0,0,300,44"/>"##),
            RuleExample(##"<element id="t" role="text" label="report_2024.pdf" frame="0,0,300,44"/>"##),
            RuleExample(
                "",
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node class="android.widget.TextView" text="IMG_20240312_101500.jpg" package="com.example" clickable="true" enabled="true" bounds="[40,400][1040,560]"/></node></hierarchy>"##
            ),
            // A content description is heard, not seen: there it is an asset's name.
            RuleExample(
                "", triggers: ["b"],
                document:
                    ##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]"><node resource-id="b" class="android.widget.ImageButton" content-desc="ic_share.png" package="com.example" clickable="true" enabled="true" bounds="[40,400][200,560]"/></node></hierarchy>"##
            ),
        ])

    /// The results this rule reports, with their messages.
    public enum ResultID: String, RuleResults {
        case filename

        public var message: String {
            "Label \"${label}\" looks like a file name (${pattern})"
        }
    }

    static let cameraPrefixes = ["img_", "img-", "dsc_", "dsc-", "dscn", "pxl_", "screenshot_", "screenshot-"]
    static let cameraPrefixBytes = cameraPrefixes.map { Array($0.utf8) }
    static let extensions = ["png", "jpg", "jpeg", "gif", "svg", "pdf", "webp", "heic", "bmp", "ico", "tif", "tiff"]
    static let prefixes = ["ic", "icon", "icn", "btn", "button", "img", "image", "bg", "logo", "asset", "ico", "pic", "sf", "ui"]
    /// Each asset prefix with the separators that follow it (`ic_`, `ic-`), made once rather
    /// than for every label looked at.
    static let prefixForms = prefixes.map { (prefix: $0, underscore: Array(($0 + "_").utf8), dash: Array(($0 + "-").utf8)) }
    static let genericNames = ["image", "img", "icon", "photo", "picture", "pic", "button", "btn", "view", "imageview", "graphic"]

    /// Why `label` looks like a file name, or `nil`.
    public static func pattern(of label: String, image: String?) -> String? {
        // Every pattern below needs a '_', '-', '.' or digit, except equality with the image
        // name: most labels are rejected here without further work.
        let hasMarker = label.utf8.contains { $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || (0x30...0x39).contains($0) }
        if !hasMarker, image?.isEmpty ?? true { return nil }
        let text = label.trimming()
        guard !text.isEmpty else { return nil }
        let lower = text.lowercased()
        if let image, !image.isEmpty, lower == image.lowercased() { return "the drawn image's name" }
        let hasSpace = lower.utf8.contains(UInt8(ascii: " "))
        if let dot = lower.lastIndex(of: "."), extensions.contains(String(lower[lower.index(after: dot)...])), !hasSpace {
            return "image file extension"
        }
        // Prefixes compared as bytes (the prefixes are ASCII): a `String` comparison per
        // prefix cost most of the rule on screens of short coded labels ("H12").
        let lowerBytes = Array(lower.utf8)
        for (camera, bytes) in zip(cameraPrefixes, cameraPrefixBytes) where lowerBytes.starts(with: bytes) {
            if lower.dropFirst(camera.count).contains(where: \.isNumber) { return "camera file name" }
        }
        if !hasSpace {
            for form in prefixForms where lowerBytes.starts(with: form.underscore) || lowerBytes.starts(with: form.dash) {
                return "asset prefix \(form.prefix)\(lower.dropFirst(form.prefix.count).first.map(String.init) ?? "")"
            }
            let letters = lower.prefix(while: \.isLetter)
            let rest = lower.dropFirst(letters.count)
            if genericNames.contains(String(letters)), !rest.isEmpty, rest.allSatisfy({ $0.isNumber || $0 == "_" || $0 == "-" }) {
                return "generic name with a number"
            }
            if lower.utf8.contains(UInt8(ascii: "_")), lower.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }), lower.contains(where: \.isLetter),
                text == lower
            {
                return "snake_case identifier"
            }
        }
        return nil
    }

    /// True when the bytes could be a file name: a '_', '-', '.' or digit (see ``pattern``).
    static func hasMarker(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.contains { $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || ($0 >= 0x30 && $0 <= 0x39) }
    }

    /// ``pattern`` can find a file name in these bytes (the drawn image's name aside): a
    /// marker, and no space between words unless they start as a camera's file name does —
    /// every other pattern needs a name without spaces. "Row 12", "Page 3 of 10" are words.
    /// Labels with bytes past ASCII take the whole path (their edges may be Unicode spaces).
    package static func mayBeFileName(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard hasMarker(bytes) else { return false }
        if bytes.contains(where: { $0 >= 0x80 }) { return true }
        let trimmed = bytes.trimmingASCIIWhitespace()
        guard trimmed.contains(0x20) else { return true }
        let lower = trimmed.prefix(12).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        return cameraPrefixBytes.contains { lower.starts(with: $0) }
    }

    public static func evaluate(_ context: inout RuleContext<ResultID>) {
        let snapshot = context.snapshot
        let texts = snapshot.texts
        for index in snapshot.elements.indices {
            if context.outOfBudget() { return }
            let element = snapshot.elements[index]
            guard element.isAccessible, element.isVisible else { continue }
            let candidate = !element.label.isAbsent ? element.label : (element.isInteractive ? element.text : .absent)
            if candidate.isAbsent { continue }
            // A name that is the text drawn on screen (a file manager's "IMG_0042.jpg") is what
            // everyone reads, not an asset's name leaking through.
            if LabelUnreadableRule.isDrawnText(candidate, of: index, in: snapshot) { continue }
            // An ASCII label without a drawn image is judged from its bytes; the others
            // pass a cheap byte filter first (most labels are plain words).
            var found: String?
            if element.image.isAbsent {
                switch texts.withBytes(candidate, byteVerdict) {
                case .notAFileName: continue
                case .fileName(let pattern): found = pattern
                case .needsString: guard texts.withBytes(candidate, mayBeFileName) else { continue }
                }
            } else {
                guard texts.withBytes(candidate, mayBeFileName) || element.image.count == candidate.count else { continue }
            }
            let node = snapshot.node(index)
            guard let label = node.label ?? (element.isInteractive ? node.text : nil) else { continue }
            guard let pattern = found ?? pattern(of: label, image: node.image) else { continue }
            context.report(ResultID.filename, element: index, evidence: [(.label, .string(label)), (.pattern, .string(pattern))])
        }
    }
}
