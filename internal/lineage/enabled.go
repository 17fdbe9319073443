package lineage

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/git-bernstein/git-bernstein/internal/regularfile"
)

// EnableEnv turns lineage v2 on (1 or true) or off (anything else) whatever bernstein.yaml says.
const EnableEnv = "BERNSTEIN_LINEAGE_V2"

// ProjectFile is the project's own configuration file, in the project root.
const ProjectFile = "bernstein.yaml"

// Enabled says whether the project writes lineage v2, as the Bernstein docs enable it: BERNSTEIN_LINEAGE_V2 when
// set, else `lineage: {version: 2}` in <project root>/bernstein.yaml (projectRoot "": none). It is read here,
// by the commands that pack or record lineage, and not with the other settings (package settings): its YAML
// reader's start-up (its regular expressions and tables) would otherwise cost every run of the front.
func Enabled(projectRoot string, getenv func(string) string) (bool, error) {
	if v := getenv(EnableEnv); v != "" {
		return v == "1" || strings.EqualFold(v, "true"), nil
	}
	if projectRoot == "" {
		return false, nil
	}
	path := filepath.Join(projectRoot, ProjectFile)
	// Read without blocking and bounded: a FIFO or /dev/zero here would otherwise hang or exhaust the hook.
	data, err := regularfile.ReadFile(path, "Bernstein configuration", 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var cfg struct {
		Lineage struct {
			Version any `yaml:"version"`
		} `yaml:"lineage"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		return false, fmt.Errorf("parse %s: %w (fix the YAML, or set %s=0 to ignore it)", path, err, EnableEnv)
	}
	return fmt.Sprint(cfg.Lineage.Version) == "2", nil
}
