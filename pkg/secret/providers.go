package secret

// providerRules are provider token formats gitleaks' default set lacks or
// bounds too narrowly: each is a literal prefix and a body, closed by any
// byte that cannot continue the body (tokenClose, in a non-capturing group,
// so the token is group 1). Their ids are gitleaks' where gitleaks has a
// rule for the provider.
var providerRules = []extraRule{
	// OpenAI project, service-account and admin keys without the
	// T3BlbkFJ marker gitleaks' pattern requires, and user keys of 48
	// letters and digits after sk-
	{id: "openai-api-key", need: []string{"sk-proj-", "sk-svcacct-", "sk-admin-", "sk-none-"},
		group: 1, src: `\b(sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{40,})` + tokenClose},
	{id: "openai-api-key", need: []string{"sk-"}, gate: openAIUserKey, check: hasLetterAndDigit, group: 1,
		src: `\b(sk-[A-Za-z0-9]{48})` + tokenClose},
	// Anthropic keys of every kind (api03, admin01, oat01 …), any length
	{id: "anthropic-api-key", need: []string{"sk-ant-"},
		src: `\bsk-ant-[a-z]{2,8}[0-9]{2}-[A-Za-z0-9_-]{40,}`},
	// Google OAuth client secrets, access tokens and refresh tokens
	{id: "gcp-oauth-client-secret", need: []string{"gocspx-"},
		group: 1, src: `\b(GOCSPX-[A-Za-z0-9_-]{28})` + tokenClose},
	{id: "gcp-oauth-access-token", need: []string{"ya29."},
		src: `\bya29\.[A-Za-z0-9_-]{30,}`},
	{id: "gcp-oauth-refresh-token", need: []string{"1//0"},
		src: `\b1//0[A-Za-z0-9_-]{40,}`},
	// Telegram bot tokens without the word "telegram" on their line, also
	// in the Bot API's URLs (https://api.telegram.org/bot<token>/getMe)
	{id: "telegram-bot-api-token", need: []string{":a"}, gate: telegramToken, group: 1,
		src: `(?:^|[^0-9A-Za-z_]|bot)([0-9]{5,16}:A[A-Za-z0-9_-]{34})` + tokenClose},
	// the short-lived Bedrock key is the prefix gitleaks matches and a
	// presigned request after it
	{id: "aws-amazon-bedrock-api-key-short-lived", need: []string{"bedrock-api-key-"},
		src: `bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=_%-]*`},
	{id: "groq-api-key", need: []string{"gsk_"}, group: 1, src: `\b(gsk_[A-Za-z0-9]{52})` + tokenClose},
	{id: "xai-api-key", need: []string{"xai-"}, group: 1, src: `\b(xai-[A-Za-z0-9]{80})` + tokenClose},
	{id: "openrouter-api-key", need: []string{"sk-or-v1-"}, group: 1, src: `\b(sk-or-v1-[a-f0-9]{64})` + tokenClose},
	{id: "stripe-webhook-secret", need: []string{"whsec_"}, src: `\bwhsec_[A-Za-z0-9+/]{32,}`},
	{id: "supabase-access-token", need: []string{"sbp_"}, group: 1, src: `\b(sbp_[a-f0-9]{40})` + tokenClose},
	{id: "replicate-api-token", need: []string{"r8_"}, group: 1, src: `\b(r8_[A-Za-z0-9]{37})` + tokenClose},
	{id: "tailscale-key", need: []string{"tskey-"}, src: `\btskey-[a-z]{3,8}-[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}`},
}

// openAIUserKey is the gate of the sk- rule: its hit starts a match only
// after a byte that is no word byte and before 48 letters or digits.
func openAIUserKey(text string, at int) bool {
	return (at == 0 || !isWordByte(text[at-1])) && alnumAt(text, at+3, 48)
}

// telegramToken is the gate of the Telegram rule: its hit ":a" (":A")
// follows five digits or more and starts 35 token bytes.
func telegramToken(text string, at int) bool {
	if at < 5 || text[at+1] != 'A' || at+36 > len(text) {
		return false
	}
	for _, c := range []byte(text[at-5 : at]) {
		if c < '0' || c > '9' {
			return false
		}
	}
	for _, c := range []byte(text[at+2 : at+36]) {
		if !isWordByte(c) && c != '-' {
			return false
		}
	}
	return true
}
