package yamlsrc

import (
	"strings"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// A chart listener: where its values are and what the chart defaults them
// to.
type helmListener struct {
	section []string // values path of the listener's settings
	name    string   // default listener name
	port    string   // default container port
}

// currentListeners are the listeners charts 25 and later give clients
// (templates/_helpers.tpl, kafka.listeners): the client listener, and the
// external one when externalAccess.enabled.
var (
	currentClient   = helmListener{[]string{"listeners", "client"}, "CLIENT", "9092"}
	currentExternal = helmListener{[]string{"listeners", "external"}, "EXTERNAL", "9095"}
)

// clientListeners are the listener settings of a broker of the current
// layout: `listeners.<listener>.protocol` (default SASL_PLAINTEXT since chart
// 26, PLAINTEXT in chart 25: plain text either way), `.name` and
// `.containerPort`. Listeners a configuration block sets itself, or
// `listeners.overrideListeners` / `listeners.securityProtocolMap`, win.
func (h *helmValues) clientListeners(ss []doc.Setting) []doc.Setting {
	ls := []helmListener{currentClient}
	if on, _ := boolean(get(h.root, "externalAccess", "enabled")); on {
		ls = append(ls, currentExternal)
	}
	var names, protos []string
	at := h.start()
	for i, l := range ls {
		name, port := h.stringKey(l.name, append(l.section, "name")...), h.stringKey(l.port, append(l.section, "containerPort")...)
		proto, loc, ok := h.protocol(append(l.section, "protocol"), "SASL_PLAINTEXT", strings.ToUpper)
		if !ok {
			return nil
		}
		if i == 0 {
			at = loc
		}
		names = append(names, strings.ToUpper(name)+"://:"+port)
		protos = append(protos, strings.ToUpper(name)+":"+proto)
	}
	origin := h.key(currentClient.section...) + ".protocol"
	if _, ok := getEntry(h.root, append(currentClient.section, "protocol")...); !ok {
		origin += " (not set: the chart's default SASL_PLAINTEXT since chart 26, PLAINTEXT in chart 25)"
	}
	return h.listenerSettings(ss, strings.Join(names, ","), strings.Join(protos, ","), at, origin,
		[]string{"listeners", "overrideListeners"}, []string{"listeners", "securityProtocolMap"})
}

// legacyProtocols are the values of auth.clientProtocol (charts up to 24)
// and the security protocol each gives the listener.
var legacyProtocols = map[string]string{
	"plaintext": "PLAINTEXT", "tls": "SSL", "mtls": "SSL", "sasl": "SASL_PLAINTEXT", "sasl_tls": "SASL_SSL",
}

// legacyListeners are the listener settings of the flat layout (charts up
// to 24): the CLIENT listener on `containerPorts.client` (9092) with
// `auth.clientProtocol` (default plaintext), and EXTERNAL with
// `auth.externalClientProtocol` when externalAccess.enabled. The
// `listeners` list and `listenerSecurityProtocolMap` win.
func (h *helmValues) legacyListeners(ss []doc.Setting) []doc.Setting {
	lower := func(s string) string {
		if p, ok := legacyProtocols[strings.ToLower(s)]; ok {
			return p
		}
		return ""
	}
	proto, at, ok := h.protocol([]string{"auth", "clientProtocol"}, "PLAINTEXT", lower)
	if !ok {
		return nil
	}
	names := "CLIENT://:" + h.stringKey("9092", "containerPorts", "client")
	protos := "CLIENT:" + proto
	if on, _ := boolean(get(h.root, "externalAccess", "enabled")); on {
		ext, _, ok := h.protocol([]string{"auth", "externalClientProtocol"}, proto, lower)
		if !ok {
			return nil
		}
		names += ",EXTERNAL://:" + h.stringKey("9094", "containerPorts", "external")
		protos += ",EXTERNAL:" + ext
	}
	origin := h.key("auth", "clientProtocol")
	if _, ok := getEntry(h.root, "auth", "clientProtocol"); !ok {
		origin += " (not set: the chart's default plaintext)"
	}
	return h.listenerSettings(ss, names, protos, at, origin, []string{"listeners"}, nil)
}

// protocol reads a listener protocol key through norm ("" = not a
// protocol): the chart default def when unset; ok false for a value that is
// not a protocol (a template expression), which leaves the listeners
// unread.
func (h *helmValues) protocol(path []string, def string, norm func(string) string) (proto string, at doc.Location, ok bool) {
	e, found := getEntry(h.root, path...)
	if !found || emptyValue(e.Value) {
		if len(path) > 1 {
			if s, ok := getEntry(h.root, path[:len(path)-1]...); ok {
				return def, pos(h.f.Name, s.Key), true
			}
		}
		return def, h.start(), true
	}
	p := norm(strings.TrimSpace(text(e.Value)))
	switch p {
	case "PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL":
		return p, pos(h.f.Name, e.Key), true
	}
	return "", doc.Location{}, false
}

// stringKey reads a scalar key, or def.
func (h *helmValues) stringKey(def string, path ...string) string {
	if e, ok := getEntry(h.root, path...); ok && isScalar(e.Value) && strings.TrimSpace(text(e.Value)) != "" {
		return strings.TrimSpace(text(e.Value))
	}
	return def
}

// listenerSettings are listeners and listener.security.protocol.map as the
// chart writes them, unless ss sets them or an override key writes them
// as a list or text (then that, at its line).
func (h *helmValues) listenerSettings(ss []doc.Setting, listeners, protos string, at doc.Location, origin string, overrideListeners, overrideMap []string) []doc.Setting {
	var out []doc.Setting
	override := func(path []string) (doc.Setting, bool) {
		if path == nil {
			return doc.Setting{}, false
		}
		e, ok := getEntry(h.root, path...)
		if !ok || emptyValue(e.Value) || (isSeq(e.Value) && len(items(e.Value)) == 0) {
			// The chart's own `listeners: []` means its generated ones.
			return doc.Setting{}, false
		}
		v := text(e.Value)
		if isSeq(e.Value) {
			var parts []string
			for _, n := range items(e.Value) {
				parts = append(parts, strings.TrimSpace(text(n)))
			}
			v = strings.Join(parts, ",")
		}
		return doc.Setting{Value: v, Loc: pos(h.f.Name, e.Key), Origin: h.key(path...)}, true
	}
	if !hasKey(ss, "listeners") {
		s, ok := override(overrideListeners)
		if !ok {
			s = doc.Setting{Value: listeners, Loc: at, Origin: origin}
		}
		s.Key = "listeners"
		out = append(out, s)
	}
	if !hasKey(ss, "listener.security.protocol.map") {
		s, ok := override(overrideMap)
		if !ok {
			s = doc.Setting{Value: protos, Loc: at, Origin: origin}
		}
		s.Key = "listener.security.protocol.map"
		out = append(out, s)
	}
	return out
}
