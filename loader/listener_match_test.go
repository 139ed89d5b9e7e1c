package loader

import (
	"regexp"
	"testing"
)

// The regexps matchListener and validHost replaced: the oracle.
var (
	listenerOracle = regexp.MustCompile(`^(.*)://\[?([0-9a-zA-Z\-%._:]*)\]?:(-?\d+)$`)
	hostOracle     = regexp.MustCompile(`^[0-9a-zA-Z\-%._:]*$`)
)

var listenerSeeds = []string{
	"PLAINTEXT://:9092", "SSL://kafka-1.example.com:9093", "CONTROLLER://[::1]:9093", "INTERNAL://0.0.0.0:-1",
	"a:://b:1", "a:///b:1", "x://h:1://y:2", "x://y:2://h", "x://[h:1", "x://h]:1", "x://[]:1", "x://[:1", "x://]:1",
	"x://a]b:1", "x://[[a]]:1", "x://h:", "x://h:-", "x://h:1-2", "x://h:+1", "x://h:1 ", "x://h:١", "://h:1",
	"x\n://h:1", "x://h\n:1", "x\r://h:1", "x://h:1\n", "\xff://h:1", "x://\xffh:1", "x://h%25eth0:1", "x//h:1",
	"x:/h:1", "x://h_1.a-b:99999999999999999999", "", "://", "://:", ":://:1", "x://::::1",
}

func TestMatchListenerAsRegexp(t *testing.T) {
	for _, e := range listenerSeeds {
		checkListenerMatch(t, e)
	}
}

func FuzzMatchListener(f *testing.F) {
	for _, e := range listenerSeeds {
		f.Add(e)
	}
	f.Fuzz(checkListenerMatch)
}

func checkListenerMatch(t *testing.T, e string) {
	name, host, port, ok := matchListener(e)
	m := listenerOracle.FindStringSubmatch(e)
	if ok != (m != nil) {
		t.Fatalf("%q: matched %v, the regexp %v", e, ok, m != nil)
	}
	if ok && (name != m[1] || host != m[2] || port != m[3]) {
		t.Fatalf("%q: [%q %q %q], the regexp %q", e, name, host, port, m[1:])
	}
	if got, want := validHost(e), hostOracle.MatchString(e); got != want {
		t.Fatalf("validHost(%q) = %v, the regexp %v", e, got, want)
	}
}
