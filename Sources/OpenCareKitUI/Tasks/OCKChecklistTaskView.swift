/// One event of a checklist or grid: its time text, whether it is done, and where toggling it posts.
///
/// For example:
/// ```swift
/// let toggle = OCKFormAction(url: SafeURL("/events/toggle")!, fields: ["task": "doxylamine", "occurrence": "0"])
/// let morning = OCKEventItem(time: "Morning", isComplete: true, action: toggle)
/// ```
public struct OCKEventItem: Sendable, Hashable {
    /// The event's time, formatted for the reader, or text such as "Morning": the button's title, and part of its
    /// accessible name.
    public var time: OCKTimeText
    /// Whether the event is done: its button is pressed and shows a checkmark.
    public var isComplete: Bool
    /// Where pressing the event's button posts; nil shows it disabled (a future day, a read-only page).
    public var action: OCKFormAction?

    /// Creates an event item.
    ///
    /// - Parameters:
    ///   - time: The event's time, or text such as "Morning".
    ///   - isComplete: Whether the event is done.
    ///   - action: Where pressing its button posts, or nil for a disabled button.
    public init(time: OCKTimeText, isComplete: Bool, action: OCKFormAction?) {
        self.time = time
        self.isComplete = isComplete
        self.action = action
    }
}

/// CareKit's checklist task: a row per event with its time and its own toggle, instructions below.
///
/// It renders a card (`ock-checklist-task`) with a separated header, a list of
/// ``OCKCompletionButton/Style/row`` buttons showing each event's time, and the instructions. Each button is named
/// for the task and its time ("Mark Doxylamine 8:00 AM as done"), so rows are told apart out of context.
///
/// For example:
/// ```swift
/// let morning = Calendar.current.date(bySettingHour: 8, minute: 0, second: 0, of: Date())!
/// let items = (0..<3).map { index in
///     OCKEventItem(time: .time(morning.addingTimeInterval(Double(index) * 6 * 3600)), isComplete: index == 0,
///                  action: OCKFormAction(url: SafeURL("/events/toggle")!,
///                                        fields: ["task": "doxylamine", "occurrence": String(index)]))
/// }
/// let card = OCKChecklistTaskView(title: "Doxylamine", detail: "3 times a day", items: items,
///                                 instructions: "Take with food to ease nausea.")
/// let html = card.render().rendered
/// ```
public struct OCKChecklistTaskView: OCKComponent {
    /// The card's header: the title and detail given to the initializer, with a separator below.
    public var header: OCKHeaderView
    /// The events, one row each, in order.
    public var items: [OCKEventItem]
    /// Text under the list, such as how to take the dose; nil shows none.
    public var instructions: String?
    /// The `id` of the card's `<article>`, or nil.
    public var identifier: String?

    /// Creates a checklist task card.
    ///
    /// - Parameters:
    ///   - title: The task's title, such as "Doxylamine".
    ///   - detail: The schedule, such as "3 times a day", or nil.
    ///   - items: The events, one row each, in order.
    ///   - instructions: Text under the list, or nil.
    ///   - identifier: The `id` of the card's `<article>`, or nil.
    public init(title: String, detail: String? = nil, items: [OCKEventItem], instructions: String? = nil,
                identifier: String? = nil) {
        header = OCKHeaderView(title: title, detail: detail, showsSeparator: true)
        self.items = items
        self.instructions = instructions
        self.identifier = identifier
    }

    public func render(in context: OCKRenderContext) -> HTML {
        let rows = items.map { item in
            HTML.element("li", ["class": "ock-checklist-item"], [
                OCKCompletionButton(isComplete: item.isComplete, subject: header.subject(item.time, in: context),
                                    title: item.time.text(in: context), action: item.action, style: .row).render(in: context),
            ])
        }
        var stack: [any OCKComponent] = [HTML.element("ul", ["class": "ock-checklist"], rows)]
        stack += HTML.instructions(instructions)
        return OCKCardView(header: header, contentStack: stack, identifier: identifier).render(in: context)
            .withClass("ock-checklist-task")
    }
}

