extension OCKCarePlanTemplate {
    /// The JSON Schema (draft 2020-12) of a template, published at `/schemas/care-plan-template-1.json`. It states the
    /// same fields and limits `init(json:)` checks. Rules it cannot state are checked by `init(json:)`: ids that
    /// repeat, times that repeat, a last day before the start day; and when the template is applied, a last day with
    /// no event and surveys the server does not have.
    public static let jsonSchema = #"""
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "$id": "https://opencarekit.org/schemas/care-plan-template-1.json",
      "$comment": "Patterns end with (?![\\s\\S]), the end of the text in every regular expression dialect ($ also matches before a final newline in some).",
      "title": "OpenCareKit care plan template",
      "description": "Tasks with schedules counted in days from the day the template is applied (day 0), and the care team's contacts.",
      "type": "object",
      "additionalProperties": false,
      "required": ["$schema", "formatVersion", "id", "title", "tasks"],
      "properties": {
        "$schema": { "const": "https://opencarekit.org/schemas/care-plan-template-1.json" },
        "formatVersion": { "const": 1 },
        "id": { "$ref": "#/$defs/identifier" },
        "title": { "type": "string", "minLength": 1, "maxLength": 200, "pattern": "\\S" },
        "summary": { "type": ["string", "null"], "maxLength": 2000 },
        "tasks": { "type": "array", "maxItems": 50, "items": { "$ref": "#/$defs/task" } },
        "contacts": { "type": ["array", "null"], "maxItems": 50, "items": { "$ref": "#/$defs/contact" } }
      },
      "$defs": {
        "identifier": { "type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}(?![\\s\\S])" },
        "short": { "type": ["string", "null"], "maxLength": 100 },
        "task": {
          "type": "object",
          "additionalProperties": false,
          "required": ["id", "title", "schedule"],
          "properties": {
            "id": { "$ref": "#/$defs/identifier" },
            "title": { "type": "string", "minLength": 1, "maxLength": 200, "pattern": "\\S" },
            "instructions": { "type": ["string", "null"], "maxLength": 2000 },
            "card": { "enum": ["simple", "instructions", "checklist", "grid", "log", "labeledValue", "numericProgress", null] },
            "survey": { "type": ["string", "null"], "maxLength": 64 },
            "countsTowardAdherence": { "type": ["boolean", "null"], "default": true },
            "group": { "$ref": "#/$defs/short" },
            "tags": { "type": ["array", "null"], "maxItems": 20, "items": { "type": "string", "minLength": 1, "maxLength": 100, "pattern": "\\S" } },
            "schedule": { "$ref": "#/$defs/schedule" }
          }
        },
        "schedule": {
          "type": "object",
          "additionalProperties": false,
          "required": ["repeat", "every", "startDay"],
          "properties": {
            "repeat": { "enum": ["days", "weeks"] },
            "every": { "type": "integer", "minimum": 1, "maximum": 366 },
            "weekdays": { "type": ["array", "null"], "maxItems": 7, "uniqueItems": true, "items": { "type": "integer", "minimum": 1, "maximum": 7 } },
            "times": {
              "type": ["array", "null"], "maxItems": 48,
              "items": {
                "type": "object",
                "additionalProperties": false,
                "required": ["time"],
                "properties": {
                  "time": { "type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9](?![\\s\\S])" },
                  "label": { "type": ["string", "null"], "maxLength": 100 }
                }
              }
            },
            "allDayLabel": { "type": ["string", "null"], "maxLength": 100 },
            "durationMinutes": { "type": ["integer", "null"], "minimum": 1, "maximum": 1440 },
            "startDay": { "type": "integer", "minimum": 0, "maximum": 365 },
            "lastDay": { "type": ["integer", "null"], "minimum": 0, "maximum": 730 },
            "targets": {
              "type": ["array", "null"], "maxItems": 8,
              "items": {
                "type": "object",
                "additionalProperties": false,
                "required": ["value"],
                "properties": {
                  "value": { "type": "number" },
                  "units": { "type": ["string", "null"], "maxLength": 100 },
                  "kind": { "enum": ["dose", null] }
                }
              }
            }
          },
          "if": { "properties": { "repeat": { "const": "weeks" } } },
          "then": { "properties": { "every": { "maximum": 52 }, "weekdays": { "type": "array", "minItems": 1 } }, "required": ["weekdays"] }
        },
        "contact": {
          "type": "object",
          "additionalProperties": false,
          "required": ["id"],
          "anyOf": [
            { "required": ["givenName"], "properties": { "givenName": { "type": "string", "minLength": 1 } } },
            { "required": ["familyName"], "properties": { "familyName": { "type": "string", "minLength": 1 } } }
          ],
          "properties": {
            "id": { "$ref": "#/$defs/identifier" },
            "givenName": { "$ref": "#/$defs/short" },
            "familyName": { "$ref": "#/$defs/short" },
            "role": { "$ref": "#/$defs/short" },
            "title": { "$ref": "#/$defs/short" },
            "phone": { "$ref": "#/$defs/short" },
            "messaging": { "$ref": "#/$defs/short" },
            "email": { "type": ["string", "null"], "maxLength": 254 },
            "category": { "enum": ["careProvider", "friendsAndFamily", null] },
            "address": {
              "type": ["object", "null"],
              "additionalProperties": false,
              "properties": {
                "street": { "type": ["string", "null"], "maxLength": 200 },
                "city": { "$ref": "#/$defs/short" },
                "state": { "$ref": "#/$defs/short" },
                "postalCode": { "$ref": "#/$defs/short" },
                "country": { "$ref": "#/$defs/short" }
              }
            }
          }
        }
      }
    }
    """#
}
