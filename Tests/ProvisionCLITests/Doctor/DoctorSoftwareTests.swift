import ReaderPCSC
import Testing

@testable import ProvisionCLI

/// The libnfc, pcsc-lite and pcscd checks from what the libraries and tools answered.
@Suite struct DoctorSoftwareTests {
    @Test func libnfcFromItsVersionString() {
        let current = DoctorSoftware.libnfcCheck(version: "1.8.0")
        #expect(current.status == .ok && current.detail == "libnfc 1.8.0 (nfc_version)")
        #expect(DoctorSoftware.libnfcCheck(version: "1.9.1-dev").status == .ok)
        let old = DoctorSoftware.libnfcCheck(version: "1.7.1")
        #expect(old.status == .warn)
        #expect(old.detail.contains("older than 1.8.0"))
        #expect(DoctorSoftware.libnfcCheck(version: "unknown").status == .warn)
    }

    @Test func installedPackageVersionNeedsAnInstalledPackage() {
        #expect(DoctorSoftware.installedPackageVersion("install ok installed\t1.9.9-2") == "1.9.9-2")
        #expect(DoctorSoftware.installedPackageVersion("install ok installed\t1.9.9-2\n") == "1.9.9-2")
        #expect(DoctorSoftware.installedPackageVersion("deinstall ok config-files\t1.9.9-2") == nil)
        #expect(DoctorSoftware.installedPackageVersion("unknown ok not-installed\t") == nil)
        #expect(DoctorSoftware.installedPackageVersion("") == nil)
    }

    @Test func pcscLiteFromThePackageOrTheDaemon() {
        let package = DoctorSoftware.pcscLiteCheck(version: "1.9.9-2", source: "Debian package pcscd")
        #expect(package.status == .ok && package.detail == "pcscd 1.9.9-2 (Debian package pcscd)")
        let daemon = DoctorSoftware.pcscLiteCheck(
            version: "pcsc-lite version 1.9.9.\nCopyright (C) 1999-2002 by David Corcoran", source: "pcscd --version")
        #expect(daemon.status == .ok && daemon.detail == "pcscd 1.9.9 (pcscd --version)")
        #expect(DoctorSoftware.pcscLiteCheck(version: "1.8.24-1", source: "Debian package pcscd").status == .warn)
        #expect(DoctorSoftware.pcscLiteCheck(version: "none", source: "pcscd --version").status == .warn)
    }

    @Test func pcscdFromItsAnswerAndTheProcessList() {
        let answered = DoctorSoftware.pcscdCheck(answer: .success(["ACS ACR122U 00 00"]), processIDs: [42])
        #expect(answered.status == .ok)
        #expect(answered.detail == "pcscd is running (pid 42) and answers; it knows 1 reader")
        let noService = PCSCError(.noService, "pcscd is not running", status: .noService)
        let stopped = DoctorSoftware.pcscdCheck(answer: .failure(noService), processIDs: [])
        #expect(stopped.status == .warn)
        #expect(stopped.detail.hasPrefix("pcscd is not running (SCardListReaders: "))
        #expect(stopped.detail.contains("systemctl start pcscd.socket"))
        let stuck = DoctorSoftware.pcscdCheck(answer: .failure(noService), processIDs: [7, 9])
        #expect(stuck.status == .warn && stuck.detail.hasPrefix("pcscd runs (pid 7, 9) but does not answer"))
        let silent = DoctorSoftware.pcscdCheck(answer: nil, processIDs: [])
        #expect(silent.status == .warn && silent.detail.contains("did not answer within 5 s"))
    }
}
