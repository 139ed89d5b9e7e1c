// Command kafkadocs rebuilds catalog.json from the configuration
// reference that Kafka's build generates (apache/kafka-site
// <version>/generated/*_config.html), as listed in sources.json:
//
//	go run ./loader/catalog/kafkadocs -site ../kafka-site            # files as checked out
//	go run ./loader/catalog/kafkadocs -site ../kafka-site -git       # each page at its commit
//
// It writes loader/catalog/catalog.json (-o), deterministically: the same
// pages give the same bytes. Then `go generate ./loader/catalog` turns it
// into catalog_data.go. README.md beside sources.json gives the field
// rules and the procedure for a new Kafka release.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
)

func main() {
	log.SetFlags(0)
	if err := run(os.Args[1:], os.Stderr); err != nil {
		log.Fatal("kafkadocs: ", err)
	}
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("kafkadocs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	site := fs.String("site", "", "a checkout of apache/kafka-site (required)")
	useGit := fs.Bool("git", false, "read each page at its commit in sources.json (git show), not as checked out")
	sources := fs.String("sources", "loader/catalog/sources.json", "the manifest of pages")
	out := fs.String("o", "loader/catalog/catalog.json", "where to write the catalog")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *site == "" {
		return errors.New("-site is required")
	}
	raw, err := os.ReadFile(*sources)
	if err != nil {
		return err
	}
	var m manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("%s: %w", *sources, err)
	}
	read := fileReader(*site)
	if *useGit {
		read = gitReader(*site)
	}
	catalog, err := build(m, read)
	if err != nil {
		return err
	}
	data, err := encode(catalog)
	if err != nil {
		return err
	}
	return os.WriteFile(*out, data, 0o644)
}

// fileReader reads pages from a directory.
func fileReader(site string) reader {
	return func(p page) ([]byte, error) {
		return os.ReadFile(filepath.Join(site, filepath.FromSlash(p.Path)))
	}
}

// gitReader reads each page at its commit from the site's repository.
func gitReader(site string) reader {
	return func(p page) ([]byte, error) {
		if p.Commit == "" {
			return nil, fmt.Errorf("%s: no commit in the manifest", p.Path)
		}
		cmd := exec.Command("git", "-C", site, "show", p.Commit+":"+p.Path)
		cmd.Stderr = os.Stderr
		data, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("git show %s:%s: %w", p.Commit, p.Path, err)
		}
		return data, nil
	}
}
