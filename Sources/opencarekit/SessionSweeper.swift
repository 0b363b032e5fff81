import Foundation
import OpenCareKitDirectory
import OpenCareKitStore
import ServiceLifecycle

/// Forgets expired sessions every ten minutes, so the directory does not keep every session ever made.
struct SessionSweeper: Service {
    let directory: any CareDirectory
    let now: @Sendable () -> Date

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await directory.removeExpiredSessions(now: now())
                try? await Task.sleep(for: .seconds(600))
            }
        }
    }
}
