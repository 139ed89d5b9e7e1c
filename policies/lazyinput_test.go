package policies

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/kafkalint/kafkalint/loader"
	"github.com/kafkalint/kafkalint/policies/plan"
)

// TestLazyInputMatchesToValue: for every cluster of examples/, the
// real-world corpus and generated trees of both layouts, the lazy input
// read element by element (Get, Len, Until, Index, as the runtime reads
// it) is toValue's value, keys in the same order and numbers written
// alike, and its whole value (built before and after reading) is too.
func TestLazyInputMatchesToValue(t *testing.T) {
	lazies := 0
	for _, dir := range clusterDirs(t, 6, 11) {
		for _, c := range loadClusters(t, dir) {
			want, err := toValue(c)
			if err != nil {
				t.Fatal(err)
			}
			wantTerm := ast.NewTerm(want)

			read, conv := lazyInput(c)
			lazies += sameLazy(t, c.Name, ast.NewTerm(read), wantTerm)
			sameExactly(t, c.Name+" (whole after reading)", plan.Whole(ast.NewTerm(read)), wantTerm)

			unread, conv2 := lazyInput(c)
			sameExactly(t, c.Name+" (whole unread)", plan.Whole(ast.NewTerm(unread)), wantTerm)
			if conv.err != nil || conv2.err != nil {
				t.Errorf("%s: conversion errors %v, %v", c.Name, conv.err, conv2.err)
			}
		}
	}
	if lazies == 0 {
		t.Error("no lazy value was compared")
	}
}

// sameLazy compares got, read as the runtime reads it, with want, and
// returns the number of lazy values compared.
func sameLazy(t *testing.T, path string, got, want *ast.Term) int {
	t.Helper()
	l, ok := got.Value.(plan.Lazy)
	if !ok {
		sameExactly(t, path, got, want)
		return 0
	}
	n := 1
	switch w := want.Value.(type) {
	case ast.Object:
		if !l.Object() || l.Len() != w.Len() {
			t.Errorf("%s: lazy object %v with %d elements, want an object of %d", path, l.Object(), l.Len(), w.Len())
			return n
		}
		keys := w.Keys()
		i := 0
		l.Until(func(k, v *ast.Term) bool {
			switch {
			case i >= len(keys) || k.Value.Compare(keys[i].Value) != 0:
				t.Errorf("%s: key %d is %v, want %v", path, i, k, keys[min(i, len(keys)-1)])
			case v != l.Get(k):
				t.Errorf("%s.%v: Until and Get give different terms", path, k)
			case !sameByConst(l, k, v):
				t.Errorf("%s.%v: GetConst gives another term than Get", path, k)
			default:
				n += sameLazy(t, fmt.Sprintf("%s.%v", path, k), v, w.Get(k))
			}
			i++
			return false
		})
		if i != len(keys) {
			t.Errorf("%s: Until gave %d keys, want %d", path, i, len(keys))
		}
		for _, absent := range []*ast.Term{ast.StringTerm("no such key"), ast.InternedTerm(0), ast.NullTerm()} {
			if w.Get(absent) == nil && l.Get(absent) != nil {
				t.Errorf("%s: Get(%v) = %v, want undefined", path, absent, l.Get(absent))
			}
			if w.Get(absent) == nil && !sameByConst(l, absent, nil) {
				t.Errorf("%s: GetConst(%v) is defined", path, absent)
			}
		}
	case *ast.Array:
		if l.Object() || l.Len() != w.Len() {
			t.Errorf("%s: lazy object %v with %d elements, want an array of %d", path, l.Object(), l.Len(), w.Len())
			return n
		}
		for i := range w.Len() {
			if l.Index(i) != l.Get(ast.InternedTerm(i)) {
				t.Errorf("%s[%d]: Index and Get give different terms", path, i)
			}
			n += sameLazy(t, fmt.Sprintf("%s[%d]", path, i), l.Index(i), w.Elem(i))
		}
		for _, absent := range []*ast.Term{ast.InternedTerm(-1), ast.InternedTerm(w.Len()), ast.StringTerm("0"), ast.FloatNumberTerm(0.5)} {
			if l.Get(absent) != nil {
				t.Errorf("%s: Get(%v) = %v, want undefined", path, absent, l.Get(absent))
			}
		}
	default:
		t.Errorf("%s: lazy value for %v", path, ast.ValueName(w))
	}
	return n
}

// sameByConst says whether a plan.ConstGetter reads want by key, the
// first time (which remembers the key) and the next (which finds it).
func sameByConst(l plan.Lazy, key, want *ast.Term) bool {
	c, ok := l.(plan.ConstGetter)
	if !ok {
		return true
	}
	first := c.GetConst(key) // remembers key
	return first == want && c.GetConst(key) == want
}

