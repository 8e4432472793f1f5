#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt `FuzzerDriver.cpp`): parses libFuzzer's flags from argv and
/// runs `callback` on each input. Called from Swift's `main`, because SwiftPM links an
/// executable's entry point itself and so libFuzzer's own `main` cannot be used.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
