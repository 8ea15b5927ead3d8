import CLibXML2
import Dispatch
import Foundation
import Synchronization

/// SAX events recorded on libxml2's thread and replayed into a ``SnapshotBuilder`` on
/// another, so that tokenizing (libxml2) and decoding (the builder) of a large document
/// run on two cores at once. Events go through blocks of up to 256 KiB: a start tag is its
/// name (libxml2 interns names, so the pointer is kept), where libxml2 stood, and each
/// attribute's name and a copy of its value bytes (libxml2 reuses its buffers after the
/// callback returns).
final class SAXEventPipe: @unchecked Sendable {
    /// One block of recorded events.
    final class Block {
        let base: UnsafeMutableRawPointer
        let capacity: Int
        var used = 0

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(byteCount: capacity, alignment: 16)
        }

        deinit { base.deallocate() }
    }

    enum Tag: UInt8 {
        case start = 1, end = 2, doctype = 3
    }

    /// Blocks hold 256 KiB of events, less for a smaller document (its events take
    /// about as many bytes as its text).
    let blockSize: Int
    /// Blocks recorded but not yet replayed, past which the recorder waits: the events
    /// of a fast tokenizer are not all held at once.
    static let blocksInFlight = 8

    private let lock = Lock()
    private var queued: [Block?] = []
    private var spare: [Block] = []
    private let ready = DispatchSemaphore(value: 0)
    private let slots = DispatchSemaphore(value: SAXEventPipe.blocksInFlight)

    init(documentBytes: Int) {
        blockSize = min(256 * 1024, max(4096, documentBytes))
    }

    /// A block with room for at least `bytes` (waits while too many are in flight).
    func takeBlock(minimum bytes: Int) -> Block {
        slots.wait()
        let reused = lock.withLock { bytes <= blockSize ? spare.popLast() : nil }
        if let reused {
            reused.used = 0
            return reused
        }
        return Block(capacity: max(bytes, blockSize))
    }

    /// Hands a filled block to the replaying side; `nil` says no more will come.
    func send(_ block: Block?) {
        lock.withLock { queued.append(block) }
        ready.signal()
    }

    /// The next block in order, waiting for it; `nil` at the end.
    func receive() -> Block? {
        ready.wait()
        return lock.withLock { queued.removeFirst() }
    }

    /// Gives a replayed block back for reuse.
    func recycle(_ block: Block) {
        lock.withLock {
            if block.capacity == blockSize, spare.count < SAXEventPipe.blocksInFlight { spare.append(block) }
        }
        slots.signal()
    }
}

/// libxml2's side: the SAX callbacks' user data, writing events into blocks.
final class SAXRecorder {
    let pipe: SAXEventPipe
    /// The builder the events are for; once its `stopRequested` is set (read atomically,
    /// from this thread), libxml2 is stopped at the next event.
    let builder: SnapshotBuilder
    let tracksBytes: Bool
    var context: xmlParserCtxtPtr?
    private var block: SAXEventPipe.Block?

    init(pipe: SAXEventPipe, builder: SnapshotBuilder) {
        self.pipe = pipe
        self.builder = builder
        self.tracksBytes = builder.tracksBytes
    }

    /// True once the builder has failed (then libxml2 has been told to stop).
    var stopped: Bool { builder.stopRequested.load(ordering: .acquiring) }

    private func checkStop() -> Bool {
        guard stopped else { return false }
        if let context { xmlStopParser(context) }
        return true
    }

    private func position() -> ParseCursor {
        guard let context else { return ParseCursor() }
        return ParseCursor(context, withConsumed: tracksBytes)
    }

    /// Room for `bytes` more in the current block, sending it on when full.
    private func reserve(_ bytes: Int) -> UnsafeMutableRawPointer {
        if let current = block, current.used + bytes <= current.capacity {
            defer { current.used += bytes }
            return current.base + current.used
        }
        if let full = block { pipe.send(full) }
        let fresh = pipe.takeBlock(minimum: bytes)
        block = fresh
        fresh.used = bytes
        return fresh.base
    }

