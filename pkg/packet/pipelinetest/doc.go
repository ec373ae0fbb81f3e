// Package pipelinetest runs the whole lane, rtch-intake through rtch-packet,
// in-process under testscript on small trees (testdata/script/rtch-packet/
// pipeline). It is apart from the rtch-hydrate and rtch-packet command tests
// so that those build and run on fixture streams alone.
package pipelinetest
