// The holder of a precompiled header the tests share (tests/CMakeLists.txt): CMake builds the
// header with this program's options, and each test of its kind reuses it. A program, not a
// library, so that it is compiled as the tests are (position-independent executable code).
int main()
{
    return 0;
}
