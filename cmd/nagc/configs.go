package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/nagc-harness/nagc/configs"
	"github.com/nagc-harness/nagc/experiments"
)

// runConfigs implements `nagc configs list` and `nagc configs show NAME`.
func runConfigs(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const usageLine = "configs list | configs show NAME"
	fs := newFlagSet("configs", usageLine, stderr)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) == 1 && pos[0] == "list":
		for _, c := range experiments.ShippedConfigs() {
			fmt.Fprintf(stdout, "%-10s %s\n", c.Name, c.Description)
		}
		fmt.Fprintln(stdout, "\nRun one with `nagc run NAME`; `nagc configs show NAME > my.yaml` copies it to edit, then `nagc run my.yaml`.")
		return nil
	case len(pos) == 2 && pos[0] == "show":
		raw, ok := configs.Lookup(pos[1])
		if !ok {
			return fmt.Errorf("no shipped config %q (shipped: %s)", pos[1], strings.Join(configs.Names(), ", "))
		}
		_, err := stdout.Write(raw)
		return err
	}
	fs.Usage()
	return errUsage
}
