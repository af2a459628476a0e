# BUFFERSCOPE_SANITIZER: the sanitizer every target of the tree is built with — "address"
# (AddressSanitizer + UndefinedBehaviorSanitizer, the asan preset) or "thread"
# (ThreadSanitizer, the tsan preset) — or none. BUFFERSCOPE_FUZZER (clang, with "address"): the
# parser's libFuzzer target in the same tree (tests/fuzz), the engine instrumented for its
# coverage.
set(BUFFERSCOPE_SANITIZER "" CACHE STRING "Sanitizer for every target: address, thread or none")
set_property(CACHE BUFFERSCOPE_SANITIZER PROPERTY STRINGS "" address thread)
option(BUFFERSCOPE_FUZZER "Build the parser's libFuzzer target (clang, with address)" OFF)

if(BUFFERSCOPE_SANITIZER STREQUAL "address")
    add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                        -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=address,undefined)
elseif(BUFFERSCOPE_SANITIZER STREQUAL "thread")
    add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
    add_link_options(-fsanitize=thread)
elseif(BUFFERSCOPE_SANITIZER)
    message(FATAL_ERROR "BUFFERSCOPE_SANITIZER: '${BUFFERSCOPE_SANITIZER}' is none of address, thread")
endif()

if(BUFFERSCOPE_FUZZER AND NOT (CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND
                               BUFFERSCOPE_SANITIZER STREQUAL "address"))
    message(FATAL_ERROR "BUFFERSCOPE_FUZZER needs clang and BUFFERSCOPE_SANITIZER=address")
endif()
