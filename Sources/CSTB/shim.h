#pragma once
// Debian's libstb-dev ships the compiled library (libstb.so); these are declarations only.
#include <stb_image.h>
#include <stb_image_write.h>
