import Testing

@testable import ProvisionCLI

/// Device-node permissions, reader groups and the lock folder.
@Suite struct DoctorDevicesTests {
    private func user(_ groups: Set<String>, root: Bool = false) -> DoctorDevices.User {
        DoctorDevices.User(name: "line", isRoot: root, groups: groups)
    }

    @Test func rootOpensEverything() {
        let node = DoctorDevices.Node(path: "/dev/ttyUSB0", group: "dialout", accessible: true)
        #expect(DoctorDevices.devicesCheck(user: user([], root: true), nodes: [node]).status == .ok)
    }

    @Test func aNodeTheUserCannotOpenWarnsWithTheGroupToJoin() {
        let nodes = [
            DoctorDevices.Node(path: "/dev/ttyUSB0", group: "dialout", accessible: false),
            DoctorDevices.Node(path: "/dev/ttyACM0", group: "dialout", accessible: true),
        ]
        let check = DoctorDevices.devicesCheck(user: user(["plugdev"]), nodes: nodes)
        #expect(check.status == .warn)
        #expect(
            check.detail
                == "line cannot open /dev/ttyUSB0 (group dialout): sudo usermod -aG dialout line, then log in again")
    }

    @Test func aRootOwnedUSBNodeAsksForUdevRules() {
        let node = DoctorDevices.Node(path: "/dev/bus/usb/001/004", group: "root", accessible: false)
        let check = DoctorDevices.devicesCheck(user: user(["dialout", "plugdev"]), nodes: [node])
        #expect(check.status == .warn && check.detail.contains("udev rules"))
    }

    @Test func withoutDevicesTheReaderGroupsDecide() {
        let member = DoctorDevices.devicesCheck(user: user(["dialout", "plugdev", "users"]), nodes: [])
        #expect(member.status == .ok)
        #expect(member.detail == "no serial or USB reader device present; line is in dialout and plugdev")
        let outsider = DoctorDevices.devicesCheck(user: user(["users"]), nodes: [])
        #expect(outsider.status == .warn)
        #expect(outsider.detail.contains("line is not in dialout or plugdev"))
        #expect(outsider.detail.contains("sudo usermod -aG dialout,plugdev line"))
    }

    @Test func anUnwritableLockFolderFailsOnlyWithALibNFCReader() {
        #expect(DoctorDevices.lockFolderCheck(path: "/run/lock", writable: true, libnfcReaders: 1).status == .ok)
        #expect(DoctorDevices.lockFolderCheck(path: "/run/lock", writable: false, libnfcReaders: 0).status == .warn)
        let blocked = DoctorDevices.lockFolderCheck(path: "/run/lock", writable: false, libnfcReaders: 2)
        #expect(blocked.status == .fail && blocked.detail.hasPrefix("/run/lock is missing or not writable"))
    }

    @Test func theCurrentUserHasANameAndGroups() {
        let current = DoctorDevices.currentUser()
        #expect(!current.name.isEmpty)
        #expect(!current.groups.isEmpty)
    }
}
