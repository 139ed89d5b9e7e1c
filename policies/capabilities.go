package policies

import (
	"slices"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// deniedBuiltins are the OPA builtins no policy may call, by name or by
// prefix (ending in "."), with the reason. A lint must give the same result
// for the same files on every machine and never reach out: no network, no
// clock, no randomness, no runtime environment.
var deniedBuiltins = []struct{ name, why string }{
	{"http.send", "network access"},
	{"net.", "network access"},
	{"opa.runtime", "it reads the environment of the process"},
	{"time.now_ns", "the result would depend on when kafkalint runs"},
	{"crypto.x509.parse_and_verify_certificates", "certificate validity depends on when kafkalint runs"},
	{"io.jwt.decode_verify", "token expiry depends on when kafkalint runs"},
	{"rand.", "randomness"},
	{"uuid.", "randomness"},
}

// deniedBuiltin reports whether name is a builtin policies may not call,
// and why.
func deniedBuiltin(name string) (string, bool) {
	for _, d := range deniedBuiltins {
		if name == d.name || (strings.HasSuffix(d.name, ".") && strings.HasPrefix(name, d.name)) ||
			strings.HasPrefix(name, d.name+"_") {
			return d.why, true
		}
	}
	return "", false
}

var capabilities = sync.OnceValue(func() *ast.Capabilities {
	caps := ast.CapabilitiesForThisVersion()
	caps.Builtins = slices.DeleteFunc(caps.Builtins, func(b *ast.Builtin) bool {
		_, denied := deniedBuiltin(b.Name)
		return denied
	})
	caps.Builtins = append(caps.Builtins, parseBuiltin, parseFilesBuiltin)
	caps.AllowNet = []string{} // no host, should a network builtin remain
	return caps
})

// Capabilities are what every policy is compiled with, built-in or custom:
// OPA's builtins without the denied ones, plus kafkalint.parse and
// kafkalint.parse_files. A policy that calls a denied builtin does not
// compile.
func Capabilities() *ast.Capabilities { return capabilities() }
