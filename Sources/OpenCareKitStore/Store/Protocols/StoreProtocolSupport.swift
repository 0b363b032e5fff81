import Foundation

/// The only element of a single-item call's result, or `failure(reason)`.
func single<T>(_ results: [T], _ reason: String, _ failure: (String) -> OCKStoreError) throws -> T {
    guard let first = results.first else { throw failure(reason) }
    return first
}

extension OCKTaskQuery {
    /// CareKit's by-id task query: every date, newest effective version first.
    static func byID(_ id: String) -> OCKTaskQuery {
        var query = OCKTaskQuery(id: id)
        query.sortDescriptors = [.effectiveDate(ascending: false)]
        query.limit = 1
        return query
    }
}

extension OCKPatientQuery {
    /// CareKit's by-id patient query: the version in effect today.
    static func byID(_ id: String) -> OCKPatientQuery {
        var query = OCKPatientQuery(for: Date())
        query.ids = [id]
        query.sortDescriptors = [.effectiveDate(ascending: false)]
        query.limit = 1
        return query
    }
}

extension OCKCarePlanQuery {
    /// CareKit's by-id care plan query: the version in effect today.
    static func byID(_ id: String) -> OCKCarePlanQuery {
        var query = OCKCarePlanQuery(for: Date())
        query.ids = [id]
        query.sortDescriptors = [.effectiveDate(ascending: false)]
        query.limit = 1
        return query
    }
}

extension OCKContactQuery {
    /// CareKit's by-id contact query: the version in effect today.
    static func byID(_ id: String) -> OCKContactQuery {
        var query = OCKContactQuery(for: Date())
        query.ids = [id]
        query.sortDescriptors = [.effectiveDate(ascending: false)]
        query.limit = 1
        return query
    }
}
