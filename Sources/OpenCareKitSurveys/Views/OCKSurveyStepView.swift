import Foundation
import OpenCareKitUI

/// One step of a survey as a page's form, ResearchKit's step view controllers the web's way: the progress
/// ("Step 2 of 5"), the step's content and its controls, then Next (or Done), Back, Skip for optional steps, and
/// Cancel. It is a plain POST form, so it works without JavaScript; with `OCKSurveyScript`, the signature can be
/// drawn and notifications asked for.
///
/// The form posts `step` (the step's id, checked against the session), `action` (`next`, `back`, `skip` or
/// `cancel`), the hidden fields of `action`, and the answer fields `OCKSurveyForm` reads back.
public struct OCKSurveyStepView: OCKComponent {
    /// The survey the step belongs to; its title heads the page.
    public var survey: OCKSurvey
    /// The step shown.
    public var step: OCKSurveyStep
    /// The step's position, counting from 1, and the number of steps.
    public var progress: (step: Int, of: Int)
    /// The step's result so far (after going back), shown in its controls.
    public var result: OCKStepResult?
    /// Why the last submission was refused, shown above the controls.
    public var error: String?
    /// Where the form posts, with its hidden fields (a CSRF token).
    public var action: OCKFormAction
    /// What the step's field names start with when it shares a form with the survey's other steps
    /// (`OCKSurveyPageView`: "pain." names the answer "pain.answer"); empty on the step's own page.
    public var fieldPrefix = ""

    /// A page of `step`.
    ///
    /// - Parameters:
    ///   - survey: The survey the step belongs to.
    ///   - step: The step shown.
    ///   - progress: The step's position, from 1, and the number of steps (`OCKSurveySession.progress`).
    ///   - result: The step's result so far, shown in its controls; nil by default.
    ///   - error: Why the last submission was refused; nil by default.
    ///   - action: Where the form posts, with its hidden fields.
    public init(survey: OCKSurvey, step: OCKSurveyStep, progress: (step: Int, of: Int), result: OCKStepResult? = nil,
                error: String? = nil, action: OCKFormAction) {
        self.survey = survey
        self.step = step
        self.progress = progress
        self.result = result
        self.error = error
        self.action = action
    }

    /// The id of the step's error message, which the controls point to with `aria-describedby`.
    static let errorID = "ock-step-error"

    /// The name of the step's field `name` in its form.
    func fieldName(_ name: String) -> String { fieldPrefix + name }

    /// The element id `id` of this step, unique on a page that shows every step.
    func elementID(_ id: String) -> String {
        guard !fieldPrefix.isEmpty else { return id }
        // "_", then the step's id with ASCII letters, digits and "-" as they are and anything else (an "_" too) as
        // "_", its code and "_": the first "_" ends the fixed part, so two steps' ids never meet.
        return id + "_" + step.id.unicodeScalars.map { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-")
                ? String(scalar) : "_" + String(scalar.value, radix: 16) + "_"
        }.joined()
    }

    public func render(in context: OCKRenderContext) -> HTML {
        let progressText = context.string(.stepProgress, String(progress.step), String(progress.of))
        var children: [HTML] = [
            .element("input", ["type": "hidden", "name": "step", "value": step.id], []),
            .element("p", ["class": "ock-survey-progress"], [
                .text(progressText),
                .element("progress", ["value": String(progress.step), "max": String(progress.of), "aria-hidden": "true"], []),
            ]),
            .element("h1", ["class": "ock-survey-title"], [.text(survey.title)]),
        ]
        if let error {
            children.append(.element("p", ["class": "ock-form-error", "id": elementID(Self.errorID), "role": "alert"], [.text(error)]))
        }
        children.append(.element("div", ["class": "ock-survey-step ock-survey-\(kindName)"], content(in: context)))
        children.append(buttons(in: context))
        var fields = action.fields
        fields.removeValue(forKey: "step")
        return OCKFormAction(url: action.url, fields: fields).form(.group(children), className: "ock-survey")
    }

    var kindName: String {
        switch step.kind {
        case .instruction: "instruction"
        case .consentReview: "consent-review"
        case .signature: "signature"
        case .permissions: "permissions"
        case .question: "question"
        case .completion: "completion"
        }
    }

