// The decoder processes: scand-decoder, an executable of its own, started with posix_spawn. Nothing runs
// between fork and exec in scand's image (a threaded process, where only async-signal-safe calls are safe
// after fork). It is given its request socket, its two pipes and the shared buffers (memfds) as descriptors
// named on its command line, maps the buffers read-only, closes everything else, enters the sandbox and
// serves requests until its request socket closes.
#include "scand_zxing_internal.h"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <poll.h>
#include <spawn.h>
#include <string>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace szx_internal {

namespace {

constexpr const char *kExecutable = "scand-decoder";
// The requests' layout, named on the command line: a scand started before an upgrade replaced scand-decoder
// beside it (until the package restarts it) gets a clear refusal, not requests read in another layout.
constexpr const char *kProtocol = "requests-v1";

struct Located {
    std::string path, why;
};

Located Locate()
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return {"", std::string("cannot find the running executable (/proc/self/exe: ") + std::strerror(errno) + ")"};
    std::string dir(exe, (size_t)n);
    dir.erase(dir.find_last_of('/') == std::string::npos ? 0 : dir.find_last_of('/'));
    // Beside scand (a build folder, /usr/local/bin), or where the Debian package puts helpers.
    for (const std::string &candidate : {dir + "/" + kExecutable, dir + "/../libexec/scand/" + kExecutable})
        if (access(candidate.c_str(), X_OK) == 0)
            return {candidate, ""};
    return {"", std::string("no decoder executable: ") + kExecutable + " is neither in " + dir + " nor in " + dir +
                    "/../libexec/scand (install it with scand)"};
}

// A decimal argument, wholly a number within [0, max].
bool Number(const char *text, long long max, long long &value)
{
    if (!text || !*text)
        return false;
    errno = 0;
    char *end = nullptr;
    long long v = std::strtoll(text, &end, 10);
    if (errno || *end || v < 0 || v > max)
        return false;
    value = v;
    return true;
}

struct Mapped {
    const uint8_t *data;
    size_t size;
};

// The bytes [offset, offset + size) of buffer `id`, or nullptr when they do not lie wholly inside it.
const uint8_t *Span(const std::map<int, Mapped> &buffers, int id, uint64_t offset, uint64_t size)
{
    auto b = buffers.find(id);
    if (b == buffers.end() || offset > b->second.size || size > b->second.size - offset)
        return nullptr;
    return b->second.data + offset;
}

[[noreturn]] void Serve(int requests, int out, const std::map<int, Mapped> &buffers)
{
    for (;;) {
        Request r;
        if (!ReadAll(requests, &r, sizeof r))
            _exit(0);  // the parent closed: nothing more to do
        if (r.count < 0 || r.count > kMaxRequestItems || r.from < 0 || r.from > r.count)
            _exit(65);
        if (r.kind == kPassesRequest) {
            // The geometry is checked first, against any address; then the image must lie in the buffer.
            static const uint8_t somewhere = 0;
            szx_image image{&somewhere, r.width, r.height, r.rowStride, r.pixStride};
            if (!ValidImage(&image))
                _exit(65);
            image.data = Span(buffers, r.buffer, r.offset, ImageExtent(image));
            if (!image.data)
                _exit(65);
            std::vector<szx_pass> passes((size_t)r.count);
            if (r.count > 0 && !ReadAll(requests, passes.data(), sizeof(szx_pass) * passes.size()))
                _exit(0);
            ServePasses(&image, passes.data(), r.from, r.count, out);
        } else if (r.kind == kImagesRequest) {
            std::vector<FileSpan> spans((size_t)r.count);
            if (r.count > 0 && !ReadAll(requests, spans.data(), sizeof(FileSpan) * spans.size()))
                _exit(0);
            std::vector<szx_encoded> files;
            for (const FileSpan &s : spans) {
                const uint8_t *data = s.offset == kNoData ? nullptr : Span(buffers, r.buffer, s.offset, s.size);
                if (s.offset != kNoData && !data)
                    _exit(65);
                files.push_back({data, data ? (size_t)s.size : 0});
            }
            ServeImages(files.data(), r.from, r.count, r.channels, r.maxPixels, out);
        } else {
            _exit(65);
        }
        Send(out, kBatchDone, nullptr, 0);
    }
}

} // namespace

bool ReadAll(int fd, void *data, size_t size)
{
    char *p = static_cast<char *>(data);
    return MoveAll(size, [&](size_t done) { return read(fd, p + done, size - done); });
}

// A process started without stdin, stdout or stderr (`scand run <&- >&-`) gets /dev/null there before anything
// else runs: else the Swift runtime's first descriptors, or a frame buffer, take those numbers, and events and
// log lines are written into them. Every program that links the shim (scand, its decoder, tests) is started so.
__attribute__((constructor)) static void HoldStandardStreams()
{
    for (int fd = 0; fd <= 2; ++fd)
        if (fcntl(fd, F_GETFD) == -1 && errno == EBADF)
            open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);  // the lowest free number, which is `fd`
}

const std::string &DecoderPath(std::string *why)
{
    static const Located located = Locate();
    if (why)
        *why = located.why;
    return located.path;
}

