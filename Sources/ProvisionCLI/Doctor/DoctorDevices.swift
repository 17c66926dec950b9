import Foundation

/// The permission checks of `provision doctor`: `devices` (can this user open the serial and USB
/// nodes libnfc readers use) and `lock-folder` (can it create the reader lock files).
enum DoctorDevices {
    /// One device node a reader may use.
    struct Node: Sendable, Hashable {
        /// `/dev/ttyUSB0`, `/dev/bus/usb/001/004`.
        var path: String
        /// The node's group (`dialout`, `plugdev`, `root`).
        var group: String
        /// Whether this user may open it for reading and writing.
        var accessible: Bool
    }

    /// Who runs `provision`.
    struct User: Sendable, Hashable {
        /// The login name.
        var name: String
        /// Whether the effective user is root.
        var isRoot: Bool
        /// The names of the user's groups.
        var groups: Set<String>
    }

    /// The groups Debian gives serial ports (`dialout`) and libnfc's udev rules give USB readers (`plugdev`).
    static let readerGroups = ["dialout", "plugdev"]

    /// USB vendor:product IDs of readers libnfc drives itself (`pn53x_usb`, `acr122_usb`); PC/SC
    /// readers are opened by pcscd, not by this user.
    static let libnfcUSBReaders: [String: String] = [
        "04cc:0531": "Philips/NXP PN531", "054c:0193": "Sony PN531", "04cc:2533": "NXP PN533",
        "04e6:5591": "SCM SCL3711", "04e6:5593": "SCM SCL3712", "1fd3:0608": "ASK LoGO",
        "054c:02e1": "Sony RC-S360", "072f:2200": "ACS ACR122U", "072f:90cc": "Touchatag",
    ]

    /// `devices` from the user and the nodes found.
    static func devicesCheck(user: User, nodes: [Node]) -> DoctorCheck {
        if user.isRoot {
            return DoctorCheck(
                name: "devices", status: .ok,
                detail: "running as root: every reader device opens (a line is better run as a user in "
                    + readerGroups.joined(separator: " and ") + ")")
        }
        let blocked = nodes.filter { !$0.accessible }
        if !blocked.isEmpty {
            let groups = Set(blocked.map(\.group)).subtracting(["root"]).sorted()
            let fix =
                groups.isEmpty
                ? "install libnfc's udev rules (they give USB readers to group plugdev) and re-plug the reader"
                : "sudo usermod -aG \(groups.joined(separator: ",")) \(user.name), then log in again"
            return DoctorCheck(
                name: "devices", status: .warn,
                detail: "\(user.name) cannot open "
                    + blocked.map { "\($0.path) (group \($0.group))" }
                    .joined(separator: ", ") + ": " + fix)
        }
        let missing = readerGroups.filter { !user.groups.contains($0) }
        let checked =
            nodes.isEmpty
            ? "no serial or USB reader device present"
            : "\(user.name) can open " + nodes.map(\.path).joined(separator: ", ")
        guard missing.isEmpty else {
            return DoctorCheck(
                name: "devices", status: .warn,
                detail: "\(checked); \(user.name) is not in \(missing.joined(separator: " or ")): a serial or "
                    + "USB reader plugged in later may not open (sudo usermod -aG \(missing.joined(separator: ",")) "
                    + "\(user.name), then log in again)")
        }
        return DoctorCheck(
            name: "devices", status: .ok,
            detail: "\(checked); \(user.name) is in " + readerGroups.joined(separator: " and "))
    }

    /// `lock-folder`: fail when it is not writable and a libnfc reader is attached, warn without one.
    static func lockFolderCheck(path: String, writable: Bool, libnfcReaders: Int) -> DoctorCheck {
        guard writable else {
            return DoctorCheck(
                name: "lock-folder", status: libnfcReaders > 0 ? .fail : .warn,
                detail: "\(path) is missing or not writable by this user: nfc: readers will not open (each takes "
                    + "a lock file there); make it a tmpfs with mode 1777 (the FHS default)")
        }
        return DoctorCheck(
            name: "lock-folder", status: .ok,
            detail: "\(path) is writable: nfc: readers can take their lock files (provision-libnfc-*.lock)")
    }

    /// The user running this process: name, root or not, and group names.
    static func currentUser() -> User {
        let uid = geteuid()
        let name = getpwuid(uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(uid)"
        var ids = [gid_t](repeating: 0, count: 256)
        let count = getgroups(Int32(ids.count), &ids)
        let groups = (Array(ids.prefix(max(Int(count), 0))) + [getegid()]).compactMap(groupName)
        return User(name: name, isRoot: uid == 0, groups: Set(groups))
    }

    /// Serial nodes a PN532 may sit on, the paths of libnfc connstrings, and libnfc USB readers' nodes.
    static func readerNodes(connstrings: [String]) -> [Node] {
        let fileManager = FileManager.default
        let serial = ((try? fileManager.contentsOfDirectory(atPath: "/dev")) ?? [])
            .filter { $0.hasPrefix("ttyUSB") || $0.hasPrefix("ttyACM") || $0.hasPrefix("ttyAMA") }
            .map { "/dev/" + $0 }
        let named = connstrings.compactMap { text -> String? in
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            return parts.count >= 2 && parts[1].hasPrefix("/dev/") ? String(parts[1]) : nil
        }
        let paths = Array(Set(serial + named + usbReaderNodes())).sorted()
        return paths.compactMap { path in
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return Node(
                path: path, group: groupName(info.st_gid) ?? "gid \(info.st_gid)",
                accessible: access(path, R_OK | W_OK) == 0)
        }
    }

    /// `/dev/bus/usb/BBB/DDD` of each attached USB device whose ID is in `libnfcUSBReaders`.
    private static func usbReaderNodes() -> [String] {
        let root = "/sys/bus/usb/devices"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return entries.compactMap { entry -> String? in
            func read(_ file: String) -> String? {
                (try? String(contentsOfFile: "\(root)/\(entry)/\(file)", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard let vendor = read("idVendor"), let product = read("idProduct"),
                libnfcUSBReaders["\(vendor):\(product)"] != nil,
                let bus = read("busnum").flatMap(Int.init), let device = read("devnum").flatMap(Int.init)
            else { return nil }
            return String(format: "/dev/bus/usb/%03d/%03d", bus, device)
        }
    }

    private static func groupName(_ gid: gid_t) -> String? {
        getgrgid(gid).map { String(cString: $0.pointee.gr_name) }
    }
}
