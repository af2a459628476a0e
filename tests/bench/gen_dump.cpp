// gen_dump: writes a large realistic buffer-assignment dump and, next to it, the truths it
// built in (FILE.truths.json). Usage: gen_dump --values N [--seed S] [--stacks] --out FILE
// --stacks: 2026 style, stack_frame_id in the metadata and the frames in the module's
// `<stem>.txt` beside FILE (FILE must end in -buffer-assignment.txt).
// --report: also XLA's memory-usage report, `<stem>-memory-usage-report.txt` beside FILE;
// --report-2026 the same in the 2026 layout (by memory space, no allocation lines).
// gen_dump --renumber IN --out FILE: FILE is IN as a recompile that renumbered every name and
// value id would print it (renumberDump), for benchmarks of `diff`.
// gen_dump --folder DIR --modules N [--seed S]: a folder of N small modules (writeFolder), for
// benchmarks of `list` and Open Folder.
// gen_dump --renamed-runs DIR --functions N [--values V] [--seed S]: DIR/before and DIR/after,
// two runs of N functions of one module each, every function renamed in the after run and its
// module renumbered (writeRenamedRuns), for benchmarks of the run diff's rename search;
// with --unrelated the after run's functions are other programs of the same size and signature
// (nothing renamed: the search's worst case, where no candidate matches).
#include "DumpGenerator.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <tuple>

