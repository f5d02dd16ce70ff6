import Foundation

/// Who may change settings over the socket: root, the daemon's own user, and members of the configured
/// admin group (by primary group or membership, as the user database says). Peers are known by SO_PEERCRED.
struct AdminGroup: Sendable {
    let name: String
    let gid: gid_t?

    /// - Parameter name: the group; empty for none (then root and the daemon's own user only).
    init(name: String) {
        self.name = name
        gid = name.isEmpty ? nil : getgrnam(name).map { $0.pointee.gr_gid }
    }

    func admits(uid: uid_t, primaryGroup: gid_t) -> Bool {
        if uid == 0 || uid == geteuid() { return true }
        guard let admin = gid else { return false }
        if primaryGroup == admin { return true }
        return Self.groups(of: uid, primary: primaryGroup).contains(admin)
    }

    /// Why a peer may not change settings.
    func refusal(uid: uid_t?) -> String {
        let who = uid.map { "uid \($0)" } ?? "this client"
        return name.isEmpty
            ? "changing settings is for root only (\(who) is not; set [socket] admin_group to allow a group)"
            : "changing settings needs membership of group '\(name)' (\(who) is not a member)"
    }

    /// The groups the user database gives `uid`.
    private static func groups(of uid: uid_t, primary: gid_t) -> [gid_t] {
        guard let pw = getpwuid(uid), let name = pw.pointee.pw_name else { return [primary] }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, primary, &groups, &count) == -1 {
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, primary, &groups, &count) != -1 else { return [primary] }
        }
        return Array(groups.prefix(Int(count)))
    }
}
