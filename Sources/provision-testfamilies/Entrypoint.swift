import Foundation
import NFCTags
import ProvisionCLI
import TestSupport

/// `provision` with the test families: the keyed memory family (`"tag": "kmem-1"`) registered, and its reader
/// backend `kmem:DIR?count=N`, whose tags keep their state in DIR (one file each, saved after every change) so a
/// killed run loses nothing a tag holds. For end-to-end and kill tests only; the shipped `provision` does not
/// link TestSupport.
@main
enum Entrypoint {
    static func main() async {
        TagFamilies.register(KeyedMemoryFamily())
        ProvisionCLI.registerReaderBackend("kmem", simulated: true) { spec in [try KeyedMemoryTagReader(spec: spec)] }
        let status = await ProvisionCLI.run(Array(CommandLine.arguments.dropFirst()), context: .standard())
        exit(status)
    }
}
