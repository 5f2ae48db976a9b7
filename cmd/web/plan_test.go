package web

import (
	"net/url"
	"os"
	"strings"
	"testing"
)

const planning = `id: tm-ask1
title: Set up the database
type: code
priority: P1
state: awaiting_input
plan: true
questions:
  - id: qp
    question: Approve this plan?
    header: Plan
    type: approval
    planning: true
    plan: "1. Add schema.sql.\n2. Migrate."
    context: "1. Add schema.sql.\n2. Migrate."
    status: pending
    askedAt: 2026-01-01T10:00:00Z
createdAt: 2026-01-01T10:00:00Z
updatedAt: 2026-01-01T10:00:00Z
`

// A planning run's plan is edited in place on the task's page: Approve
// sends the text as it stands, and the page shows the plan as approved.
func TestPlanEditedInPlace(t *testing.T) {
	s := newSite(t)
	if err := os.WriteFile(s.st.Path("tm-ask1"), []byte(planning), 0o644); err != nil {
		t.Fatal(err)
	}
	_, body := s.do("GET", s.base, nil, nil)
	if !strings.Contains(body, `<textarea name="plan.qp" rows="12">1. Add schema.sql.`+"\n"+`2. Migrate.</textarea>`) ||
		strings.Contains(body, `<pre class="context"`) {
		t.Fatalf("the page does not offer the plan to edit in place:\n%s", body)
	}
	s.answer(url.Values{"q": {"qp"}, "answer.qp": {"yes"}, "plan.qp": {"1. Add schema.sql.\r\n2. Migrate, then backfill."},
		"comment.qp": {""}}, nil)
	s.elapse()
	tk, err := s.st.Get("tm-ask1")
	if err != nil {
		t.Fatal(err)
	}
	if q := tk.Questions[0]; len(q.Answer) != 1 || q.Answer[0] != "yes" || q.Comment != "1. Add schema.sql.\n2. Migrate, then backfill." {
		t.Fatalf("the plan's answer: %+v", q)
	}
	if _, body = s.do("GET", s.base, nil, nil); !strings.Contains(body, "<h2>Plan, approved as edited</h2>") ||
		!strings.Contains(body, "Migrate, then backfill.") {
		t.Errorf("the page does not show the approved plan:\n%s", body)
	}
}