    /// Next (or Done on the last step) comes first, so that Enter in a field means Next.
    func buttons(in context: OCKRenderContext) -> HTML {
        func button(_ value: String, _ key: OCKStringKey, primary: Bool = false) -> HTML {
            var attributes = ["type": "submit", "name": "action", "value": value,
                              "class": primary ? "ock-completion-button ock-survey-next" : "ock-survey-button"]
            if !primary { attributes["formnovalidate"] = "formnovalidate" }
            return .element("button", attributes, [.text(context.string(key))])
        }
        var secondary: [HTML] = []
        if progress.step > 1 { secondary.append(button("back", .back)) }
        if step.isOptional && step.needsResult { secondary.append(button("skip", .skip)) }
        secondary.append(button("cancel", .cancel))
        return .element("div", ["class": "ock-survey-actions"], [
            button("next", progress.step == progress.of ? .done : .next, primary: true),
            .element("div", ["class": "ock-survey-secondary"], secondary),
        ])
    }

    /// Attributes every answer control gets: required unless optional, and the error when there is one.
    func controlAttributes(_ attributes: [String: String], required: Bool = true) -> [String: String] {
        var attributes = attributes
        if required && !step.isOptional { attributes["required"] = "required" }
        if error != nil {
            attributes["aria-invalid"] = "true"
            attributes["aria-describedby"] = [attributes["aria-describedby"], elementID(Self.errorID)].compactMap { $0 }.joined(separator: " ")
        }
        return attributes
    }

    func content(in context: OCKRenderContext) -> [HTML] {
        switch step.kind {
        case let .instruction(content), let .completion(content):
            return instruction(content)
        case let .consentReview(document):
            return consentReview(document, in: context)
        case let .signature(version):
            return signature(version: version, in: context)
        case let .permissions(permissions):
            return self.permissions(permissions, in: context)
        case let .question(prompt, format):
            return question(prompt, format, in: context)
        }
    }

    func instruction(_ content: OCKInstructionContent) -> [HTML] {
        var html: [HTML] = [.element("h2", ["class": "ock-survey-heading"], [.text(content.title)])]
        if let detail = content.detail { html.append(.element("p", ["class": "ock-survey-detail"], [.text(detail)])) }
        if let image = content.image, let icon = OCKIcon(rawValue: image) {
            html.insert(.element("div", ["class": "ock-survey-image"], [icon.html]), at: 0)
        }
        if !content.bodyItems.isEmpty {
            html.append(.element("ul", ["class": "ock-body-items"], content.bodyItems.map { item in
                .element("li", ["class": "ock-body-item"], [(OCKIcon(rawValue: item.icon) ?? .heart).html, .element("span", [:], [.text(item.text)])])
            }))
        }
        return html
    }

    func consentReview(_ document: OCKConsentDocument, in context: OCKRenderContext) -> [HTML] {
        [
            .element("input", ["type": "hidden", "name": "version", "value": document.version], []),
            .element("h2", ["class": "ock-survey-heading"], [.text(document.title)]),
            .element("p", ["class": "ock-survey-detail"], [.text(context.string(.consentDocumentVersion, document.title, document.version))]),
        ] + document.sections.map { section in
            var parts: [HTML] = [
                .element("h3", [:], [.text(section.title)]),
                .element("p", [:], [.text(section.summary)]),
            ]
            if let more = section.learnMore {
                parts.append(.element("details", ["class": "ock-learn-more"], [
                    .element("summary", [:], [
                        .text(context.string(.learnMore)),
                        .element("span", ["class": "ock-visually-hidden"], [.text(": " + section.title)]),
                    ]),
                    .element("p", [:], [.text(more)]),
                ]))
            }
            return .element("section", ["class": "ock-consent-section"], parts)
        }
    }

