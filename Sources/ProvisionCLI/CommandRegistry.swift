/// Every subcommand, in the order `provision --help` lists them. Add new commands here.
enum CommandRegistry {
    static let all: [any Command.Type] = [
        NDEFCommand.self,
        ValidateCommand.self,
        EmulateCommand.self,
        AuditCommand.self,
    ]

    static func command(named name: String) -> (any Command.Type)? {
        all.first { $0.name == name }
    }
}
