package walk

// openat2Available reports whether the kernel resolves beneath a root.
func openat2Available() bool {
	b := openBeneath("/")
	defer b.close()
	h, _, _, err := b.open("/", ".")
	if err == nil {
		h.close()
	}
	return b.fd >= 0 && !noOpenat2.Load()
}
