/// The normalized element tree as the rules see it (`auditctl inspect`).
public enum InspectReport {
    /// The whole snapshot as JSON: header, settings, and every element with its typed and
    /// derived values.
    public static func json(_ snapshot: Snapshot) -> JSON {
        var header: [(String, JSON)] = [
            ("dialect", .string(snapshot.dialect.rawValue)),
            ("platform", .string(snapshot.platform.rawValue)),
            ("app", .optional(snapshot.app)), ("build", .optional(snapshot.build)), ("screen", .optional(snapshot.screen)),
            ("elements", .int(snapshot.elements.count)),
        ]
        if let width = snapshot.width { header.append(("width", .number(width))) }
        if let height = snapshot.height { header.append(("height", .number(height))) }
        if let scale = snapshot.scale { header.append(("scale", .number(scale))) }
        let settings = snapshot.settings
        var settingsJSON: [(String, JSON)] = [("content-size", .string(settings.effectiveContentSize.rawValue))]
        if let value = settings.reduceMotion { settingsJSON.append(("reduce-motion", .bool(value))) }
        if let value = settings.differentiateWithoutColor { settingsJSON.append(("differentiate-without-color", .bool(value))) }
        if let value = settings.increaseContrast { settingsJSON.append(("increase-contrast", .bool(value))) }
        if let value = settings.reduceTransparency { settingsJSON.append(("reduce-transparency", .bool(value))) }
        if let value = settings.colorScheme { settingsJSON.append(("color-scheme", .string(value.rawValue))) }
        header.append(("settings", .object(settingsJSON)))
        if !snapshot.notes.isEmpty { header.append(("notes", .array(snapshot.notes.map(JSON.string)))) }
        if let screenshot = snapshot.screenshot {
            header.append(
                (
                    "screenshot",
                    .object([
                        ("width", .int(screenshot.screenshot.width)), ("height", .int(screenshot.screenshot.height)),
                        ("format", .string(screenshot.screenshot.format.rawValue)), ("pixels-per-point", .number(screenshot.pixelsPerPoint)),
                    ])
                ))
        }
        header.append(
            (
                "tree",
                .array(
                    snapshot.elements.indices.map { index in
                        guard case .object(var members) = element(snapshot.node(index)) else { return element(snapshot.node(index)) }
                        switch pixelColors(snapshot, index) {
                        case .success(let colors)?:
                            members.append(
                                (
                                    "pixels",
                                    .object([
                                        ("foreground", .string(colors.foreground.hex)), ("background", .string(colors.background.hex)),
                                        ("foreground-share", .number((colors.foregroundShare * 1000).rounded() / 1000)),
                                        ("background-share", .number((colors.backgroundShare * 1000).rounded() / 1000)),
                                        ("crop", .string(colors.crop.description)),
                                    ])
                                ))
                        case .failure(let problem)?: members.append(("pixels", .object([("cannot-judge", .string(problem.reason))])))
                        case nil: break
                        }
                        return .object(members)
                    })
            ))
        return .object(header)
    }

    static func element(_ node: Node) -> JSON {
        let element = node.element
        var members: [(String, JSON)] = [
            ("index", .int(node.index)), ("parent", element.parent >= 0 ? .int(Int(element.parent)) : .null),
            ("line", .int(Int(element.line))), ("path", .string(node.path)),
            ("role", .string(element.role.name)),
        ]
        func add(_ key: String, _ value: String?) { if let value { members.append((key, .string(value))) } }
        add("type", node.typeName)
        add("id", node.id)
        add("label", node.label)
        add("value", node.value)
        add("hint", node.hint)
        add("text", node.text)
        add("placeholder", node.placeholder)
        add("image", node.image)
        if !element.traits.isEmpty { members.append(("traits", .array(element.traits.names.map(JSON.string)))) }
        if let frame = element.frame { members.append(("frame", .array(frame.components.map(JSON.number)))) }
        if let frame = element.hitFrame { members.append(("hit-frame", .array(frame.components.map(JSON.number)))) }
        add("foreground", element.foreground?.hex)
        add("background", element.background?.hex)
        add("border", element.border?.hex)
        add("effective-background", element.effectiveBackground?.hex)
        if let size = element.fontSize { members.append(("font-size", .number(size))) }
        if let weight = element.fontWeight { members.append(("font-weight", .int(Int(weight)))) }
        add("text-style", element.textStyle?.rawValue)
        if element.effectiveOpacity < 1 { members.append(("effective-opacity", .number(element.effectiveOpacity))) }
        members.append(("accessible", .bool(element.isAccessible)))
        members.append(("visible", .bool(element.isVisible)))
        members.append(("enabled", .bool(element.isEnabled)))
        members.append(("interactive", .bool(element.isInteractive)))
        if element.isHidden { members.append(("hidden", .bool(true))) }
        if element.isSystemUI { members.append(("system", .bool(true))) }
        if element.covered { members.append(("covered", .bool(true))) }
        let animations = node.snapshot.animations(of: node.index)
        if !animations.isEmpty {
            members.append(
                (
                    "animations",
                    .array(
                        animations.map { animation in
                            var fields: [(String, JSON)] = [("kind", .string(animation.kindName))]
                            if let duration = animation.duration { fields.append(("duration", .number(duration))) }
                            switch animation.repeatCount {
                            case .forever?: fields.append(("repeat", .string("forever")))
                            case .count(let count)?: fields.append(("repeat", .number(count)))
                            case nil: break
                            }
                            if let value = animation.autoplay { fields.append(("autoplay", .bool(value))) }
                            if let value = animation.honorsReduceMotion { fields.append(("honors-reduce-motion", .bool(value))) }
                            if let value = animation.pausable { fields.append(("pausable", .bool(value))) }
                            return .object(fields)
                        })
                ))
        }
        return .object(members)
    }

