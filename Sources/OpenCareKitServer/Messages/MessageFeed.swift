import Foundation
import OpenCareKitStore

/// Something that happened in a record's threads, for open pages and push: a message sent, or a thread read further.
/// It carries no words of the message: whoever hears of it fetches what they may see through the directory.
struct MessageEvent: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// A message, by `author`.
        case message(author: CareAccountID)
        /// Someone read the thread further (a receipt to show).
        case read
    }

    let record: CareRecordID
    let thread: RandomIdentifier
    /// Who may hear of it: a team note's events never reach a patient's or caregiver's stream.
    let audience: CareThread.Audience
    let kind: Kind
}

