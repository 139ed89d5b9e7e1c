package main

import (
	"errors"
	"fmt"
	"html"
	"regexp"
	"strings"
)

// entry is one key of a generated configuration page, its table cells as
// the page prints them (tags dropped, entities decoded, trimmed).
type entry struct {
	Name string
	// Cells maps a row label without its colon ("Type", "Default", "Valid
	// Values", "Importance", "Update Mode", "Server Default Property") to
	// its cell.
	Cells map[string]string
	// Description is the key's prose, kept only to judge deprecation.
	Description string
}

var (
	// Every entry of a generated page (ConfigDef.toHtml) is a heading
	// naming the key, its description and a table of label/value rows.
	// The patterns accept the rendered site's minified form too (unquoted
	// attributes, no newlines).
	headingRE = regexp.MustCompile(`(?is)<h4[^>]*>(.*?)</h4>`)
	tableRE   = regexp.MustCompile(`(?is)<table[^>]*>(.*?)</table>`)
	rowRE     = regexp.MustCompile(`(?is)<tr[^>]*>\s*<th[^>]*>(.*?)</th>\s*<td[^>]*>(.*?)</td>\s*</tr>`)
	sectionRE = regexp.MustCompile(`(?is)<h[123][^>]*>(.*?)</h[123]>`)
	tagRE     = regexp.MustCompile(`(?s)<[^>]*>`)
)

// text is the text of an HTML fragment: tags dropped, entities decoded,
// surrounding space trimmed.
func text(fragment string) string {
	return strings.TrimSpace(html.UnescapeString(tagRE.ReplaceAllString(fragment, "")))
}

// parsePage returns the entries of a page, in page order. With a section
// title, only the entries between the heading (h1 to h3) of that title and
// the next such heading count: a rendered site page holds several
// generated lists.
func parsePage(page, section string) ([]entry, error) {
	if section != "" {
		body, ok := sectionOf(page, section)
		if !ok {
			return nil, fmt.Errorf("no heading %q", section)
		}
		page = body
	}
	heads := headingRE.FindAllStringSubmatchIndex(page, -1)
	out := make([]entry, 0, len(heads))
	for i, h := range heads {
		end := len(page)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		e, err := parseEntry(text(page[h[2]:h[3]]), page[h[1]:end])
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, errors.New("no configuration entries")
	}
	return out, nil
}

// parseEntry reads the description and table that follow a key's heading.
func parseEntry(name, body string) (entry, error) {
	t := tableRE.FindStringSubmatchIndex(body)
	if name == "" || t == nil {
		return entry{}, fmt.Errorf("entry %q: want a key heading followed by its table", name)
	}
	e := entry{Name: name, Cells: map[string]string{}, Description: text(body[:t[0]])}
	for _, row := range rowRE.FindAllStringSubmatch(body[t[2]:t[3]], -1) {
		label := strings.TrimSuffix(text(row[1]), ":")
		if _, dup := e.Cells[label]; dup {
			return entry{}, fmt.Errorf("entry %q: row %q twice", name, label)
		}
		e.Cells[label] = text(row[2])
	}
	return e, nil
}

// sectionOf is the part of page after the heading titled title, up to
// the next heading of level 1 to 3.
func sectionOf(page, title string) (string, bool) {
	hs := sectionRE.FindAllStringSubmatchIndex(page, -1)
	for i, h := range hs {
		if text(page[h[2]:h[3]]) != title {
			continue
		}
		end := len(page)
		if i+1 < len(hs) {
			end = hs[i+1][0]
		}
		return page[h[1]:end], true
	}
	return "", false
}
