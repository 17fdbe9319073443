package inbrowser

import (
	"encoding/json"
	"testing"

	"github.com/git-bernstein/git-bernstein/internal/verify"
)

// TestCheckMatchesVerify: the browser entry point answers as the verifier does, with its JSON byte for byte.
func TestCheckMatchesVerify(t *testing.T) {
	cases := []struct {
		name      string
		archive   []byte
		sig       []byte
		cards     []Card
		verdict   string
		firstFail string
	}{
		{"empty archive", nil, nil, nil, verify.Unverifiable, verify.CheckArchive},
		{"not gzip", []byte("hello"), []byte("x..y"), nil, verify.Unverifiable, verify.CheckArchive},
		{"bad card", []byte("hello"), nil, []Card{{Name: "card.json", Data: []byte("{}")}}, verify.Unverifiable, verify.CheckTrust},
		{"huge card", nil, nil, []Card{{Name: "big.json", Data: make([]byte, 1<<20)}}, verify.Unverifiable, verify.CheckTrust},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var res Result
			if err := json.Unmarshal(Check(tc.archive, tc.sig, tc.cards), &res); err != nil {
				t.Fatal(err)
			}
			var rep verify.Report
			if err := json.Unmarshal([]byte(res.Report), &rep); err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != tc.verdict || rep.FirstFailure() != tc.firstFail || res.Means == "" || res.NotMeans == "" {
				t.Errorf("%+v / %+v", rep, res)
			}
			if res.Text == "" || res.Text[len(res.Text)-1] != '\n' {
				t.Errorf("text %q", res.Text)
			}
		})
	}
}
