/// CareKit's survey task card (OCKSurveyTaskViewController's view): the task's header and instructions with a
/// "Start survey" button; once the survey is done, a "Completed" mark, a link to delete the answers (which asks
/// first).
///
/// It renders a card (`ock-survey-task`, plus `ock-complete` once done). Its controls carry the task's title for
/// assistive technology, so two survey cards' buttons are told apart ("Start survey Daily Check-in"). The survey's
/// own pages are not part of this card: it starts the survey and shows whether it is done.
///
/// For example:
/// ```swift
/// let card = OCKSurveyTaskView(
///     title: "Daily Check-in", instructions: "How are you feeling today?", isComplete: false,
///     startAction: OCKFormAction(url: SafeURL("/surveys/check-in/start")!, fields: ["occurrence": "0"]))
/// ```
public struct OCKSurveyTaskView: OCKComponent {
    /// The card's header: the title and detail given to the initializer, with a separator below.
    public var header: OCKHeaderView
    /// Text above the button; nil shows none.
    public var instructions: String?
    /// Whether the survey is done: the card shows "Completed" and the delete link instead of the start button.
    public var isComplete: Bool
    /// Where "Start survey" posts; nil shows it disabled (a future day, a read-only page).
    public var startAction: OCKFormAction?
    /// The page that confirms deleting the answers; nil when they may not be deleted (a signed consent).
    public var deleteURL: SafeURL?
    /// The whole survey as one form, which the app's script opens instead of "Start survey" on a device offline
    /// (a hidden link, `data-ock-survey-page`); nil when the survey runs step by step only. It is written only while
    /// the survey can be started, and is not in the initializer: set it afterwards.
    public var onePageURL: SafeURL?
    /// The `id` of the card's `<article>`, or nil.
    public var identifier: String?

    /// Creates a survey task card.
    ///
    /// - Parameters:
    ///   - title: The survey's title, such as "Daily Check-in".
    ///   - detail: The schedule, or nil.
    ///   - instructions: Text above the button, or nil.
    ///   - isComplete: Whether the survey is done.
    ///   - startAction: Where "Start survey" posts, or nil for a disabled button.
    ///   - deleteURL: The page that confirms deleting the answers, or nil.
    ///   - identifier: The `id` of the card's `<article>`, or nil.
    public init(title: String, detail: String? = nil, instructions: String? = nil, isComplete: Bool,
                startAction: OCKFormAction?, deleteURL: SafeURL? = nil, identifier: String? = nil) {
        header = OCKHeaderView(title: title, detail: detail, showsSeparator: true)
        self.instructions = instructions
        self.isComplete = isComplete
        self.startAction = startAction
        self.deleteURL = deleteURL
        self.identifier = identifier
    }

    public func render(in context: OCKRenderContext) -> HTML {
        var stack: [any OCKComponent] = HTML.instructions(instructions)
        // The task's title follows each control's visible text for assistive technology, so that two survey cards'
        // buttons are told apart ("Start survey Daily Check-in").
        let subject = HTML.element("span", ["class": "ock-visually-hidden"], [.text(" " + header.title)])
        if isComplete {
            stack.append(HTML.element("p", ["class": "ock-survey-status"], [
                .element("span", ["class": "ock-checkmark", "aria-hidden": "true"], [.text("✓")]),
                .element("span", [:], [.text(context.string(.completed))]),
            ]))
            if let deleteURL {
                stack.append(HTML.element("a", ["class": "ock-link-row ock-survey-delete", "href": deleteURL.description], [
                    .text(context.string(.deleteAnswers)), subject,
                ]))
            }
        } else {
            var attributes = ["type": "submit", "class": "ock-completion-button ock-survey-start"]
            if startAction == nil { attributes["disabled"] = "disabled" }
            let button = HTML.element("button", attributes, [
                .element("span", ["class": "ock-button-title"], [.text(context.string(.startSurvey))]), subject,
            ])
            stack.append(startAction?.form(button, className: "ock-survey-form") ?? button)
            if let onePageURL, startAction != nil {
                stack.append(HTML.element("a", ["href": onePageURL.description, "data-ock-survey-page": "", "hidden": "hidden"], [
                    .text(context.string(.startSurvey)), subject,
                ]))
            }
        }
        return OCKCardView(header: header, contentStack: stack, identifier: identifier).render(in: context)
            .withClass(isComplete ? "ock-survey-task ock-complete" : "ock-survey-task")
    }
}
