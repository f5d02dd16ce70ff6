// libjpeg-turbo's TurboJPEG API (Debian 12: 2.1.5, libturbojpeg0-dev): MJPEG frames decoded straight to
// 8-bit grey, and the JPEG frames of generated MJPEG recordings.
#include <turbojpeg.h>
