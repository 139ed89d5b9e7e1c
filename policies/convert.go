package policies

import "encoding/json"

// convert decodes a Rego result value into a Go type.
func convert(v any, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}
