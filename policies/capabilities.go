package policies

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	_ "time/tzdata" // named zones do not depend on the machine's zone database (see localTimeZone)
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
	"github.com/open-policy-agent/opa/v1/topdown/builtins"
)

// deniedBuiltins are the OPA builtins no policy may call, by name or by
// prefix (ending in "."), with the reason. A lint must give the same result
// for the same files on every machine and never reach out: no network, no
// clock, no randomness, no runtime environment; and no builtin whose cost
// cannot be bounded before it runs.
var deniedBuiltins = []struct{ name, why string }{
	{"http.send", "network access"},
	{"net.", "network access"},
	{"opa.runtime", "it reads the environment of the process"},
	{"time.now_ns", "the result would depend on when kafkalint runs"},
	{"crypto.x509.parse_and_verify_certificates", "certificate validity depends on when kafkalint runs"},
	{"io.jwt.decode_verify", "token expiry depends on when kafkalint runs"},
	{"io.jwt.encode_sign", "signatures with a random salt or nonce differ on every run"},
	{"rand.", "randomness"},
	{"uuid.", "randomness"},
	{"strings.render_template", "a template's output is not bounded by its input"},
	{"graph.reachable_paths", "the number of paths can grow exponentially with the graph"},
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

// capabilities are what every policy is compiled with, built-in or custom:
// OPA's builtins without the denied ones, plus kafkalint.parse and
// kafkalint.parse_files. A policy that calls a denied builtin does not
// compile.
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

// limits bound what one builtin call of a custom policy may produce. OPA
// checks for cancellation between evaluation steps, not inside a builtin:
// without these, one call (numbers.range(0, 1e9), bits.lsh(1, 1e8)) could
// run out of memory or far past --policy-timeout. The builtins that can
// produce much more than their arguments are checked BEFORE they compute;
// every other builtin's result is checked after (its size is then at most
// a small multiple of arguments that passed the check). Over a limit, the
// evaluation stops with an error naming the builtin.
type limits struct {
	// MaxElements is the most elements of an array, set or object.
	MaxElements int
	// MaxBytes is the longest string.
	MaxBytes int
	// MaxBits is the widest integer (bits.lsh, mul).
	MaxBits int
}

// defaultLimits are far above what a check of Kafka configuration needs.
var defaultLimits = limits{MaxElements: 100_000, MaxBytes: 1 << 20, MaxBits: 4096}

// withLimits returns an engine that shares e's compiled rules and bounds
// its custom rules' builtin calls by l.
func (e *Engine) withLimits(l limits) *Engine {
	c := *e
	c.limits = l
	return &c
}

type limitsKey struct{}

// limitedEvaluations counts the evaluations under withLimits in progress:
// while there are none (a run without custom rules), a builtin call costs
// one atomic load more than OPA's own, not a context lookup (measured: a
// tenth of the built-in rules' evaluation time).
var limitedEvaluations atomic.Int64

// withLimits marks an evaluation context: only evaluations under it (the
// custom rules') are limited; the built-in rules' never are.
// The caller calls the returned function when the evaluation is over.
func withLimits(ctx context.Context, l limits) (context.Context, func()) {
	limitedEvaluations.Add(1)
	return context.WithValue(ctx, limitsKey{}, l), func() { limitedEvaluations.Add(-1) }
}

func limitsOf(bctx topdown.BuiltinContext) (limits, bool) {
	if bctx.Context == nil {
		return limits{}, false
	}
	l, ok := bctx.Context.Value(limitsKey{}).(limits)
	return l, ok
}

// preChecks estimate, from the arguments alone, the size of what an
// amplifying builtin would produce, and refuse it over the limits.
var preChecks = map[string]func(l limits, args []*ast.Term) error{
	"numbers.range": func(l limits, args []*ast.Term) error {
		return rangeCheck(l, args[0], args[1], ast.IntNumberTerm(1))
	},
	"numbers.range_step": func(l limits, args []*ast.Term) error { return rangeCheck(l, args[0], args[1], args[2]) },
	"bits.lsh": func(l limits, args []*ast.Term) error {
		x, err1 := builtins.BigIntOperand(args[0].Value, 1)
		s, err2 := builtins.BigIntOperand(args[1].Value, 2)
		if err1 != nil || err2 != nil {
			return nil // the builtin's own type error
		}
		if !s.IsInt64() || int64(x.BitLen())+s.Int64() > int64(l.MaxBits) {
			return fmt.Errorf("the result would be wider than %d bits", l.MaxBits)
		}
		return nil
	},
	"mul": func(l limits, args []*ast.Term) error {
		// Repeated squaring doubles an integer's width per call.
		if bits(args[0])+bits(args[1]) > l.MaxBits {
			return fmt.Errorf("the product would be wider than %d bits", l.MaxBits)
		}
		return nil
	},
	"array.concat": func(l limits, args []*ast.Term) error {
		return elementsCheck(l, collectionLen(args[0])+collectionLen(args[1]))
	},
	"concat": func(l limits, args []*ast.Term) error {
		n, total := 0, 0
		each := func(t *ast.Term) {
			n++
			total += stringLen(t)
		}
		switch c := args[1].Value.(type) {
		case *ast.Array:
			c.Foreach(each)
		case ast.Set:
			c.Foreach(each)
		}
		if n > 1 {
			total += (n - 1) * stringLen(args[0])
		}
		return bytesCheck(l, total)
	},
	"sprintf": func(l limits, args []*ast.Term) error {
		format, ok := args[0].Value.(ast.String)
		if !ok {
			return nil
		}
		widest := 0
		if a, ok := args[1].Value.(*ast.Array); ok {
			a.Foreach(func(t *ast.Term) { widest = max(widest, reprLen(t)) })
		}
		n, err := sprintfBound(string(format), widest)
		if err != nil {
			return err
		}
		return bytesCheck(l, n)
	},
	"replace": func(l limits, args []*ast.Term) error {
		s, ok1 := args[0].Value.(ast.String)
		old, ok2 := args[1].Value.(ast.String)
		repl, ok3 := args[2].Value.(ast.String)
		if !ok1 || !ok2 || !ok3 {
			return nil
		}
		n := utf8.RuneCountInString(string(s)) + 1 // an empty old string matches between runes
		if old != "" {
			n = strings.Count(string(s), string(old))
		}
		return bytesCheck(l, len(s)+n*max(0, len(repl)-len(old)))
	},
	"strings.replace_n": func(l limits, args []*ast.Term) error {
		patterns, ok1 := args[0].Value.(ast.Object)
		s, ok2 := args[1].Value.(ast.String)
		if !ok1 || !ok2 {
			return nil
		}
		shortest, longest := len(s)+1, 0
		patterns.Foreach(func(k, v *ast.Term) {
			shortest, longest = min(shortest, stringLen(k)), max(longest, stringLen(v))
		})
		matches := len(s) + 1
		if shortest > 0 {
			matches = len(s)/shortest + 1
		}
		return bytesCheck(l, len(s)+matches*longest)
	},
	"regex.replace": func(l limits, args []*ast.Term) error {
		s, ok1 := args[0].Value.(ast.String)
		repl, ok2 := args[2].Value.(ast.String)
		if !ok1 || !ok2 {
			return nil
		}
		if err := bytesCheck(l, stringLen(args[1])); err != nil {
			return fmt.Errorf("pattern: %w", err)
		}
		// Every match (at most one per position) inserts repl, and each $
		// reference in it copies at most the whole input once.
		return bytesCheck(l, len(s)+(len(s)+1)*len(repl)+strings.Count(string(repl), "$")*len(s))
	},
}

func rangeCheck(l limits, from, to, step *ast.Term) error {
	a, err1 := builtins.BigIntOperand(from.Value, 1)
	b, err2 := builtins.BigIntOperand(to.Value, 2)
	st, err3 := builtins.BigIntOperand(step.Value, 3)
	if err1 != nil || err2 != nil || err3 != nil || st.Sign() <= 0 {
		return nil // the builtin's own error
	}
	n := new(big.Int).Sub(b, a)
	n.Abs(n).Quo(n, st).Add(n, big.NewInt(1))
	if !n.IsInt64() || n.Int64() > int64(l.MaxElements) {
		return fmt.Errorf("%s elements is more than the limit of %d", n, l.MaxElements)
	}
	return nil
}

func elementsCheck(l limits, n int) error {
	if n > l.MaxElements {
		return fmt.Errorf("%d elements is more than the limit of %d", n, l.MaxElements)
	}
	return nil
}

func bytesCheck(l limits, n int) error {
	if n > l.MaxBytes || n < 0 {
		return fmt.Errorf("a string of up to %d bytes is longer than the limit of %d", n, l.MaxBytes)
	}
	return nil
}

// bits is an integer's width; 0 for anything else (a float's size is
// fixed).
func bits(t *ast.Term) int {
	n, ok := t.Value.(ast.Number)
	if !ok || len(n) < 18 { // fits an int64: not worth parsing
		return len(n) * 4
	}
	i, ok := new(big.Int).SetString(string(n), 10)
	if !ok {
		return 0
	}
	return i.BitLen()
}

func collectionLen(t *ast.Term) int {
	if c, ok := t.Value.(interface{ Len() int }); ok {
		return c.Len()
	}
	return 0
}

func stringLen(t *ast.Term) int {
	s, _ := t.Value.(ast.String)
	return len(s)
}

// reprLen is the length of a value as sprintf prints it.
func reprLen(t *ast.Term) int {
	if s, ok := t.Value.(ast.String); ok {
		return len(s)
	}
	return len(t.Value.String())
}

// sprintfBound bounds the length of sprintf's result: the format, plus for
// each verb its width and precision and the widest argument (an explicit
// index like %[1]s can print one argument many times), plus room for a
// number's digits.
func sprintfBound(format string, widest int) (int, error) {
	n := len(format)
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("+-# 0", format[i]) >= 0 {
			i++
		}
		verb := widest + 400
		for part := range 2 { // width, then .precision
			w := 0
			for ; i < len(format) && format[i] >= '0' && format[i] <= '9'; i++ {
				w = min(w*10+int(format[i]-'0'), 1<<30)
			}
			if i < len(format) && format[i] == '*' {
				return 0, errors.New("a * width or precision is not supported")
			}
			verb += w
			if part == 0 && i < len(format) && format[i] == '.' {
				i++
				continue
			}
			break
		}
		n += verb
	}
	return n, nil
}

