package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// writeAuditJSON writes the audit JSON contract (docs/audit.md), one
// repository at a time: the output is what encoding an
// {version, shard, repos, totals} object with two-space indentation gives.
func writeAuditJSON(w io.Writer, a *Audit) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "{\n  \"version\": %d,\n", auditVersion)
	if a.Shard != nil {
		b, err := indentedJSON(a.Shard, "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(bw, "  \"shard\": %s,\n", b)
	}
	fmt.Fprint(bw, `  "repos": [`)
	i := 0
	err := a.each(func(r *AuditRepo) error {
		b, err := indentedJSON(r, "    ")
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprint(bw, ",")
		}
		i++
		fmt.Fprint(bw, "\n    ")
		_, err = bw.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	if i > 0 {
		fmt.Fprint(bw, "\n  ")
	}
	b, err := indentedJSON(a.Totals, "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(bw, "],\n  \"totals\": %s\n}\n", b)
	return bw.Flush()
}

// indentedJSON encodes v as json.Encoder does with SetIndent(prefix, "  ")
// and no HTML escaping, without the trailing newline.
func indentedJSON(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// AuditHeader is an audit JSON report without its repositories.
type AuditHeader struct {
	Version int
	Shard   *Shard
}

// ReadAuditJSON reads an audit JSON report, passing each repository (its
// derived counts recomputed by Finish) to fn as it is decoded, so a report
// of any size is read in the memory of its largest repository. When
// header is not nil it is called before the first repository with the
// version and shard read so far (kafkalint writes them first). It rejects
// anything but an audit report of auditVersion; keys it does not know are
// ignored (a version adds fields compatibly). Totals are not read: they
// follow from the repositories.
func ReadAuditJSON(r io.Reader, header func(AuditHeader) error, fn func(*AuditRepo) error) (AuditHeader, error) {
	var h AuditHeader
	dec := json.NewDecoder(bufio.NewReader(r))
	if err := expectDelim(dec, '{'); err != nil {
		return h, notAudit(err)
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return h, notAudit(err)
		}
		key, _ := tok.(string)
		seen[key] = true
		switch key {
		case "version":
			if err := dec.Decode(&h.Version); err != nil {
				return h, notAudit(fmt.Errorf("version: %w", err))
			}
			if err := checkVersion(h.Version); err != nil {
				return h, err
			}
		case "shard":
			if err := dec.Decode(&h.Shard); err != nil {
				return h, notAudit(fmt.Errorf("shard: %w", err))
			}
			if s := h.Shard; s != nil && (s.Count < 1 || s.Index < 0 || s.Index >= s.Count) {
				return h, fmt.Errorf("invalid shard %s", s)
			}
		case "repos":
			if header != nil {
				if err := header(h); err != nil {
					return h, err
				}
			}
			if err := readRepos(dec, fn); err != nil {
				return h, err
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return h, notAudit(err)
			}
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return h, notAudit(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return h, notAudit(errors.New("data after the report"))
	}
	if !seen["version"] || !seen["repos"] {
		if seen["findings"] {
			return h, errors.New("this is a `kafkalint lint` report, not an audit report (no \"repos\")")
		}
		return h, notAudit(errors.New(`no "version" and "repos"`))
	}
	return h, nil
}

func checkVersion(v int) error {
	if v != auditVersion {
		return fmt.Errorf("audit report version %d; this kafkalint reads version %d", v, auditVersion)
	}
	return nil
}

func readRepos(dec *json.Decoder, fn func(*AuditRepo) error) error {
	if err := expectDelim(dec, '['); err != nil {
		return notAudit(fmt.Errorf("repos: %w", err))
	}
	for dec.More() {
		var r AuditRepo
		if err := dec.Decode(&r); err != nil {
			return notAudit(fmt.Errorf("repos: %w", err))
		}
		if r.Path == "" {
			return notAudit(errors.New(`repos: a repository without a "path"`))
		}
		r.Finish()
		if err := fn(&r); err != nil {
			return err
		}
	}
	if err := expectDelim(dec, ']'); err != nil {
		return notAudit(fmt.Errorf("repos: %w", err))
	}
	return nil
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("want %q, found %v", want, tok)
	}
	return nil
}

func notAudit(err error) error {
	return fmt.Errorf("not a kafkalint audit report: %w", err)
}
