// The persistent decoder processes: forked once, reused frame after frame. Requests go over a socket pair,
// the image through anonymous shared mappings made before the fork; results come back with the same
// records as the per-call children. A crash or overrun kills and reaps a process; the next request starts
// another. With several lanes, one frame's passes run on several processes at once, all reading the same
// shared image: the second core shortens a frame instead of lengthening the queue.
#include "scand_zxing_internal.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <functional>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <memory>
#include <new>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace szx_internal;

namespace {

constexpr int kMaxLanes = 8;
// Frames in flight: one being captured, one waiting, one being decoded, and slack for a copy.
constexpr size_t kMaxBuffers = 6;
constexpr size_t kSpareBuffers = 4;

struct Request {
    uint64_t data;  // address of the image in a shared mapping the worker inherited
    int32_t width, height, rowStride, pixStride, from, count;
};

struct Range {
    uintptr_t start;
    size_t size;
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

/// The request's image: well formed and wholly inside one of the shared mappings this process was forked with.
bool Inside(const std::vector<Range> &shared, const szx_image &image)
{
    if (!ValidImage(&image))
        return false;
    uintptr_t at = (uintptr_t)image.data;
    size_t extent = ImageExtent(image);
    for (const Range &s : shared)
        if (at >= s.start && at - s.start <= s.size && extent <= s.size - (at - s.start))
            return true;
    return false;
}

[[noreturn]] void WorkerMain(int requests, int out, int err, const std::vector<Range> &shared)
{
    CloseInherited({requests, out, err});
    PrepareChild(err);
    for (;;) {
        Request r;
        if (!ReadAll(requests, &r, sizeof r))
            _exit(0);  // the parent closed: nothing more to do
        szx_image image{reinterpret_cast<const uint8_t *>((uintptr_t)r.data), r.width, r.height, r.rowStride, r.pixStride};
        if (!Inside(shared, image) || r.count < 0 || r.count > 4096 || r.from < 0 || r.from > r.count)
            _exit(65);
        std::vector<szx_pass> passes((size_t)r.count);
        if (r.count > 0 && !ReadAll(requests, passes.data(), sizeof(szx_pass) * passes.size()))
            _exit(0);
        ServePasses(&image, passes.data(), r.from, r.count, out);
        Send(out, kBatchDone, nullptr, 0);
    }
}

/// One decoder process and its channels.
struct Lane {
    pid_t pid = -1;
    int requests = -1, out = -1, err = -1;

    /// Closing the request channel lets the process exit on its own (and be reaped, so its CPU time counts
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

    bool spawn(const std::vector<Range> &shared)
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
            WorkerMain(req[1], o[1], e[1], shared);
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
        return true;
    }
};

/// A thread that runs one lane's share of each read. It lives as long as the worker, because a decoder
/// process dies with the thread that forked it (PR_SET_PDEATHSIG follows the thread, not the process).
class LaneThread {
public:
    LaneThread() : thread([this] { loop(); }) {}

    ~LaneThread()
    {
        {
            std::lock_guard<std::mutex> g(lock);
            quit = true;
        }
        wake.notify_all();
        thread.join();
    }

    void post(std::function<void()> work)
    {
        {
            std::lock_guard<std::mutex> g(lock);
            job = std::move(work);
        }
        wake.notify_all();
    }

    void wait()
    {
        std::unique_lock<std::mutex> g(lock);
        wake.wait(g, [this] { return !job; });
    }

private:
    void loop()
    {
        std::unique_lock<std::mutex> g(lock);
        for (;;) {
            wake.wait(g, [this] { return quit || job; });
            if (quit)
                return;
            g.unlock();
            job();
            g.lock();
            job = nullptr;
            wake.notify_all();
        }
    }

    std::mutex lock;
    std::condition_variable wake;
    std::function<void()> job;
    bool quit = false;
    std::thread thread;  // last: started once the rest is ready
};

/// A shared mapping frames are captured into (or copied into, once, when they were not).
struct Buffer {
    uint8_t *data;
    size_t size;
    bool busy;
};

} // namespace

struct szx_worker {
    std::vector<Lane> lanes;
    // Lane k > 0 runs on threads[k - 1]; lane 0 on the reader's thread. Made on first use.
    std::vector<std::unique_ptr<LaneThread>> threads;
    std::atomic<int> generation{0};
    std::atomic<long long> copies{0};
    std::mutex lock;  // guards buffers and stale; taken briefly by the capture thread too
    std::vector<Buffer> buffers;
    bool stale = false;  // a mapping was made after the processes were forked: they cannot see it

    explicit szx_worker(int n) : lanes((size_t)n) {}

