package controls

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// initiatorKeys are the members of a record that name who started an agent's run, in the order they are read.
var initiatorKeys = []string{"initiator", "initiated_by", "requested_by", "started_by"}

// maxInitiators bounds what a hostile record set can make the control hold.
const maxInitiators = 100

// initiator is one person a record in the bundle names as an agent run's initiator.
type initiator struct {
	login, email, name string
	id                 int64
	member             string
	line               int
}

func (i initiator) String() string {
	switch {
	case i.login != "":
		return i.login
	case i.email != "":
		return i.email
	}
	return i.name
}

// initiatorMember is a member whose JSON lines may name an initiator: the tracker records (audit/,
// lineage/*.jsonl) and the lineage v2 child bodies (lineage/v2/children/*.jsonl, the initiator in the payload).
func initiatorMember(name string) bool {
	if recordsMember(name) {
		return true
	}
	rest, ok := strings.CutPrefix(name, "lineage/v2/children/")
	return ok && !strings.Contains(rest, "/") && strings.HasSuffix(rest, ".jsonl")
}

// recordedInitiators reads, once, the initiators the bundle's records name: a JSON object a line with one of
// initiatorKeys at its top or in its "payload" object, whose value is a login ("carol", "@carol"), an address
// ("Carol <carol@example.com>", "carol@example.com") or an object {"login","id","email","name"}. A record with
// a "ticket_id" of another ticket is not read.
func (a *audit) recordedInitiators() []initiator {
	if a.initiators != nil {
		return *a.initiators
	}
	out := []initiator{}
	a.initiators = &out
	var names []string
	for name := range a.in.Members {
		if initiatorMember(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	seen := map[string]bool{}
	for _, name := range names {
		for n, line := range strings.Split(string(a.in.Members[name]), "\n") {
			var rec map[string]json.RawMessage
			if json.Unmarshal([]byte(line), &rec) != nil {
				continue
			}
			var tid string
			if raw, ok := rec["ticket_id"]; ok && a.commits != nil && json.Unmarshal(raw, &tid) == nil && tid != a.commits.TicketID {
				continue
			}
			in, ok := initiatorOf(rec)
			if !ok {
				var payload map[string]json.RawMessage
				if json.Unmarshal(rec["payload"], &payload) == nil {
					in, ok = initiatorOf(payload)
				}
			}
			key := strings.ToLower(in.login + "/" + in.email + "/" + in.name + fmt.Sprint(in.id))
			if !ok || seen[key] || len(out) >= maxInitiators {
				continue
			}
			seen[key] = true
			in.member, in.line = name, n+1
			out = append(out, in)
		}
	}
	return out
}

// initiatorOf reads the first initiator key of a record.
func initiatorOf(rec map[string]json.RawMessage) (initiator, bool) {
	for _, k := range initiatorKeys {
		raw, ok := rec[k]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			s = strings.TrimSpace(s)
			var in initiator
			switch name, email := splitIdent(s); {
			case email != "":
				in.name, in.email = name, email
			case strings.Contains(s, "@") && !strings.HasPrefix(s, "@"):
				in.email = strings.ToLower(s)
			default:
				in.login = strings.TrimPrefix(s, "@")
			}
			if in.String() != "" && len(s) <= 320 {
				return in, true
			}
			continue
		}
		var o struct {
			Login string `json:"login"`
			ID    int64  `json:"id"`
			Email string `json:"email"`
			Name  string `json:"name"`
		}
		if json.Unmarshal(raw, &o) == nil && (o.Login != "" || o.Email != "" || o.ID != 0) && len(o.Login)+len(o.Email)+len(o.Name) <= 640 {
			return initiator{login: strings.TrimPrefix(o.Login, "@"), id: o.ID, email: strings.ToLower(o.Email), name: o.Name}, true
		}
	}
	return initiator{}, false
}

// approximatedInitiator is what the outcome says when no record names the initiator.
const approximatedInitiator = "no record in the bundle names the initiator, taken to be the pull request's author and " +
	"the agent commits' authors and committers"

// addRecordedInitiators puts the recorded initiators among w's initiators, each tied to a GitHub account by
// login, id, a users.noreply.github.com address, or an address one of the pull request's commits was made
// with by a known account. It returns where they came from, and those that could not be tied to an account.
func (a *audit) addRecordedInitiators(p *pull, w *agentWork) (from string, untied []initiator) {
	recs := a.recordedInitiators()
	if len(recs) == 0 {
		return "", nil
	}
	var names, members []string
	seenMember := map[string]bool{}
	for _, in := range recs {
		why := fmt.Sprintf("is the agent's initiator (%s line %d)", in.member, in.line)
		tied := false
		if in.login != "" || in.id != 0 {
			w.initiators.addUser(&ghUser{Login: in.login, ID: in.id}, why)
			tied = true
		}
		if in.email != "" {
			w.initiators.addEmail(in.email, why)
			if login, _ := noreplyLogin(in.email); login != "" {
				tied = true
			}
			for _, c := range p.commits {
				for _, pair := range []struct {
					email string
					u     *ghUser
				}{{c.Commit.Author.Email, c.Author}, {c.Commit.Committer.Email, c.Committer}} {
					if pair.u != nil && strings.EqualFold(pair.email, in.email) && !webFlow(pair.u, pair.email) {
						w.initiators.addUser(pair.u, why)
						tied = true
					}
				}
			}
		}
		if !tied {
			untied = append(untied, in)
		}
		names = append(names, in.String())
		if !seenMember[in.member] {
			seenMember[in.member] = true
			members = append(members, in.member)
		}
	}
	return fmt.Sprintf("the agent's initiator %s, per the records in %s (written in .sdd, not GitHub's answer)",
		strings.Join(names, ", "), strings.Join(members, ", ")), untied
}
