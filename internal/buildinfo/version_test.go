package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	for _, c := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "dev"},
		{"go install @v1.2.0", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, "v1.2.0"},
		{"go build in a clean clone", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: vcs("65e824e0123456789abcdef0123456789abcdef0", "false")}, "65e824e"},
		{"go build with changes", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: vcs("65e824e0123456789abcdef0123456789abcdef0", "true")}, "65e824e-dirty"},
		{"go build, Go 1.24+ pseudo-version", &debug.BuildInfo{
			Main:     debug.Module{Version: "v0.0.0-20261201030154-65e824e01234"},
			Settings: vcs("65e824e0123456789abcdef0123456789abcdef0", "false")}, "65e824e"},
		{"go build, Go 1.24+ pseudo-version, changes", &debug.BuildInfo{
			Main:     debug.Module{Version: "v0.0.0-20261201030154-65e824e01234+dirty"},
			Settings: vcs("65e824e0123456789abcdef0123456789abcdef0", "true")}, "65e824e-dirty"},
		{"go build on a tagged commit", &debug.BuildInfo{Main: debug.Module{Version: "v1.3.0"},
			Settings: vcs("65e824e0123456789abcdef0123456789abcdef0", "false")}, "v1.3.0"},
		{"go test (no stamp)", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
	} {
		if got := fromBuildInfo(c.bi); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
