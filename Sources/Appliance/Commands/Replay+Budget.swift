import ArgumentParser
import Foundation
import Pipeline

// The governed loop in `nodwire replay`: --budget PERCENT (or --realtime with the config's budget).

extension ReplayCommand {
    /// The budget settings for this replay, or nil to process every frame. A replay's sensors are the machine
    /// it runs on, not the recording's, so battery and heat are left out.
    func budgetSettings(_ config: NodwireConfig, percent: Double?, realtime: Bool) throws -> BudgetSettings? {
        guard percent != nil || realtime else { return nil }
        var settings = config.budget
        if let percent {
            guard (1...400).contains(percent), percent.isFinite else {
                throw Failure(message: "--budget \(percent) is not allowed; allowed: a number from 1 to 400 (percent of one core)", exitCode: 64)
            }
            settings.cpuPercent = percent
        }
        return settings
    }
}

extension Replay {
    /// The governor's notices (rate mode, budget unmeetable, ...) as lines on stderr.
    func reportNotices(_ loop: inout GovernedLoop?) {
        for notice in loop?.takeNotices() ?? [] {
            FileHandle.standardError.write(Data("nodwire: budget: \(notice)\n".utf8))
        }
    }
}

extension GovernedLoop {
    /// The loop's account for --stats: budget, measured CPU, and what was processed, skipped and late.
    /// CPU is per second of the recording's time, so without --realtime it is what real time would cost.
    var summaryJSON: String {
        let s = stats, g = status
        func n(_ v: Double?) -> String { EventJSON.number(v ?? 0, 2) }
        return "{\"cpu_percent_budget\":\(n(g.budgetPercent)),\"cpu_percent_measured\":\(n(s.cpu.averagePercent)),"
            + "\"cpu_percent_last_window\":\(n(s.cpu.percent)),\"processed\":\(s.processed),\"skipped\":\(s.skipped),\"late\":\(s.late),"
            + "\"processed_fps\":\(n(s.processedRate.averageRate)),\"target_fps\":\(n(g.targetRate)),\"mode\":\"\(g.mode.rawValue)\","
            + "\"over_budget\":\(g.overBudget)}"
    }
}
