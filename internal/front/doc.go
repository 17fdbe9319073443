// Package front is the program git runs first as `git bernstein …` (cmd/git-bernstein): it answers
// `commits TICKET` on its own and hands every other command line to git-bernstein-full (cmd/git-bernstein-full,
// the whole CLI, package cli), as git hands a remote to git-remote-https.
//
// Why two programs: `commits` is what people and editors run over and over, and a warm run answered by the
// ticket index does a few milliseconds of work. A Go program starts by initialising every package it links;
// the whole CLI links the S3 and OCI clients, the GitHub client, signers, HTTP and go-git's transports, and
// took 4.7 ms and 15 MiB to print its version, more than a warm `commits` on a small repository may cost (issue
// 26: a tenth of git log --grep, 4.2 ms on go-git's history). The front links the history walk and the listing
// only (packages ticketcommits and discover; gitext without go-git's Repository, whose revision parser lives in
// gitext/revparse, and without go-git's storage, object and config packages, which gitext/objstore has): 4.2 MB
// against 24 MB, and a warm run on go-git went from 8.5 ms and 18 MiB to about 3 ms and 6 MiB. A repository
// that gitext reads only through go-git's storage (alternates, refs behind a symbolic link) is an error before
// the output (gitext.Repo.Unreadable), so git-bernstein-full answers it. The front reads its configuration
// through the configuration cache (gitext.WithConfigCache), which answers without starting git while no file
// git read it from has changed (a git config child is a millisecond and a half of CPU); meanwhile, or while
// the child runs after a change, it lists the refs and reads the ticket index, which need no configuration.
//
// # The configuration it reads
//
// The cache keeps only the keys a `commits` run reads (cachedKey): bernstein.*, trailer.*, diff.*, core.abbrev,
// core.attributesFile and the remotes' URLs. A cached configuration asked for any other key records it
// (gitext.Config.Unanswered, which gitext.Repo.Unreadable reports before the output); the front then writes
// nothing and hands the line over, so a key read by new code but missing from cachedKey costs speed, never a
// wrong answer.
//
// # The contract
//
// The front answers only a command line whose every word it knows, and only when the run succeeds: then
// what it prints, and its exit code, are what git-bernstein-full prints for the same line, since both run the
// same code (ticketcommits, discover). Everything else, --help, any flag it does not know, a word after the
// ticket, any error at all, is handed over before the front has written a byte, and git-bernstein-full runs
// the line from the start and says what is wrong. The words the front knows:
//
//	commits [--json] [--tracker TRACKER] [--match SOURCES] [--trailer KEY]… TICKET
//
// with --name=value or --name value; a --trailer value holding a comma, and a flag given twice (but
// --trailer), are handed over.
//
// # Handing over
//
// git-bernstein-full is looked for beside the front's own executable (symbolic links resolved), then on PATH;
// on Unix the front becomes it (execve: same process, same streams, its exit code), elsewhere it runs it and
// exits with its code. The front puts its process id and version in BERNSTEIN_FRONT ("PID:VERSION"), and
// git-bernstein-full refuses to run a front's command line when its own version differs (CheckHandedOver,
// which package cli calls): two builds would find a ticket's commits with different code, and evidence must not
// depend on which program answered. A front that finds its own process id there was handed its own line back
// (a front installed as git-bernstein-full) and stops with an error instead of handing over again.
package front
