import Foundation

/// CareKit's completion ring: how much of a day's tasks are done, with a checkmark once everything is.
///
/// It renders an SVG ring that fills clockwise from twelve o'clock. As a labelled image its accessible name is the
/// percentage ("75% complete") or "No tasks"; beside a label of its own, as in the week calendar, it is hidden from
/// assistive technology.
///
/// For example:
/// ```swift
/// let ring = OCKCompletionRingView(fraction: 0.75)
/// let html = ring.render().rendered // <svg aria-label="75% complete" class="ock-ring" … role="img" …>
/// ```
public struct OCKCompletionRingView: OCKComponent, Hashable {
    /// The share done, from 0 to 1; nil when there is nothing to do, which draws an empty ring named "No tasks".
    public var fraction: Double?
    /// Whether the ring speaks for itself (`role="img"` with a label) or is decoration beside a label.
    public var isLabelled: Bool

    /// Creates a ring.
    ///
    /// - Parameters:
    ///   - fraction: The share done, clamped to 0 through 1 (a value that is not a number counts as 0); nil when there
    ///     are no tasks.
    ///   - isLabelled: Whether the ring has its own accessible name; pass false when text beside it says the same.
    public init(fraction: Double?, isLabelled: Bool = true) {
        self.fraction = fraction.map { $0.isFinite ? min(max($0, 0), 1) : 0 }
        self.isLabelled = isLabelled
    }

    /// Whether everything is done (the fraction is exactly 1): the ring shows a checkmark.
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
