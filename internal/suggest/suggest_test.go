package suggest

import (
	"fmt"
	"testing"
)

func TestClosest(t *testing.T) {
	keys := []string{"name", "algorithm", "options", "grid", "datasets"}
	for _, c := range []struct{ word, want string }{
		{"algoritm", "algorithm"},
		{"algorihtm", "algorithm"}, // a swap is one edit
		{"Option", "options"},
		{"grdi", "grid"},
		{"gird", "grid"},
		{"xyz", ""},
		{"dataset", "datasets"},
		{"nam", "name"},
		{"completely-different", ""},
	} {
		if got := Closest(c.word, keys); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.word, got, c.want)
		}
	}
	if got := Closest("kmean", []string{"random", "kmeans", "kmeans-median-ari", "sgc"}); got != "kmeans" {
		t.Errorf("Closest(kmean) = %q", got)
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"ab", "ba", 1}, {"abc", "abc", 0}, {"flaw", "lawn", 2},
	} {
		if got := distance([]rune(c.a), []rune(c.b)); got != c.want {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func ExampleDidYouMean() {
	fmt.Printf("unknown key 'algoritm'%s\n", DidYouMean("algoritm", []string{"name", "algorithm", "grid"}))
	// Output: unknown key 'algoritm' (did you mean 'algorithm'?)
}
