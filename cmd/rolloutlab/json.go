package main

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"

	"github.com/rolloutlab/rolloutlab/engine/session"
	"github.com/rolloutlab/rolloutlab/engine/sim"
	"github.com/rolloutlab/rolloutlab/engine/trace"
)

// traceSchema names the JSON trace format and its version; see
// docs/trace-schema.md.
var traceSchema = "rolloutlab.trace/v" + strconv.Itoa(trace.SchemaVersion)

// traceHeader is the part of the JSON trace before the steps.
type traceHeader struct {
	Schema   string `json:"schema"`
	Seed     uint64 `json:"seed"`
	Scenario string `json:"scenario"`
}

// writeTraceJSON writes the JSON format of `run`: one object
//
//	{"schema":"rolloutlab.trace/v1","seed":1,"scenario":"adoption",
//	"steps":[
//	{"step":1,...},
//	...
//	],
//	"records":[
//	{"seq":1,...},
//	...
//	]}
//
// with one step or record per line so that traces diff well. steps are
// the StepInfo of every step of the current run (steps, or the session's
// history when nil); records the whole trace from set-up on, through
// trace.Record's MarshalJSON.
func writeTraceJSON(w io.Writer, s *session.Session, steps []sim.StepInfo) error {
	if steps == nil {
		steps = s.History()[:s.Step()]
	}
	bw := bufio.NewWriter(w)
	head, err := json.Marshal(traceHeader{Schema: traceSchema, Seed: s.Seed(), Scenario: s.Scenario().Name})
	if err != nil {
		return err
	}
	bw.Write(head[:len(head)-1]) // leave the object open
	bw.WriteString(",\n\"steps\":[")
	for i, info := range steps {
		if err := writeElement(bw, i, info); err != nil {
			return err
		}
	}
	bw.WriteString("\n],\n\"records\":[")
	i := 0
	s.Sim().Recorder().Each(0, func(r trace.Record) bool {
		err = writeElement(bw, i, r)
		i++
		return err == nil
	})
	if err != nil {
		return err
	}
	bw.WriteString("\n]}\n")
	return bw.Flush()
}

// writeElement writes element i of a JSON array on its own line.
func writeElement(bw *bufio.Writer, i int, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if i > 0 {
		bw.WriteByte(',')
	}
	bw.WriteByte('\n')
	_, err = bw.Write(b)
	return err
}
