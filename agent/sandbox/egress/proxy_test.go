package egress

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
)

// TestProxy: plain HTTP and CONNECT reach the model API on loopback;
// another loopback server and a private address are refused with 403
// (the private one never dialled: its refusal names the address's kind).
func TestProxy(t *testing.T) {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "api %s %s", r.Method, r.URL.Path)
	}))
	defer api.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		t.Errorf("the server that is not the API was reached")
	}))
	defer other.Close()
	apiHost := strings.TrimPrefix(api.URL, "http://")
	x, err := Start(Policy{API: []string{apiHost}})
	if err != nil {
		t.Fatal(err)
	}
	sock := x.Socket()
	client := &http.Client{Transport: &http.Transport{
		Proxy:       http.ProxyURL(&url.URL{Scheme: "http", Host: "egress"}),
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) { return net.Dial("unix", sock) },
	}}
	get := func(u string) (int, string) {
		res, err := client.Get(u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := get(api.URL + "/v1/messages"); code != 200 || body != "api GET /v1/messages" {
		t.Errorf("the API through the proxy: %d %q", code, body)
	}
	if code, body := get(other.URL + "/answer"); code != http.StatusForbidden || !strings.Contains(body, "loopback") {
		t.Errorf("another loopback server: %d %q", code, body)
	}
	if code, body := get("http://10.255.255.1/"); code != http.StatusForbidden || !strings.Contains(body, "10.255.255.1 is private") {
		t.Errorf("a private address: %d %q", code, body)
	}

	connect := func(dest string) (*bufio.Reader, net.Conn, *http.Response) {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", dest, dest)
		br := bufio.NewReader(c)
		res, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
		if err != nil {
			t.Fatal(err)
		}
		return br, c, res
	}
	br, c, res := connect(apiHost)
	if res.StatusCode != 200 {
		t.Fatalf("CONNECT to the API: %s", res.Status)
	}
	fmt.Fprintf(c, "GET /tunnel HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", apiHost)
	res, err = http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(res.Body); string(b) != "api GET /tunnel" {
		t.Errorf("through the tunnel: %q", b)
	}
	c.Close()
	for _, dest := range []string{strings.TrimPrefix(other.URL, "http://"), "10.255.255.1:443", "169.254.169.254:80"} {
		_, c, res := connect(dest)
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("CONNECT %s: %s", dest, res.Status)
		}
		c.Close()
	}

	x.Close()
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Errorf("the socket outlived the proxy: %v", err)
	}
}
