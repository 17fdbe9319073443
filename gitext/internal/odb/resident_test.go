package odb

import "testing"

// A window of fresh blocks drops the pages once, counting a block touched twice once.
func TestResidentDropsOnceAWindow(t *testing.T) {
	drops := 0
	r := &resident{}
	s := newBlockSet(1 << 30)
	r.drop = func() {
		drops++
		r.fresh.Store(0)
		s.reset()
	}
	blocks := residentWindow / faultBlock
	for b := range blocks {
		r.touch(s, b*faultBlock, b*faultBlock+100)
		r.touch(s, b*faultBlock+200, b*faultBlock+300) // the same block again
	}
	if drops != 0 {
		t.Fatalf("%d drops after a window of blocks, want 0", drops)
	}
	r.touch(s, blocks*faultBlock-10, blocks*faultBlock+10) // one old block, one new: past the window
	if drops != 1 {
		t.Fatalf("%d drops past the window, want 1", drops)
	}
	r.touch(s, 0, 1) // forgotten at the drop: fresh again
	if got := r.fresh.Load(); got != 1 {
		t.Fatalf("fresh = %d after a drop and one block, want 1", got)
	}
}
