import ArgumentParser
import Foundation
import NotifySchedCore

/// Runs `notify-sched` with the exit statuses DESIGN §2 promises: 0 success, 1 bad input or a
/// failed operation, 2 a usage error, 3 an id that is not ours.
public enum CommandRunner {
    /// Parses `arguments` (without the program name), runs the command and returns the exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        do {
            var command = try NotifySched.parseAsRoot(arguments)
            try command.run()
            return 0
        } catch let error as CommandError {
            for line in error.lines { Output.standardError.write(line) }
            return error.status.rawValue
        } catch {
            let code = NotifySched.exitCode(for: error)
            let message = NotifySched.fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { Output.standardOutput.write(message) }
                return 0
            }
            if !message.isEmpty { Output.standardError.write(message) }
            return code == .validationFailure
                ? CommandError.Status.usage.rawValue : CommandError.Status.failure.rawValue
        }
    }
}

/// Line-oriented writing to standard output or standard error.
struct Output: Sendable {
    static let standardOutput = Output(handle: .standardOutput)
    static let standardError = Output(handle: .standardError)

    let handle: FileHandle

    /// Writes `text` and a newline, with what a terminal would act on escaped
    /// (`TerminalText.escaped(_:)`): feed text reaches the screen as text. When the reader has
    /// gone (`notify-sched sync | head`), the process ends as one killed by SIGPIPE, without a
    /// word, even where a library ignores that signal (NIO does); any other failure to write
    /// ends it with status 1.
    func write(_ text: String) {
        do {
            try handle.write(contentsOf: Data((TerminalText.escaped(text) + "\n").utf8))
        } catch  where Self.isBrokenPipe(error) {
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
        } catch {
            if handle != .standardError {
                try? FileHandle.standardError.write(contentsOf: Data("notify-sched: cannot write: \(error)\n".utf8))
            }
            exit(CommandError.Status.failure.rawValue)
        }
    }

    /// Foundation reports EPIPE wrapped in a Cocoa error.
    private static func isBrokenPipe(_ error: any Error) -> Bool {
        if let error = error as? POSIXError { return error.code == .EPIPE }
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        return underlying?.domain == NSPOSIXErrorDomain && underlying?.code == Int(EPIPE)
    }
}
