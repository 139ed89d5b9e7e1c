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
	// byDir: the Kafka resources per directory and name; builds: per
	// file, the Kafka resources of each kustomization that builds it
	// (deepest kustomization first). Lookups stay linear in the resources.
	byDir  map[string][]int
	builds map[string][][]int
}

func newStrimziOwners(kafkas []resource, files []*File) *strimziOwners {
	o := &strimziOwners{kafkas: kafkas, byDir: map[string][]int{}, builds: map[string][][]int{}}
	inFile := map[string][]int{}
	for i, k := range kafkas {
		f := path.Clean(k.file.Name)
		key := path.Dir(f) + "\x00" + k.name
		o.byDir[key] = append(o.byDir[key], i)
		inFile[f] = append(inFile[f], i)
	}
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
		var in []int
		for f := range set {
			in = append(in, inFile[f]...)
		}
		slices.Sort(in)
		for f := range set {
			o.builds[f] = append(o.builds[f], in)
		}
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
	file := path.Clean(r.file.Name)
	for _, i := range o.byDir[path.Dir(file)+"\x00"+r.cluster] {
		if k := o.kafkas[i]; k.namespace == r.namespace && k.file == r.file {
			return i
		}
	}
	for _, in := range o.builds[file] {
		if i, found := o.pick(r, in); found {
			return i
		}
	}
	for dir := path.Dir(file); ; dir = path.Dir(dir) {
		if i, found := o.pick(r, o.byDir[dir+"\x00"+r.cluster]); found {
			return i
		}
		if dir == "." || dir == "/" {
			return -1
		}
	}
}

// pick chooses among the candidates (indexes in kafkas) those in another
// file than r's that its label names: found reports any, i the one chosen
// (-1 when ambiguous).
func (o *strimziOwners) pick(r resource, candidates []int) (i int, found bool) {
	exact, loose := -1, -1
	nExact, nLoose := 0, 0
	for _, j := range candidates {
		k := o.kafkas[j]
		if k.file == r.file || k.name != r.cluster {
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
