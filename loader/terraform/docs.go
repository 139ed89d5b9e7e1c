package terraform

import (
	"slices"
	"strconv"

	"github.com/kafkalint/kafkalint/loader/doc"
)

// mskManagedKeys are the broker keys Amazon MSK sets itself: keys a custom
// MSK configuration cannot set (listeners, identities, storage, security
// plumbing, the controller quorum, controlled shutdown), and keys whose
// value, when server_properties leaves them out, is MSK's own default
// rather than Kafka's (MSK's default configuration: the replication
// factors and min.insync.replicas follow the number of Availability Zones,
// and auto.create.topics.enable, unclean.leader.election.enable,
// num.network.threads, num.replica.fetchers and
// allow.everyone.if.no.acl.found differ from Kafka's defaults). Rules treat
// Kafka's default for these keys as unknown on MSK.
var mskManagedKeys = []string{
	"advertised.listeners", "allow.everyone.if.no.acl.found", "authorizer.class.name", "auto.create.topics.enable",
	"broker.id", "broker.rack", "controlled.shutdown.enable", "controller.listener.names",
	"controller.quorum.bootstrap.servers", "controller.quorum.voters", "default.replication.factor",
	"inter.broker.listener.name", "listener.security.protocol.map", "listeners", "log.dir", "log.dirs",
	"metadata.log.dir", "min.insync.replicas", "node.id", "num.network.threads", "num.replica.fetchers",
	"offsets.topic.replication.factor", "process.roles", "sasl.enabled.mechanisms",
	"sasl.mechanism.inter.broker.protocol", "security.inter.broker.protocol", "super.users",
	"transaction.state.log.min.isr", "transaction.state.log.replication.factor", "unclean.leader.election.enable",
	"zookeeper.connect",
}

// Docs are the module's Kafka configuration as docs: an error doc per
// file or text that cannot be read, a node doc per MSK broker fleet (the
// platform runs the quorum and sets mskManagedKeys), a topic doc per
// topic. A doc's EnvHints hold the environment tag or variable of its
// cluster; a topic without one takes its MSK cluster's.
func (r *Result) Docs() []doc.Doc {
	var out []doc.Doc
	for _, e := range r.Errors {
		out = append(out, doc.Doc{File: e.File, Format: "terraform", Err: e})
	}
	for _, b := range r.Brokers {
		if e := b.PropertiesErr; e != nil {
			failed := *e
			failed.Message = b.Address + ": " + e.Message
			out = append(out, doc.Doc{File: e.File, Format: "terraform", Err: &failed})
			continue
		}
		d := doc.Doc{
			Kind: doc.KindNode, Format: "terraform", File: b.File, Name: b.Address, Loc: b.Loc,
			Group: b.Group, QuorumManaged: true, ManagedKeys: slices.Clone(mskManagedKeys), Comments: r.Comments[b.File],
			EnvHints: envHints(b.Environment), Sources: slices.Clone(b.Sources),
		}
		origin := b.Source
		if b.Configuration != "" {
			origin = b.Configuration
		}
		d.Settings, d.Duplicates = settings(b.Properties, origin+" server properties"), b.Properties.Duplicates
		for _, a := range b.Attributes {
			a.Origin = b.Source
			d.Platform = append(d.Platform, a)
		}
		if b.BrokerCount != nil {
			c := *b.BrokerCount
			d.BrokerCount, d.Replicas = &c, &c
		}
		if v := b.KafkaVersion; v != nil && !v.Unknown {
			d.KafkaVersion = &doc.Count{Text: v.Text, Source: b.Source + " kafka_version", Loc: v.Loc}
		}
		out = append(out, d)
	}
	// A topic on an MSK cluster of the module is in that cluster's
	// environment unless the topic's own module says otherwise.
	groupEnv := map[string]*Value{}
	for _, b := range r.Brokers {
		if b.Environment != nil {
			groupEnv[b.Group] = b.Environment
		}
	}
	for _, t := range r.Topics {
		env := t.Environment
		if env == nil {
			env = groupEnv[t.Group]
		}
		d := doc.Doc{
			Kind: doc.KindTopic, Format: "terraform", File: t.File, Name: t.Address, Loc: t.Loc,
			Group: t.Group, Comments: r.Comments[t.File], EnvHints: envHints(env), Sources: slices.Clone(t.Sources),
		}
		d.Settings, d.Duplicates = settings(t.Config, t.Source+" config"), t.Config.Duplicates
		topic := &doc.Topic{Name: t.Name.Text, Loc: t.Loc, ConfigUnknown: t.Config.Incomplete}
		if t.Name.Unknown {
			topic.Name = "${" + t.Name.Text + "}"
		}
		if v := t.ReplicationFactor; v != nil {
			origin := t.Source + " replication factor"
			if t.RFFixed {
				origin = "Confluent Cloud (every topic has replication factor " + v.Text + ")"
			}
			topic.ReplicationFactor, topic.FixedReplication = v.setting("replication.factor", origin), t.RFFixed
		}
		if v := t.Partitions; v != nil {
			topic.Partitions = v.setting("partitions", t.Source+" partitions")
		}
		d.Topic = topic
		out = append(out, d)
	}
	return out
}

// settings are p's entries, each with origin.
func settings(p Properties, origin string) []doc.Setting {
	var out []doc.Setting
	for _, e := range p.Entries {
		e.Origin = origin
		out = append(out, e)
	}
	return out
}

// setting is v as the setting key; an unknown one is written
// ${expression}.
func (v *Value) setting(key, origin string) *doc.Setting {
	s := &doc.Setting{Key: key, Value: v.Text, Loc: v.Loc, Origin: origin, Sensitive: v.Sensitive}
	if v.Unknown {
		s.Value, s.Unknown, s.Expr = "${"+v.Text+"}", true, v.Text
	}
	return s
}

// envHints is the environment tag or variable v, when known.
func envHints(v *Value) []doc.EnvHint {
	if v == nil || v.Unknown {
		return nil
	}
	return []doc.EnvHint{{Value: v.Text, From: v.Loc.File + ":" + strconv.Itoa(v.Loc.Line)}}
}
