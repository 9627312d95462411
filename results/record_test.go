package results

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLabelsRoundTrip(t *testing.T) {
	for _, labels := range [][]int{{}, {0, 1, 61, 5}, {0, 62, 100, 3}, {7}} {
		got, err := DecodeLabels(EncodeLabels(labels))
		if err != nil || !reflect.DeepEqual(got, labels) && len(labels) > 0 {
			t.Errorf("%v: round trip gave %v, %v", labels, got, err)
		}
	}
	if _, err := DecodeLabels("01#"); err == nil {
		t.Error("bad character accepted")
	}
}

func TestMergeRefusesMissingSource(t *testing.T) {
	if _, err := Merge(t.TempDir(), []string{filepath.Join(t.TempDir(), "nope")}); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("missing source: %v", err)
	}
}
