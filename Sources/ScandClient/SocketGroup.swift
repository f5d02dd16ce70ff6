import Glibc

/// The group whose members may connect to a socket (scand-clients for the packaged daemon), for a message
/// that says which group to join: the socket file's, or, when its directory cannot be searched (so the
/// file cannot be looked at), the directory's.
public enum SocketGroup {
    public static func of(_ path: String) -> String? {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 }
        for candidate in [path] + (directory.map { [$0] } ?? []) {
            var st = stat()
            if stat(candidate, &st) == 0, let entry = getgrgid(st.st_gid) { return String(cString: entry.pointee.gr_name) }
        }
        return nil
    }

    /// What to do about a permission denied on `path`: join its group, by name when it can be told.
    public static func advice(for path: String) -> String {
        guard let group = of(path) else { return "join the group of the socket (ls -l shows it), then log in again" }
        return "join its group \(group) (sudo usermod -aG \(group) $USER, then log in again)"
    }
}
