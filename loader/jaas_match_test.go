package loader

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// jaasOracle is the expression jaasSecretValues replaced, the one the
// inline-secret rule reads JAAS options with (_jaas_secret_option).
var jaasOracle = regexp.MustCompile(`(?i)\b(password|clientsecret|client_secret|user_[A-Za-z0-9_.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))`)

var jaasSeeds = []string{
	`org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" password="alice-secret" user_alice="a" user_bob='b';`,
	`x clientSecret=abc; client_secret = "d e" ClientSecret='f'`, "PASSWORD=1", "pAsSwOrD =\t\n 2;", "xpassword=1", "_password=1",
	"-password=1", ".user_a=1", "user_=1", "user_a.b-c_D9=2", "user_ſ=1", "user_\u212a=1", "paſſword=1", "clientſecret=1",
	"ſpassword=1", "\xffpassword=1", "épassword=1", "password=", "password=\"", "password='", `password="'`, "password=;",
	"password=\"a\"b", "password==1", "password\n=\n1", "password=\v1", "password=a\vb", "user_a\u212ab=1", "user_\xff=1",
	"password=\"x\"password=y", "passwordpassword=1", "password=1password=2", "user_a=user_b=1", "client_secretx=1",
	"clientsecret_=1", "", "p", "user", "PASSWORD=\"\"", "password=''x", "USER_K=1", "password=\xff\xfe", "uſer_a=1",
	"password=a,b", "password=\"a;b\";user_c=d",
}

func TestJAASValuesAsRegexp(t *testing.T) {
	for _, s := range jaasSeeds {
		checkJAASValues(t, s)
	}
}

func FuzzJAASValues(f *testing.F) {
	for _, s := range jaasSeeds {
		f.Add(s)
	}
	f.Fuzz(checkJAASValues)
}

func checkJAASValues(t *testing.T, s string) {
	var want []string
	for _, m := range jaasOracle.FindAllStringSubmatch(s, -1) {
		want = append(want, m[2]+m[3]+m[4])
	}
	if got := jaasSecretValues(s); !slices.Equal(got, want) {
		t.Fatalf("%q: %q, the regexp %q", s, got, want)
	}
}

// TestJAASOracleIsTheRules: the oracle is the inline-secret rule's own
// expression, so the redactor knows every option the rule can quote.
func TestJAASOracleIsTheRules(t *testing.T) {
	rego, err := os.ReadFile(filepath.Join("..", "policies", "kafkalint", "rules", "security", "inline-secret", "inline_secret.rego"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "_jaas_secret_option := `" + jaasOracle.String() + "`"; !strings.Contains(string(rego), want) {
		t.Fatalf("inline_secret.rego has no %s", want)
	}
}
