package recall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// WorkspacePath is the workspace file under a project root.
const WorkspacePath = ".guild/workspace.json"

// WorkspaceSchema is the schema_version a workspace file must carry.
const WorkspaceSchema = "guild.workspace.v1"

// SubGuild is one registered sub-guild of a workspace.
type SubGuild struct {
	// Name tags the chunks recalled from it.
	Name string `json:"name"`
	// Path is the sub-guild root relative to the workspace root.
	Path string `json:"path"`
}

type workspaceFile struct {
	SchemaVersion string     `json:"schema_version"`
	SubGuilds     []SubGuild `json:"sub_guilds"`
}

// LoadWorkspace reads root/.guild/workspace.json (none: nil, nil). Unknown
// keys, a missing name or path, duplicate names, and paths that are absolute
// or climb out of the root are errors naming the file.
func LoadWorkspace(root string) ([]SubGuild, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(WorkspacePath)))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("%s: %w", WorkspacePath, err)
	}
	var w workspaceFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		line := 1
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line = bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n")) + 1
		}
		return nil, fmt.Errorf("%s:%d: %v", WorkspacePath, line, err)
	}
	if w.SchemaVersion != WorkspaceSchema {
		return nil, fmt.Errorf("%s: schema_version %q, want %q", WorkspacePath, w.SchemaVersion, WorkspaceSchema)
	}
	seen := map[string]bool{}
	for i, s := range w.SubGuilds {
		clean := path.Clean(strings.ReplaceAll(s.Path, "\\", "/"))
		switch {
		case s.Name == "" || s.Path == "":
			return nil, fmt.Errorf("%s: sub_guilds[%d] needs a name and a path", WorkspacePath, i)
		case seen[s.Name]:
			return nil, fmt.Errorf("%s: sub_guilds[%d]: duplicate name %q", WorkspacePath, i, s.Name)
		case path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") || clean == ".":
			return nil, fmt.Errorf("%s: sub_guilds[%d]: path %q must be a directory inside the workspace", WorkspacePath, i, s.Path)
		}
		seen[s.Name] = true
		w.SubGuilds[i].Path = clean
	}
	return w.SubGuilds, nil
}
