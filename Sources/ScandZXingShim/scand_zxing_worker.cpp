// The persistent decoder processes: started once (scand_decoder_process.cpp), reused frame after frame.
// Requests go over a socket pair, the image through shared memfd buffers the processes were given at their
// start; results come back as records on a pipe. A crash or overrun kills and reaps a process; the next request starts
// another. With several lanes, one frame's passes run on several processes at once, all reading the same
// shared image: the second core shortens a frame instead of lengthening the queue.
#include "scand_zxing_internal.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <memory>
#include <optional>
#include <new>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace szx_internal;

namespace {

constexpr int kMaxLanes = 8;
// Frames in flight: one being captured, one waiting, one being decoded, and slack for a copy.
constexpr size_t kMaxBuffers = 6;
constexpr size_t kSpareBuffers = 4;

bool SendAll(int fd, const void *data, size_t size)
{
    const char *p = static_cast<const char *>(data);
    // MSG_NOSIGNAL: a dead worker must not SIGPIPE the daemon.
    return MoveAll(size, [&](size_t done) { return send(fd, p + done, size - done, MSG_NOSIGNAL); });
}

/// One process's share of a request: its items, where their outcomes and symbols go, and how far it has come.
struct LaneJob {
    DecoderProcess *process;
    Request request;
    const void *items;
    size_t itemSize;
    int count;
    szx_outcome *outcomes;
    std::vector<Found> *found;
    std::vector<Blob> *images;  // image files' decoding only
    int next = 0, attempts = 0;
    std::optional<Collector> collecting;
};

/// A shared buffer frames are captured into (or copied into, once, when they were not): a memfd, given to
/// each decoder process at its start and mapped there read-only.
struct Buffer {
    int id;
    int fd;
    uint8_t *data;
    size_t size;
    bool busy;

    void unmap()
    {
        munmap(data, size);
        close(fd);
    }
};

} // namespace

struct szx_worker {
    // Every lane's process is started and driven from the reader's thread, all at once (one poll): a process
    // dies with the thread that started it (PR_SET_PDEATHSIG follows the thread), so the daemon reads from
    // a thread that lives as long as the worker (the decode loop's event loop); one started from a thread
    // that ended is found dead at the next request and replaced.
    std::vector<DecoderProcess> lanes;
    std::atomic<int> generation{0};
    std::atomic<long long> copies{0};
    std::mutex lock;  // guards buffers and stale; taken briefly by the capture thread too
    std::vector<Buffer> buffers;
    int nextBuffer = 0;
    bool stale = false;  // a buffer was made after the processes started: they do not have it

    size_t spares;  // buffers of a new size mapped at once (a one-read worker needs one)

    explicit szx_worker(int n, size_t spareBuffers = kSpareBuffers) : lanes((size_t)n), spares(spareBuffers) {}

    ~szx_worker()
    {
        retire();
        for (Buffer &b : buffers)
            b.unmap();
    }

