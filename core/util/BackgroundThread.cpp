#include "BackgroundThread.h"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace bufferscope {

void markBackgroundThread()
{
#if defined(__linux__)
    // On Linux, PRIO_PROCESS with a thread id sets that thread's nice value alone.
    constexpr int kBackgroundNice = 5;
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    if (getpriority(PRIO_PROCESS, tid) < kBackgroundNice)
        setpriority(PRIO_PROCESS, tid, kBackgroundNice);
#endif
}

} // namespace bufferscope
