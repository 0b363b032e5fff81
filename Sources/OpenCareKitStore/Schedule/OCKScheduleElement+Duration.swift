import Foundation

extension OCKScheduleElement {
    /// How long an event lasts: the whole day, or a fixed number of seconds.
    ///
    /// JSON matches CareKit: `{"isAllDay": true}` or `{"isAllDay": false, "seconds": 3600}`.
    public enum Duration: Codable, Hashable, Sendable {
        /// The event fills its whole day, from the start of the day to its last second.
        case allDay
        /// The event lasts a fixed number of seconds.
        case seconds(Double)

        /// A duration of `hours` hours.
        public static func hours(_ hours: Double) -> Duration { .seconds(60 * 60 * hours) }

        /// A duration of `minutes` minutes.
        public static func minutes(_ minutes: Double) -> Duration { .seconds(60 * minutes) }

        /// The length in seconds; 0 for `.allDay`, whose length depends on the day.
        public var seconds: TimeInterval {
            switch self {
            case .allDay: 0
            case let .seconds(seconds): seconds
            }
        }

        private enum CodingKeys: String, CodingKey {
            case isAllDay, seconds
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(self == .allDay, forKey: .isAllDay)
            if case let .seconds(seconds) = self {
                try container.encode(seconds, forKey: .seconds)
            }
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if try container.decodeIfPresent(Bool.self, forKey: .isAllDay) == true {
                self = .allDay
            } else if let seconds = try container.decodeIfPresent(Double.self, forKey: .seconds) {
                self = .seconds(seconds)
            } else {
                throw DecodingError.dataCorruptedError(
                    forKey: .seconds, in: container, debugDescription: "A duration needs isAllDay or seconds.")
            }
        }

        /// Throws unless this is `.allDay` or a finite, non-negative number of seconds.
        public func validate() throws(OCKValidationError) {
            if case let .seconds(seconds) = self {
                guard seconds.isFinite else { throw OCKValidationError(field: "duration", reason: "must be a finite number of seconds") }
                guard seconds >= 0 else { throw OCKValidationError(field: "duration", reason: "must not be negative") }
            }
        }
    }
}
