package verify

import "testing"

// A record's chain members are read by exact name, as Python's json.loads and package lineage read them: a
// case twin is another member, a payload's members are user data, the last of two alike counts.
func TestReadChainRecord(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		line string
		want chainRecord
	}{
		{`{"hmac":"h","prev_hmac":"p","task_id":"T","child_sha":"c"}`, chainRecord{HMAC: "h", PrevHMAC: "p", TaskID: "T", ChildSHA: "c"}},
		{`{"HMAC":"forged","hmac":"h"}`, chainRecord{HMAC: "h"}},
		{`{"hmac":"h","HMAC":"forged","Hmac":"f2"}`, chainRecord{HMAC: "h"}},
		{"{\"ta\u017fk_id\":\"X\",\"task_id\":\"T\"}", chainRecord{TaskID: "T"}},
		{`{"task_id":"T","ta\u017fk_id":"X"}`, chainRecord{TaskID: "T"}},
		{`{"hmac":"a","hmac":"b"}`, chainRecord{HMAC: "b"}},
		{`{"hmac":"h","payload":{"Name":1,"name":2,"hmac":"inner"}}`, chainRecord{HMAC: "h"}},
		{`{"hmac":7}`, chainRecord{}},
		{`{"hmac":"h"} {"hmac":"x"}`, chainRecord{}},
		{`["hmac","h"]`, chainRecord{}},
		{`{"hmac":"h"`, chainRecord{}},
	} {
		if got := readChainRecord([]byte(c.line)); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.line, got, c.want)
		}
	}
}
