//go:build unix

package outdir

import (
	"errors"
	"os"
	"syscall"
)

// errWouldBlock is a lock another process holds.
var errWouldBlock = syscall.EWOULDBLOCK

// tryLock takes an exclusive advisory lock on f (a folder or a file)
// without waiting; the kernel releases it when the process ends, however
// it ends.
func tryLock(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EAGAIN) {
		return errWouldBlock
	}
	return err
}

func unlock(f *os.File) { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// links is how many names a file has.
func links(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
