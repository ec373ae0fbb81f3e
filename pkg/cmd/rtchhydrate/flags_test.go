package rtchhydrate

import (
	"testing"

	"github.com/rtch/rtch/pkg/hydrate"
)

// TestFlagsWin: the flags given replace the configuration's options, and
// --function-order learned switches the learned function order on.
func TestFlagsWin(t *testing.T) {
	base := hydrate.Options{Window: 20, Budget: 8000, EnoughFloor: 90}
	for _, c := range []struct {
		o    options
		want hydrate.Options
	}{
		{options{order: "hand"}, base},
		{options{order: "learned"}, hydrate.Options{Window: 20, Budget: 8000, EnoughFloor: 90, LearnedFunctions: true}},
		{options{order: "hand", window: 5, budget: 100, floor: 50}, hydrate.Options{Window: 5, Budget: 100, EnoughFloor: 50}},
	} {
		got := base
		c.o.apply(&got)
		if got.Window != c.want.Window || got.Budget != c.want.Budget || got.EnoughFloor != c.want.EnoughFloor || got.LearnedFunctions != c.want.LearnedFunctions {
			t.Errorf("%+v: window %d budget %d floor %d learned %v, want %d %d %d %v", c.o, got.Window, got.Budget, got.EnoughFloor, got.LearnedFunctions,
				c.want.Window, c.want.Budget, c.want.EnoughFloor, c.want.LearnedFunctions)
		}
	}
}
