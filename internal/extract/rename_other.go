//go:build !linux

package extract

func renameNoReplace(from, to string) error { return renameChecked(from, to) }
