// Package outdir owns the output folders fecontact writes into (a run's,
// a sweep's and its variants', a survey's): a folder is fecontact's only
// if fecontact made it, and fecontact removes from it only what it wrote.
//
// A folder fecontact owns holds a marker, .fecontact, that says which
// command made it (its kind: "run", "sweep", "explore", "free") and lists
// every file and sub-folder fecontact wrote there, each listed before it
// is created (Folder.Path), so that a run killed at any point leaves
// nothing of its own unlisted. Starting a new output in the folder
// (Create) removes exactly the listed files, the hidden temporaries of
// their interrupted writes, and the listed sub-folders once empty; a
// user's notes, drafts and thesis beside them stay. A non-empty folder
// with no marker is refused with what to do (another folder, or
// Overwrite, which writes fecontact's files among the user's and removes
// none of theirs).
//
// A lock (an advisory flock on the folder itself, held for the Folder's
// life and released by the kernel when the process dies; on the lock file
// where a file system cannot lock a folder) makes a second command into
// the same folder fail at once, naming the command, process and host that
// .fecontact.lock says hold it, instead of mixing two runs' files;
// removing that file does not release the lock. Resume and gather reopen
// a folder (Reopen) under the same lock without clearing. The marker is
// read under the lock.
//
// A folder may come from someone else (an archive, a shared drive), so
// nothing in it is trusted: every read, write and removal resolves inside
// the folder (os.Root); a marker naming anything through a symbolic link,
// outside the folder or the folder itself is refused whole, naming the
// line, before anything is removed; fecontact's own files (the marker,
// the lock's note) are created afresh, never written through a link or a
// hard link at their names.
//
// It is a package of its own because run, sweep, explore and the command
// line all write folders, and the rule must be one.
package outdir
