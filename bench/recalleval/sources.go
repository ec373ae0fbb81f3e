package main

import (
	"hash/fnv"
)

// source is one public documentation tree at a fixed commit.
type source struct {
	// Repo is github.com/OWNER/NAME.
	Repo string `json:"repo"`
	// Commit is the tree's commit.
	Commit string `json:"commit"`
	// Root is the documentation directory inside the repository ("" for
	// the whole repository).
	Root string `json:"root"`
	// Exclude are directories below Root that are not part of the
	// documentation of that commit (translations, old versions, the blog).
	Exclude []string `json:"exclude,omitempty"`
	// URLBase are the site paths Root is served under ("/docs/"), for
	// site-absolute links.
	URLBase []string `json:"url_base"`
	// Hosts are the site's own host names, for absolute links.
	Hosts []string `json:"hosts,omitempty"`
	// Replace rewrites template text inside link targets before they are
	// resolved ({{< param version >}} → v3.6).
	Replace map[string]string `json:"replace,omitempty"`
}

// name is the source's directory name in the work directory.
func (s source) name() string {
	out := []byte(s.Repo)
	for i, c := range out {
		if c == '/' {
			out[i] = '+'
		}
	}
	return string(out)
}

// heldOut reports whether the source's pairs are held out from tuning: a
// fixed function of the repository name (FNV-1a 32, odd), decided before
// any ranking was measured, so no source was placed by its scores.
func (s source) heldOut() bool {
	h := fnv.New32a()
	h.Write([]byte(s.Repo))
	return h.Sum32()%2 == 1
}

