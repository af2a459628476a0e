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

    QString path() const
    {
        return QStringLiteral(BUFFERSCOPE_TEST_DATA "/%1.buffer-assignment.txt")
            .arg(QLatin1String(name));
    }
};

inline constexpr std::array<SampleTruth, 5> kSampleTruths = {{
    {"gpu_vllm_update_slice", 1522, 68, 1210, 61, 1554, 60, 3, 1026, 60, 1506},
    {"gpu_decoder_layer", 932847568, 58, 931536164, 58, 931536164, 58, 22, 931536164, 58,
     932847556},
    {"tpu_unstack", 52288, 1, 3104, 1, 96, 6, 6, 96, 6, 3136},
    {"tpu_random_normal", 92676, 15, 17920, 15, 8208, 15, 8, 8980, 15, 92164},
    {"tpu_dynamic_slice", 18980, 7, 9728, 1, 2080, 7, 7, 4132, 7, 18980},
}};

inline const SampleTruth &sampleTruth(const char *name)
{
    for (const SampleTruth &t : kSampleTruths)
        if (QLatin1String(t.name) == QLatin1String(name))
            return t;
    qFatal("no sample truth for %s", name);
}

} // namespace testutil
