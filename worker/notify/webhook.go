package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// webhook POSTs each event as JSON in its shape, retrying network errors,
// 5xx and 429 with doubling waits; other statuses are the receiver saying no.
type webhook struct {
	url      string
	shape    shape
	timeout  time.Duration // per attempt
	attempts int
	backoff  time.Duration
}

func (w *webhook) deliver(ctx context.Context, e Event) error {
	body, err := json.Marshal(w.shape(e))
	if err != nil {
		return fmt.Errorf("encode event: %w", err)
	}
	wait := w.backoff
	for attempt := 1; ; attempt++ {
		retry, err := w.post(ctx, body)
		if err == nil {
			return nil
		}
		if retry && attempt < w.attempts && ctx.Err() == nil {
			select {
			case <-time.After(wait):
				wait *= 2
				continue
			case <-ctx.Done():
			}
		}
		return fmt.Errorf("attempt %d of %d: %w", attempt, w.attempts, err)
	}
}

// worst is how long one event can take: every attempt timing out, and
// the waits between them.
func (w *webhook) worst() time.Duration {
	d, wait := time.Duration(0), w.backoff
	for i := 1; i <= w.attempts; i++ {
		d += w.timeout
		if i < w.attempts {
			d, wait = d+wait, wait*2
		}
	}
	return d
}

// post makes one attempt and says whether a failure is worth retrying.
func (w *webhook) post(ctx context.Context, body []byte) (retry bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, w.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
	if err != nil {
		return false, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "bh-notify")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if ue, ok := err.(*url.Error); ok {
			err = ue.Err // its message repeats the URL, which may hold a secret
		}
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %s", w.timeout)
		}
		return true, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // lets the connection be reused
	switch code := resp.StatusCode; {
	case code >= 200 && code < 300:
		return false, nil
	case code >= 500 || code == http.StatusTooManyRequests:
		return true, fmt.Errorf("status %s", resp.Status)
	default:
		return false, fmt.Errorf("status %s", resp.Status)
	}
}
