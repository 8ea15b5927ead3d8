import CSystem
import AuditCore
import AuditTransport
import Dispatch
import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// The `auditd` program: reads options, loads rule sets, opens the journal and the
/// socket, serves until SIGTERM, reloads on SIGHUP, and tells systemd how it is doing.
public enum AuditDaemon {
    public static func main() -> Never {
        OpenMPThreadLimit.ensureSet()
        // The OCR worker process (``OCRWorker``): the daemon's own binary, started by it.
        let arguments = CommandLine.arguments
        if arguments.count == 3, arguments[1] == OCRWorker.argument, let limit = Int(arguments[2]), limit > 0 { OCRWorker.child(memoryLimit: limit) }
        let environment = ProcessInfo.processInfo.environment
        let parsed: DaemonOptions.Parsed
        do {
            parsed = try DaemonOptions.parse(
                Array(CommandLine.arguments.dropFirst()), environment: environment,
                uid: getuid(), executable: CommandLine.arguments.first ?? "auditd")
        } catch {
            FileHandle.standardError.write(Data("auditd: \(error.description)\n".utf8))
            exit(2)
        }
        let options: DaemonOptions
        switch parsed {
        case .help:
            FileHandle.standardOutput.write(Data(DaemonOptions.usage.utf8))
            exit(0)
        case .helpMarkdown:
            FileHandle.standardOutput.write(Data(DaemonOptions.markdown.utf8))
            exit(0)
        case .helpAPI:
            FileHandle.standardOutput.write(Data(Route.markdown.utf8))
            exit(0)
        case .version:
            FileHandle.standardOutput.write(Data("auditd \(AuditCoreVersion.string)\n".utf8))
            exit(0)
        case .run(let value):
            options = value
        }
        run(options, environment: environment)
    }

    static func run(_ options: DaemonOptions, environment: [String: String]) -> Never {
        signal(SIGPIPE, SIG_IGN)
        // Signals first: a SIGTERM that arrives while the daemon is still starting must not be
        // lost between the default disposition and the dispatch sources.
        let signals = SignalHandlers()
        let running = Locked<Server?>(nil)
        let notifyEarly = SystemdNotify(environment: environment)
        let stopLogger = Logger(level: options.logLevel)
        for number in [SIGTERM, SIGINT] {
            signals.install(number) {
                guard let server = running.get() else {
                    stopLogger.info("stopping before start-up finished", ["signal": number == SIGTERM ? "SIGTERM" : "SIGINT"])
                    exit(0)
                }
                stop(server: server, notify: notifyEarly, logger: stopLogger, signal: number == SIGTERM ? "SIGTERM" : "SIGINT")
            }
        }
        // Few malloc arenas: worker threads come and go, and per-thread arenas keep the
        // memory of large snapshots long after the audit (resident memory must stay flat).
        _ = auditd_limit_malloc_arenas(2)
        _ = auditd_fix_mmap_threshold(1 << 20)
        let logger = Logger(level: options.logLevel)
        let notify = SystemdNotify(environment: environment)

        let ruleSets: RuleSetStore
        do {
            ruleSets = try RuleSetStore(directories: options.ruleDirectories)
        } catch {
            logger.error("cannot load rule sets", ["file": error.file, "key": error.key, "reason": error.reason])
            exit(1)
        }
        // One writer per journal and per index: taken before either is opened, held for
        // the daemon's life, let go by the kernel however the daemon ends.
        do {
            let owner = "pid \(getpid()), socket \(options.socket)"
            try Journal.makeDirectories(for: options.journal)
            try WriterLock.hold(options.journal + ".lock", owner: owner)
            let index = options.server.trendIndex ?? options.journal + ".index.sqlite"
            if index != "none" { try WriterLock.hold(index + ".lock", owner: owner) }
        } catch {
            logger.error("cannot take the journal", ["error": "\(error)"])
            exit(1)
        }
        let journal: Journal
        do {
            journal = try Journal(path: options.journal, maxBytes: options.journalMaxBytes, keep: options.journalKeep, logger: logger)
        } catch {
            logger.error("cannot open the journal", ["error": error.description])
            exit(1)
        }
        var socketGroup: gid_t?
        if let name = options.socketGroup {
            if let number = gid_t(name) {
                socketGroup = number
            } else if let group = getgrnam(name) {
                socketGroup = group.pointee.gr_gid
            } else {
                logger.error("unknown --socket-group", ["group": name])
                exit(2)
            }
        }
        let listener: Listener.Socket
        do {
            listener = try Listener.open(
                path: options.socket, mode: mode_t(options.socketMode), group: socketGroup,
                environment: environment, logger: logger)
        } catch {
            logger.error(error.description)
            exit(1)
        }
        var uids = Set(options.allowUIDs)
        uids.insert(0)
        uids.insert(getuid())
        var gids = Set(options.allowGIDs)
        gids.insert(socketGroup ?? getgid())
        let server: Server
        do {
            server = try Server(
                configuration: options.server, listener: listener, ruleSets: ruleSets, journal: journal,
                policy: AccessPolicy(uids: uids, gids: gids), logger: logger)
        } catch {
            logger.error("cannot start the event loop", ["error": error.description])
            exit(1)
        }
        server.start()
        running.set(server)
        signals.install(SIGHUP) {
            if let error = ruleSets.reload() {
                logger.error("rule-set reload failed; keeping the old sets", ["file": error.file, "key": error.key, "reason": error.reason])
                notify.send("STATUS=reload failed: \(error.description)")
            } else {
                logger.info("rule sets reloaded", ["sets": ruleSets.library.names.joined(separator: ",")])
                notify.send("STATUS=serving on \(options.socket); rule sets reloaded")
            }
        }
        if let interval = notify.watchdogInterval {
            signals.every(interval) { notify.send("WATCHDOG=1") }
        }
        logger.info(
            "listening",
            [
                "socket": options.socket, "journal": options.journal, "seq": String(journal.lastSeq),
                "rulesets": ruleSets.library.names.joined(separator: ","), "workers": String(options.server.workers),
            ])
        notify.send("READY=1\nSTATUS=serving on \(options.socket)\nMAINPID=\(getpid())")
        // Park the main thread; all work runs on the daemon's own queues. (Not dispatchMain():
        // its signal thread trips AddressSanitizer inside libdispatch, docs/RELIABILITY.md.)
        let forever = DispatchSemaphore(value: 0)
        // (Only `signals` here: with a tuple of it and the writer locks, Swift 6.3's release
        // build spent over twenty minutes in loop-invariant code motion on this loop.)
        while true { withExtendedLifetime(signals) { forever.wait() } }
    }

    static func stop(server: Server, notify: SystemdNotify, logger: Logger, signal name: String) {
        logger.info("stopping", ["signal": name])
        notify.send("STOPPING=1\nSTATUS=draining")
        server.drain {
            logger.info("stopped", ["seq": String(server.journal.lastSeq)])
            exit(0)
        }
    }
}

/// Signal and timer sources on their own queue; handlers are plain `@Sendable` closures
/// (never main-actor closures, which trap when a source fires on another queue).
final class SignalHandlers: @unchecked Sendable {
    private let queue = DispatchQueue(label: "auditd.signals")
    private var sources: [DispatchSourceProtocol] = []

    func install(_ number: Int32, _ handler: @escaping @Sendable () -> Void) {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        source.setEventHandler(handler: handler)
        source.resume()
        sources.append(source)
    }

    func every(_ seconds: Double, _ handler: @escaping @Sendable () -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + seconds, repeating: seconds)
        timer.setEventHandler(handler: handler)
        timer.resume()
        sources.append(timer)
    }
}
