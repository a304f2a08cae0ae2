// The start-up floor of any Swift program (benchmarks/startup): prints a
// line, like `gesturectl --version`, and exits. Built by benchmarks/startup
// with the toolchain's swiftc, once linked to the Swift runtime's shared
// libraries and once with -static-stdlib, so that the table shows what the
// runtime alone costs to start under emulation beside gesturectl and
// evemu-device.
print("hello 1")
