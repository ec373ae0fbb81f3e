// Package hugeheap asks the kernel to back a process's Go heap with
// transparent huge pages where the system leaves that to the program
// (Linux's "madvise" mode; docs/decisions/hugeheap.md). A lane stage is a
// short-lived process whose heap grows to tens of megabytes once; with
// 4 KiB pages each first touch of a page is a fault, and on a virtual
// machine whose page-table updates trap to the hypervisor those faults
// cost more than the stage's own work. With 2 MiB pages a 32 MiB heap
// takes 16 faults instead of 8,192.
package hugeheap

// Prepare marks up to n bytes of the heap's address space (at most a
// quarter of the machine's memory) for huge pages and gives them back to
// the heap, where the next allocations take them. It is for a process's
// start (cli.Main), n about what the process's heap grows to; it costs
// about 6 ms and 1 ms per 100 MiB, and does nothing where the platform
// has no such advice.
func Prepare(n int) { prepare(n) }