namespace {

/// `--folder DIR --modules N`: a dump folder as a JAX training run leaves it, one module per
/// compiled function: N small modules of 4 to 128 values each (log-uniform: half under 23
/// values, some 13 KB; the largest some 115 KB; a real folder of 4,276 modules holds about
/// 100 MB), three in four with XLA's memory-usage report beside them, each with the ENTRY line
/// of its `before_optimizations.txt` (97 functions, each compiled with up to three signatures).
/// Named as XLA names them, so `bufferscope list DIR` and Open Folder read them as such.
int writeFolder(const std::string &dir, long long modules, std::uint64_t seed)
{
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    long long bytes = 0;
    for (long long i = 1; i <= modules; ++i) {
        bufferscope::bench::GeneratorOptions options;
        options.values = std::llround(4.0 * std::pow(32.0, unit(random)));
        options.seed = seed * 1000003 + static_cast<std::uint64_t>(i);
        char stem[160];
        std::snprintf(stem, sizeof stem,
                      "%s/module_%04lld.jit_step_%lld.sm_8.0_gpu_after_optimizations", dir.c_str(),
                      i, i % 97);
        std::FILE *r = nullptr;
        if (i % 4 != 0) {
            r = std::fopen((std::string(stem) + "-memory-usage-report.txt").c_str(), "wb");
            if (!r)
                return 2;
            options.memoryUsageReport = r;
        }
        const std::string path = std::string(stem) + "-buffer-assignment.txt";
        std::FILE *f = std::fopen(path.c_str(), "wb");
        if (!f) {
            std::fprintf(stderr, "gen_dump: cannot write %s: %s\n", path.c_str(),
                         std::strerror(errno));
            return 2;
        }
        bytes += bufferscope::bench::generateDump(options, f).fileBytes;
        std::fclose(f);
        // The program as traced, which XLA writes as module_NNNN.NAME.before_optimizations.txt:
        // its ENTRY line, whose first argument's batch changes with the compile (8, 16 or 32
        // rows: each function compiled with up to three signatures), as `summary` reads it.
        char before[200];
        std::snprintf(before, sizeof before,
                      "%s/module_%04lld.jit_step_%lld.before_optimizations.txt", dir.c_str(), i,
                      i % 97);
        if (std::FILE *b = std::fopen(before, "wb")) {
            std::fprintf(
                b,
                "HloModule jit_step_%lld, entry_computation_layout={(f32[%d,128]{1,0}, "
                "s32[])->f32[128]{0}}\n\n%%add (x: f32[], y: f32[]) -> f32[] {\n  ROOT "
                "%%a = f32[] add(f32[] %%x, f32[] %%y)\n}\n\nENTRY %%main.%lld (Arg_0.1: "
                "f32[%d,128]{1,0}, Arg_1.2: s32[]) -> f32[128] {\n  ROOT %%r = f32[128]{0} "
                "parameter(1)\n}\n\n",
                i % 97, 8 << (i / 97 % 3), i, 8 << (i / 97 % 3));
            std::fclose(b);
        }
        if (r)
            std::fclose(r);
    }
    std::printf("%s: %lld modules, %lld bytes of dumps\n", dir.c_str(), modules, bytes);
    return 0;
}

/// `--renamed-runs DIR --functions N`: the run diff's worst rename search. Every function of the
/// before run (`jit_fn_K`) is `jit_renamed_K` in the after run, its module renumbered as a
/// recompile prints it (so no fingerprint pairs it), and every module has V values and the
/// same signature (one ENTRY line for all): no size or kind tells a function's counterpart
/// from the N - 1 others. `unrelated`: the after run's modules are other programs (other seeds)
/// named `jit_other_K`, so that no vanished function has a counterpart.
int writeRenamedRuns(const std::string &dir, long long functions, std::int64_t values,
                     std::uint64_t seed, bool unrelated)
{
    for (const char *side : {"before", "after"}) {
        const std::string d = dir + "/" + side;
        if (std::system(("mkdir -p '" + d + "'").c_str()) != 0)
            return 2;
    }
    long long bytes = 0;
    for (long long i = 1; i <= functions; ++i) {
        bufferscope::bench::GeneratorOptions options;
        options.values = values;
        options.seed = seed * 1000003 + static_cast<std::uint64_t>(i);
        char *text = nullptr;
        std::size_t size = 0;
        std::FILE *memory = open_memstream(&text, &size);
        if (!memory)
            return 2;
        bufferscope::bench::generateDump(options, memory);
        std::fclose(memory);
        const std::string before(text, size);
        std::free(text);
        std::string after;
        if (unrelated) {
            options.seed += static_cast<std::uint64_t>(functions);
            memory = open_memstream(&text, &size);
            if (!memory)
                return 2;
            bufferscope::bench::generateDump(options, memory);
            std::fclose(memory);
            after.assign(text, size);
            std::free(text);
        } else {
            after = bufferscope::bench::renumberDump(before);
        }
        const char *afterName = unrelated ? "jit_other_" : "jit_renamed_";
        for (const auto &[side, name, body] :
             {std::tuple{"before", "jit_fn_", &before},
              std::tuple{"after", afterName, static_cast<const std::string *>(&after)}}) {
            char stem[200];
            std::snprintf(stem, sizeof stem, "%s/%s/module_%04lld.%s%lld", dir.c_str(), side, i,
                          name, i);
            const std::string path =
                std::string(stem) + ".sm_8.0_gpu_after_optimizations-buffer-assignment.txt";
            std::FILE *f = std::fopen(path.c_str(), "wb");
            if (!f || std::fwrite(body->data(), 1, body->size(), f) != body->size() ||
                std::fclose(f) != 0) {
                std::fprintf(stderr, "gen_dump: cannot write %s\n", path.c_str());
                return 2;
            }
            bytes += static_cast<long long>(body->size());
            std::FILE *b =
                std::fopen((std::string(stem) + ".before_optimizations.txt").c_str(), "wb");
            if (!b)
                return 2;
            std::fprintf(
                b,
                "HloModule %s%lld, entry_computation_layout={(f32[8,128]{1,0}, "
                "s32[])->f32[128]{0}}\n\nENTRY %%main.%lld (Arg_0.1: f32[8,128]{1,0}, "
                "Arg_1.2: s32[]) -> f32[128] {\n  ROOT %%r = f32[128]{0} parameter(1)\n}\n\n",
                name, i, i);
            std::fclose(b);
        }
    }
    std::printf("%s: %lld functions %s, %lld values each, %lld bytes of dumps\n", dir.c_str(),
                functions, unrelated ? "replaced by others" : "renamed",
                static_cast<long long>(values), bytes);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    bufferscope::bench::GeneratorOptions options;
    std::string out;
    std::string renumber;
    std::string folder;
    std::string renamedRuns;
    long long modules = 0;
    long long functions = 0;
    bool unrelated = false;
    bool report = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--values" && i + 1 < argc)
            options.values = std::atoll(argv[++i]);
        else if (a == "--seed" && i + 1 < argc)
            options.seed = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--stacks")
            options.stacks = true;
        else if (a == "--report-2026") {
            report = true;
            options.reportLayout2026 = true;
        } else if (a == "--report")
            report = true;
        else if (a == "--renumber" && i + 1 < argc)
            renumber = argv[++i];
        else if (a == "--out" && i + 1 < argc)
            out = argv[++i];
        else if (a == "--folder" && i + 1 < argc)
            folder = argv[++i];
        else if (a == "--modules" && i + 1 < argc)
            modules = std::atoll(argv[++i]);
        else if (a == "--renamed-runs" && i + 1 < argc)
            renamedRuns = argv[++i];
        else if (a == "--functions" && i + 1 < argc)
            functions = std::atoll(argv[++i]);
        else if (a == "--unrelated")
            unrelated = true;
        else {
            std::fprintf(stderr, "usage: gen_dump --values N [--seed S] [--stacks] "
                                 "[--report|--report-2026] --out FILE\n");
            return 1;
        }
    }
    if (!renamedRuns.empty()) {
        if (functions <= 0 || options.values <= 0) {
            std::fprintf(stderr, "usage: gen_dump --renamed-runs DIR --functions N [--values V] "
                                 "[--seed S] [--unrelated]\n");
            return 1;
        }
        return writeRenamedRuns(renamedRuns, functions, options.values, options.seed, unrelated);
    }
    if (!folder.empty()) {
        if (modules <= 0) {
            std::fprintf(stderr, "usage: gen_dump --folder DIR --modules N [--seed S]\n");
            return 1;
        }
        return writeFolder(folder, modules, options.seed);
    }
    if (!renumber.empty() && !out.empty()) {
        std::FILE *in = std::fopen(renumber.c_str(), "rb");
        if (!in) {
            std::fprintf(stderr, "gen_dump: cannot read %s: %s\n", renumber.c_str(),
                         std::strerror(errno));
            return 2;
        }
        std::string text;
        char buffer[1 << 16];
        for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, in)) > 0;)
            text.append(buffer, n);
        std::fclose(in);
        const std::string renumbered = bufferscope::bench::renumberDump(text);
        std::FILE *f = std::fopen(out.c_str(), "wb");
        if (!f || std::fwrite(renumbered.data(), 1, renumbered.size(), f) != renumbered.size() ||
            std::fclose(f) != 0) {
            std::fprintf(stderr, "gen_dump: cannot write %s\n", out.c_str());
            return 2;
        }
        std::printf("%s: %s renumbered, %zu bytes\n", out.c_str(), renumber.c_str(),
                    renumbered.size());
        return 0;
    }
    if (out.empty() || options.values <= 0) {
        std::fprintf(stderr, "usage: gen_dump --values N [--seed S] [--stacks] "
                             "[--report|--report-2026] --out FILE\n");
        return 1;
    }
    const std::string suffix = "-buffer-assignment.txt";
    if ((options.stacks || report) && !out.ends_with(suffix)) {
        std::fprintf(stderr, "gen_dump: --stacks and --report need an --out FILE ending in %s\n",
                     suffix.c_str());
        return 1;
    }
    std::FILE *r = nullptr;
    if (report) {
        const std::string path =
            out.substr(0, out.size() - suffix.size()) + "-memory-usage-report.txt";
        r = std::fopen(path.c_str(), "wb");
        if (!r)
            return 2;
        options.memoryUsageReport = r;
    }
    std::FILE *f = std::fopen(out.c_str(), "wb");
    if (!f) {
        std::fprintf(stderr, "gen_dump: cannot write %s: %s\n", out.c_str(), std::strerror(errno));
        return 2;
    }
    const auto truths = bufferscope::bench::generateDump(options, f);
    std::fclose(f);
    if (r)
        std::fclose(r);
    if (options.stacks) {
        const std::string stem = out.substr(0, out.size() - suffix.size());
        std::FILE *h = std::fopen((stem + ".txt").c_str(), "wb");
        if (!h)
            return 2;
        bufferscope::bench::writeStackTables(stem.substr(stem.rfind('/') + 1), h);
        std::fclose(h);
    }
    const std::string truthPath = out + ".truths.json";
    std::FILE *t = std::fopen(truthPath.c_str(), "wb");
    if (!t)
        return 2;
    const std::string json = truths.toJson();
    std::fwrite(json.data(), 1, json.size(), t);
    std::fclose(t);
    std::printf("%s: %lld values, %lld bytes; truths in %s\n", out.c_str(),
                static_cast<long long>(truths.valueCount), static_cast<long long>(truths.fileBytes),
                truthPath.c_str());
    return 0;
}
