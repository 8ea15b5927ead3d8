import CLibXML2
import Dispatch
import Foundation

/// Drives libxml2's SAX2 push parser over a memory buffer and forwards element starts
/// and ends to a ``SnapshotBuilder``: on the same thread, or — for documents of at least
/// `SnapshotParser.Options.twoThreadBytes` — through a ``SAXEventPipe`` to the builder
/// on a second thread, so that tokenizing and decoding overlap.
enum SAXDriver {
    static let chunkSize = 256 * 1024

    static func run(bytes: UnsafeRawBufferPointer, builder: SnapshotBuilder) throws(SnapshotError) {
        if bytes.count >= builder.options.twoThreadBytes, ProcessInfo.processInfo.activeProcessorCount > 1 {
            try runOnTwoThreads(bytes: bytes, builder: builder)
            return
        }
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { context, localName, _, _, _, _, attributeCount, _, attributes in
            guard let context, let localName else { return }
            let builder = Unmanaged<SnapshotBuilder>.fromOpaque(context).takeUnretainedValue()
            if let parser = builder.frontEnd { builder.cursor = ParseCursor(xmlParserCtxtPtr(parser), withConsumed: builder.tracksBytes) }
            builder.startElement(name: localName, attributeCount: Int(attributeCount), attributes: attributes)
        }
        handler.endElementNs = { context, _, _, _ in
            guard let context else { return }
            Unmanaged<SnapshotBuilder>.fromOpaque(context).takeUnretainedValue().endElement()
        }
        handler.internalSubset = { context, name, _, _ in
            guard let context else { return }
            let builder = Unmanaged<SnapshotBuilder>.fromOpaque(context).takeUnretainedValue()
            if let parser = builder.frontEnd { builder.cursor = ParseCursor(xmlParserCtxtPtr(parser), withConsumed: builder.tracksBytes) }
            builder.forbidDoctype(rootName: name.map { String(cString: $0) } ?? "?")
        }
        // Collect errors quietly; they are read from the context afterwards.
        handler.serror = { _, _ in }
        let userData = Unmanaged.passUnretained(builder).toOpaque()
        try parse(bytes, handler: &handler, userData: userData, stopped: { builder.error != nil }) {
            builder.frontEnd = OpaquePointer($0); builder.stopFrontEnd = { xmlStopParser(xmlParserCtxtPtr($0)) }
        }
        if let error = builder.error { throw error }
    }

    /// libxml2 on this thread, recording events; the builder on another, replaying them.
    private static func runOnTwoThreads(bytes: UnsafeRawBufferPointer, builder: SnapshotBuilder) throws(SnapshotError) {
        let pipe = SAXEventPipe(documentBytes: bytes.count)
        let recorder = SAXRecorder(pipe: pipe, builder: builder)
        // A thread of its own, not a job on Dispatch's pool: the pool is as wide as the
        // cores, and when its threads are all audits waiting here for their replays, the
        // replays would wait for a thread (Linux's pool adds one only after about a
        // second: measured, four concurrent 10k audits took 1.1 s instead of 0.12 s).
        let replayed = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let replaying = builder
        let thread = Thread {
            SAXReplayer.run(pipe, into: replaying)
            replayed.signal()
        }
        thread.name = "auditd.parse-replay"
        thread.start()
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { context, localName, _, _, _, _, attributeCount, _, attributes in
            guard let context, let localName else { return }
            Unmanaged<SAXRecorder>.fromOpaque(context).takeUnretainedValue()
                .start(name: localName, attributeCount: Int(attributeCount), attributes: attributes)
        }
        handler.endElementNs = { context, _, _, _ in
            guard let context else { return }
            Unmanaged<SAXRecorder>.fromOpaque(context).takeUnretainedValue().end()
        }
        handler.internalSubset = { context, name, _, _ in
            guard let context else { return }
            Unmanaged<SAXRecorder>.fromOpaque(context).takeUnretainedValue().doctype(rootName: name.map { String(cString: $0) } ?? "?")
        }
        handler.serror = { _, _ in }
        let userData = Unmanaged.passUnretained(recorder).toOpaque()
        // The builder holds names interned in the parser's dictionary: every event is
        // replayed before `parse` frees the parser (and on every way out, the replaying
        // thread is told the end and waited for).
        var replayedAll = false
        func finishReplay() {
            guard !replayedAll else { return }
            replayedAll = true
            recorder.finish()
            replayed.wait()
        }
        defer { finishReplay() }
        try parse(bytes, handler: &handler, userData: userData, stopped: { recorder.stopped }) { context in
            recorder.context = context
            if context == nil { finishReplay() }
        }
        if let error = builder.error { throw error }
    }

