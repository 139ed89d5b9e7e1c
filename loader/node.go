package loader

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kafkalint/kafkalint/loader/catalog"
	"github.com/kafkalint/kafkalint/loader/properties"
)

// buildNode derives a node's structure (roles, id, quorum, listeners) from
// its raw settings. Settings are typed later, per cluster.
func buildNode(r *Doc) *Node {
	n := &Node{File: r.File, Environment: r.env, Loc: r.Loc, Mode: "zookeeper", Roles: []string{}, Replicas: r.Replicas, ManagedKeys: nonNil(r.ManagedKeys),
		WholeConfiguration: r.wholeConfiguration()}
	for _, s := range r.Ignored {
		ignored := &Setting{Key: s.Key, Raw: s.Value, Type: "string", Source: SourceExplicit, Loc: s.Loc, Sensitive: s.Sensitive}
		ignored.setOrigin(s.Origin)
		// Typed as text (Kafka never reads it), but a secret all the same.
		ignored.SecretKey = IsSecretKey(s.Key, typeOf(catalog.Newest(), []string{catalog.Broker}, s.Key))
		ignored.Sensitive = ignored.Sensitive || ignored.SecretKey
		n.IgnoredSettings = append(n.IgnoredSettings, ignored)
	}
	if s, ok := r.get("process.roles"); ok && strings.TrimSpace(s.Value) != "" {
		n.Mode = "kraft"
		if isPlaceholder(s.Value) {
			n.Mode = "unknown"
		} else {
			n.Roles = splitList(s.Value)
		}
	}
	switch n.Mode {
	case "kraft":
		n.IsBroker = slices.Contains(n.Roles, "broker")
		n.IsController = slices.Contains(n.Roles, "controller")
	case "zookeeper":
		n.IsBroker = true
	}
	for _, key := range []string{"node.id", "broker.id"} {
		if s, ok := r.get(key); ok {
			if id, err := strconv.Atoi(strings.TrimSpace(s.Value)); err == nil {
				n.ID = &id
				break
			}
		}
	}
	if len(r.Platform) > 0 {
		n.Platform = make(map[string]*Setting, len(r.Platform))
		for _, p := range r.Platform {
			s := newSetting(p.Key, p.Value, inferType(p.Value), SourceExplicit, p.Loc)
			if p.Unknown {
				s.Value, s.Unknown, s.Invalid = nil, true, ""
				s.Raw = cmpOr(p.Expr, p.Value)
			}
			s.setOrigin(p.Origin)
			s.Sensitive = s.Sensitive || p.Sensitive
			n.Platform[p.Key] = s
		}
	}
	n.Quorum = buildQuorum(r)
	if r.QuorumManaged && n.Quorum.Mode == "none" {
		n.Quorum.Mode = "managed"
	}
	n.ControllerListenerNames = []string{}
	if s, ok := r.get("controller.listener.names"); ok && !isPlaceholder(s.Value) {
		n.ControllerListenerNames = splitList(s.Value)
	}
	protocols, known := protocolMap(r, n.ControllerListenerNames, n.Mode != "zookeeper")
	n.ProtocolMap, n.ProtocolMapUnknown = protocols, !known
	n.Listeners = parseListeners(r, "listeners", protocols)
	n.Advertised = parseListeners(r, "advertised.listeners", protocols)
	return n
}

