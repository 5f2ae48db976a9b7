package agent

// Schema is the JSON Schema of Result, handed to claude --json-schema so that
// the model must answer through its StructuredOutput tool.
const Schema = `{
  "type": "object",
  "properties": {
    "status": {
      "type": "string",
      "enum": ["completed", "failed", "blocked", "needs_input"],
      "description": "completed: the task is done; failed: it cannot be done; blocked: something outside your control stops you; needs_input: you need a human decision to go on"
    },
    "summary": {"type": "string", "minLength": 1, "description": "one or two sentences on what you did or why you stopped"},
    "details": {"type": "string", "description": "longer explanation, optional"},
    "question": {"type": "string", "description": "with needs_input: the question for the human"},
    "questionContext": {"type": "string", "description": "what the human needs to know to answer"},
    "questions": {
      "type": "array",
      "description": "with needs_input: several typed questions, instead of question",
      "items": {
        "type": "object",
        "properties": {
          "question": {"type": "string"},
          "header": {"type": "string", "description": "short label"},
          "type": {"type": "string", "enum": ["approval", "choice", "freeform"]},
          "options": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {"label": {"type": "string"}, "description": {"type": "string"}},
              "required": ["label"]
            }
          },
          "multiSelect": {"type": "boolean"},
          "default": {"type": "string"}
        },
        "required": ["question"]
      }
    },
    "issues": {"type": "array", "items": {"type": "string"}, "description": "problems noticed along the way"},
    "confidence": {"type": "number", "minimum": 0, "maximum": 1}
  },
  "required": ["status", "summary"],
  "if": {"properties": {"status": {"const": "needs_input"}}},
  "then": {"anyOf": [{"required": ["question"]}, {"required": ["questions"]}]}
}`
