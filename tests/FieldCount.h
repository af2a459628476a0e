#pragma once

// How many fields an aggregate has, at compile time: the comparators in DumpCompare.h check
// their explicit field lists against it, so a field added to the model and not compared stops
// the build instead of letting the every-thread-count tests pass over it.

#include <cstddef>
#include <type_traits>
#include <utility>

namespace testutil {

/// Converts to any field's type: as a reference where the field can be copied (so that a
/// field with converting constructors, std::optional say, is not ambiguous), else by value.
struct AnyField
{
    template <class T>
    requires std::is_copy_constructible_v<T>
    operator T &() const &&noexcept;
    template <class T>
    requires(!std::is_copy_constructible_v<T>) operator T() const &&noexcept;
};

template <class T, std::size_t... I> constexpr bool bracedFrom(std::index_sequence<I...>)
{
    return requires
    {
        T{(static_cast<void>(I), AnyField{})...};
    };
}

/// The number of fields of aggregate `T`: the most initializers its braces take.
template <class T, std::size_t N = 0> constexpr std::size_t fieldCount()
{
    if constexpr (bracedFrom<T>(std::make_index_sequence<N + 1>{}))
        return fieldCount<T, N + 1>();
    else
        return N;
}

} // namespace testutil
