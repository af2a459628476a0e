# Per-target warnings and strict Qt string handling for BufferScope's own code.
function(bufferscope_set_warnings target)
    target_compile_options(${target} PRIVATE
        -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align
        -Woverloaded-virtual -Wimplicit-fallthrough)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
        # GCC 12 reports false -Wrestrict positives inside std::string's operator+ at -O2/-O3
        # (GCC bug 105329); the warning stays on for other compilers.
        target_compile_options(${target} PRIVATE -Wno-restrict)
    endif()
    if(BUFFERSCOPE_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
    target_compile_definitions(${target} PRIVATE
        QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_NO_CAST_FROM_BYTEARRAY
        QT_NO_URL_CAST_FROM_STRING QT_USE_QSTRINGBUILDER QT_STRICT_ITERATORS
        QT_NO_NARROWING_CONVERSIONS_IN_CONNECT)
endfunction()
