package report

import "github.com/nagc-harness/nagc/report/paper"

// loadPaperFiles sets opt's paper numbers from opt.PaperFile (paper.LoadPublished;
// "none": NoPaper) and its comparison spec from opt.SpecFile (paper.LoadSpec), where
// given.
func loadPaperFiles(opt *Options) error {
	switch opt.PaperFile {
	case "":
	case "none":
		opt.NoPaper = true
	default:
		p, err := paper.LoadPublished(opt.PaperFile)
		if err != nil {
			return err
		}
		opt.Paper = p
	}
	if opt.SpecFile != "" {
		spec, err := paper.LoadSpec(opt.SpecFile)
		if err != nil {
			return err
		}
		opt.Spec = spec
	}
	return nil
}
