#include "scand_uinput.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

// A USB keyboard's identity for the input stack: libinput and X take the device as a keyboard from its
// keys alone; bus and ids only name it.
enum { SCAND_VENDOR = 0x1209, SCAND_PRODUCT = 0x5CA4 };

static int fail(int fd)
{
    int e = errno;
    if (fd >= 0)
        close(fd);
    return -e;
}

int scand_uinput_create(const char *path, const char *name, const uint16_t *keys, size_t count)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    if (ioctl(fd, UI_SET_EVBIT, EV_KEY) < 0 || ioctl(fd, UI_SET_EVBIT, EV_SYN) < 0)
        return fail(fd);
    for (size_t i = 0; i < count; i++)
        if (ioctl(fd, UI_SET_KEYBIT, (int)keys[i]) < 0)
            return fail(fd);
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = SCAND_VENDOR;
    setup.id.product = SCAND_PRODUCT;
    setup.id.version = 1;
    strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0 || ioctl(fd, UI_DEV_CREATE) < 0)
        return fail(fd);
    return fd;
}

static int emit(int fd, uint16_t type, uint16_t code, int32_t value)
{
    struct input_event event;
    memset(&event, 0, sizeof event);  // the kernel stamps the time
    event.type = type;
    event.code = code;
    event.value = value;
    for (;;) {
        ssize_t n = write(fd, &event, sizeof event);
        if (n == (ssize_t)sizeof event)
            return 0;
        if (n < 0 && errno == EINTR)
            continue;
        return n < 0 ? -errno : -EIO;
    }
}

int scand_uinput_key(int fd, uint16_t code, int32_t value)
{
    int r = emit(fd, EV_KEY, code, value);
    return r < 0 ? r : emit(fd, EV_SYN, SYN_REPORT, 0);
}

void scand_uinput_destroy(int fd)
{
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
}
