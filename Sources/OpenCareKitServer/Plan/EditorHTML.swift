import OpenCareKitUI

/// The editor's form controls: each labelled, with its problem (if any) beside it and tied to it for assistive
/// technology (`aria-describedby`, `aria-invalid`).
struct EditorHTML {
    let language: OCKLanguage
    /// Problems by field id.
    let problems: [String: TaskForm.Problem]

    init(language: OCKLanguage, problems: [TaskForm.Problem]) {
        self.language = language
        var byField: [String: TaskForm.Problem] = [:]
        for problem in problems where byField[problem.field] == nil { byField[problem.field] = problem }
        self.problems = byField
    }

    func text(_ words: EditorText) -> String { words.text(language) }

    /// The problem of `field`, as a paragraph with id `{field}-error`.
    func error(_ field: String) -> HTML {
        guard let problem = problems[field] else { return .empty }
        let message = problem.argument.map { problem.text.text(language, $0) } ?? problem.text.text(language)
        return .element("p", ["class": "ock-field-error", "id": field + "-error"], [.text(message)])
    }

    /// Attributes that tie a control to its field's problem and hint.
    func described(_ field: String, _ attributes: [String: String], hint: String? = nil) -> [String: String] {
        var attributes = attributes
        var ids: [String] = []
        if hint != nil { ids.append(field + "-hint") }
        if problems[field] != nil {
            ids.append(field + "-error")
            attributes["aria-invalid"] = "true"
        }
        if !ids.isEmpty { attributes["aria-describedby"] = ids.joined(separator: " ") }
        return attributes
    }

    /// A labelled input (or textarea, for `type` "textarea").
    func field(_ label: String, id: String, name: String? = nil, type: String = "text", value: String, hint: String? = nil,
               extra: [String: String] = [:]) -> HTML {
        var attributes = described(id, ["id": id, "name": name ?? id], hint: hint).merging(extra) { $1 }
        let control: HTML
        if type == "textarea" {
            control = .element("textarea", attributes.merging(["rows": "3"]) { $1 }, [.text(value)])
        } else {
            attributes["type"] = type
            attributes["value"] = value
            control = .element("input", attributes, [])
        }
        return .element("p", ["class": "ock-field"], [
            .element("label", ["for": id], [.text(label)]),
            hint.map { .element("span", ["class": "ock-field-hint", "id": id + "-hint"], [.text($0)]) } ?? .empty,
            control,
            error(id),
        ])
    }

    /// A labelled select of `(value, label)` options.
    func select(_ label: String, id: String, options: [(String, String)], selected: String) -> HTML {
        .element("p", ["class": "ock-field"], [
            .element("label", ["for": id], [.text(label)]),
            .element("select", described(id, ["id": id, "name": id]), options.map { value, title in
                .element("option", ["value": value, "selected": value == selected ? "selected" : nil].compactMapValues { $0 }, [.text(title)])
            }),
            error(id),
        ])
    }

    /// A checkbox or radio button with its label after it.
    func choice(_ label: String, type: String, name: String, id: String, value: String, checked: Bool) -> HTML {
        Self.choice(label, type: type, name: name, id: id, value: value, checked: checked)
    }

    static func radio(_ label: String, name: String, id: String, value: String, checked: Bool) -> HTML {
        choice(label, type: "radio", name: name, id: id, value: value, checked: checked)
    }

    static func choice(_ label: String, type: String, name: String, id: String, value: String, checked: Bool) -> HTML {
        .element("p", ["class": "ock-editor-choice"], [
            .element("input", ["type": type, "name": name, "id": id, "value": value, "checked": checked ? "checked" : nil].compactMapValues { $0 }, []),
            .element("label", ["for": id], [.text(label)]),
        ])
    }

    /// A group of controls with a legend and its problem.
    func group(_ legend: String, id: String, _ children: [HTML]) -> HTML {
        var attributes = ["class": "ock-fieldset", "id": id]
        if problems[id] != nil { attributes["aria-describedby"] = id + "-error" }
        return .element("fieldset", attributes, [.element("legend", [:], [.text(legend)]), error(id)] + children)
    }

    static func hidden(_ name: String, _ value: String) -> HTML {
        .element("input", ["type": "hidden", "name": name, "value": value], [])
    }

    static func button(_ label: String, intent: String, primary: Bool = false) -> HTML {
        .element("button", ["type": "submit", "name": "intent", "value": intent, "class": primary ? "ock-button ock-button-primary" : "ock-button"],
                 [.text(label)])
    }
}
