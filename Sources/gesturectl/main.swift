import GesturectlCommands
import Glibc

exit(await Gesturectl.main())
