package policies

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

// capabilitiesFile is what `opa check` is given (.ci/run), so that it knows
// the builtins policies are compiled with here: OPA's without the denied
// ones, plus kafkalint.parse, which the built-in rules' tests call. Rewrite
// it with `go test ./policies -run TestCapabilitiesFile -update`.
const capabilitiesFile = "capabilities.json"

func TestCapabilitiesFile(t *testing.T) {
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetIndent("", "  ")
	if err := enc.Encode(capabilities()); err != nil {
		t.Fatal(err)
	}
	if updatingDocs() {
		if err := os.WriteFile(capabilitiesFile, want.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(capabilitiesFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("%s is not Capabilities(); rewrite it with go test ./policies -run TestCapabilitiesFile -update", capabilitiesFile)
	}
}
