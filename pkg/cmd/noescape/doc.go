// Package noescape holds the end-to-end write-confinement test: every file
// any tool writes inside a project (guild-recall's security-event logs and
// SQLite index, guild-bundle's bundles, rtch-packet's persisted packets and
// -o file, rtch-scout's graph, the tree index kept inside the tree, the
// postgres stat cache), through the command line and through rtch-mcp, is
// written again with a symlink planted at each component of its path, and
// no byte may land outside the tree.
package noescape
