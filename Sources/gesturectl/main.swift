import GesturectlCommands
import Glibc

// Before anything else, and before the first await (which may start the
// concurrency pool's threads): block the signals the engine reads.
Gesturectl.prepareProcess()
exit(await Gesturectl.main())
