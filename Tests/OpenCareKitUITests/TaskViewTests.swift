import Testing
@testable import OpenCareKitUI

@Suite struct TaskViewTests {
    let action = OCKFormAction(url: SafeURL("/events/toggle")!, fields: ["task": "ibuprofen", "occurrence": "6", "csrf": "t0k3n"])

    @Test func cardsAreAHeaderOverAContentStack() {
        let card = OCKCardView(header: OCKHeaderView(title: "Ibuprofen", detail: "3 times a day", iconName: "pills",
                                                     showsSeparator: true, showsDisclosureIndicator: true),
                               contentStack: [HTML.text("first"), HTML.element("p", [:], [.text("second")])],
                               identifier: "task-ibuprofen")
        let html = card.render().rendered
        #expect(html.hasPrefix(#"<article class="ock-card" id="task-ibuprofen"><header class="ock-header ock-header-separated">"#))
        #expect(html.contains(#"<h2 class="ock-header-title">Ibuprofen</h2><p class="ock-header-detail">3 times a day</p>"#))
        #expect(html.contains(#"<span aria-hidden="true" class="ock-icon" data-icon="pills"></span>"#))
        #expect(html.contains(#"<span aria-hidden="true" class="ock-disclosure">›</span>"#))
        #expect(html.contains(#"<div class="ock-content-stack">first<p>second</p></div></article>"#))
    }

    @Test func completionIsAToggleButtonInAPostForm() {
        let view = OCKSimpleTaskView(title: "Ibuprofen", detail: "08:00, 400 mg", eventTime: "08:00", isComplete: false,
                                     action: action)
        let html = view.render().rendered
        #expect(html.contains(#"<form action="/events/toggle" class="ock-completion-form" method="post">"#))
        #expect(html.contains(#"<input name="csrf" type="hidden" value="t0k3n"><input name="occurrence" type="hidden" value="6"><input name="task" type="hidden" value="ibuprofen">"#))
        #expect(html.contains(#"<button aria-label="Mark Ibuprofen 08:00 as done" aria-pressed="false" class="ock-completion-button ock-circle" type="submit">"#))
        #expect(html.hasPrefix(#"<article class="ock-card ock-simple-task"><div class="ock-simple-row"><header class="ock-header">"#))
        #expect(!html.contains("Mark as Completed")) // the circle shows only its mark
        let done = OCKSimpleTaskView(title: "Ibuprofen", eventTime: "08:00", isComplete: true, action: action).render().rendered
        #expect(done.contains(#"aria-label="Mark Ibuprofen 08:00 as done" aria-pressed="true""#))
        #expect(done.contains(#"<span aria-hidden="true" class="ock-checkmark">✓</span></button>"#))
        let image = OCKSimpleTaskView(title: "Walk", isComplete: true, action: action, completedImage: SafeURL("/star.svg")).render().rendered
        #expect(image.contains(#"<img alt="" class="ock-checkmark ock-completed-image" src="/star.svg">"#))
        #expect(!image.contains("✓"))
        let instructions = OCKInstructionsTaskView(title: "Stretch", instructions: "Gently", isComplete: false, action: action)
            .render().rendered
        #expect(instructions.contains(#"class="ock-completion-button ock-standard""#) && instructions.contains(">Mark as Completed<"))
    }

    @Test func withoutAnActionTheButtonIsDisabledAndOutsideAForm() {
        let html = OCKSimpleTaskView(title: "Walk", isComplete: false, action: nil).render().rendered
        #expect(html.contains(#"disabled="disabled""#))
        #expect(!html.contains("<form"))
    }

