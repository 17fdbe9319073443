package apply

import "testing"

// TestMboxFrom: the lines git mailsplit cuts a series at (mailsplit.c is_from_line), and lines it does not.
func TestMboxFrom(t *testing.T) {
	for l, want := range map[string]bool{
		"From 3b86b12fa6e30f236fb4f8963239542453b98f76 Mon Sep 17 00:00:00 2001\n": true,
		"From evil Mon Sep 17 00:00:00 2001\n":                                     true,
		"From someone Thu Jan  1 00:00:00 1970\n":                                  true, // strtol gives 1970, more than 90
		"From: Ada Author <ada@example.com>\n":                                     false,
		"From the start of time, nothing:\n":                                       false,
		"From x 12:34:56 89\n":                                                     false,
	} {
		if got := mboxFrom([]byte(l)); got != want {
			t.Errorf("mboxFrom(%q) = %v, want %v", l, got, want)
		}
	}
}
