// Package linodegowaits runs linodego, the real API's Go client, against the compute emulator (issue 46).
//
// The emulator serves Linode's API v4 with "linode" renamed to "compute" (README.md, "From any client of the
// real API"; tests/fixtures/real-answers/README.md, "Renames"). linodego speaks the real names, so a renaming
// reverse proxy sits between the two: requests go in with the emulator's names, answers come back with the
// real API's. Only the renames the calls of this module meet are made:
//
//   - paths: the segment `linode` is `compute` (`/v4/linode/instances` → `/v4/compute/instances`), and an id
//     in a path that starts with `linode/` (`linode%2Fdebian12`) starts with `compute/`;
//   - JSON keys, in bodies and in the X-Filter header: `linode_id`, `linodes`, `lish_auth_method`,
//     `add_linodes` are `compute_id`, `computes`, `console_auth_method`, `add_computes`;
//   - JSON string values: `linode/…` (image and kernel ids) is `compute/…`, `linode_…` (event actions such as
//     `linode_create`, the entity type `linode_config`) is `compute_…`, `linode` (an event's entity type) is
//     `compute`, the region capability `Linodes` is `Computes`, the error reason `Linode busy.` (linodego
//     retries on it) is `Compute busy.`; on the way back, an entity's `url` under `/v4/compute/` is under
//     `/v4/linode/`.
//
// A label or other free text that starts with `linode_`/`compute_` or is exactly `linode`/`compute` would be
// renamed too: the tests use labels that do not.
package linodegowaits

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"time"
)

// keyRenames: a JSON key of the real API → the emulator's.
var keyRenames = map[string]string{
	"linode_id":        "compute_id",
	"linodes":          "computes",
	"lish_auth_method": "console_auth_method",
	"add_linodes":      "add_computes",
}

// valueRenames: a whole JSON string of the real API → the emulator's.
var valueRenames = map[string]string{
	"linode":       "compute",       // an event's entity type
	"Linodes":      "Computes",      // a region capability
	"Linode busy.": "Compute busy.", // the error reason linodego's client retries on (retries.go)
}

// prefixRenames: the start of a JSON string of the real API → the emulator's.
var prefixRenames = [][2]string{
	{"linode/", "compute/"}, // image, kernel and maintenance policy ids
	{"linode_", "compute_"}, // event actions (linode_create, linode_boot…), the entity type linode_config
	{"/v4/linode/", "/v4/compute/"},
}

var keyBack, valueBack = invert(keyRenames), invert(valueRenames)

func invert(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[v] = k
	}
	return out
}

// Direction of a rename.
type Direction int

const (
	// ToEmulator renames the real API's names to the emulator's (requests).
	ToEmulator Direction = iota
	// ToClient renames the emulator's names to the real API's (answers).
	ToClient
)

// RenameString renames one JSON string value.
func RenameString(s string, d Direction) string {
	exact := valueRenames
	if d == ToClient {
		exact = valueBack
	}
	if v, ok := exact[s]; ok {
		return v
	}
	for _, p := range prefixRenames {
		from, to := p[0], p[1]
		if d == ToClient {
			from, to = to, from
		}
		if strings.HasPrefix(s, from) {
			return to + s[len(from):]
		}
	}
	return s
}

// RenameKey renames one JSON key.
func RenameKey(k string, d Direction) string {
	m := keyRenames
	if d == ToClient {
		m = keyBack
	}
	if v, ok := m[k]; ok {
		return v
	}
	return k
}

func renameValue(v any, d Direction) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, w := range x {
			out[RenameKey(k, d)] = renameValue(w, d)
		}
		return out
	case []any:
		for i, w := range x {
			x[i] = renameValue(w, d)
		}
		return x
	case string:
		return RenameString(x, d)
	default:
		return v // json.Number, bool, nil: as they are
	}
}

