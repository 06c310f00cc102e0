//go:build js && wasm

package main

import "syscall/js"

// isolateTableName is the globalThis property holding the write counts; it
// outlives the per-request Go instance (see writeLimiter).
const isolateTableName = "__rolloutlabWriteWindow"

// jsTable is a windowTable kept in a JavaScript object on globalThis:
// {start: number, counts: Map<string, number>}.
type jsTable struct{ obj js.Value }

// isolateTable returns the isolate's table, creating it on first use.
func isolateTable() jsTable {
	g := js.Global()
	obj := g.Get(isolateTableName)
	if obj.IsUndefined() {
		obj = g.Get("Object").New()
		obj.Set("start", 0)
		obj.Set("counts", g.Get("Map").New())
		g.Set(isolateTableName, obj)
	}
	return jsTable{obj: obj}
}

func (t jsTable) start() int64 { return int64(t.obj.Get("start").Float()) }
func (t jsTable) reset(ms int64) {
	t.obj.Set("start", ms)
	t.obj.Get("counts").Call("clear")
}
func (t jsTable) count(c string) (int, bool) {
	v := t.obj.Get("counts").Call("get", c)
	if v.IsUndefined() {
		return 0, false
	}
	return v.Int(), true
}
func (t jsTable) setCount(c string, n int) { t.obj.Get("counts").Call("set", c, n) }
func (t jsTable) size() int                { return t.obj.Get("counts").Get("size").Int() }
