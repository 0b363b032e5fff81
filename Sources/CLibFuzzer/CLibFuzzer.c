// Declarations only (include/CLibFuzzer.h): libFuzzer itself is linked by scripts/fuzz.
#include "CLibFuzzer.h"
