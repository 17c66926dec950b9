import Foundation
import ProvisionCLI

/// The `provision` executable: everything lives in the `ProvisionCLI` library.
@main
enum Entrypoint {
    static func main() async {
        let status = await ProvisionCLI.run(Array(CommandLine.arguments.dropFirst()), context: .standard())
        exit(status)
    }
}
