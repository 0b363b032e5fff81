import Foundation

/// CareKit's completion ring: how much of a day's tasks are done, with a checkmark once everything is.
public struct OCKCompletionRingView: OCKComponent, Hashable {
    /// From 0 to 1; nil when there is nothing to do.
    public var fraction: Double?
    /// Whether the ring speaks for itself (`role="img"` with a label) or is decoration beside a label.
    public var isLabelled: Bool

    public init(fraction: Double?, isLabelled: Bool = true) {
        self.fraction = fraction.map { $0.isFinite ? min(max($0, 0), 1) : 0 }
        self.isLabelled = isLabelled
    }

    public var isComplete: Bool { fraction == 1 }

    public func render(in context: OCKRenderContext) -> HTML {
        var parts: [HTML] = [.element("circle", ["class": "ock-ring-track", "cx": "18", "cy": "18", "r": "15",
                                                 "fill": "none"], [])]
        if let fraction, fraction > 0 {
            // pathLength 100 makes the dash length the percentage; the ring starts at twelve o'clock.
            parts.append(.element("circle", [
                "class": "ock-ring-progress", "cx": "18", "cy": "18", "r": "15", "fill": "none", "pathLength": "100",
                "stroke-dasharray": "\(ChartLayout.coordinate(fraction * 100)) 100", "transform": "rotate(-90 18 18)",
            ], []))
        }
        if isComplete {
            parts.append(.element("path", ["class": "ock-ring-check", "d": "M11 18.5l4.5 4.5 9.5-10", "fill": "none"], []))
        }
        var attributes = ["class": isComplete ? "ock-ring ock-complete" : fraction == nil ? "ock-ring ock-empty" : "ock-ring",
                          "viewBox": "0 0 36 36", "focusable": "false"]
        if isLabelled {
            attributes["role"] = "img"
            attributes["aria-label"] = fraction.map { context.string(.ringCompletion, context.localization.percent($0)) }
                ?? context.string(.ringNoTasks)
        } else {
            attributes["aria-hidden"] = "true"
        }
        return .element("svg", attributes, parts)
    }
}
