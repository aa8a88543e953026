// The SLICE platforms (Tables 1-4) as JSON text, W = 1000 and H = 1 (see data/slicering/).
#pragma once

namespace redist::experiments {

extern const char* const kLyonPlatformJson;
extern const char* const kStrasbourgPlatformJson;

}  // namespace redist::experiments
