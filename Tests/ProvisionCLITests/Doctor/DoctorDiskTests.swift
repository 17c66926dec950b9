import Foundation
import TestSupport
import Testing

@testable import ProvisionCLI

/// The disk thresholds and what the disk check says.
@Suite struct DoctorDiskTests {
    private let gib: UInt64 = 1 << 30
    private let mib: UInt64 = 1 << 20

    @Test func thresholdsWarnBelowOneGibibyteAndFailBelow100Mebibytes() {
        #expect(DoctorDisk.status(freeBytes: 50 * gib, writable: true) == .ok)
        #expect(DoctorDisk.status(freeBytes: gib, writable: true) == .ok)
        #expect(DoctorDisk.status(freeBytes: gib - 1, writable: true) == .warn)
        #expect(DoctorDisk.status(freeBytes: 100 * mib, writable: true) == .warn)
        #expect(DoctorDisk.status(freeBytes: 100 * mib - 1, writable: true) == .fail)
        #expect(DoctorDisk.status(freeBytes: 0, writable: true) == .fail)
        #expect(DoctorDisk.status(freeBytes: 50 * gib, writable: false) == .fail)
        #expect(DoctorDisk.status(freeBytes: nil, writable: true) == .warn)
    }

    @Test func theCheckTakesTheWorstFolderAndSaysWhatToDo() {
        func folder(_ role: String, _ free: UInt64?, writable: Bool = true) -> DoctorDisk.Folder {
            DoctorDisk.Folder(role: role, path: "/x", examined: "/x", freeBytes: free, writable: writable)
        }
        let fine = DoctorDisk.diskCheck([folder("current folder", 3 * gib), folder("reports folder", 3 * gib)])
        #expect(fine.status == .ok)
        #expect(fine.detail == "current folder /x: 3.00 GiB free, writable; reports folder /x: 3.00 GiB free, writable")
        let low = DoctorDisk.diskCheck([folder("current folder", 3 * gib), folder("reports folder", 512 * mib)])
        #expect(low.status == .warn && low.detail.contains("512 MiB free") && low.detail.contains("free some space"))
        let locked = DoctorDisk.diskCheck([folder("current folder", 3 * gib, writable: false)])
        #expect(locked.status == .fail && locked.detail.contains("NOT writable"))
    }

    @Test func aMissingReportsFolderIsExaminedWhereItWillBeCreated() throws {
        let base = try Fixtures.temporaryDirectory("doctor-disk")
        defer { try? FileManager.default.removeItem(at: base) }
        let folder = DoctorDisk.examine(role: "reports folder", path: "reports/job", base: base)
        #expect(folder.path == base.appendingPathComponent("reports/job").standardized.path)
        #expect(folder.examined == base.standardized.path)
        #expect(folder.writable)
        #expect((folder.freeBytes ?? 0) > 0)
        #expect(DoctorDisk.diskCheck([folder]).detail.contains("(not there yet; created in \(base.standardized.path))"))
    }

    @Test func sizesReadAsMebibytesBelowOneGibibyte() {
        #expect(DoctorDisk.size(100 * mib) == "100 MiB")
        #expect(DoctorDisk.size(gib) == "1.00 GiB")
        #expect(DoctorDisk.size(gib + gib / 4) == "1.25 GiB")
    }
}
