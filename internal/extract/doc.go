// Package extract unwraps a ticket bundle the way an auditor should: verification and extraction come from one
// read of the archive's bytes (a verify.Sink), so no second tar parser, with its own reading of the headers, is
// ever involved. `tar xzf` of an untrusted archive is not the same thing: tar readers differ on exactly the
// headers a forger would use, and tar restores modes, owners and links the archive asks for.
//
// What Extract guarantees:
//   - Members are written into a fresh staging folder beside the destination (".<name>.extract-*", mode 0700),
//     each file created with O_CREAT|O_EXCL|O_NOFOLLOW and mode 0644 (never setuid, never a link, never a
//     device), folders with mode 0755, through os.Root handles on the staging folder, so no name reaches outside
//     it. Names were already checked by the verifier before any member reaches the extractor: relative, no "..",
//     no backslash, NUL or control character, no .git part in any form git guards against, each in its section's
//     folder, none a folder of another, at most 32 parts.
//   - Nested folders cost one open each: the folders of the last member stay open (one os.Root per level, at
//     most 32), so a member beside or below the last one opens only the folders that differ.
//   - Every file is fsynced. Only when the verdict is VERIFIED (or, with AllowUnverified, when the bundle is
//     intact and merely unsigned or unchecked: no check failed, or the only one that did is a repository check
//     that could not be made) is the staging folder renamed to the destination, mode 0755 (less the umask, as
//     the folders in it), without replacing anything there (renameat2 RENAME_NOREPLACE on Linux), and the parent
//     folder fsynced. Otherwise the staging folder is removed and nothing is left behind.
//   - With Verify.Repository set (extract --repo), the repository check runs as verify's does: a bundle whose
//     git section the repository contradicts is FAILED and never extracted.
//   - The destination must not exist: extraction never merges into or overwrites a folder.
//   - Two member names that one file system treats as the same (letter case on macOS, NFC/NFD) cannot both be
//     created: the second is an error naming both, and nothing is extracted.
//   - A process killed while extracting (kill -9, a crash, a power cut) leaves its staging folder behind; the
//     next Extract into the same parent folder removes it and says so (Result.Swept). Only folders provably
//     ours and abandoned are removed: the staging folder's first entry is a marker file (".git-bernstein-extract",
//     mode 0600, created O_EXCL|O_NOFOLLOW) that its writer locks (flock) before giving it its contents, and a
//     folder is removed only when, opened with no symlink followed, it is a folder of ours (our uid, mode 0700,
//     named like one) holding that marker (a regular file of ours with one link and our contents) whose lock is
//     free, which the kernel guarantees once its writer has ended. A folder without it (including one from a
//     process killed in the instant between making the folder and locking its marker, or between removing the
//     marker and the final rename, and one from an extract older than markers) is never removed; when it is a
//     folder of the user's named like ours it is listed in Result.Unproven, so that the user can look.
//
// On Windows there is no O_NOFOLLOW and no flock (create_other.go, stale_other.go): files are still created
// O_CREATE|O_EXCL through os.Root, and each new file is then held to the entry at its name (a plain file, no
// reparse point, os.SameFile with the opened handle) or the extraction fails; staging folders left by a killed
// process are never swept there, since nothing proves their writer gone.
package extract
