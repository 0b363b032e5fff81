/// One event of a checklist or grid: its time text, whether it is done, and where toggling it posts.
public struct OCKEventItem: Sendable, Hashable {
    /// The event's time, formatted for the reader, or text such as "Morning".
    public var time: OCKTimeText
    public var isComplete: Bool
    public var action: OCKFormAction?

    public init(time: OCKTimeText, isComplete: Bool, action: OCKFormAction?) {
        self.time = time
        self.isComplete = isComplete
        self.action = action
    }
}

/// CareKit's checklist task: a row per event with its time and its own toggle, instructions below.
public struct OCKChecklistTaskView: OCKComponent {
    public var header: OCKHeaderView
    public var items: [OCKEventItem]
    public var instructions: String?
    public var identifier: String?

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
public struct OCKGridTaskView: OCKComponent {
    public var header: OCKHeaderView
    public var items: [OCKEventItem]
    /// Custom content for cells, by position; cells without show the event's time.
    public var cellContent: [Int: any OCKComponent]
    public var instructions: String?
    public var identifier: String?

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
public struct OCKLogTaskView: OCKComponent {
    /// One logged entry.
    public struct Entry: Sendable, Hashable {
        /// When it was logged.
        public var time: OCKTimeText
        /// What was logged, such as "6 of 10", if more than the fact itself.
        public var value: String?
        /// Where deleting it posts; nil hides the delete button.
        public var deleteAction: OCKFormAction?

        public init(time: OCKTimeText, value: String? = nil, deleteAction: OCKFormAction?) {
            self.time = time
            self.value = value
            self.deleteAction = deleteAction
        }
    }

    public var header: OCKHeaderView
    public var instructions: String?
    /// The log button's text; nil shows "Log" in the reader's language.
    public var logTitle: String?
    public var logAction: OCKFormAction?
    public var entries: [Entry]
    public var identifier: String?

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