// postCheck refuses a result over the limits.
func postCheck(l limits, t *ast.Term) error {
	switch v := t.Value.(type) {
	case ast.String:
		return bytesCheck(l, len(v))
	case *ast.Array, ast.Set, ast.Object:
		return elementsCheck(l, collectionLen(t))
	}
	return nil
}

// localTimeZone refuses the [ns, "Local"] form of the time builtins: its
// result depends on the machine's time zone. Named zones come from the
// system's zone database, else from the one embedded (time/tzdata).
func localTimeZone(args []*ast.Term) error {
	for _, a := range args {
		if arr, ok := a.Value.(*ast.Array); ok && arr.Len() > 1 && arr.Elem(1).Value.Compare(ast.String("Local")) == 0 {
			return errors.New(`the "Local" time zone depends on the machine kafkalint runs on; name a zone ("UTC", "Europe/Paris")`)
		}
	}
	return nil
}

var timeZoneBuiltins = []string{"time.format", "time.date", "time.clock", "time.weekday", "time.add_date", "time.diff"}

// OPA looks its own builtins up in one process-wide table before any
// function registered on a query, so the limits wrap that table's entries.
// They act only in evaluations marked by withLimits: the built-in rules,
// and any other use of OPA, see the builtins unchanged.
//
// The check needs the evaluation's context, which OPA leaves out of calls
// to builtins marked CanSkipBctx (a fast path that the built-in rules'
// evaluation time depends on: turning it off for every builtin that returns
// a string or a collection cost a tenth of it). It is turned off only for
// the pre-checked builtins and for the few others that can return more
// than they are given (growers); the rest of the CanSkipBctx builtins
// return at most about what their arguments hold.
func init() {
	for _, b := range ast.Builtins {
		f := topdown.GetBuiltin(b.Name)
		if f == nil {
			continue
		}
		if b.CanSkipBctx && (preChecks[b.Name] != nil || slices.Contains(growers, b.Name)) {
			b.CanSkipBctx = false
		}
		topdown.RegisterBuiltinFunc(b.Name, limited(b.Name, f))
		if !slices.Contains(timeZoneBuiltins, b.Name) {
			unlimited[b.Name] = f
		}
	}
}

