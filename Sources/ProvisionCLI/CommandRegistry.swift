/// Every subcommand, in the order `provision --help` lists them. Add new commands here.
enum CommandRegistry {
    static let all: [any Command.Type] = [
        InspectCommand.self,
        WriteCommand.self,
        LockCommand.self,
        ReadersCommand.self,
        DoctorCommand.self,
        NDEFCommand.self,
        ValidateCommand.self,
        RunCommand.self,
        AuditCommand.self,
        ReportCommand.self,
        StatusCommand.self,
        EventsCommand.self,
        PublishCommand.self,
        ReleaseCommand.self,
        ReissueCommand.self,
        LedgerCommand.self,
        VerifyURLCommand.self,
        ServeCommand.self,
        KeysCommand.self,
        EmulateCommand.self,
    ]

    static func command(named name: String) -> (any Command.Type)? {
        all.first { $0.name == name }
    }
}
