package terraform

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// terraformFuncs are Terraform's built-in functions that can be evaluated
// statically, mapped to go-cty's standard library where Terraform uses the
// same implementation, and written here where Terraform's semantics differ
// (length of a string, replace with a /regex/, lookup without a default,
// one, sum, templatefile, file). Any other function a module calls
// evaluates to unknown (see unknownFunc).
func (m *module) terraformFuncs() map[string]function.Function {
	fs := map[string]function.Function{
		"abs": stdlib.AbsoluteFunc, "ceil": stdlib.CeilFunc, "floor": stdlib.FloorFunc, "log": stdlib.LogFunc,
		"max": stdlib.MaxFunc, "min": stdlib.MinFunc, "parseint": stdlib.ParseIntFunc, "pow": stdlib.PowFunc,
		"signum": stdlib.SignumFunc,
		"chomp":  stdlib.ChompFunc, "format": stdlib.FormatFunc, "formatlist": stdlib.FormatListFunc,
		"indent": stdlib.IndentFunc, "join": stdlib.JoinFunc, "lower": stdlib.LowerFunc, "upper": stdlib.UpperFunc,
		"regex": stdlib.RegexFunc, "regexall": stdlib.RegexAllFunc, "split": stdlib.SplitFunc,
		"strrev": stdlib.ReverseFunc, "substr": stdlib.SubstrFunc, "title": stdlib.TitleFunc,
		"trim": stdlib.TrimFunc, "trimprefix": stdlib.TrimPrefixFunc, "trimsuffix": stdlib.TrimSuffixFunc,
		"trimspace": stdlib.TrimSpaceFunc,
		"chunklist": stdlib.ChunklistFunc, "coalescelist": stdlib.CoalesceListFunc, "compact": stdlib.CompactFunc,
		"concat": stdlib.ConcatFunc, "contains": stdlib.ContainsFunc, "distinct": stdlib.DistinctFunc,
		"element": stdlib.ElementFunc, "flatten": stdlib.FlattenFunc, "keys": stdlib.KeysFunc,
		"merge": stdlib.MergeFunc, "range": m.rangeFunc(), "reverse": stdlib.ReverseListFunc,
		"setintersection": stdlib.SetIntersectionFunc, "setproduct": stdlib.SetProductFunc,
		"setsubtract": stdlib.SetSubtractFunc, "setunion": stdlib.SetUnionFunc, "slice": stdlib.SliceFunc,
		"sort": stdlib.SortFunc, "values": stdlib.ValuesFunc, "zipmap": stdlib.ZipmapFunc,
		"coalesce": stdlib.CoalesceFunc, "jsonencode": stdlib.JSONEncodeFunc, "jsondecode": stdlib.JSONDecodeFunc,
		"csvdecode": stdlib.CSVDecodeFunc,
		"tobool":    stdlib.MakeToFunc(cty.Bool), "tonumber": stdlib.MakeToFunc(cty.Number),
		"tostring": stdlib.MakeToFunc(cty.String), "tolist": stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap": stdlib.MakeToFunc(cty.Map(cty.DynamicPseudoType)), "toset": stdlib.MakeToFunc(cty.Set(cty.DynamicPseudoType)),
		"try": tryfunc.TryFunc, "can": tryfunc.CanFunc,
		"length": lengthFunc, "lookup": lookupFunc, "replace": m.replaceFunc(), "one": oneFunc, "sum": sumFunc,
		"startswith": startsWithFunc, "endswith": endsWithFunc, "strcontains": strContainsFunc,
	}
	fs["templatefile"] = m.templateFileFunc(fs)
	fs["file"] = m.fileFunc()
	return fs
}

// unknownFunc stands for a function that cannot be evaluated statically
// (timestamp, uuid, cidrsubnet, base64 and crypto functions, provider
// functions): its result is unknown, whatever the arguments.
var unknownFunc = function.New(&function.Spec{
	VarParam: &function.Parameter{
		Name: "args", Type: cty.DynamicPseudoType,
		AllowUnknown: true, AllowNull: true, AllowDynamicType: true, AllowMarked: true,
	},
	Type: function.StaticReturnType(cty.DynamicPseudoType),
	Impl: func([]cty.Value, cty.Type) (cty.Value, error) { return cty.DynamicVal, nil },
})