// unlimited are OPA's builtins as they were before the limits wrapped
// them, for the built-in rules' plan: its evaluations carry no limits, so
// the wrapper only passed each call through (it and the second error
// wrapper RegisterBuiltinFunc adds were 1.4 % of a .properties lint's
// instructions). The time zone builtins keep the wrapper, whose zone
// check applies to every evaluation.
var unlimited = map[string]topdown.BuiltinFunc{}

// growers are the CanSkipBctx builtins whose result can be a multiple of
// their arguments' size (encodings, serializations, flattening, unions).
var growers = []string{
	"base64.encode", "base64url.encode", "base64url.encode_no_pad", "hex.encode",
	"json.marshal", "json.marshal_with_options", "yaml.marshal", "urlquery.encode", "urlquery.encode_object",
	"array.flatten", "object.union_n", "strings.reverse", "upper", "lower",
}

func limited(name string, f topdown.BuiltinFunc) topdown.BuiltinFunc {
	pre := preChecks[name]
	zoned := slices.Contains(timeZoneBuiltins, name)
	return func(bctx topdown.BuiltinContext, args []*ast.Term, iter func(*ast.Term) error) error {
		if zoned {
			if err := localTimeZone(args); err != nil {
				return halt(bctx, name, err)
			}
		}
		if limitedEvaluations.Load() == 0 { // the built-in rules' fast path
			return f(bctx, args, iter)
		}
		return limitedCall(name, f, pre, bctx, args, iter)
	}
}

