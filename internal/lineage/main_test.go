package lineage

import (
	"fmt"
	"os"
	"strconv"
	"testing"
)

const writerEnv = "LINEAGE_TEST_WRITER" // set when this binary is re-executed as a concurrent writer

func TestMain(m *testing.M) {
	if spec := os.Getenv(writerEnv); spec != "" {
		os.Exit(runWriter(spec))
	}
	os.Exit(m.Run())
}

// runWriter appends N records for one task to a store: "<root> <task> <n>".
func runWriter(spec string) int {
	var root, task string
	var n int
	if _, err := fmt.Sscan(spec, &root, &task, &n); err != nil {
		fmt.Fprintln(os.Stderr, "bad writer spec:", err)
		return 2
	}
	s := Open(root, PublicKey())
	for i := 0; i < n; i++ {
		ref, _, err := s.Append(
			ParentRef{V: Version, TaskID: task, ChildRunID: "run-" + strconv.Itoa(i), TsNs: int64(i + 1)},
			ChildBody{V: Version, TaskID: task, ChildRunID: "run-" + strconv.Itoa(i), Kind: "k", Payload: map[string]any{"i": i}, TsNs: int64(i + 1)})
		if err == nil {
			_, err = s.AppendBody(ref.ChildSHA, ChildBody{V: Version, TaskID: task, ChildRunID: "run-" + strconv.Itoa(i), Kind: "done", TsNs: int64(i + 1)})
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}
