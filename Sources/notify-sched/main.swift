import Glibc
import NotifySchedCommands

exit(CommandRunner.run(Array(CommandLine.arguments.dropFirst())))