    ~szx_worker()
    {
        retire();
        threads.clear();
        for (Buffer &b : buffers)
            munmap(b.data, b.size);
    }

    void retire()
    {
        for (Lane &l : lanes)
            l.retire();
    }

    uint8_t *acquire(size_t size)
    {
        std::lock_guard<std::mutex> g(lock);
        Buffer *best = nullptr;
        for (Buffer &b : buffers)
            if (!b.busy && b.size >= size && (!best || b.size < best->size))
                best = &b;
        if (best) {
            best->busy = true;
            return best->data;
        }
        if (buffers.size() >= kMaxBuffers) {
            // Make room by unmapping a free buffer that is too small (frames got bigger).
            auto small = std::find_if(buffers.begin(), buffers.end(), [](const Buffer &b) { return !b.busy; });
            if (small == buffers.end())
                return nullptr;
            munmap(small->data, small->size);
            buffers.erase(small);
        }
        // Map spares of the same size with it, so the processes are replaced once per frame size, not per buffer.
        uint8_t *first = nullptr;
        while (buffers.size() < kMaxBuffers && (!first || buffers.size() < kSpareBuffers)) {
            void *p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED)
                break;
            buffers.push_back({static_cast<uint8_t *>(p), size, !first});
            if (!first)
                first = static_cast<uint8_t *>(p);
            stale = true;
        }
        return first;
    }

    void release(const uint8_t *data)
    {
        std::lock_guard<std::mutex> g(lock);
        for (Buffer &b : buffers)
            if (b.data == data)
                b.busy = false;
    }

    /// Whether the image already lies in one of the shared buffers (then nothing is copied).
    bool shares(const szx_image *image)
    {
        std::lock_guard<std::mutex> g(lock);
        size_t extent = ImageExtent(*image);
        for (const Buffer &b : buffers)
            if (b.busy && image->data >= b.data && image->data + extent <= b.data + b.size)
                return true;
        return false;
    }

    /// The mappings a process forked now inherits; processes forked before a newer mapping are replaced first.
    std::vector<Range> sharedForSpawn()
    {
        std::vector<Range> shared;
        std::lock_guard<std::mutex> g(lock);
        if (stale) {
            for (Lane &l : lanes)
                l.stop();
            stale = false;
        }
        for (const Buffer &b : buffers)
            shared.push_back({(uintptr_t)b.data, b.size});
        return shared;
    }

    /// Runs `passes` (a lane's share of a read) on one process, replacing it after a crash or overrun.
    void run(Lane &w, const std::vector<Range> &shared, const szx_image *image, const szx_pass *passes, int count,
             int timeout_ms, szx_outcome *outcomes, std::vector<Found> &found)
    {
        int next = 0, attempts = 0;
        while (next < count) {
            if (w.pid < 0) {
                if (!w.spawn(shared)) {
                    for (int k = next; k < count; ++k) {
                        outcomes[k].status = SZX_SYSTEM;
                        CopyString(outcomes[k].message, sizeof outcomes[k].message, std::strerror(errno));
                    }
                    break;
                }
                ++generation;
            }
            Request r{(uint64_t)(uintptr_t)image->data, image->width, image->height, image->row_stride, image->pix_stride, next, count};
            if (!SendAll(w.requests, &r, sizeof r) || !SendAll(w.requests, passes, sizeof(szx_pass) * (size_t)count)) {
                // The process died between frames: start another and try once more.
                w.stop();
                if (++attempts > 1) {
                    outcomes[next].status = SZX_SYSTEM;
                    CopyString(outcomes[next].message, sizeof outcomes[next].message, "decoder worker does not take requests");
                    ++next;
                }
                continue;
            }
            Collected c = Collect(w.pid, w.out, w.err, next, timeout_ms, outcomes, found, true);
            if (c.batchDone)
                break;
            int status = 0;
            pid_t pid = w.pid;
            w.pid = -1;
            if (!c.timedOut && !c.broken)
                kill(pid, SIGKILL);  // EOF without a crash: make sure it is gone before reaping
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            w.stop(false);
            next = Settle(c, status, count, timeout_ms, outcomes);
        }
    }
};

