package slurm

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/nagc-harness/nagc/experiments"
)

// Locate completes j for the sweep of cfg, read from config (a file, or the name of a
// shipped config, which stays a name: the tasks' nagc has it too), recorded into the
// folder results: its default name, nagc-<config name>, and the absolute paths of this
// nagc program, of the config file and of the results folder.
func (j *Job) Locate(cfg *experiments.Config, config, results string) error {
	var err error
	if j.Name == "" {
		j.Name = "nagc-" + cfg.ShortName()
	}
	if j.Nagc, err = os.Executable(); err != nil {
		return fmt.Errorf("cannot find the nagc program the tasks should run: %w", err)
	}
	if j.Config, err = filepath.Abs(config); err != nil {
		return err
	}
	if _, err := os.Stat(config); err != nil {
		j.Config = config
	}
	j.Results, err = filepath.Abs(results)
	return err
}
