#pragma once

#include "analysis/MemoryAnalysis.h"
#include "analysis/OomMatch.h"
#include "analysis/RuntimeMemory.h"
#include "model/Dump.h"
#include "parse/OomMessage.h"

#include <memory>
#include <string>
#include <vector>

namespace bufferscope {

/// What `bufferscope oom LOG [DIR|FILE…]` found: the log's messages and, when dumps were given,
/// per message the modules weighed, the one chosen and what in it each listed buffer is.
struct OomFindings
{
    struct Candidate
    {
        std::string module; ///< "module_0012.jit_train_step"
        std::string file;   ///< as the user would open it
        OomMatch::ModuleEvidence evidence;
    };
    struct PerMessage
    {
        std::vector<Candidate> candidates; ///< every module weighed, strongest first
        int chosen = -1;                   ///< into candidates; -1: none or undecided
        std::shared_ptr<const Dump> dump;  ///< the chosen module
        OomMatch::Join join;
    };
    std::string file; ///< the log, as given
    OomLog log;
    bool withDumps = false;
    std::int64_t dumpsGiven = 0;      ///< modules found in what the user gave
    std::vector<PerMessage> messages; ///< parallel to log.messages when withDumps
    /// Captures given with the log: what their allocators really held (analysis/RuntimeMemory).
    struct Runtime
    {
        std::string capture;
        RuntimeMemory memory;
    };
    std::vector<Runtime> runtimes;
};

/// The `oom` command's output. Every string from the log or a dump goes through
/// safetext::forTerminal in the text form.
class OomReport
{
public:
    static std::string text(const OomFindings &findings);
    static std::string json(const OomFindings &findings);
    /// "1.97GiB (2110783616 B, exact)" / "≈1.97GiB (±5.4MiB)".
    static std::string sizeText(std::int64_t bytes, std::int64_t ulp);
};

} // namespace bufferscope
