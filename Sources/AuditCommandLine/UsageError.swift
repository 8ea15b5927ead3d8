/// A usage mistake: an unknown option (with the closest known one suggested), a value the
/// option does not take, a missing value, an operand too many. Printed with the command's
/// usage, exit status 2.
public struct UsageError: Error, CustomStringConvertible {
    public var message: String
    /// The command it is of (`audit`), empty for the program itself.
    public var command: String
    public var description: String { message }

    public init(message: String, command: String) {
        self.message = message
        self.command = command
    }
}
