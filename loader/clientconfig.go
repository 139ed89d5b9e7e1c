package loader

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/kafkalint/kafkalint/loader/safefs"
)

// Client samples (Confluent's librdkafka.config and java.config, Azure
// Event Hubs' producer.config) name Kafka client properties "*.config",
// an extension that far more often holds something else (.NET's
// web.config, XML; git and ssh configs). A directory walk reads such a
// file only when its content is a Kafka client config (isClientConfig);
// others are not inputs at all, so they are neither read as Kafka
// configuration nor counted as skipped.

// isConfigName: a file name the walk sniffs (clientConfigData).
func isConfigName(p string) bool {
	return strings.HasSuffix(strings.ToLower(filepath.Base(p)), ".config")
}

// clientConfigData returns the content of the *.config file p when it is a
// Kafka client config, else nil (also when it cannot be read: a file that
// may be anything is no input to report an error for).
func clientConfigData(root *safefs.Root, p string) []byte {
	data, err := root.ReadFile(p)
	if err != nil || !isClientConfig(data) {
		return nil
	}
	return data
}

var propertiesKeyRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// isClientConfig is the conservative content rule for *.config files:
// UTF-8 text in which every line is blank, a #/! comment, the
// continuation of a line ending in a backslash, or key=value with a
// dotted-name key, and one key is bootstrap.servers (what every Kafka
// client config sets, Java or librdkafka).
func isClientConfig(data []byte) bool {
	if !utf8.Valid(data) {
		return false
	}
	bootstrap, continued := false, false
	for line := range bytes.Lines(data) {
		s := strings.TrimSpace(string(line))
		wasContinued := continued
		continued = strings.HasSuffix(s, `\`) && !strings.HasSuffix(s, `\\`)
		switch {
		case wasContinued, s == "", s[0] == '#', s[0] == '!':
			continue
		}
		key, _, ok := strings.Cut(s, "=")
		key = strings.TrimSpace(key)
		if !ok || !propertiesKeyRE.MatchString(key) {
			return false
		}
		bootstrap = bootstrap || key == "bootstrap.servers"
	}
	return bootstrap
}