    func signature(version: String, in context: OCKRenderContext) -> [HTML] {
        var name = ""
        var agreed = false
        // A drawing made before going back comes back with the step (the script puts it on the canvas).
        var drawing = ""
        if case let .signature(signature)? = result {
            name = signature.fullName
            agreed = signature.agreed
            drawing = signature.image.flatMap(SafeURL.pngImage)?.description ?? ""
        }
        let document = survey.consentDocument(version: version)
        var agree = controlAttributes(["type": "checkbox", "name": "agree", "value": "true", "id": "ock-agree"])
        if agreed { agree["checked"] = "checked" }
        return [
            .element("h2", ["class": "ock-survey-heading"], [.text(context.string(.signConsentTitle))]),
            .element("p", ["class": "ock-survey-detail"], [.text(context.string(.consentDocumentVersion, document?.title ?? "", version))]),
            .element("label", ["class": "ock-field", "for": "ock-full-name"], [.text(context.string(.fullName))]),
            .element("input", controlAttributes(["type": "text", "name": "fullName", "id": "ock-full-name", "autocomplete": "name",
                                                 "maxlength": "200", "value": name, "class": "ock-value-input"]), []),
            // Shown by the script; without it, the typed name signs.
            .element("div", ["class": "ock-signature-pad", "data-ock-signature": "", "hidden": "hidden"], [
                .element("p", ["class": "ock-field", "id": "ock-signature-label"], [.text(context.string(.signatureDrawing))]),
                .element("p", ["class": "ock-survey-hint", "id": "ock-signature-hint"], [.text(context.string(.signatureHint))]),
                .element("canvas", ["class": "ock-signature-canvas", "width": "600", "height": "200", "role": "img",
                                    "aria-labelledby": "ock-signature-label", "aria-describedby": "ock-signature-hint"], []),
                .element("button", ["type": "button", "class": "ock-survey-button", "data-ock-signature-clear": ""], [
                    .text(context.string(.clearSignature)),
                ]),
                .element("input", ["type": "hidden", "name": "signature", "value": drawing], []),
            ]),
            .element("div", ["class": "ock-check-row"], [
                .element("input", agree, []),
                .element("label", ["for": "ock-agree"], [.text(context.string(.agreeToConsent))]),
            ]),
        ]
    }

    func permissions(_ permissions: [OCKPermission], in context: OCKRenderContext) -> [HTML] {
        var granted: [String: Bool] = [:]
        if case let .permissions(choices)? = result { granted = choices }
        return [.element("h2", ["class": "ock-survey-heading"], [.text(context.string(.permissionsTitle))])] + permissions.flatMap { permission -> [HTML] in
            [
                .element("p", ["class": "ock-survey-detail"], [OCKIcon.bell.html, .text(" " + permission.explanation)]),
                // The script shows the button where the browser can ask, and writes the browser's answer below.
                .element("button", ["type": "button", "class": "ock-completion-button", "hidden": "hidden",
                                    "data-ock-permission": permission.id], [.text(context.string(.allowNotifications))]),
                .element("p", ["class": "ock-survey-hint", "role": "status", "data-ock-permission-status": permission.id,
                               "data-granted": context.string(.notificationsGranted), "data-denied": context.string(.notificationsDenied),
                               "data-unavailable": context.string(.notificationsUnavailable)],
                         [.text(granted[permission.id] == true ? context.string(.notificationsGranted) : "")]),
                .element("input", ["type": "hidden", "name": "permission.\(permission.id)",
                                   "value": granted[permission.id] == true ? "granted" : ""], []),
            ]
        }
    }

