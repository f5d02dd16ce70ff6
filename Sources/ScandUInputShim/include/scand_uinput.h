// A virtual keyboard through /dev/uinput: the UI_* requests are ioctl macros with struct arguments, and
// input_event's layout depends on the C library's time_t, so both stay on the C side.
#ifndef SCAND_UINPUT_H
#define SCAND_UINPUT_H

#include <stddef.h>
#include <stdint.h>

/// Opens `path` (/dev/uinput), declares a keyboard named `name` that can send the `count` key codes in
/// `keys`, and creates it. Returns the fd, or -errno (ENOENT: no uinput; EACCES: no permission).
int scand_uinput_create(const char *path, const char *name, const uint16_t *keys, size_t count);
/// One EV_KEY event (value 1 press, 0 release) and a SYN_REPORT after it. Returns 0, or -errno.
int scand_uinput_key(int fd, uint16_t code, int32_t value);
/// Destroys the device and closes the fd.
void scand_uinput_destroy(int fd);

#endif
