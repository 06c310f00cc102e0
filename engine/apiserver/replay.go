package apiserver

import (
	"fmt"
	"reflect"
)

// Replays that share the versions they store again.
//
// A seek restores a checkpoint and replays the steps after it. The run is
// deterministic, so every write of the replay stores a version equal to
// the one the first pass stored, with the same resourceVersion; without
// help it is a new copy. The checkpoints taken after the one restored hold
// the first pass's versions: a checkpoint taken during the replay (the
// scratch one of a step back, or one the idle refinement inserts) then
// shares none of its objects with them and keeps a second copy of each
// alive, and the live state after the seek does too. While the server
// replays toward a later checkpoint of the same run (ReplayToward), a
// write stores the version that checkpoint holds under the same key with
// the same resourceVersion and UID, which is this write's version from the
// first pass, instead of the new copy. Stored objects are never changed in
// place, so sharing them is safe.
//
// A resourceVersion names one write of one run only: once the run leaves
// the path the checkpoint was taken on (a user action that was not made
// there), the same number is another write. The caller must stop
// (ReplayToward(nil)) before anything but the recorded steps and actions
// runs.

// VerifyReplayedVersions makes every shared version be compared with the
// copy it replaces, panicking unless they are deeply equal (tests set it).
var VerifyReplayedVersions = false

// ReplayToward makes the server share, with cp, the versions its writes
// store again (see above); cp is a checkpoint of this run taken after the
// current state. nil stops it.
func (s *Server) ReplayToward(cp *Checkpoint) { s.replayTo = cp }

// replayed returns the version the checkpoint replayed toward holds for
// obj (under key, of resource res, with obj's resourceVersion), or obj.
func (s *Server) replayed(res Resource, key string, obj Object) Object {
	if s.replayTo == nil {
		return obj
	}
	t, ok := s.replayTo.tables[res]
	if !ok {
		return obj
	}
	orig, ok := t.objs.Get(key)
	if !ok || orig == obj || orig.GetResourceVersion() != obj.GetResourceVersion() || orig.GetUID() != obj.GetUID() {
		return obj
	}
	if VerifyReplayedVersions && !reflect.DeepEqual(orig, obj) {
		panic(fmt.Sprintf("replayed write of %s %s (resourceVersion %s) differs from the first pass's", res, key, obj.GetResourceVersion()))
	}
	return orig
}