    /// Feeds `bytes` to a push parser in chunks while `stopped` is false. `attach` gets the
    /// parser before the first chunk and `nil` after the last, before the parser is freed.
    /// Throws libxml2's error when the document is not well-formed and no other error was
    /// recorded (`stopped`).
    private static func parse(
        _ bytes: UnsafeRawBufferPointer, handler: inout xmlSAXHandler, userData: UnsafeMutableRawPointer,
        stopped: () -> Bool, attach: (xmlParserCtxtPtr?) -> Void
    ) throws(SnapshotError) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) else { return }
        let total = bytes.count
        let head = min(4, total)
        guard let context = xmlCreatePushParserCtxt(&handler, userData, base, Int32(head), nil) else {
            throw SnapshotError(
                code: .malformed, message: "libxml2 could not create a parser", line: 0, column: 0,
                hint: "the server is out of memory; retry later")
        }
        defer { xmlFreeParserCtxt(context) }
        let parseOptions = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        xmlCtxtUseOptions(context, parseOptions)
        attach(context)
        var offset = head
        var status: Int32 = 0
        while offset < total, status == 0, !stopped() {
            let length = min(chunkSize, total - offset)
            status = xmlParseChunk(context, base + offset, Int32(length), 0)
            offset += length
        }
        if status == 0, !stopped() {
            status = xmlParseChunk(context, nil, 0, 1)
        }
        attach(nil)
        if stopped() { return }
        if status != 0 || context.pointee.wellFormed == 0 {
            throw libxmlError(context)
        }
    }

    /// The parser's own error, with its line and column, phrased for a person.
    static func libxmlError(_ context: xmlParserCtxtPtr) -> SnapshotError {
        let last = context.pointee.lastError
        var message = last.message.map { String(cString: $0) } ?? "the XML is not well-formed"
        message = message.trimming().split(whereSeparator: \.isNewline).joined(separator: "; ")
        let code = Int(last.code)
        if code == Int(XML_ERR_DOCUMENT_EMPTY.rawValue) {
            // libxml2 says "Document is empty" for any document that does not start with markup.
            message = "no root element: the document does not start with '<' (libxml2: \(message))"
        }
        let hint: String =
            switch code {
            case Int(XML_ERR_DOCUMENT_EMPTY.rawValue):
                "the file must begin with <?xml …?> or the root element; remove quotes or text written before it"
            case Int(XML_ERR_INVALID_CHAR.rawValue), Int(XML_ERR_INVALID_ENCODING.rawValue):
                "save the file as UTF-8 (or declare its real encoding) and remove control characters"
            case Int(XML_ERR_DOCUMENT_END.rawValue): "there is content after the root element; send one document per request"
            case Int(XML_ERR_TAG_NAME_MISMATCH.rawValue), Int(XML_ERR_TAG_NOT_FINISHED.rawValue):
                "close every element in the order it was opened"
            case Int(XML_ERR_UNDECLARED_ENTITY.rawValue), Int(XML_WAR_UNDECLARED_ENTITY.rawValue):
                "escape a literal & as &amp;; named entities other than the five of XML are not supported"
            default: "check that the file is a complete, well-formed XML document"
            }
        if message.contains("Huge input lookup") || message.contains("too long") {
            return SnapshotError(
                code: .tooLarge, message: "a single value or name is too large (libxml2: \(message))",
                line: Int(last.line), column: Int(last.int2),
                hint: "keep each attribute value under 10 MB")
        }
        return SnapshotError(code: .malformed, message: message, line: Int(last.line), column: Int(last.int2), hint: hint)
    }
}

extension ParseCursor {
    /// The position of `context` now; `consumed` only when `withConsumed` (computing it
    /// walks the input for encodings other than UTF-8, where it is not used).
    init(_ context: xmlParserCtxtPtr, withConsumed: Bool) {
        if withConsumed { consumed = Int(xmlByteConsumed(context)) }
        if let input = context.pointee.input {
            line = Int(input.pointee.line)
            column = Int(input.pointee.col)
        }
    }

}