// limitedCall is the slow path of limited, in a function of its own: the
// closure that checks the result captures bctx, which moves bctx (a large
// struct) to the heap on every call of the function it is in, fast path
// included (measured: half the bytes the compiled rules allocate).
func limitedCall(name string, f topdown.BuiltinFunc, pre func(limits, []*ast.Term) error,
	bctx topdown.BuiltinContext, args []*ast.Term, iter func(*ast.Term) error) error {
	l, ok := limitsOf(bctx)
	if !ok {
		return f(bctx, args, iter)
	}
	if pre != nil {
		if err := pre(l, args); err != nil {
			return halt(bctx, name, err)
		}
	}
	loc := bctx.Location
	return f(bctx, args, func(t *ast.Term) error {
		if err := postCheck(l, t); err != nil {
			return halt(topdown.BuiltinContext{Location: loc}, name, err)
		}
		return iter(t)
	})
}

// halt stops the whole evaluation: a plain builtin error would only make
// the call undefined, and the rule would silently report nothing.
func halt(bctx topdown.BuiltinContext, name string, err error) error {
	return topdown.Halt{Err: &topdown.Error{
		Code:     topdown.BuiltinErr,
		Message:  fmt.Sprintf("%s: %v (kafkalint's limits for custom policies, docs/custom-policies.md)", name, err),
		Location: bctx.Location,
	}}
}
