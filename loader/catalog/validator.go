package catalog

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Check returns why value breaks the key's documented validator, in
// Kafka's words (the text after "Invalid value X for configuration K: "),
// or "". value is typed as the loader types it: int64, float64, bool,
// string or []string; a value of another type, or a validator text that
// states nothing checkable, passes.
func (k Key) Check(value any) string {
	if k.ValidValues == "" {
		return ""
	}
	return ParseValidator(k.ValidValues).Check(value)
}

// ParseFailure is ConfigDef.parseType's message for a value that is not of
// the type typ.
func ParseFailure(typ string) string {
	if typ == "boolean" {
		return "Expected value to be either true or false"
	}
	return "Not a number of type " + strings.ToUpper(typ)
}

// Validator kinds.
const (
	ValidatorRange    = "range"
	ValidatorEnum     = "enum"
	ValidatorNonEmpty = "nonempty"
)

// Validator is a parsed valid_values text.
type Validator struct {
	// Kind is ValidatorRange, ValidatorEnum, ValidatorNonEmpty or ""
	// (nothing checkable).
	Kind     string
	min, max *float64
	minText  string
	maxText  string
	or       *float64 // "[1,...,9] or -1"
	// Values are an enum's plain entries.
	Values   []string
	prefixes []string // enum entries such as "by_duration:PnDTnHnMn.nS"
	fold     bool     // "(case insensitive) [...]"
}

var (
	rangeRE     = regexp.MustCompile(`^\[(-?[0-9]+(?:\.[0-9]+)?),\.\.\.(?:,(-?[0-9]+(?:\.[0-9]+)?))?\](?: or (-?[0-9]+))?$`)
	validators  = map[string]Validator{}
	validatorMu sync.Mutex
)

// ParseValidator parses a valid_values text, once per text. Forms it does
// not recognize (class constraints, free text, the KRaft voter list whose
// "non-empty list" text does not hold for its empty default) check
// nothing.
func ParseValidator(text string) Validator {
	validatorMu.Lock()
	defer validatorMu.Unlock()
	if v, ok := validators[text]; ok {
		return v
	}
	v := Validator{}
	switch {
	case rangeRE.MatchString(text):
		m := rangeRE.FindStringSubmatch(text)
		v.Kind, v.minText, v.maxText = ValidatorRange, m[1], m[2]
		v.min = number(m[1])
		v.max = number(m[2])
		v.or = number(m[3])
	case text == "non-empty string":
		v.Kind = ValidatorNonEmpty
	default:
		v = parseEnum(text)
	}
	validators[text] = v
	return v
}

// parseEnum parses "[a, b]" and "(case insensitive) [A, B]".
func parseEnum(text string) Validator {
	v := Validator{}
	body, fold := strings.CutPrefix(text, "(case insensitive) ")
	if !strings.HasPrefix(body, "[") || !strings.HasSuffix(body, "]") || strings.Contains(body, "...") {
		return v
	}
	v.Kind, v.fold = ValidatorEnum, fold
	for _, e := range strings.Split(body[1:len(body)-1], ", ") {
		switch {
		case strings.Contains(e, "-IV"):
			// Version validators (message.format.version) also accept
			// "2.8" for "2.8-IV1": the list is not the whole story.
			v.Kind = ""
		case strings.Contains(e, ":"):
			v.prefixes = append(v.prefixes, e[:strings.Index(e, ":")+1])
		case e == "" || strings.ContainsAny(e, "[] "):
			v.Kind = ""
		default:
			v.Values = append(v.Values, e)
		}
	}
	if len(v.prefixes) > 0 {
		// A pattern entry means a custom validator (auto.offset.reset's
		// by_duration:): its case handling is not documented, so accept
		// any case rather than guess.
		v.fold = true
	}
	return v
}

func number(s string) *float64 {
	if s == "" {
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil
	}
	return &f
}

// Check returns why value breaks the validator, in Kafka's words, or "".
func (v Validator) Check(value any) string {
	switch v.Kind {
	case ValidatorRange:
		return v.checkRange(value)
	case ValidatorNonEmpty:
		if s, ok := value.(string); ok && s == "" {
			return "String must be non-empty"
		}
	case ValidatorEnum:
		switch x := value.(type) {
		case string:
			return v.checkOne(x)
		case []string:
			for _, e := range x {
				if r := v.checkOne(e); r != "" {
					return r
				}
			}
		}
	}
	return ""
}

func (v Validator) checkRange(value any) string {
	var n float64
	switch x := value.(type) {
	case int64:
		n = float64(x)
	case float64:
		n = x
	default:
		return ""
	}
	if v.or != nil && n == *v.or {
		return ""
	}
	if v.or != nil && ((v.min != nil && n < *v.min) || (v.max != nil && n > *v.max)) {
		return fmt.Sprintf("Value must be in [%s,...,%s] or %v", v.minText, v.maxText, *v.or)
	}
	if v.min != nil && n < *v.min {
		return "Value must be at least " + v.minText
	}
	if v.max != nil && n > *v.max {
		return "Value must be no more than " + v.maxText
	}
	return ""
}

func (v Validator) checkOne(s string) string {
	for _, p := range v.prefixes {
		if strings.HasPrefix(s, p) {
			return ""
		}
	}
	for _, a := range v.Values {
		if s == a || (v.fold && strings.EqualFold(s, a)) {
			return ""
		}
	}
	all := slices.Clone(v.Values)
	for _, p := range v.prefixes {
		all = append(all, p+"...")
	}
	if v.fold {
		return "String must be one of (case insensitive): " + strings.Join(all, ", ")
	}
	return "String must be one of: " + strings.Join(all, ", ")
}