// RenameJSON renames a JSON document (numbers kept as written); what is not JSON is returned as it is.
func RenameJSON(doc []byte, d Direction) []byte {
	if len(bytes.TrimSpace(doc)) == 0 {
		return doc
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return doc
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(renameValue(v, d)); err != nil {
		return doc
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// RenamePath renames an escaped request path to the emulator's: the segment `linode` is `compute`, and a
// segment that starts with `linode%2F` (an image or kernel id) starts with `compute%2F`.
func RenamePath(escaped string) string {
	segs := strings.Split(escaped, "/")
	for i, s := range segs {
		switch {
		case s == "linode":
			segs[i] = "compute"
		case strings.HasPrefix(strings.ToLower(s), "linode%2f"):
			segs[i] = "compute" + s[len("linode"):]
		}
	}
	return strings.Join(segs, "/")
}

// Exchange is one request through the proxy and its answer, both with the real API's names (as linodego
// sent and read them).
type Exchange struct {
	Method, Path, Filter string
	Status               int
	Body                 []byte
	At                   time.Time // when the answer came
}

func (e Exchange) String() string {
	filter := ""
	if e.Filter != "" {
		filter = " X-Filter: " + e.Filter
	}
	return fmt.Sprintf("%s %s%s\n  -> %d %s", e.Method, e.Path, filter, e.Status, abbreviate(e.Body, 600))
}

// Proxy is the renaming reverse proxy, an http.Handler; Exchanges has what it passed on.
type Proxy struct {
	*httputil.ReverseProxy
	mu        sync.Mutex
	exchanges []Exchange
}

// NewProxy makes a proxy to the emulator at target (its scheme and host; linodego sends the `/v4` prefix).
func NewProxy(target *url.URL) *Proxy {
	p := &Proxy{}
	base := &url.URL{Scheme: target.Scheme, Host: target.Host}
	p.ReverseProxy = &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(base)
			renamed, err := url.Parse(RenamePath(r.In.URL.EscapedPath()))
			if err == nil {
				r.Out.URL.Path, r.Out.URL.RawPath = renamed.Path, renamed.RawPath
			}
			// Let the transport ask for and undo any compression: the answers are read and rewritten here.
			r.Out.Header.Del("Accept-Encoding")
			if f := r.In.Header.Get("X-Filter"); f != "" {
				r.Out.Header.Set("X-Filter", string(RenameJSON([]byte(f), ToEmulator)))
			}
			if r.In.Body != nil && r.In.Body != http.NoBody {
				body, err := io.ReadAll(r.In.Body)
				if err == nil {
					body = RenameJSON(body, ToEmulator)
					r.Out.Body = io.NopCloser(bytes.NewReader(body))
					r.Out.ContentLength = int64(len(body))
					r.Out.Header.Set("Content-Length", fmt.Sprint(len(body)))
				}
			}
		},
		ModifyResponse: func(res *http.Response) error {
			body, err := io.ReadAll(res.Body)
			_ = res.Body.Close()
			if err != nil {
				return err
			}
			if strings.Contains(res.Header.Get("Content-Type"), "json") {
				body = RenameJSON(body, ToClient)
			}
			res.Body = io.NopCloser(bytes.NewReader(body))
			res.ContentLength = int64(len(body))
			res.Header.Set("Content-Length", fmt.Sprint(len(body)))
			res.Header.Del("Content-Encoding")
			in := res.Request // the outgoing request: its path and filter have the emulator's names
			p.record(Exchange{
				Method: in.Method,
				Path:   RenameString(in.URL.Path, ToClient),
				Filter: string(RenameJSON([]byte(in.Header.Get("X-Filter")), ToClient)),
				Status: res.StatusCode,
				Body:   body,
				At:     time.Now(),
			})
			return nil
		},
	}
	return p
}

func (p *Proxy) record(e Exchange) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.exchanges = append(p.exchanges, e)
}

// Exchanges is what passed through the proxy, from the n-th exchange on.
func (p *Proxy) Exchanges(from int) []Exchange {
	p.mu.Lock()
	defer p.mu.Unlock()
	if from > len(p.exchanges) {
		from = len(p.exchanges)
	}
	return append([]Exchange(nil), p.exchanges[from:]...)
}

// Count is how many exchanges passed through the proxy.
func (p *Proxy) Count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.exchanges)
}

func abbreviate(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "..."
}
