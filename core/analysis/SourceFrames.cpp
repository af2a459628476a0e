#include "SourceFrames.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bufferscope {

std::vector<std::string> defaultLibraryPatterns()
{
    return {"/site-packages/", "/dist-packages/", "/jax/_src/",   "/jaxlib/", "/flax/",
            "/torch/",         "/torch_xla/",     "/tensorflow/", "<frozen ", "/lib/python3"};
}

SourcePlace placeOf(const Dump &dump, const StackFrame &frame)
{
    SourcePlace out;
    if (frame.file != kNoString)
        out.file = std::string(dump.str(frame.file));
    if (frame.function != kNoString)
        out.function = std::string(dump.str(frame.function));
    out.line = frame.line;
    out.column = frame.column;
    return out;
}

std::vector<StackFrame> framesOf(const Dump &dump, const Instruction &instruction)
{
    std::vector<StackFrame> out;
    for (const StackFrame *f : dump.stackOf(instruction)) {
        out.push_back(*f);
        out.back().parent = 0; // a copy: its caller is the next frame
    }
    if (out.empty() && instruction.sourceFile != kNoString) {
        StackFrame f;
        f.file = instruction.sourceFile;
        f.line = static_cast<std::int32_t>(
            std::clamp<std::int64_t>(instruction.sourceLine, -1, INT32_MAX));
        out.push_back(f);
    }
    return out;
}

std::vector<SourcePlace> placesOf(const Dump &dump, const Instruction &instruction)
{
    std::vector<SourcePlace> out;
    for (const StackFrame &f : framesOf(dump, instruction))
        out.push_back(placeOf(dump, f));
    return out;
}

bool isLibraryFile(std::string_view file, const std::vector<std::string> &patterns)
{
    for (const std::string &p : patterns)
        if (!p.empty() && file.find(p) != std::string_view::npos)
            return true;
    return false;
}

const StackFrame *userFrame(const Dump &dump, const Instruction &instruction,
                            const std::vector<std::string> &patterns)
{
    const std::vector<const StackFrame *> stack = dump.stackOf(instruction);
    for (const StackFrame *f : stack)
        if (f->file != kNoString && !isLibraryFile(dump.str(f->file), patterns))
            return f;
    return stack.empty() ? nullptr : stack.front();
}

std::string userSource(const Dump &dump, const Instruction &instruction,
                       const std::vector<std::string> &patterns)
{
    const StackFrame *f = userFrame(dump, instruction, patterns);
    if (!f || f->file == kNoString)
        return dump.sourceLocation(instruction);
    return std::string(dump.str(f->file)) + ":" + std::to_string(f->line);
}

std::vector<std::string> localCandidates(const std::string &file,
                                         const std::vector<PathMapping> &mappings,
                                         const std::string &home, const std::string &dumpFolder)
{
    std::vector<const PathMapping *> matching;
    for (const PathMapping &m : mappings) {
        std::string from = m.from;
        while (from.size() > 1 && from.back() == '/')
            from.pop_back();
        if (from.empty() || !file.starts_with(from))
            continue;
        // A whole directory: /home/al does not map /home/alice/x.py.
        if (file.size() > from.size() && file[from.size()] != '/' && from != "/")
            continue;
        matching.push_back(&m);
    }
    std::stable_sort(
        matching.begin(), matching.end(),
        [](const PathMapping *a, const PathMapping *b) { return a->from.size() > b->from.size(); });
    std::vector<std::string> out;
    for (const PathMapping *m : matching) {
        std::string from = m->from;
        while (from.size() > 1 && from.back() == '/')
            from.pop_back();
        std::string to = m->to;
        if (to == "~" || to.starts_with("~/"))
            to = home + to.substr(1);
        while (to.size() > 1 && to.back() == '/')
            to.pop_back();
        std::string rest = file.substr(from.size());
        if (from == "/")
            rest = "/" + rest;
        out.push_back(to + rest);
    }
    out.push_back(file);
    // Only absolute paths: a relative one is in the dump's folder, or nowhere.
    std::vector<std::string> absolute;
    for (std::string &c : out) {
        if (c.starts_with('/'))
            absolute.push_back(std::move(c));
        else if (dumpFolder.starts_with('/') && !c.empty())
            absolute.push_back(dumpFolder + (dumpFolder.ends_with('/') ? "" : "/") + c);
    }
    return absolute;
}

SourceExcerpt readExcerpt(const std::string &path, std::int32_t line, std::int32_t context)
{
    SourceExcerpt out;
    // The path is the dump's: open only a regular file, and never wait on a FIFO to open.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        out.error = "cannot open " + path + ": " + std::strerror(errno);
        return out;
    }
    struct stat st
    {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        out.error = "cannot open " + path + ": not a regular file";
        return out;
    }
    std::FILE *f = ::fdopen(fd, "rb");
    if (!f) {
        ::close(fd);
        out.error = "cannot open " + path + ": " + std::strerror(errno);
        return out;
    }
    constexpr std::size_t kMaxBytes = 16u << 20;
    constexpr std::size_t kMaxLine = 4096; // longer lines are cut, with an ellipsis
    const std::int64_t first = std::max<std::int64_t>(1, std::int64_t(line) - context);
    const std::int64_t last = std::int64_t(line) + context;
    out.firstLine = static_cast<std::int32_t>(first);
    std::int64_t number = 1;
    std::size_t read = 0;
    std::string current;
    bool cutLine = false;
    bool binary = false;
    bool partial = false; // characters after the last line end
    int c = 0;
    while (number <= last && read < kMaxBytes && (c = std::fgetc(f)) != EOF) {
        ++read;
        if (c == 0)
            binary = true;
        partial = c != '\n';
        if (c == '\n') {
            if (number >= first)
                out.lines.push_back(std::move(current));
            current.clear();
            cutLine = false;
            ++number;
            continue;
        }
        if (number < first || c == '\r')
            continue;
        // Past the limit, the bytes that finish a UTF-8 character still go in.
        if (current.size() < kMaxLine ||
            (!cutLine && (c & 0xC0) == 0x80 && current.size() < kMaxLine + 3)) {
            current.push_back(static_cast<char>(c));
        } else if (!cutLine) {
            current += "…";
            cutLine = true;
        }
    }
    if (c == EOF && !current.empty() && number >= first && number <= last)
        out.lines.push_back(std::move(current));
    std::fclose(f);
    if (binary) {
        out.lines.clear();
        out.error = path + " is not a text file";
    } else if (number < line && read >= kMaxBytes) {
        out.lines.clear();
        out.error = "line " + std::to_string(line) + " is more than " +
                    std::to_string(kMaxBytes >> 20) + " MB into " + path;
    } else if (std::int64_t(out.firstLine) + std::int64_t(out.lines.size()) <= line) {
        out.lines.clear();
        const std::int64_t lines = number - 1 + (partial ? 1 : 0);
        out.error = path + " has " + std::to_string(lines) + (lines == 1 ? " line" : " lines") +
                    ", not " + std::to_string(line) +
                    ": is it the version of the code that was compiled?";
    }
    return out;
}

} // namespace bufferscope