    func start(name: UnsafePointer<xmlChar>, attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        guard !checkStop() else { return }
        let cursor = position()
        var size = 1 + 8 + 8 + 4 + 4 + 4
        let list = AttributeList(pointer: attributes, count: attributeCount)
        var count = 0
        for attribute in list {
            size += 8 + 4 + attribute.value.count
            count += 1
        }
        var out = reserve(size)
        func put<Value>(_ value: Value) {
            out.storeBytes(of: value, as: Value.self)
            out += MemoryLayout<Value>.size
        }
        put(SAXEventPipe.Tag.start.rawValue)
        put(UInt(bitPattern: name))
        put(cursor.consumed)
        put(Int32(truncatingIfNeeded: cursor.line))
        put(Int32(truncatingIfNeeded: cursor.column))
        put(Int32(count))
        for attribute in list {
            put(UInt(bitPattern: attribute.name))
            put(Int32(attribute.value.count))
            if let from = attribute.value.baseAddress, !attribute.value.isEmpty {
                out.copyMemory(from: from, byteCount: attribute.value.count)
                out += attribute.value.count
            }
        }
    }

    func end() {
        guard !checkStop() else { return }
        reserve(1).storeBytes(of: SAXEventPipe.Tag.end.rawValue, as: UInt8.self)
    }

    func doctype(rootName: String) {
        guard !checkStop() else { return }
        let cursor = position()
        let name = Array(rootName.utf8)
        var out = reserve(1 + 8 + 4 + 4 + 4 + name.count)
        func put<Value>(_ value: Value) {
            out.storeBytes(of: value, as: Value.self)
            out += MemoryLayout<Value>.size
        }
        put(SAXEventPipe.Tag.doctype.rawValue)
        put(cursor.consumed)
        put(Int32(truncatingIfNeeded: cursor.line))
        put(Int32(truncatingIfNeeded: cursor.column))
        put(Int32(name.count))
        name.withUnsafeBytes { if let from = $0.baseAddress { out.copyMemory(from: from, byteCount: $0.count) } }
    }

    /// Sends what is recorded and the end mark.
    func finish() {
        if let current = block, current.used > 0 { pipe.send(current) }
        block = nil
        pipe.send(nil)
    }
}

/// The builder's side: replays every block into the builder, in order, until the end
/// mark. Once the builder has failed, the rest is read and dropped (the recorder may be
/// waiting for a free block).
enum SAXReplayer {
    static func run(_ pipe: SAXEventPipe, into builder: SnapshotBuilder) {
        var attributes: [UnsafePointer<xmlChar>?] = []
        while let block = pipe.receive() {
            if builder.error == nil { replay(block, into: builder, attributes: &attributes) }
            pipe.recycle(block)
        }
    }

    private static func replay(_ block: SAXEventPipe.Block, into builder: SnapshotBuilder, attributes: inout [UnsafePointer<xmlChar>?]) {
        var cursor = UnsafeRawPointer(block.base)
        let end = cursor + block.used
        func take<Value>(_: Value.Type) -> Value {
            defer { cursor += MemoryLayout<Value>.size }
            return cursor.loadUnaligned(as: Value.self)
        }
        while cursor < end, builder.error == nil {
            switch SAXEventPipe.Tag(rawValue: take(UInt8.self)) {
            case .start:
                guard let name = UnsafePointer<xmlChar>(bitPattern: take(UInt.self)) else { return }
                let consumed = take(Int.self)
                let line = Int(take(Int32.self)), column = Int(take(Int32.self))
                let count = Int(take(Int32.self))
                if attributes.count < count * 5 { attributes = Array(repeating: nil, count: count * 5) }
                for index in 0..<count {
                    attributes[index * 5] = UnsafePointer<xmlChar>(bitPattern: take(UInt.self))
                    let length = Int(take(Int32.self))
                    let value = cursor.assumingMemoryBound(to: xmlChar.self)
                    attributes[index * 5 + 3] = value
                    attributes[index * 5 + 4] = value + length
                    cursor += length
                }
                builder.cursor = ParseCursor(consumed: consumed, line: line, column: column)
                attributes.withUnsafeMutableBufferPointer { list in
                    builder.startElement(name: name, attributeCount: count, attributes: list.baseAddress)
                }
            case .end:
                builder.endElement()
            case .doctype:
                let consumed = take(Int.self)
                let line = Int(take(Int32.self)), column = Int(take(Int32.self))
                let length = Int(take(Int32.self))
                let name = String(decoding: UnsafeRawBufferPointer(start: cursor, count: length), as: UTF8.self)
                cursor += length
                builder.cursor = ParseCursor(consumed: consumed, line: line, column: column)
                builder.forbidDoctype(rootName: name)
            case nil:
                return
            }
        }
    }
}
