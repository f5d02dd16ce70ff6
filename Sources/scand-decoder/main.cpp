// scand-decoder: the process scand starts to run zxing-cpp and stb_image on frames and image files, apart
// from scand itself and sandboxed (see scand_decoder_process.cpp in ScandZXingShim).
#include "scand_zxing.h"

int main(int argc, char **argv)
{
    return szx_decoder_main(argc, argv);
}
