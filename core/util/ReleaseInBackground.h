#pragma once

#include "util/BackgroundThread.h"

#include <QThreadPool>

#include <tuple>
#include <utility>

namespace bufferscope {

/// Drops references to big immutable things (a dump, its timeline, a comparison) on a worker:
/// if they were the last, the freeing happens there and not on the GUI thread, where it costs
/// a million-value comparison over 100 ms. Pass the owners by value (moved in).
template <class... Owners> void releaseInBackground(Owners... owners)
{
    QThreadPool::globalInstance()->start([held = std::make_tuple(std::move(owners)...)]() mutable {
        markBackgroundThread();
        held = {};
    });
}

} // namespace bufferscope
