#pragma once

// What XLA printed in each bundled sample dump (tests/data), and the figures worked out by hand
// from its lines (docs/FORMAT.md Part A, the table of truths): one table for every test that
// asserts them, never the code under test's output.

#include <QString>

#include <array>
#include <cstdint>

namespace testutil {

struct SampleTruth
{
    const char *name;      ///< tests/data/<name>.buffer-assignment.txt
    std::int64_t total;    ///< the allocations' sizes summed (XLA's "Total bytes used")
    std::int64_t peakStep; ///< live bytes (union of byte ranges per allocation): the peak
    std::int64_t peakBytes;
    std::int64_t logicalStep; ///< logical bytes (every value's shape bytes): the peak
    std::int64_t logicalBytes;
    std::int64_t printedStep;  ///< XLA's printed "Live ranges at T (peak)"
    int printedEntries;        ///< the values it lists
    std::int64_t printedBytes; ///< their bytes summed
    std::int64_t xlaStep;      ///< XLA's own peak step, recomputed with its algorithm
    std::int64_t held;         ///< argument + output - alias + temp, from the allocation lines
    /// The device's live peak: at each step the live bytes of every memory space but the
    /// host's (S(5)) summed; the earliest step with the most. Worked out from the allocation
    /// lines and BufferLiveRange: tpu_random_normal at 15 adds S(1) 1,536 (broadcast_add_fusion
    /// at 8192, fusion.21{0} at 0, fusion.21{1} at 4096, 512 each) and S(6) 512 (xor.50) to
    /// S(0)'s 17,920; tpu_dynamic_slice at 7 adds S(1) 8,192 (copy-start{0}) and S(6) 1,024
    /// (copy, copy.1) to 9,728 (at 6 it is 18,468); the others have one space live.
    std::int64_t deviceStep;
    std::int64_t deviceBytes;

    QString path() const
    {
        return QStringLiteral(BUFFERSCOPE_TEST_DATA "/%1.buffer-assignment.txt")
            .arg(QLatin1String(name));
    }
};

inline constexpr std::array<SampleTruth, 5> kSampleTruths = {{
    {"gpu_vllm_update_slice", 1522, 68, 1210, 61, 1554, 60, 3, 1026, 60, 1506, 68, 1210},
    {"gpu_decoder_layer", 932847568, 58, 931536164, 58, 931536164, 58, 22, 931536164, 58, 932847556,
     58, 931536164},
    {"tpu_unstack", 52288, 1, 3104, 1, 96, 6, 6, 96, 6, 3136, 1, 3104},
    {"tpu_random_normal", 92676, 15, 17920, 15, 8208, 15, 8, 8980, 15, 92164, 15, 19968},
    {"tpu_dynamic_slice", 18980, 7, 9728, 1, 2080, 7, 7, 4132, 7, 18980, 7, 18944},
}};

inline const SampleTruth &sampleTruth(const char *name)
{
    for (const SampleTruth &t : kSampleTruths)
        if (QLatin1String(t.name) == QLatin1String(name))
            return t;
    qFatal("no sample truth for %s", name);
}

} // namespace testutil
