package paper

import "fmt"

// Error is a fault in a paper's YAML file: the file (as named to the reader), the line
// (0 if unknown) and what is wrong.
type Error struct {
	File string
	Line int
	Err  error
}

// Error implements error: "file:line: fault".
func (e *Error) Error() string {
	switch {
	case e.File == "":
		return e.Err.Error()
	case e.Line == 0:
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

// Unwrap returns the fault.
func (e *Error) Unwrap() error { return e.Err }

// errorf returns an *Error at a line of file.
func errorf(file string, line int, format string, args ...any) error {
	return &Error{File: file, Line: line, Err: fmt.Errorf(format, args...)}
}