/// CareKit's grid task: a compact button per event (with optional custom content per cell), instructions below.
///
/// It renders a card (`ock-grid-task`) whose list holds an ``OCKCompletionButton/Style/cell`` button per event,
/// titled with the event's time, with any content given for its position under it.
///
/// For example:
/// ```swift
/// let toggle = OCKFormAction(url: SafeURL("/events/toggle")!, fields: ["task": "omeprazole"])
/// let card = OCKGridTaskView(
///     title: "Omeprazole", detail: "Twice a day",
///     items: [OCKEventItem(time: "Morning", isComplete: true, action: toggle),
///             OCKEventItem(time: "Evening", isComplete: false, action: toggle)],
///     cellContent: [0: HTML.text("20 mg"), 1: HTML.text("20 mg")])
/// ```
public struct OCKGridTaskView: OCKComponent {
    /// The card's header: the title and detail given to the initializer, with a separator below.
    public var header: OCKHeaderView
    /// The events, one cell each, in order.
    public var items: [OCKEventItem]
    /// Extra content under a cell's button, by the event's position in ``items`` (from 0). Every button shows its
    /// event's time, with or without it.
    public var cellContent: [Int: any OCKComponent]
    /// Text under the grid; nil shows none.
    public var instructions: String?
    /// The `id` of the card's `<article>`, or nil.
    public var identifier: String?

    /// Creates a grid task card.
    ///
    /// - Parameters:
    ///   - title: The task's title.
    ///   - detail: The schedule, or nil.
    ///   - items: The events, one cell each, in order.
    ///   - cellContent: Extra content under cells' buttons, by position; none by default.
    ///   - instructions: Text under the grid, or nil.
    ///   - identifier: The `id` of the card's `<article>`, or nil.
    public init(title: String, detail: String? = nil, items: [OCKEventItem], cellContent: [Int: any OCKComponent] = [:],
                instructions: String? = nil, identifier: String? = nil) {
        header = OCKHeaderView(title: title, detail: detail, showsSeparator: true)
        self.items = items
        self.cellContent = cellContent
        self.instructions = instructions
        self.identifier = identifier
    }

    public func render(in context: OCKRenderContext) -> HTML {
        let cells = items.enumerated().map { index, item in
            var cell: [HTML] = [
                OCKCompletionButton(isComplete: item.isComplete, subject: header.subject(item.time, in: context),
                                    title: item.time.text(in: context), action: item.action, style: .cell).render(in: context),
            ]
            if let custom = cellContent[index] {
                cell.append(.element("div", ["class": "ock-grid-cell-content"], [custom.render(in: context)]))
            }
            return HTML.element("li", ["class": "ock-grid-cell"], cell)
        }
        var stack: [any OCKComponent] = [HTML.element("ul", ["class": "ock-grid"], cells)]
        stack += HTML.instructions(instructions)
        return OCKCardView(header: header, contentStack: stack, identifier: identifier).render(in: context)
            .withClass("ock-grid-task")
    }
}

