// The decoder child's sandbox: it decodes memory it was given and writes to the pipes it inherited. A seccomp
// filter allows exactly the system calls that needs (measured with strace -f on the tests and `scand scan`):
// memory (never executable), its pipes, signalling itself (abort), exit. Anything else fails with EPERM, so a
// decoder exploited through a hostile image can open no file, socket or io_uring, create nothing, and neither
// signal, trace nor read another process.
#include "scand_zxing_internal.h"

#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstring>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

namespace szx_internal {

#if defined(__x86_64__)
#define SZX_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SZX_ARCH AUDIT_ARCH_AARCH64
#endif

namespace {
pid_t parentPid = 0;  // for the probe: the process the sandbox must keep the child away from
}

void Sandbox()
{
    parentPid = getppid();
#ifdef SZX_ARCH
    const unsigned self = (unsigned)getpid();
#define ALLOW(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
// Allowed unless the argument has one of `bits`: mmap and mprotect, never executable.
#define ALLOW_WITHOUT(nr, arg, bits)                                                                \
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 4),                                                \
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[arg])),               \
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, (bits), 1, 0), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW), \
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM)
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SZX_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        // The pipes and the request socket it inherited.
        ALLOW(__NR_read),
        ALLOW(__NR_write),
        ALLOW(__NR_close),
        // malloc.
        ALLOW(__NR_brk),
        ALLOW(__NR_munmap),
        ALLOW(__NR_mremap),
        ALLOW(__NR_madvise),
        ALLOW_WITHOUT(__NR_mmap, 2, PROT_EXEC),
        ALLOW_WITHOUT(__NR_mprotect, 2, PROT_EXEC),
        ALLOW(__NR_futex),
        ALLOW(__NR_clock_gettime),
        // abort(): SIGABRT to itself, and only to itself.
        ALLOW(__NR_getpid),
        ALLOW(__NR_gettid),
        ALLOW(__NR_rt_sigprocmask),
        ALLOW(__NR_rt_sigaction),
        ALLOW(__NR_rt_sigreturn),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_tgkill, 0, 4),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, self, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        ALLOW(__NR_restart_syscall),
        ALLOW(__NR_exit),
        ALLOW(__NR_exit_group),
#ifdef __NR_pause
        ALLOW(__NR_pause),  // fault 3 (tests): a decoder that hangs
#else
        ALLOW(__NR_ppoll),
#endif
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    };
#undef ALLOW
#undef ALLOW_WITHOUT
    struct sock_fprog prog = {static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
    // Best effort: where seccomp is unavailable the child still decodes, unsandboxed.
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0)
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
#endif
}

namespace {

// "EPERM", or "allowed" when the call succeeded (`result` >= 0).
std::string Verdict(long result)
{
    return result < 0 ? strerrorname_np(errno) : "allowed";
}

long Closing(long fd)
{
    if (fd >= 0)
        close((int)fd);
    return fd;
}

} // namespace

// Each call the sandbox must refuse, tried for real; and a line written to stdout, which must not reach the
// parent's (the daemon's event stream).
void ProbeSandbox(szx_outcome &o)
{
    static const char kStdout[] = "SCAND-SANDBOX-PROBE on the decoder child's stdout\n";
    (void)!write(1, kStdout, sizeof kStdout - 1);
    std::string m = "sandbox:";
    auto note = [&](const char *what, long result) { m += std::string(m.size() > 8 ? ", " : " ") + what + " " + Verdict(result); };
    note("socket", Closing(socket(AF_UNIX, SOCK_STREAM, 0)));
    note("create", Closing(open("/tmp/scand-sandbox-probe", O_WRONLY | O_CREAT, 0600)));
    struct open_how how = {};
    how.flags = O_WRONLY | O_CREAT;
    how.mode = 0600;
    note("openat2", Closing(syscall(SYS_openat2, AT_FDCWD, "/tmp/scand-sandbox-probe", &how, sizeof how)));
    note("mknodat", mknodat(AT_FDCWD, "/tmp/scand-sandbox-probe-fifo", S_IFIFO | 0600, 0));
    note("/etc/shadow", Closing(open("/etc/shadow", O_RDONLY)));
    note("kill", kill(parentPid, 0));
    note("ptrace", ptrace(PTRACE_SEIZE, parentPid, nullptr, nullptr));
    pid_t copy = 0;
    struct iovec local = {&copy, sizeof copy}, remote = {&parentPid, sizeof parentPid};
    note("process_vm_readv", process_vm_readv(parentPid, &local, 1, &remote, 1, 0));
    char params[120] = {};  // struct io_uring_params
    note("io_uring_setup", Closing(syscall(SYS_io_uring_setup, 1, params)));
    CopyString(o.message, sizeof o.message, m);
}

} // namespace szx_internal
