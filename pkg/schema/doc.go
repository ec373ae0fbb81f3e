// Package schema defines the payload of every record kind the toolkit emits. Each
// struct embeds record.Envelope first, so its JSON starts with kind, v and id and
// carries the payload flat. The structs are the schema: docs/records.md describes
// the same fields for readers who do not read Go.
package schema

// Kind names and their current versions.
const (
	KindIntake    = "rtch.intake"
	KindZone      = "rtch.zone"
	KindGate      = "rtch.gate"
	KindShape     = "rtch.shape"
	KindCandidate = "rtch.candidate"
	KindBasket    = "rtch.basket"
	KindProbe     = "rtch.probe"
	KindHit       = "rtch.hit"
	KindRank      = "rtch.rank"
	KindChunk     = "rtch.chunk"
	KindSkip      = "rtch.skip"
	KindPacket    = "rtch.packet"
	KindRehydrate = "rtch.rehydrate"
	KindFunctions = "rtch.functions"
	KindHandoff   = "rtch.handoff"

	KindRecall          = "guild.recall"
	KindBundleReceipt   = "guild.bundle_receipt"
	KindBundleThreshold = "guild.bundle_threshold"
	KindLeadContext     = "guild.lead_context"

	// V1 is the version of every kind above today.
	V1 = 1
)
