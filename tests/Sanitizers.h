#pragma once
// Which sanitizer the test runs under, for the few checks a sanitizer's runtime changes: its
// allocator replaces glibc's, and its shadow memory takes terabytes of address space and counts
// as resident. GCC says so with __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__, clang with
// __has_feature.

#if defined(__SANITIZE_ADDRESS__)
#define BUFFERSCOPE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BUFFERSCOPE_ASAN 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define BUFFERSCOPE_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define BUFFERSCOPE_TSAN 1
#endif
#endif

namespace testutil {
#if defined(BUFFERSCOPE_ASAN)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
} // namespace testutil
