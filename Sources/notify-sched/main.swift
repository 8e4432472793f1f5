import NotifySchedCommands
import Glibc

exit(CommandRunner.run(Array(CommandLine.arguments.dropFirst())))
