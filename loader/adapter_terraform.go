package loader

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/kafkalint/kafkalint/loader/safefs"
	"github.com/kafkalint/kafkalint/loader/terraform"
)

// terraformFormat reads Terraform a module directory at a time: every
// .tf, .tf.json, .tfvars and .tfvars.json file of a directory is one module
// (variables, tfvars and locals are shared by its files). MSK clusters and
// configurations become node docs, Kafka topic resources topic docs
// (terraform.Result.Docs); files that declare no Kafka configuration yield
// nothing.
type terraformFormat struct{}

func (terraformFormat) name() string { return "terraform" }

func (terraformFormat) match(path string) bool { return terraform.IsModuleFile(path) }

func (terraformFormat) perDir() bool { return true }

func (terraformFormat) load(inputs []Input) []*Doc {
	var out []*Doc
	var files []terraform.File
	for _, in := range inputs {
		data, errDoc := readInput(in)
		if errDoc != nil {
			out = append(out, errDoc)
			continue
		}
		files = append(files, terraform.File{Name: in.Display, Data: data})
	}
	if len(files) == 0 {
		return out
	}
	readIn, refused := moduleReader(inputs[0])
	opts := terraform.Options{ReadFile: readIn("."), CommentMarker: directivePrefix}
	if inputs[0].root != nil {
		opts.Module = localModule(inputs[0], readIn)
	}
	res := terraform.Load(files, opts)
	out = append(out, newDocs(setEnvironment(res.Docs(), environmentWord))...)
	return append(out, refused()...)
}

// localModule reads the directory of a module called by a local path,
// rel to in's directory, inside in's linted root (safefs): a missing
// folder or one outside the root is the error terraform reports at the
// call. Its files are read as the walk reads a module's, by display path;
// a folder without any is an empty module, as in Terraform. Each reader
// it returns shares reported with the root module's (one errors[] entry
// per refused file).
func localModule(in Input, readIn func(rel string) func(string) ([]byte, error)) func(string) ([]terraform.File, func(string) ([]byte, error), error) {
	dir, displayDir := filepath.Dir(in.Path), path.Dir(in.Display)
	return func(rel string) ([]terraform.File, func(string) ([]byte, error), error) {
		fsDir := filepath.Join(dir, filepath.FromSlash(rel))
		if !in.root.Contains(fsDir) {
			return nil, nil, errors.New("its folder " + path.Join(displayDir, rel) + " is outside the linted root")
		}
		entries, err := in.root.ReadDir(fsDir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, nil, errors.New("its folder " + path.Join(displayDir, rel) + " does not exist")
			}
			return nil, nil, errors.New("its folder " + path.Join(displayDir, rel) + ": " + readMessage(err))
		}
		var files []terraform.File
		for _, e := range entries {
			if e.IsDir() || !terraform.IsModuleFile(e.Name()) {
				continue
			}
			data, err := in.readFile(filepath.Join(fsDir, e.Name()))
			if err != nil {
				return nil, nil, errors.New(path.Join(displayDir, rel, e.Name()) + ": " + readMessage(err))
			}
			files = append(files, terraform.File{Name: path.Join(displayDir, rel, e.Name()), Data: data})
		}
		return files, readIn(rel), nil
	}
}

// moduleReader reads the files a module's file(), templatefile() and
// friends name: inside the module directory (as terraform.DirReader) and
// inside the linted root, regular and bounded (safefs). readIn(rel) reads
// for the module in the directory rel to in's (a module called by a local
// path). A missing file leaves the value unknown, as before; a refused one
// (a FIFO, a symlink to /proc/self/environ, too large) is also reported,
// once per file, by the docs refused returns.
func moduleReader(in Input) (readIn func(rel string) func(string) ([]byte, error), refused func() []*Doc) {
	var mu sync.Mutex // whether evaluation calls it concurrently is terraform's business
	reported := map[string]bool{}
	var docs []*Doc
	readIn = func(rel string) func(string) ([]byte, error) {
		dir, displayDir := filepath.Join(filepath.Dir(in.Path), filepath.FromSlash(rel)), path.Join(path.Dir(in.Display), rel)
		return func(name string) ([]byte, error) {
			clean := path.Clean(filepath.ToSlash(name))
			if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
				return nil, os.ErrPermission
			}
			data, err := in.readFile(filepath.Join(dir, filepath.FromSlash(clean)))
			if err != nil && safefs.Reason(err) != "" {
				display := path.Join(displayDir, clean)
				mu.Lock()
				if !reported[display] {
					reported[display] = true
					d := failed(display, readMessage(err))
					d.Format = "terraform"
					docs = append(docs, d)
				}
				mu.Unlock()
			}
			return data, err
		}
	}
	refused = func() []*Doc {
		mu.Lock()
		defer mu.Unlock()
		return docs
	}
	return readIn, refused
}

// environmentWord maps a value such as "prod", "Production" or "eu-prod" to
// the environment it names ("" when none).
func environmentWord(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if e, ok := envWords[s]; ok {
		return e
	}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ' ' || r == '/' })
	for i := len(parts) - 1; i >= 0; i-- {
		if e, ok := envWords[parts[i]]; ok {
			return e
		}
	}
	return ""
}
