#include "OomJoin.h"

#include "LoadedDump.h"
#include "models/QtText.h"
#include "open/Catalog.h"
#include "parse/DumpParser.h"
#include "parse/ModuleFiles.h"
#include "parse/OomMessage.h"

#include <algorithm>
#include <numeric>

namespace bufferscope {

OomFindings oomFindingsOf(const QString &name, const std::string &text)
{
    OomFindings findings;
    findings.file = pathBytes(name);
    findings.log = OomLog::parse(text);
    return findings;
}

bool weighModules(OomFindings &findings, const std::vector<ModuleRef> &refs, QStringList &errors,
                  const std::atomic<bool> *cancel, int threads)
{
    findings.withDumps = true;
    findings.dumpsGiven = static_cast<std::int64_t>(refs.size());
    findings.messages.clear();
    std::vector<std::shared_ptr<const Dump>> loaded(refs.size());
    // The modules some message may name, each read once, under the reader's policy (a
    // capture once for all its members); a report has rounded sizes only, nothing exact to
    // match on.
    {
        std::vector<ModuleRef> wanted;
        std::vector<std::size_t> at;
        for (std::size_t i = 0; i < refs.size(); ++i) {
            const std::string module = ModuleFiles::moduleName(refs[i].path);
            if (refs[i].isReport())
                continue;
            for (const OomMessage &m : findings.log.messages)
                if (OomMatch::nameMayMatch(m, module)) {
                    wanted.push_back(refs[i]);
                    at.push_back(i);
                    break;
                }
        }
        std::vector<QString> failed(wanted.size());
        loadEach(wanted, threads, cancel, [&](std::size_t k, LoadedDump d, QString error) {
            loaded[at[k]] = std::move(d.dump);
            failed[k] = std::move(error);
        });
        if (cancel && cancel->load(std::memory_order_relaxed))
            return false;
        for (const QString &error : failed)
            if (!error.isEmpty())
                errors << error;
    }
    for (const OomMessage &m : findings.log.messages) {
        OomFindings::PerMessage per;
        std::vector<std::size_t> index;
        for (std::size_t i = 0; i < loaded.size(); ++i) {
            if (cancel && cancel->load(std::memory_order_relaxed))
                return false;
            const ModuleRef &ref = refs[i];
            const std::string module = ModuleFiles::moduleName(ref.path);
            if (!OomMatch::nameMayMatch(m, module))
                continue;
            if (!loaded[i])
                continue;
            OomFindings::Candidate c;
            c.module = module;
            c.file = ref.path;
            c.evidence = OomMatch::moduleEvidence(m, *loaded[i], module);
            per.candidates.push_back(std::move(c));
            index.push_back(i);
        }
        // Strongest first; the folder's order (largest first) among equals.
        std::vector<std::size_t> order(per.candidates.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        const auto score = [&](std::size_t k) {
            const auto &e = per.candidates[k].evidence;
            return e.contradiction.empty() ? e.score : -1;
        };
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t x, std::size_t y) { return score(x) > score(y); });
        std::vector<OomFindings::Candidate> sorted;
        std::vector<OomMatch::ModuleEvidence> evidence;
        std::vector<std::size_t> sortedIndex;
        for (std::size_t k : order) {
            evidence.push_back(per.candidates[k].evidence);
            sorted.push_back(std::move(per.candidates[k]));
            sortedIndex.push_back(index[k]);
        }
        per.candidates = std::move(sorted);
        per.chosen = OomMatch::choose(evidence);
        if (per.chosen >= 0) {
            per.dump = loaded[sortedIndex[static_cast<std::size_t>(per.chosen)]];
            per.join = OomMatch::join(m, *per.dump);
        }
        findings.messages.push_back(std::move(per));
    }
    return true;
}

} // namespace bufferscope
