import Foundation
import OpenCareKitUI

/// A whole survey as one form: its instructions and questions one after another, then Done and Cancel. It is what
/// a device keeps to answer a check-in offline (a survey `isAnsweredOnOnePage`), and a plain POST form, so it
/// works without JavaScript too. Each step's fields are named after the step ("pain.answer"), and
/// `OCKSurveyForm.session(answering:fields:now:timeZone:)` reads them back, with the same checks as step by step.
public struct OCKSurveyPageView: OCKComponent {
    /// The survey shown; its completion step is left out (it would come before Done).
    public var survey: OCKSurvey
    /// The results to show in the controls (a refused form's answers, shown again).
    public var results: [String: OCKStepResult]
    /// Why the form was refused, and the step it was refused at (nil: the form as a whole).
    public var error: (stepID: String?, message: String)?
    /// Where the form posts, with its hidden fields (the event, the CSRF token).
    public var action: OCKFormAction
    /// Where Cancel leads (the survey's card).
    public var cancelURL: SafeURL

    /// A form of `survey`.
    ///
    /// - Parameters:
    ///   - survey: The survey, one answered on one page (`OCKSurvey.isAnsweredOnOnePage`).
    ///   - results: The results to show in the controls; none by default.
    ///   - error: Why the form was refused, and at which step; nil by default.
    ///   - action: Where the form posts, with its hidden fields.
    ///   - cancelURL: Where Cancel leads.
    public init(survey: OCKSurvey, results: [String: OCKStepResult] = [:], error: (stepID: String?, message: String)? = nil,
                action: OCKFormAction, cancelURL: SafeURL) {
        self.survey = survey
        self.results = results
        self.error = error
        self.action = action
        self.cancelURL = cancelURL
    }

    /// What `step`'s field names start with on the one form.
    public static func fieldPrefix(of step: OCKSurveyStep) -> String { step.id + "." }

    /// The class of the form, which the app's script finds it by.
    public static let className = "ock-survey ock-survey-one-page"

    public func render(in context: OCKRenderContext) -> HTML {
        var children: [HTML] = [.element("h1", ["class": "ock-survey-title"], [.text(survey.title)])]
        if let error, error.stepID.flatMap(survey.step) == nil {
            children.append(.element("p", ["class": "ock-form-error", "role": "alert"], [.text(error.message)]))
        }
        // The closing message thanks someone who has answered: on one form it would come before Done.
        for step in survey.steps {
            if case .completion = step.kind { continue }
            var view = OCKSurveyStepView(survey: survey, step: step, progress: (1, 1), result: results[step.id],
                                         error: error?.stepID == step.id ? error?.message : nil, action: action)
            view.fieldPrefix = Self.fieldPrefix(of: step)
            var content: [HTML] = []
            if let message = view.error {
                content.append(.element("p", ["class": "ock-form-error", "id": view.elementID(OCKSurveyStepView.errorID), "role": "alert"],
                                        [.text(message)]))
            }
            children.append(.element("div", ["class": "ock-survey-step ock-survey-\(view.kindName)"], content + view.content(in: context)))
        }
        children.append(.element("div", ["class": "ock-survey-actions"], [
            .element("button", ["type": "submit", "class": "ock-completion-button ock-survey-next"], [.text(context.string(.done))]),
            .element("div", ["class": "ock-survey-secondary"], [
                .element("a", ["class": "ock-survey-button", "href": cancelURL.description], [.text(context.string(.cancel))]),
            ]),
        ]))
        return action.form(.group(children), className: Self.className)
    }
}
