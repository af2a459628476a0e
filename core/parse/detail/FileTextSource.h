#pragma once

// The parser's own code, shared by its files (DumpParser.cpp and parse/*.cpp); not an API.
#include "parse/detail/LineSyntax.h"

namespace bufferscope::parse_detail {

class FileTextSource final : public TextSource
{
public:
    struct File
    {
        std::string path;
        std::int64_t size = 0;
        std::string memory; ///< for in-memory buffers: the text itself
        bool inMemory = false;
        int fd = -1; ///< kept open: the loaded version stays readable if the file is deleted
    };
    std::vector<File> files;

    ~FileTextSource() override
    {
        for (const File &f : files) {
            if (f.fd >= 0)
                ::close(f.fd);
        }
    }

    std::string read(const TextRef &ref) const override
    {
        if (ref.file >= files.size())
            return {};
        const File &f = files[ref.file];
        if (f.inMemory) {
            if (ref.offset + ref.length > f.memory.size())
                return {};
            return f.memory.substr(ref.offset, ref.length);
        }
        // The descriptor still reads the file as loaded when it was deleted or replaced by a
        // new one; only an edit in place can change it under us, and the size tells most.
        struct stat st
        {};
        if (f.fd < 0 || ::fstat(f.fd, &st) != 0)
            return "[" + f.path + " can no longer be read]";
        if (static_cast<std::int64_t>(st.st_size) != f.size)
            return "[" + f.path + " changed on disk since it was loaded]";
        if (ref.offset + ref.length > static_cast<std::uint64_t>(f.size))
            return {};
        std::string out(ref.length, '\0');
        std::size_t done = 0;
        while (done < out.size()) {
            const ssize_t n = ::pread(f.fd, out.data() + done, out.size() - done,
                                      static_cast<off_t>(ref.offset + done));
            if (n <= 0)
                break;
            done += static_cast<std::size_t>(n);
        }
        out.resize(done);
        return out;
    }
};

} // namespace bufferscope::parse_detail
