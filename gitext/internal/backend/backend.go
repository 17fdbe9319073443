// Package backend lets gitext hand the go-git repository under a gitext.Repo to gitext's own sub-packages
// (patch), and to no one else: Go lets only packages under gitext/ import this package, so only they can make
// the Key that gitext.Repo.Backend asks for. Every other package reads git through gitext.Repo's methods.
package backend

// Key unlocks gitext.Repo.Backend. Its field is unexported, so no literal of an identical type can be written
// outside this package.
type Key struct{ _ struct{} }
