#pragma once
// zxing-cpp 3.1 is C++ here (its C API is not used); see ScandZXingShim for the C API that Swift sees.
