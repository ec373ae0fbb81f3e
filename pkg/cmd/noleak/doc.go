// Package noleak holds the end-to-end secret test: a tree and a wiki with
// fifty planted secrets in thirty-three files go through every tool, and no
// secret may appear in any byte any tool writes (stdout, stderr, -o files,
// persisted packets, bundles). The fixture is built by Fixture so the same
// tree can be handed to other builds for comparison.
package noleak
