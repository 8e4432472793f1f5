import ArgumentParser
import NotifySchedCommands

NotifySched.main()
