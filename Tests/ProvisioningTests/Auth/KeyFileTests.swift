import Foundation
import TestSupport
import Testing

@testable import Provisioning

/// Key files as Kubernetes and Docker mount them (symbolic links into a data folder), and the folder
/// and owner rules (`KeyFile`).
@Suite struct KeyFileTests {
    let folder: URL
    let keyText = String(repeating: "A1", count: 16)

    init() throws {
        folder = try Fixtures.temporaryDirectory("keyfile")
        chmod(folder.path, 0o700)
    }

    private func makeKey(in directory: URL, mode: mode_t = 0o600) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("brand")
        try Data(keyText.utf8).write(to: file)
        chmod(file.path, mode)
        return file
    }

    @Test func aSymlinkedSecretIsReadFromItsTarget() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // Kubernetes: brand -> ..data/brand, ..data -> ..2026_12_04/ (0755 folder).
        let data = folder.appendingPathComponent("..2026_12_04")
        _ = try makeKey(in: data)
        chmod(data.path, 0o755)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("..data").path, withDestinationPath: "..2026_12_04")
        let link = folder.appendingPathComponent("brand")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "..data/brand")
        #expect(try KeyFile.read(link, id: "brand") == Array(keyText.utf8))
    }

    @Test func aGroupReadableTargetBehindALinkIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = try makeKey(in: folder.appendingPathComponent("data"), mode: 0o640)
        let link = folder.appendingPathComponent("brand")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        #expect { try KeyFile.read(link, id: "brand") } throws: { ($0 as? KeyError)?.reason == .permissions }
    }

    @Test(arguments: [mode_t(0o770), 0o757, 0o777])
    func aFolderOthersCanWriteIsRefused(mode: mode_t) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = folder.appendingPathComponent("open")
        let file = try makeKey(in: directory)
        chmod(directory.path, mode)
        do {
            _ = try KeyFile.read(file, id: "brand")
            Issue.record("read a key from a folder of mode \(String(mode, radix: 8))")
        } catch {
            #expect(error.reason == .permissions && error.message.contains("chmod go-w"), "\(error)")
        }
    }

    @Test func aKeyFileOfAnotherUserIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try makeKey(in: folder.appendingPathComponent("d"))
        guard chown(file.path, 65534, 65534) == 0 else {
            Issue.record("chown needs root (CI runs as root); errno \(errno)")
            return
        }
        #expect { try KeyFile.read(file, id: "brand") } throws: { ($0 as? KeyError)?.reason == .permissions }
    }

    @Test func aFolderOrFifoIsNotAKeyFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect { try KeyFile.read(fifo, id: "brand") } throws: { ($0 as? KeyError)?.reason == .unreadable }
        #expect { try KeyFile.read(folder.appendingPathComponent("none"), id: "b") } throws: {
            ($0 as? KeyError)?.reason == .missing
        }
    }
}
