// libv4lconvert (Debian's libv4l-dev): what libv4l2 converts an MJPEG camera's frames with; `scand bench
// mjpeg` measures it against scand's own MJPEG decode, with device operations of its own (no camera).
#include <linux/videodev2.h>
#include <libv4lconvert.h>
#include <libv4l-plugin.h>