// lengthFunc is Terraform's length: of a collection, or of a string in
// characters.
var lengthFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowDynamicType: true, AllowUnknown: true}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if ty == cty.String || ty == cty.DynamicPseudoType || ty.IsCollectionType() || ty.IsTupleType() || ty.IsObjectType() {
			return cty.Number, nil
		}
		return cty.NilType, errors.New("argument must be a string, a collection type, or a structural type")
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v := args[0]
		if !v.IsKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		if v.Type() == cty.String {
			return stdlib.Strlen(v)
		}
		if v.Type().IsObjectType() {
			return cty.NumberIntVal(int64(len(v.Type().AttributeTypes()))), nil
		}
		return v.Length(), nil
	},
})

// lookupFunc is Terraform's lookup, whose default is optional (a missing
// key without a default is an error).
var lookupFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "inputMap", Type: cty.DynamicPseudoType, AllowMarked: true},
		{Name: "key", Type: cty.String, AllowMarked: true},
	},
	VarParam: &function.Parameter{Name: "default", Type: cty.DynamicPseudoType, AllowMarked: true, AllowNull: true, AllowUnknown: true},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) > 3 {
			return cty.NilType, errors.New("lookup() takes no more than three arguments")
		}
		return cty.DynamicPseudoType, nil
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if len(args) == 3 {
			return stdlib.Lookup(args[0], args[1], args[2])
		}
		coll, marks := args[0].Unmark()
		key, keyMarks := args[1].Unmark()
		if !coll.IsKnown() || !key.IsKnown() {
			return cty.DynamicVal, nil
		}
		ty := coll.Type()
		switch {
		case ty.IsObjectType() && ty.HasAttribute(key.AsString()):
			return coll.GetAttr(key.AsString()).WithMarks(marks, keyMarks), nil
		case ty.IsMapType() && coll.HasIndex(key).True():
			return coll.Index(key).WithMarks(marks, keyMarks), nil
		}
		return cty.NilVal, fmt.Errorf("lookup failed to find key %q", key.AsString())
	},
})

// rangeFunc is go-cty's range (Terraform's), element for element, with
// each element charged to the module's work before it is made: go-cty
// makes up to 1,024 of them, then fails, from an argument of one node, so
// that a loop of range(1080) did a thousand steps per iteration, none of
// them counted. Predicting the length instead is not safe: go-cty steps
// at the precision of its arguments, and a number of 53 bits (from pow)
// plus 1 can stay where it is until go-cty gives up.
func (m *module) rangeFunc() function.Function {
	return function.New(&function.Spec{
		Description: stdlib.RangeFunc.Description(),
		VarParam:    stdlib.RangeFunc.VarParam(),
		Type:        function.StaticReturnType(cty.List(cty.Number)),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			var start, end, step cty.Value
			switch len(args) {
			case 1:
				if args[0].LessThan(cty.Zero).True() {
					start, end, step = cty.Zero, args[0], cty.NumberIntVal(-1)
				} else {
					start, end, step = cty.Zero, args[0], cty.NumberIntVal(1)
				}
			case 2:
				if args[1].LessThan(args[0]).True() {
					start, end, step = args[0], args[1], cty.NumberIntVal(-1)
				} else {
					start, end, step = args[0], args[1], cty.NumberIntVal(1)
				}
			case 3:
				start, end, step = args[0], args[1], args[2]
			default:
				return cty.NilVal, errors.New("must have one, two, or three arguments")
			}
			if step == cty.Zero { // as go-cty compares it
				return cty.NilVal, function.NewArgErrorf(2, "step must not be zero")
			}
			down := step.LessThan(cty.Zero).True()
			if down && end.GreaterThan(start).True() {
				return cty.NilVal, function.NewArgErrorf(1, "end must be less than start when step is negative")
			}
			if !down && end.LessThan(start).True() {
				return cty.NilVal, function.NewArgErrorf(1, "end must be greater than start when step is positive")
			}
			var vals []cty.Value
			for num := start; ; num = num.Add(step) {
				if down && num.LessThanOrEqualTo(end).True() || !down && num.GreaterThanOrEqualTo(end).True() {
					break
				}
				if len(vals) >= 1024 {
					return cty.NilVal, errors.New("more than 1024 values were generated; either decrease the difference between start and end or use a smaller step")
				}
				if !m.charge(1, m.site) {
					return cty.NilVal, errOverBudget
				}
				vals = append(vals, num)
			}
			if len(vals) == 0 {
				return cty.ListValEmpty(cty.Number), nil
			}
			return cty.ListVal(vals), nil
		},
	})
}

