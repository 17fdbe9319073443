// Package actiontest holds the tests of the GitHub Action at the module's root (action.yml) and of the workflow
// README gives for recording in CI: actionlint reads both (as a library), and TestActionRuns runs the action's own
// scripts as a runner would (not under -short). They live apart from cmd/git-bernstein's tests so that the
// binary those tests run as git-bernstein, once per command of every transcript, does not also carry actionlint
// and its start-up work.
package actiontest
