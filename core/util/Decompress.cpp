#include "util/Decompress.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <lzma.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

namespace bufferscope::decompress {

namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;

std::string tooBig(std::int64_t limit)
{
    return "it expands to more than " + std::to_string(limit >> 20) +
           " MiB, more than any dump this reads";
}

Decompressed gunzip(std::string_view input, std::int64_t limit)
{
    Decompressed out;
    z_stream z{};
    // 16 + MAX_WBITS: a gzip header and trailer; concatenated members are read one by one.
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
        out.error = "cannot start the gzip reader";
        return out;
    }
    std::string buffer(kChunk, '\0');
    std::size_t fed = 0;
    bool ended = false;
    while (true) {
        if (z.avail_in == 0 && fed < input.size()) {
            const std::size_t take =
                std::min<std::size_t>(input.size() - fed, std::size_t{1} << 30);
            z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(input.data() + fed));
            z.avail_in = static_cast<uInt>(take);
            fed += take;
        }
        z.next_out = reinterpret_cast<Bytef *>(buffer.data());
        z.avail_out = static_cast<uInt>(buffer.size());
        const int rc = inflate(&z, Z_NO_FLUSH);
        const std::size_t produced = buffer.size() - z.avail_out;
        if (static_cast<std::int64_t>(out.bytes.size() + produced) > limit) {
            out.error = tooBig(limit);
            break;
        }
        out.bytes.append(buffer.data(), produced);
        if (rc == Z_STREAM_END) {
            // Another gzip member may follow (`cat a.gz b.gz`).
            if ((z.avail_in > 0 || fed < input.size()) && inflateReset(&z) == Z_OK)
                continue;
            ended = true;
            break;
        }
        if (rc == Z_BUF_ERROR && z.avail_in == 0 && fed >= input.size())
            break; // no more input before the stream's end
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            out.error =
                std::string("the gzip data is damaged (") + (z.msg ? z.msg : "zlib error") + ")";
            break;
        }
    }
    inflateEnd(&z);
    if (out.error.empty() && !ended)
        out.error = "the gzip data ends early: the file was cut short";
    if (!out.error.empty())
        out.bytes.clear();
    return out;
}

Decompressed unxz(std::string_view input, std::int64_t limit)
{
    Decompressed out;
    lzma_stream s = LZMA_STREAM_INIT;
    // A memory limit for the decoder itself (its dictionary), and concatenated streams.
    if (lzma_stream_decoder(&s, std::uint64_t{1} << 30, LZMA_CONCATENATED) != LZMA_OK) {
        out.error = "cannot start the xz reader";
        return out;
    }
    std::string buffer(kChunk, '\0');
    s.next_in = reinterpret_cast<const std::uint8_t *>(input.data());
    s.avail_in = input.size();
    lzma_ret rc = LZMA_OK;
    while (true) {
        s.next_out = reinterpret_cast<std::uint8_t *>(buffer.data());
        s.avail_out = buffer.size();
        rc = lzma_code(&s, s.avail_in == 0 ? LZMA_FINISH : LZMA_RUN);
        const std::size_t produced = buffer.size() - s.avail_out;
        if (static_cast<std::int64_t>(out.bytes.size() + produced) > limit) {
            out.error = tooBig(limit);
            out.bytes.clear();
            break;
        }
        out.bytes.append(buffer.data(), produced);
        if (rc == LZMA_STREAM_END)
            break;
        if (rc != LZMA_OK) {
            out.error = rc == LZMA_MEMLIMIT_ERROR
                            ? std::string("the xz data asks for more than 1 GiB "
                                          "of memory to read")
                        : rc == LZMA_BUF_ERROR ? std::string("the xz data ends early: the file "
                                                             "was cut short")
                                               : std::string("the xz data is damaged");
            out.bytes.clear();
            break;
        }
    }
    lzma_end(&s);
    return out;
}

} // namespace

Format formatOf(std::string_view path, std::string_view head)
{
    if (path.ends_with(".gz"))
        return Format::Gzip;
    if (path.ends_with(".xz"))
        return Format::Xz;
    if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
        static_cast<unsigned char>(head[1]) == 0x8b)
        return Format::Gzip;
    if (head.size() >= 6 && head.substr(0, 6) == std::string_view("\xfd"
                                                                  "7zXZ\0",
                                                                  6))
        return Format::Xz;
    return Format::None;
}

Decompressed bytes(std::string_view input, Format format, std::int64_t limit)
{
    switch (format) {
    case Format::Gzip:
        return gunzip(input, limit);
    case Format::Xz:
        return unxz(input, limit);
    case Format::None:
        break;
    }
    Decompressed out;
    if (static_cast<std::int64_t>(input.size()) > limit)
        out.error = tooBig(limit);
    else
        out.bytes.assign(input);
    return out;
}

std::int64_t expandedLimit(std::int64_t compressedSize, std::int64_t limit)
{
    std::int64_t allowed = kExpansionFloor;
    if (compressedSize > 0 && compressedSize < limit / kExpansion)
        allowed = std::max(allowed, compressedSize * kExpansion);
    else if (compressedSize > 0)
        allowed = limit;
    return std::min(allowed, limit);
}

Decompressed file(const std::string &path, std::int64_t limit)
{
    Decompressed out;
    // Opened without blocking (a FIFO would wait for a writer), then refused unless regular.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        out.error = std::string("cannot open the file: ") + std::strerror(errno);
        return out;
    }
    const std::unique_ptr<int, void (*)(int *)> closer(new int(fd), [](int *f) {
        ::close(*f);
        delete f;
    });
    struct stat st
    {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        out.error = "not a regular file (a FIFO, a device or a folder): not read";
        return out;
    }
    const std::int64_t size = st.st_size;
    if (size > limit) {
        out.error = "the file is larger than " + std::to_string(limit >> 20) + " MiB";
        return out;
    }
    // The first bytes say whether it expands; the budget is reserved before the rest is read.
    char head[8] = {};
    const ssize_t headBytes = ::pread(fd, head, sizeof head, 0);
    const Format format = formatOf(
        path, std::string_view(head, static_cast<std::size_t>(std::max<ssize_t>(headBytes, 0))));
    const std::int64_t allowed = expandedLimit(size, limit);
    MemoryBudget::Grant budget =
        MemoryBudget::reserve(format == Format::None ? size : size + allowed);
    std::string raw(static_cast<std::size_t>(size), '\0');
    std::size_t got = 0;
    while (got < raw.size()) {
        const ssize_t n = ::read(fd, raw.data() + got, raw.size() - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            out.error = "cannot read the file";
            return out;
        }
        got += static_cast<std::size_t>(n);
    }
    if (format == Format::None) {
        out.bytes = std::move(raw);
        out.budget = std::move(budget);
        return out;
    }
    Decompressed d = bytes(raw, format, allowed);
    if (!d.ok() && allowed < limit && d.error.starts_with("it expands"))
        d.error += " (a compressed file may expand to " + std::to_string(kExpansion) +
                   " times its size, or to " + std::to_string(kExpansionFloor >> 20) + " MiB)";
    budget.keep(static_cast<std::int64_t>(d.bytes.size()));
    d.budget = std::move(budget);
    return d;
}

} // namespace bufferscope::decompress
