#include "SourceFrames.h"

namespace bufferscope {

std::vector<std::string> defaultLibraryPatterns()
{
    return {"/site-packages/", "/dist-packages/", "/jax/_src/",   "/jaxlib/", "/flax/",
            "/torch/",         "/torch_xla/",     "/tensorflow/", "<frozen ", "/lib/python3"};
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

} // namespace bufferscope