// splitList splits a Kafka LIST value: comma-separated, entries trimmed,
// blank entries dropped.
func splitList(v string) []string {
	out := []string{}
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func buildQuorum(r *Doc) Quorum {
	q := Quorum{Mode: "none", Voters: []Voter{}, BootstrapServers: []Endpoint{}}
	// A key counts as set when it holds at least one entry (or an unknown
	// placeholder); "" or "," configure nothing, as in Kafka.
	voters, hasVoters := r.get("controller.quorum.voters")
	hasVoters = hasVoters && (isPlaceholder(voters.Value) || len(splitList(voters.Value)) > 0)
	boot, hasBoot := r.get("controller.quorum.bootstrap.servers")
	hasBoot = hasBoot && (isPlaceholder(boot.Value) || len(splitList(boot.Value)) > 0)
	switch {
	case hasVoters && hasBoot:
		q.Mode = "both"
	case hasVoters:
		q.Mode = "static"
	case hasBoot:
		q.Mode = "dynamic"
	}
	if hasVoters && !isPlaceholder(voters.Value) {
		for _, e := range splitList(voters.Value) {
			q.Voters = append(q.Voters, parseVoter(e, voters.Loc))
		}
	}
	if hasBoot && !isPlaceholder(boot.Value) {
		for _, e := range splitList(boot.Value) {
			if ep, err := parseHostPort(e); err == "" {
				ep.Loc = boot.Loc
				q.BootstrapServers = append(q.BootstrapServers, ep)
			}
		}
	}
	return q
}

// validHost holds for the host syntax Kafka accepts in quorum entries
// (QuorumConfig) and listeners (SocketServerConfigs.URI_PARSE_REGEXP):
// [0-9a-zA-Z\-%._:]*. A loop, not a regexp: it checks every listener and
// voter entry (the regexps were 3 % of a lint's instructions).
func validHost(host string) bool {
	for i := range len(host) {
		if !hostChar(host[i]) {
			return false
		}
	}
	return true
}

func hostChar(c byte) bool {
	switch {
	case '0' <= c && c <= '9', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		return true
	}
	return c == '-' || c == '%' || c == '.' || c == '_' || c == ':'
}

// parseVoter parses `{id}@{host}:{port}` (IPv6 hosts in brackets) with the
// checks of QuorumConfig.parseVoterConnections.
func parseVoter(e string, loc Location) Voter {
	v := Voter{Raw: e, Loc: loc}
	parts := strings.Split(e, "@")
	if len(parts) != 2 {
		v.Error = "entry is not in the form {id}@{host}:{port}"
		return v
	}
	id, err := strconv.Atoi(strings.TrimSpace(parts[0]))
	if err != nil {
		v.Error = fmt.Sprintf("voter id %s is not an integer", properties.Quote(parts[0]))
		return v
	}
	ep, msg := parseHostPort(parts[1])
	if msg != "" {
		v.Error = msg
		return v
	}
	v.ID, v.Host, v.Port = id, ep.Host, ep.Port
	return v
}

// parseHostPort parses host:port or [ipv6]:port. It returns a message when
// the entry is malformed.
func parseHostPort(s string) (Endpoint, string) {
	ep := Endpoint{Raw: s}
	i := strings.LastIndex(s, ":")
	if i < 0 {
		return ep, properties.Quote(s) + " has no port"
	}
	host, portText := s[:i], s[i+1:]
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if !validHost(host) {
		return ep, properties.Quote(host) + " is not a valid host name"
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 {
		return ep, fmt.Sprintf("port %s is not a number", properties.Quote(portText))
	}
	if port > 65535 {
		return ep, fmt.Sprintf("port %d is out of range", port)
	}
	ep.Host, ep.Port = host, port
	return ep, ""
}

var securityProtocols = []string{"PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"}

// protocolMap returns the effective listener.security.protocol.map exactly
// as Kafka computes it (AbstractKafkaConfig.effectiveListenerSecurityProtocolMap
// in 4.x, KafkaConfig.effectiveListenerSecurityProtocolMap in 3.x): the
// explicit map when the key is written, its names upper-cased
// (ListenerName.normalised); otherwise each protocol maps to itself and, in
// KRaft, every controller listener name except PLAINTEXT maps to PLAINTEXT
// unless a controller listener name or a name in listeners (advertised
// listeners do not count) is SSL, SASL_SSL or SASL_PLAINTEXT. Kafka compares
// controller listener names with those protocol names as written and adds
// them to the map as written (new ListenerName(name), not normalised), so a
// lower-case controller name gets a lower-case entry that an upper-cased
// lookup never finds. Not known (an empty map) when the explicit map is a
// placeholder, or when the platform sets the key and the source does not
// show it (the implicit map is then not what runs).
func protocolMap(r *Doc, controllerNames []string, kraft bool) (protocols map[string]string, known bool) {
	m := map[string]string{}
	s, ok := r.get("listener.security.protocol.map")
	switch {
	case ok && (s.Unknown || isPlaceholder(s.Value)), !ok && slices.Contains(r.ManagedKeys, "listener.security.protocol.map"):
		return m, false
	case ok:
		for _, e := range splitList(s.Value) {
			name, proto, ok := strings.Cut(e, ":")
			if ok {
				m[strings.ToUpper(strings.TrimSpace(name))] = strings.TrimSpace(proto)
			}
		}
		return m, true
	}
	for _, p := range securityProtocols {
		m[p] = p
	}
	if !kraft {
		return m, true
	}
	sslOrSasl := func(name string) bool { return name != "PLAINTEXT" && slices.Contains(securityProtocols, name) }
	for _, n := range controllerNames {
		if sslOrSasl(n) {
			return m, true
		}
	}
	if s, ok := r.get("listeners"); ok && !isPlaceholder(s.Value) {
		for _, e := range splitList(s.Value) {
			name, _, _ := strings.Cut(e, ":")
			if sslOrSasl(strings.ToUpper(name)) {
				return m, true
			}
		}
	}
	for _, n := range controllerNames {
		if n != "PLAINTEXT" {
			m[n] = "PLAINTEXT"
		}
	}
	return m, true
}

// wholeConfiguration holds for a doc that is all Kafka reads: a properties
// file, not a Jinja template the file Kafka reads is rendered from.
func (r *Doc) wholeConfiguration() bool {
	return r.Format == "properties" && !r.Template
}

// matchListener splits a listener entry as Kafka's listener pattern
// (SocketServerConfigs.URI_PARSE_REGEXP, matched whole) does:
// ^(.*)://\[?([0-9a-zA-Z\-%._:]*)\]?:(-?\d+)$, as a Go regexp, whose "."
// takes anything but a newline (TestMatchListenerAsRegexp keeps the
// regexp as the oracle). Only the
// last "://" can end the name: the rest of the pattern takes no "/". The
// port follows the last ":" (the host takes ":", the port no ":"), and the
// host is what lies between, without one leading "[" and one trailing "]".
func matchListener(e string) (name, host, port string, ok bool) {
	i := strings.LastIndex(e, "://")
	if i < 0 || strings.IndexByte(e[:i], '\n') >= 0 {
		return "", "", "", false
	}
	rest := e[i+len("://"):]
	k := strings.LastIndexByte(rest, ':')
	if k < 0 || !isPort(rest[k+1:]) {
		return "", "", "", false
	}
	host = strings.TrimSuffix(strings.TrimPrefix(rest[:k], "["), "]")
	if !validHost(host) {
		return "", "", "", false
	}
	return e[:i], host, rest[k+1:], true
}

// isPort holds for -?[0-9]+.
func isPort(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func parseListeners(r *Doc, key string, protocols map[string]string) []Listener {
	out := []Listener{}
	s, ok := r.get(key)
	if !ok || isPlaceholder(s.Value) {
		return out
	}
	for _, e := range splitList(s.Value) {
		l := Listener{Raw: e, Loc: s.Loc}
		name, host, port, ok := matchListener(e)
		if !ok {
			l.Error = fmt.Sprintf("unable to parse %s to a broker endpoint", properties.Quote(e))
			out = append(out, l)
			continue
		}
		l.Name = strings.ToUpper(name)
		l.Host = host
		l.Port, _ = strconv.Atoi(port)
		l.Protocol = protocols[l.Name]
		out = append(out, l)
	}
	return out
}

// inferType types a platform attribute, which no Kafka catalog describes.
func inferType(v string) string {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "false":
		return "boolean"
	}
	if _, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
		return "long"
	}
	return "string"
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
