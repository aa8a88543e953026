// How many random instances a property test draws. The optimized build draws them all; the
// sanitizer build (ASan + UBSan, whose instrumented code runs five to ten times slower) draws an
// eighth, so that the whole suite stays within its time budget while every instance shape is
// still exercised under the sanitizers. Tests that count outcomes scale their thresholds with it.
#pragma once

namespace redist::testkit {

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REDIST_TESTING_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define REDIST_TESTING_SANITIZED 1
#endif

// Whether this is the sanitizer build: a scale test there runs a tenth of its size (the same code
// paths under the sanitizers, a tenth of the time).
constexpr bool sanitized() {
#ifdef REDIST_TESTING_SANITIZED
  return true;
#else
  return false;
#endif
}

constexpr int random_cases(int n) {
#ifdef REDIST_TESTING_SANITIZED
  return n / 8;
#else
  return n;
#endif
}

}  // namespace redist::testkit
