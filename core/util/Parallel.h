#pragma once

#include <system_error>
#include <thread>

namespace bufferscope {

/// Runs `a` on the calling thread and `b` on a second one, and returns when both are done: the
/// one way core/ splits a computation over two cores (the timeline's sweeps). Background work
/// that outlives a call goes through the app's JobRunner instead. Without a thread to be had,
/// `b` runs after `a`, on the calling thread.
template <class A, class B> void runBoth(const A &a, const B &b)
{
    std::thread second;
    try {
        second = std::thread([&b] { b(); });
    } catch (const std::system_error &) {
        a();
        b();
        return;
    }
    a();
    second.join();
}

} // namespace bufferscope
