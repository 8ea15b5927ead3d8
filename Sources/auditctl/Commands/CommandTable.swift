/// Every `auditctl` command, in the order help lists them.
enum CommandTable {
    static var all: [any Command.Type] {
        [
            AuditCommand.self, TranscriptCommand.self, TrendCommand.self, WatchCommand.self, RulesCommand.self, StatusCommand.self, ValidateCommand.self, InspectCommand.self,
            ExportCommand.self,
            CompletionsCommand.self,
        ]
    }
}
