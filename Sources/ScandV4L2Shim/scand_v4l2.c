#include "scand_v4l2.h"

#include <errno.h>
#include <fcntl.h>
#include <libv4l2.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

int scand_v4l2_open(const char *path, int nonblocking)
{
    // Ask the kernel first: libv4l2 prints its own error to stderr for nodes that are not V4L2 devices.
    int fd = open(path, O_RDWR | O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0));
    if (fd < 0)
        return -errno;
    struct v4l2_capability cap;
    if (ioctl(fd, VIDIOC_QUERYCAP, &cap) < 0) {
        int e = errno;
        close(fd);
        return -(e == EINVAL ? ENOTTY : e);
    }
    if (v4l2_fd_open(fd, 0) < 0) {
        int e = errno;
        close(fd);
        return -e;
    }
    return fd;
}

int scand_v4l2_close(int fd) { return v4l2_close(fd) < 0 ? -errno : 0; }

int scand_v4l2_ioctl(int fd, unsigned long request, void *argument)
{
    int r;
    do {
        r = v4l2_ioctl(fd, request, argument);
    } while (r < 0 && errno == EINTR);
    return r < 0 ? -errno : 0;
}

void *scand_v4l2_mmap(int fd, size_t length, int64_t offset)
{
    void *p = v4l2_mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
    if (p == MAP_FAILED)
        return NULL;
    // A mapping holds the device open: a forked process that inherited it would keep an unplugged camera
    // from ever coming back. scand starts its decoders with posix_spawn; this keeps any fork from it too.
    madvise(p, length, MADV_DONTFORK);
    return p;
}

int scand_v4l2_munmap(void *start, size_t length) { return v4l2_munmap(start, length) < 0 ? -errno : 0; }

int scand_v4l2_poll(int fd, int timeout_ms)
{
    struct pollfd p = {fd, POLLIN, 0};
    int r;
    do {
        r = poll(&p, 1, timeout_ms);
    } while (r < 0 && errno == EINTR);
    if (r < 0)
        return -errno;
    if (r == 0)
        return 0;
    if (p.revents & (POLLERR | POLLHUP | POLLNVAL))
        return (p.revents & POLLIN) ? 1 : -ENODEV;
    return 1;
}

const unsigned long SCAND_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
const unsigned long SCAND_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
const unsigned long SCAND_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
const unsigned long SCAND_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
const unsigned long SCAND_VIDIOC_G_FMT = VIDIOC_G_FMT;
const unsigned long SCAND_VIDIOC_S_FMT = VIDIOC_S_FMT;
const unsigned long SCAND_VIDIOC_G_PARM = VIDIOC_G_PARM;
const unsigned long SCAND_VIDIOC_S_PARM = VIDIOC_S_PARM;
const unsigned long SCAND_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
const unsigned long SCAND_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
const unsigned long SCAND_VIDIOC_QBUF = VIDIOC_QBUF;
const unsigned long SCAND_VIDIOC_DQBUF = VIDIOC_DQBUF;
const unsigned long SCAND_VIDIOC_STREAMON = VIDIOC_STREAMON;
const unsigned long SCAND_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
const unsigned long SCAND_VIDIOC_S_INPUT = VIDIOC_S_INPUT;
const unsigned long SCAND_VIDIOC_QUERYCTRL = VIDIOC_QUERYCTRL;
const unsigned long SCAND_VIDIOC_QUERYMENU = VIDIOC_QUERYMENU;
const unsigned long SCAND_VIDIOC_G_CTRL = VIDIOC_G_CTRL;
const unsigned long SCAND_VIDIOC_S_CTRL = VIDIOC_S_CTRL;
