package rtchmcp

import "testing"

// The stages' diagnostics, said in the MCP tool's terms.
func TestSpeak(t *testing.T) {
	cases := []struct{ tool, in, want string }{
		{"rtch_context", "rtch-intake: error: intake declined: missing enough_evidence_definition (--enough)\nrtch-intake: hint: the intake is the lane's contract: set the fields with flags, --intake FILE or [intake] in .rtch.toml\n",
			"rtch_context: error: intake declined: missing enough_evidence_definition (enough)\n"},
		{"rtch_context", "rtch-scout: warning: a/b.go: permission denied\n", "rtch_context: warning: a/b.go: permission denied\n"},
		{"guild_bundle", "guild-bundle: warning: lane T3-tech-writer waits on the receipt of T2-backend; not built (run guild-bundle --plan .guild/plan/invoice-retries.md --task T3-tech-writer --run-id r1 once it exists)\n",
			"guild_bundle: warning: lane T3-tech-writer waits on the receipt of T2-backend; not built (run guild_bundle plan=.guild/plan/invoice-retries.md task=T3-tech-writer run_id=r1 once it exists)\n"},
		{"guild_bundle", "guild-bundle: error: give exactly one of --task and --all\nguild-bundle: hint: use --task ID (repeatable) for some lanes or --all for every lane\n",
			"guild_bundle: error: give exactly one of task and all\nguild_bundle: hint: use task ID (repeatable) for some lanes or all for every lane\n"},
		{"guild_recall", "guild-recall: error: --query is required\nguild-recall: hint: guild-recall --query \"how are payments retried\"\n",
			"guild_recall: error: query is required\nguild_recall: hint: guild_recall query=how are payments retried\n"},
		{"rtch_reenter", "rtch-hydrate: error: --reenter \"x.go:L9\": x.go has 3 lines; L9 is past the end\n", "rtch_reenter: error: range \"x.go:L9\": x.go has 3 lines; L9 is past the end\n"},
		{"rtch_context", "rtch-packet: error: --tokenizer: tokenizer \"gpt2\": want one of chars4, o200k, cl100k\n", "rtch_context: error: tokenizer: tokenizer \"gpt2\": want one of chars4, o200k, cl100k\n"},
		{"rtch_context", "rtch-scout: hint: pipe rtch-intake … | rtch-zone into rtch-scout\nrtch-scout: error: x\n", "rtch_context: error: x\n"},
		{"rtch_reenter", "range \"../x\": outside the root /srv", "range \"../x\": outside the root /srv"},
		{"rtch_context", "a path a--b.go stays", "a path a--b.go stays"},
	}
	for _, c := range cases {
		if got := speak(c.tool, c.in); got != c.want {
			t.Errorf("speak(%s, %q)\n got %q\nwant %q", c.tool, c.in, got, c.want)
		}
	}
}
