package ticket

import (
	"regexp"
	"strings"
	"sync"
)

// KeyPattern is the shape of a Jira or Linear key (ENG-42): an upper-case project key, "-", a number.
const KeyPattern = `[A-Z][A-Z0-9]+-[0-9]+`

// LooksLikeKey says whether id, in any case, has the shape of a Jira or Linear key: filed under github (numbers),
// such an id probably means the tracker was left at its default.
func LooksLikeKey(id string) bool { return wholeKey().MatchString(strings.ToUpper(id)) }

// wholeKey is KeyPattern as the whole of a string, compiled on first use (start-up compiles no regexp).
var wholeKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^` + KeyPattern + `$`) })