    func question(_ prompt: String, _ format: OCKAnswerFormat, in context: OCKRenderContext) -> [HTML] {
        let answer: OCKAnswer? = if case let .answer(answer)? = result { answer } else { nil }
        func group(_ options: [(value: String, label: String, checked: Bool)], type: String, description: HTML? = nil) -> [HTML] {
            var legend: [String: String] = ["class": "ock-survey-question"]
            var fieldset: [String: String] = ["class": "ock-choices ock-choices-\(type)"]
            if description != nil { fieldset["aria-describedby"] = elementID("ock-question-description") }
            if error != nil { fieldset["aria-describedby"] = [fieldset["aria-describedby"], elementID(Self.errorID)].compactMap { $0 }.joined(separator: " ") }
            legend["id"] = elementID("ock-question")
            let inputs: [HTML] = options.enumerated().map { index, option in
                let id = elementID("ock-answer-\(index)")
                var attributes = ["type": type, "name": fieldName("answer"), "value": option.value, "id": id]
                // One required radio makes the group required; checkboxes are never each required.
                if type == "radio", index == 0, !step.isOptional { attributes["required"] = "required" }
                if option.checked { attributes["checked"] = "checked" }
                return .element("div", ["class": "ock-choice"], [
                    .element("input", attributes, []),
                    .element("label", ["for": id], [.text(option.label)]),
                ])
            }
            return [.element("fieldset", fieldset, [.element("legend", legend, [.text(prompt)])] + (description.map { [$0] } ?? [])
                + [.element("div", ["class": "ock-choice-list"], inputs)])]
        }
        func field(_ input: [String: String], suffix: String? = nil) -> [HTML] {
            var row: [HTML]
            if input["type"] == "textarea" {
                // A text area holds its value as text, not as an attribute.
                row = [.element("textarea", controlAttributes(input.filter { $0.key != "type" && $0.key != "value" }),
                                [.text(input["value"] ?? "")])]
            } else {
                row = [.element("input", controlAttributes(input), [])]
            }
            if let suffix { row.append(.element("span", ["class": "ock-unit", "aria-hidden": "true"], [.text(suffix)])) }
            return [
                .element("label", ["class": "ock-survey-question", "for": elementID("ock-answer")], [.text(prompt)]),
                .element("div", ["class": "ock-answer-row"], row),
            ]
        }
        switch format {
        case let .scale(minimum, maximum, minimumLabel, maximumLabel):
            let chosen: Int? = if case let .scale(value)? = answer { value } else { nil }
            let description = HTML.element("p", ["class": "ock-survey-hint", "id": elementID("ock-question-description")], [
                .text(context.string(.scaleEnds, context.localization.number(Double(minimum), fractionDigits: 0), minimumLabel,
                                     context.localization.number(Double(maximum), fractionDigits: 0), maximumLabel)),
            ])
            return group((minimum...maximum).map { value in
                (String(value), context.localization.number(Double(value), fractionDigits: 0), value == chosen)
            }, type: "radio", description: description)
        case let .numeric(unit, minimum, maximum):
            let value: String = if case let .number(number)? = answer { HTML.fieldNumber(number) } else { "" }
            var input = ["type": "number", "name": fieldName("answer"), "id": elementID("ock-answer"), "inputmode": "decimal", "step": "any",
                         "min": HTML.fieldNumber(minimum), "max": HTML.fieldNumber(maximum), "value": value, "class": "ock-value-input"]
            if let unit {
                input["aria-label"] = context.string(.entryLabel, prompt, unit)
            }
            return field(input, suffix: unit)
        case let .singleChoice(choices):
            let chosen: String? = if case let .choice(id)? = answer { id } else { nil }
            return group(choices.map { ($0.id, $0.text, $0.id == chosen) }, type: "radio")
        case let .multipleChoice(choices):
            let chosen: [String] = if case let .choices(ids)? = answer { ids } else { [] }
            return group(choices.map { ($0.id, $0.text, chosen.contains($0.id)) }, type: "checkbox")
        case let .text(maximumLength):
            let value: String = if case let .text(text)? = answer { text } else { "" }
            return field(["type": "textarea", "name": fieldName("answer"), "id": elementID("ock-answer"), "maxlength": String(maximumLength),
                          "rows": "4", "value": value, "class": "ock-value-input"])
        case .dateTime:
            let value: String = if case let .date(date)? = answer {
                OCKSurveyForm.localDateTime(date, timeZone: context.localization.timeZone)
            } else { "" }
            return field(["type": "datetime-local", "name": fieldName("answer"), "id": elementID("ock-answer"), "value": value, "class": "ock-value-input"])
        case .yesNo:
            let chosen: Bool? = if case let .yesNo(value)? = answer { value } else { nil }
            return group([("true", context.string(.yes), chosen == true), ("false", context.string(.no), chosen == false)], type: "radio")
        }
    }
}
