package agent

import (
	"encoding/json"
	"slices"
	"sort"
	"testing"
)

// TestStrictSchemaFollowsStrictMode checks OpenAI's strict-mode rules on
// every object of StrictSchema, and that it keeps Schema's properties.
func TestStrictSchemaFollowsStrictMode(t *testing.T) {
	var strict, loose map[string]any
	if err := json.Unmarshal([]byte(StrictSchema()), &strict); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal([]byte(Schema), &loose)
	objects := 0
	var walk func(path string, strictN, looseN map[string]any)
	walk = func(path string, s, l map[string]any) {
		for _, k := range strictUnsupported {
			if _, ok := s[k]; ok {
				t.Errorf("%s: keeps %q, which strict mode refuses", path, k)
			}
		}
		if items, ok := s["items"].(map[string]any); ok {
			walk(path+"[]", items, l["items"].(map[string]any))
		}
		props, ok := s["properties"].(map[string]any)
		if !ok {
			return
		}
		objects++
		if s["additionalProperties"] != false {
			t.Errorf("%s: additionalProperties = %v, want false", path, s["additionalProperties"])
		}
		var names []string
		for name := range props {
			names = append(names, name)
		}
		sort.Strings(names)
		var req []string
		for _, r := range s["required"].([]any) {
			req = append(req, r.(string))
		}
		if !slices.Equal(req, names) {
			t.Errorf("%s: required %q, want every property %q", path, req, names)
		}
		looseProps := l["properties"].(map[string]any)
		if len(looseProps) != len(props) {
			t.Errorf("%s: %d properties, Schema has %d", path, len(props), len(looseProps))
		}
		var wasRequired []any
		if r, ok := l["required"].([]any); ok {
			wasRequired = r
		}
		for name, p := range props {
			p := p.(map[string]any)
			optional := !slices.Contains(wasRequired, any(name))
			types, _ := p["type"].([]any)
			if optional != slices.Contains(types, any("null")) {
				t.Errorf("%s.%s: type %v; optional %v, so nullable must be %v", path, name, p["type"], optional, optional)
			}
			if enum, ok := p["enum"].([]any); ok && optional && !slices.Contains(enum, nil) {
				t.Errorf("%s.%s: enum %v lacks null", path, name, enum)
			}
			walk(path+"."+name, p, looseProps[name].(map[string]any))
		}
	}
	walk("$", strict, loose)
	if objects != 3 { // the result, a question, an option
		t.Errorf("checked %d objects, want 3", objects)
	}
}

// TestStrictAnswerParses: an answer that fills every optional field with
// null, as strict mode makes the model do, reads like one that leaves them out.
func TestStrictAnswerParses(t *testing.T) {
	r, err := ParseResult([]byte(`{"status":"needs_input","summary":"asked","details":null,"question":null,
		"questionContext":null,"questions":[{"question":"Which?","header":null,"type":"choice",
		"options":[{"label":"a","description":null},{"label":"b","description":null}],"multiSelect":null,"default":null}],
		"issues":null,"confidence":null}`))
	if err != nil {
		t.Fatal(err)
	}
	if r.Question != "Which?" || len(r.Questions) != 1 || r.Questions[0].Type != QuestionChoice ||
		len(r.Questions[0].Options) != 2 || r.Confidence != nil || r.Details != "" {
		t.Errorf("result = %+v", r)
	}
}
