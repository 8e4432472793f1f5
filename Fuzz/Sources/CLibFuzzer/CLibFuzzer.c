// Only the header matters: this target declares a function the fuzzer runtime defines.
#include "CLibFuzzer.h"
