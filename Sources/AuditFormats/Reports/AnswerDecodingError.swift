/// A daemon answer that is JSON but not what the API promises: a member missing or of the
/// wrong type, named by its place (`findings[3].severity`). auditctl reports it instead of
/// printing defaults — an auditd of another version, or something else on the socket.
package struct AnswerDecodingError: Error, CustomStringConvertible {
    /// Where in the answer: `findings[3].severity`, `summary`, or empty for the whole.
    package var path: String
    /// What is wrong there: `is missing`, `is not a string`, `"fatal" is not a severity`.
    package var problem: String

    package var description: String { path.isEmpty ? "the answer \(problem)" : "`\(path)` \(problem)" }
}