// replaceFunc is Terraform's replace: a substring wrapped in slashes is a
// regular expression. A regular expression's replacement is built match by
// match, so that a result over the string limit is refused before it is.
func (m *module) replaceFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "str", Type: cty.String}, {Name: "substr", Type: cty.String}, {Name: "replace", Type: cty.String},
		},
		Type: function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			str, sub, repl := args[0].AsString(), args[1].AsString(), args[2].AsString()
			if len(sub) > 1 && sub[0] == '/' && sub[len(sub)-1] == '/' {
				re, err := regexp.Compile(sub[1 : len(sub)-1])
				if err != nil {
					return cty.NilVal, err
				}
				dollars := strings.Count(repl, "$")
				var out []byte
				last := 0
				for _, loc := range re.FindAllStringSubmatchIndex(str, -1) {
					// Every $ expands to a group of the match at most.
					if len(out)+loc[0]-last+len(repl)+dollars*(loc[1]-loc[0]) > m.limits.MaxString {
						m.over("the length of a string", m.limits.MaxString, m.site)
						return cty.NilVal, errOverBudget
					}
					out = append(out, str[last:loc[0]]...)
					out = re.ExpandString(out, repl, str, loc)
					last = loc[1]
				}
				return cty.StringVal(string(append(out, str[last:]...))), nil
			}
			return cty.StringVal(strings.ReplaceAll(str, sub, repl)), nil
		},
	})
}

// oneFunc is Terraform's one: the only element of a list, tuple or set,
// null for an empty one.
var oneFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType, AllowMarked: true}},
	Type:   function.StaticReturnType(cty.DynamicPseudoType),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v, marks := args[0].Unmark()
		ty := v.Type()
		if !ty.IsListType() && !ty.IsTupleType() && !ty.IsSetType() {
			return cty.NilVal, errors.New("must be a list, set, or tuple value")
		}
		switch n := v.LengthInt(); n {
		case 0:
			return cty.NullVal(cty.DynamicPseudoType).WithMarks(marks), nil
		case 1:
			it := v.ElementIterator()
			it.Next()
			_, e := it.Element()
			return e.WithMarks(marks), nil
		default:
			return cty.NilVal, errors.New("must be a list, set, or tuple value with either zero or one elements")
		}
	},
})

var sumFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type:   function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v := args[0]
		if !v.CanIterateElements() || v.LengthInt() == 0 {
			return cty.NilVal, errors.New("cannot sum an empty list or a non-collection")
		}
		total := cty.Zero
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			n, err := convert.Convert(e, cty.Number)
			if err != nil || n.IsNull() {
				return cty.NilVal, errors.New("sum accepts only numbers")
			}
			total = total.Add(n)
		}
		return total, nil
	},
})

func stringPredicate(f func(s, sub string) bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "str", Type: cty.String}, {Name: "substr", Type: cty.String}},
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.BoolVal(f(args[0].AsString(), args[1].AsString())), nil
		},
	})
}

var (
	startsWithFunc  = stringPredicate(strings.HasPrefix)
	endsWithFunc    = stringPredicate(strings.HasSuffix)
	strContainsFunc = stringPredicate(strings.Contains)
)

// fileFunc is Terraform's file(), for files inside the module directory.
func (m *module) fileFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "path", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			data, err := m.readOnce(args[0].AsString())
			if err != nil {
				return cty.UnknownVal(cty.String), nil
			}
			return cty.StringVal(string(data)), nil
		},
	})
}

