package loader_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kafkalint/kafkalint/lint"
	"github.com/kafkalint/kafkalint/loader"
)

// TestHelmListenersAndProvisioning lints the Bitnami values files of
// testdata/helm-cases in production: a plain-text client listener, by
// listeners.client.protocol (chart 25+, SASL_PLAINTEXT by default) or
// auth.clientProtocol (charts up to 24, plaintext by default), is KFK2001;
// provisioned topics are judged with their replication factor or the
// provisioning default.
func TestHelmListenersAndProvisioning(t *testing.T) {
	t.Parallel()
	cases := []struct {
		dir        string
		want, none []string // "ID@line" present; IDs absent
	}{
		{"chart-32-default", []string{"KFK2001@1"}, nil},
		{"chart-26-sasl-plaintext", []string{"KFK2001@7"}, nil},
		{"chart-32-sasl-ssl", nil, []string{"KFK2001"}},
		{"chart-24-plaintext", []string{"KFK2001@6"}, nil},
		{"chart-24-sasl-tls", nil, []string{"KFK2001"}},
		{"provisioning", []string{"KFK1008@12", "KFK5001@8", "KFK1008@17"}, []string{"KFK2001"}},
	}
	for _, c := range cases {
		data, err := os.ReadFile(filepath.Join("testdata", "helm-cases", c.dir, "values.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := lint.Run(t.Context(), nil, lint.Options{
			Sources: []loader.Source{{Name: c.dir + "/values.yaml", Data: data}},
			Load:    loader.Options{Environment: "production"},
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Errors) > 0 {
			t.Fatalf("%s: load errors: %+v", c.dir, rep.Errors)
		}
		var got []string
		for _, f := range rep.Findings {
			got = append(got, fmt.Sprintf("%s@%d", f.ID, f.Line))
		}
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: no %s among %q", c.dir, w, got)
			}
		}
		for _, id := range c.none {
			if slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, id+"@") }) {
				t.Errorf("%s: unexpected %s among %q", c.dir, id, got)
			}
		}
	}
}
