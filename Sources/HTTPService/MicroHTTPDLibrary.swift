internal import CMicroHTTPD

/// Facts about the linked libmicrohttpd, for `provision --version`.
public enum MicroHTTPDLibrary {
    /// libmicrohttpd's version, e.g. `0.9.75`. The corresponding C function is `MHD_get_version`.
    public static var version: String { String(cString: MHD_get_version()) }
}