    void retire()
    {
        for (DecoderProcess &l : lanes)
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
            small->unmap();
            buffers.erase(small);
        }
        // Map spares of the same size with it, so the processes are replaced once per frame size, not per buffer.
        uint8_t *first = nullptr;
        while (buffers.size() < kMaxBuffers && (!first || buffers.size() < spares)) {
            int fd = memfd_create("scand-frame", MFD_CLOEXEC);
            if (fd < 0)
                break;
            void *p = ftruncate(fd, (off_t)size) == 0 ? mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
            if (p == MAP_FAILED) {
                close(fd);
                break;
            }
            buffers.push_back({nextBuffer++, fd, static_cast<uint8_t *>(p), size, !first});
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

    /// The buffer the image wholly lies in, and where in it (then nothing is copied); false when none holds it.
    bool locate(const szx_image *image, int &id, uint64_t &offset)
    {
        std::lock_guard<std::mutex> g(lock);
        size_t extent = ImageExtent(*image);
        for (const Buffer &b : buffers)
            if (b.busy && image->data >= b.data && image->data + extent <= b.data + b.size) {
                id = b.id;
                offset = (uint64_t)(image->data - b.data);
                return true;
            }
        return false;
    }

    /// Processes started before a newer buffer was made do not have it: they are replaced at their next request.
    void replaceStaleProcesses()
    {
        std::lock_guard<std::mutex> g(lock);
        if (stale) {
            for (DecoderProcess &l : lanes)
                l.stop();
            stale = false;
        }
    }

    /// The buffers a process started now is given, by descriptors of its own (`SharedMappings`).
    void descriptorsForSpawn(SharedMappings &given)
    {
        std::lock_guard<std::mutex> g(lock);
        for (const Buffer &b : buffers) {
            int fd = fcntl(b.fd, F_DUPFD_CLOEXEC, 3);
            if (fd < 0)
                stale = true;  // no descriptor to spare now: this process goes without it and is replaced later
            else
                given.list.push_back({b.id, fd, b.size});
        }
    }

    /// Sends the job's next request to its process, starting a process where it has none; false when the
    /// job is over (every item done, or no process could be started).
    bool begin(LaneJob &j, int timeout_ms)
    {
        DecoderProcess &w = *j.process;
        while (j.next < j.count) {
            if (w.pid < 0) {
                std::string why;
                SharedMappings given;
                descriptorsForSpawn(given);
                if (!w.spawn(given.list, why)) {
                    for (int k = j.next; k < j.count; ++k) {
                        j.outcomes[k].status = SZX_SYSTEM;
                        CopyString(j.outcomes[k].message, sizeof j.outcomes[k].message, why);
                    }
                    return false;
                }
                ++generation;
            }
            j.request.from = j.next;
            j.request.count = j.count;
            if (!SendAll(w.requests, &j.request, sizeof j.request) || !SendAll(w.requests, j.items, j.itemSize * (size_t)j.count)) {
                // The process died between frames: start another and try once more.
                w.stop();
                if (++j.attempts > 1) {
                    j.outcomes[j.next].status = SZX_SYSTEM;
                    CopyString(j.outcomes[j.next].message, sizeof j.outcomes[j.next].message, "decoder worker does not take requests");
                    ++j.next;
                }
                continue;
            }
            j.collecting.emplace(w.pid, w.out, w.err, j.next, timeout_ms);
            return true;
        }
        return false;
    }

    /// The job's request ended: the batch is done, or its process died (crash, overrun), is reaped and the
    /// job goes on from the item after the one that cost it. False when the job is over.
    bool collected(LaneJob &j, int timeout_ms)
    {
        Collected c = j.collecting->finish();
        j.collecting.reset();
        if (j.images)
            for (Blob &b : c.images)
                j.images->push_back(std::move(b));
        if (c.batchDone)
            return false;
        DecoderProcess &w = *j.process;
        int status = 0;
        pid_t pid = w.pid;
        w.pid = -1;
        if (!c.timedOut && !c.broken)
            kill(pid, SIGKILL);  // EOF without a crash: make sure it is gone before reaping
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        w.stop(false);
        j.next = Settle(c, status, j.count, timeout_ms, j.outcomes);
        return begin(j, timeout_ms);
    }

    /// Runs every job to its end, their processes side by side, from this one thread: one poll over all
    /// their pipes, each process's overrun timed from its own pass's start.
    void run(std::vector<LaneJob> &jobs, int timeout_ms)
    {
        std::vector<LaneJob *> active;
        for (LaneJob &j : jobs)
            if (begin(j, timeout_ms))
                active.push_back(&j);
        std::vector<pollfd> fds;
        while (!active.empty()) {
            fds.resize(active.size() * 2);
            long long until = -1;
            for (size_t i = 0; i < active.size(); ++i) {
                active[i]->collecting->watch(&fds[2 * i]);
                long long d = active[i]->collecting->deadline();
                if (d >= 0 && (until < 0 || d < until))
                    until = d;
            }
            int wait = until < 0 ? -1 : (int)std::max(0LL, until - NowMs());
            if (poll(fds.data(), fds.size(), wait) < 0) {
                if (errno == EINTR)
                    continue;
                for (LaneJob *j : active)
                    j->collecting->abandon();
            }
            long long now = NowMs();
            std::vector<LaneJob *> going;
            for (size_t i = 0; i < active.size(); ++i) {
                LaneJob *j = active[i];
                if (!j->collecting->step(&fds[2 * i], now, j->outcomes, *j->found) || collected(*j, timeout_ms))
                    going.push_back(j);
            }
            active.swap(going);
        }
    }

    /// One request's `count` items on one process (image files).
    void run(DecoderProcess &w, Request r, const void *items, size_t itemSize, int count, int timeout_ms,
             szx_outcome *outcomes, std::vector<Found> &found, std::vector<Blob> *images)
    {
        std::vector<LaneJob> jobs(1, LaneJob{&w, r, items, itemSize, count, outcomes, &found, images});
        run(jobs, timeout_ms);
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
    Request request{};
    request.kind = kPassesRequest;
    szx_image shared = *image;
    uint8_t *copy = nullptr;
    if (!w->locate(image, request.buffer, request.offset)) {
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
        if (!w->locate(&shared, request.buffer, request.offset)) {  // cannot be: the copy lies in a busy buffer
            w->release(copy);
            return SZX_SYSTEM;
        }
    }
    request.width = shared.width;
    request.height = shared.height;
    request.rowStride = shared.row_stride;
    request.pixStride = shared.pix_stride;
    int status = SZX_OK;
    try {
        w->replaceStaleProcesses();
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
        std::vector<LaneJob> jobs;
        for (size_t l = 0; l < n; ++l)
            if (!indices[l].empty())
                jobs.push_back(LaneJob{&w->lanes[l], request, lanePasses[l].data(), sizeof(szx_pass), (int)lanePasses[l].size(),
                                       laneOutcomes[l].data(), &laneFound[l], nullptr});
        try {
            w->run(jobs, timeout_ms);
        } catch (...) {
            for (std::vector<szx_outcome> &lane : laneOutcomes)
                for (szx_outcome &o : lane)
                    if (o.status == SZX_NOT_RUN)
                        o.status = SZX_SYSTEM;
        }
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

namespace szx_internal {

int ReadInDecoderProcess(const szx_image *image, const szx_pass *passes, int count, int timeoutMs,
                         szx_outcome *outcomes, szx_result **results, int *resultCount)
{
    szx_worker once(1, 1);
    return szx_worker_read(&once, image, passes, count, timeoutMs, outcomes, results, resultCount);
}

void DecodeImagesInDecoderProcess(const szx_encoded *files, int count, int channels, long long maxPixels,
                                  int timeoutMs, szx_outcome *outcomes, std::vector<Blob> &images)
{
    // The files' bytes, one after another in one shared buffer.
    std::vector<FileSpan> spans;
    uint64_t total = 0;
    for (int k = 0; k < count; ++k) {
        bool data = files[k].data != nullptr;
        spans.push_back({data ? total : kNoData, data ? (uint64_t)files[k].size : 0});
        total += data ? files[k].size : 0;
    }
    szx_worker once(1, 1);
    uint8_t *buffer = once.acquire((size_t)std::max<uint64_t>(total, 1));
    if (!buffer) {
        for (int k = 0; k < count; ++k) {
            outcomes[k].status = SZX_SYSTEM;
            CopyString(outcomes[k].message, sizeof outcomes[k].message, "no shared memory for the image files");
        }
        return;
    }
    for (int k = 0; k < count; ++k)
        if (files[k].data && files[k].size > 0)
            std::memcpy(buffer + spans[(size_t)k].offset, files[k].data, files[k].size);
    Request request{};
    request.kind = kImagesRequest;
    request.channels = channels;
    request.maxPixels = maxPixels;
    szx_image whole{buffer, 1, 1, 1, 1};
    if (!once.locate(&whole, request.buffer, request.offset)) {  // cannot be: the buffer was just acquired
        for (int k = 0; k < count; ++k)
            outcomes[k].status = SZX_SYSTEM;
        return;
    }
    std::vector<Found> found;  // stays empty: image files bring no symbols
    once.run(once.lanes[0], request, spans.data(), sizeof(FileSpan), count, timeoutMs, outcomes,
             found, &images);
    once.release(buffer);
}

} // namespace szx_internal
