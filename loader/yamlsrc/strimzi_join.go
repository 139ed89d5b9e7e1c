package yamlsrc

import (
	"cmp"
	"path"
	"slices"
	"strings"
)

// IsKustomization reports a kustomize kustomization file (by name, as
// kustomize finds it in a directory).
func IsKustomization(f *File) bool {
	switch path.Base(f.Name) {
	case "kustomization.yaml", "kustomization.yml", "Kustomization":
		return true
	}
	return false
}

// strimziOwners finds the Kafka resource a node pool or topic belongs to
// (its strimzi.io/cluster label names it). In GitOps repositories each
// resource is a file of its own, so the search goes beyond the resource's
// file, nearest evidence first:
//
//  1. the same file: same name and namespace (the operator's own rule);
//  2. a kustomization whose build lists both files (through the
//     directories its resources name), the deepest kustomization first;
//  3. a Kafka resource in the resource's directory, else in the nearest
//     ancestor directory that has one (pools kept in a subfolder).
//
// Beyond the file, the namespaces must be equal or one of them unset (a
// kustomization or `kubectl -n` sets it when applied), an equal one
// preferred. The first step that finds candidates decides: two of them
// are ambiguous, and the resource stays without its Kafka resource.
type strimziOwners struct {
	kafkas []resource
	// builds: per kustomization (deepest directory first), the files its
	// build includes.
	builds []map[string]bool
}

func newStrimziOwners(kafkas []resource, files []*File) *strimziOwners {
	o := &strimziOwners{kafkas: kafkas}
	kust := map[string]*File{} // directory -> its kustomization
	var ks []*File
	for _, f := range files {
		if IsKustomization(f) {
			kust[path.Dir(f.Name)] = f
			ks = append(ks, f)
		}
	}
	slices.SortStableFunc(ks, func(a, b *File) int {
		return cmp.Compare(strings.Count(path.Dir(b.Name), "/"), strings.Count(path.Dir(a.Name), "/"))
	})
	for _, k := range ks {
		set := map[string]bool{}
		kustomizeBuild(k, kust, set, map[string]bool{})
		o.builds = append(o.builds, set)
	}
	return o
}

// kustomizeBuild adds to set the files the build of kustomization k reads:
// its resources (and the older bases, and components) that are files, and
// the builds of those that are directories with a kustomization. Remote
// resources are not followed; seen stops a cycle.
func kustomizeBuild(k *File, kust map[string]*File, set, seen map[string]bool) {
	if seen[k.Name] || len(k.Docs) == 0 {
		return
	}
	seen[k.Name] = true
	dir := path.Dir(k.Name)
	for _, field := range []string{"resources", "bases", "components"} {
		for _, n := range items(get(k.Docs[0], field)) {
			e := strings.TrimSpace(text(n))
			if e == "" || strings.Contains(e, "://") || strings.HasPrefix(e, "git@") || strings.HasPrefix(e, "github.com/") {
				continue
			}
			p := path.Join(dir, e)
			if sub, ok := kust[p]; ok {
				kustomizeBuild(sub, kust, set, seen)
				continue
			}
			set[p] = true
		}
	}
}

// owner is the index in kafkas of r's Kafka resource, or -1.
func (o *strimziOwners) owner(r resource) int {
	if r.cluster == "" {
		return -1
	}
	for i, k := range o.kafkas {
		if k.name == r.cluster && k.namespace == r.namespace && k.file == r.file {
			return i
		}
	}
	file := path.Clean(r.file.Name)
	for _, set := range o.builds {
		if !set[file] {
			continue
		}
		if i, found := o.pick(r, func(k resource) bool { return set[path.Clean(k.file.Name)] }); found {
			return i
		}
	}
	for dir := path.Dir(file); ; dir = path.Dir(dir) {
		if i, found := o.pick(r, func(k resource) bool { return path.Dir(path.Clean(k.file.Name)) == dir }); found {
			return i
		}
		if dir == "." || dir == "/" {
			return -1
		}
	}
}

// pick chooses among the Kafka resources in another file than r that in
// accepts and whose name r's label gives: found reports any candidate,
// i the one chosen (-1 when ambiguous).
func (o *strimziOwners) pick(r resource, in func(resource) bool) (i int, found bool) {
	exact, loose := -1, -1
	nExact, nLoose := 0, 0
	for j, k := range o.kafkas {
		if k.file == r.file || k.name != r.cluster || !in(k) {
			continue
		}
		switch {
		case k.namespace == r.namespace:
			exact, nExact = j, nExact+1
		case k.namespace == "" || r.namespace == "":
			loose, nLoose = j, nLoose+1
		}
	}
	switch {
	case nExact == 1:
		return exact, true
	case nExact == 0 && nLoose == 1:
		return loose, true
	}
	return -1, nExact+nLoose > 0
}