/// CareKit's log task: a button that records an entry now, and the list of entries with their times, each
/// deletable.
///
/// It renders a card (`ock-log-task`) with the instructions, a "Log" button in a form that posts to ``logAction``
/// (named "Log Track Nausea" for assistive technology), and a list of the entries, each with its own × button named
/// "Delete Track Nausea entry at 9:12 AM". With no entries there is no list.
///
/// For example:
/// ```swift
/// let card = OCKLogTaskView(
///     title: "Track Nausea", instructions: "Log each time you feel nauseous.",
///     logAction: OCKFormAction(url: SafeURL("/events/log")!, fields: ["task": "nausea"]),
///     entries: [
///         OCKLogTaskView.Entry(time: .time(Date()), value: "6 of 10",
///                              deleteAction: OCKFormAction(url: SafeURL("/entries/41/delete")!)),
///     ])
/// ```
public struct OCKLogTaskView: OCKComponent {
    /// One logged entry.
    public struct Entry: Sendable, Hashable {
        /// When it was logged: shown at the row's start, and part of the delete button's name.
        public var time: OCKTimeText
        /// What was logged, such as "6 of 10", if more than the fact itself.
        public var value: String?
        /// Where deleting it posts; nil hides the delete button.
        public var deleteAction: OCKFormAction?

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - time: When it was logged.
        ///   - value: What was logged, or nil.
        ///   - deleteAction: Where deleting it posts, or nil for an entry that cannot be deleted here.
        public init(time: OCKTimeText, value: String? = nil, deleteAction: OCKFormAction?) {
            self.time = time
            self.value = value
            self.deleteAction = deleteAction
        }
    }

    /// The card's header: the title and detail given to the initializer, with a separator below.
    public var header: OCKHeaderView
    /// Text above the log button; nil shows none.
    public var instructions: String?
    /// The log button's text; nil shows "Log" in the reader's language.
    public var logTitle: String?
    /// Where the log button posts; nil shows it disabled.
    public var logAction: OCKFormAction?
    /// The logged entries, one row each, in the order given.
    public var entries: [Entry]
    /// The `id` of the card's `<article>`, or nil.
    public var identifier: String?

    /// Creates a log task card.
    ///
    /// - Parameters:
    ///   - title: The task's title, such as "Track Nausea".
    ///   - detail: The schedule, such as "Anytime", or nil.
    ///   - instructions: Text above the log button, or nil.
    ///   - logTitle: The log button's text, or nil for "Log" in the reader's language.
    ///   - logAction: Where the log button posts, or nil for a disabled button.
    ///   - entries: The logged entries, in order.
    ///   - identifier: The `id` of the card's `<article>`, or nil.
    public init(title: String, detail: String? = nil, instructions: String? = nil, logTitle: String? = nil,
                logAction: OCKFormAction?, entries: [Entry], identifier: String? = nil) {
        header = OCKHeaderView(title: title, detail: detail, showsSeparator: true)
        self.instructions = instructions
        self.logTitle = logTitle
        self.logAction = logAction
        self.entries = entries
        self.identifier = identifier
    }

    public func render(in context: OCKRenderContext) -> HTML {
        var stack: [any OCKComponent] = []
        stack += HTML.instructions(instructions)
        let logText = logTitle ?? context.string(.log)
        var logAttributes = ["type": "submit", "class": "ock-log-button",
                             "aria-label": logTitle.map { context.string(.actionOnSubject, $0, header.title) }
                                ?? context.string(.logSubject, header.title)]
        if logAction == nil { logAttributes["disabled"] = "disabled" }
        let logButton = HTML.element("button", logAttributes, [.text(logText)])
        stack.append(logAction?.form(logButton, className: "ock-log-form") ?? logButton)
        let rows = entries.map { entry -> HTML in
            let time = entry.time.text(in: context)
            var row: [HTML] = [
                .element("span", ["class": "ock-log-time"], [.text(time)]),
            ]
            if let value = entry.value { row.append(.element("span", ["class": "ock-log-value"], [.text(value)])) }
            if let delete = entry.deleteAction {
                let name = context.string(.deleteEntry, header.title, time)
                row.append(delete.form(.element("button", ["type": "submit", "class": "ock-log-delete", "aria-label": name],
                                                [.element("span", ["aria-hidden": "true"], [.text("×")])]),
                                       className: "ock-log-delete-form"))
            }
            return .element("li", ["class": "ock-log-entry"], row)
        }
        if !rows.isEmpty { stack.append(HTML.element("ul", ["class": "ock-log-entries"], rows)) }
        return OCKCardView(header: header, contentStack: stack, identifier: identifier).render(in: context)
            .withClass("ock-log-task")
    }
}
