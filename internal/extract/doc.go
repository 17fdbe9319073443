// Package extract unwraps a ticket bundle the way an auditor should: verification and extraction come from one
// read of the archive's bytes (a verify.Sink), so no second tar parser, with its own reading of the headers, is
// ever involved. `tar xzf` of an untrusted archive is not the same thing: tar readers differ on exactly the
// headers a forger would use, and tar restores modes, owners and links the archive asks for.
//
// What Extract guarantees:
//   - Members are written into a fresh staging folder beside the destination (".<name>.extract-*", mode 0700),
//     each file created with O_CREAT|O_EXCL|O_NOFOLLOW and mode 0644 (never setuid, never a link, never a
//     device), folders with mode 0755, through an os.Root on the staging folder, so no name reaches outside it.
//     Names were already checked by the verifier: relative, no "..", no backslash, no NUL or control character.
//   - Every file is fsynced. Only when the verdict is VERIFIED (or, with AllowUnverified, when the bundle is
//     intact and merely unsigned or unchecked: no check failed) is the staging folder renamed to the
//     destination, without replacing anything there (renameat2 RENAME_NOREPLACE on Linux), and the parent
//     folder fsynced. Otherwise the staging folder is removed and nothing is left behind.
//   - The destination must not exist: extraction never merges into or overwrites a folder.
//   - Two member names that one file system treats as the same (letter case on macOS, NFC/NFD) cannot both be
//     created: the second is an error naming both, and nothing is extracted.
package extract
