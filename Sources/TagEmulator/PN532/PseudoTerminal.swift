#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal pair for a device emulator: the emulator reads and writes the master, the host
/// opens the slave path (`docs/reference/pn532-libnfc.md` §8.1, §9 pitfall 1).
///
/// The slave is opened at once, made raw, and kept open for the pair's whole life, so reads on the
/// master never fail with `EIO` and the line discipline never echoes or rewrites bytes. The host is given
/// a link of its own (`/tmp/pn532.XXXXXX/tty` → `/dev/pts/N`), removed at hang-up: pty numbers are reused
/// at once, so a host still reopening a gone emulator's `/dev/pts/N` would otherwise claim the next
/// emulator's pty (libnfc marks a port it holds as claimed and refuses it to every other opener).
/// Not `Sendable`: it owns two descriptors closed in `deinit`.
public final class PseudoTerminal {
    /// The master descriptor (non-blocking).
    public let master: Int32
    /// The slave descriptor this object keeps open.
    public let slave: Int32
    /// The path the host opens: the pair's own link to the slave, or the slave (`/dev/pts/3`) when no
    /// link could be made.
    public let slavePath: String
    /// The slave device, e.g. `/dev/pts/3`.
    public let devicePath: String
    /// The folder holding the link (`nil`: no link).
    private let linkFolder: String?

    /// Opens a pty pair (`posix_openpt`, `grantpt`, `unlockpt`, `ptsname_r`) with a raw slave.
    ///
    /// - Throws: `PN532ControlError` naming the failing call and `errno`.
    public init() throws(PN532ControlError) {
        guard let calls = PTYCalls.load() else { throw PN532ControlError("the C library lacks posix_openpt") }
        let master = calls.openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw Self.failure("posix_openpt") }
        guard calls.grantpt(master) == 0, calls.unlockpt(master) == 0 else {
            let error = Self.failure("grantpt/unlockpt")
            close(master)
            throw error
        }
        var name = [CChar](repeating: 0, count: 128)
        guard calls.ptsname(master, &name, name.count) == 0 else {
            let error = Self.failure("ptsname_r")
            close(master)
            throw error
        }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            let error = Self.failure("open \(path)")
            close(master)
            throw error
        }
        var settings = termios()
        tcgetattr(slave, &settings)
        cfmakeraw(&settings)
        cfsetispeed(&settings, speed_t(B115200))
        cfsetospeed(&settings, speed_t(B115200))
        tcsetattr(slave, TCSANOW, &settings)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        self.master = master
        self.slave = slave
        devicePath = path
        linkFolder = Self.link(to: path)
        slavePath = linkFolder.map { $0 + "/tty" } ?? path
    }

    /// A fresh folder under `/tmp` holding `tty` → `device`; `nil` when either cannot be made.
    private static func link(to device: String) -> String? {
        var template = Array("/tmp/pn532.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        let folder = String(cString: made)
        guard symlink(device, folder + "/tty") == 0 else {
            rmdir(folder)
            return nil
        }
        return folder
    }

    /// Whether `hangUp()` closed the pair.
    public private(set) var isHungUp = false

    deinit {
        hangUp()
    }

    /// Closes both ends, as unplugging a USB serial adapter does: the host's next read or write on the
    /// slave fails (`EIO`).
    public func hangUp() {
        guard !isHungUp else { return }
        isHungUp = true
        if let linkFolder {
            unlink(linkFolder + "/tty")
            rmdir(linkFolder)
        }
        close(slave)
        close(master)
    }

    /// Reads what is available on the master (empty when nothing is).
    public func readAvailable() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        return count > 0 ? Array(buffer.prefix(count)) : []
    }

    /// Writes all of `bytes` to the master (the pty buffer is large; retries on `EAGAIN`).
    public func write(_ bytes: [UInt8]) {
        var offset = 0
        var attempts = 0
        while offset < bytes.count, attempts < 1000 {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else {
                attempts += 1
                usleep(100)
            }
        }
    }

    private static func failure(_ call: String) -> PN532ControlError {
        PN532ControlError("\(call) failed: \(String(cString: strerror(errno)))")
    }
}

/// glibc's pty calls, which its Swift module map hides behind `_XOPEN_SOURCE`; looked up by name.
private struct PTYCalls {
    let openpt: @convention(c) (Int32) -> Int32
    let grantpt: @convention(c) (Int32) -> Int32
    let unlockpt: @convention(c) (Int32) -> Int32
    let ptsname: @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

    static func load() -> PTYCalls? {
        let process = dlopen(nil, RTLD_NOW)
        guard let openpt = dlsym(process, "posix_openpt"), let grant = dlsym(process, "grantpt"),
            let unlock = dlsym(process, "unlockpt"), let name = dlsym(process, "ptsname_r")
        else { return nil }
        return PTYCalls(
            openpt: unsafeBitCast(openpt, to: (@convention(c) (Int32) -> Int32).self),
            grantpt: unsafeBitCast(grant, to: (@convention(c) (Int32) -> Int32).self),
            unlockpt: unsafeBitCast(unlock, to: (@convention(c) (Int32) -> Int32).self),
            ptsname: unsafeBitCast(name, to: (@convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32).self))
    }
}
