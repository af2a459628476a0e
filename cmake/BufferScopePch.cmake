# Precompiled headers: the libraries' headers (the C++ library, spdlog and fmt, Qt, QCustomPlot)
# parsed once per target instead of once per source file. Only other people's headers go in,
# never ours, so a change of ours rebuilds no header. On by default with clang (the sanitized
# trees), off with GCC: GCC's headers of Qt and QCustomPlot are 330 MB, which each source maps
# again, and the release build of the app took 8 min 8 s with them against 6 min 35 s without
# (CONTRIBUTING.md, "What the build costs"). The tsan preset builds without them, so that a
# source which leans on a header it does not include fails to build there.
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    set(bufferscope_pch_default ON)
else()
    set(bufferscope_pch_default OFF)
endif()
option(BUFFERSCOPE_PCH "Precompile the libraries' headers once per target" ${bufferscope_pch_default})

set(BUFFERSCOPE_PCH_STD
    <algorithm> <array> <atomic> <cstdint> <cstring> <functional> <map> <memory> <optional>
    <set> <string> <string_view> <unordered_map> <utility> <vector>)

# bufferscope_pch(TARGET KIND): KIND is engine (the C++ library, spdlog, fmt), qtcore, qtgui,
# or widgets (QCustomPlot, which brings Qt Core, Gui, Widgets and PrintSupport whole).
function(bufferscope_pch target kind)
    if(NOT BUFFERSCOPE_PCH)
        return()
    endif()
    if(kind STREQUAL "engine")
        set(headers ${BUFFERSCOPE_PCH_STD} <spdlog/spdlog.h>)
    elseif(kind STREQUAL "qtcore")
        set(headers ${BUFFERSCOPE_PCH_STD} <spdlog/spdlog.h> <QtCore>)
    elseif(kind STREQUAL "qtgui")
        set(headers ${BUFFERSCOPE_PCH_STD} <spdlog/spdlog.h> <QtCore> <QtGui>)
    elseif(kind STREQUAL "widgets")
        set(headers ${BUFFERSCOPE_PCH_STD} <spdlog/spdlog.h> <qcustomplot.h>)
    else()
        message(FATAL_ERROR "bufferscope_pch: unknown kind ${kind}")
    endif()
    target_precompile_headers(${target} PRIVATE ${headers})
endfunction()

# bufferscope_pch_reuse(TARGET FROM): TARGET compiles with FROM's precompiled header. Both must
# be compiled with the same options and definitions (the tests' are, by bufferscope_add_test).
function(bufferscope_pch_reuse target from)
    if(BUFFERSCOPE_PCH)
        target_precompile_headers(${target} REUSE_FROM ${from})
    endif()
endfunction()
