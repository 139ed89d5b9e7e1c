package policies

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/tester"
	"github.com/open-policy-agent/opa/v1/types"

	"github.com/kafkalint/kafkalint/loader"
)

// kafkalint.parse and kafkalint.parse_files build the cluster model from
// configuration text inside a policy test, with the loader itself: the
// test sees exactly what `kafkalint inspect` prints for those files, in
// any supported format.

var parseBuiltin = &ast.Builtin{
	Name: "kafkalint.parse",
	Description: "Loads one file's text as kafkalint loads a file of that name and returns its cluster model " +
		"(the input rules see). format: properties, terraform, yaml, or \"\" to choose by name.",
	Decl: types.NewFunction(
		types.Args(
			types.Named("format", types.S).Description("properties, terraform, yaml, or \"\" (by file name)"),
			types.Named("name", types.S).Description("relative file name, e.g. prod/server.properties (gives the environment)"),
			types.Named("text", types.S).Description("the file's content"),
		),
		types.Named("cluster", types.A).Description("the cluster model"),
	),
}

var parseFilesBuiltin = &ast.Builtin{
	Name:        "kafkalint.parse_files",
	Description: "Loads several files (name to text; format by name) as one run and returns every cluster model, sorted by name.",
	Decl: types.NewFunction(
		types.Args(types.Named("files", types.NewObject(nil, types.NewDynamicProperty(types.S, types.S))).Description("file name to text")),
		types.Named("clusters", types.NewArray(nil, types.A)).Description("the cluster models"),
	),
}

// parser implements the builtins with the loader options of a rule set
// (the keys whose Kafka default the rules need).
type parser struct {
	opts func() loader.Options
}

func (p parser) load(sources []loader.Source) ([]*loader.Cluster, error) {
	opts := p.opts()
	opts.Serial = true // on the evaluating thread, within the CPU budget (timeout.go)
	res, err := loader.LoadSources(sources, opts)
	if err != nil {
		return nil, err
	}
	if len(res.Errors) > 0 {
		msgs := make([]string, len(res.Errors))
		for i, e := range res.Errors {
			msgs[i] = e.Error()
		}
		return nil, fmt.Errorf("cannot load: %s", strings.Join(msgs, "; "))
	}
	return res.Clusters, nil
}

func (p parser) parse(_ rego.BuiltinContext, format, name, text *ast.Term) (*ast.Term, error) {
	f, err1 := ast.JSON(format.Value)
	n, err2 := ast.JSON(name.Value)
	t, err3 := ast.JSON(text.Value)
	fs, ok1 := f.(string)
	ns, ok2 := n.(string)
	ts, ok3 := t.(string)
	if err1 != nil || err2 != nil || err3 != nil || !ok1 || !ok2 || !ok3 {
		return nil, errors.New("want three strings: format, file name and text")
	}
	clusters, err := p.load([]loader.Source{{Name: ns, Format: fs, Data: []byte(ts)}})
	if err != nil {
		return nil, err
	}
	switch len(clusters) {
	case 0:
		return nil, fmt.Errorf("%s holds no Kafka configuration kafkalint recognizes (see docs/model.md for how files are classified)", ns)
	case 1:
	default:
		return nil, fmt.Errorf("%s holds %d clusters; use kafkalint.parse_files, which returns all of them", ns, len(clusters))
	}
	v, err := toValue(clusters[0])
	if err != nil {
		return nil, err
	}
	return ast.NewTerm(v), nil
}

func (p parser) parseFiles(_ rego.BuiltinContext, files *ast.Term) (*ast.Term, error) {
	obj, ok := files.Value.(ast.Object)
	if !ok {
		return nil, errors.New("want an object of file name to text")
	}
	var sources []loader.Source
	var err error
	obj.Foreach(func(k, v *ast.Term) {
		name, ok1 := k.Value.(ast.String)
		text, ok2 := v.Value.(ast.String)
		if !ok1 || !ok2 {
			err = fmt.Errorf("want an object of file name to text, got %v: %v", k, v)
			return
		}
		sources = append(sources, loader.Source{Name: string(name), Data: []byte(text)})
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(sources, func(a, b loader.Source) int { return strings.Compare(a.Name, b.Name) })
	clusters, err := p.load(sources)
	if err != nil {
		return nil, err
	}
	out := make([]*ast.Term, len(clusters))
	for i, c := range clusters {
		v, err := toValue(c)
		if err != nil {
			return nil, err
		}
		out[i] = ast.NewTerm(v)
	}
	return ast.ArrayTerm(out...), nil
}

func regoFunction(b *ast.Builtin) *rego.Function {
	return &rego.Function{Name: b.Name, Description: b.Description, Decl: b.Decl, Memoize: true}
}

// regoOptions register the builtins on a query.
func (p parser) regoOptions() []func(*rego.Rego) {
	return []func(*rego.Rego){
		rego.Function3(regoFunction(parseBuiltin), p.parse),
		rego.Function1(regoFunction(parseFilesBuiltin), p.parseFiles),
	}
}

// testerBuiltins register the builtins with OPA's test runner.
func (p parser) testerBuiltins() []*tester.Builtin {
	opts := p.regoOptions()
	return []*tester.Builtin{{Decl: parseBuiltin, Func: opts[0]}, {Decl: parseFilesBuiltin, Func: opts[1]}}
}
