//go:build unix

package outdir

import (
	"os"
	"syscall"
)

// tryLock takes an exclusive advisory lock on f without waiting; the
// kernel releases it when the process ends, however it ends.
func tryLock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

func unlock(f *os.File) { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
