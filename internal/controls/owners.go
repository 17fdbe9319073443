package controls

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// TeamName is GET /orgs/{org}/teams/{slug}/members, every page joined into one array, for a team a captured
// CODEOWNERS file names (@org/slug); or, when GitHub answered 403 or 404 (the token may not read the team),
// {"not_readable":<status>,"message":<GitHub's message>}: pr/team_<org>_<slug>.json (an organisation's name
// has no "_", so the first one after "team_" ends it).
func TeamName(org, slug string) string {
	return "pr/team_" + url.PathEscape(strings.ToLower(org)) + "_" + url.PathEscape(strings.ToLower(slug)) + ".json"
}

// teamOwner reads "@org/slug".
var teamOwner = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^@([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))/([A-Za-z0-9._-]{1,100})$`)
})

// CodeOwnersTeams lists the teams (org, slug) a CODEOWNERS text names as owners, in file order, each once.
func CodeOwnersTeams(text string) [][2]string {
	var out [][2]string
	seen := map[string]bool{}
	for _, r := range parseCodeOwners(text).rules {
		for _, o := range r.owners {
			m := teamOwner().FindStringSubmatch(o)
			if m == nil || seen[strings.ToLower(o)] {
				continue
			}
			seen[strings.ToLower(o)] = true
			out = append(out, [2]string{m[1], m[2]})
		}
	}
	return out
}

// ownerVerdict says whether an owner approved: yes, no, or not known with why.
type ownerVerdict struct {
	approved bool
	unknown  string
}

// ownerApproved judges one CODEOWNERS owner against the approvers (counted approvals, the initiator aside):
// a user by login; a team by the members captured in pr/team_<org>_<slug>.json; an e-mail address by the
// GitHub account it belongs to (GitHub's noreply address, or an account the pull requests' commits were made
// with under that address).
func (a *audit) ownerApproved(owner string, by []string) ownerVerdict {
	approvers := map[string]bool{}
	for _, b := range by {
		approvers[strings.ToLower(b)] = true
	}
	if m := teamOwner().FindStringSubmatch(owner); m != nil {
		name := TeamName(m[1], m[2])
		data, ok := a.in.Members[name]
		if !ok {
			return ownerVerdict{unknown: fmt.Sprintf("the members of team %s were not captured (%s; bundle --controls reads them "+
				"when the token may read the organisation's teams)", owner, name)}
		}
		if why := a.offline[name]; why != "" {
			return ownerVerdict{unknown: name + " is not evidence: " + why}
		}
		var nr struct {
			NotReadable int    `json:"not_readable"`
			Message     string `json:"message"`
		}
		if json.Unmarshal(data, &nr) == nil && nr.NotReadable != 0 {
			return ownerVerdict{unknown: fmt.Sprintf("the members of team %s were not readable (GitHub answered %d: %s; %s)", owner,
				nr.NotReadable, nr.Message, name)}
		}
		var members []ghUser
		if err := decode(name, data, &members); err != nil {
			return ownerVerdict{unknown: err.Error()}
		}
		for _, u := range members {
			if approvers[strings.ToLower(u.Login)] {
				return ownerVerdict{approved: true}
			}
		}
		return ownerVerdict{}
	}
	if login, ok := strings.CutPrefix(owner, "@"); ok {
		return ownerVerdict{approved: approvers[strings.ToLower(login)]}
	}
	if strings.Contains(owner, "@") {
		logins := a.accountsOf(owner)
		for _, l := range logins {
			if approvers[l] {
				return ownerVerdict{approved: true}
			}
		}
		if len(logins) == 0 {
			return ownerVerdict{unknown: fmt.Sprintf("e-mail owner %s is tied to no GitHub account the bundle knows (no noreply "+
				"address, no commit made with it by an account)", owner)}
		}
		return ownerVerdict{}
	}
	return ownerVerdict{unknown: fmt.Sprintf("owner %q is neither a user, a team nor an e-mail address", owner)}
}

// accountsOf is the GitHub logins (lower-case) an e-mail address belongs to, as far as the bundle tells: the
// login of GitHub's noreply address, and the accounts GitHub tied to commits made with it in the captured pull
// requests.
func (a *audit) accountsOf(email string) []string {
	email = strings.ToLower(strings.TrimSpace(email))
	set := map[string]bool{}
	if login, _ := noreplyLogin(email); login != "" {
		set[login] = true
	}
	for _, p := range a.prs {
		for _, c := range p.commits {
			if strings.EqualFold(c.Commit.Author.Email, email) && c.Author != nil && c.Author.Login != "" {
				set[strings.ToLower(c.Author.Login)] = true
			}
			if strings.EqualFold(c.Commit.Committer.Email, email) && c.Committer != nil && c.Committer.Login != "" &&
				!webFlow(c.Committer, c.Commit.Committer.Email) {
				set[strings.ToLower(c.Committer.Login)] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for l := range set {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}
