package web

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
)

// The token opens the site once, as ?token= in the URL bh serve prints:
// it becomes an HttpOnly, SameSite=Strict cookie, and the browser is sent
// on to the same address without it, out of its history. Programs send
// Authorization: Bearer instead.
const cookieName = "bh_token"

type bearerKey struct{}

func (s *Server) auth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tok := r.URL.Query().Get("token"); tok != "" && r.Method == http.MethodGet {
			if !s.valid(tok) {
				denied(w, r)
				return
			}
			http.SetCookie(w, &http.Cookie{Name: cookieName, Value: tok, Path: "/", HttpOnly: true,
				Secure: s.o.TLS, SameSite: http.SameSiteStrictMode})
			q := r.URL.Query()
			q.Del("token")
			u := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
			http.Redirect(w, r, u.String(), http.StatusSeeOther)
			return
		}
		if tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && s.valid(tok) {
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), bearerKey{}, true)))
			return
		}
		if c, err := r.Cookie(cookieName); err == nil && s.valid(c.Value) {
			next.ServeHTTP(w, r)
			return
		}
		denied(w, r)
	})
}

func (s *Server) valid(tok string) bool {
	return subtle.ConstantTimeCompare([]byte(tok), []byte(s.o.Token)) == 1
}

func denied(w http.ResponseWriter, r *http.Request) {
	const how = "open the address bh serve printed (with ?token=...)"
	if strings.Contains(r.Header.Get("Accept"), "text/html") { // a browser, a phone that followed a link here
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusUnauthorized)
		notePage().Execute(w, struct{ Title, Text string }{"The inbox needs bh serve's token",
			"This page is bh serve's inbox, which shows every task: " + how + " on the machine that runs it. " +
				"A link from a notification answers its own task without the token."})
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusUnauthorized)
	w.Write([]byte("bh serve needs its token: " + how + ", " +
		"or send Authorization: Bearer <token> (the token is in ~/.config/bh/web.json)\n"))
}

// csrfValue is the value every answer form carries: derived from the
// token, so a page of another site can neither read nor guess it.
func csrfValue(token string) string {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte("bh serve csrf"))
	return hex.EncodeToString(m.Sum(nil))
}

// sameOrigin checks a browser's POST: it must come from a page of this
// server (Origin, else Referer) and carry the form's CSRF value. A
// program using the bearer token is no browser and is not asked.
func (s *Server) sameOrigin(r *http.Request) bool {
	if r.Context().Value(bearerKey{}) != nil {
		return true
	}
	return s.fromPage(r, s.csrf)
}

// fromPage says whether a browser's POST came from a page of this server
// (Origin, else Referer: this request's host, or the public address a
// proxy such as tailscale serve forwards from) that carried the form's
// CSRF value csrf.
func (s *Server) fromPage(r *http.Request, csrf string) bool {
	from := r.Header.Get("Origin")
	if from == "" || from == "null" {
		from = r.Header.Get("Referer")
	}
	u, err := url.Parse(from)
	if err != nil || u.Host == "" || u.Host != r.Host && u.Host != s.publicHost {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(r.PostFormValue("csrf")), []byte(csrf)) == 1
}