// templateFileFunc is Terraform's templatefile(path, vars): the file (in
// the module directory) is an HCL template evaluated with vars and the
// same functions, minus templatefile itself.
func (m *module) templateFileFunc(funcs map[string]function.Function) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "path", Type: cty.String},
			{Name: "vars", Type: cty.DynamicPseudoType, AllowUnknown: true, AllowMarked: true},
		},
		Type: function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			name := args[0].AsString()
			site := m.site
			t, ok := m.templates[name]
			if !ok {
				// Read, checked and parsed once per module.
				data, err := m.readOnce(name)
				switch {
				case err != nil:
					t.unread = true
				case nestingError(name, data, m.limits.MaxNesting) != nil:
					t.tooDeep = true
				case bytes.Count(data, []byte("\n")) > m.limits.MaxTemplateLines:
					t.tooLong = true
				default:
					t.expr, t.diags = hclsyntax.ParseTemplate(data, name, hcl.InitialPos)
				}
				if m.templates == nil {
					m.templates = map[string]template{}
				}
				m.templates[name] = t
			}
			switch {
			case t.unread:
				return cty.UnknownVal(cty.String), nil
			case t.tooDeep:
				m.over("the nesting of "+name, m.limits.MaxNesting, site)
				return cty.NilVal, errOverBudget
			case t.tooLong:
				m.over("the number of lines of "+name, m.limits.MaxTemplateLines, site)
				return cty.NilVal, errOverBudget
			case t.diags.HasErrors():
				return cty.NilVal, t.diags
			}
			expr := t.expr
			vars, marks := args[1].Unmark()
			if !vars.IsKnown() {
				return cty.UnknownVal(cty.String).WithMarks(marks), nil
			}
			if !vars.Type().IsObjectType() && !vars.Type().IsMapType() {
				return cty.NilVal, errors.New("invalid vars value: must be a map")
			}
			ctx := &hcl.EvalContext{Variables: map[string]cty.Value{}, Functions: map[string]function.Function{}}
			for k, f := range funcs {
				if k != "templatefile" {
					ctx.Functions[k] = f
				}
			}
			for _, call := range functionCalls(expr) {
				if _, ok := ctx.Functions[call]; !ok {
					ctx.Functions[call] = unknownFunc
				}
			}
			if !vars.IsNull() {
				for it := vars.ElementIterator(); it.Next(); {
					k, v := it.Element()
					ctx.Variables[k.AsString()] = v
				}
			}
			// Evaluated by the module's evaluator, within its limits; as
			// before, without position marks (the text is another file's).
			before := m.failed
			m.plain++
			v := m.eval(expr, ctx, 0)
			m.plain--
			m.site = site
			if m.failed != before {
				return cty.NilVal, errors.New("invalid template")
			}
			if !v.IsKnown() {
				return cty.UnknownVal(cty.String).WithMarks(marks), nil
			}
			v, err := convert.Convert(v, cty.String)
			if err != nil {
				return cty.NilVal, err
			}
			return v.WithMarks(marks), nil
		},
	})
}

// template is a file templatefile() parsed.
type template struct {
	expr    hclsyntax.Expression
	diags   hcl.Diagnostics
	unread  bool // not read: the result is unknown
	tooDeep bool // nested past MaxNesting
	tooLong bool // more lines than MaxTemplateLines
}

// readOnce reads a file for file() or templatefile() once per module: a
// for-expression calling file() a thousand times reads it once.
//
// The cache is keyed by the cleaned path ("./d1/../x" is "x"), and what a
// module reads is bounded: a file longer than the string budget is not
// used (a 15 MB file read 60 times through distinct spellings of its path
// once took 2 GB), nor anything past maxModuleReads bytes in all.
func (m *module) readOnce(name string) ([]byte, error) {
	name = path.Clean(strings.TrimPrefix(name, "./"))
	if r, ok := m.read[name]; ok {
		return r.data, r.err
	}
	data, err := m.readModuleFile(name)
	switch {
	case err != nil:
	case len(data) > m.limits.MaxString:
		data, err = nil, fmt.Errorf("%s is longer than the limit of %d bytes for a string", name, m.limits.MaxString)
	case m.readBytes+len(data) > maxModuleReads:
		data, err = nil, fmt.Errorf("the files read by file() and templatefile() exceed %d bytes", maxModuleReads)
	}
	m.readBytes += len(data)
	if m.read == nil {
		m.read = map[string]readResult{}
	}
	m.read[name] = readResult{data, err}
	return data, err
}

// maxModuleReads bounds the bytes one module's file() and templatefile()
// calls read, all files together.
const maxModuleReads = 16 << 20

type readResult struct {
	data []byte
	err  error
}

func (m *module) readModuleFile(name string) ([]byte, error) {
	if m.opts.ReadFile == nil {
		return nil, errors.New("files are not read")
	}
	name = strings.TrimPrefix(name, "./")
	return m.opts.ReadFile(name)
}

// functionCalls lists the names of the functions an expression calls.
func functionCalls(expr hclsyntax.Expression) []string {
	var names []string
	_ = hclsyntax.VisitAll(expr, func(n hclsyntax.Node) hcl.Diagnostics {
		if c, ok := n.(*hclsyntax.FunctionCallExpr); ok {
			names = append(names, c.Name)
		}
		return nil
	})
	return names
}
