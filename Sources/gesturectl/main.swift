import GesturectlCommands
import Glibc

// Synchronous top-level code, so that this runs on the main thread before
// any other thread exists: with an `await` here, the whole file would run as
// a task on the concurrency pool, and the main thread would keep the signals
// unblocked (and take SIGINT the default way).
// The process's services (its engine, its signal thread) are made here and
// handed to every command.
let services = Gesturectl.prepareProcess()
exit(Gesturectl.runAsProcess(services))
