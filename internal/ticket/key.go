package ticket

import (
	"regexp"
	"strings"
)

// KeyPattern is the shape of a Jira or Linear key (ENG-42): an upper-case project key, "-", a number.
const KeyPattern = `[A-Z][A-Z0-9]+-[0-9]+`

// LooksLikeKey says whether id, in any case, has the shape of a Jira or Linear key: filed under github (numbers),
// such an id probably means the tracker was left at its default.
func LooksLikeKey(id string) bool {
	return regexp.MustCompile(`^` + KeyPattern + `$`).MatchString(strings.ToUpper(id))
}
