package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Lock files inside a results folder. They stay in place between commands (an empty file
// is an unheld lock); the operating system releases a lock when its process ends, however
// it ends, so a crash never leaves a folder locked.
const (
	// LockFile is held exclusively by every command that writes the folder (`nagc run`,
	// `nagc results rescore`, `nagc merge` into it) and names its holder.
	LockFile = ".nagc.lock"
	// ReadLockFile is held shared by commands that read the folder (`nagc report`,
	// `nagc results summary`, `nagc merge` from it) and exclusively by commands that
	// replace its files (rescore, merge), so that a reader never sees a folder half
	// rewritten. Appending (`nagc run`) does not take it: records appended while a report
	// reads are whole lines, and the report reads up to the last one.
	ReadLockFile = ".nagc-read.lock"
)

// LockHolder describes the process holding a results folder's write lock, as written in
// its LockFile.
type LockHolder struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Command string    `json:"command"`
	Started time.Time `json:"started"`
}

// BusyError is returned when a results folder is locked by another process.
type BusyError struct {
	// Dir is the results folder.
	Dir string
	// Holder is the process holding the write lock; nil when only readers hold the folder
	// or the holder has not yet named itself.
	Holder *LockHolder
	// Reading reports that the refused command wanted to read, not write.
	Reading bool
}

func (e *BusyError) Error() string {
	want := "write to"
	if e.Reading {
		want = "read"
	}
	if e.Holder == nil {
		if e.Reading {
			return fmt.Sprintf("cannot read results folder %s: another nagc command is rewriting it; try again when it has finished", e.Dir)
		}
		return fmt.Sprintf("cannot write to results folder %s: another nagc command is using it (a report, summary or merge reading it, or a command just starting); try again when it has finished", e.Dir)
	}
	h := e.Holder
	return fmt.Sprintf("cannot %s results folder %s: it is in use by `%s` (pid %d on host %s, since %s); wait for it to finish or stop it, then try again",
		want, e.Dir, h.Command, h.PID, h.Host, h.Started.Local().Format("2006-01-02 15:04:05"))
}

// lockGrace is how long taking a lock retries before refusing, so that a command probing
// a lock for an instant (nagc status, see Holder) never makes a starting command fail.
const lockGrace = 300 * time.Millisecond

// tryLockGrace is tryLock retried for up to lockGrace while the lock is busy.
func tryLockGrace(f *os.File, exclusive bool) (bool, error) {
	deadline := time.Now().Add(lockGrace)
	for {
		ok, err := tryLock(f, exclusive)
		if ok || err != nil || time.Now().After(deadline) {
			return ok, err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Lock is a held lock on a results folder; Unlock releases it.
type Lock struct {
	write, read *os.File // nil when not held
}

// LockAppend takes the write lock of the results folder dir (created if missing) for a
// command that only appends records (`nagc run`): a second writer is refused with a
// *BusyError naming this process, while readers may go on. It waits no more than a
// moment (lockGrace).
func LockAppend(dir string) (*Lock, error) { return lockWrite(dir, false) }

// LockRewrite takes the write lock and the read lock of the results folder dir (created
// if missing) exclusively, for a command that replaces its files (rescore, merge into
// dir): any other writer or reader is refused with a *BusyError. It waits no more than
// a moment (lockGrace).
func LockRewrite(dir string) (*Lock, error) { return lockWrite(dir, true) }

// LockRead takes the read lock of the results folder dir shared, for a command that reads
// it: it is refused with a *BusyError only while another process rewrites the folder. A
// folder that does not exist, or that this user cannot write to (a read-only copy), is
// read without a lock (this process cannot take one there).
func LockRead(dir string) (*Lock, error) {
	f, err := lockFile(filepath.Join(dir, ReadLockFile), false, func() error {
		return &BusyError{Dir: dir, Holder: readHolder(dir), Reading: true}
	})
	var busy *BusyError
	switch {
	case errors.As(err, &busy):
		return nil, err
	case errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) || (err != nil && isReadOnly(err)):
		return &Lock{}, nil
	case err != nil:
		return nil, err
	}
	return &Lock{read: f}, nil
}

func lockWrite(dir string, rewrite bool) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	w, err := lockFile(filepath.Join(dir, LockFile), true, func() error {
		return &BusyError{Dir: dir, Holder: readHolder(dir)}
	})
	if err != nil {
		return nil, err
	}
	l := &Lock{write: w}
	if err := writeHolder(w); err != nil {
		l.Unlock()
		return nil, fmt.Errorf("lock %s: %w", w.Name(), err)
	}
	readPath := filepath.Join(dir, ReadLockFile)
	if !rewrite {
		// Appenders create the read lock too, so that a reader finds it from the start.
		r, err := os.OpenFile(readPath, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			l.Unlock()
			return nil, err
		}
		return l, r.Close()
	}
	if l.read, err = lockFile(readPath, true, func() error { return &BusyError{Dir: dir} }); err != nil {
		l.Unlock()
		return nil, err
	}
	return l, nil
}

// lockFile opens the lock file path (created if missing) and locks it, exclusive or
// shared, retrying for lockGrace; when another process holds it, the error is busy().
func lockFile(path string, exclusive bool, busy func() error) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	ok, err := tryLockGrace(f, exclusive)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if !ok {
		f.Close()
		return nil, busy()
	}
	return f, nil
}

// Unlock releases the lock (the write lock's file is emptied first, so that it names no
// holder). Unlocking a nil or released Lock does nothing.
func (l *Lock) Unlock() error {
	if l == nil {
		return nil
	}
	var errs []error
	if l.read != nil {
		errs = append(errs, unlock(l.read), l.read.Close())
		l.read = nil
	}
	if l.write != nil {
		errs = append(errs, l.write.Truncate(0), unlock(l.write), l.write.Close())
		l.write = nil
	}
	return errors.Join(errs...)
}

// writeHolder writes this process's LockHolder into the held lock file f.
func writeHolder(f *os.File) error {
	args := append([]string{filepath.Base(os.Args[0])}, os.Args[1:]...)
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	b, err := json.Marshal(LockHolder{PID: os.Getpid(), Host: host, Command: strings.Join(args, " "), Started: time.Now().UTC()})
	if err != nil {
		return err
	}
	if err := f.Truncate(0); err != nil {
		return err
	}
	if _, err := f.WriteAt(append(b, '\n'), 0); err != nil {
		return err
	}
	return f.Sync()
}

// readHolder reads the holder named in dir's LockFile; nil when it names none.
func readHolder(dir string) *LockHolder {
	f, err := os.Open(filepath.Join(dir, LockFile))
	if err != nil {
		return nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 1<<16))
	if err != nil {
		return nil
	}
	var h LockHolder
	if json.Unmarshal(b, &h) != nil || h.PID == 0 {
		return nil
	}
	return &h
}
