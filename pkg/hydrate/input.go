package hydrate

import "github.com/rtch/rtch/pkg/lane"

// Input is what hydration reads from the record stream. Hydration needs the
// whole stream (the ranking arrives after the hits), so the command collects it
// first and hydrates at the end of input.
type Input = lane.Lane