bool DecoderProcess::spawn(const std::vector<SharedMapping> &shared, std::string &why)
{
    const std::string &path = DecoderPath(&why);
    if (path.empty())
        return false;
    int req[2], o[2], e[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, req) != 0) {
        why = std::string("socketpair: ") + std::strerror(errno);
        return false;
    }
    if (pipe2(o, O_CLOEXEC) != 0) {
        why = std::string("pipe: ") + std::strerror(errno);
        close(req[0]);
        close(req[1]);
        return false;
    }
    if (pipe2(e, O_CLOEXEC) != 0) {
        why = std::string("pipe: ") + std::strerror(errno);
        for (int fd : {req[0], req[1], o[0], o[1]})
            close(fd);
        return false;
    }
    // The child's descriptors keep their numbers: dup2 onto itself clears close-on-exec for that one only,
    // so no other thread's spawn can inherit them.
    std::vector<std::string> args = {path, kProtocol, std::to_string(getpid()), std::to_string(req[1]), std::to_string(o[1]),
                                     std::to_string(e[1])};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    // stdin and stdout on /dev/null from the start: the daemon's stdout is its event stream.
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    for (int fd : {req[1], o[1], e[1]})
        posix_spawn_file_actions_adddup2(&actions, fd, fd);
    for (const SharedMapping &m : shared) {
        posix_spawn_file_actions_adddup2(&actions, m.fd, m.fd);
        args.push_back(std::to_string(m.id) + ":" + std::to_string(m.fd) + ":" + std::to_string(m.size));
    }
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    // The daemon blocks SIGTERM and the like for its own handling; a decoder must die of them.
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    std::vector<char *> argv;
    for (std::string &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    char *noEnvironment[] = {nullptr};
    pid_t child = -1;
    // A failure (ETXTBSY included: an executable still open for writing somewhere) fails this read only;
    // the next read starts another process.
    int failed = posix_spawn(&child, path.c_str(), &actions, &attributes, argv.data(), noEnvironment);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(req[1]);
    close(o[1]);
    close(e[1]);
    if (failed) {
        why = path + ": " + std::strerror(failed);
        close(req[0]);
        close(o[0]);
        close(e[0]);
        errno = failed;
        return false;
    }
    pid = child;
    requests = req[0];
    out = o[0];
    err = e[0];
    return true;
}

void DecoderProcess::retire()
{
    // Closing the request channel lets the process exit on its own (and be reaped, so its CPU time counts
    // among the parent's children); one that does not within 200 ms is killed.
    if (requests >= 0) {
        close(requests);
        requests = -1;
    }
    if (pid > 0) {
        // Waited for on a pidfd, so a process that exits at once is reaped at once.
        int exited = (int)syscall(SYS_pidfd_open, pid, 0);
        if (exited >= 0) {
            pollfd p = {exited, POLLIN, 0};
            while (poll(&p, 1, 200) < 0 && errno == EINTR) {
            }
            close(exited);
        }
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid)
            pid = -1;
    }
    stop();
}

void DecoderProcess::stop(bool kill)
{
    if (pid > 0) {
        if (kill)
            ::kill(pid, SIGKILL);
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    for (int *fd : {&requests, &out, &err})
        if (*fd >= 0) {
            close(*fd);
            *fd = -1;
        }
    pid = -1;
}

} // namespace szx_internal

using namespace szx_internal;

extern "C" int szx_decoder_main(int argc, char **argv)
{
    // argv: the requests' layout, parent pid, request socket, result pipe, error pipe, then id:fd:size for each
    // shared buffer.
    long long parent = 0, requests = 0, out = 0, err = 0;
    if (argc >= 2 && std::strncmp(argv[1], "requests-", 9) == 0 && std::strcmp(argv[1], kProtocol) != 0) {
        std::fprintf(stderr, "scand-decoder: scand sends %s, this scand-decoder reads %s: they are from different builds (restart scand)\n",
                     argv[1], kProtocol);
        return 64;
    }
    if (argc < 6 || std::strcmp(argv[1], kProtocol) != 0 || !Number(argv[2], INT_MAX, parent) ||
        !Number(argv[3], INT_MAX, requests) || !Number(argv[4], INT_MAX, out) || !Number(argv[5], INT_MAX, err)) {
        std::fprintf(stderr, "scand-decoder: scand starts this program to decode its frames; it is not run by hand\n");
        return 64;
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != (pid_t)parent)
        return 0;  // scand ended before the death signal was armed
    std::map<int, Mapped> buffers;
    for (int k = 6; k < argc; ++k) {
        long long id = 0, fd = 0, size = 0;
        std::string a = argv[k];
        size_t c1 = a.find(':'), c2 = a.find(':', c1 == std::string::npos ? 0 : c1 + 1);
        if (c1 == std::string::npos || c2 == std::string::npos || !Number(a.substr(0, c1).c_str(), INT_MAX, id) ||
            !Number(a.substr(c1 + 1, c2 - c1 - 1).c_str(), INT_MAX, fd) || !Number(a.substr(c2 + 1).c_str(), LLONG_MAX, size) ||
            size == 0) {
            std::fprintf(stderr, "scand-decoder: bad shared buffer argument %s\n", argv[k]);
            return 64;
        }
        void *p = mmap(nullptr, (size_t)size, PROT_READ, MAP_SHARED, (int)fd, 0);
        if (p == MAP_FAILED) {
            std::fprintf(stderr, "scand-decoder: cannot map shared buffer %lld: %s\n", id, std::strerror(errno));
            return 71;
        }
        close((int)fd);
        buffers[(int)id] = {static_cast<const uint8_t *>(p), (size_t)size};
    }
    CloseInherited({(int)requests, (int)out, (int)err});
    PrepareChild((int)err);
    Serve((int)requests, (int)out, buffers);
}

extern "C" const char *szx_decoder_path(char *why, size_t why_size)
{
    std::string reason;
    const std::string &path = DecoderPath(&reason);
    if (why && why_size > 0)
        CopyString(why, why_size, reason);
    return path.empty() ? nullptr : path.c_str();
}
