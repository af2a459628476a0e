#include "util/MemoryBudget.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace bufferscope {

namespace {

struct Pool
{
    std::mutex mutex;
    std::condition_variable freed;
    std::int64_t held = 0;
    /// Grants held, by the thread that reserved them: one that holds any is never made to wait.
    std::unordered_map<std::thread::id, int> holders;
    int helpers = 0; ///< MemoryBudget::Helpers alive
};

Pool &pool()
{
    static Pool p;
    return p;
}

} // namespace

MemoryBudget::Grant MemoryBudget::reserve(std::int64_t bytes)
{
    bytes = std::clamp<std::int64_t>(bytes, 0, kProcess);
    Pool &p = pool();
    const std::thread::id self = std::this_thread::get_id();
    std::unique_lock lock(p.mutex);
    int &mine = p.holders[self];
    if (mine == 0)
        p.freed.wait(lock, [&p, bytes] { return p.helpers > 0 || p.held + bytes <= kProcess; });
    p.held += bytes;
    ++mine;
    return Grant(bytes, self);
}

MemoryBudget::Helpers::Helpers()
{
    Pool &p = pool();
    {
        const std::lock_guard lock(p.mutex);
        ++p.helpers;
    }
    p.freed.notify_all();
}

MemoryBudget::Helpers::~Helpers()
{
    Pool &p = pool();
    const std::lock_guard lock(p.mutex);
    --p.helpers;
}

std::int64_t MemoryBudget::held()
{
    Pool &p = pool();
    const std::lock_guard lock(p.mutex);
    return p.held;
}

MemoryBudget::Grant::Grant(Grant &&other) noexcept
    : m_bytes(std::exchange(other.m_bytes, -1)), m_owner(other.m_owner)
{}

MemoryBudget::Grant &MemoryBudget::Grant::operator=(Grant &&other) noexcept
{
    if (this != &other) {
        release();
        m_bytes = std::exchange(other.m_bytes, -1);
        m_owner = other.m_owner;
    }
    return *this;
}

MemoryBudget::Grant::~Grant()
{
    release();
}

void MemoryBudget::Grant::keep(std::int64_t bytes)
{
    if (m_bytes <= 0 || bytes >= m_bytes)
        return;
    Pool &p = pool();
    {
        const std::lock_guard lock(p.mutex);
        p.held -= m_bytes - std::max<std::int64_t>(bytes, 0);
    }
    m_bytes = std::max<std::int64_t>(bytes, 0);
    p.freed.notify_all();
}

void MemoryBudget::Grant::release()
{
    if (m_bytes < 0)
        return; // moved from, or never granted
    Pool &p = pool();
    {
        const std::lock_guard lock(p.mutex);
        p.held -= m_bytes;
        if (const auto owner = p.holders.find(m_owner);
            owner != p.holders.end() && --owner->second <= 0)
            p.holders.erase(owner);
    }
    m_bytes = -1;
    p.freed.notify_all();
}

} // namespace bufferscope
