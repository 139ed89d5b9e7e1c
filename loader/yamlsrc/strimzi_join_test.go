package yamlsrc

import "testing"

// TestKustomizeBuildCycle: kustomizations that include each other end,
// and the files of both are in the build.
func TestKustomizeBuildCycle(t *testing.T) {
	parse := func(name, src string) *File {
		f, err := Parse(name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a := parse("a/kustomization.yaml", "resources: [kafka.yaml, ../b, https://example.com/x.yaml]\n")
	b := parse("b/kustomization.yaml", "resources: [../a, pool.yaml]\n")
	set := map[string]bool{}
	kustomizeBuild(a, map[string]*File{"a": a, "b": b}, set, map[string]bool{})
	if len(set) != 2 || !set["a/kafka.yaml"] || !set["b/pool.yaml"] {
		t.Errorf("build = %v, want a/kafka.yaml and b/pool.yaml", set)
	}
}
