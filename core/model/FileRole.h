#pragma once

namespace bufferscope {

/// What one of a module's dump files holds (parse/ModuleFiles.h names them). In the model, so
/// a Dump can say where each of its files came from without the model knowing the parser.
enum class DumpFileRole
{
    Combined,         ///< one file with everything (up to 2026, or any other name)
    BufferAssignment, ///< the allocations of a split module
    Values,
    LiveRange,
    OptimizedHlo, ///< `<stem>.txt`, read for its call-stack tables only
    /// `<stem>-memory-usage-report.txt`, XLA's report of the same allocations: read with its
    /// module's dump and checked against it (MemoryUsageReport)
    MemoryUsageReport
};

} // namespace bufferscope
