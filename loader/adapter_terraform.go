package loader

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kafkalint/kafkalint/loader/safefs"
	"github.com/kafkalint/kafkalint/loader/terraform"
)

// terraformAdapter reads Terraform a module directory at a time: every
// .tf, .tf.json, .tfvars and .tfvars.json file of a directory is one module
// (variables, tfvars and locals are shared by its files). MSK clusters and
// configurations become node docs, Kafka topic resources topic docs; files
// that declare no Kafka configuration yield nothing.
var terraformAdapter = &adapter{
	name:   "terraform",
	match:  terraform.IsModuleFile,
	perDir: true,
	load:   loadTerraform,
}

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

func loadTerraform(inputs []Input) []*Doc {
	var out []*Doc
	var files []terraform.File
	for _, in := range inputs {
		data, errDoc := readInput(in)
		if errDoc != nil {
			out = append(out, errDoc)
			continue
		}
		files = append(files, terraform.File{Name: in.Display, Data: data})
	}
	if len(files) == 0 {
		return out
	}
	read, refused := moduleReader(inputs[0])
	res := terraform.Load(files, terraform.Options{ReadFile: read, CommentMarker: directivePrefix})
	out = append(out, terraformDocs(res)...)
	return append(out, refused()...)
}

// moduleReader reads the files a module's file(), templatefile() and
// friends name: inside the module directory (as terraform.DirReader) and
// inside the linted root, regular and bounded (safefs). A missing file
// leaves the value unknown, as before; a refused one (a FIFO, a symlink to
// /proc/self/environ, too large) is also reported, once per file, by the
// docs refused returns.
func moduleReader(in Input) (read func(string) ([]byte, error), refused func() []*Doc) {
	var mu sync.Mutex // whether evaluation calls it concurrently is terraform's business
	reported := map[string]bool{}
	var docs []*Doc
	dir, displayDir := filepath.Dir(in.Path), path.Dir(in.Display)
	read = func(name string) ([]byte, error) {
		clean := path.Clean(filepath.ToSlash(name))
		if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
			return nil, os.ErrPermission
		}
		data, err := in.root.ReadFile(filepath.Join(dir, filepath.FromSlash(clean)))
		if err != nil && safefs.Reason(err) != "" {
			display := path.Join(displayDir, clean)
			mu.Lock()
			if !reported[display] {
				reported[display] = true
				docs = append(docs, &Doc{File: display, Format: "terraform", Err: &Error{File: display, Message: readMessage(err)}})
			}
			mu.Unlock()
		}
		return data, err
	}
	refused = func() []*Doc {
		mu.Lock()
		defer mu.Unlock()
		return docs
	}
	return read, refused
}