    /// An indented tree, one element a line: `button "Close" #close [350,50,24,24] fg #C7C7CC on #FFFFFF`.
    public static func text(_ snapshot: Snapshot) -> String {
        var lines: [String] = []
        var header = "\(snapshot.dialect.rawValue) snapshot, platform \(snapshot.platform.rawValue), \(snapshot.elements.count) elements"
        if let app = snapshot.app { header += ", app \(app)" }
        if let screen = snapshot.screen { header += ", screen \(screen)" }
        lines.append(header)
        lines += snapshot.notes.map { "note: \($0)" }
        for index in snapshot.elements.indices {
            let node = snapshot.node(index)
            let element = node.element
            var parts = [String(repeating: "  ", count: Int(element.depth)) + element.role.name]
            if let name = node.accessibleName { parts.append("\"\(name.replacingNewlines())\"") }
            if let id = node.id { parts.append("#\(id)") }
            if let frame = element.frame { parts.append("[\(frame)]") }
            if let foreground = element.foreground {
                parts.append("fg \(foreground.hex) on \(element.effectiveBackground?.hex ?? "unknown")")
            } else if let pixels = pixelColors(snapshot, index) {
                switch pixels {
                case .success(let colors):
                    parts.append(
                        "pixels \(colors.foreground.hex) on \(colors.background.hex) (\(Int(colors.foregroundShare * 100))% / \(Int(colors.backgroundShare * 100))% of crop \(colors.crop))"
                    )
                case .failure(let problem): parts.append("pixels: \(problem.reason)")
                }
            } else if let background = element.effectiveBackground {
                parts.append("bg \(background.hex)")
            }
            if !element.traits.isEmpty { parts.append("traits:" + element.traits.names.joined(separator: ",")) }
            var flags: [String] = []
            if element.isInteractive { flags.append("interactive") }
            if !element.isAccessible { flags.append("not-accessible") }
            if !element.isVisible { flags.append("invisible") }
            if !element.isEnabled { flags.append("disabled") }
            if element.isSystemUI { flags.append("system") }
            if element.covered { flags.append("covered") }
            if !flags.isEmpty { parts.append("(" + flags.joined(separator: " ") + ")") }
            parts.append("line \(element.line)")
            lines.append(parts.joined(separator: " "))
        }
        // Every line quotes the snapshot (names, ids, app): no control character passes raw.
        return lines.map(TerminalText.escape).joined(separator: "\n") + "\n"
    }
}

extension InspectReport {
    /// The colours a text element's pixels give, when a screenshot came with the snapshot
    /// and the element declares none: what `contrast.text` reads.
    static func pixelColors(_ snapshot: Snapshot, _ index: Int) -> Result<TextColors, PixelProblem>? {
        guard let screenshot = snapshot.screenshot, let frame = snapshot.elements[index].frame,
            !snapshot.visibleTextRef(of: index).isAbsent, snapshot.elements[index].role != .window
        else { return nil }
        return screenshot.textColors(of: frame)
    }
}

extension String {
    /// The string on one line: newlines shown as `⏎`.
    func replacingNewlines() -> String {
        String(map { $0.isNewline ? "⏎" : $0 })
    }
}
