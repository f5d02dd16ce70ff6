#pragma once
// zxing-cpp 1.4.0 is C++ only; see ScandZXingShim for the C API that Swift sees.
