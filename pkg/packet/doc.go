// Package packet is stages 7 and 8 of the rtch pipeline: it assembles the
// evidence packet (rtch.packet, SPEC §9) from the whole record stream of a lane,
// decides its halting reason from the evidence and the intake's
// enough_evidence_definition, writes its honest unresolved questions, caution
// map and next legal probes, renders it as JSON, YAML or a Markdown brief, and
// persists it atomically for rehydration and handoff.
package packet
