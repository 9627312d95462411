package render

import "testing"

// TestMaximises checks which objectives, as the methods' records describe them, the
// objective figure draws as maximised.
func TestMaximises(t *testing.T) {
	for _, tc := range []struct {
		formula string
		want    bool
	}{
		{"ELBO (mean-field, conjugate collapse)", true},                                   // BAGC
		{"lower bound of BAGC's public code, before each outer iteration's update", true}, // BAGC, protocol reference
		{"ELBO after each iteration (variational EM, parallel updates)", true},            // PAICAN
		{"log-likelihood", true},
		{"Σ_i walk similarity of i and its centre (R(c, i) from the centre, R(i, c) to it)", true}, // SA-Cluster
		{"½·L_ρ(S−UUᵀ) + (λ/2)‖X−f(UH)Vᵀ‖²", false},                                                // NAGC
		{"‖A − HHᵀ‖²", false},                                                                      // SNMF
		{"", false},
	} {
		if got := maximises(tc.formula); got != tc.want {
			t.Errorf("maximises(%q) = %v, want %v", tc.formula, got, tc.want)
		}
	}
}
