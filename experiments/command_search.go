package experiments

import "math"

// checkProgramBudget checks that command row m can be pruned as s says: a program
// cannot be continued from a rung, so halving refits it at each rung with
// params.iterations set to the rung's iterations, which needs the row to give its
// program a whole number of iterations (options: {iterations: N}, N ≥ 2).
func (c *Config) checkProgramBudget(m MethodSpec, s *SearchSpec) error {
	n, ok := m.Options["iterations"]
	if !ok {
		return c.errf(s.lineOf("prune"), "prune", "a program of yours is not continued from a rung: prune: %s refits it at each rung "+
			"with params.iterations set to the rung's iterations, and row %q gives no iterations option; give options: {iterations: N} "+
			"(the iterations of a whole fit; your program must read params.iterations), or prune: none", s.Prune, m.Name.Value)
	}
	v, _ := scalar(&n)
	if f, isNum := toFloat(v); !isNum || f != math.Trunc(f) || f < 2 || f > MaxIterations {
		return c.errf(n.Line, "iterations", "prune: %s gives your program the iterations of each rung as params.iterations: "+
			"want a whole number of iterations from 2 to %d, got %v", s.Prune, MaxIterations, v)
	}
	return nil
}

// programSettings adds to settings what the records of a search of a command row
// depend on beyond a built-in method's: the argv, the SHA-256 of the files it names
// (a script edited after runs were recorded is another search), the time-out and
// whether the program reads the labels. It adds nothing for a built-in method, whose
// settings stay as they were.
func (t *searchTask) programSettings(settings map[string]any) {
	p := t.row.program
	if p == nil {
		return
	}
	var sums []string
	if files, err := p.hashed(); err == nil {
		for _, f := range files {
			sums = append(sums, f.SHA256)
		}
	}
	settings["command"] = p.Argv
	settings["command_sha256"] = sums
	settings["timeout"] = p.Timeout.String()
	settings["reads_labels"] = p.ReadsLabels
}

// programIterations returns the iterations a fit of a command row was given (its
// whole-number iterations parameter), 0 when it was given none: a program is refitted
// from the start at each rung, so it runs them all.
func programIterations(r Run) int {
	if r.Program == nil {
		return 0
	}
	f, ok := toFloat(r.Params["iterations"])
	if !ok || f != math.Trunc(f) || f < 0 || f > MaxIterations {
		return 0
	}
	return int(f)
}