extern "C" {

szx_worker *szx_worker_create(int lanes)
{
    return new (std::nothrow) szx_worker(std::clamp(lanes, 1, kMaxLanes));
}

void szx_worker_destroy(szx_worker *worker)
{
    delete worker;
}

int szx_worker_lanes(const szx_worker *worker)
{
    return worker ? (int)worker->lanes.size() : 0;
}

int szx_worker_pid(const szx_worker *worker, int lane)
{
    if (!worker || lane < 0 || lane >= (int)worker->lanes.size())
        return -1;
    return (int)worker->lanes[(size_t)lane].pid;
}

void szx_worker_retire(szx_worker *worker)
{
    if (worker)
        worker->retire();
}

int szx_worker_generation(const szx_worker *worker)
{
    return worker ? worker->generation.load() : 0;
}

long long szx_worker_copies(const szx_worker *worker)
{
    return worker ? worker->copies.load() : 0;
}

uint8_t *szx_worker_acquire_buffer(szx_worker *worker, size_t size)
{
    return worker && size > 0 ? worker->acquire(size) : nullptr;
}

void szx_worker_release_buffer(szx_worker *worker, const uint8_t *buffer)
{
    if (worker && buffer)
        worker->release(buffer);
}

int szx_worker_read(szx_worker *w, const szx_image *image, const szx_pass *passes, int count, int timeout_ms,
                    szx_outcome *outcomes, szx_result **results, int *result_count)
{
    if (!w)
        return SZX_BAD_ARGUMENT;
    if (int status = StartRead(image, passes, count, outcomes, results, result_count); status != SZX_OK)
        return status;
    // An image not captured into shared memory is copied there, luma only and dense: the one copy.
    szx_image shared = *image;
    uint8_t *copy = nullptr;
    if (!w->shares(image)) {
        copy = w->acquire((size_t)image->width * (size_t)image->height);
        if (!copy)
            return SZX_SYSTEM;
        ++w->copies;
        for (int y = 0; y < image->height; ++y) {
            const uint8_t *row = image->data + (size_t)y * image->row_stride;
            uint8_t *dst = copy + (size_t)y * image->width;
            if (image->pix_stride == 1) {
                std::memcpy(dst, row, (size_t)image->width);
            } else {
                for (int x = 0; x < image->width; ++x)
                    dst[x] = row[(size_t)x * image->pix_stride];
            }
        }
        shared = szx_image{copy, image->width, image->height, image->width, 1};
    }
    int status = SZX_OK;
    try {
        const std::vector<Range> mappings = w->sharedForSpawn();
        // Each lane gets the passes the caller assigned to it, renumbered from 0.
        size_t n = w->lanes.size();
        std::vector<std::vector<int>> indices(n);
        for (int k = 0; k < count; ++k)
            indices[(size_t)std::max(0, passes[k].lane) % n].push_back(k);
        std::vector<std::vector<szx_pass>> lanePasses(n);
        std::vector<std::vector<szx_outcome>> laneOutcomes(n);
        std::vector<std::vector<Found>> laneFound(n);
        for (size_t l = 0; l < n; ++l) {
            for (int k : indices[l])
                lanePasses[l].push_back(passes[k]);
            szx_outcome notRun{};
            notRun.status = SZX_NOT_RUN;
            laneOutcomes[l].assign(indices[l].size(), notRun);
        }
        auto runLane = [&](size_t l) {
            try {
                w->run(w->lanes[l], mappings, &shared, lanePasses[l].data(), (int)lanePasses[l].size(), timeout_ms,
                       laneOutcomes[l].data(), laneFound[l]);
            } catch (...) {
                for (szx_outcome &o : laneOutcomes[l])
                    if (o.status == SZX_NOT_RUN)
                        o.status = SZX_SYSTEM;
            }
        };
        // Lane 0 runs on this thread, the others on their own threads at the same time.
        if (w->threads.empty())
            for (size_t l = 1; l < n; ++l)
                w->threads.push_back(std::make_unique<LaneThread>());
        for (size_t l = 1; l < n; ++l)
            if (!indices[l].empty())
                w->threads[l - 1]->post([&runLane, l] { runLane(l); });
        if (!indices[0].empty())
            runLane(0);
        for (size_t l = 1; l < n; ++l)
            if (!indices[l].empty())
                w->threads[l - 1]->wait();
        std::vector<Found> found;
        for (size_t l = 0; l < n; ++l) {
            for (size_t i = 0; i < indices[l].size(); ++i)
                outcomes[indices[l][i]] = laneOutcomes[l][i];
            for (Found &f : laneFound[l]) {
                if (f.head.pass < 0 || (size_t)f.head.pass >= indices[l].size())
                    continue;  // a confused child; its pass's outcome says what happened
                f.head.pass = indices[l][(size_t)f.head.pass];
                found.push_back(std::move(f));
            }
        }
        // Pass order, as one process would have produced them.
        std::stable_sort(found.begin(), found.end(), [](const Found &a, const Found &b) { return a.head.pass < b.head.pass; });
        *results = Export(found);
        *result_count = *results ? (int)found.size() : 0;
    } catch (...) {
        status = SZX_SYSTEM;
    }
    if (copy)
        w->release(copy);
    return status;
}

} // extern "C"
