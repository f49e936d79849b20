// Package sweep runs parameter studies: variants of one scene, each with
// some of its keys set to other values (Setting: time.h, body.NAME.velocity,
// contact.1.mu), and their figures gathered into one table (sweep.csv).
//
// A study is planned into a folder first (New, then Plan.Write): every
// variant's scene is made and checked before any runs, and a manifest
// (sweep.json) keeps the base scene's text and the settings, so that the
// variants can be run anywhere and in any order: on this machine's cores
// (Plan.Run) or each by itself (Plan.RunVariant, what a task of a Slurm job
// array runs; Plan.SubmitSlurm submits them), then gathered from their
// folders (Plan.Gather).
//
// It is a package apart from cmd/fecontact, which only wires the sweep
// command's flags to it, so that a program can run a study as the command
// does; it draws no picture itself (Table.Write takes a Painter, as
// io/results does, so that it does not need the plotting library).
package sweep
