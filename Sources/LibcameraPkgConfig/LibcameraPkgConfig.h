/* Intentionally empty. This system-library target exists only so that SwiftPM runs
 * `pkg-config --cflags --libs libcamera` and hands the include path (/usr/include/libcamera) to
 * CLibcamera and the link flags (-lcamera -lcamera-base) to every program that uses it.
 * Swift code never imports it: libcamera is C++; Swift sees the C API of CLibcamera. */
