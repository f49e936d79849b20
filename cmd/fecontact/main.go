// Command fecontact computes the dynamics of 2D elastic bodies with
// unilateral contact and Coulomb friction by the Non-Smooth Contact
// Dynamics method of Jean and Moreau.
//
// Usage:
//
//	fecontact run scene.toml [-o out/] [--refine N] [--kind Q8]
//	fecontact example colliding-blocks [-o out/]
//	fecontact info scene.toml
//	fecontact solve PROBLEM.json... [--tol 1e-8]
//	fecontact mesh FILE.msh [-o out.vtu]
//	fecontact mesh rect --kind Q8 --size 0.12x0.04 --cells 30x10 [-o out.vtu]
//	fecontact free [flags] -o out/
//	fecontact bench [--refine 1,2,4,8,16] [colliding-blocks]
//
// Run "fecontact help" or "fecontact CMD -h" for the flags of each command.
// The command only wires packages together: the numerics live in the
// packages of the module.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fecontact/fecontact/examples"
)

func main() {
	os.Exit(execute(os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage marks errors in the command line itself (exit status 2).
var errUsage = errors.New("usage")

type command struct {
	name, summary string
	run           func(args []string, stdout io.Writer) error
}

func commands() []command {
	return []command{
		{"run", "run a scene file and write ParaView files, a CSV history and pictures", runCmd},
		{"example", "run a built-in example scene (" + strings.Join(examples.Names(), ", ") + ")", exampleCmd},
		{"info", "describe a scene: bodies, DOFs, contacts, wave speeds, stable explicit step, memory", infoCmd},
		{"solve", "solve frictional contact problems (JSON exchange format) and time NLGS", solveCmd},
		{"mesh", "summarise a mesh (Gmsh file or built-in rectangle) and write it as .vtu", meshCmd},
		{"free", "run a free elastic body (no contact) and write a ParaView time series", freeCmd},
		{"bench", "time a built-in example at several refinements: the performance table of docs/performance.md", benchCmd},
		{"plot", "draw a column of several runs' history.csv against time (compare runs)", plotCmd},
		{"explore", "survey the contact forces that hold rigid bodies at rest (random Gauss-Seidel runs and the exact sets)", exploreCmd},
		{"granular", "measure the rigid grains of a run's folder: coordination, solid fraction, fabric, stress, force distribution", granularCmd},
		{"sweep", "run variants of a scene (--set KEY=VALUES) on the cores and gather their figures in one CSV and plot", sweepCmd},
		{"gallery", "run every example and write their pictures and the page that shows them (docs/gallery.md)", galleryCmd},
		{"version", "say which fecontact this is (version, commit, Go)", versionCmd},
	}
}

// execute runs one command line and returns the exit status.
func execute(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] {
			err := c.run(args[1:], stdout)
			switch {
			case err == nil:
				return 0
			case errors.Is(err, flag.ErrHelp):
				return 0
			case errors.Is(err, errUsage):
				fmt.Fprintf(stderr, "fecontact %s: %v\n", c.name, err)
				return 2
			case errors.Is(err, errInterrupted):
				fmt.Fprintf(stderr, "fecontact %s: %v\n", c.name, err)
				return 130
			default:
				fmt.Fprintf(stderr, "fecontact %s: %v\n", c.name, err)
				return 1
			}
		}
	}
	fmt.Fprintf(stderr, "fecontact: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: fecontact COMMAND [arguments]\n\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'fecontact COMMAND -h' for a command's flags.")
}

// parse parses flags that may come before, between or after positional
// arguments, and returns the positional ones.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
