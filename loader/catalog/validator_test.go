package catalog

import "testing"

func TestParseValidator(t *testing.T) {
	for _, text := range []string{
		"[partitionId]:[brokerId],[partitionId]:[brokerId],...",
		"A concrete subclass of org.apache.kafka.connect.storage.Converter, A class with a public, no-argument constructor",
		"non-empty list",
		"[0.8.0, 0.8.1, 2.8-IV1, 3.0-IV0]",
		"non-null string",
	} {
		if v := ParseValidator(text); v.Kind != "" {
			t.Errorf("ParseValidator(%q) = %q, want nothing checkable", text, v.Kind)
		}
	}
}

// FuzzValidator: any valid_values text parses into a validator that checks
// any value without panicking, and a value it accepts is never given a
// reason.
func FuzzValidator(f *testing.F) {
	for _, seed := range []string{
		"[1,...]", "[0,...,1]", "[1,...,9] or -1", "[-131072,...,22]", "[0.5,...,1.0]",
		"[all, -1, 0, 1]", "(case insensitive) [SASL_SSL, PLAINTEXT, SSL, SASL_PLAINTEXT]",
		"[latest, earliest, none, by_duration:PnDTnHnMn.nS]", "non-empty string", "non-empty list",
		"[partitionId]:[brokerId],[partitionId]:[brokerId],...", "[", "[]", "[,]", "(case insensitive) ",
	} {
		f.Add(seed, "1", int64(0))
	}
	f.Fuzz(func(t *testing.T, text, s string, n int64) {
		v := ParseValidator(text)
		for _, value := range []any{s, n, float64(n) / 3, []string{s, s}, nil, true} {
			_ = v.Check(value)
		}
		if v.Kind == ValidatorEnum && len(v.Values) > 0 && v.Check(v.Values[0]) != "" {
			t.Errorf("validator %q rejects its own first value %q", text, v.Values[0])
		}
	})
}

// TestValidatorCheck: each validator form accepts what Kafka accepts and
// rejects the rest with Kafka's message.
func TestValidatorCheck(t *testing.T) {
	tests := []struct {
		text  string
		value any
		want  string
	}{
		{"[1,...]", int64(1), ""},
		{"[1,...]", int64(0), "Value must be at least 1"},
		{"[0,...,1]", 0.5, ""},
		{"[0,...,1]", 1.5, "Value must be no more than 1"},
		{"[-131072,...,22]", int64(-131073), "Value must be at least -131072"},
		{"[1,...,9] or -1", int64(-1), ""},
		{"[1,...,9] or -1", int64(10), "Value must be in [1,...,9] or -1"},
		{"[1,...]", "12", ""}, // not a number: the type check's business
		{"non-empty string", "", "String must be non-empty"},
		{"non-empty string", "x", ""},
		{"[all, -1, 0, 1]", "all", ""},
		{"[all, -1, 0, 1]", "ALL", "String must be one of: all, -1, 0, 1"},
		{"(case insensitive) [DISABLED, UPGRADE]", "upgrade", ""},
		{"(case insensitive) [DISABLED, UPGRADE]", "x", "String must be one of (case insensitive): DISABLED, UPGRADE"},
		{"[latest, earliest, none, by_duration:PnDTnHnMn.nS]", "by_duration:PT1H", ""},
		{"[latest, earliest, none, by_duration:PnDTnHnMn.nS]", "Latest", ""},
		{"[latest, earliest, none, by_duration:PnDTnHnMn.nS]", "first", "String must be one of (case insensitive): latest, earliest, none, by_duration:..."},
		{"[gzip, lz4]", []string{"gzip", "zstd"}, "String must be one of: gzip, lz4"},
		{"[gzip, lz4]", []string{"lz4"}, ""},
		{"non-null string", "", ""}, // free text checks nothing
	}
	for _, tt := range tests {
		if got := ParseValidator(tt.text).Check(tt.value); got != tt.want {
			t.Errorf("ParseValidator(%q).Check(%#v) = %q, want %q", tt.text, tt.value, got, tt.want)
		}
	}
}

func TestKeyCheckAndParseFailure(t *testing.T) {
	k, ok := Lookup("4.0", Producer, "acks")
	if !ok {
		t.Fatal("4.0 producer acks not cataloged")
	}
	if got := k.Check("2"); got != "String must be one of: all, -1, 0, 1" {
		t.Errorf("acks=2: %q", got)
	}
	if got := (Key{}).Check("anything"); got != "" {
		t.Errorf("a key without validator rejects: %q", got)
	}
	for typ, want := range map[string]string{"boolean": "Expected value to be either true or false", "int": "Not a number of type INT", "double": "Not a number of type DOUBLE"} {
		if got := ParseFailure(typ); got != want {
			t.Errorf("ParseFailure(%s) = %q, want %q", typ, got, want)
		}
	}
}
