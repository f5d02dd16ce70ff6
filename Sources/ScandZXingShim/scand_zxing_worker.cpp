// The persistent decoder process: one fork, reused frame after frame. Requests go over a socket pair,
// the image through an anonymous shared mapping made before the fork; results come back with the same
// records as the per-call children. A crash or overrun kills and reaps it; the next request starts a new one.
#include "scand_zxing_internal.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace szx_internal;

namespace {

struct Request {
    int32_t width, height, from, count;
};

bool ReadAll(int fd, void *data, size_t size)
{
    char *p = static_cast<char *>(data);
    return MoveAll(size, [&](size_t done) { return read(fd, p + done, size - done); });
}

bool SendAll(int fd, const void *data, size_t size)
{
    const char *p = static_cast<const char *>(data);
    // MSG_NOSIGNAL: a dead worker must not SIGPIPE the daemon.
    return MoveAll(size, [&](size_t done) { return send(fd, p + done, size - done, MSG_NOSIGNAL); });
}

[[noreturn]] void WorkerMain(int requests, int out, int err, const uint8_t *shm, size_t capacity)
{
    CloseInherited({requests, out, err});
    PrepareChild(err);
    for (;;) {
        Request r;
        if (!ReadAll(requests, &r, sizeof r))
            _exit(0);  // the parent closed: nothing more to do
        if (r.width <= 0 || r.height <= 0 || (size_t)r.width * (size_t)r.height > capacity || r.count < 0 || r.count > 4096 ||
            r.from < 0 || r.from > r.count)
            _exit(65);
        std::vector<szx_pass> passes((size_t)r.count);
        if (r.count > 0 && !ReadAll(requests, passes.data(), sizeof(szx_pass) * passes.size()))
            _exit(0);
        szx_image image{shm, r.width, r.height, r.width, 1};
        ServePasses(&image, passes.data(), r.from, r.count, out);
        Send(out, kBatchDone, nullptr, 0);
    }
}

} // namespace

struct szx_worker {
    uint8_t *shm = nullptr;
    size_t capacity = 0;
    pid_t pid = -1;
    int requests = -1, out = -1, err = -1;
    int generation = 0;

    ~szx_worker()
    {
        retire();
        if (shm)
            munmap(shm, capacity);
    }

    /// Closing the request channel lets the worker exit on its own (and be reaped, so its CPU time counts
    /// among the parent's children); one that does not within 200 ms is killed.
    void retire()
    {
        if (requests >= 0) {
            close(requests);
            requests = -1;
        }
        for (int i = 0; i < 20 && pid > 0; ++i) {
            int status;
            if (waitpid(pid, &status, WNOHANG) == pid) {
                pid = -1;
                break;
            }
            usleep(10000);
        }
        stop();
    }

    void stop(bool kill = true)
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

    /// Shared memory of at least `bytes`; a larger image replaces the mapping and the worker with it.
    bool reserve(size_t bytes)
    {
        if (bytes <= capacity)
            return true;
        stop();
        if (shm)
            munmap(shm, capacity);
        size_t size = std::max(bytes, (size_t)1920 * 1080);
        void *p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            shm = nullptr;
            capacity = 0;
            return false;
        }
        shm = static_cast<uint8_t *>(p);
        capacity = size;
        return true;
    }

    bool spawn()
    {
        int req[2], o[2], e[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, req) != 0)
            return false;
        if (pipe2(o, O_CLOEXEC) != 0) {
            close(req[0]);
            close(req[1]);
            return false;
        }
        if (pipe2(e, O_CLOEXEC) != 0) {
            close(req[0]);
            close(req[1]);
            close(o[0]);
            close(o[1]);
            return false;
        }
        pid_t child = fork();
        if (child == 0) {
            close(req[0]);
            close(o[0]);
            close(e[0]);
            WorkerMain(req[1], o[1], e[1], shm, capacity);
        }
        close(req[1]);
        close(o[1]);
        close(e[1]);
        if (child < 0) {
            close(req[0]);
            close(o[0]);
            close(e[0]);
            return false;
        }
        pid = child;
        requests = req[0];
        out = o[0];
        err = e[0];
        ++generation;
        return true;
    }
};

extern "C" {

szx_worker *szx_worker_create(void)
{
    return new (std::nothrow) szx_worker();
}

void szx_worker_destroy(szx_worker *worker)
{
    delete worker;
}

int szx_worker_pid(const szx_worker *worker)
{
    return worker ? (int)worker->pid : -1;
}

void szx_worker_retire(szx_worker *worker)
{
    if (worker)
        worker->retire();
}

int szx_worker_generation(const szx_worker *worker)
{
    return worker ? worker->generation : 0;
}

int szx_worker_read(szx_worker *w, const szx_image *image, const szx_pass *passes, int count, int timeout_ms,
                    szx_outcome *outcomes, szx_result **results, int *result_count)
{
    if (!w || !results || !result_count || !outcomes || count < 0 || (count > 0 && !passes))
        return SZX_BAD_ARGUMENT;
    *results = nullptr;
    *result_count = 0;
    if (!ValidImage(image))
        return SZX_BAD_ARGUMENT;
    for (int k = 0; k < count; ++k) {
        std::memset(&outcomes[k], 0, sizeof outcomes[k]);
        outcomes[k].status = SZX_NOT_RUN;
    }
    if (!w->reserve((size_t)image->width * (size_t)image->height))
        return SZX_SYSTEM;
    // The one copy: the luma, dense, into shared memory.
    for (int y = 0; y < image->height; ++y) {
        const uint8_t *row = image->data + (size_t)y * image->row_stride;
        uint8_t *dst = w->shm + (size_t)y * image->width;
        if (image->pix_stride == 1) {
            std::memcpy(dst, row, (size_t)image->width);
        } else {
            for (int x = 0; x < image->width; ++x)
                dst[x] = row[(size_t)x * image->pix_stride];
        }
    }
    std::vector<Found> found;
    try {
        int next = 0, attempts = 0;
        while (next < count) {
            if (w->pid < 0 && !w->spawn()) {
                for (int k = next; k < count; ++k) {
                    outcomes[k].status = SZX_SYSTEM;
                    CopyString(outcomes[k].message, sizeof outcomes[k].message, std::strerror(errno));
                }
                break;
            }
            Request r{image->width, image->height, next, count};
            if (!SendAll(w->requests, &r, sizeof r) || !SendAll(w->requests, passes, sizeof(szx_pass) * (size_t)count)) {
                // The worker died between frames: start another and try once more.
                w->stop();
                if (++attempts > 1) {
                    outcomes[next].status = SZX_SYSTEM;
                    CopyString(outcomes[next].message, sizeof outcomes[next].message, "decoder worker does not take requests");
                    ++next;
                }
                continue;
            }
            Collected c = Collect(w->pid, w->out, w->err, next, timeout_ms, outcomes, found, true);
            if (c.batchDone) {
                next = count;
                break;
            }
            int status = 0;
            pid_t pid = w->pid;
            w->pid = -1;
            if (!c.timedOut && !c.broken)
                kill(pid, SIGKILL);  // EOF without a crash: make sure it is gone before reaping
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            w->stop(false);
            next = Settle(c, status, count, timeout_ms, outcomes);
        }
        *results = Export(found);
        *result_count = *results ? (int)found.size() : 0;
    } catch (...) {
        return SZX_SYSTEM;
    }
    return SZX_OK;
}

} // extern "C"
