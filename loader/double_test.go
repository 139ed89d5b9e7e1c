package loader

import (
	"math"
	"testing"
)

// TestDoubleAsJava: a DOUBLE is parsed as Java's Double.parseDouble parses
// it (ConfigDef), not as Go's ParseFloat: the f/d suffixes are taken, Go's
// inf, nan and underscores are not.
func TestDoubleAsJava(t *testing.T) {
	cases := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"0.5", 0.5, true}, {"+1.5", 1.5, true}, {"-2e3", -2000, true}, {".5", 0.5, true}, {"1.", 1, true},
		{"1.5d", 1.5, true}, {"2f", 2, true}, {"1D", 1, true}, {"1.5e3F", 1500, true},
		{"0x1p3", 8, true}, {"0x1.8p1d", 3, true}, {"0xfp0", 15, true},
		{"1e400", math.Inf(1), true}, {"-1e400", math.Inf(-1), true},
		{"Infinity", math.Inf(1), true}, {"+Infinity", math.Inf(1), true}, {"-Infinity", math.Inf(-1), true},
		{"0x10", 0, false}, {"0xf", 0, false}, {"inf", 0, false}, {"Inf", 0, false}, {"nan", 0, false},
		{"1_000", 0, false}, {"0x_1p0", 0, false}, {"e5", 0, false}, {"", 0, false}, {"+", 0, false},
		{"--1", 0, false}, {"1e", 0, false}, {"0x1p", 0, false}, {"Infinityd", 0, false},
	}
	for _, c := range cases {
		got, ok := parseJavaDouble(c.in)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("parseJavaDouble(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	for _, nan := range []string{"NaN", "-NaN", "+NaN"} {
		if got, ok := parseJavaDouble(nan); !ok || !math.IsNaN(got) {
			t.Errorf("parseJavaDouble(%q) = %v, %v; want NaN", nan, got, ok)
		}
	}
}

// TestDoubleValueIsFinite: the model holds no number JSON cannot write.
// Kafka takes NaN and Infinity, so the setting is valid but has no value;
// before, such a value failed the whole cluster's conversion ("json:
// unsupported value: +Inf") and hid every other finding of the cluster.
func TestDoubleValueIsFinite(t *testing.T) {
	for _, raw := range []string{"NaN", "Infinity", "-Infinity", "1e400", " -NaN "} {
		v, invalid := typedValue("double", raw)
		if v != nil || invalid != "" {
			t.Errorf("typedValue(double, %q) = %v, %q; want no value, valid", raw, v, invalid)
		}
	}
	for _, raw := range []string{"Inf", "nan", "1_0"} {
		if v, invalid := typedValue("double", raw); v != nil || invalid == "" {
			t.Errorf("typedValue(double, %q) = %v, %q; want invalid", raw, v, invalid)
		}
	}
	if v, invalid := typedValue("double", "0.5d"); v != 0.5 || invalid != "" {
		t.Errorf("typedValue(double, 0.5d) = %v, %q; want 0.5", v, invalid)
	}
}

// TestValueTrimmedAsJava: a value is trimmed as Java's String.trim trims it
// (ConfigDef.parseType), not as Go's TrimSpace: control characters go,
// Unicode spaces stay.
func TestValueTrimmedAsJava(t *testing.T) {
	if v, invalid := typedValue("double", "\x010.5\t"); v != 0.5 || invalid != "" {
		t.Errorf("typedValue(double, \\x010.5\\t) = %v, %q; want 0.5", v, invalid)
	}
	for _, raw := range []string{"0.5\u00a0", "0.5\u2028", "\u00a01"} {
		if v, invalid := typedValue("double", raw); v != nil || invalid == "" {
			t.Errorf("typedValue(double, %q) = %v, %q; want invalid", raw, v, invalid)
		}
	}
	if v, _ := typedValue("int", " 7\r"); v != int64(7) {
		t.Errorf("typedValue(int, \" 7\\r\") = %v; want 7", v)
	}
	if v, _ := typedValue("string", "a\u00a0"); v != "a\u00a0" {
		t.Errorf("typedValue(string, a\\u00a0) = %q; want the no-break space kept", v)
	}
}