    @Test func instructionsSitBetweenHeaderAndButton() {
        let html = OCKInstructionsTaskView(title: "Knee Exercises", instructions: "3 sets of 10", isComplete: false,
                                           action: action).render().rendered
        let instructions = html.range(of: #"<p class="ock-instructions">3 sets of 10</p>"#)
        let button = html.range(of: "<form")
        #expect(instructions != nil && button != nil)
        if let instructions, let button { #expect(instructions.upperBound <= button.lowerBound) }
        #expect(html.contains(#"class="ock-card ock-instructions-task""#))
    }

    @Test func hostileStringsInEveryFieldStayText() {
        let hostile = #"<script>alert("x")</script>' onerror='alert(1)"#
        let evil = OCKFormAction(url: SafeURL("/events/toggle")!, fields: [hostile: hostile])
        let views: [any OCKComponent] = [
            OCKSimpleTaskView(title: hostile, detail: hostile, eventTime: .text(hostile), isComplete: false, action: evil,
                              identifier: hostile),
            OCKInstructionsTaskView(title: hostile, detail: hostile, instructions: hostile, eventTime: .text(hostile),
                                    isComplete: true, action: evil, identifier: hostile),
            OCKCardView(header: OCKHeaderView(title: hostile, detail: hostile, iconName: hostile), contentStack: [HTML.text(hostile)]),
        ]
        for view in views {
            let html = view.render().rendered
            #expect(!html.contains("<script"))
            #expect(!html.contains("' onerror='"))
            #expect(!html.contains(#""x""#))
        }
    }
}

@Suite struct ValueTaskViewTests {
    @Test func labeledValueShowsTheValueOnceRecorded() {
        let done = OCKLabeledValueTaskView(title: "Weekly Weigh-in", state: .complete(value: "72.5", label: "kg")).render().rendered
        #expect(done.contains(#"<p class="ock-labeled-value ock-complete"><span class="ock-value">72.5</span> <span class="ock-value-label">kg</span></p>"#))
        let empty = OCKLabeledValueTaskView(title: "Weekly Weigh-in", state: .incomplete(label: "No weight recorded")).render().rendered
        #expect(empty.contains(#"<p class="ock-labeled-value ock-incomplete"><span class="ock-value-label">No weight recorded</span></p>"#))
        #expect(!empty.contains("ock-value\""))
    }

    @Test func numericProgressShowsAMeterAgainstTheGoal() {
        let view = OCKNumericProgressTaskView(title: "Hydration", progress: 5, progressText: "5", goal: 8,
                                              goalText: "8 glasses", instructions: "Drink eight glasses of water.")
        let html = view.render().rendered
        #expect(!view.isComplete)
        #expect(html.contains(#"<meter aria-label="5 of 8 glasses" max="8.0" min="0" value="5.0"></meter>"#))
        #expect(html.contains(#"<p class="ock-instructions">Drink eight glasses of water.</p>"#))
        let over = OCKNumericProgressTaskView(title: "Hydration", progress: 11, progressText: "11", goal: 8, goalText: "8")
        #expect(over.isComplete)
        #expect(over.render().rendered.contains(#"value="8.0""#))
        let odd = OCKNumericProgressTaskView(title: "x", progress: .nan, progressText: "?", goal: 0, goalText: "0")
        #expect(odd.render().rendered.contains(#"max="1.0" min="0" value="0.0""#))
    }

    @Test func hostileStringsStayTextInValueViews() {
        let hostile = #"<img src=x onerror="alert(1)">"#
        let views: [any OCKComponent] = [
            OCKLabeledValueTaskView(title: hostile, detail: hostile, state: .complete(value: hostile, label: hostile), identifier: hostile),
            OCKLabeledValueTaskView(title: hostile, state: .incomplete(label: hostile)),
            OCKNumericProgressTaskView(title: hostile, detail: hostile, progress: 1, progressText: hostile, goal: 2,
                                       goalText: hostile, instructions: hostile, identifier: hostile),
        ]
        for view in views {
            let html = view.render().rendered
            #expect(!html.contains("<img"))
            #expect(!html.contains(#"onerror="alert"#))
        }
    }
}

@Suite struct EventListTaskViewTests {
    func action(_ occurrence: Int) -> OCKFormAction {
        OCKFormAction(url: SafeURL("/events/toggle")!, fields: ["occurrence": "\(occurrence)"])
    }

    @Test func checklistHasARowAndAToggleForEveryEvent() {
        let view = OCKChecklistTaskView(title: "Ibuprofen", items: [
            OCKEventItem(time: "08:00", isComplete: true, action: action(6)),
            OCKEventItem(time: "14:00", isComplete: false, action: action(7)),
            OCKEventItem(time: "20:00", isComplete: false, action: nil),
        ], instructions: "Take with food.")
        let html = view.render().rendered
        #expect(html.components(separatedBy: #"<li class="ock-checklist-item">"#).count == 4)
        #expect(html.contains(#"aria-label="Mark Ibuprofen 08:00 as done" aria-pressed="true" class="ock-completion-button ock-row""#))
        #expect(html.contains(#"aria-label="Mark Ibuprofen 14:00 as done" aria-pressed="false""#))
        #expect(html.contains(#"aria-label="Mark Ibuprofen 20:00 as done" aria-pressed="false" class="ock-completion-button ock-row" disabled="disabled""#))
        #expect(html.hasSuffix(#"<p class="ock-instructions">Take with food.</p></div></article>"#))
    }

    @Test func gridCellsAreCompactButtonsWithOptionalCustomContent() {
        let view = OCKGridTaskView(title: "Omeprazole", items: [
            OCKEventItem(time: "07:30", isComplete: false, action: action(4)),
            OCKEventItem(time: "19:30", isComplete: false, action: action(5)),
        ], cellContent: [1: HTML.text("20 mg")])
        let html = view.render().rendered
        #expect(html.components(separatedBy: #"class="ock-completion-button ock-cell""#).count == 3)
        #expect(html.contains(#"<div class="ock-grid-cell-content">20 mg</div>"#))
        #expect(html.components(separatedBy: "ock-grid-cell-content").count == 2)
    }

    @Test func logListsEntriesEachDeletable() {
        let log = OCKFormAction(url: SafeURL("/events/log")!, fields: ["task": "nausea"])
        let view = OCKLogTaskView(title: "Track Nausea", instructions: "Log each time you feel nauseous.", logAction: log, entries: [
            .init(time: "09:12", value: "6 of 10", deleteAction: OCKFormAction(url: SafeURL("/events/delete")!, fields: ["index": "0"])),
            .init(time: "13:40", deleteAction: nil),
        ])
        let html = view.render().rendered
        #expect(html.contains(#"<button aria-label="Log Track Nausea" class="ock-log-button" type="submit">Log</button>"#))
        #expect(html.contains(#"<span class="ock-log-time">09:12</span><span class="ock-log-value">6 of 10</span>"#))
        #expect(html.contains(#"aria-label="Delete Track Nausea entry at 09:12""#))
        #expect(html.components(separatedBy: "ock-log-delete\"").count == 2)
        #expect(!OCKLogTaskView(title: "x", logAction: nil, entries: []).render().rendered.contains("ock-log-entries"))
    }

    @Test func hostileStringsStayTextInListViews() {
        let hostile = #"</li><script>alert('x')</script>"#
        let evil = OCKFormAction(url: SafeURL("/x")!, fields: [hostile: hostile])
        let item = OCKEventItem(time: .text(hostile), isComplete: false, action: evil)
        let views: [any OCKComponent] = [
            OCKChecklistTaskView(title: hostile, detail: hostile, items: [item], instructions: hostile, identifier: hostile),
            OCKGridTaskView(title: hostile, items: [item], cellContent: [0: HTML.text(hostile)], instructions: hostile),
            OCKLogTaskView(title: hostile, instructions: hostile, logTitle: hostile, logAction: evil,
                           entries: [.init(time: .text(hostile), value: hostile, deleteAction: evil)]),
        ]
        for view in views {
            let html = view.render().rendered
            #expect(!html.contains("<script"))
            #expect(!html.contains(hostile))
        }
    }
}

/// A component written outside the module: it takes its strings from the context and composes with the built-in
/// ones in a card's stack.
private struct PainScaleView: OCKComponent {
    var level: Int

    func render(in context: OCKRenderContext) -> HTML {
        .element("p", ["class": "pain-scale"], [.text(context.localization.string(.progressOfGoal, "\(level)", "10"))])
    }
}

@Suite struct CustomComponentTests {
    @Test func aCustomComponentGoesInAnyCardStack() {
        let card = OCKCardView(header: OCKHeaderView(title: "Pain"), contentStack: [
            PainScaleView(level: 6),
            OCKCompletionRingView(fraction: 0.5),
            OCKCompletionButton(isComplete: false, subject: "Pain check-in", action: nil),
        ])
        let korean = OCKRenderContext(localization: OCKLocalization(language: .korean))
        let html = card.render(in: korean).rendered
        #expect(html.contains(#"<div class="ock-content-stack"><p class="pain-scale">10 중 6</p><svg aria-label="50% 완료""#))
        #expect(html.contains(#"aria-label="Pain check-in 완료로 표시""#))
        #expect(card.render().rendered.contains(#"<p class="pain-scale">6 of 10</p>"#))
    }
}
