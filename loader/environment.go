package loader

import "strings"

// Environment sources.
const (
	EnvFromFlag = "flag"
	EnvFromPath = "path"
	// EnvFromConfig: the source itself names the environment (a tag, a label).
	EnvFromConfig = "config"
	EnvUnknown    = "unknown"
)

// envWords maps a path segment (or a -/_/. separated part of one) to the
// environment it names.
var envWords = map[string]string{
	"prod": "production", "production": "production", "prd": "production", "live": "production",
	"stage": "staging", "staging": "staging", "stg": "staging", "preprod": "staging", "uat": "staging",
	"dev": "development", "development": "development", "local": "development", "test": "development",
	"tests": "development", "sandbox": "development",
}

// environmentOf returns a file's environment: the forced one, else the one
// named by the path segment nearest to the file (the file name first, then
// its directories from the innermost out), else "unknown".
func environmentOf(file, forced string) (env, source string) {
	if forced != "" {
		return forced, EnvFromFlag
	}
	segs := strings.Split(file, "/")
	for i := len(segs) - 1; i >= 0; i-- {
		seg := strings.ToLower(segs[i])
		if e, ok := envWords[seg]; ok {
			return e, EnvFromPath
		}
		parts := strings.FieldsFunc(seg, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
		for j := len(parts) - 1; j >= 0; j-- {
			if e, ok := envWords[parts[j]]; ok {
				return e, EnvFromPath
			}
		}
	}
	return EnvUnknown, EnvUnknown
}
