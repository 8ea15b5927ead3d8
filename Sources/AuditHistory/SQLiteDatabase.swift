import CSQLite

/// What SQLite said went wrong, with the statement's context.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public var description: String { "sqlite \(code): \(message)" }

    package init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The file is damaged or not a database: rebuild it.
    package var isCorrupt: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
}

/// One connection to an SQLite database: statements prepared, bound and stepped through a
/// small, typed surface. Not thread-safe: one owner (a serial queue) at a time.
package final class SQLiteDatabase {
    private var handle: OpaquePointer?

    /// Opens (creating) the database at `path`; `readOnly` for readers beside a writer.
    package init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        let flags = readOnly ? SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        handle = opened
        guard code == SQLITE_OK else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(opened)
            handle = nil
            throw SQLiteError(code: code, message: "\(path): \(message)")
        }
        // Readers wait a little for a writer's commit rather than fail at once.
        sqlite3_busy_timeout(opened, 2000)
    }

    deinit { sqlite3_close_v2(handle) }

    private func error(_ code: Int32, _ context: String) -> SQLiteError {
        SQLiteError(code: code, message: "\(context): \(handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed")")
    }

    /// Runs statements that take no parameters and return no rows.
    package func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, sql.prefix(60) + "…") }
    }

    /// A prepared statement, reused with new bindings.
    package func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, String(sql.prefix(60))) }
        return Statement(statement, database: self)
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    package func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// A statement: bind values (1-based), then step through the rows.
    package final class Statement {
        private let statement: OpaquePointer
        private let database: SQLiteDatabase

        fileprivate init(_ statement: OpaquePointer, database: SQLiteDatabase) {
            self.statement = statement
            self.database = database
        }

        deinit { sqlite3_finalize(statement) }

        /// Binds `values` from parameter 1 on, after resetting the statement.
        package func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                let code: Int32
                switch value {
                case .null: code = sqlite3_bind_null(statement, index)
                case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
                case .text(let text):
                    // SQLITE_TRANSIENT: SQLite copies the bytes before this call returns.
                    code = sqlite3_bind_text(statement, index, text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                case .utf8(let bytes):
                    // Up to a NUL, as a String's C string is bound.
                    let length = bytes.firstIndex(of: 0) ?? bytes.count
                    code = bytes.withUnsafeBufferPointer { buffer in
                        sqlite3_bind_text(
                            statement, index, buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                            Int32(clamping: length), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                    }
                }
                guard code == SQLITE_OK else { throw database.error(code, "bind") }
            }
        }

        /// The next row; false when there is none.
        package func step() throws(SQLiteError) -> Bool {
            let code = sqlite3_step(statement)
            if code == SQLITE_ROW { return true }
            if code == SQLITE_DONE { return false }
            throw database.error(code, "step")
        }

        /// Binds `values` and reads the first row with `read` (nil when there is none),
        /// then resets the statement. A statement left on a row keeps its connection's
        /// read transaction open, and WAL checkpoints cannot pass an open reader: the
        /// index's -wal file grew by 70 KB an audit, 2.2 GB after 32,000, and the -shm
        /// file beside it with it (mapped, so the daemon's memory grew too).
        package func firstRow<T>(_ values: [SQLiteValue], _ read: (Statement) -> T?) throws(SQLiteError) -> T? {
            try bind(values)
            defer { sqlite3_reset(statement) }
            return try step() ? read(self) : nil
        }

        /// Binds `values` and reads every row with `read`, then resets the statement (as
        /// ``firstRow(_:_:)`` does, so that no read transaction is left open).
        package func rows<T>(_ values: [SQLiteValue], _ read: (Statement) -> T) throws(SQLiteError) -> [T] {
            try bind(values)
            defer { sqlite3_reset(statement) }
            var found: [T] = []
            while try step() { found.append(read(self)) }
            return found
        }

        /// Binds and runs a statement that returns no rows.
        package func run(_ values: [SQLiteValue]) throws(SQLiteError) {
            try bind(values)
            while try step() {}
        }

        package func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

        package func text(_ column: Int32) -> String? {
            guard sqlite3_column_type(statement, column) != SQLITE_NULL, let bytes = sqlite3_column_text(statement, column) else { return nil }
            return String(cString: bytes)
        }
    }
}

/// A value bound to a statement's parameter.
package enum SQLiteValue {
    case null
    case integer(Int64)
    case text(String)
    /// Text given as its UTF-8 bytes, bound without making a `String` (the trend index's
    /// packed findings, tens of kilobytes an audit). Bytes that are not UTF-8 are stored as
    /// they are and repaired when read (``Statement/text(_:)``).
    case utf8([UInt8])

    package static func optional(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
}