// sources are the documentation trees of the evaluation: the ones among
// ../shared/eval/train-repos.txt whose documentation has an FAQ (rclone,
// poetry, traefik), and other public documentation sites with one.
var sources = []source{
	{Repo: "rclone/rclone", Commit: "64ab1ac32260238eefca3c61327f5faf1c6e106f", Root: "docs/content",
		URLBase: []string{"/"}, Hosts: []string{"rclone.org"}},
	{Repo: "python-poetry/poetry", Commit: "f46702336862f30050d5c641d5ed6f7568ded793", Root: "docs",
		URLBase: []string{"/docs/"}, Hosts: []string{"python-poetry.org"}},
	{Repo: "traefik/traefik", Commit: "fd5a576df2e8aeb0bfc8a96b6ef6e60a61f7ec0a", Root: "docs/content",
		URLBase: []string{"/traefik/"}, Hosts: []string{"doc.traefik.io"}},
	{Repo: "argoproj/argo-cd", Commit: "37ee0097cf851bc2dd7665fc081bbce61a7e836e", Root: "docs",
		URLBase: []string{"/en/stable/", "/en/latest/"}, Hosts: []string{"argo-cd.readthedocs.io"}},
	{Repo: "prometheus/docs", Commit: "c105550aad07161f62d02e305ed09799ec6025fa", Root: "docs",
		URLBase: []string{"/docs/"}, Hosts: []string{"prometheus.io"}},
	{Repo: "rust-lang/cargo", Commit: "af373f761aa4e42b093c2e453078fd73c8ce54dd", Root: "doc/book/src",
		URLBase: []string{"/cargo/"}, Hosts: []string{"doc.rust-lang.org"}},
	{Repo: "nats-io/nats.docs", Commit: "98856081c8843d9fa238b3ea96e1f72d07f31113", Root: "",
		Exclude: []string{"zh-cn", "legacy", "release_notes", "_examples", "_layouts", "_tools", ".gitbook", "docs"},
		URLBase: []string{"/"}, Hosts: []string{"docs.nats.io"}},
	{Repo: "dapr/docs", Commit: "0748da594aae03529034fd4aa1d10d96199df0c1", Root: "daprdocs/content/en",
		URLBase: []string{"/"}, Hosts: []string{"docs.dapr.io"}},
	{Repo: "pnpm/pnpm.io", Commit: "4096ad35b19c7d7e0c2c64c704c57daf5bb91668", Root: "docs",
		URLBase: []string{"/"}, Hosts: []string{"pnpm.io"}},
	{Repo: "fluxcd/website", Commit: "6da0f383c3348b92f94ae5a90c4d2b59ec0144e8", Root: "content/en",
		Exclude: []string{"blog"}, URLBase: []string{"/"}, Hosts: []string{"fluxcd.io"}},
	{Repo: "cert-manager/website", Commit: "776e5dba56510fc9de84206b806b568447077f25", Root: "content/docs",
		URLBase: []string{"/docs/"}, Hosts: []string{"cert-manager.io"}},
	{Repo: "photoprism/photoprism-docs", Commit: "6e3c387f498333c6301e0a2e393634dce4069d67", Root: "docs",
		URLBase: []string{"/"}, Hosts: []string{"docs.photoprism.app"}},
	{Repo: "etcd-io/website", Commit: "824597935df6e95992ef61c07e3222f4f796ca6c", Root: "content/en/docs/v3.6",
		URLBase: []string{"/docs/v3.6/"}, Hosts: []string{"etcd.io"}, Replace: map[string]string{"{{< param version >}}": "v3.6"}},
	{Repo: "starship/starship", Commit: "6f33dcec91b758ccbae4ed850eaa6feabff798f9", Root: "docs",
		Exclude: []string{"[a-z][a-z]-[A-Z][A-Z]", "[a-z][a-z][a-z]-[A-Z][A-Z]"}, URLBase: []string{"/"}, Hosts: []string{"starship.rs"}},
	{Repo: "trpc/trpc", Commit: "340811ba5320637fbaf48fccf3dbfdd258bd34db", Root: "www/docs",
		URLBase: []string{"/docs/"}, Hosts: []string{"trpc.io"}},
	{Repo: "Homebrew/brew", Commit: "aad366ffaf6a8c94c66d35e4b990d42ac4195305", Root: "docs",
		URLBase: []string{"/"}, Hosts: []string{"docs.brew.sh"}},
	{Repo: "golang/vscode-go", Commit: "28e27ffd3a0eca1de30b1a9656a75cbd47e94e4e", Root: "docs",
		URLBase: []string{"/golang/vscode-go/blob/master/docs/"}, Hosts: []string{"github.com"}},
	{Repo: "jdx/mise", Commit: "70e94a1f89fa27f3bbc2b933c6891a124f5ef04c", Root: "docs",
		URLBase: []string{"/"}, Hosts: []string{"mise.jdx.dev"}},
	{Repo: "electron/electron", Commit: "96f3996d8d3ce6e2fcfb86326fc4b953b53936fb", Root: "docs",
		URLBase: []string{"/docs/latest/"}, Hosts: []string{"electronjs.org", "www.electronjs.org"}},
	{Repo: "kubernetes/minikube", Commit: "eb25dbc703701fa38c3f65c89a1896baa375e5ed", Root: "site/content/en/docs",
		URLBase: []string{"/docs/"}, Hosts: []string{"minikube.sigs.k8s.io"}},
	{Repo: "ddev/ddev", Commit: "a278400d9adfa67326f65074476912f1f9091127", Root: "docs/content",
		URLBase: []string{"/en/stable/", "/en/latest/"}, Hosts: []string{"ddev.readthedocs.io", "docs.ddev.com"}},
	{Repo: "go-task/task", Commit: "b250872d9aebcd4857679553339d167478b63514", Root: "website/src/latest",
		URLBase: []string{"/"}, Hosts: []string{"taskfile.dev"}},
	{Repo: "golangci/golangci-lint", Commit: "6fb5dee3889d231640dce56e5e71c522f13aef7e", Root: "docs/content/docs",
		URLBase: []string{"/docs/"}, Hosts: []string{"golangci-lint.run"}},
	{Repo: "ent/ent", Commit: "0a61da2fa2b4b80fbf5c8c58e1b491b7d5d9b4d6", Root: "doc/md",
		URLBase: []string{"/docs/"}, Hosts: []string{"entgo.io"}},
	{Repo: "argoproj/argo-workflows", Commit: "f016ad89eb269d282aec06dc491c29f396a38df4", Root: "docs",
		URLBase: []string{"/en/latest/", "/en/stable/"}, Hosts: []string{"argo-workflows.readthedocs.io"}},
	{Repo: "astral-sh/ruff", Commit: "fca5c7cf2cd2f8338f18b9485f936b8e9f07bd0b", Root: "docs",
		URLBase: []string{"/ruff/"}, Hosts: []string{"docs.astral.sh"}},
	{Repo: "pypa/hatch", Commit: "ed8e30bebf98f2fe4d70c18a32a50a8160c391cb", Root: "docs",
		URLBase: []string{"/latest/", "/dev/"}, Hosts: []string{"hatch.pypa.io"}},
	{Repo: "Automattic/mongoose", Commit: "3e212cec87dbf710216a3c6125121aefa60a4475", Root: "docs",
		URLBase: []string{"/docs/"}, Hosts: []string{"mongoosejs.com"}},
	{Repo: "Textualize/textual", Commit: "1d99508b928a771b51e1a527319c6b87dcff9e05", Root: "docs",
		URLBase: []string{"/"}, Hosts: []string{"textual.textualize.io"}},
}