// terraformDocs maps a module's Kafka configuration into docs.
func terraformDocs(res *terraform.Result) []*Doc {
	var out []*Doc
	for _, e := range res.Errors {
		out = append(out, &Doc{File: e.File, Format: "terraform", Err: &Error{File: e.File, Line: e.Line, Message: e.Message}})
	}
	comments := func(file string) []Comment {
		var cs []Comment
		for _, c := range res.Comments[file] {
			cs = append(cs, Comment{Line: c.Line, Text: c.Text, Trailing: c.Trailing})
		}
		return cs
	}
	for _, b := range res.Brokers {
		if b.PropertiesErr != nil {
			e := b.PropertiesErr
			out = append(out, &Doc{File: e.File, Format: "terraform", Err: &Error{File: e.File, Line: e.Line, Message: b.Address + ": " + e.Message}})
			continue
		}
		d := &Doc{
			Kind: KindNode, Format: "terraform", File: b.File, Name: b.Address, Loc: tfLocation(b.Pos),
			Group: b.Group, QuorumManaged: true, ManagedKeys: slices.Clone(mskManagedKeys), Comments: comments(b.File),
		}
		origin := b.Source
		if b.Configuration != "" {
			origin = b.Configuration
		}
		d.Settings, d.Duplicates = tfSettings(b.Properties, origin+" server properties")
		for _, a := range b.Attributes {
			d.Platform = append(d.Platform, RawSetting{Key: a.Key, Value: a.Value, Loc: tfLocation(a.Pos), Unknown: a.Unknown, Expr: a.Expr, Origin: b.Source, Sensitive: a.Sensitive})
		}
		if b.BrokerCount != nil {
			c := &Count{Value: b.BrokerCount.Value, Text: b.BrokerCount.Text, Source: b.BrokerCount.Source, Loc: tfLocation(b.BrokerCount.Pos)}
			d.BrokerCount, d.Replicas = c, c
		}
		if v := b.KafkaVersion; v != nil && !v.Unknown {
			d.KafkaVersion = &Count{Text: v.Text, Source: b.Source + " kafka_version", Loc: tfLocation(v.Pos)}
		}
		setTerraformEnvironment(d, b.Environment)
		out = append(out, d)
	}
	// A topic on an MSK cluster of the module is in that cluster's
	// environment unless the topic's own module says otherwise.
	groupEnv := map[string]*terraform.Value{}
	for _, b := range res.Brokers {
		if b.Environment != nil {
			groupEnv[b.Group] = b.Environment
		}
	}
	for _, t := range res.Topics {
		if t.Environment == nil {
			t.Environment = groupEnv[t.Group]
		}
		d := &Doc{
			Kind: KindTopic, Format: "terraform", File: t.File, Name: t.Address, Loc: tfLocation(t.Pos),
			Group: t.Group, Comments: comments(t.File),
		}
		d.Settings, d.Duplicates = tfSettings(t.Config, t.Source+" config")
		topic := &Topic{Name: t.Name.Text, Loc: tfLocation(t.Pos), ConfigUnknown: t.Config.Incomplete}
		if t.Name.Unknown {
			topic.Name = "${" + t.Name.Text + "}"
		}
		if v := t.ReplicationFactor; v != nil {
			source, origin := SourceExplicit, t.Source+" replication factor"
			if t.RFFixed {
				source, origin = SourcePlatform, "Confluent Cloud (every topic has replication factor "+v.Text+")"
			}
			topic.ReplicationFactor = tfSetting("replication.factor", v, "int", source, origin)
		}
		if v := t.Partitions; v != nil {
			topic.Partitions = tfSetting("partitions", v, "int", SourceExplicit, t.Source+" partitions")
		}
		d.Topic = topic
		setTerraformEnvironment(d, t.Environment)
		out = append(out, d)
	}
	return out
}

func tfLocation(p terraform.Pos) Location {
	return Location{File: p.File, Line: p.Line, Column: p.Column}
}

func tfSettings(p terraform.Properties, origin string) ([]RawSetting, []Duplicate) {
	var settings []RawSetting
	for _, e := range p.Entries {
		settings = append(settings, RawSetting{Key: e.Key, Value: e.Value, Loc: tfLocation(e.Pos), Unknown: e.Unknown, Expr: e.Expr, Origin: origin, Sensitive: e.Sensitive})
	}
	var dups []Duplicate
	for _, dup := range p.Duplicates {
		prev := make([]Location, 0, len(dup.Previous))
		for _, pp := range dup.Previous {
			prev = append(prev, tfLocation(pp))
		}
		dups = append(dups, Duplicate{Key: dup.Key, Loc: tfLocation(dup.Pos), Previous: prev})
	}
	return settings, dups
}

// tfSetting types a scalar attribute; an unknown one keeps its expression.
func tfSetting(key string, v *terraform.Value, typ, source, origin string) *Setting {
	if v.Unknown {
		s := &Setting{Key: key, Raw: "${" + v.Text + "}", Type: typ, Unknown: true, Source: source, Loc: tfLocation(v.Pos)}
		s.setOrigin(origin)
		return s
	}
	s := newSetting(key, v.Text, typ, source, tfLocation(v.Pos))
	s.setOrigin(origin)
	s.Sensitive = s.Sensitive || v.Sensitive
	return s
}

// setTerraformEnvironment takes the environment a tag or an
// environment/env variable names, when its value is an environment word.
func setTerraformEnvironment(d *Doc, v *terraform.Value) {
	if v == nil || v.Unknown {
		return
	}
	if env := environmentWord(v.Text); env != "" {
		d.Environment = env
		d.EnvironmentFrom = v.Pos.File + ":" + strconv.Itoa(v.Pos.Line)
	}
}

// environmentWord maps a value such as "prod", "Production" or "eu-prod" to
// the environment it names ("" when none).
func environmentWord(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if e, ok := envWords[s]; ok {
		return e
	}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ' ' || r == '/' })
	for i := len(parts) - 1; i >= 0; i-- {
		if e, ok := envWords[parts[i]]; ok {
			return e
		}
	}
	return ""
}
