# The few compiler built-ins and system calls the kernels use, each with a fallback for the
# compilers and systems that lack it, so that the same .pyx files build with GCC and Clang
# (Linux, macOS, MinGW) and with MSVC (Windows wheels). GCC / Clang, then MSVC:
#
#   quixo_ctz32               trailing zero bits of a non-zero word:
#                             __builtin_ctz / _BitScanForward
#   quixo_prefetch_write      fetch the cache line about to be written (only a hint):
#                             __builtin_prefetch / _mm_prefetch (x86), __prefetch (ARM64)
#   quixo_prefetch_read       the same for a line about to be read
#   quixo_atomic_load16, quixo_atomic_store16, quixo_compare_exchange16
#                             relaxed 16-bit atomics on the words the generator's threads share:
#                             __atomic_* / volatile access and _InterlockedCompareExchange16
#   quixo_monotonic_seconds   a clock that never jumps, for search deadlines:
#                             clock_gettime(CLOCK_MONOTONIC) / QueryPerformanceCounter (Windows)
from libc.stdint cimport uint16_t

cdef extern from *:
    """
    #if defined(_MSC_VER) && !defined(__clang__)
    #define QUIXO_STATIC_INLINE static __inline   /* MSVC's C knows no `inline` */
    #else
    #define QUIXO_STATIC_INLINE static inline
    #endif

    #if defined(__GNUC__) || defined(__clang__)
    QUIXO_STATIC_INLINE int quixo_ctz32(unsigned int x) { return __builtin_ctz(x); }
    QUIXO_STATIC_INLINE void quixo_prefetch_write(const void* p) {
        __builtin_prefetch(p, 1, 3);        /* for writing, keep in every cache level */
    }
    QUIXO_STATIC_INLINE void quixo_prefetch_read(const void* p) {
        __builtin_prefetch(p, 0, 3);        /* for reading, keep in every cache level */
    }
    QUIXO_STATIC_INLINE void quixo_atomic_store16(unsigned short* p, unsigned short v) {
        __atomic_store_n(p, v, __ATOMIC_RELAXED);
    }
    QUIXO_STATIC_INLINE unsigned short quixo_atomic_load16(unsigned short* p) {
        return __atomic_load_n(p, __ATOMIC_RELAXED);
    }
    QUIXO_STATIC_INLINE int quixo_compare_exchange16(unsigned short* p, unsigned short expected,
                                                     unsigned short desired) {
        return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_RELAXED,
                                           __ATOMIC_RELAXED);
    }
    #elif defined(_MSC_VER)
    #include <intrin.h>
    QUIXO_STATIC_INLINE int quixo_ctz32(unsigned int x) {
        unsigned long index;
        _BitScanForward(&index, x);
        return (int)index;
    }
    QUIXO_STATIC_INLINE void quixo_prefetch_write(const void* p) {
    #if defined(_M_X64) || defined(_M_IX86)
        _mm_prefetch((const char*)p, _MM_HINT_T0);
    #elif defined(_M_ARM64)
        __prefetch(p);
    #else
        (void)p;
    #endif
    }
    QUIXO_STATIC_INLINE void quixo_prefetch_read(const void* p) { quixo_prefetch_write(p); }
    /* An aligned 16-bit volatile access is a single load or store on every target MSVC
       builds for: that is all a relaxed atomic load or store promises. */
    QUIXO_STATIC_INLINE void quixo_atomic_store16(unsigned short* p, unsigned short v) {
        *(volatile unsigned short*)p = v;
    }
    QUIXO_STATIC_INLINE unsigned short quixo_atomic_load16(unsigned short* p) {
        return *(volatile unsigned short*)p;
    }
    QUIXO_STATIC_INLINE int quixo_compare_exchange16(unsigned short* p, unsigned short expected,
                                                     unsigned short desired) {
        return (unsigned short)_InterlockedCompareExchange16(
            (volatile short*)p, (short)desired, (short)expected) == expected;
    }
    #else
    #error "quixo_solver/_portable.pxd: no atomics for this compiler (GCC, Clang or MSVC needed)"
    #endif

    #if defined(_WIN32)
    #ifndef WIN32_LEAN_AND_MEAN
    #define WIN32_LEAN_AND_MEAN
    #endif
    #ifndef NOMINMAX
    #define NOMINMAX
    #endif
    #include <windows.h>
    QUIXO_STATIC_INLINE double quixo_monotonic_seconds(void) {
        LARGE_INTEGER count, frequency;      /* both cannot fail since Windows XP */
        QueryPerformanceFrequency(&frequency);
        QueryPerformanceCounter(&count);
        return (double)count.QuadPart / (double)frequency.QuadPart;
    }
    #else
    #include <time.h>
    QUIXO_STATIC_INLINE double quixo_monotonic_seconds(void) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
    }
    #endif
    """
    int quixo_ctz32(unsigned int x) noexcept nogil
    void quixo_prefetch_write(const void* p) noexcept nogil
    void quixo_prefetch_read(const void* p) noexcept nogil
    void quixo_atomic_store16(uint16_t* p, uint16_t v) noexcept nogil
    uint16_t quixo_atomic_load16(uint16_t* p) noexcept nogil
    bint quixo_compare_exchange16(uint16_t* p, uint16_t expected, uint16_t desired) noexcept nogil
    double quixo_monotonic_seconds() noexcept nogil
