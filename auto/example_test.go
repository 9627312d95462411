package auto_test

import (
	"fmt"

	"github.com/nagc-harness/nagc/auto"
)

// ExampleChooseK: the best mean held-out modularity is at k1 = 6, but k1 = 5 is within
// one standard error of it, so the rule takes 5.
func ExampleChooseK() {
	curve := []auto.KPoint{
		{K: 4, Score: 0.52, SE: 0.01},
		{K: 5, Score: 0.60, SE: 0.01},
		{K: 6, Score: 0.61, SE: 0.02},
		{K: 7, Score: 0.58, SE: 0.01},
	}
	fmt.Println(auto.ChooseK(curve))
	// Output: 5
}
