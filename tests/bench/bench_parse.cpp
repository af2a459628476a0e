// bench_parse: generates dumps of 10k, 100k and 1M values (or the sizes given) and prints the
// time to parse + analyse each, throughput in MB/s, and the process's peak RSS.
// Usage: bench_parse [--dir DIR] [N ...]
//        bench_parse --file DUMP [--runs R]   (times an existing dump, best of R runs)
//        --threads N: the parser's threads (default: every core; 1 is the serial path)
#include "DumpGenerator.h"
#include "analysis/MemoryTimeline.h"
#include "analysis/PeakBreakdown.h"
#include "analysis/SourceFrames.h"
#include "parse/DumpParser.h"
#include "util/Parallel.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {
int g_threads = 0; ///< --threads N (0: every core)

bufferscope::ParseOptions parseOptions()
{
    bufferscope::ParseOptions options;
    options.threads = g_threads;
    return options;
}

long peakRssKiB()
{
    struct rusage usage
    {};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

/// Parse and analyse an existing file `runs` times; prints the best time of each phase.
int timeFile(const std::string &path, int runs)
{
    double bestParse = 1e9;
    double bestAnalyse = 1e9;
    double bestBreakdown = 1e9;
    double bestStacks = 1e9;
    std::size_t live = 0;
    long long fileBytes = 0;
    for (int r = 0; r < runs; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        const auto result = bufferscope::DumpParser::loadFile(path, parseOptions());
        const auto t1 = std::chrono::steady_clock::now();
        if (!result.ok()) {
            std::fprintf(stderr, "%s\n", result.error.c_str());
            return 2;
        }
        const auto timeline =
            bufferscope::MemoryTimeline::compute(*result.dump, nullptr, g_threads);
        const auto t2 = std::chrono::steady_clock::now();
        bestParse = std::min(bestParse, std::chrono::duration<double>(t1 - t0).count());
        bestAnalyse = std::min(bestAnalyse, std::chrono::duration<double>(t2 - t1).count());
        // What Fills Memory at the peak: the breakdown as the command line computes it, and as
        // the GUI does (library patterns, call-stack trees).
        const bufferscope::SpaceTimeline *primary = timeline->primary();
        const std::int64_t step = primary ? primary->peak.step : -1;
        const std::int32_t space = primary ? primary->memorySpace : 0;
        const auto b = bufferscope::Breakdown::compute(*result.dump, step, space);
        const auto t3 = std::chrono::steady_clock::now();
        bufferscope::BreakdownOptions gui;
        gui.callStacks = true;
        gui.libraryPatterns = bufferscope::defaultLibraryPatterns();
        const auto withStacks = bufferscope::Breakdown::compute(*result.dump, step, space, gui);
        const auto t4 = std::chrono::steady_clock::now();
        live = b.live.size();
        bestBreakdown = std::min(bestBreakdown, std::chrono::duration<double>(t3 - t2).count());
        bestStacks = std::min(bestStacks, std::chrono::duration<double>(t4 - t3).count());
        fileBytes = 0;
        for (const auto &f : result.dump->files)
            fileBytes += f.size;
    }
    const double mb = static_cast<double>(fileBytes) / 1e6;
    std::printf("%s: %.1f MB, parse %.3f s, analyse %.3f s, %.0f MB/s, peak RSS %.1f MB (best of "
                "%d)\n",
                path.c_str(), mb, bestParse, bestAnalyse, mb / (bestParse + bestAnalyse),
                static_cast<double>(peakRssKiB()) / 1024.0, runs);
    std::printf("breakdown at the peak (%zu values live): %.3f s; with call-stack trees and "
                "library patterns: %.3f s\n",
                live, bestBreakdown, bestStacks);
    return 0;
}
} // namespace

int main(int argc, char **argv)
{
    bufferscope::heapPerCore(); // as the app does (app/main.cpp)
    std::string dir = "/tmp";
    std::string file;
    int runs = 3;
    std::vector<long long> sizes;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (std::strcmp(argv[i], "--file") == 0 && i + 1 < argc)
            file = argv[++i];
        else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
            g_threads = std::max(1, std::atoi(argv[++i]));
        else
            sizes.push_back(std::atoll(argv[i]));
    }
    if (!file.empty())
        return timeFile(file, runs);
    if (sizes.empty())
        sizes = {10000, 100000, 1000000};
    std::printf("%10s %12s %10s %10s %10s %12s %s\n", "values", "file MB", "parse s", "analyse s",
                "MB/s", "peak RSS MB", "check");
    for (long long n : sizes) {
        const std::string path = dir + "/bench_" + std::to_string(n) + "-buffer-assignment.txt";
        // Generate in a child process so this process's peak RSS is the parser's alone.
        const std::string truthPath = path + ".truths";
        const pid_t child = fork();
        if (child == 0) {
            std::FILE *f = std::fopen(path.c_str(), "wb");
            if (!f)
                _exit(2);
            const auto t = bufferscope::bench::generateDump({n, 42}, f);
            std::fclose(f);
            std::FILE *tf = std::fopen(truthPath.c_str(), "wb");
            std::fwrite(&t, sizeof t, 1, tf);
            std::fclose(tf);
            _exit(0);
        }
        int status = 0;
        waitpid(child, &status, 0);
        bufferscope::bench::GeneratedTruths truths;
        std::FILE *tf = std::fopen(truthPath.c_str(), "rb");
        if (!tf || std::fread(&truths, sizeof truths, 1, tf) != 1) {
            std::fprintf(stderr, "generating %s failed\n", path.c_str());
            return 2;
        }
        std::fclose(tf);
        std::remove(truthPath.c_str());
        const auto t0 = std::chrono::steady_clock::now();
        const auto result = bufferscope::DumpParser::loadFile(path, parseOptions());
        const auto t1 = std::chrono::steady_clock::now();
        if (!result.ok()) {
            std::fprintf(stderr, "%s\n", result.error.c_str());
            return 2;
        }
        const auto timeline =
            bufferscope::MemoryTimeline::compute(*result.dump, nullptr, g_threads);
        const auto t2 = std::chrono::steady_clock::now();
        const double parse = std::chrono::duration<double>(t1 - t0).count();
        const double analyse = std::chrono::duration<double>(t2 - t1).count();
        const double mb = static_cast<double>(truths.fileBytes) / 1e6;
        const auto *s0 = timeline->space(0);
        const bool ok = s0 && s0->peak.bytes == truths.peakBytes &&
                        s0->peak.step == truths.peakStep &&
                        timeline->xlaPeak().step == truths.printedPeakStep &&
                        result.dump->totalBytes() == truths.totalBytes;
        std::printf("%10lld %12.1f %10.3f %10.3f %10.0f %12.1f %s\n", n, mb, parse, analyse,
                    mb / (parse + analyse), static_cast<double>(peakRssKiB()) / 1024.0,
                    ok ? "truths match" : "TRUTHS DIFFER");
        std::remove(path.c_str());
    }
    return 0;
}
