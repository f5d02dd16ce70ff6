// The decoder child's sandbox: it decodes memory it was given and writes to the pipes it inherited.
// A seccomp filter refuses (EPERM) sockets, exec, and opening files for writing or creating them, so
// a decoder exploited through a hostile image can neither reach the network nor leave files behind.
#include "scand_zxing_internal.h"

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace szx_internal {

#if defined(__x86_64__)
#define SZX_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SZX_ARCH AUDIT_ARCH_AARCH64
#endif

void Sandbox()
{
#ifdef SZX_ARCH
    constexpr unsigned kWriteFlags = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND;
#define DENY(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM)
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SZX_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        DENY(__NR_socket),
        DENY(__NR_socketpair),
        DENY(__NR_connect),
        DENY(__NR_bind),
        DENY(__NR_execve),
        DENY(__NR_execveat),
        DENY(__NR_mkdirat),
        DENY(__NR_unlinkat),
        DENY(__NR_renameat2),
        DENY(__NR_linkat),
        DENY(__NR_symlinkat),
#ifdef __NR_open
        DENY(__NR_creat),
        DENY(__NR_mkdir),
        DENY(__NR_unlink),
        DENY(__NR_rename),
        // open(path, flags): refuse writing flags (args[1]).
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_open, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, kWriteFlags, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#endif
        // openat(dirfd, path, flags): refuse writing flags (args[2]).
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, kWriteFlags, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
#undef DENY
    struct sock_fprog prog = {static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
    // Best effort: where seccomp is unavailable the child still decodes, unsandboxed.
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0)
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
#endif
}

void ProbeSandbox(szx_outcome &o)
{
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    int socketErr = s < 0 ? errno : 0;
    if (s >= 0)
        close(s);
    int f = open("/tmp/scand-sandbox-probe", O_WRONLY | O_CREAT, 0600);
    int createErr = f < 0 ? errno : 0;
    if (f >= 0)
        close(f);
    std::string m = std::string("sandbox: socket ") + (socketErr ? strerrorname_np(socketErr) : "allowed") + ", create " +
                    (createErr ? strerrorname_np(createErr) : "allowed");
    CopyString(o.message, sizeof o.message, m);
}

} // namespace szx_internal
