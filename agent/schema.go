package agent

import (
	"encoding/json"
	"maps"
	"slices"
	"sync"
)

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

// StrictSchema is Schema in the form OpenAI's strict structured outputs
// accept, for codex --output-schema (which sends it with "strict": true):
// every object closed with additionalProperties false and listing all its
// properties as required, the optional ones made nullable, and the
// keywords strict mode refuses (if/then, minLength, minimum, maximum)
// left out. It is derived from Schema so that both agents answer the same
// contract; a null in the answer reads as the field left out. Made when
// first asked for, not at every bh command's start.
var StrictSchema = sync.OnceValue(func() string { return strictSchema(Schema) })

// strictUnsupported are the keywords strict mode rejects.
var strictUnsupported = []string{"if", "then", "else", "minLength", "maxLength", "minimum", "maximum"}

func strictSchema(schema string) string {
	var root map[string]any
	if err := json.Unmarshal([]byte(schema), &root); err != nil {
		panic("agent: Schema is not JSON: " + err.Error())
	}
	strictNode(root)
	b, err := json.Marshal(root)
	if err != nil {
		panic("agent: " + err.Error())
	}
	return string(b)
}

// strictNode rewrites one schema node and everything under it in place.
func strictNode(n map[string]any) {
	for _, k := range strictUnsupported {
		delete(n, k)
	}
	if items, ok := n["items"].(map[string]any); ok {
		strictNode(items)
	}
	props, ok := n["properties"].(map[string]any)
	if !ok {
		return
	}
	required, _ := n["required"].([]any)
	for name, p := range props {
		p := p.(map[string]any)
		strictNode(p)
		if !slices.Contains(required, any(name)) {
			nullable(p)
		}
	}
	n["required"] = slices.Sorted(maps.Keys(props))
	n["additionalProperties"] = false
}

// nullable lets a property be null besides its own type.
func nullable(p map[string]any) {
	if t, ok := p["type"].(string); ok {
		p["type"] = []any{t, "null"}
	}
	if enum, ok := p["enum"].([]any); ok {
		p["enum"] = append(enum, nil)
	}
}
