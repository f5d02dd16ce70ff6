// Fixed-argument wrappers over libv4l2's variadic calls, and the VIDIOC_* request codes (function-like
// macros Swift cannot import). libv4l2 converts formats a camera lacks (YUYV/GREY from MJPEG) in libv4lconvert.
#ifndef SCAND_V4L2_H
#define SCAND_V4L2_H

#include <linux/videodev2.h>
#include <stddef.h>
#include <stdint.h>

/// Returns the fd, or -errno.
int scand_v4l2_open(const char *path, int nonblocking);
int scand_v4l2_close(int fd);
/// Returns 0, or -errno; retries on EINTR.
int scand_v4l2_ioctl(int fd, unsigned long request, void *argument);
/// Returns the mapping or NULL (errno set).
void *scand_v4l2_mmap(int fd, size_t length, int64_t offset);
int scand_v4l2_munmap(void *start, size_t length);
/// poll(2) for a frame: 1 ready, 0 timeout, -errno; -ENODEV when the device reported POLLERR/POLLHUP.
int scand_v4l2_poll(int fd, int timeout_ms);

extern const unsigned long SCAND_VIDIOC_QUERYCAP;
extern const unsigned long SCAND_VIDIOC_ENUM_FMT;
extern const unsigned long SCAND_VIDIOC_ENUM_FRAMESIZES;
extern const unsigned long SCAND_VIDIOC_ENUM_FRAMEINTERVALS;
extern const unsigned long SCAND_VIDIOC_G_FMT;
extern const unsigned long SCAND_VIDIOC_S_FMT;
extern const unsigned long SCAND_VIDIOC_G_PARM;
extern const unsigned long SCAND_VIDIOC_S_PARM;
extern const unsigned long SCAND_VIDIOC_REQBUFS;
extern const unsigned long SCAND_VIDIOC_QUERYBUF;
extern const unsigned long SCAND_VIDIOC_QBUF;
extern const unsigned long SCAND_VIDIOC_DQBUF;
extern const unsigned long SCAND_VIDIOC_STREAMON;
extern const unsigned long SCAND_VIDIOC_STREAMOFF;
extern const unsigned long SCAND_VIDIOC_S_INPUT;
extern const unsigned long SCAND_VIDIOC_QUERYCTRL;
extern const unsigned long SCAND_VIDIOC_QUERYMENU;
extern const unsigned long SCAND_VIDIOC_G_CTRL;
extern const unsigned long SCAND_VIDIOC_S_CTRL;

#endif