// sameExactly fails unless got and want are equal and written alike (1
// and 1.0 are equal in Rego but print apart), with no lazy value in got.
func sameExactly(t *testing.T, path string, got, want *ast.Term) {
	t.Helper()
	if got.Value.Compare(want.Value) != 0 || got.String() != want.String() {
		t.Errorf("%s: %v, want %v", path, got, want)
	}
	if err := noLazy(got); err != nil {
		t.Errorf("%s: %v", path, err)
	}
}

// noLazy says where a value holds a lazy value.
func noLazy(t *ast.Term) error {
	var err error
	ast.WalkTerms(t, func(x *ast.Term) bool {
		if _, ok := x.Value.(plan.Lazy); ok && err == nil {
			err = fmt.Errorf("a lazy value in a whole value: %T", x.Value)
		}
		return err != nil
	})
	return err
}

// TestLazyInputConversionError: a model value toValue cannot convert (a
// float json cannot write; the loader never makes one) is recorded when it
// is converted, and fails the cluster's evaluation with toValue's error on
// the compiled engine when a rule reads it, as on the interpreter.
func TestLazyInputConversionError(t *testing.T) {
	c := &loader.Cluster{Name: "c", KafkaVersion: "4.1", KafkaRelease: []int{4, 1}, Nodes: []*loader.Node{{
		File: "server.properties", Mode: "kraft", Roles: []string{"broker"}, IsBroker: true,
		Settings: map[string]*loader.Setting{"min.insync.replicas": {
			Key: "min.insync.replicas", Type: "int", Source: "explicit", Value: math.Inf(1),
			Loc: loader.Location{File: "server.properties", Line: 1},
		}},
	}}}
	_, wantErr := toValue(c)
	if wantErr == nil {
		t.Fatal("toValue converted +Inf")
	}
	in, conv := lazyInput(c)
	if conv.err != nil {
		t.Fatalf("converting the top level failed: %v", conv.err)
	}
	plan.Whole(ast.NewTerm(in))
	if conv.err == nil || conv.err.Error() != wantErr.Error() {
		t.Errorf("whole value's error %v, want toValue's %v", conv.err, wantErr)
	}
	for _, kind := range []EngineKind{EngineCompiled, EngineInterpreter} {
		e, err := builtinEngine(kind)
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.Evaluate(context.Background(), c)
		if err == nil || !strings.Contains(err.Error(), wantErr.Error()) {
			t.Errorf("engine %v: error %v, want one with %q", kind, err, wantErr)
		}
	}
}

// TestLazyMapReadByKeyFirst: a lazy map read by key before it is iterated
// (as the rules read a node's settings) gives toValue's values, undefined
// for an absent key, and iterating it afterwards gives the very terms the
// reads converted, and the whole value: for the settings of every node of
// examples/ (read without sorting) and for a map of another type (sorted
// at its first read).
func TestLazyMapReadByKeyFirst(t *testing.T) {
	type entry struct {
		Name string   `json:"name"`
		Tags []string `json:"tags"` // not a flat struct: converted lazily
	}
	other := map[string]*entry{"b": {Name: "x", Tags: []string{"t"}}, "a": {Name: "y"}, "c": nil}
	maps := []any{other}
	for _, c := range loadClusters(t, "../examples") {
		for _, n := range c.Nodes {
			maps = append(maps, n.Settings)
		}
	}
	for i, m := range maps {
		want, err := toValue(m)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := lazyInput(m)
		l, ok := got.(plan.Lazy)
		if !ok {
			t.Fatalf("map %d: %T is not lazy", i, got)
		}
		w := want.(ast.Object)
		read := map[string]*ast.Term{}
		for j, k := range w.Keys() {
			if j%2 == 1 {
				continue // leave some to the iteration
			}
			v := l.Get(k)
			sameExactly(t, fmt.Sprintf("map %d [%v]", i, k), plan.Whole(v), w.Get(k))
			read[string(k.Value.(ast.String))] = v
		}
		for range 2 { // the second read finds what the first recorded
			if l.Get(ast.StringTerm("no such key")) != nil {
				t.Errorf("map %d: an absent key is defined", i)
			}
		}
		n := 0
		l.Until(func(k, v *ast.Term) bool {
			if r, ok := read[string(k.Value.(ast.String))]; ok && r != v {
				t.Errorf("map %d [%v]: iterating converted it again", i, k)
			}
			n++
			return false
		})
		if n != w.Len() {
			t.Errorf("map %d: %d keys iterated, want %d", i, n, w.Len())
		}
		sameExactly(t, fmt.Sprintf("map %d (whole)", i), plan.Whole(ast.NewTerm(got)), ast.NewTerm(want))
	}
	if len(maps) < 10 {
		t.Errorf("only %d maps compared", len(maps))
	}
}
